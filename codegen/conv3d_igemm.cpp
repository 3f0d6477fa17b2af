// The implicit-GEMM conv3d generators. See conv3d_igemm.hpp for the kernel
// structure; the comments here say why each piece is emitted the way it is.
//
// LDS layout: one stage holds the A tile (tile_m rows) then the B tile (tile_n rows),
// each row tile_k elements plus padding. The fragment reads of an MFMA block (16x16 or
// 32x32) touch 16 or 32 consecutive rows at one column, consecutive lanes on consecutive
// rows: LDS (32 banks x 4 bytes on CDNA3) serves 8 lanes of a ds_read_b128 or 16 lanes of a
// ds_read_b64 per pass, so every pass reads 8 or 16 consecutive rows for either block size. With rows of
// 64 + 16 = 80 bytes (b128) the 8 rows of a pass start at banks 0, 20, 8, 28, 16, 4,
// 24, 12: eight disjoint 4-bank groups; with 128 + 16 = 144 bytes (fp8 on gfx950)
// at 0, 4, ..., 28. With 64 + 8 = 72 bytes (b64) the 16 rows start at 16 distinct
// even banks. So fragment reads are conflict free by padding (no swizzle). The
// 16-byte chunk writes (once per K tile) may conflict 2-way; they are 1/6 of the
// LDS traffic at the default tile.
#include "codegen/conv3d_igemm.hpp"

#include <fmt/format.h>

#include <bit>
#include <functional>
#include <map>
#include <vector>

#include "codegen/const_division.hpp"
#include "codegen/mfma_gemm_emitter.hpp"
#include "codegen/mfma_tile.hpp"
#include "jit/isa/error.hpp"

namespace cdnajit::codegen {
namespace {

class IgemmGenerator : MfmaGemmEmitter {
 public:
  IgemmGenerator(Kernel& k, const Conv3dPlan& p) : MfmaGemmEmitter(k), p_(p), s_(p.shape), c_(p.cfg) {}

  void emit() {
    k_.set_workgroup_size(uint32_t(p_.threads));
    lds_base_ = k_.lds_alloc("stages", p_.lds_bytes, 16);
    ElemType et = p_.dtype == Conv3dDType::bf16 ? ElemType::bf16 : ElemType::fp8;
    Arg a_x = k_.arg_ptr("xt", et, true);
    Arg a_w = k_.arg_ptr("wt", et, true);
    Arg a_b = k_.arg_ptr("bias", ElemType::f32, true);
    Arg a_y = k_.arg_ptr(p_.uses_workspace() ? "workspace" : "y",
                         p_.uses_workspace() || p_.output == Conv3dOutput::f32 ? ElemType::f32 : ElemType::bf16,
                         false);
    Reg x = k_.load_arg(a_x), w = k_.load_arg(a_w), y = k_.load_arg(a_y);
    Reg b;
    if (s_.bias && !p_.uses_workspace()) b = k_.load_arg(a_b);
    tid_ = k_.workitem_id(0);
    k_.s_waitcnt(lgkmcnt(0));
    x_ptr_ = x;
    w_ptr_ = w;
    x_rsrc_ = rsrc(x, p_.xt_bytes(), "xt_rsrc");
    w_rsrc_ = rsrc(w, p_.wt_bytes(), "wt_rsrc");
    y_ptr_ = y;
    int64_t out_bytes = s_.output_elems() * (p_.uses_workspace() ? 4 : p_.out_esize());
    y_rsrc_ = rsrc(y, out_bytes, "y_rsrc");
    if (b.valid()) b_rsrc_ = rsrc(b, int64_t(s_.K) * 4, "bias_rsrc");

    // Out-of-range markers as VGPRs: v_cndmask with an SGPR-pair mask is VOP3, which takes no literal on gfx9.
    oob_v_ = oob();
    invalid_v_ = k_.vgpr("invalid");
    k_.v_mov_b32(invalid_v_, kInvalidPart);
    coordinates();
    load_setup();
    lds_setup();
    acc_ = zero_accumulators(p_.blocks_m, p_.blocks_n, p_.mfma.acc_regs());
    main_loop();
    epilogue();
  }

 private:
  // ---------------------------------------------------------------- setup
  void coordinates() {
    Reg wg0 = k_.workgroup_id(0), wg1 = k_.workgroup_id(1);
    bool mf = c_.mapping == Conv3dMapping::m_fastest;
    m0_ = smul(mf ? wg0 : wg1, uint32_t(c_.tile_m), "m0");
    n0_ = smul(mf ? wg1 : wg0, uint32_t(c_.tile_n), "n0");
    // K tiles of this split: [start, start + count).
    k_start_ = k_.sgpr("k_elem0");
    count_ = k_.sgpr("k_tiles");
    if (p_.splits > 1) {
      Reg z = k_.workgroup_id(2);
      Reg start = smul(z, uint32_t(p_.tiles_per_split), "k_tile0");
      k_.s_sub_u32(count_, int64_t(p_.k_tiles), start);
      k_.s_min_u32(count_, count_, sconst(uint32_t(p_.tiles_per_split)));
      k_.s_mul_i32(k_start_, start, sconst(uint32_t(c_.tile_k)));
    } else {
      k_.s_mov_b32(k_start_, 0);
      k_.s_mov_b32(count_, int64_t(p_.k_tiles));
    }
    const WaveGrid w = wave_grid(tid_, c_.waves_m);
    wm_ = w.wm;
    wn_ = w.wn;
    lane_ = w.lane;
  }

  // Per-thread global load state, fixed over the K loop: for A chunk i the output
  // pixel's input origin (d0, h0, w0) and its byte offset in xt; for B chunk i the
  // weight row's byte offset (or the out-of-range marker).
  void load_setup() {
    int cpr = p_.chunks_per_row;
    int rows_step = p_.threads / cpr;
    Reg ch = k_.vgpr("chunk");
    k_.v_and_b32(ch, cpr - 1, tid_);
    Reg row0 = k_.vgpr("chunk_row");
    k_.v_lshrrev_b32(row0, int(std::countr_zero(unsigned(cpr))), tid_);
    if (p_.lds_dma) {
      // The chunk at LDS slot ch of row r holds logical chunk ch ^ ((r / swizzle_rows) % cpr);
      // the plan guarantees the xor is the same for all of a thread's rows.
      Reg x = chunk_swizzle(row0, p_.swizzle_rows, cpr, "swizzle");
      Reg lc = k_.vgpr("logical_chunk");
      k_.v_xor_b32(lc, ch, x);
      kch_ = vmul(lc, uint32_t(p_.chunk_elems), "chunk_k");
      zero_a_ = k_.vgpr("xt_zero_tail");
      k_.v_mov_b32(zero_a_, int64_t(p_.xt_bytes()));
      zero_b_ = k_.vgpr("wt_zero_tail");
      k_.v_mov_b32(zero_b_, int64_t(p_.wt_bytes()));
    } else {
      kch_ = vmul(ch, uint32_t(p_.chunk_elems), "chunk_k");
    }

    const uint32_t P = uint32_t(s_.out_pixels_per_image()), HW = uint32_t(s_.Ho()) * s_.Wo();
    Divisor dP = divisor(P), dHW = divisor(HW), dWo = divisor(uint32_t(s_.Wo()));
    const uint32_t cpe = uint32_t(p_.Cp * p_.esize);
    for (int i = 0; i < p_.a_chunks; ++i) {
      Reg m = vadd_sv(m0_, row0, uint32_t(i * rows_step), "m");
      Reg n = vdiv(m, dP, "n");
      Reg pix = vrem(m, n, P, "p");
      Reg od = vdiv(pix, dHW, "od");
      Reg rem = vrem(pix, od, HW, "rem");
      Reg oh = vdiv(rem, dWo, "oh");
      Reg ow = vrem(rem, oh, uint32_t(s_.Wo()), "ow");
      // origin = o * stride - pad (wrapping: the unsigned bound checks reject negatives)
      auto origin = [&](Reg o, int dim, const char* name) {
        Reg v = vmul(o, uint32_t(s_.stride[dim]), name);
        if (s_.pad[dim]) k_.v_subrev_u32(v, int64_t(s_.pad[dim]), v);
        return v;
      };
      Reg d0 = origin(od, 0, "d0"), h0 = origin(oh, 1, "h0"), w0 = origin(ow, 2, "w0");
      // Rows past M: d0 = 2^30 fails every depth check.
      k_.v_cmp_gt_u32(vcc, sconst(uint32_t(s_.gemm_m())), m);
      k_.v_cndmask_b32(d0, invalid_v_, d0, vcc);
      // byte offset of (n, d0, h0, w0, 0): (((n*D + d0)*H + h0)*W + w0) * Cp * esize
      Reg o = vmul(n, uint32_t(s_.D), "nd");
      k_.v_add_u32(o, o, d0);
      Reg o2 = vmul(o, uint32_t(s_.H), "ndh");
      k_.v_add_u32(o2, o2, h0);
      Reg o3 = vmul(o2, uint32_t(s_.W), "ndhw");
      k_.v_add_u32(o3, o3, w0);
      Reg ob = vmul(o3, cpe, "pix_bytes");
      a_d0_.push_back(d0);
      a_h0_.push_back(h0);
      a_w0_.push_back(w0);
      a_pix_.push_back(ob);
    }
    for (int i = 0; i < p_.b_chunks; ++i) {
      Reg kc = vadd_sv(n0_, row0, uint32_t(i * rows_step), "kc");
      Reg off = vmul(kc, uint32_t(p_.kdim_padded * p_.esize), "w_row_bytes");
      Reg kb = vmul(kch_, uint32_t(p_.esize), "chunk_bytes");
      k_.v_add_u32(off, off, kb);
      if (p_.lds_dma) {  // the row check is applied per tile (the K offset is added in the VGPR)
        Reg ok = k_.sgpr("w_row_ok", 2, 2);
        k_.v_cmp_gt_u32(ok, sconst(uint32_t(s_.K)), kc);
        b_ok_.push_back(ok);
      } else {
        k_.v_cmp_gt_u32(vcc, sconst(uint32_t(s_.K)), kc);
        k_.v_cndmask_b32(off, oob_v_, off, vcc);
      }
      b_off_.push_back(off);
    }
    // Constants of the per-tile decode, kept in SGPRs over the loop.
    div_cp_ = divisor(uint32_t(p_.Cp));
    div_rs_ = divisor(uint32_t(s_.R * s_.S));
    div_s_ = divisor(uint32_t(s_.S));
    row0_ = row0;
    ch_ = ch;
  }

  // DMA: M0 base of this wave's chunks in stage 0 (toggled between the stages like the
  // read bases); fragment read bases per (k-step, 16-byte part) because the swizzle is an xor.
  void lds_setup_dma() {
    const DmaWaveBase dma = dma_wave_base(wave_index(tid_), lds_base_, c_.stages == 2, p_.lds_stage_bytes);
    dma_base_ = dma.base;
    dma_tog_ = dma.toggle;
    const int mb = p_.mfma.m, mb_log2 = std::countr_zero(unsigned(mb));
    Reg l16 = k_.vgpr("l16");
    k_.v_and_b32(l16, 15, lane_);
    Reg lrow = k_.vgpr("lane_row");  // fragment row l % m
    k_.v_and_b32(lrow, mb - 1, lane_);
    Reg lq = k_.vgpr("lq");  // K group l / m
    k_.v_lshrrev_b32(lq, mb_log2, lane_);
    // (row / swizzle_rows) % cpr repeats every 16 rows (plan check), so l % 16 gives it for either block size.
    Reg x = chunk_swizzle(l16, p_.swizzle_rows, p_.chunks_per_row, "swizzle");
    const WaveLdsRows rows = wave_lds_rows(wm_, wn_, p_.wave_m, p_.wave_n, c_.tile_m);
    ra_bases_ = dma_fragment_bases(tile_layout(), lds_base_, rows.a, lrow, lq, x, "lds_ra");
    rb_bases_ = dma_fragment_bases(tile_layout(), lds_base_, rows.b, lrow, lq, x, "lds_rb");
    if (c_.stages == 2) {
      ra_togs_ = stage_toggles(ra_bases_, p_.lds_stage_bytes, "lds_read_toggle");
      rb_togs_ = stage_toggles(rb_bases_, p_.lds_stage_bytes, "lds_read_toggle");
    }
    // Immediate offsets stay within conv3d_max_ds_offset(p_), checked by make_conv3d_plan.
  }

  void lds_setup() {
    if (p_.lds_dma) return lds_setup_dma();
    const int RB = p_.lds_row_bytes;
    // writes: A chunk i at (row0 + i*rows_step)*RB + ch*16, B after the A tile
    w_base_ = chunk_write_base(ch_, row0_, RB, lds_base_);
    const FragmentBases f = fragment_read_bases(lane_, wm_, wn_, p_.mfma.m, p_.mfma.a_bytes, p_.wave_m, p_.wave_n,
                                                c_.tile_m, uint32_t(RB), lds_base_);
    ra_base_ = f.a;
    rb_base_ = f.b;
    if (c_.stages == 2) {
      w_tog_ = stage_toggle(w_base_, p_.lds_stage_bytes, "lds_w_toggle");
      ra_tog_ = stage_toggle(ra_base_, p_.lds_stage_bytes, "lds_ra_toggle");
      rb_tog_ = stage_toggle(rb_base_, p_.lds_stage_bytes, "lds_rb_toggle");
    }
    // Immediate offsets stay within conv3d_max_ds_offset(p_), checked by make_conv3d_plan.
  }

  // ------------------------------------------------------------ K tiles
  // Issues the global loads of the K tile starting at element `k0` (SGPR) into the
  // staging registers.
  void issue_loads(Reg k0, int set = 0) {
    const std::vector<Reg>& stage_a = stage_a_[size_t(set)];
    const std::vector<Reg>& stage_b = stage_b_[size_t(set)];
    k_.comment("im2col decode and global loads of one K tile");
    Reg kv = k_.vgpr("k");
    k_.v_add_u32(kv, k0, kch_);
    Reg tap = vdiv(kv, div_cp_, "tap");
    Reg c = vrem(kv, tap, uint32_t(p_.Cp), "c", true);
    Reg t = vdiv(tap, div_rs_, "t");
    Reg rs = vrem(tap, t, uint32_t(s_.R * s_.S), "rs", true);
    Reg r = vdiv(rs, div_s_, "r");
    Reg sv = vrem(rs, r, uint32_t(s_.S), "s", true);
    Reg k_ok = k_.sgpr("k_in_range", 2, 2);
    k_.v_cmp_gt_u32(k_ok, sconst(uint32_t(p_.kdim)), kv);
    // tap byte offset: ((t*dd*H + r*dh)*W + s*dw)*Cp*esize + c*esize
    const uint32_t cpe = uint32_t(p_.Cp * p_.esize);
    Reg toff = vmul(c, uint32_t(p_.esize), "c_bytes");
    vmad_small(toff, t, uint32_t(s_.dil[0]) * s_.H * s_.W * cpe, toff);
    vmad_small(toff, r, uint32_t(s_.dil[1]) * s_.W * cpe, toff);
    vmad_small(toff, sv, uint32_t(s_.dil[2]) * cpe, toff);
    auto dilated = [&](Reg x, int d, const char* name) { return d == 1 ? x : vmul(x, uint32_t(d), name); };
    Reg tdd = dilated(t, s_.dil[0], "t_dil");
    Reg rdh = s_.pad[1] ? dilated(r, s_.dil[1], "r_dil") : Reg{};
    Reg sdw = s_.pad[2] ? dilated(sv, s_.dil[2], "s_dil") : Reg{};
    for (int i = 0; i < p_.a_chunks; ++i) {
      // in range iff di < D, hi < H, wi < W (unsigned) and k < kdim; without padding in a
      // dimension, h and w cannot leave the input (rows past M fail the depth check).
      Reg di = k_.vgpr("di");
      k_.v_add_u32(di, a_d0_[size_t(i)], tdd);
      Reg ok = k_.sgpr("in_range", 2, 2);
      k_.v_cmp_gt_u32(ok, sconst(uint32_t(s_.D)), di);
      k_.s_and_b64(ok, ok, k_ok);
      auto check = [&](Reg o0, Reg step, uint32_t lim) {
        Reg v = k_.vgpr("coord");
        k_.v_add_u32(v, o0, step);
        Reg m = k_.sgpr("coord_ok", 2, 2);
        k_.v_cmp_gt_u32(m, sconst(lim), v);
        k_.s_and_b64(ok, ok, m);
      };
      if (s_.pad[1]) check(a_h0_[size_t(i)], rdh, uint32_t(s_.H));
      if (s_.pad[2]) check(a_w0_[size_t(i)], sdw, uint32_t(s_.W));
      Reg off = k_.vgpr("a_off");
      k_.v_add_u32(off, a_pix_[size_t(i)], toff);
      if (p_.lds_dma) {
        k_.v_cndmask_b32(off, zero_a_, off, ok);
        dma_chunk(dma_base_, uint32_t(i * p_.threads * 16), off, x_ptr_);  // out of range: the zero tail
      } else {
        k_.v_cndmask_b32(off, oob_v_, off, ok);
        k_.buffer_load_dwordx4(stage_a[size_t(i)], off, x_rsrc_, 0, offen);
      }
    }
    // B: weights are zero-padded to whole K tiles, so only the row check (in b_off) matters.
    Reg kb;
    if (c_.prefetch == 2) {
      // The lookahead past the last K tile must stay inside wt: the buffer range check covers
      // the VGPR offset, not soffset, so the K offset is clamped to the last tile (re-read, unused).
      Reg kc = k_.sgpr("k_clamped");
      k_.s_min_u32(kc, k0, sconst(uint32_t((p_.k_tiles - 1) * c_.tile_k), "last_k_tile"));
      kb = smul(kc, uint32_t(p_.esize), "k_bytes");
    } else {
      kb = smul(k0, uint32_t(p_.esize), "k_bytes");
    }
    for (int i = 0; i < p_.b_chunks; ++i) {
      if (p_.lds_dma) {
        Reg off = k_.vgpr("b_off");
        k_.v_add_u32(off, kb, b_off_[size_t(i)]);
        k_.v_cndmask_b32(off, zero_b_, off, b_ok_[size_t(i)]);
        dma_chunk(dma_base_, uint32_t((c_.tile_m * p_.lds_row_bytes) + i * p_.threads * 16), off, w_ptr_);
      } else {
        k_.buffer_load_dwordx4(stage_b[size_t(i)], b_off_[size_t(i)], w_rsrc_, kb, offen);
      }
    }
  }

  void write_lds(int set = 0) {
    const std::vector<Reg>& stage_a = stage_a_[size_t(set)];
    const std::vector<Reg>& stage_b = stage_b_[size_t(set)];
    const int RB = p_.lds_row_bytes, step = p_.threads / p_.chunks_per_row;
    auto put = [&](Reg data, int byte) { write_lds_chunk(w_base_, data, byte, p_.lds_pad_bytes == 16); };
    for (int i = 0; i < p_.a_chunks; ++i) put(stage_a[size_t(i)], i * step * RB);
    for (int i = 0; i < p_.b_chunks; ++i) put(stage_b[size_t(i)], (c_.tile_m + i * step) * RB);
  }

  // One K tile of MFMAs out of the current stage (codegen/mfma_tile.hpp: fragment reads first,
  // each MFMA waiting only for its own two fragments; ascending k-steps per accumulator, the
  // HIP reference's order).
  void compute(const std::function<void()>& after_reads = {}) {
    emit_mfma_tile(k_, tile_layout(), {ra_base_, rb_base_, ra_bases_, rb_bases_}, acc_, after_reads);
  }

  MfmaTileLayout tile_layout() const {
    return {p_.mfma, p_.esize, p_.lds_row_bytes, p_.mfma_per_tile, p_.blocks_m, p_.blocks_n};
  }

  // Loads K tile kcur into LDS (stage 0) and waits until every wave's part is there: by DMA,
  // whose LDS writes vmcnt counts, or through the staging registers and LDS writes.
  void load_tile_to_lds(Reg kcur) {
    issue_loads(kcur);
    if (p_.lds_dma)
      publish_tile(0);
    else
      publish_tile(0, [&] { write_lds(); });
  }

  // One LDS stage: load -> LDS -> barrier -> MFMAs -> barrier (the next tile's writes wait for
  // every wave's reads).
  void single_stage_loop(Reg kcur, Reg left) {
    k_.s_mov_b32(left, count_);
    counted_loop(left, [&] {
      load_tile_to_lds(kcur);
      compute();
      k_.s_barrier();
      k_.s_add_u32(kcur, kcur, int64_t(c_.tile_k));
    });
  }

  // The K loop of the one- and two-stage pipelines (DMA or register-staged). Two stages: tile 0
  // is loaded first, `steady_tile(kcur)` runs once per further tile (none when there is one),
  // then the last tile's MFMAs.
  void k_loop(const std::function<void(Reg kcur)>& steady_tile) {
    Reg kcur = k_.sgpr("k_elem");
    k_.s_mov_b32(kcur, k_start_);
    Reg left = k_.sgpr("tiles_left");
    if (c_.stages == 1) return single_stage_loop(kcur, left);
    load_tile_to_lds(kcur);
    k_.s_sub_u32(left, count_, 1);
    counted_loop_or_none(left, [&] { steady_tile(kcur); });
    compute();
  }

  void main_loop_dma() {
    k_loop([&](Reg kcur) {
      k_.s_add_u32(kcur, kcur, int64_t(c_.tile_k));
      k_.s_xor_b32(dma_base_, dma_base_, dma_tog_);  // DMA into the other stage
      // The DMAs are issued after this tile's fragment reads: an LDS read issued
      // behind an outstanding LDS DMA would have to wait for it (vmcnt), which
      // would serialise loads and MFMAs; this way they overlap the MFMAs.
      compute([&] { issue_loads(kcur); });
      publish_tile(0);
      toggle_stages(ra_bases_, ra_togs_);
      toggle_stages(rb_bases_, rb_togs_);
    });
  }

  void main_loop() {
    const uint32_t cpe = uint32_t(p_.Cp * p_.esize);
    hoist_consts({uint32_t(p_.kdim), uint32_t(s_.D), uint32_t(s_.H), uint32_t(s_.W),
                  uint32_t(s_.dil[0]) * s_.H * s_.W * cpe, uint32_t(s_.dil[1]) * s_.W * cpe, uint32_t(s_.dil[2]) * cpe});
    stage_a_.resize(size_t(c_.prefetch));  // (empty sets on the DMA path, which stages nothing in registers)
    stage_b_.resize(size_t(c_.prefetch));
    if (p_.lds_dma) return main_loop_dma();
    for (int set = 0; set < c_.prefetch; ++set) {
      for (int i = 0; i < p_.a_chunks; ++i)
        stage_a_[size_t(set)].push_back(k_.vgpr(fmt::format("stage{}_a{}", set, i), 4, 2));
      for (int i = 0; i < p_.b_chunks; ++i)
        stage_b_[size_t(set)].push_back(k_.vgpr(fmt::format("stage{}_b{}", set, i), 4, 2));
    }
    if (c_.prefetch == 2) return main_loop_prefetch2();
    // With two stages, tile i+1's global loads fly while tile i is multiplied out of LDS; its
    // data goes to the other stage, then one barrier per tile.
    k_loop([&](Reg kcur) {
      k_.s_add_u32(kcur, kcur, int64_t(c_.tile_k));
      issue_loads(kcur);
      compute();
      k_.v_xor_b32(w_base_, w_base_, w_tog_);  // write the other stage
      publish_tile(0, [&] { write_lds(); });
      k_.v_xor_b32(ra_base_, ra_base_, ra_tog_);
      k_.v_xor_b32(rb_base_, rb_base_, rb_tog_);
    });
  }

  // Two K tiles of global loads in flight (Conv3dConfig::prefetch = 2). Tile i sits in LDS stage
  // i % 2; staging set i % 2 receives tile i + 2's loads while tile i is multiplied, then the wait
  // for tile i + 1's loads (issued one tile earlier) leaves tile i + 2's in flight
  // (vmcnt(loads per tile): VMEM loads retire in order), tile i + 1 goes to the other stage and one
  // barrier ends the tile. The sets alternate statically, so the loop is unrolled by two.
  // The loads of the one tile past the split's range (the lookahead of its last iteration, or of
  // the prologue when the split has one tile) are never used: A's go past num_records (k >= kdim)
  // or read the next split's tile, B's K offset is clamped to the last tile. One extra tile of loads
  // per workgroup.
  void main_loop_prefetch2() {
    const int loads = p_.a_chunks + p_.b_chunks;
    Reg kcur = k_.sgpr("k_elem");
    k_.s_mov_b32(kcur, k_start_);
    Reg left = k_.sgpr("tiles_left");
    issue_loads(kcur, 0);
    k_.s_add_u32(kcur, kcur, int64_t(c_.tile_k));
    issue_loads(kcur, 1);
    publish_tile(loads, [&] { write_lds(0); });
    k_.s_sub_u32(left, count_, 1);
    // One tile: loads of tile i+2 into `set`, MFMAs of tile i, tile i+1 (set ^ 1) to the other stage.
    auto step = [&](int set) {
      k_.s_add_u32(kcur, kcur, int64_t(c_.tile_k));
      issue_loads(kcur, set);
      compute();
      k_.v_xor_b32(w_base_, w_base_, w_tog_);
      publish_tile(loads, [&] { write_lds(set ^ 1); });
      k_.v_xor_b32(ra_base_, ra_base_, ra_tog_);
      k_.v_xor_b32(rb_base_, rb_base_, rb_tog_);
      k_.s_sub_u32(left, left, 1);
    };
    k_.if_scc([&] { k_.s_cmp_lg_u32(left, 0); },
              [&] {
                k_.do_while_scc(
                    [&] {
                      step(0);
                      k_.if_scc([&] { k_.s_cmp_lg_u32(left, 0); }, [&] { step(1); });
                    },
                    [&] { k_.s_cmp_lg_u32(left, 0); });
              });
    compute();
  }

  // ------------------------------------------------------------ epilogue
  // Lane l of block (bi, bj), register r holds D[8*(r/4) + 4*(l/m) + r%4][l%m] (m = 16 or 32,
  // r < m*m/64): output pixel m0 + wm*wave_m + bi*m + 8*(r/4) + 4*(l/m) + r%4, channel
  // n0 + wn*wave_n + bj*m + l%m. NCDHW element offset = n*K*P + k*P + p with m = n*P + p.
  void epilogue() {
    k_.comment("epilogue");
    const uint32_t P = uint32_t(s_.out_pixels_per_image());
    const int mb = p_.mfma.m;
    const AccumulatorLane lane = accumulator_lane(lane_, mb);
    const WaveOrigin origin = wave_origin(m0_, n0_, wm_, wn_, p_.wave_m, p_.wave_n);
    Divisor dP = divisor(P);
    // Direct stores: byte offset = row part + column part, with out-of-range rows marked
    // 0x80000000 and columns 0x40000000 (valid parts are < 2^30 bytes): any marked sum is at
    // least 2^30 without wrapping, past num_records, so the store is dropped with no compare.
    // Split-K atomics keep element offsets and an explicit lane mask.
    const bool ws = p_.uses_workspace();
    const int osize = ws ? 4 : p_.out_esize();
    Reg mlim = sconst(uint32_t(s_.gemm_m()), "M");
    Reg klim = sconst(uint32_t(s_.K), "K");
    std::vector<Reg> coloff, bias;
    for (int bj = 0; bj < p_.blocks_n; ++bj) {
      Reg kc = vadd_sv(origin.n, lane.col, uint32_t(bj * mb), "k_out");
      Reg co = vmul(kc, P, "k_times_p");
      k_.v_cmp_gt_u32(vcc, klim, kc);
      if (!ws) co = vmul(co, uint32_t(osize), "col_bytes");
      k_.v_cndmask_b32(co, invalid_v_, co, vcc);
      coloff.push_back(co);
      if (b_rsrc_.valid()) {
        Reg bo = k_.vgpr("bias_off");
        k_.v_lshlrev_b32(bo, 2, kc);
        k_.v_cndmask_b32(bo, oob_v_, bo, vcc);
        Reg bv = k_.vgpr("bias");
        k_.buffer_load_dword(bv, bo, b_rsrc_, 0, offen);
        bias.push_back(bv);
      }
    }
    Reg total = sconst(uint32_t(s_.output_elems()), "out_elems");
    Reg c7fff;
    if (p_.arch == Arch::gfx942 && p_.output == Conv3dOutput::bf16 && !p_.uses_workspace()) c7fff = sconst(0x7fff, "c7fff");
    k_.s_waitcnt(vmcnt(0));
    for (int bi = 0; bi < p_.blocks_m; ++bi)
      for (int r = 0; r < p_.mfma.acc_regs(); ++r) {
        Reg m = vadd_sv(origin.m, lane.row4, uint32_t(bi * mb + 8 * (r / 4) + r % 4), "m_out");
        Reg n = vdiv(m, dP, "n_out");
        Reg pix = vrem(m, n, P, "p_out");
        Reg ro = k_.vgpr("row_off");
        vmad_small(ro, n, uint32_t(s_.K) * P, pix);
        k_.v_cmp_gt_u32(vcc, mlim, m);
        if (!ws) {
          Reg rb = vmul(ro, uint32_t(osize), "row_bytes");
          k_.v_cndmask_b32(rb, oob_v_, rb, vcc);
          for (int bj = 0; bj < p_.blocks_n; ++bj) {
            Reg v = k_.vgpr("out_value");
            k_.v_accvgpr_read_b32(v, Reg(acc_.at({bi, bj}))[r]);
            if (b_rsrc_.valid()) k_.v_add_f32(v, v, bias[size_t(bj)]);
            Reg off = k_.vgpr("out_bytes");
            k_.v_add_u32(off, rb, coloff[size_t(bj)]);
            store_fp32_as(k_, p_.output == Conv3dOutput::bf16, v, off, y_rsrc_, c7fff);
          }
          continue;
        }
        k_.v_cndmask_b32(ro, invalid_v_, ro, vcc);
        for (int bj = 0; bj < p_.blocks_n; ++bj) {
          Reg v = k_.vgpr("out_value");
          k_.v_accvgpr_read_b32(v, Reg(acc_.at({bi, bj}))[r]);
          Reg e = k_.vgpr("out_elem");
          k_.v_add_u32(e, ro, coloff[size_t(bj)]);
          Reg off = k_.vgpr("out_bytes");
          k_.v_lshlrev_b32(off, int(std::countr_zero(unsigned(osize))), e);
          // Atomics are not range-suppressed: only lanes with a real element issue them.
          k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, total, e); }, [&] { k_.global_atomic_add_f32(off, v, y_ptr_); });
        }
      }
  }

  const Conv3dPlan& p_;
  const Conv3dShape& s_;
  const Conv3dConfig& c_;
  uint32_t lds_base_ = 0;
  Reg oob_v_, invalid_v_;
  Reg tid_, lane_, x_rsrc_, w_rsrc_, y_rsrc_, b_rsrc_, y_ptr_;
  Reg m0_, n0_, k_start_, count_, wm_, wn_;
  Reg kch_, row0_, ch_;
  std::vector<Reg> a_d0_, a_h0_, a_w0_, a_pix_, b_off_;
  std::vector<std::vector<Reg>> stage_a_, stage_b_;  // staging registers per prefetch set
  Divisor div_cp_, div_rs_, div_s_;
  Reg w_base_, ra_base_, rb_base_, w_tog_, ra_tog_, rb_tog_;
  // LDS DMA path
  Reg x_ptr_, w_ptr_, zero_a_, zero_b_, dma_base_, dma_tog_;
  std::vector<Reg> b_ok_, ra_bases_, rb_bases_, ra_togs_, rb_togs_;
  RegArray acc_;
};

// NCDHW -> NDHWC(Cp), LDS-tiled. A workgroup moves a tile of 64 pixels x `cr` 16-byte channel
// chunks (cr = Conv3dTransposeLaunch::chunks, a power of two <= 8) of one image:
//  1. reads: a wave takes one chunk (chunk_elems channels) of the 64 pixels; lane p loads pixel
//     p of each channel row (buffer_load_ushort / _ubyte), so each load instruction reads 64
//     consecutive elements of one NCDHW row (coalesced); the lane packs its chunk_elems elements
//     into 16 bytes and writes them to LDS with one ds_write_b128;
//  2. writes: thread i reads (pixel i / cr, chunk i % cr) with one ds_read_b128 and stores it with
//     one buffer_store_dwordx4, so consecutive lanes write consecutive 16-byte chunks of a
//     pixel's channel vector and a wave writes 64 / cr runs of cr*16 contiguous bytes (all of
//     its 1 KiB contiguous when Cp fills the tile's chunks).
// LDS layout, bank-conflict free both ways without padding: pixel row p holds cr chunks, the
// logical chunk c at slot c ^ g(p), g(p) = (p / (8 / cr)) % cr. LDS serves 8 lanes of a 16-byte
// access per pass over its 32 4-byte banks (8 slots of 16 bytes: the slot index mod 8 is the
// bank group). Phase 1's pass is 8 consecutive pixels at one logical chunk: slots
// (p*cr + (c ^ g(p))) mod 8 are distinct (for cr = 8 the xor alone spreads them; for smaller cr
// p*cr spreads the rows over 8/cr groups and the xor spreads the rest). Phase 2's pass is 8/cr
// consecutive pixels x all cr chunks: cr distinct slots per row in disjoint groups.
// Out of range: channels >= C read past num_records (zeros, which fill the channel padding);
// pixels >= D*H*W and chunks >= Cp/chunk_elems are not stored (offset past num_records).
class TransposeGenerator : DslEmitter {
 public:
  TransposeGenerator(Kernel& k, const Conv3dPlan& p) : DslEmitter(k), p_(p), l_(conv3d_transpose_launch(p)) {}
  void emit() {
    const Conv3dShape& s = p_.shape;
    const int cr = l_.chunks, ce = p_.chunk_elems, es = p_.esize, waves = int(l_.threads / 64);
    const int cr_log2 = std::countr_zero(unsigned(cr));
    const uint32_t DHW = uint32_t(s.D) * s.H * s.W;
    k_.set_workgroup_size(l_.threads);
    const uint32_t lds = k_.lds_alloc("tile", uint32_t(kConv3dTransposePixels * cr * 16), 16);
    ElemType et = p_.dtype == Conv3dDType::bf16 ? ElemType::bf16 : ElemType::fp8;
    Reg x = k_.load_arg(k_.arg_ptr("x", et, true));
    Reg y = k_.load_arg(k_.arg_ptr("xt", et, false));
    Reg wg_p = k_.workgroup_id(0), wg_c = k_.workgroup_id(1), wg_n = k_.workgroup_id(2);
    Reg tid = k_.workitem_id(0);
    k_.s_waitcnt(lgkmcnt(0));
    Reg xr = rsrc(x, s.input_elems() * es, "x_rsrc");
    Reg yr = rsrc(y, p_.xt_bytes(), "xt_rsrc");
    Reg p0 = smul(wg_p, kConv3dTransposePixels, "pixel0");
    Reg chunk0 = smul(wg_c, uint32_t(cr), "chunk0");  // first chunk of the tile

    // ---- phase 1: coalesced NCDHW reads, one 16-byte LDS write per lane and chunk
    Reg lane = lane_index(tid);
    Reg wave = wave_index(tid);
    Reg pix = k_.vgpr("pixel");
    k_.v_add_u32(pix, p0, lane);
    // Element offsets: a per-lane pixel part plus a per-channel scalar part; the out-of-range
    // markers (2^30, at least the input's size) keep any marked sum past num_records without wrapping.
    Reg src_pix = vmul(pix, uint32_t(es), "src_pixel_bytes");
    Reg marker = k_.vgpr("marker");
    k_.v_mov_b32(marker, kTransposeMarker);
    k_.v_cmp_gt_u32(vcc, sconst(DHW), pix);
    k_.v_cndmask_b32(src_pix, marker, src_pix, vcc);
    Reg g = swizzle_of(lane, cr, "swizzle_write");
    Reg row_slot0 = vmul(lane, uint32_t(cr), "row_slot");  // p*cr
    Reg n_src = smul(wg_n, uint32_t(s.C) * DHW * uint32_t(es), "image_src_bytes");
    const uint32_t chan_bytes = DHW * uint32_t(es);
    Reg chan_step = sconst(chan_bytes, "channel_bytes");
    Reg smarker = sconst(uint32_t(kTransposeMarker), "marker_s");
    for (int k = 0; k * waves < cr; ++k) {
      k_.comment(fmt::format("phase 1: chunk wave + {}", k * waves));
      Reg ci = k_.sgpr("chunk_in_tile");
      k_.s_add_u32(ci, wave, int64_t(k * waves));
      // channels left from this chunk's first: c0 = (chunk0 + ci) * ce; element j is in range iff j < C - c0
      Reg c0 = k_.sgpr("chunk_channel0");
      k_.s_add_u32(c0, chunk0, ci);
      k_.s_mul_i32(c0, c0, sconst(uint32_t(ce), "chunk_elems"));
      Reg left = k_.sgpr("channels_left");
      k_.s_sub_i32(left, sconst(uint32_t(s.C), "C"), c0);
      Reg coff = k_.sgpr("channel_off");
      k_.s_mul_i32(coff, c0, chan_step);
      k_.s_add_u32(coff, coff, n_src);
      std::vector<Reg> elem;
      for (int j = 0; j < ce; ++j) {
        if (j) k_.s_add_u32(coff, coff, chan_step);
        Reg so = k_.sgpr("elem_off");
        k_.s_cmp_gt_i32(left, int64_t(j));
        k_.s_cselect_b32(so, coff, smarker);
        Reg off = k_.vgpr("src_off");
        k_.v_add_u32(off, so, src_pix);
        Reg v = k_.vgpr(fmt::format("elem{}", j));
        if (es == 2) k_.buffer_load_ushort(v, off, xr, 0, offen);
        else k_.buffer_load_ubyte(v, off, xr, 0, offen);
        elem.push_back(v);
      }
      k_.s_waitcnt(vmcnt(0));
      Reg packed = k_.vgpr("chunk", 4, 4);
      for (int d = 0; d < 4; ++d) {
        if (es == 2) {
          k_.v_lshl_or_b32(packed[d], elem[size_t(2 * d + 1)], 16, elem[size_t(2 * d)]);
        } else {
          Reg t = k_.vgpr("bytes01");
          k_.v_lshl_or_b32(t, elem[size_t(4 * d + 1)], 8, elem[size_t(4 * d)]);
          Reg t2 = k_.vgpr("bytes012");
          k_.v_lshl_or_b32(t2, elem[size_t(4 * d + 2)], 16, t);
          k_.v_lshl_or_b32(packed[d], elem[size_t(4 * d + 3)], 24, t2);
        }
      }
      Reg slot = k_.vgpr("slot");
      k_.v_xor_b32(slot, ci, g);
      Reg addr = k_.vgpr("lds_write");
      k_.v_add_u32(addr, row_slot0, slot);
      k_.v_lshlrev_b32(addr, 4, addr);
      k_.ds_write_b128(addr, packed, Offset(int(lds)));
    }
    k_.s_waitcnt(lgkmcnt(0));
    k_.s_barrier();

    // ---- phase 2: one 16-byte LDS read and one 16-byte NDHWC store per (pixel, chunk)
    const int per_thread = kConv3dTransposePixels * cr / int(l_.threads);
    const uint32_t pix_bytes = uint32_t(p_.Cp * es);
    const uint32_t cpc = uint32_t(p_.Cp / ce);
    Reg n_dst = smul(wg_n, DHW, "image_pixel0");
    k_.s_add_u32(n_dst, n_dst, p0);  // n*DHW + p0
    for (int it = 0; it < per_thread; ++it) {
      k_.comment(fmt::format("phase 2: pass {}", it));
      Reg idx = k_.vgpr("item");
      k_.v_add_u32(idx, int64_t(it * int(l_.threads)), tid);
      Reg row = k_.vgpr("tile_pixel");
      k_.v_lshrrev_b32(row, cr_log2, idx);
      Reg ch = k_.vgpr("tile_chunk");
      k_.v_and_b32(ch, cr - 1, idx);
      Reg gr = swizzle_of(row, cr, "swizzle_read");
      Reg slot = k_.vgpr("slot");
      k_.v_xor_b32(slot, ch, gr);
      Reg addr = k_.vgpr("lds_read");
      k_.v_sub_u32(addr, idx, ch);  // row * cr
      k_.v_add_u32(addr, addr, slot);
      k_.v_lshlrev_b32(addr, 4, addr);
      Reg data = k_.vgpr("chunk", 4, 4);
      k_.ds_read_b128(data, addr, Offset(int(lds)));
      // destination: (n*DHW + p0 + row) * Cp*es + (chunk0 + ch) * 16, stored only inside the tensor
      Reg gp = k_.vgpr("dst_pixel");
      k_.v_add_u32(gp, p0, row);
      Reg ok = k_.sgpr("store_ok", 2, 2);
      k_.v_cmp_gt_u32(ok, sconst(DHW), gp);
      Reg gc = k_.vgpr("dst_chunk");
      k_.v_add_u32(gc, chunk0, ch);
      Reg okc = k_.sgpr("chunk_ok", 2, 2);
      k_.v_cmp_gt_u32(okc, sconst(cpc, "chunks_per_pixel"), gc);
      k_.s_and_b64(ok, ok, okc);
      Reg dp = k_.vgpr("dst_pixel_all");
      k_.v_add_u32(dp, n_dst, row);
      Reg off = vmul(dp, pix_bytes, "dst_bytes");
      k_.v_lshl_add_u32(off, gc, 4, off);
      k_.v_cndmask_b32(off, oob(), off, ok);
      k_.s_waitcnt(lgkmcnt(0));
      k_.buffer_store_dwordx4(data, off, yr, 0, offen);
    }
  }

 private:
  // g(p) = (p / (8 / cr)) % cr: the slot xor of pixel row p (see the layout comment above).
  Reg swizzle_of(Reg p, int cr, const char* name) {
    Reg g = k_.vgpr(name);
    if (cr == 1) {
      k_.v_mov_b32(g, 0);
      return g;
    }
    k_.v_lshrrev_b32(g, std::countr_zero(unsigned(8 / cr)), p);
    k_.v_and_b32(g, cr - 1, g);
    return g;
  }
  static constexpr int64_t kTransposeMarker = int64_t(1) << 30;  // >= every tensor size (plan: < 1 GiB)
  const Conv3dPlan& p_;
  Conv3dTransposeLaunch l_;
};

// workspace (fp32 NCDHW) + bias[k] -> output type; k = (e / P) % K.
class FinalizeGenerator : DslEmitter {
 public:
  FinalizeGenerator(Kernel& k, const Conv3dPlan& p) : DslEmitter(k), p_(p) {}
  void emit() {
    const Conv3dShape& s = p_.shape;
    k_.set_workgroup_size(kConv3dAuxThreads);
    Reg ws = k_.load_arg(k_.arg_ptr("workspace", ElemType::f32, true));
    Arg ab = k_.arg_ptr("bias", ElemType::f32, true);
    Reg b;
    if (s.bias) b = k_.load_arg(ab);
    Reg y = k_.load_arg(k_.arg_ptr("y", p_.output == Conv3dOutput::f32 ? ElemType::f32 : ElemType::bf16, false));
    Reg wg = k_.workgroup_id(0);
    Reg tid = k_.workitem_id(0);
    k_.s_waitcnt(lgkmcnt(0));
    const int64_t total = s.output_elems();
    Reg wr = rsrc(ws, total * 4, "ws_rsrc");
    Reg yr = rsrc(y, total * p_.out_esize(), "y_rsrc");
    Reg e = k_.vgpr("e");
    k_.v_add_u32(e, smul(wg, kConv3dAuxThreads, "wg_base"), tid);
    k_.v_cmp_gt_u32(vcc, sconst(uint32_t(total)), e);
    Reg ok = k_.sgpr("ok", 2, 2);
    k_.s_mov_b64(ok, vcc);
    Reg wo = k_.vgpr("ws_off");
    k_.v_lshlrev_b32(wo, 2, e);
    k_.v_cndmask_b32(wo, oob(), wo, ok);
    Reg v = k_.vgpr("v");
    k_.buffer_load_dword(v, wo, wr, 0, offen);
    if (b.valid()) {
      const uint32_t P = uint32_t(s.out_pixels_per_image());
      Reg nk = vdiv(e, divisor(P), "nk");
      Reg n = vdiv(nk, divisor(uint32_t(s.K)), "n");
      Reg kc = vrem(nk, n, uint32_t(s.K), "k");
      Reg bo = k_.vgpr("bias_off");
      k_.v_lshlrev_b32(bo, 2, kc);
      Reg bv = k_.vgpr("bias");
      k_.buffer_load_dword(bv, bo, rsrc(b, int64_t(s.K) * 4, "bias_rsrc"), 0, offen);
      k_.s_waitcnt(vmcnt(0));
      k_.v_add_f32(v, v, bv);
    }
    k_.s_waitcnt(vmcnt(0));
    Reg off = vmul(e, uint32_t(p_.out_esize()), "y_off");
    k_.v_cndmask_b32(off, oob(), off, ok);
    Reg c7fff;
    if (p_.arch == Arch::gfx942 && p_.output == Conv3dOutput::bf16) c7fff = sconst(0x7fff, "c7fff");
    store_fp32_as(k_, p_.output == Conv3dOutput::bf16, v, off, yr, c7fff);
  }

 private:
  const Conv3dPlan& p_;
};

std::string kernel_name(const Conv3dPlan& p, const char* what) {
  return fmt::format("conv3d_{}_{}", what, dtype_name(p.dtype));
}

}  // namespace

BuildResult build_conv3d_igemm(const Conv3dPlan& p, const BuildOptions& opts) {
  Kernel k(kernel_name(p, "igemm"), p.arch);
  IgemmGenerator(k, p).emit();
  return k.build(opts);
}

BuildResult build_conv3d_transpose(const Conv3dPlan& p, const BuildOptions& opts) {
  Kernel k(kernel_name(p, "transpose"), p.arch);
  TransposeGenerator(k, p).emit();
  return k.build(opts);
}

BuildResult build_conv3d_finalize(const Conv3dPlan& p, const BuildOptions& opts) {
  if (!p.uses_workspace()) throw Error("conv3d: the finalize kernel exists only for split-K plans (splits > 1)");
  Kernel k(kernel_name(p, "finalize"), p.arch);
  FinalizeGenerator(k, p).emit();
  return k.build(opts);
}

Conv3dTransposeLaunch conv3d_transpose_launch(const Conv3dPlan& p) {
  const Conv3dShape& s = p.shape;
  const int cpc = p.Cp / p.chunk_elems;  // 16-byte chunks per pixel
  Conv3dTransposeLaunch l;
  l.chunks = std::min(8, int(std::bit_ceil(unsigned(cpc))));
  l.threads = uint32_t(64 * std::min(l.chunks, 4));
  const int64_t dhw = int64_t(s.D) * s.H * s.W;
  l.grid[0] = uint32_t((dhw + kConv3dTransposePixels - 1) / kConv3dTransposePixels);
  l.grid[1] = uint32_t((cpc + l.chunks - 1) / l.chunks);
  l.grid[2] = uint32_t(s.N);
  return l;
}

uint32_t conv3d_finalize_grid(const Conv3dPlan& p) {
  return uint32_t((p.shape.output_elems() + kConv3dAuxThreads - 1) / kConv3dAuxThreads);
}

Conv3dKernels build_conv3d_kernels(const Conv3dPlan& p, const BuildOptions& opts) {
  Conv3dKernels k{build_conv3d_transpose(p, opts), build_conv3d_igemm(p, opts), std::nullopt};
  if (p.uses_workspace()) k.finalize = build_conv3d_finalize(p, opts);
  return k;
}

}  // namespace cdnajit::codegen
