#include "codegen/gemm_split_k.hpp"

#include <fmt/format.h>

#include <bit>
#include <vector>

#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

uint32_t gemm_reduce_grid(const GemmPlan& p) {
  const int64_t per_wg = int64_t(kGemmReduceThreads) * kGemmReduceElemsPerThread;
  return uint32_t((int64_t(p.shape.M) * p.shape.N + per_wg - 1) / per_wg);
}

GemmSlicePointers gemm_slice_pointers(Kernel& k, DslEmitter& e, const GemmPlan& p, Reg a, Reg b, Reg workspace) {
  const GemmShape& s = p.shape;
  const uint32_t slice_k = uint32_t(s.K / p.cfg.split_k);
  const uint32_t b_step = s.layout == GemmLayout::NN ? slice_k * uint32_t(s.N) * 2 : slice_k * uint32_t(p.esize);
  Reg z = k.workgroup_id(2);
  GemmSlicePointers r;
  r.a = e.sptr_add(a, e.smul_i32(z, slice_k * uint32_t(p.esize), "a_slice_bytes"), "a_slice");
  r.b = e.sptr_add(b, e.smul_i32(z, b_step, "b_slice_bytes"), "b_slice");
  r.workspace = e.sptr_add(workspace, e.smul_i32(z, uint32_t(p.slice_bytes()), "ws_slice_bytes"), "ws_slice");
  return r;
}

namespace {

// Thread t of workgroup w sums elements 4 * (w * threads + t) .. + 3 of every slice (one 16-byte
// load per slice, all in flight before the first add; the slice rides in soffset, which the
// buffer range check does not cover, so one num_records of M * N * 4 bytes bounds every slice).
// Threads past M * N load and store at kOob (dropped); N % 4 == 0 (plan) keeps a thread's four
// elements all in range or all out.
class ReduceGenerator : DslEmitter {
 public:
  ReduceGenerator(Kernel& k, const GemmPlan& p) : DslEmitter(k), p_(p) {}

  void emit() {
    const GemmShape& s = p_.shape;
    const bool f32 = s.output == GemmOutput::f32;
    const int S = p_.cfg.split_k, osize = p_.out_esize();
    k_.set_workgroup_size(uint32_t(kGemmReduceThreads));
    Reg ws = k_.load_arg(k_.arg_ptr("workspace", ElemType::f32, true));
    Reg c = k_.load_arg(k_.arg_ptr("c", f32 ? ElemType::f32 : ElemType::bf16, false));
    Reg wg = k_.workgroup_id(0);
    Reg tid = k_.workitem_id(0);
    k_.s_waitcnt(lgkmcnt(0));
    const int64_t elems = int64_t(s.M) * s.N;
    Reg wr = rsrc(ws, p_.slice_bytes(), "ws_rsrc");
    Reg cr = rsrc(c, p_.c_bytes(), "c_rsrc");
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
      Reg soff = z == 0 ? Reg{} : sconst(uint32_t(z * p_.slice_bytes()), "slice_offset");
      if (z == 0) k_.buffer_load_dwordx4(part.back(), wo, wr, 0, offen);
      else k_.buffer_load_dwordx4(part.back(), wo, wr, soff, offen);
    }
    Reg cin;
    if (s.beta != 0.0f) {
      cin = k_.vgpr("c_in", f32 ? 4 : 2, f32 ? 4 : 2);
      if (f32) k_.buffer_load_dwordx4(cin, co, cr, 0, offen);
      else k_.buffer_load_dwordx2(cin, co, cr, 0, offen);
    }
    const int loads = S + (cin.valid() ? 1 : 0);
    Reg v = part[0];
    // slice order: the adds of slice z wait only for slices 0..z (loads retire in order)
    for (int z = 1; z < S; ++z) {
      k_.s_waitcnt(vmcnt(loads - 1 - z));
      for (int i = 0; i < 4; ++i) k_.v_add_f32(v[i], v[i], part[size_t(z)][i]);
    }
    k_.s_waitcnt(vmcnt(0));
    Reg alpha, beta;
    if (s.alpha != 1.0f) alpha = sconst(std::bit_cast<uint32_t>(s.alpha), "alpha");
    if (s.beta != 0.0f) beta = sconst(std::bit_cast<uint32_t>(s.beta), "beta");
    for (int i = 0; i < 4; ++i) {
      if (alpha.valid()) k_.v_mul_f32(v[i], alpha, v[i]);
      if (!beta.valid()) continue;
      Reg x = k_.vgpr("c_value");
      if (f32) k_.v_mov_b32(x, cin[i]);
      else if (i % 2 == 0) k_.v_lshlrev_b32(x, 16, cin[i / 2]);         // low bf16 -> fp32
      else k_.v_and_b32(x, sconst(0xffff0000u, "high_half"), cin[i / 2]);  // high bf16 -> fp32
      k_.v_fma_f32(v[i], beta, x, v[i]);
    }
    if (f32) {
      k_.buffer_store_dwordx4(v, co, cr, 0, offen);
      return;
    }
    // bf16 RNE, two elements per dword (element 2j in the low half)
    Reg packed = k_.vgpr("bf16x4", 2, 2);
    if (p_.arch == Arch::gfx950) {
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

 private:
  const GemmPlan& p_;
};

}  // namespace

BuildResult build_gemm_split_k_reduce(const GemmPlan& p, const BuildOptions& opts) {
  if (!p.split())
    throw Error(fmt::format("gemm: the split-K reduction kernel exists only for split_k > 1 (config {})", p.cfg.str()));
  Kernel k(fmt::format("gemm_split_k_reduce_{}", gemm_output_name(p.shape.output)), p.arch);
  ReduceGenerator(k, p).emit();
  return k.build(opts);
}

}  // namespace cdnajit::codegen
