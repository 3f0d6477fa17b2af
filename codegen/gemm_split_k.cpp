#include "codegen/gemm_split_k.hpp"

#include <fmt/format.h>

#include <bit>
#include <vector>

#include "codegen/gemm_epilogue.hpp"
#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

uint32_t gemm_reduce_grid(const GemmPlan& p) {
  const int64_t per_wg = int64_t(kGemmReduceThreads) * kGemmReduceElemsPerThread;
  return uint32_t((int64_t(p.shape.M) * p.shape.N + per_wg - 1) / per_wg);
}

GemmSlicePointers gemm_slice_pointers(Kernel& k, DslEmitter& e, const GemmPlan& p, Reg a, Reg b, Reg workspace) {
  const GemmShape& s = p.shape;
  const uint32_t slice_k = uint32_t(s.K / p.cfg.split_k);
  // A slice starts slice_k elements along K: slice_k elements into a K-contiguous row, slice_k whole
  // rows of an operand stored with K as the row index (A of TN/TT: M per row, B of NN/TN: N per row).
  const uint32_t esize = uint32_t(p.esize);
  const uint32_t a_step = slice_k * esize * (gemm_a_k_rows(s.layout) ? uint32_t(s.M) : 1u);
  const uint32_t b_step = slice_k * esize * (gemm_b_k_rows(s.layout) ? uint32_t(s.N) : 1u);
  Reg z = k.workgroup_id(2);
  GemmSlicePointers r;
  r.a = e.sptr_add(a, e.smul_i32(z, a_step, "a_slice_bytes"), "a_slice");
  r.b = e.sptr_add(b, e.smul_i32(z, b_step, "b_slice_bytes"), "b_slice");
  r.workspace = e.sptr_add(workspace, e.smul_i32(z, uint32_t(p.slice_bytes()), "ws_slice_bytes"), "ws_slice");
  return r;
}

namespace {

// The epilogue of 4 consecutive fp32 sums `v` of C at byte offset `co` (kOob: dropped), columns
// n .. n + 3 of one row (N % 4 == 0), in the order of the GEMM kernel's epilogue: alpha * v,
// + beta * C (read here), + bias[n] (read at byte offset `bo`, 16 bytes), the activation, then bf16
// or f16 RNE (two per dword) or fp32, one store.
class QuadEpilogue : protected DslEmitter {
 public:
  QuadEpilogue(Kernel& k, const GemmPlan& p) : DslEmitter(k), p_(p) {}

 protected:
  // The bias argument (after workspace and C) when the shape has one.
  void load_bias_arg() {
    if (p_.shape.bias != GemmBias::none) bias_ = k_.load_arg(k_.arg_ptr("bias", ElemType::f32, true));
  }
  void make_bias_rsrc() {
    if (bias_.valid()) bias_rsrc_ = rsrc(bias_, p_.bias_bytes(), "bias_rsrc");
  }

  void finish_quad(Reg v, Reg co, Reg cr, Reg bo) {
    const GemmShape& s = p_.shape;
    const bool f32 = s.output == GemmOutput::f32;
    Reg cin, bias;
    if (s.beta != 0.0f) {
      cin = k_.vgpr("c_in", f32 ? 4 : 2, f32 ? 4 : 2);
      if (f32) k_.buffer_load_dwordx4(cin, co, cr, 0, offen);
      else k_.buffer_load_dwordx2(cin, co, cr, 0, offen);
    }
    if (bias_rsrc_.valid()) {
      bias = k_.vgpr("bias", 4, 4);
      k_.buffer_load_dwordx4(bias, bo, bias_rsrc_, 0, offen);
    }
    if (cin.valid() || bias.valid()) k_.s_waitcnt(vmcnt(0));
    Reg alpha, beta;
    if (s.alpha != 1.0f) alpha = sconst(std::bit_cast<uint32_t>(s.alpha), "alpha");
    if (s.beta != 0.0f) beta = sconst(std::bit_cast<uint32_t>(s.beta), "beta");
    const GemmActivationConsts act = gemm_activation_consts(k_, *this, s.act);
    for (int i = 0; i < 4; ++i) {
      if (alpha.valid()) k_.v_mul_f32(v[i], alpha, v[i]);
      if (beta.valid()) {
        Reg x = k_.vgpr("c_value");
        if (f32) {
          k_.v_mov_b32(x, cin[i]);
        } else if (s.output == GemmOutput::f16) {
          if (i % 2 == 0) k_.v_cvt_f32_f16(x, cin[i / 2]);  // low f16 -> fp32
          else {
            k_.v_lshrrev_b32(x, 16, cin[i / 2]);  // high f16 -> fp32
            k_.v_cvt_f32_f16(x, x);
          }
        } else if (i % 2 == 0) {
          k_.v_lshlrev_b32(x, 16, cin[i / 2]);  // low bf16 -> fp32
        } else {
          k_.v_and_b32(x, sconst(0xffff0000u, "high_half"), cin[i / 2]);  // high bf16 -> fp32
        }
        k_.v_fma_f32(v[i], beta, x, v[i]);
      }
      if (bias.valid()) k_.v_add_f32(v[i], v[i], bias[i]);
      gemm_activation(k_, s.act, v[i], act);
    }
    if (f32) {
      k_.buffer_store_dwordx4(v, co, cr, 0, offen);
      return;
    }
    // bf16 / f16 RNE, two elements per dword (element 2j in the low half)
    Reg packed = k_.vgpr("half4", 2, 2);
    if (s.output == GemmOutput::f16) {
      for (int j = 0; j < 2; ++j) {
        Reg lo = k_.vgpr("f16_lo");
        Reg hi = k_.vgpr("f16_hi");
        k_.v_cvt_f16_f32(lo, v[2 * j]);
        k_.v_cvt_f16_f32(hi, v[2 * j + 1]);
        k_.v_lshlrev_b32(hi, 16, hi);
        k_.v_and_or_b32(packed[j], lo, sconst(0xffffu, "low_half"), hi);
      }
    } else if (p_.arch == Arch::gfx950) {
      for (int j = 0; j < 2; ++j) k_.v_cvt_pk_bf16_f32(packed[j], v[2 * j], v[2 * j + 1]);
    } else {
      Reg c7fff = sconst(0x7fff, "c7fff");
      for (int j = 0; j < 2; ++j) {
        Reg lo = round_bf16_high(k_, v[2 * j], c7fff);
        k_.v_lshrrev_b32(lo, 16, lo);
        Reg hi = round_bf16_high(k_, v[2 * j + 1], c7fff);
        k_.v_and_or_b32(packed[j], hi, sconst(0xffff0000u, "high_half"), lo);
      }
    }
    k_.buffer_store_dwordx2(packed, co, cr, 0, offen);
  }

  Reg bias_, bias_rsrc_;
  const GemmPlan& p_;
};

// Split-K reduction. Thread t of workgroup w sums elements 4 * (w * threads + t) .. + 3 of every
// slice (one 16-byte load per slice, all in flight before the first add; the slice rides in
// soffset, which the buffer range check does not cover, so one num_records of M * N * 4 bytes
// bounds every slice). Threads past M * N load and store at kOob (dropped); N % 4 == 0 (plan)
// keeps a thread's four elements all in range or all out.
class ReduceGenerator : QuadEpilogue {
 public:
  using QuadEpilogue::QuadEpilogue;

  void emit() {
    const GemmShape& s = p_.shape;
    const bool f32 = s.output == GemmOutput::f32;
    const int S = p_.cfg.split_k, osize = p_.out_esize();
    k_.set_workgroup_size(uint32_t(kGemmReduceThreads));
    Reg ws = k_.load_arg(k_.arg_ptr("workspace", ElemType::f32, true));
    Reg c = k_.load_arg(k_.arg_ptr("c", f32 ? ElemType::f32 : s.output == GemmOutput::f16 ? ElemType::f16 : ElemType::bf16, false));
    load_bias_arg();
    Reg wg = k_.workgroup_id(0);
    Reg tid = k_.workitem_id(0);
    k_.s_waitcnt(lgkmcnt(0));
    const int64_t elems = int64_t(s.M) * s.N;
    Reg wr = rsrc(ws, p_.slice_bytes(), "ws_rsrc");
    Reg cr = rsrc(c, p_.c_bytes(), "c_rsrc");
    make_bias_rsrc();
    Reg q = k_.vgpr("quad");  // index of the thread's group of 4 elements
    k_.v_add_u32(q, smul(wg, uint32_t(kGemmReduceThreads), "wg_base"), tid);
    k_.v_cmp_gt_u32(vcc, sconst(uint32_t(elems / kGemmReduceElemsPerThread), "quads"), q);
    Reg ok = k_.sgpr("in_range", 2, 2);
    k_.s_mov_b64(ok, vcc);
    Reg wo = k_.vgpr("ws_off");
    k_.v_lshlrev_b32(wo, 4, q);
    k_.v_cndmask_b32(wo, oob(), wo, ok);
    Reg co = k_.vgpr("c_off");
    k_.v_lshlrev_b32(co, std::countr_zero(unsigned(4 * osize)), q);
    k_.v_cndmask_b32(co, oob(), co, ok);

    std::vector<Reg> part;
    for (int z = 0; z < S; ++z) {
      part.push_back(k_.vgpr(fmt::format("slice{}", z), 4, 4));
      if (z == 0) k_.buffer_load_dwordx4(part.back(), wo, wr, 0, offen);
      else k_.buffer_load_dwordx4(part.back(), wo, wr, sconst(uint32_t(z * p_.slice_bytes()), "slice_offset"), offen);
    }
    Reg v = part[0];
    // slice order: the adds of slice z wait only for slices 0..z (loads retire in order)
    for (int z = 1; z < S; ++z) {
      k_.s_waitcnt(vmcnt(S - 1 - z));
      for (int i = 0; i < 4; ++i) k_.v_add_f32(v[i], v[i], part[size_t(z)][i]);
    }
    k_.s_waitcnt(vmcnt(0));
    Reg bo;  // bias byte offset: column (4q mod N) * 4
    if (bias_rsrc_.valid()) {
      Reg e = k_.vgpr("elem");
      k_.v_lshlrev_b32(e, 2, q);
      Reg row = vdiv(e, divisor(uint32_t(s.N)), "row");
      bo = vrem(e, row, uint32_t(s.N), "col");
      k_.v_lshlrev_b32(bo, 2, bo);
      k_.v_cndmask_b32(bo, oob(), bo, ok);
    }
    finish_quad(v, co, cr, bo);
  }
};

// Stream-K fix-up, one workgroup per output tile t: the workgroups whose iteration ranges cover the
// tile's K tiles are wlo = t * KT / P .. whi = (t * KT + KT - 1) / P; when they are one, that
// workgroup stored the whole tile and this one exits. Otherwise thread q of the 256 sums elements
// 4q .. 4q + 3 (+ 1024 j) of the tile-local partial tiles in K order: slot 2 wlo + (wlo's range
// starts before the tile: its last segment), then slot 2w for w = wlo + 1 .. whi (their first
// segments), and finishes them as the reduction does.
class FixupGenerator : QuadEpilogue {
 public:
  using QuadEpilogue::QuadEpilogue;

  void emit() {
    const GemmShape& s = p_.shape;
    const GemmConfig& c = p_.cfg;
    const uint32_t KT = uint32_t(p_.k_tiles), P = uint32_t(p_.sk_per), slot_bytes = uint32_t(p_.sk_slot_bytes());
    k_.set_workgroup_size(uint32_t(kGemmReduceThreads));
    Reg ws = k_.load_arg(k_.arg_ptr("workspace", ElemType::f32, true));
    Reg cp = k_.load_arg(k_.arg_ptr("c", s.output == GemmOutput::f32 ? ElemType::f32
                                         : s.output == GemmOutput::f16 ? ElemType::f16
                                                                       : ElemType::bf16, false));
    load_bias_arg();
    Reg t = k_.workgroup_id(0);
    Reg tid = k_.workitem_id(0);
    k_.s_waitcnt(lgkmcnt(0));
    Reg first = smul_i32(t, KT, "first_iteration");
    Reg last = k_.sgpr("last_iteration");
    k_.s_add_u32(last, first, int64_t(KT - 1));
    Reg wlo = sdiv(first, P, "wlo");
    Reg whi = sdiv(last, P, "whi");
    oob();
    k_.if_scc([&] { k_.s_cmp_lg_u32(wlo, whi); }, [&] {
      Reg lo_slot = k_.sgpr("lo_slot");
      Reg lo_begin = smul_i32(wlo, P, "lo_begin");
      k_.s_lshl_b32(lo_slot, wlo, 1);
      k_.s_cmp_lt_u32(lo_begin, first);
      k_.s_addc_u32(lo_slot, lo_slot, 0);  // + 1: the tile is wlo's last segment, not its first
      Reg lo_off = smul_i32(lo_slot, slot_bytes, "lo_slot_bytes");
      Reg tn = sdiv(t, uint32_t(p_.tiles_m), "tile_n");
      Reg tm = smod(t, tn, uint32_t(p_.tiles_m), "tile_m");
      Reg m0 = smul(tm, uint32_t(c.tile_m), "m0");
      Reg n0 = smul(tn, uint32_t(c.tile_n), "n0");
      Reg wr = rsrc(ws, p_.sk_workspace_bytes(), "ws_rsrc");
      Reg cr = rsrc(cp, p_.c_bytes(), "c_rsrc");
      make_bias_rsrc();
      const Divisor tn_div = divisor(uint32_t(c.tile_n));
      for (int j = 0; j < c.tile_m * c.tile_n / (4 * kGemmReduceThreads); ++j) {
        Reg q = k_.vgpr("quad");
        k_.v_add_u32(q, int64_t(j * kGemmReduceThreads), tid);
        Reg e = k_.vgpr("elem");
        k_.v_lshlrev_b32(e, 2, q);
        Reg row = vdiv(e, tn_div, "row");
        Reg col = vrem(e, row, uint32_t(c.tile_n), "col", true);
        Reg m = vadd_sv(m0, row, 0, "m");
        Reg n = vadd_sv(n0, col, 0, "n");
        Reg co = vmul(m, uint32_t(s.N) * uint32_t(p_.out_esize()), "c_row_bytes");
        vmad_small(co, n, uint32_t(p_.out_esize()), co);
        k_.v_cmp_gt_u32(vcc, sconst(uint32_t(s.M), "M"), m);
        Reg ok = k_.sgpr("ok", 2, 2);
        k_.s_mov_b64(ok, vcc);
        k_.v_cmp_gt_u32(vcc, sconst(uint32_t(s.N), "N"), n);
        k_.s_and_b64(ok, ok, vcc);
        k_.v_cndmask_b32(co, oob(), co, ok);
        Reg bo;  // bias byte offset n * 4
        if (bias_rsrc_.valid()) {
          bo = k_.vgpr("bias_off");
          k_.v_lshlrev_b32(bo, 2, n);
          k_.v_cndmask_b32(bo, oob(), bo, ok);
        }
        Reg wo = k_.vgpr("ws_off");
        k_.v_lshlrev_b32(wo, 4, q);
        Reg v = k_.vgpr("sum", 4, 4);
        k_.buffer_load_dwordx4(v, wo, wr, lo_off, offen);
        Reg w = k_.sgpr("w");
        k_.s_add_u32(w, wlo, 1);
        k_.do_while_scc(
            [&] {
              Reg off = smul_i32(w, 2 * slot_bytes, "slot_bytes");
              Reg x = k_.vgpr("part", 4, 4);
              k_.buffer_load_dwordx4(x, wo, wr, off, offen);
              k_.s_waitcnt(vmcnt(0));
              for (int i = 0; i < 4; ++i) k_.v_add_f32(v[i], v[i], x[i]);
              k_.s_add_u32(w, w, 1);
            },
            [&] { k_.s_cmp_le_u32(w, whi); });
        finish_quad(v, co, cr, bo);
      }
    });
  }
};

}  // namespace

BuildResult build_gemm_stream_k_fixup(const GemmPlan& p, const BuildOptions& opts) {
  if (!p.stream())
    throw Error(fmt::format("gemm: the stream-K fix-up kernel exists only for stream_k > 0 (config {})", p.cfg.str()));
  Kernel k(fmt::format("gemm_stream_k_fixup_{}", gemm_output_name(p.shape.output)), p.arch);
  FixupGenerator(k, p).emit();
  return k.build(opts);
}

BuildResult build_gemm_split_k_reduce(const GemmPlan& p, const BuildOptions& opts) {
  if (!p.split())
    throw Error(fmt::format("gemm: the split-K reduction kernel exists only for split_k > 1 (config {})", p.cfg.str()));
  Kernel k(fmt::format("gemm_split_k_reduce_{}", gemm_output_name(p.shape.output)), p.arch);
  ReduceGenerator(k, p).emit();
  return k.build(opts);
}

}  // namespace cdnajit::codegen
