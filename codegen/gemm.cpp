// The MFMA GEMM generator. See gemm.hpp for the kernel structure; the comments here say why
// each piece is emitted the way it is.
//
// LDS layout: one stage holds the A tile (tile_m rows) then the B tile (tile_n rows), each row
// tile_k bf16 (K-contiguous) plus padding, as in the implicit-GEMM conv3d (conv3d_igemm.cpp,
// "LDS layout"): with 16-byte fragment reads (gfx950's 16x16x32 / 32x32x16 MFMAs, ds_read_b128)
// a row is tile_k*2 + 16 bytes, so the 8 lanes of one LDS pass (8 consecutive rows, one column)
// start in 8 disjoint 4-bank groups; with 8-byte reads (gfx942's 16x16x16 / 32x32x8,
// ds_read_b64) the pad is 8 bytes and the 16 rows of a pass start at 16 distinct even banks.
// The fragment reads are therefore conflict free by padding, without a swizzle.
// DMA layout (GemmConfig::lds_dma, gfx950): global_load_lds_dwordx4 writes a wave's 64 lanes'
// 16-byte chunks to 1024 consecutive LDS bytes, so rows cannot be padded; thread t's chunk lands at
// row t / cpr, slot t % cpr (cpr = 16-byte chunks per row). Slot s of row r holds logical chunk
// s ^ ((r / swizzle_rows) % cpr), swizzle_rows = max(1, 128 / row bytes): thread t loads that
// logical chunk from global memory. The fragment read of a 16x16x32 block (lane l: row l % 16,
// chunk l / 16 + 4 * k-step) then finds its 16 rows' chunks in distinct bank groups; the timing
// model's bank model (runtime/model/lds_banks.hpp, with the measured b128 lane order of 32 and 64
// banks) gives the minimum passes, and without the xor 4x (64 banks) more: tests/codegen/test_gemm.cpp
// checks both. fp8's 32-byte fragments (16x16x128: lane l reads chunks 2q, 2q + 1, q = l / 16)
// would meet 2-way conflicts with that xor; they take the pair swizzle of
// MfmaGemmEmitter::fragment_chunk_swizzle (as the MX GEMM). Rows past M or N are clamped to the last valid row (global loads have no range check):
// they only feed output rows/columns the epilogue drops.
// Unpadded XOR layout (GemmConfig::lds_xor, the register-staged path with 8-byte fragment reads,
// gfx942): a 256x256 tile's 128-byte K rows (bf16 tile_k 64) fill exactly one 64 KiB stage, so
// they cannot be padded. A row is a multiple of 128 bytes, the 32 banks x 4 bytes of gfx942's LDS, and
// its 8-byte unit u sits at u ^ (r mod 16). An 8-byte read is served 16 lanes per pass
// (runtime/model/lds_banks.hpp); the 16 lanes of a fragment read are 16 consecutive rows (lane l:
// row l % 16 (or % 32), unit ks * units-per-k-step + l / m), so their units are 16 distinct bank
// pairs: one pass, where unswizzled rows put all 16 on the same two banks (16 passes). Block rows
// and the B tile start at multiples of 16, so a lane's xor is l % 16 for every block and one read
// base per k-step suffices (blocks stay immediate offsets). Thread t writes its 16-byte chunk c of
// row r as two ds_write_b64: units 2c ^ x and 2c + 1 ^ x (x = r mod 16; the second address is the
// first xor 8, and x is the same for all the thread's rows: plan check); the 16 lanes of a write
// pass are two rows' 8 chunks, 8 even and 8 odd units: conflict free too. Global loads are as
// with padding. tests/codegen/test_gemm.cpp checks the pass counts with and without the xor.
// B of layouts NN and TN arrives K-major (a 16-byte chunk is 8 consecutive columns of one K row); it
// is written down 8 LDS rows. A thread loads 2 or 4 consecutive K rows of the same columns where its
// chunk count allows, so each column's 2 or 4 K values are paired by v_perm_b32 and written by one
// ds_write_b32 / _b64 (8 writes per 2 or 4 chunks); otherwise 2-byte writes (ds_write_b16 / _d16_hi,
// 8 per chunk), and 1-byte writes for fp8 (16 per chunk). A of layouts TN and TT (stored K x M)
// takes the same path into the A rows of the stage (k_row_offsets, k_row_write_base, write_k_rows).
#include "codegen/gemm.hpp"

#include <fmt/format.h>

#include <bit>
#include <functional>
#include <vector>

#include "codegen/gemm_epilogue.hpp"
#include "codegen/gemm_split_k.hpp"
#include "codegen/mfma_gemm_emitter.hpp"
#include "codegen/mfma_tile.hpp"
#include "codegen/pingpong_schedule.hpp"
#include "codegen/read_ahead_schedule.hpp"
#include "codegen/workgroup_fit.hpp"
#include "jit/isa/error.hpp"

namespace cdnajit::codegen {
namespace {

class GemmGenerator : MfmaGemmEmitter {
 public:
  GemmGenerator(Kernel& k, const GemmPlan& p) : MfmaGemmEmitter(k), p_(p), s_(p.shape), c_(p.cfg) {}

  void emit() {
    if (p_.stream()) return emit_stream_k();
    lds_base_ = begin_tiled_kernel(p_.threads, p_.lds_bytes);
    const ElemType in = p_.esize == 1 ? ElemType::fp8 : s_.dtype == GemmDType::f16 ? ElemType::f16 : ElemType::bf16;
    const ElemType out = s_.output == GemmOutput::f32 ? ElemType::f32
                         : s_.output == GemmOutput::f16 ? ElemType::f16
                                                        : ElemType::bf16;
    Reg a = k_.load_arg(k_.arg_ptr("a", in, true));
    Reg b = k_.load_arg(k_.arg_ptr("b", in, true));
    a_ptr_ = a;
    b_ptr_ = b;
    // split-K: the third argument is the fp32 workspace, the slice's part of it written unscaled
    Reg c = k_.load_arg(k_.arg_ptr(p_.split() ? "workspace" : "c", p_.split() ? ElemType::f32 : out, false));
    Reg bias;  // split-K: the reduction kernel adds the bias
    if (s_.bias != GemmBias::none && !p_.split()) bias = k_.load_arg(k_.arg_ptr("bias", ElemType::f32, true));
    tid_ = k_.workitem_id(0);
    k_.s_waitcnt(lgkmcnt(0));
    if (p_.split()) {
      const GemmSlicePointers sp = gemm_slice_pointers(k_, *this, p_, a, b, c);
      a = a_ptr_ = sp.a;
      b = b_ptr_ = sp.b;
      c = sp.workspace;
    }
    a_rsrc_ = rsrc(a, p_.a_bytes(), "a_rsrc");
    b_rsrc_ = rsrc(b, p_.b_bytes(), "b_rsrc");
    c_rsrc_ = rsrc(c, p_.split() ? p_.slice_bytes() : p_.c_bytes(), "c_rsrc");
    if (bias.valid()) bias_rsrc_ = rsrc(bias, p_.bias_bytes(), "bias_rsrc");
    place_tile(c_.group_m, p_.tiles_m, p_.tiles_n, p_.xcd_remap, c_.tile_m, c_.tile_n, tid_, c_.waves_m);
    load_setup();
    lds_setup();
    acc_ = zero_accumulators(p_.blocks_m, p_.blocks_n, p_.mfma.acc_regs());
    main_loop();
    epilogue();
  }

 private:
  bool a_k_rows() const { return gemm_a_k_rows(s_.layout); }
  bool b_k_rows() const { return gemm_b_k_rows(s_.layout); }
  // DMA with read-ahead or ping-pong: LDS rows half-major, each half of a stage loaded separately
  bool half_major() const { return c_.read_ahead || c_.pingpong; }

  MfmaTileLayout tile_layout() const {
    return {p_.mfma, p_.esize, p_.lds_row_bytes, p_.mfma_per_tile, p_.blocks_m, p_.blocks_n, p_.mfma_format};
  }

  // Byte offsets of each thread's chunks at K tile 0 (the tile's K offset travels in soffset).
  // K-contiguous tiles: thread t loads chunk t % cpr of rows t / cpr + i * (threads / cpr).
  void load_setup() {
    const int cpr = p_.k_chunks_per_row;
    ch_ = k_.vgpr("chunk");
    k_.v_and_b32(ch_, cpr - 1, tid_);
    row0_ = k_.vgpr("chunk_row");
    k_.v_lshrrev_b32(row0_, std::countr_zero(unsigned(cpr)), tid_);
    const int step = p_.threads / cpr;
    if (c_.lds_dma) return load_setup_dma(step);
    // `tile_rows`: a chunk row past the tile (the last instruction of a tile whose chunks do not
    // split evenly over the threads, GemmPlan::lds_a_rows) reads nothing and fills a spare LDS row
    auto k_rows = [&](Reg first, int chunks, uint32_t rows, int tile_rows, std::vector<Reg>& out) {
      for (int i = 0; i < chunks; ++i) {
        Reg r = vadd_sv(first, row0_, uint32_t(i * step), "row");
        Reg off = vmul(r, uint32_t(s_.K) * uint32_t(p_.esize), "row_bytes");
        k_.v_lshl_add_u32(off, ch_, 4, off);
        k_.v_cmp_gt_u32(vcc, sconst(rows), r);
        k_.v_cndmask_b32(off, oob(), off, vcc);
        if ((i + 1) * step > tile_rows) {
          k_.v_cmp_gt_u32(vcc, sconst(uint32_t(tile_rows - i * step)), row0_);
          k_.v_cndmask_b32(off, oob(), off, vcc);
        }
        out.push_back(off);
      }
    };
    if (a_k_rows()) a_off_ = k_row_offsets(m0_, p_.ta_chunks_per_row, p_.a_chunks, uint32_t(s_.M), ta_cb_, ta_kr0_, "a");
    else k_rows(m0_, p_.a_chunks, uint32_t(s_.M), c_.tile_m, a_off_);
    if (!b_k_rows()) return k_rows(n0_, p_.b_chunks, uint32_t(s_.N), c_.tile_n, b_off_);
    b_off_ = k_row_offsets(n0_, p_.nn_chunks_per_row, p_.b_chunks, uint32_t(s_.N), nn_cb_, nn_kr0_, "b");
  }

  // K rows a thread loads back to back so that write_k_rows packs them into one LDS write per
  // column: 4 (ds_write_b64 of 4 K values; fp8 ds_write_b32), 2 (ds_write_b32; fp8 ds_write_b16) or
  // 1 (ds_write_b16; fp8 ds_write_b8).
  int k_row_pack(int chunks) const { return chunks % 4 == 0 ? 4 : chunks % 2 == 0 ? 2 : 1; }

  // An operand stored with K as the row index (B of NN/TN, A of TN/TT; `cols` = N or M values per
  // K row, from `first`): thread t loads the E = 16 / esize columns from E * (t % cpr) of K rows
  // G * (t / cpr) + g + j * G * (threads / cpr), chunk i = j * G + g, G = k_row_pack(chunks). Sets
  // `chunk` = t % cpr and `krow0` = G * (t / cpr); returns the byte offsets at K tile 0, oob() for
  // chunks past `cols` (whole chunks: cols is a multiple of E, plan check).
  std::vector<Reg> k_row_offsets(Reg first, int cpr, int chunks, uint32_t cols, Reg& chunk, Reg& krow0,
                                 const char* name) {
    chunk = k_.vgpr(fmt::format("{}_chunk", name));
    k_.v_and_b32(chunk, cpr - 1, tid_);
    krow0 = k_.vgpr(fmt::format("{}_krow", name));
    k_.v_lshrrev_b32(krow0, std::countr_zero(unsigned(cpr)), tid_);
    const int G = k_row_pack(chunks);
    if (G > 1) k_.v_lshlrev_b32(krow0, std::countr_zero(unsigned(G)), krow0);
    const uint32_t es = uint32_t(p_.esize);
    const int es_shift = std::countr_zero(es);
    Reg col = k_.vgpr(fmt::format("{}_col", name));
    k_.v_lshlrev_b32(col, 4 - es_shift, chunk);
    k_.v_add_u32(col, first, col);
    Reg ok = k_.sgpr(fmt::format("{}_col_ok", name), 2, 2);
    k_.v_cmp_gt_u32(ok, sconst(cols), col);
    Reg off0 = vmul(krow0, cols * es, "k_row_bytes");
    k_.v_lshl_add_u32(off0, col, es_shift, off0);
    const int kstep = p_.threads / cpr;
    std::vector<Reg> out;
    for (int i = 0; i < chunks; ++i) {
      Reg off = k_.vgpr(fmt::format("{}_off", name));
      k_.v_add_u32(off, int64_t(uint32_t(i % G + i / G * kstep * G) * cols * es), off0);
      k_.v_cndmask_b32(off, oob(), off, ok);
      out.push_back(off);
    }
    return out;
  }

  // LDS write base of a K-row operand's chunk (k_row_offsets): column c of the tile is LDS row
  // first_row + c, K row kr at byte kr * esize of it: (first_row + E * chunk) * RB + krow0 * esize.
  Reg k_row_write_base(Reg chunk, Reg krow0, int first_row, const char* name) {
    const int RB = p_.lds_row_bytes;
    Reg w = k_.vgpr(name);
    Reg colrow = vmul(chunk, uint32_t(16 / p_.esize * RB), "k_row_col_rows");
    k_.v_lshl_add_u32(w, krow0, std::countr_zero(unsigned(p_.esize)), colrow);
    k_.v_add_u32(w, int64_t(lds_base_ + uint32_t(first_row * RB)), w);
    return w;
  }

  // A K-row operand's staged chunks down E LDS rows each (cpr chunks per K row). 2-byte inputs: the
  // G = k_row_pack chunks of G consecutive K rows give each column G consecutive K values, paired
  // by v_perm_b32 (row k's element low, row k + 1's high) and written by one ds_write_b64 (G = 4) or
  // ds_write_b32 (G = 2), or one ds_write_b16 / _d16_hi per element (G = 1). fp8: write_k_rows_fp8.
  // `pieces` (not null): one emitter per staged chunk, as write_lds, since the read-ahead's refill
  // pairs piece i with chunk i's next global load (issue_loads' pieces); packed writes read several
  // chunks, so the first piece writes them all and the others are empty: every chunk's writes
  // precede its next load.
  void write_k_rows(Reg base, const std::vector<Reg>& staged, int cpr,
                    std::vector<std::function<void()>>* pieces = nullptr) {
    if (pieces) {
      pieces->push_back([this, base, staged, cpr] { write_k_rows(base, staged, cpr); });
      for (size_t i = 1; i < staged.size(); ++i) pieces->push_back([] {});
      return;
    }
    const int RB = p_.lds_row_bytes, kstep = p_.threads / cpr, es = p_.esize;
    const int G = k_row_pack(int(staged.size()));
    if (es == 1 && G > 1) return write_k_rows_fp8(base, staged, kstep, G);
    if (G > 1) {
      const Reg lo = sconst(0x05040100, "perm_lo_halves"), hi = sconst(0x07060302, "perm_hi_halves");
      for (size_t j = 0; j * G < staged.size(); ++j) {
        const int kb = int(j) * kstep * G * es;  // byte of the group's first K row
        for (int c = 0; c < 8; ++c) {
          const Reg sel = c % 2 == 0 ? lo : hi;
          Reg w = k_.vgpr("k_row_pack", G / 2, G / 2);
          for (int h = 0; h < G / 2; ++h)
            k_.v_perm_b32(w[h], staged[j * G + 2 * h + 1][c / 2], staged[j * G + 2 * h][c / 2], sel);
          if (G == 4) k_.ds_write_b64(base, w, Offset(c * RB + kb));
          else k_.ds_write_b32(base, w, Offset(c * RB + kb));
        }
      }
      return;
    }
    for (size_t i = 0; i < staged.size(); ++i) {
      if (es == 1) {
        for (int dw = 0; dw < 4; ++dw) {
          Reg d = staged[i][dw];
          Reg odd = k_.vgpr("k_row_odd_bytes");
          k_.v_lshrrev_b32(odd, 8, d);
          for (int b = 0; b < 4; ++b) {
            const Offset at((4 * dw + b) * RB + int(i) * kstep);
            Reg src = b % 2 == 0 ? d : odd;
            if (b < 2) k_.ds_write_b8(base, src, at);
            else k_.ds_write_b8_d16_hi(base, src, at);
          }
        }
        continue;
      }
      for (int j = 0; j < 8; ++j) {
        Reg d = staged[i][j / 2];
        const Offset at(j * RB + int(i) * kstep * 2);
        if (j % 2 == 0) k_.ds_write_b16(base, d, at);
        else k_.ds_write_b16_d16_hi(base, d, at);
      }
    }
  }

  // fp8 K rows, G = 2 or 4 per thread: for each pair of columns (c, c + 1), bytes b, b + 1 of dword
  // c / 4, one v_perm_b32 per 2 K rows interleaves them ([k.c, k+1.c, k.c+1, k+1.c+1]); G = 2: the
  // halves go to columns c and c + 1 (ds_write_b16 / _d16_hi); G = 4: two more v_perm_b32 join the
  // K-row pairs into each column's 4 K values (ds_write_b32).
  void write_k_rows_fp8(Reg base, const std::vector<Reg>& staged, int kstep, int G) {
    const int RB = p_.lds_row_bytes;
    const Reg inter[2] = {sconst(0x05010400, "perm_bytes01"), sconst(0x07030602, "perm_bytes23")};
    Reg lo, hi;
    if (G == 4) {
      lo = sconst(0x05040100, "perm_lo_halves");
      hi = sconst(0x07060302, "perm_hi_halves");
    }
    for (size_t j = 0; j * G < staged.size(); ++j) {
      const int kb = int(j) * kstep * G;  // byte of the group's first K row
      for (int c = 0; c < 16; c += 2) {
        const int d = c / 4;
        const Reg sel = inter[(c % 4) / 2];
        Reg t01 = k_.vgpr("k_row_pair");
        k_.v_perm_b32(t01, staged[j * G + 1][d], staged[j * G][d], sel);
        if (G == 2) {
          k_.ds_write_b16(base, t01, Offset(c * RB + kb));
          k_.ds_write_b16_d16_hi(base, t01, Offset((c + 1) * RB + kb));
          continue;
        }
        Reg t23 = k_.vgpr("k_row_pair");
        k_.v_perm_b32(t23, staged[j * G + 3][d], staged[j * G + 2][d], sel);
        Reg w0 = k_.vgpr("k_row_pack"), w1 = k_.vgpr("k_row_pack");
        k_.v_perm_b32(w0, t23, t01, lo);
        k_.v_perm_b32(w1, t23, t01, hi);
        k_.ds_write_b32(base, w0, Offset(c * RB + kb));
        k_.ds_write_b32(base, w1, Offset((c + 1) * RB + kb));
      }
    }
  }

  // The soffset multipliers of the K-row operands (issue_loads), hoisted out of the loop (N * 2 is
  // hoisted for every layout, as before the K-row A).
  void hoist_k_row_strides() {
    hoist_consts({uint32_t(s_.N) * 2});
    if (b_k_rows()) hoist_consts({uint32_t(s_.N) * uint32_t(p_.esize)});
    if (a_k_rows()) hoist_consts({uint32_t(s_.M) * uint32_t(p_.esize)});
    if ((a_k_rows() && k_row_pack(p_.a_chunks) > 1) || (b_k_rows() && k_row_pack(p_.b_chunks) > 1))
      hoist_consts({0x05040100, 0x07060302});  // write_k_rows' v_perm_b32 selectors
    if (p_.esize == 1 && ((a_k_rows() && k_row_pack(p_.a_chunks) > 1) || (b_k_rows() && k_row_pack(p_.b_chunks) > 1)))
      hoist_consts({0x05010400, 0x07030602});
  }

  // DMA: thread t's chunk i goes to LDS row row0 + i * step, slot t % cpr, and holds the logical
  // chunk slot ^ swizzle(row) (the same for all i: plan check); rows past M / N are clamped.
  void load_setup_dma(int step) {
    const int cpr = p_.k_chunks_per_row;
    Reg lc = ch_;
    if (p_.swizzle_rows) {
      Reg x = fragment_chunk_swizzle(row0_, p_.swizzle_rows, cpr, p_.mfma.a_bytes / 16, "swizzle");
      lc = k_.vgpr("logical_chunk");
      k_.v_xor_b32(lc, ch_, x);
    }
    // read_ahead / pingpong: LDS row r of a tile holds operand row half_major_row(r) (read_ahead_schedule.hpp)
    const uint32_t row_bytes = uint32_t(s_.K) * uint32_t(p_.esize);
    a_off_ = dma_row_offsets(m0_, row0_, lc, p_.a_chunks, step, p_.wave_m, uint32_t(s_.M), row_bytes, half_major());
    b_off_ = dma_row_offsets(n0_, row0_, lc, p_.b_chunks, step, p_.wave_n, uint32_t(s_.N), row_bytes, half_major());
  }

  // DMA: M0 base of this wave's chunks (wave * 1024) and the fragment read bases per k-step (the
  // swizzle is an xor, so each k-step's chunk needs its own base; blocks stay immediate offsets
  // because the swizzle repeats every 16 rows).
  void lds_setup_dma() {
    const DmaWaveBase dma = dma_wave_base(wave_, lds_base_, c_.stages == 2, p_.lds_stage_bytes);
    dma_base_ = dma.base;
    dma_tog_ = dma.toggle;
    Reg lrow = k_.vgpr("lane_row");  // l % 16 (16x16 blocks only: plan check)
    k_.v_and_b32(lrow, 15, lane_);
    Reg lq = k_.vgpr("lq");
    k_.v_lshrrev_b32(lq, 4, lane_);
    Reg x;
    if (p_.swizzle_rows)
      x = fragment_chunk_swizzle(lrow, p_.swizzle_rows, p_.k_chunks_per_row, p_.mfma.a_bytes / 16, "swizzle_read");
    // half-major rows: a wave's first half of blocks starts at row wm * wave_m / 2
    const int rdiv = half_major() ? 2 : 1;
    const WaveLdsRows rows = wave_lds_rows(wm_, wn_, p_.wave_m / rdiv, p_.wave_n / rdiv, c_.tile_m);
    ra_parts_ = dma_fragment_bases(tile_layout(), lds_base_, rows.a, lrow, lq, x, "lds_ra");
    rb_parts_ = dma_fragment_bases(tile_layout(), lds_base_, rows.b, lrow, lq, x, "lds_rb");
    if (c_.stages == 2 && !half_major()) {
      ra_part_togs_ = stage_toggles(ra_parts_, p_.lds_stage_bytes, "lds_ra_toggle");
      rb_part_togs_ = stage_toggles(rb_parts_, p_.lds_stage_bytes, "lds_rb_toggle");
    }
    if (c_.stages >= 3 || half_major()) {  // one set of read bases per stage (stage offsets exceed the 16-bit DS offset)
      auto shifted = [&](const std::vector<Reg>& bs, int st) {
        std::vector<Reg> out;
        for (Reg b : bs) {
          Reg r = k_.vgpr("lds_stage_read");
          k_.v_add_u32(r, int64_t(uint32_t(st) * p_.lds_stage_bytes), b);
          out.push_back(r);
        }
        return out;
      };
      ra_stage_.push_back(ra_parts_);
      rb_stage_.push_back(rb_parts_);
      for (int st = 1; st < c_.stages; ++st) {
        ra_stage_.push_back(shifted(ra_parts_, st));
        rb_stage_.push_back(shifted(rb_parts_, st));
      }
    }
  }

  // DMA: the K tile starting at element k0 straight into the current stage. Lane l of this wave's
  // i-th A (B) instruction lands at M0 + l * 16, M0 = the wave's base + i * threads * 16 (+ the A tile).
  // `half` 0 or 1 (half-major rows): only the chunks of the tiles' first or second half of rows;
  // `operand` 0 or 1: only A's or only B's (pingpong's quarters).
  void issue_dma(Reg k0, uint32_t stage_offset = 0, int half = -1, int operand = -1) {
    k_.comment(half < 0 ? "global -> LDS loads of one K tile"
                        : fmt::format("global -> LDS loads of half {} of one K tile{}", half,
                                      operand < 0 ? "" : operand == 0 ? " (A)" : " (B)"));
    Reg kb = smul(k0, uint32_t(p_.esize), "k_bytes");
    const uint32_t per = uint32_t(p_.threads * 16);
    auto in_half = [&](int i, int chunks) { return half < 0 || i / (chunks / 2) == half; };
    if (operand != 1) {
      Reg pa = sptr_add(a_ptr_, kb, "a_tile_ptr");
      for (int i = 0; i < p_.a_chunks; ++i)
        if (in_half(i, p_.a_chunks)) dma_chunk(dma_base_, stage_offset + uint32_t(i) * per, a_off_[size_t(i)], pa);
    }
    if (operand == 0) return;
    Reg pb = sptr_add(b_ptr_, kb, "b_tile_ptr");
    const uint32_t b0 = stage_offset + uint32_t(c_.tile_m * p_.lds_row_bytes);
    for (int i = 0; i < p_.b_chunks; ++i)
      if (in_half(i, p_.b_chunks)) dma_chunk(dma_base_, b0 + uint32_t(i) * per, b_off_[size_t(i)], pb);
  }

  void toggle_read_parts() {
    toggle_stages(ra_parts_, ra_part_togs_);
    toggle_stages(rb_parts_, rb_part_togs_);
  }

  // stages - 1 K tiles of DMA in flight (3 or 4 stages). Tile t sits in stage t % S. Per tile: wait
  // until tile t has landed (the S - 2 newer tiles' loads may stay in flight: VMEM loads retire in
  // order), one barrier (every wave's tile t has landed and every wave has finished reading tile
  // t - 1, whose stage the next DMA overwrites), the fragment reads of tile t, then the DMA of tile
  // t + S - 1 into stage (t - 1) % S behind them, then the MFMAs. K is a plan constant, so the loop
  // covers whole groups of S tiles (static stages) and the last tiles are emitted with their exact
  // waits and no loads past K.
  void main_loop_dma_deep() {
    const int S = c_.stages, T = p_.k_tiles, L = p_.a_chunks + p_.b_chunks;
    Reg kload = k_.sgpr("k_load");  // element offset of the next tile to load
    k_.s_mov_b32(kload, 0);
    auto load_next = [&](int stage) {
      issue_dma(kload, uint32_t(stage) * p_.lds_stage_bytes);
      k_.s_add_u32(kload, kload, int64_t(c_.tile_k));
    };
    for (int t = 0; t < std::min(S - 1, T); ++t) load_next(t);
    // tile t: `in_flight` newer tiles already issued; `load` issues tile t + S - 1
    auto tile = [&](int stage, int in_flight, bool load) {
      publish_tile(L * in_flight);
      const std::vector<Reg>& ra = ra_stage_[size_t(stage)];
      const std::vector<Reg>& rb = rb_stage_[size_t(stage)];
      emit_mfma_tile(k_, tile_layout(), {{}, {}, ra, rb}, acc_, [&] {
        if (load) load_next((stage + S - 1) % S);
      });
    };
    const int steady = std::max(0, T - S + 1);  // tiles that issue a further tile
    const int groups = steady / S;
    if (groups > 0) {
      Reg left = k_.sgpr("groups_left");
      k_.s_mov_b32(left, int64_t(groups));
      counted_loop(left, [&] {
        for (int j = 0; j < S; ++j) tile(j, S - 2, true);
      });
    }
    for (int t = groups * S; t < T; ++t) {
      const bool load = t + S - 1 < T;
      const int issued_last = std::min(T - 1, t + S - 2);  // newest tile issued before tile t's wait
      tile(t % S, issued_last - t, load);
    }
  }

  // The DS reads of fragment (ks, blk) of K tile t into `frag` from the half-major DMA rows (block
  // b of a half at row b * m of the wave's rows in that half, one read base per k-step and part).
  void dma_fragment_reads(Reg frag, bool is_a, int ks, int blk, int t) {
    const int fdw = p_.mfma.a_bytes / 4, F = std::max(1, fdw / 4), m = p_.mfma.m, RB = p_.lds_row_bytes;
    const int half = (is_a ? p_.blocks_m : p_.blocks_n) / 2, half_rows = (is_a ? c_.tile_m : c_.tile_n) / 2;
    const int hf = blk / half;
    for (int j = 0; j < F; ++j) {
      const Reg base = (is_a ? ra_stage_ : rb_stage_)[size_t(t % 2)][size_t(ks * F + j)];
      const Offset byte((hf * half_rows + (blk - hf * half) * m) * RB);
      if (fdw >= 4) k_.ds_read_b128(fdw > 4 ? frag.slice(4 * j, 4) : frag, base, byte);
      else k_.ds_read_b64(frag, base, byte);
    }
  }

  // Ping-pong (GemmConfig::pingpong): the schedule is codegen/pingpong_schedule.hpp. Registers: one
  // K tile's fragments (each quarter's own); each quarter of a stage (A or B, half 0 or 1) keeps its
  // own K offset of the next tile to load.
  void main_loop_pingpong() {
    const int KS = p_.mfma_per_tile, fdw = p_.mfma.a_bytes / 4;
    std::vector<std::vector<Reg>> fa(static_cast<size_t>(KS)), fb(static_cast<size_t>(KS));  // [ks][block]
    for (int ks = 0; ks < KS; ++ks) {
      for (int i = 0; i < p_.blocks_m; ++i) fa[size_t(ks)].push_back(k_.vgpr(fmt::format("a_frag{}_{}", ks, i), fdw, 2));
      for (int i = 0; i < p_.blocks_n; ++i) fb[size_t(ks)].push_back(k_.vgpr(fmt::format("b_frag{}_{}", ks, i), fdw, 2));
    }
    auto a_reg = [&](int ks, int bi) { return fa[size_t(ks)][size_t(bi)]; };
    auto b_reg = [&](int ks, int bj) { return fb[size_t(ks)][size_t(bj)]; };
    Reg kload[2][2];  // [operand][half]: element offset of that quarter's next tile
    for (int op = 0; op < 2; ++op)
      for (int h = 0; h < 2; ++h) {
        kload[op][h] = k_.sgpr(fmt::format("k_load_{}{}", op == 0 ? 'a' : 'b', h));
        k_.s_mov_b32(kload[op][h], 0);
      }
    PingPongHooks hooks;
    hooks.fragment_reads = [&](bool is_a, int ks, int blk, int t) {
      dma_fragment_reads(is_a ? a_reg(ks, blk) : b_reg(ks, blk), is_a, ks, blk, t);
    };
    const MfmaTileLayout lay = tile_layout();
    hooks.mfma = [&](int ks, int bi, int bj) { emit_mfma(k_, lay, acc_.at({bi, bj}), a_reg(ks, bi), b_reg(ks, bj)); };
    hooks.load = [&](int stage, bool is_a, int half) {
      Reg& kl = kload[is_a ? 0 : 1][half];
      issue_dma(kl, uint32_t(stage) * p_.lds_stage_bytes, half, is_a ? 0 : 1);
      k_.s_add_u32(kl, kl, int64_t(c_.tile_k));
    };
    const PingPongShape shape{p_.k_tiles, KS, p_.blocks_m, p_.blocks_n, p_.a_chunks / 2, p_.b_chunks / 2};
    PingPongSchedule sched(k_, shape, std::move(hooks));
    Reg group = k_.sgpr("wave_group");
    k_.s_lshr_b32(group, wave_, 2);
    k_.if_scc([&] { k_.s_cmp_eq_u32(group, 0); }, [&] { sched.emit_group(0); }, [&] { sched.emit_group(1); });
  }

  // Read-ahead (GemmConfig::read_ahead): the schedule is codegen/read_ahead_schedule.hpp; here the
  // fragments and how they are read and loaded.
  // DMA: LDS rows are half-major: the first half of a stage's A rows holds every wave's A0 rows
  // (wave wm's at wm * wave_m / 2), the second half the A1 rows, B likewise; each half is whole DMA
  // chunks, so a stage's halves are loaded separately ("half 0" = A0 and B0 rows). Block b of a
  // half sits at row b * m of the wave's rows in that half, one read base per k-step and part.
  // Register-staged (one padded stage): block b at row b * m, k-step ks at byte ks * kstep. The
  // generator's waits are checked and completed by the wait-count pass in its usual Auto mode
  // there (no LDS DMA on this path).
  void main_loop_read_ahead() {
    const bool dma = c_.lds_dma;
    const int S = c_.ra_split;  // schedule tiles (K sub-tiles) per K tile; 1 on the DMA path (plan check)
    const int KS = p_.mfma_per_tile / S;
    const int fdw = p_.mfma.a_bytes / 4, F = std::max(1, fdw / 4), m = p_.mfma.m, RB = p_.lds_row_bytes;
    const int hm = p_.blocks_m / 2, hn = p_.blocks_n / 2;
    Reg kload[2];  // DMA: the next tile of each half
    if (dma) {
      kload[0] = k_.sgpr("k_load_half0");
      kload[1] = k_.sgpr("k_load_half1");
      k_.s_mov_b32(kload[0], 0);
      k_.s_mov_b32(kload[1], 0);
    }
    // fragments [ks][block], each F 16-byte parts (or one 8-byte part)
    std::vector<std::vector<Reg>> fa(static_cast<size_t>(KS)), fb(static_cast<size_t>(KS));
    for (int ks = 0; ks < KS; ++ks) {
      for (int bi = 0; bi < p_.blocks_m; ++bi) fa[size_t(ks)].push_back(k_.vgpr(fmt::format("a_frag{}_{}", ks, bi), fdw, 2));
      for (int bj = 0; bj < p_.blocks_n; ++bj) fb[size_t(ks)].push_back(k_.vgpr(fmt::format("b_frag{}_{}", ks, bj), fdw, 2));
    }
    ReadAheadHooks h;
    h.fragment_reads = [&](bool is_a, int ks, int blk, int t) {
      const int st = t % 2, half = is_a ? hm : hn, half_rows = (is_a ? c_.tile_m : c_.tile_n) / 2, hf = blk / half;
      const int kg = t % S * KS + ks;  // the k-step within the K tile
      std::vector<ReadAheadHooks::Emit> out;
      for (int j = 0; j < F; ++j) {
        const Reg frag = (is_a ? fa : fb)[size_t(ks)][size_t(blk)];
        const Reg dst = fdw >= 4 ? frag.slice(4 * j, 4) : frag;
        Reg base = dma ? (is_a ? ra_stage_ : rb_stage_)[size_t(st)][size_t(ks * F + j)] : is_a ? ra_ : rb_;
        int byte = dma ? (hf * half_rows + (blk - hf * half) * m) * RB
                       : blk * m * RB + kg * p_.mfma.k * p_.esize + 16 * j;
        if (c_.lds_xor) {  // one base per k-step (8-byte fragments: F = 1)
          base = (is_a ? ra_parts_ : rb_parts_)[size_t(kg)];
          byte = blk * m * RB;
        }
        out.push_back([this, dst, base, byte, fdw] {
          if (fdw >= 4) k_.ds_read_b128(dst, base, Offset(byte));
          else k_.ds_read_b64(dst, base, Offset(byte));
        });
      }
      return out;
    };
    const MfmaTileLayout lay = tile_layout();
    h.mfma = [&](int ks, int bi, int bj) { emit_mfma(k_, lay, acc_.at({bi, bj}), fa[size_t(ks)][size_t(bi)], fb[size_t(ks)][size_t(bj)]); };
    h.load = [&](int stage, int half) {
      issue_dma(kload[half], uint32_t(stage) * p_.lds_stage_bytes, half);
      k_.s_add_u32(kload[half], kload[half], int64_t(c_.tile_k));
    };
    h.staged_prologue = [&] {
      hoist_k_row_strides();
      kstage_ = k_.sgpr("k_elem");
      k_.s_mov_b32(kstage_, 0);
      issue_loads(kstage_);
      k_.s_waitcnt(vmcnt(0));
      write_lds();
      k_.s_waitcnt(lgkmcnt(0));
      k_.s_barrier();
      if (p_.k_tiles > 1) {
        k_.s_add_u32(kstage_, kstage_, int64_t(c_.tile_k));
        issue_loads(kstage_);
      }
    };
    h.staged_refill = [&](bool load_next) {
      // chunk by chunk: its LDS writes, then (load_next) its next load into the staging registers
      // the writes just read
      std::vector<ReadAheadHooks::Emit> writes, loads;
      write_lds(&writes);
      if (!load_next) return writes;
      k_.s_add_u32(kstage_, kstage_, int64_t(c_.tile_k));
      issue_loads(kstage_, &loads);
      if (writes.size() != loads.size())  // a load left out would leave its staging chunk stale
        throw Error(fmt::format("gemm {}: internal: the read-ahead refill has {} LDS-write pieces for {} loads",
                                c_.str(), writes.size(), loads.size()));
      std::vector<ReadAheadHooks::Emit> out;
      for (size_t i = 0; i < writes.size(); ++i)
        out.push_back([w = writes[i], l = loads[i]] {
          w();
          l();
        });
      return out;
    };
    const ReadAheadShape shape{p_.k_tiles * S, KS, p_.blocks_m, p_.blocks_n, (p_.a_chunks + p_.b_chunks) / 2, S};
    ReadAheadSchedule sched(k_, shape, std::move(h));
    if (dma) sched.emit_dma();
    else sched.emit_staged();
  }

  void main_loop_dma() {
    if (c_.pingpong) return main_loop_pingpong();
    if (c_.read_ahead) return main_loop_read_ahead();
    if (c_.stages >= 3) return main_loop_dma_deep();
    Reg kcur = k_.sgpr("k_elem");
    k_.s_mov_b32(kcur, 0);
    Reg left = k_.sgpr("tiles_left");
    if (c_.stages == 1) {
      k_.s_mov_b32(left, int64_t(p_.k_tiles));
      counted_loop(left, [&] {
        issue_dma(kcur);
        publish_tile(0);
        compute();
        k_.s_barrier();
        k_.s_add_u32(kcur, kcur, int64_t(c_.tile_k));
      });
      return;
    }
    issue_dma(kcur);
    publish_tile(0);
    k_.s_mov_b32(left, int64_t(p_.k_tiles - 1));
    counted_loop_or_none(left, [&] {
      k_.s_add_u32(kcur, kcur, int64_t(c_.tile_k));
      k_.s_xor_b32(dma_base_, dma_base_, dma_tog_);  // DMA into the other stage
      // The DMAs go out after this tile's fragment reads: an LDS read behind an
      // outstanding LDS DMA would wait for it; this way they overlap the MFMAs.
      compute([&] { issue_dma(kcur); });
      publish_tile(0);
      toggle_read_parts();
    });
    compute();
  }

  // Unpadded XOR rows (GemmConfig::lds_xor, "LDS layout" above): the write bases of each chunk's
  // two 8-byte units and one fragment read base per k-step.
  void lds_setup_xor() {
    const int RB = p_.lds_row_bytes, m = p_.mfma.m;
    Reg unit = k_.vgpr("xor_unit");  // 2 * chunk ^ (row mod 16): the chunk's first 8-byte unit
    k_.v_lshlrev_b32(unit, 1, ch_);
    if (c_.lds_swizzle) {
      Reg x = chunk_swizzle(row0_, 1, 16, "write_swizzle");
      k_.v_xor_b32(unit, unit, x);
    }
    w_a_ = chunk_write_base(unit, row0_, RB, lds_base_, 3);
    w_a_hi_ = k_.vgpr("lds_w_hi");
    k_.v_xor_b32(w_a_hi_, 8, w_a_);
    w_b_ = k_.vgpr("lds_w_b");
    k_.v_add_u32(w_b_, int64_t(uint32_t(p_.lds_a_rows * RB)), w_a_);
    w_b_hi_ = k_.vgpr("lds_w_b_hi");
    k_.v_add_u32(w_b_hi_, int64_t(uint32_t(p_.lds_a_rows * RB)), w_a_hi_);
    Reg lrow = k_.vgpr("lane_row");
    k_.v_and_b32(lrow, m - 1, lane_);
    Reg lq = k_.vgpr("lq");
    k_.v_lshrrev_b32(lq, std::countr_zero(unsigned(m)), lane_);
    Reg x;
    if (c_.lds_swizzle) x = chunk_swizzle(lrow, 1, 16, "read_swizzle");
    const WaveLdsRows rows = wave_lds_rows(wm_, wn_, p_.wave_m, p_.wave_n, p_.lds_a_rows);
    const int step_units = p_.mfma.k * p_.esize / 8;
    ra_parts_ = dma_fragment_bases(1, step_units, p_.mfma_per_tile, RB, lds_base_, rows.a, lrow, lq, x, "lds_ra", 3);
    rb_parts_ = dma_fragment_bases(1, step_units, p_.mfma_per_tile, RB, lds_base_, rows.b, lrow, lq, x, "lds_rb", 3);
    if (c_.stages == 2) {
      w_a_tog_ = stage_toggle(w_a_, p_.lds_stage_bytes, "lds_w_toggle");
      w_b_tog_ = stage_toggle(w_b_, p_.lds_stage_bytes, "lds_w_b_toggle");
      w_a_hi_tog_ = stage_toggle(w_a_hi_, p_.lds_stage_bytes, "lds_w_hi_toggle");
      w_b_hi_tog_ = stage_toggle(w_b_hi_, p_.lds_stage_bytes, "lds_w_b_hi_toggle");
      ra_part_togs_ = stage_toggles(ra_parts_, p_.lds_stage_bytes, "lds_ra_toggle");
      rb_part_togs_ = stage_toggles(rb_parts_, p_.lds_stage_bytes, "lds_rb_toggle");
    }
  }

  void lds_setup() {
    if (c_.lds_dma) return lds_setup_dma();
    if (c_.lds_xor) return lds_setup_xor();
    const int RB = p_.lds_row_bytes;
    w_a_ = a_k_rows() ? k_row_write_base(ta_cb_, ta_kr0_, 0, "lds_w") : chunk_write_base(ch_, row0_, RB, lds_base_);
    // B writes from their own base (the B tile starts tile_m rows in): keeps every immediate
    // DS offset below one tile's size, so 256x256 tiles fit the 16-bit offset field.
    if (b_k_rows()) {
      w_b_ = k_row_write_base(nn_cb_, nn_kr0_, p_.lds_a_rows, "lds_w_b");
    } else {
      w_b_ = k_.vgpr("lds_w_b");
      k_.v_add_u32(w_b_, int64_t(uint32_t(p_.lds_a_rows * RB)), a_k_rows() ? chunk_write_base(ch_, row0_, RB, lds_base_) : w_a_);
    }
    const FragmentBases f = fragment_read_bases(lane_, wm_, wn_, p_.mfma.m, p_.mfma.a_bytes, p_.wave_m, p_.wave_n,
                                                p_.lds_a_rows, uint32_t(RB), lds_base_);
    ra_ = f.a;
    rb_ = f.b;
    if (c_.stages == 2) {
      w_a_tog_ = stage_toggle(w_a_, p_.lds_stage_bytes, "lds_w_toggle");
      w_b_tog_ = stage_toggle(w_b_, p_.lds_stage_bytes, "lds_w_b_toggle");
      ra_tog_ = stage_toggle(ra_, p_.lds_stage_bytes, "lds_ra_toggle");
      rb_tog_ = stage_toggle(rb_, p_.lds_stage_bytes, "lds_rb_toggle");
    }
  }

  // Global loads of the K tile starting at element k0 (SGPR) into the staging registers.
  // `pieces` (not null): the offsets are computed here, each chunk's load appended as one emitter
  // (A chunks, then B chunks, as write_lds's pieces).
  void issue_loads(Reg k0, std::vector<std::function<void()>>* pieces = nullptr) {
    k_.comment("global loads of one K tile");
    Reg kc = smul(k0, uint32_t(p_.esize), "k_bytes");
    Reg ka = kc;
    if (a_k_rows()) {
      ka = k_.sgpr("k_row_bytes_a");
      k_.s_mul_i32(ka, k0, sconst(uint32_t(s_.M) * uint32_t(p_.esize), "a_row_stride"));
    }
    Reg kb = kc;
    if (b_k_rows()) {
      kb = k_.sgpr("k_row_bytes");
      k_.s_mul_i32(kb, k0, sconst(uint32_t(s_.N) * uint32_t(p_.esize), "b_row_stride"));
    }
    auto load = [&](Reg dst, Reg off, Reg rsrc, Reg k) {
      auto f = [this, dst, off, rsrc, k] { k_.buffer_load_dwordx4(dst, off, rsrc, k, offen); };
      if (pieces) pieces->push_back(f);
      else f();
    };
    for (int i = 0; i < p_.a_chunks; ++i) load(stage_a_[size_t(i)], a_off_[size_t(i)], a_rsrc_, ka);
    for (int i = 0; i < p_.b_chunks; ++i) load(stage_b_[size_t(i)], b_off_[size_t(i)], b_rsrc_, kb);
  }

  // The staging registers to LDS. `pieces` (not null): each chunk's writes appended as one emitter
  // instead of emitted here (the read-ahead schedule spreads them between MFMAs).
  void write_lds(std::vector<std::function<void()>>* pieces = nullptr) {
    const int RB = p_.lds_row_bytes, step = p_.threads / p_.k_chunks_per_row;
    auto put = [&](Reg base, Reg data, int byte) {
      auto f = [this, base, data, byte] { write_lds_chunk(base, data, byte, p_.lds_pad_bytes == 16); };
      if (pieces) pieces->push_back(f);
      else f();
    };
    if (c_.lds_xor) {  // the chunk's two 8-byte units at their swizzled places ("LDS layout")
      auto put2 = [&](Reg lo, Reg hi, Reg data, int byte) {
        auto f = [this, lo, hi, data, byte] {
          k_.ds_write_b64(lo, data.slice(0, 2), Offset(byte));
          k_.ds_write_b64(hi, data.slice(2, 2), Offset(byte));
        };
        if (pieces) pieces->push_back(f);
        else f();
      };
      for (int i = 0; i < p_.a_chunks; ++i) put2(w_a_, w_a_hi_, stage_a_[size_t(i)], i * step * RB);
      for (int i = 0; i < p_.b_chunks; ++i) put2(w_b_, w_b_hi_, stage_b_[size_t(i)], i * step * RB);
      return;
    }
    if (a_k_rows()) write_k_rows(w_a_, stage_a_, p_.ta_chunks_per_row, pieces);
    else
      for (int i = 0; i < p_.a_chunks; ++i) put(w_a_, stage_a_[size_t(i)], i * step * RB);
    if (b_k_rows()) return write_k_rows(w_b_, stage_b_, p_.nn_chunks_per_row, pieces);
    for (int i = 0; i < p_.b_chunks; ++i) put(w_b_, stage_b_[size_t(i)], i * step * RB);
  }

  void compute(const std::function<void()>& after_reads = {}) {
    emit_mfma_tile(k_, tile_layout(), {ra_, rb_, ra_parts_, rb_parts_}, acc_, after_reads);
  }

  void toggle_writes() {
    k_.v_xor_b32(w_a_, w_a_, w_a_tog_);
    k_.v_xor_b32(w_b_, w_b_, w_b_tog_);
    if (!c_.lds_xor) return;
    k_.v_xor_b32(w_a_hi_, w_a_hi_, w_a_hi_tog_);
    k_.v_xor_b32(w_b_hi_, w_b_hi_, w_b_hi_tog_);
  }

  // Two stages: the fragment read bases to the other stage.
  void toggle_reads() {
    if (c_.lds_xor) return toggle_read_parts();
    k_.v_xor_b32(ra_, ra_, ra_tog_);
    k_.v_xor_b32(rb_, rb_, rb_tog_);
  }

  void main_loop() {
    if (c_.lds_dma) return main_loop_dma();
    for (int i = 0; i < p_.a_chunks; ++i) stage_a_.push_back(k_.vgpr(fmt::format("stage_a{}", i), 4, 2));
    for (int i = 0; i < p_.b_chunks; ++i) stage_b_.push_back(k_.vgpr(fmt::format("stage_b{}", i), 4, 2));
    if (c_.read_ahead) return main_loop_read_ahead();
    hoist_k_row_strides();
    Reg kcur = k_.sgpr("k_elem");
    if (sk_k_first_.valid()) k_.s_mov_b32(kcur, sk_k_first_);  // stream-K: the segment's first K element
    else k_.s_mov_b32(kcur, 0);
    Reg left = k_.sgpr("tiles_left");
    if (c_.stages == 1) {
      // One LDS stage, the next tile prefetched into the staging registers (as HipKittens' CDNA3
      // kernels): staging -> LDS -> barrier -> next tile's global loads -> MFMAs -> barrier (the
      // next writes wait for every wave's reads). The loads fly during the MFMAs; the last tile
      // issues none.
      issue_loads(kcur);
      auto tile = [&](bool prefetch) {
        publish_tile(0, [&] { write_lds(); });
        if (prefetch) {
          k_.s_add_u32(kcur, kcur, int64_t(c_.tile_k));
          issue_loads(kcur);
        }
        compute();
        k_.s_barrier();
      };
      if (sk_k_count_.valid()) {  // stream-K: the segment's K tiles
        k_.s_sub_u32(left, sk_k_count_, 1);
        counted_loop_or_none(left, [&] { tile(true); });
      } else if (p_.k_tiles > 1) {
        k_.s_mov_b32(left, int64_t(p_.k_tiles - 1));
        counted_loop(left, [&] { tile(true); });
      }
      tile(false);
      return;
    }
    // Two stages: tile i+1's global loads fly while tile i is multiplied out of LDS; its data
    // goes to the other stage, then one barrier per tile.
    issue_loads(kcur);
    publish_tile(0, [&] { write_lds(); });
    if (sk_k_count_.valid()) k_.s_sub_u32(left, sk_k_count_, 1);  // stream-K: the segment's K tiles
    else k_.s_mov_b32(left, int64_t(p_.k_tiles - 1));
    counted_loop_or_none(left, [&] {
      k_.s_add_u32(kcur, kcur, int64_t(c_.tile_k));
      issue_loads(kcur);
      compute();
      toggle_writes();
      publish_tile(0, [&] { write_lds(); });
      toggle_reads();
    });
    compute();
  }

  // Lane l of block (bi, bj), register r: row m0 + wm*wave_m + bi*m + 8*(r/4) + 4*(l/m) + r%4,
  // column n0 + wn*wave_n + bj*m + l%m (MfmaGemmEmitter::accumulator_lane). Byte offset = row
  // part + column part, with rows past M marked kOob and columns past N kInvalidPart: the store
  // (and the beta read, which returns 0) is dropped without a compare.
  void epilogue() {
    k_.comment("epilogue");
    const int mb = p_.mfma.m, osize = p_.out_esize();
    const AccumulatorLane lane = accumulator_lane(lane_, mb);
    const WaveOrigin origin = wave_origin(m0_, n0_, wm_, wn_, p_.wave_m, p_.wave_n);
    if (p_.split())  // the slice's fp32 partial sums; the rest of the epilogue in the reduction kernel
      return store_accumulators(acc_, origin, lane, p_.blocks_m, p_.blocks_n, mb, p_.mfma.acc_regs(), false,
                                uint32_t(s_.M), uint32_t(s_.N), c_rsrc_);
    const std::vector<Reg> coloff = output_column_offsets(origin.n, lane.col, p_.blocks_n, mb, osize, uint32_t(s_.N));
    Reg alpha, beta, c7fff;
    if (s_.alpha != 1.0f) alpha = sconst(std::bit_cast<uint32_t>(s_.alpha), "alpha");
    if (s_.beta != 0.0f) beta = sconst(std::bit_cast<uint32_t>(s_.beta), "beta");
    if (p_.arch == Arch::gfx942 && s_.output == GemmOutput::bf16) c7fff = sconst(0x7fff, "c7fff");
    const std::vector<Reg> bias = load_bias(coloff, osize);
    const GemmActivationConsts act = gemm_activation_consts(k_, *this, s_.act);
    for (int bi = 0; bi < p_.blocks_m; ++bi)
      for (int r = 0; r < p_.mfma.acc_regs(); ++r) {
        Reg ro = output_row_offset(origin.m, lane.row4, uint32_t(bi * mb + 8 * (r / 4) + r % 4),
                                   uint32_t(s_.N) * uint32_t(osize), uint32_t(s_.M));
        std::vector<Reg> offs, cin;
        for (int bj = 0; bj < p_.blocks_n; ++bj) {
          Reg off = k_.vgpr("out_bytes");
          k_.v_add_u32(off, ro, coloff[size_t(bj)]);
          offs.push_back(off);
          if (!beta.valid()) continue;
          Reg v = k_.vgpr("c_in");
          if (osize == 4) k_.buffer_load_dword(v, off, c_rsrc_, 0, offen);
          else k_.buffer_load_ushort(v, off, c_rsrc_, 0, offen);
          cin.push_back(v);
        }
        if (beta.valid()) k_.s_waitcnt(vmcnt(0));
        for (int bj = 0; bj < p_.blocks_n; ++bj) {
          Reg v = k_.vgpr("out_value");
          k_.v_accvgpr_read_b32(v, Reg(acc_.at({bi, bj}))[r]);
          if (alpha.valid()) k_.v_mul_f32(v, alpha, v);
          if (beta.valid()) {
            Reg x = cin[size_t(bj)];
            if (s_.output == GemmOutput::bf16) k_.v_lshlrev_b32(x, 16, x);  // bf16 bits -> fp32
            if (s_.output == GemmOutput::f16) k_.v_cvt_f32_f16(x, x);
            k_.v_fma_f32(v, beta, x, v);
          }
          if (!bias.empty()) k_.v_add_f32(v, v, bias[size_t(bj)]);
          gemm_activation(k_, s_.act, v, act);
          store_output(v, offs[size_t(bj)], c7fff);
        }
      }
  }

  // The bias of each of the lane's blocks_n columns (GemmBias::col: bias[n] as fp32), loaded once;
  // a column past N (offset marked kInvalidPart, doubled for 2-byte outputs) reads past num_records: 0.
  std::vector<Reg> load_bias(const std::vector<Reg>& coloff, int osize) {
    std::vector<Reg> bias;
    if (s_.bias == GemmBias::none) return bias;
    k_.comment("bias[n]");
    for (Reg co : coloff) {
      Reg off = co;
      if (osize == 2) {
        off = k_.vgpr("bias_bytes");
        k_.v_lshlrev_b32(off, 1, co);
      }
      Reg v = k_.vgpr("bias");
      k_.buffer_load_dword(v, off, bias_rsrc_, 0, offen);
      bias.push_back(v);
    }
    k_.s_waitcnt(vmcnt(0));
    return bias;
  }

  // fp32 `v` stored in the output type: fp32, bf16 RNE (store_fp32_as), or f16 RNE (v_cvt_f16_f32
  // under the kernel's default mode: round to nearest even, f16 denormals kept, as clang's (_Float16)x).
  void store_output(Reg v, Reg off, Reg c7fff) {
    if (s_.output != GemmOutput::f16) return store_fp32_as(k_, s_.output == GemmOutput::bf16, v, off, c_rsrc_, c7fff);
    Reg h = k_.vgpr("f16_value");
    k_.v_cvt_f16_f32(h, v);
    k_.buffer_store_short(h, off, c_rsrc_, 0, offen);
  }

  // Stream-K (GemmConfig::stream_k; plan and fix-up in gemm_split_k.hpp): workgroup w walks MAC
  // iterations [w * P, min((w + 1) * P, tiles * KT)), iteration i = K tile i % KT of tile i / KT
  // (M fastest), one segment (one tile's consecutive K tiles) per trip of a dynamic loop: the tile's
  // loads, LDS bases and zeroed accumulators, the 1- or 2-stage main loop over the segment's K tiles, then
  // the epilogue into C when the segment is the whole tile, else the raw accumulators into workspace
  // slot 2w (the workgroup's first segment) or 2w + 1 (its last), tile-local row-major. A barrier
  // closes each segment: the next one's first LDS writes wait for every wave's last fragment reads.
  void emit_stream_k() {
    lds_base_ = begin_tiled_kernel(p_.threads, p_.lds_bytes);
    const ElemType in = p_.esize == 1 ? ElemType::fp8 : s_.dtype == GemmDType::f16 ? ElemType::f16 : ElemType::bf16;
    const ElemType out = s_.output == GemmOutput::f32 ? ElemType::f32
                         : s_.output == GemmOutput::f16 ? ElemType::f16
                                                        : ElemType::bf16;
    a_ptr_ = k_.load_arg(k_.arg_ptr("a", in, true));
    b_ptr_ = k_.load_arg(k_.arg_ptr("b", in, true));
    Reg c = k_.load_arg(k_.arg_ptr("c", out, false));
    Reg ws = k_.load_arg(k_.arg_ptr("workspace", ElemType::f32, false));
    Reg bias;  // whole tiles go through the epilogue here, with the bias (a fifth argument)
    if (s_.bias != GemmBias::none) bias = k_.load_arg(k_.arg_ptr("bias", ElemType::f32, true));
    tid_ = k_.workitem_id(0);
    Reg wg = k_.workgroup_id(0);
    k_.s_waitcnt(lgkmcnt(0));
    a_rsrc_ = rsrc(a_ptr_, p_.a_bytes(), "a_rsrc");
    b_rsrc_ = rsrc(b_ptr_, p_.b_bytes(), "b_rsrc");
    c_rsrc_ = rsrc(c, p_.c_bytes(), "c_rsrc");
    if (bias.valid()) bias_rsrc_ = rsrc(bias, p_.bias_bytes(), "bias_rsrc");
    const WaveGrid w = wave_grid(tid_, c_.waves_m);
    wave_ = w.wave;
    wm_ = w.wm;
    wn_ = w.wn;
    lane_ = w.lane;
    oob();  // defined before the loop, whose branches use it
    const uint32_t KT = uint32_t(p_.k_tiles);
    Reg begin = smul_i32(wg, uint32_t(p_.sk_per), "sk_begin");
    Reg end = k_.sgpr("sk_end");
    k_.s_add_u32(end, begin, sconst(uint32_t(p_.sk_per), "sk_per"));
    k_.s_min_u32(end, end, sconst(uint32_t(p_.sk_iterations), "sk_iterations"));
    Reg it = k_.sgpr("sk_iter");
    k_.s_mov_b32(it, begin);
    Reg zero = k_.sgpr("zero");
    k_.s_mov_b32(zero, 0);
    k_.do_while_scc(
        [&] {
          k_.comment("stream-K segment");
          Reg t = sdiv(it, KT, "sk_tile");
          Reg kb = smod(it, t, KT, "sk_k_tile");
          Reg cnt = k_.sgpr("sk_count");
          k_.s_sub_u32(cnt, sconst(KT, "k_tiles"), kb);
          Reg rest = k_.sgpr("sk_rest");
          k_.s_sub_u32(rest, end, it);
          k_.s_min_u32(cnt, cnt, rest);
          Reg tn = sdiv(t, uint32_t(p_.tiles_m), "sk_tile_n");
          Reg tm = smod(t, tn, uint32_t(p_.tiles_m), "sk_tile_m");
          m0_ = smul(tm, uint32_t(c_.tile_m), "m0");
          n0_ = smul(tn, uint32_t(c_.tile_n), "n0");
          sk_k_first_ = smul(kb, uint32_t(c_.tile_k), "sk_k_first");
          sk_k_count_ = cnt;
          load_setup();
          lds_setup();
          acc_ = zero_accumulators(p_.blocks_m, p_.blocks_n, p_.mfma.acc_regs());
          main_loop();
          k_.if_scc([&] { k_.s_cmp_eq_u32(cnt, sconst(KT, "k_tiles")); }, [&] { epilogue(); },
                    [&] {
                      k_.comment("stream-K: partial tile to the workspace");
                      Reg slot = k_.sgpr("sk_slot");
                      k_.s_lshl_b32(slot, wg, 1);
                      k_.s_cmp_lg_u32(it, begin);
                      k_.s_addc_u32(slot, slot, 0);  // + 1 unless this is the workgroup's first segment
                      Reg ptr = sptr_add(ws, smul_i32(slot, uint32_t(p_.sk_slot_bytes()), "sk_slot_bytes"), "sk_slot_ptr");
                      const WaveOrigin o = wave_origin(zero, zero, wm_, wn_, p_.wave_m, p_.wave_n);
                      store_accumulators(acc_, o, accumulator_lane(lane_, p_.mfma.m), p_.blocks_m, p_.blocks_n,
                                         p_.mfma.m, p_.mfma.acc_regs(), false, uint32_t(c_.tile_m),
                                         uint32_t(c_.tile_n), rsrc(ptr, p_.sk_slot_bytes(), "sk_slot_rsrc"));
                    });
          k_.s_barrier();
          k_.s_add_u32(it, it, cnt);
        },
        [&] { k_.s_cmp_lt_u32(it, end); });
  }

  const GemmPlan& p_;
  const GemmShape& s_;
  const GemmConfig& c_;
  Reg sk_k_first_, sk_k_count_;  // stream-K: the segment's first K element and K tiles (SGPRs)
  uint32_t lds_base_ = 0;
  Reg tid_, a_rsrc_, b_rsrc_, c_rsrc_, bias_rsrc_, a_ptr_, b_ptr_, dma_base_, dma_tog_;
  std::vector<Reg> ra_parts_, rb_parts_, ra_part_togs_, rb_part_togs_;  // DMA: read bases per k-step
  std::vector<std::vector<Reg>> ra_stage_, rb_stage_;                     // DMA, 3-4 stages: per stage
  Reg ch_, row0_, nn_cb_, nn_kr0_, ta_cb_, ta_kr0_;
  std::vector<Reg> a_off_, b_off_, stage_a_, stage_b_;
  Reg w_a_, w_b_, ra_, rb_, w_a_tog_, w_b_tog_, ra_tog_, rb_tog_;
  Reg w_a_hi_, w_b_hi_, w_a_hi_tog_, w_b_hi_tog_;  // lds_xor: the second 8-byte unit's write bases
  Reg kstage_;  // register-staged read-ahead: element offset of the last tile loaded
  RegArray acc_;
};

}  // namespace

BuildResult build_gemm(const GemmPlan& p, const BuildOptions& opts) {
  Kernel k(fmt::format("gemm_{}_{}", gemm_dtype_name(p.shape.dtype), gemm_layout_name(p.shape.layout)), p.arch);
  GemmGenerator(k, p).emit();
  const std::string what = fmt::format("gemm {} {}", p.shape.str(), p.cfg.str());
  const bool scheduled_waits = p.cfg.lds_dma && (p.cfg.read_ahead || p.cfg.pingpong);
  BuildResult r = scheduled_waits ? build_with_scheduled_waits(k, opts, what) : k.build(opts);
  require_workgroup_fits(r, what,
                         "use fewer MFMA blocks per wave (a smaller tile or more waves), or dma with read_ahead (fewer registers)");
  return r;
}

}  // namespace cdnajit::codegen
