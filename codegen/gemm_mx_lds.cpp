// The MX-scaled GEMM's LDS read-ahead kernel (gemm_mx_lds.hpp).
//
// LDS layout. Operand rows are K tiles of tile_k elements (128 by default: 128-byte fp8 rows,
// 64-byte fp4 rows; one or two k-steps of the 16x16x128 MFMA), unpadded, their 16-byte chunks
// XOR-swizzled exactly as the bf16/fp8 GEMM's DMA layout (gemm.cpp "LDS layout": a lane's fragment
// is one (fp4: 16 bytes, like bf16's 16x16x32) or two (fp8: 32 bytes, like fp8's f8f6f4) 16-byte
// chunks of row l % 16, so the fragment reads are conflict free by the same argument). Rows are
// half-major (read_ahead_schedule.hpp), so each half of a tile is whole DMA chunks. Regions: the
// scales of 2 stages x 2 halves first, then A's two stages, then B's: the two stages of an operand
// lie within the 16-bit DS offset of one read base (a 256x256 tile's A + B stage of 128-byte rows is
// 64 KiB, so the bf16/fp8 GEMM's A-then-B stages need a base per stage), which saves registers.
//
// Scales. The MFMA's lane l takes row l % 16's E8M0 byte for its 32-element block l / 16 of the
// k-step, i.e. byte 4 * ks + l / 16 of the row's tile_k / 32 scale bytes of the K tile: one dword
// (4 blocks) per row per k-step, contiguous in SA / SB. A half tile's scale dwords (its A rows, then
// its B rows, half-major like the operand rows) go to LDS by global_load_lds_dword, each wave one
// instruction of 64 dwords per half (the plan makes each instruction all A or all B; waves past the
// last dword load row 0's into padding), so every wave issues the same number of loads per half
// and the schedule's vmcnt counts hold. With km scales (SA[k/32][m]) a dword holds one K block's bytes
// of 4 consecutive rows and a half tile's scale region is K block-major (tile_k / 32 runs of
// half_rows bytes), so the loads touch tile_k / 32 runs of consecutive bytes per operand instead of
// one cache line per row. Each lane reads its byte of each k-step with ds_read_u8
// into a VGPR of its own (byte 0, op_sel 0). Packing a block's two k-steps into one VGPR with
// ds_read_u8_d16 / _d16_hi would save registers, but the MFMA of k-step 0 would read the register
// while the high half's read is in flight (a wait the schedule cannot hide).
//
// Issue. At 4 waves (one per SIMD) nothing else issues MFMAs while the wave issues anything else,
// so a run of non-MFMA instructions leaves the MFMA pipe idle (an fp4 16x16x128 MFMA is 16 cycles:
// 4 issue turns, 3 of them free for other instructions). Hence: a K tile's loads are pieces
// (ReadAheadHooks::load_pieces) the schedule spreads between the MFMAs after the barrier, each DMA
// split into its M0 write and the load (an MFMA between them covers the SALU-writes-M0 hazard),
// the tile pointers advanced after the loads (none computed before them); the accumulators are
// zeroed while K tile 0's loads fly; and the output is stored during the last K tile
// (ReadAheadHooks::quadrant_stores), each quadrant's finished blocks between the next quadrant's
// MFMAs, so the CU's share of the write bandwidth drains them while the MFMAs run instead of after.
// With N % 4 == 0 and one wave per SIMD the MFMAs take B as the first operand (transposed
// accumulators, GemmMxPlan::transposed_acc): a lane then holds 4 consecutive columns of one C row, one 8-byte (bf16) or
// 16-byte (f32) store per block instead of four 2- or 4-byte ones.
//
// MFMA order per accumulator: ascending k-steps (the schedule's quadrants keep it), so the kernel
// is bit for bit the HIP reference (codegen/hip/gemm_mx.hip). The transposed MFMA computes each
// element from the same products (b * a = a * b exactly) summed in the same K order; the simulator's
// numerics treat the two operands alike (runtime/sim/ops_mfma.cpp) and the bit check against the
// reference confirms it. That the hardware's summation is operand-symmetric is assumed.
#include "codegen/gemm_mx_lds.hpp"

#include <fmt/format.h>

#include <bit>
#include <memory>
#include <vector>

#include "codegen/mfma_gemm_emitter.hpp"
#include "codegen/read_ahead_schedule.hpp"

namespace cdnajit::codegen {

namespace {

class GemmMxLdsGenerator : MfmaGemmEmitter {
 public:
  GemmMxLdsGenerator(Kernel& k, const GemmMxPlan& p) : MfmaGemmEmitter(k), p_(p), s_(p.shape), c_(p.cfg) {}

  void emit() {
    lds_base_ = begin_tiled_kernel(p_.threads, p_.lds_bytes);
    a_ptr_ = k_.load_arg(k_.arg_ptr("a", ElemType::u8, true));
    b_ptr_ = k_.load_arg(k_.arg_ptr("b", ElemType::u8, true));
    sa_ptr_ = k_.load_arg(k_.arg_ptr("sa", ElemType::u8, true));
    sb_ptr_ = k_.load_arg(k_.arg_ptr("sb", ElemType::u8, true));
    Reg c = k_.load_arg(k_.arg_ptr("c", s_.output == GemmMxOutput::f32 ? ElemType::f32 : ElemType::bf16, false));
    tid_ = k_.workitem_id(0);
    k_.s_waitcnt(lgkmcnt(0));
    c_rsrc_ = rsrc(c, p_.c_bytes(), "c_rsrc");
    if (c_.persistent > 0) {
      // every offset relative to the output tile's origin; the tile's bases are scalars (persistent_setup)
      m0_ = k_.sgpr("tile_origin");
      k_.s_mov_b32(m0_, 0);
      n0_ = m0_;
      const WaveGrid w = wave_grid(tid_, c_.waves_m);
      wave_ = w.wave;
      wm_ = w.wm;
      wn_ = w.wn;
      lane_ = w.lane;
    } else {
      place_tile(c_.group_m, p_.tiles_m, p_.tiles_n, p_.xcd_remap, c_.tile_m, c_.tile_n, tid_, c_.waves_m);
    }
    operand_dma_setup();
    scale_dma_setup();
    if (c_.persistent == 0) read_setup();  // persistent: after the prologue's loads (after_prologue_loads)
    main_loop();
    if (p_.transposed_acc) return;  // stored by the schedule's last K tile (quadrant_stores)
    k_.comment("epilogue");
    store_accumulators(acc_, wave_origin(m0_, n0_, wm_, wn_, p_.wave_m, p_.wave_n), accumulator_lane(lane_, 16),
                       p_.blocks_m, p_.blocks_n, 16, p_.acc_regs(), s_.output == GemmMxOutput::bf16, uint32_t(s_.M),
                       uint32_t(s_.N), c_rsrc_);
  }

 private:
  int step() const { return p_.threads / p_.k_chunks_per_row; }
  uint32_t a_slots() const { return uint32_t(c_.tile_m / 2 * p_.scale_dwords_per_row); }
  uint32_t b_slots() const { return uint32_t(c_.tile_n / 2 * p_.scale_dwords_per_row); }
  // LDS byte of stage `st`, half `h`'s scale slots (relative to lds_base_).
  uint32_t scale_region(int st, int h) const { return uint32_t(2 * st + h) * p_.lds_scale_half_bytes; }

  // The xor between a logical chunk and its slot in `row` (fp8's two-chunk fragments: the pair
  // swizzle, MfmaGemmEmitter::fragment_chunk_swizzle).
  Reg swizzle(Reg row, const char* name) {
    return fragment_chunk_swizzle(row, p_.swizzle_rows, p_.k_chunks_per_row, p_.frag_bytes / 16, name);
  }

  // Thread t's chunk i of a tile goes to LDS row t / cpr + i * step, slot t % cpr, and holds the
  // logical chunk slot ^ swizzle(row) of the operand row the half-major map gives.
  void operand_dma_setup() {
    const int cpr = p_.k_chunks_per_row;
    Reg ch = k_.vgpr("chunk");
    k_.v_and_b32(ch, cpr - 1, tid_);
    Reg row0 = k_.vgpr("chunk_row");
    k_.v_lshrrev_b32(row0, std::countr_zero(unsigned(cpr)), tid_);
    Reg lc = ch;
    if (p_.swizzle_rows) {
      Reg x = swizzle(row0, "swizzle");
      lc = k_.vgpr("logical_chunk");
      k_.v_xor_b32(lc, ch, x);
    }
    const uint32_t rb = uint32_t(p_.row_bytes());
    a_off_ = dma_row_offsets(m0_, row0, lc, p_.a_chunks, step(), p_.wave_m, uint32_t(s_.M), rb, true);
    b_off_ = dma_row_offsets(n0_, row0, lc, p_.b_chunks, step(), p_.wave_n, uint32_t(s_.N), rb, true);
    dma_base_ = dma_wave_base(wave_, lds_base_, false, 0).base;
  }

  // Scale load j of half h: thread t fills slot s = j * threads + t of the half's slots: A's, then
  // B's, then padding (SA's first dword). mk scales: slot s holds dword s % dpr of half-major row
  // s / dpr (4 K blocks of one row). km scales: slot s holds K block s / (half_rows / 4) of
  // half-major rows 4 * (s % (half_rows / 4)) .. + 3 (4 rows of one K block). Per (j, h) a byte
  // offset per lane (rows clamped like the operand rows) and the wave's tensor (SA or SB; wave
  // uniform because a_slots and b_slots are whole waves).
  void scale_dma_setup() {
    const bool km = s_.scales == GemmMxScaleLayout::km;
    const int dpr = p_.scale_dwords_per_row;
    const uint32_t srow = uint32_t(p_.scale_row_bytes());
    scale_wave_base_ = smul(wave_, 64 * 4, "scale_dma_base");
    if (lds_base_) k_.s_add_u32(scale_wave_base_, scale_wave_base_, int64_t(lds_base_));
    for (int j = 0; j < p_.scale_loads_per_half; ++j) {
      Reg slot = k_.vgpr("scale_slot");
      k_.v_add_u32(slot, int64_t(j * p_.threads), tid_);
      // which tensor this wave loads: j * threads + wave * 64 against a_slots, a_slots + b_slots
      Reg first = k_.sgpr("scale_first_slot");
      k_.s_lshl_b32(first, wave_, 6);
      k_.s_add_u32(first, first, int64_t(j * p_.threads));
      Reg ptr = k_.sgpr("scale_tensor", 2, 2);
      k_.s_cmp_lt_u32(first, sconst(a_slots() + b_slots(), "scale_slots"));
      k_.s_cselect_b64(ptr, sb_ptr_, sa_ptr_);
      k_.s_cmp_lt_u32(first, sconst(a_slots(), "a_scale_slots"));
      k_.s_cselect_b64(ptr, sa_ptr_, ptr);
      scale_ptr_.push_back(ptr);
      scale_first_.push_back(first);
      if (km) {  // a K block's bytes are `rows` apart: M for SA, N for SB
        Reg rows = k_.sgpr("scale_tensor_rows");
        k_.s_cmp_lt_u32(first, sconst(a_slots() + b_slots(), "scale_slots"));
        k_.s_cselect_b32(rows, sconst(uint32_t(s_.N), "N"), sconst(uint32_t(s_.M), "M"));
        k_.s_cmp_lt_u32(first, sconst(a_slots(), "a_scale_slots"));
        k_.s_cselect_b32(rows, sconst(uint32_t(s_.M), "M"), rows);
        scale_rows_.push_back(rows);
      }
      for (int h = 0; h < 2; ++h) {
        auto offset = [&](Reg s, Reg first_row, int wave_rows, int tile_rows, uint32_t rows) {
          if (!km) {  // half-row s / dpr, dword s % dpr
            Reg q = k_.vgpr("scale_half_row");
            k_.v_lshrrev_b32(q, std::countr_zero(unsigned(dpr)), s);
            Reg r = half_major_row(first_row, q, h, wave_rows);
            k_.v_min_u32(r, sconst(rows - 1, "last_row"), r);
            Reg off = vmul(r, srow, "scale_row_bytes");
            Reg d = k_.vgpr("scale_dword");
            k_.v_and_b32(d, dpr - 1, s);
            k_.v_lshl_add_u32(off, d, 2, off);
            return off;
          }
          // K block s / g, half-rows 4 * (s % g) .. + 3, g = half_rows / 4
          const int g = tile_rows / 2 / 4;
          Reg q = k_.vgpr("scale_half_row");
          k_.v_and_b32(q, g - 1, s);
          k_.v_lshlrev_b32(q, 2, q);
          Reg r = half_major_row(first_row, q, h, wave_rows);
          k_.v_min_u32(r, sconst(rows - 4, "last_row_group"), r);
          Reg kb = k_.vgpr("scale_kblock");
          k_.v_lshrrev_b32(kb, std::countr_zero(unsigned(g)), s);
          Reg off = vmul(kb, rows, "scale_kblock_bytes");
          k_.v_add_u32(off, off, r);
          return off;
        };
        Reg off_a = offset(slot, m0_, p_.wave_m, c_.tile_m, uint32_t(s_.M));
        Reg sb = k_.vgpr("scale_slot_b");
        k_.v_subrev_u32(sb, sconst(a_slots(), "a_scale_slots"), slot);
        Reg off_b = offset(sb, n0_, p_.wave_n, c_.tile_n, uint32_t(s_.N));
        Reg off = k_.vgpr("scale_off");
        k_.v_cmp_gt_u32(vcc, sconst(a_slots(), "a_scale_slots"), slot);
        k_.v_cndmask_b32(off, off_b, off_a, vcc);
        Reg zero = k_.vgpr("zero");
        k_.v_mov_b32(zero, 0);
        k_.v_cmp_gt_u32(vcc, sconst(a_slots() + b_slots(), "scale_slots"), slot);
        k_.v_cndmask_b32(off, zero, off, vcc);
        scale_off_.push_back(off);  // index j * 2 + h
      }
    }
  }

  // Per lane: row l % 16, K group l / 16. Fragment read bases per (k-step, 16-byte part) in the A
  // and B regions (stage 0; stage 1 is an immediate offset), and one scale read base per operand.
  void read_setup() {
    Reg lrow = k_.vgpr("lane_row");
    k_.v_and_b32(lrow, 15, lane_);
    Reg lq = k_.vgpr("lq");
    k_.v_lshrrev_b32(lq, 4, lane_);
    Reg x;  // invalid without the swizzle (GemmMxConfig::lds_swizzle off)
    if (p_.swizzle_rows) x = swizzle(lrow, "swizzle_read");
    // half-major rows: a wave's first half of blocks starts at row wm * wave_m / 2
    const WaveLdsRows rows = wave_lds_rows(wm_, wn_, p_.wave_m / 2, p_.wave_n / 2, 0);
    const int parts = p_.frag_bytes / 16, step_chunks = 128 * mx_format_bits(s_.format) / 8 / 16;
    ra_ = dma_fragment_bases(parts, step_chunks, p_.k_steps_per_tile, p_.lds_row_bytes, lds_base_ + p_.lds_a_offset,
                             rows.a, lrow, lq, x, "lds_ra");
    rb_ = dma_fragment_bases(parts, step_chunks, p_.k_steps_per_tile, p_.lds_row_bytes, lds_base_ + p_.lds_b_offset,
                             rows.b, lrow, lq, x, "lds_rb");
    // scale byte of half-row r, k-step ks: region + (r * dpr + ks) * 4 + l / 16 (mk), or
    // region + (4 * ks + l / 16) * half_rows + r (km)
    auto scale_base = [&](Reg first_row, uint32_t slots_before, int half_rows, const char* name) {
      Reg r = k_.vgpr("scale_row");
      k_.v_add_u32(r, first_row, lrow);
      Reg b = k_.vgpr(name);
      if (s_.scales == GemmMxScaleLayout::km) k_.v_lshl_add_u32(b, lq, std::countr_zero(unsigned(half_rows)), r);
      else k_.v_lshl_add_u32(b, r, std::countr_zero(unsigned(4 * p_.scale_dwords_per_row)), lq);
      k_.v_add_u32(b, int64_t(lds_base_ + 4 * slots_before), b);
      return b;
    };
    sra_ = scale_base(rows.a, 0, c_.tile_m / 2, "lds_sa");
    srb_ = scale_base(rows.b, a_slots(), c_.tile_n / 2, "lds_sb");
  }

  // Per half, the global pointers of that half's next K tile: A, B and each scale load's tensor,
  // each advanced by one K tile after its loads (so a tile's loads need no address arithmetic
  // first). km scales: a K tile is tile_k / 32 rows of the scale tensor (M or N bytes each).
  void tile_pointer_setup() {
    for (int h = 0; h < 2; ++h) {
      next_a_[h] = k_.sgpr("a_tile_ptr", 2, 2);
      next_b_[h] = k_.sgpr("b_tile_ptr", 2, 2);
      k_.s_mov_b64(next_a_[h], a_ptr_);
      k_.s_mov_b64(next_b_[h], b_ptr_);
      for (size_t j = 0; j < scale_ptr_.size(); ++j) {
        next_s_[h].push_back(k_.sgpr("scale_tile_ptr", 2, 2));
        k_.s_mov_b64(next_s_[h].back(), scale_ptr_[j]);
      }
    }
    for (size_t j = 0; j < scale_ptr_.size(); ++j) {
      Reg step = k_.sgpr("scale_tile_step");
      if (s_.scales == GemmMxScaleLayout::km) k_.s_mul_i32(step, scale_rows_[j], int64_t(c_.tile_k / kMxBlock));
      else k_.s_mov_b32(step, int64_t(c_.tile_k / kMxBlock));
      scale_step_.push_back(step);
    }
  }

  // Half `half` of the next K tile of that half into stage `stage`: its A and B chunks, then its
  // scale dwords, then the pointer advances, as pieces the schedule may spread between MFMAs
  // (ReadAheadHooks::load_pieces). Each DMA is two pieces, the M0 write and the load, so an MFMA
  // between them covers the SALU-writes-M0 hazard instead of an s_nop.
  // `reset` (persistent): the first K tile of an output tile, so the half's pointers first take the
  // bases of the output tile loaded next (persistent_setup, next_output). Past the workgroup's last
  // output tile the loads ahead read that tile again (next_output keeps its bases) into LDS nobody
  // reads; issued like the others, so they count on vmcnt as the waits expect, with no EXEC switch
  // around each (two SALU instructions per load in the single loop body) at the cost of re-reading
  // one output tile's first K tiles once per workgroup at its end.
  std::vector<ReadAheadHooks::Emit> load_pieces(int stage, int half, bool reset = false) {
    std::vector<ReadAheadHooks::Emit> out;
    const Reg pa = next_a_[half], pb = next_b_[half];
    if (reset)
      out.push_back([this, half] {
        k_.s_mov_b64(next_a_[half], load_a_base_);
        k_.s_mov_b64(next_b_[half], load_b_base_);
        for (size_t j = 0; j < next_s_[half].size(); ++j) k_.s_mov_b64(next_s_[half][j], load_s_base_[j]);
      });
    auto dma = [&](Reg base, uint32_t byte, Reg off, Reg ptr, int lane_bytes) {
      out.push_back([this, base, byte] { k_.s_add_u32(m0, base, int64_t(byte)); });
      out.push_back([this, off, ptr, lane_bytes] {
        if (lane_bytes == 4) k_.global_load_lds_dword(off, ptr);
        else k_.global_load_lds_dwordx4(off, ptr);
        ++vmem_issued_;
      });
    };
    const uint32_t per = uint32_t(p_.threads * 16);
    auto chunks = [&](const std::vector<Reg>& off, Reg ptr, uint32_t region, int rows) {
      const int n = int(off.size());
      for (int i = half * n / 2; i < (half + 1) * n / 2; ++i)
        dma(dma_base_, region + uint32_t(stage * rows * p_.lds_row_bytes) + uint32_t(i) * per, off[size_t(i)], ptr, 16);
    };
    chunks(a_off_, pa, p_.lds_a_offset, c_.tile_m);
    chunks(b_off_, pb, p_.lds_b_offset, c_.tile_n);
    for (int j = 0; j < p_.scale_loads_per_half; ++j)
      dma(scale_wave_base_, scale_region(stage, half) + uint32_t(j * p_.threads * 4), scale_off_[size_t(2 * j + half)],
          next_s_[half][size_t(j)], 4);
    const int64_t tile_bytes = int64_t(c_.tile_k) * mx_format_bits(s_.format) / 8;
    out.push_back([this, pa, tile_bytes] { sptr_add_to(pa, pa, tile_bytes); });
    out.push_back([this, pb, tile_bytes] { sptr_add_to(pb, pb, tile_bytes); });
    for (int j = 0; j < p_.scale_loads_per_half; ++j)
      out.push_back([this, sp = next_s_[half][size_t(j)], step = scale_step_[size_t(j)]] { sptr_add_to(sp, sp, step); });
    return out;
  }

  void main_loop() {
    const int KS = p_.k_steps_per_tile, F = p_.frag_bytes / 16, hm = p_.blocks_m / 2, hn = p_.blocks_n / 2;
    tile_pointer_setup();
    std::vector<std::vector<Reg>> fa(static_cast<size_t>(KS)), fb(static_cast<size_t>(KS));
    for (int ks = 0; ks < KS; ++ks) {
      for (int bi = 0; bi < p_.blocks_m; ++bi)
        fa[size_t(ks)].push_back(k_.vgpr(fmt::format("a_frag{}_{}", ks, bi), p_.frag_dwords, 2));
      for (int bj = 0; bj < p_.blocks_n; ++bj)
        fb[size_t(ks)].push_back(k_.vgpr(fmt::format("b_frag{}_{}", ks, bj), p_.frag_dwords, 2));
    }
    // per k-step and block: the block's scale byte of that k-step (byte 0)
    std::vector<std::vector<Reg>> sa(static_cast<size_t>(KS)), sb(static_cast<size_t>(KS));
    for (int ks = 0; ks < KS; ++ks) {
      for (int bi = 0; bi < p_.blocks_m; ++bi) sa[size_t(ks)].push_back(k_.vgpr(fmt::format("a_scale{}_{}", ks, bi)));
      for (int bj = 0; bj < p_.blocks_n; ++bj) sb[size_t(ks)].push_back(k_.vgpr(fmt::format("b_scale{}_{}", ks, bj)));
    }
    const uint32_t stage_a = uint32_t(c_.tile_m * p_.lds_row_bytes), stage_b = uint32_t(c_.tile_n * p_.lds_row_bytes);
    ReadAheadHooks h;
    h.fragment_reads = [&](bool is_a, int ks, int blk, int t) {
      const int st = t % 2, half = is_a ? hm : hn, hf = blk / half, tile_rows = is_a ? c_.tile_m : c_.tile_n;
      const int row = hf * tile_rows / 2 + (blk - hf * half) * 16;
      std::vector<ReadAheadHooks::Emit> out;
      for (int j = 0; j < F; ++j) {
        const Reg dst = (is_a ? fa : fb)[size_t(ks)][size_t(blk)].slice(4 * j, 4);
        const Reg base = (is_a ? ra_ : rb_)[size_t(ks * F + j)];
        const int byte = int(uint32_t(st) * (is_a ? stage_a : stage_b)) + row * p_.lds_row_bytes;
        out.push_back([this, dst, base, byte] { k_.ds_read_b128(dst, base, Offset(byte)); });
      }
      const Reg sdst = (is_a ? sa : sb)[size_t(ks)][size_t(blk)], sbase = is_a ? sra_ : srb_;
      const int sbyte = int(scale_region(st, hf)) +
                        (s_.scales == GemmMxScaleLayout::km ? ks * 4 * tile_rows / 2 + (blk - hf * half) * 16
                                                            : ((blk - hf * half) * 16 * p_.scale_dwords_per_row + ks) * 4);
      out.push_back([this, sdst, sbase, sbyte] { k_.ds_read_u8(sdst, sbase, Offset(sbyte)); });
      return out;
    };
    const uint8_t fmt = uint8_t(s_.format);
    // C = `c` (the block's own accumulators, or persistent's zeroed block for k-step 0 of an output
    // tile's first K tile)
    auto mfma = [&](int ks, int bi, int bj, Reg c) {
      Reg acc = acc_.at({bi, bj});
      const Reg a = fa[size_t(ks)][size_t(bi)], b = fb[size_t(ks)][size_t(bj)];
      const Reg as = sa[size_t(ks)][size_t(bi)], bs = sb[size_t(ks)][size_t(bj)];
      if (p_.transposed_acc) k_.emit(p_.mnemonic, {acc, b, a, c, bs, as, Cbsz{fmt}, Blgp{fmt}, OpSelHi(0)});
      else k_.emit(p_.mnemonic, {acc, a, b, c, as, bs, Cbsz{fmt}, Blgp{fmt}, OpSelHi(0)});
    };
    h.mfma = [&](int ks, int bi, int bj) { mfma(ks, bi, bj, acc_.at({bi, bj})); };
    // The prologue's loads (the steady state's go through load_pieces). The accumulators are zeroed
    // right after K tile 0's loads, so those 256 writes overlap the loads' latency instead of
    // delaying them.
    bool zeroed = false;
    h.load = [&](int stage, int half) {
      for (auto& e : load_pieces(stage, half)) e();
      if (half == 1 && !zeroed) {
        acc_ = zero_accumulators(p_.blocks_m, p_.blocks_n, p_.acc_regs());
        zeroed = true;
      }
    };
    h.load_pieces = [&](int stage, int half) { return load_pieces(stage, half); };
    if (p_.transposed_acc) h.quadrant_stores = [&](int qa, int qb) { return quadrant_stores(qa, qb); };
    const int per_half = (p_.a_chunks + p_.b_chunks) / 2 + p_.scale_loads_per_half;
    if (c_.persistent == 0)
      return ReadAheadSchedule(k_, {p_.k_tiles, KS, p_.blocks_m, p_.blocks_n, per_half}, std::move(h)).emit_dma();
    Reg outputs_left = persistent_setup();
    acc_ = k_.agprs("acc", {p_.blocks_m, p_.blocks_n}, p_.acc_regs());  // written first by mfma_fresh
    h.output_load_pieces = [&](int stage, int half, bool reset) {
      return load_pieces(stage, half, reset);
    };
    h.vmem_issued = [&] { return vmem_issued_; };
    h.next_output = [&] { return next_output(); };
    h.output_stores = [&](int qa, int qb, bool more, bool previous) {
      return quadrant_stores(qa, qb, more, previous);
    };
    h.skipped_stores = [&](int qa, int qb) {
      const int n = int(quadrant_blocks(qa, qb, true).size());  // one store per block
      vmem_issued_ += n;
      return n;
    };
    h.before_output = [&] { zero_block(); };
    h.mfma_fresh = [&](int bi, int bj) { mfma(0, bi, bj, acc_.at({p_.blocks_m - 1, p_.blocks_n - 1})); };
    h.prologue_fill = [&] {
      // the first output tile's K tile 0 runs the previous tile's stores of quadrants A1xB0 and A1xB1
      // through previous_rsrc_ with num_records 0: they write nothing, so the values they read do not
      // matter, but each block must be written on every path to them (the build's definedness
      // check). One register of each block's tuple is enough for that (a tuple counts as written
      // once any slice is: jit/regalloc/definedness.cpp), a quarter of the writes of zeroing it all.
      std::vector<ReadAheadHooks::Emit> out;
      for (int bi = p_.blocks_m / 2; bi < p_.blocks_m; ++bi)
        for (int bj = 0; bj < p_.blocks_n; ++bj)
          out.push_back([this, acc = Reg(acc_.at({bi, bj}))[0]] { k_.v_accvgpr_write_b32(acc, 0); });
      return out;
    };
    h.after_prologue_loads = [&] {
      read_setup();
      out_offsets();
      for (int i = 0; i < 2; ++i) {
        store_values_[i] = k_.vgpr("out_values", 4, 2);
        store_bf16_[i] = k_.vgpr("bf16_quad", 2, 2);
      }
    };
    ReadAheadSchedule(k_, {p_.k_tiles, KS, p_.blocks_m, p_.blocks_n, per_half}, std::move(h))
        .emit_dma_persistent(outputs_left);
  }

  // Persistent workgroups: workgroup w computes the output tiles of ids w, w + G, w + 2G, .. below
  // the tile count (G = the grid), each id placed as a workgroup id of the grouped order
  // (tile_coordinates). The tile loaded next (load_id_) has its operand and scale bases in SGPRs
  // (a load_pieces reset copies them to the half's pointers); the tile stored has its output byte
  // offset in out_soff_ (the stores' soffset). Returns the output tiles after the first (an SGPR).
  Reg persistent_setup() {
    k_.comment("persistent: the first output tile");
    load_id_ = k_.sgpr("load_tile_id");
    k_.s_mov_b32(load_id_, k_.workgroup_id(0));
    // the previous output tile's stores go through C's resource with num_records 0 until there is
    // one: a raw buffer store out of range writes nothing (CDNA3 ISA guide, buffer range checking;
    // runtime/sim/ops_mem.cpp's range rule) but still counts on vmcnt
    previous_rsrc_ = k_.sgpr("previous_store_rsrc", 4, 4);
    k_.s_mov_b64(previous_rsrc_.slice(0, 2), c_rsrc_.slice(0, 2));
    k_.s_mov_b32(previous_rsrc_[2], 0);
    k_.s_mov_b32(previous_rsrc_[3], c_rsrc_[3]);
    load_a_base_ = k_.sgpr("load_a_base", 2, 2);
    load_b_base_ = k_.sgpr("load_b_base", 2, 2);
    for (size_t j = 0; j < scale_ptr_.size(); ++j) load_s_base_.push_back(k_.sgpr("load_scale_base", 2, 2));
    load_m0_ = k_.sgpr("load_m0");
    load_n0_ = k_.sgpr("load_n0");
    out_soff_ = k_.sgpr("out_tile_bytes");
    k_.s_mov_b32(out_soff_, 0);  // read by the first output tile's stores of the (no) previous one
    load_bases();
    Reg left = k_.sgpr("outputs_left");  // floor((tiles - 1 - w) / G): the ids w + G, w + 2G, .. below tiles
    k_.s_sub_u32(left, sconst(uint32_t(p_.tiles_total - 1), "last_tile_id"), load_id_);
    Reg q = sdiv(left, p_.grid[0], "outputs_after_first");
    return q;
  }

  // The tile coordinates and bases of load_id_.
  void load_bases() {
    for (auto& e : load_bases_pieces()) e();
  }
  std::vector<ReadAheadHooks::Emit> load_bases_pieces() {
    std::vector<ReadAheadHooks::Emit> out;
    out.push_back([this] {
      Reg tm, tn;
      tile_coordinates(c_.group_m, p_.tiles_m, p_.tiles_n, p_.xcd_remap, tm, tn, load_id_);
      k_.s_mul_i32(load_m0_, tm, sconst(uint32_t(c_.tile_m), "tile_m"));
      k_.s_mul_i32(load_n0_, tn, sconst(uint32_t(c_.tile_n), "tile_n"));
    });
    out.push_back([this] { tile_bases(); });
    return out;
  }
  void tile_bases() {
    auto base = [&](Reg dst, Reg ptr, Reg origin, uint32_t row_bytes) {
      Reg off = k_.sgpr("tile_base_bytes");
      k_.s_mul_i32(off, origin, sconst(row_bytes, "row_bytes"));
      sptr_add_to(dst, ptr, off);
    };
    const uint32_t rb = uint32_t(p_.row_bytes());
    base(load_a_base_, a_ptr_, load_m0_, rb);
    base(load_b_base_, b_ptr_, load_n0_, rb);
    // scale load j reads SA (rows of A: the tile's m0) or SB (n0), as scale_dma_setup chose per wave
    // (a wave past the last slot reads SA, at m0)
    const uint32_t srow = s_.scales == GemmMxScaleLayout::km ? 1 : uint32_t(p_.scale_row_bytes());
    for (size_t j = 0; j < scale_ptr_.size(); ++j) {
      Reg origin = k_.sgpr("scale_tile_origin");
      k_.s_cmp_lt_u32(scale_first_[j], sconst(a_slots() + b_slots(), "scale_slots"));
      k_.s_cselect_b32(origin, load_n0_, load_m0_);
      k_.s_cmp_lt_u32(scale_first_[j], sconst(a_slots(), "a_scale_slots"));
      k_.s_cselect_b32(origin, load_m0_, origin);
      base(load_s_base_[j], scale_ptr_[j], origin, srow);
    }
  }

  // At each output tile's K tile 1 (ReadAheadHooks::next_output): the tile loaded last is the one
  // stored from now on (so K tile 0 of the next output tile has a previous one to store); the next
  // id (past the workgroup's last tile: the same again, whose loads then only fill LDS) is loaded next.
  // As pieces (spread between MFMAs): the output offset, the next id, its coordinates and bases.
  std::vector<ReadAheadHooks::Emit> next_output() {
    std::vector<ReadAheadHooks::Emit> out;
    out.push_back([this] {
      k_.comment("persistent: the next output tile");
      k_.s_mov_b32(previous_rsrc_[2], c_rsrc_[2]);
      Reg rowb = k_.sgpr("out_row_start");
      k_.s_mul_i32(rowb, load_m0_, sconst(uint32_t(s_.N), "N"));
      k_.s_add_u32(rowb, rowb, load_n0_);
      k_.s_lshl_b32(out_soff_, rowb, std::countr_zero(unsigned(p_.out_esize())));
    });
    out.push_back([this] {
      Reg next = k_.sgpr("next_tile_id");
      k_.s_add_u32(next, load_id_, sconst(p_.grid[0], "grid"));
      k_.s_cmp_lt_u32(next, sconst(uint32_t(p_.tiles_total), "tiles"));
      k_.s_cselect_b32(load_id_, next, load_id_);
    });
    for (auto& e : load_bases_pieces()) out.push_back(std::move(e));
    return out;
  }

  // Persistent: the last accumulator block is the one kept for zeros (ReadAheadHooks::before_output,
  // mfma_fresh): its previous output tile's values stored (none before the first: written nowhere) and
  // zeroed before an output tile's first MFMA.
  void zero_block() {
    const int bi = p_.blocks_m - 1, bj = p_.blocks_n - 1;
    for (auto& e : block_store(bi, bj, 0, true)) e();
    for (int r = 0; r < p_.acc_regs(); ++r) k_.v_accvgpr_write_b32(Reg(acc_.at({bi, bj}))[r], 0);
  }

  // Output byte offsets per block row and column. Persistent (once, relative to the tile origin;
  // the tiles are whole): the lane's first column folded into the row offsets, a block column's
  // offset the store's immediate.
  void out_offsets() {
    const WaveOrigin origin = wave_origin(m0_, n0_, wm_, wn_, p_.wave_m, p_.wave_n);
    const AccumulatorLane lane = accumulator_lane(lane_, 16);
    const uint32_t osize = uint32_t(p_.out_esize());
    if (c_.persistent > 0) {
      Reg col = vadd_sv(origin.n, lane.row4, 0, "lane_col");
      k_.v_lshlrev_b32(col, std::countr_zero(osize), col);
      out_row_.clear();
      for (int bi = 0; bi < p_.blocks_m; ++bi) {
        Reg r = output_row_offset(origin.m, lane.col, uint32_t(bi * 16), uint32_t(s_.N) * osize, uint32_t(s_.M));
        k_.v_add_u32(r, r, col);
        out_row_.push_back(r);
      }
      return;
    }
    out_col_ = output_column_offsets(origin.n, lane.row4, p_.blocks_n, 16, int(osize), uint32_t(s_.N));
    out_row_.clear();
    for (int bi = 0; bi < p_.blocks_m; ++bi)
      out_row_.push_back(output_row_offset(origin.m, lane.col, uint32_t(bi * 16), uint32_t(s_.N) * osize, uint32_t(s_.M)));
  }

  // Transposed accumulators (GemmMxPlan::transposed_acc): block (bi, bj) is B's block bj times A's
  // block bi, so lane l holds C row m_wave + 16 bi + l % 16, columns n_wave + 16 bj + 4 (l / 16)
  // .. + 3: one 4-element store per block (bf16: two v_cvt_pk_bf16_f32 and a buffer_store_dwordx2;
  // f32: a buffer_store_dwordx4) instead of four 1-element ones. N % 4 == 0 (the plan checks), so a
  // lane's 4 columns are all inside N or all past it. The stores of quadrant (qa, qb) as pieces
  // (ReadAheadHooks::quadrant_stores: the schedule runs them between the last K tile's MFMAs); the
  // first quadrant's start with the output offsets of every block row and column.
  // Persistent (`zero`): each block's accumulators are zeroed once read, and every store adds the
  // output tile's offset (out_soff_); the offsets per block row and column were computed once.
  // Persistent `previous`: the previous output tile's stores, through previous_rsrc_ (num_records
  // 0 in the first output tile, which has none).
  std::vector<ReadAheadHooks::Emit> quadrant_stores(int qa, int qb, bool more = false, bool previous = false) {
    std::vector<ReadAheadHooks::Emit> out;
    if (qa == 0 && qb == 0 && c_.persistent == 0)
      out.push_back([this] {
        k_.comment("epilogue: output offsets");
        out_offsets();
      });
    for (const auto& [bi, bj] : quadrant_blocks(qa, qb, more))
      for (auto& e : block_store(bi, bj, size_t(bj % 2), previous)) out.push_back(std::move(e));  // hn even: sets alternate
    return out;
  }

  // The blocks quadrant_stores stores, in order.
  std::vector<std::pair<int, int>> quadrant_blocks(int qa, int qb, bool more) const {
    std::vector<std::pair<int, int>> out;
    const int hm = p_.blocks_m / 2, hn = p_.blocks_n / 2;
    for (int bi = qa * hm; bi < (qa + 1) * hm; ++bi)
      for (int bj = qb * hn; bj < (qb + 1) * hn; ++bj)
        if (!more || bi != p_.blocks_m - 1 || bj != p_.blocks_n - 1) out.emplace_back(bi, bj);  // else zero_block's
    return out;
  }

  // One block's store as pieces. Persistent: register set `set` of two shared by all blocks (a
  // tuple written a slice at a time inside the output tile loop is live around the whole loop, so
  // one per block would hold a register set per block), the output tile's offset in soffset and the
  // block column's in the immediate.
  std::vector<ReadAheadHooks::Emit> block_store(int bi, int bj, size_t set, bool previous = false) {
    std::vector<ReadAheadHooks::Emit> out;
    const bool bf16 = s_.output == GemmMxOutput::bf16, persistent = c_.persistent > 0;
    auto v = std::make_shared<Reg>();
    out.push_back([this, v, bi, bj, set, persistent] {
      *v = persistent ? store_values_[set] : k_.vgpr("out_values", 4, 2);
      for (int r = 0; r < 2; ++r) k_.v_accvgpr_read_b32((*v)[r], Reg(acc_.at({bi, bj}))[r]);
    });
    out.push_back([this, v, bi, bj] {
      for (int r = 2; r < 4; ++r) k_.v_accvgpr_read_b32((*v)[r], Reg(acc_.at({bi, bj}))[r]);
    });
    out.push_back([this, v, bi, bj, bf16, set, persistent, previous] {
      ++vmem_issued_;
      Reg off;
      if (persistent) {
        off = out_row_[size_t(bi)];
      } else {
        off = k_.vgpr("out_bytes");
        k_.v_add_u32(off, out_row_[size_t(bi)], out_col_[size_t(bj)]);
      }
      const Offset col(int32_t(bj * 16 * p_.out_esize()));
      Reg data = *v;
      if (bf16) {
        data = persistent ? store_bf16_[set] : k_.vgpr("bf16_quad", 2, 2);
        k_.v_cvt_pk_bf16_f32(data[0], (*v)[0], (*v)[1]);
        k_.v_cvt_pk_bf16_f32(data[1], (*v)[2], (*v)[3]);
      }
      const Reg rsrc = previous ? previous_rsrc_ : c_rsrc_;
      if (bf16 && persistent) k_.buffer_store_dwordx2(data, off, rsrc, out_soff_, offen, col);
      else if (bf16) k_.buffer_store_dwordx2(data, off, rsrc, 0, offen);
      else if (persistent) k_.buffer_store_dwordx4(data, off, rsrc, out_soff_, offen, col);
      else k_.buffer_store_dwordx4(data, off, rsrc, 0, offen);
    });
    return out;
  }

  const GemmMxPlan& p_;
  const GemmMxShape& s_;
  const GemmMxConfig& c_;
  uint32_t lds_base_ = 0;
  Reg tid_, c_rsrc_, a_ptr_, b_ptr_, sa_ptr_, sb_ptr_;
  Reg dma_base_, scale_wave_base_, sra_, srb_, next_a_[2], next_b_[2];
  std::vector<Reg> out_row_, out_col_;  // epilogue: per block row / column output byte offsets
  std::vector<Reg> a_off_, b_off_, scale_off_, scale_ptr_, scale_rows_, ra_, rb_, next_s_[2], scale_step_;
  RegArray acc_;
  // persistent: each scale load's first slot (SA or SB), the output tile loaded next (id, origin,
  // bases), the stored one's output byte offset, and the VMEM instructions emitted so far
  std::vector<Reg> scale_first_, load_s_base_;
  Reg load_id_, previous_rsrc_, load_m0_, load_n0_, load_a_base_, load_b_base_, out_soff_, store_values_[2], store_bf16_[2];
  int vmem_issued_ = 0;
};

}  // namespace

void emit_gemm_mx_lds(Kernel& k, const GemmMxPlan& p) { GemmMxLdsGenerator(k, p).emit(); }

}  // namespace cdnajit::codegen
