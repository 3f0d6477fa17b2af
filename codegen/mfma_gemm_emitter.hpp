// The pieces the MFMA GEMM-shaped generators (gemm, gemm_mx, the implicit-GEMM conv3d) emit
// alike: accumulators, where a wave's and a lane's outputs sit, the row-major output offsets, the
// LDS fragment read addresses (padded rows, or the swizzled rows of the LDS DMA) and the DMA itself.
// Header-only, like DslEmitter: each generator derives its emitter class from MfmaGemmEmitter.
#pragma once
#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

#include "codegen/dsl_emitter.hpp"
#include "codegen/mfma_tile.hpp"

namespace cdnajit::codegen {

// Marks the invalid part of a two-part output offset (row part + column part): valid parts stay
// below 2^30 bytes, so a sum with one marked part is at least 2^30 (without wrapping, and 2^31 with
// a kOob row): past num_records, the store is dropped with no compare.
inline constexpr int64_t kInvalidPart = 0x40000000;

class MfmaGemmEmitter : public DslEmitter {
 public:
  using DslEmitter::DslEmitter;

  // blocks_m x blocks_n MFMA accumulator blocks of `regs` AGPRs each, set to zero.
  RegArray zero_accumulators(int blocks_m, int blocks_n, int regs) {
    k_.comment("accumulators = 0");
    RegArray acc = k_.agprs("acc", {blocks_m, blocks_n}, regs);
    for (int i = 0; i < blocks_m; ++i)
      for (int j = 0; j < blocks_n; ++j)
        for (int r = 0; r < regs; ++r) k_.v_accvgpr_write_b32(Reg(acc.at({i, j}))[r], 0);
    return acc;
  }

  // Lane l's place in an m x m accumulator block: register r holds D[8*(r/4) + 4*(l/m) + r%4][l%m]
  // (the simulator's and AMD's matrix calculator's layout), so the lane's column is l % m and its
  // rows start at 4 * (l / m).
  struct AccumulatorLane {
    Reg col, row4;
  };
  AccumulatorLane accumulator_lane(Reg lane, int mfma_m) {
    AccumulatorLane a;
    a.col = k_.vgpr("lane_col");
    k_.v_and_b32(a.col, mfma_m - 1, lane);
    a.row4 = k_.vgpr("lq4");
    k_.v_lshrrev_b32(a.row4, std::countr_zero(unsigned(mfma_m)), lane);
    k_.v_lshlrev_b32(a.row4, 2, a.row4);
    return a;
  }

  // First output row and column of the wave's sub-tile: m0 + wm * wave_m, n0 + wn * wave_n.
  struct WaveOrigin {
    Reg m, n;
  };
  WaveOrigin wave_origin(Reg m0, Reg n0, Reg wm, Reg wn, int wave_m, int wave_n) {
    WaveOrigin o;
    o.m = k_.sgpr("m_wave");
    k_.s_add_u32(o.m, m0, smul(wm, uint32_t(wave_m), "wave_row"));
    o.n = k_.sgpr("n_wave");
    k_.s_add_u32(o.n, n0, smul(wn, uint32_t(wave_n), "wave_col"));
    return o;
  }

  // Row-major output, `elem_bytes` per element: byte offset of the lane's column in each of
  // `blocks` blocks (column n_wave + bj * m + l % m), kInvalidPart from column `columns` on.
  std::vector<Reg> output_column_offsets(Reg n_wave, Reg lane_col, int blocks, int mfma_m, int elem_bytes,
                                         uint32_t columns) {
    Reg invalid = k_.vgpr("invalid_col");
    k_.v_mov_b32(invalid, kInvalidPart);
    std::vector<Reg> offsets;
    for (int bj = 0; bj < blocks; ++bj) {
      Reg col = vadd_sv(n_wave, lane_col, uint32_t(bj * mfma_m), "col");
      Reg co = k_.vgpr("col_bytes");
      k_.v_lshlrev_b32(co, std::countr_zero(unsigned(elem_bytes)), col);
      k_.v_cmp_gt_u32(vcc, sconst(columns, "N"), col);
      k_.v_cndmask_b32(co, invalid, co, vcc);
      offsets.push_back(co);
    }
    return offsets;
  }
  // Row-major output, rows `row_bytes` apart: byte offset of row m_wave + row4 + row_add, kOob from
  // row `rows` on.
  Reg output_row_offset(Reg m_wave, Reg row4, uint32_t row_add, uint32_t row_bytes, uint32_t rows) {
    Reg row = vadd_sv(m_wave, row4, row_add, "row");
    Reg ro = vmul(row, row_bytes, "row_bytes");
    k_.v_cmp_gt_u32(vcc, sconst(rows, "M"), row);
    k_.v_cndmask_b32(ro, oob(), ro, vcc);
    return ro;
  }

  // Hands a K tile over to every wave of the workgroup: waits until at most `loads_in_flight`
  // global loads remain (VMEM loads retire in order, so the tile's own have landed; vmcnt counts
  // the LDS-DMA writes too), writes the staging registers to LDS (`write_lds`; none on the DMA
  // path) and waits for those writes, then the barrier.
  void publish_tile(int loads_in_flight, const std::function<void()>& write_lds = {}) {
    k_.s_waitcnt(vmcnt(loads_in_flight));
    if (write_lds) {
      write_lds();
      k_.s_waitcnt(lgkmcnt(0));
    }
    k_.s_barrier();
  }

  // ---- Register-staged loads (padded LDS rows): thread t holds 16-byte chunk `chunk` of rows
  // `row` + i * (threads / chunks per row).

  // LDS byte address of the thread's first chunk: row * row_bytes + chunk * 16 past lds_base.
  Reg chunk_write_base(Reg chunk, Reg row, int row_bytes, uint32_t lds_base) {
    Reg w = k_.vgpr("lds_w");
    k_.v_lshl_add_u32(w, chunk, 4, vmul(row, uint32_t(row_bytes), "row_bytes"));
    if (lds_base) k_.v_add_u32(w, int64_t(lds_base), w);
    return w;
  }
  // One 16-byte chunk to LDS at base + byte: one ds_write_b128 where rows are 16-byte aligned
  // (16-byte padding), else two ds_write_b64 (8-byte padding).
  void write_lds_chunk(Reg base, Reg data, int byte, bool rows_16_aligned) {
    if (rows_16_aligned) {
      k_.ds_write_b128(base, data, Offset(byte));
    } else {
      k_.ds_write_b64(base, data.slice(0, 2), Offset(byte));
      k_.ds_write_b64(base, data.slice(2, 2), Offset(byte + 8));
    }
  }

  // LDS rows of the wave's first A and B fragments: wm * wave_m, and tile_m + wn * wave_n (the B
  // tile follows the A tile's tile_m rows).
  struct WaveLdsRows {
    Reg a, b;
  };
  WaveLdsRows wave_lds_rows(Reg wm, Reg wn, int wave_m, int wave_n, int tile_m) {
    WaveLdsRows r;
    r.a = smul(wm, uint32_t(wave_m), "wave_row");
    r.b = smul(wn, uint32_t(wave_n), "wave_col");
    k_.s_add_u32(r.b, r.b, int64_t(tile_m));
    return r;
  }
  // LDS byte addresses of the lane's first MFMA fragment in the padded layout (mfma_tile.hpp):
  // A rows wm*wave_m + l%m, B rows tile_m + wn*wave_n + l%m, at K byte (l/m)*a_bytes, rows
  // `row_bytes` apart, the LDS region starting at `lds_base`.
  struct FragmentBases {
    Reg a, b;
  };
  FragmentBases fragment_read_bases(Reg lane, Reg wm, Reg wn, int mfma_m, int a_bytes, int wave_m, int wave_n,
                                    int tile_m, uint32_t row_bytes, uint32_t lds_base) {
    Reg lrow = k_.vgpr("lane_row");
    k_.v_and_b32(lrow, mfma_m - 1, lane);
    Reg lq = k_.vgpr("lq");
    k_.v_lshrrev_b32(lq, std::countr_zero(unsigned(mfma_m)), lane);
    Reg colb = vmul(lq, uint32_t(a_bytes), "frag_col");
    const WaveLdsRows rows = wave_lds_rows(wm, wn, wave_m, wave_n, tile_m);
    auto base = [&](Reg srow, const char* name) {
      Reg r = k_.vgpr("frag_row");
      k_.v_add_u32(r, srow, lrow);
      Reg b = k_.vgpr(name);
      k_.v_mad_u32_u24(b, r, sconst(row_bytes), colb);
      if (lds_base) k_.v_add_u32(b, int64_t(lds_base), b);
      return b;
    };
    FragmentBases f;
    f.a = base(rows.a, "lds_ra");
    f.b = base(rows.b, "lds_rb");
    return f;
  }
  // base ^ (base + stage_bytes): xor-ing a base with it moves the base between its two LDS stages.
  Reg stage_toggle(Reg base, uint32_t stage_bytes, const char* name) {
    Reg t = k_.vgpr(name);
    k_.v_add_u32(t, int64_t(stage_bytes), base);
    k_.v_xor_b32(t, t, base);
    return t;
  }

  // The stage_toggle of each base, and the xor that moves every base to the other stage.
  std::vector<Reg> stage_toggles(const std::vector<Reg>& bases, uint32_t stage_bytes, const char* name) {
    std::vector<Reg> t;
    for (Reg b : bases) t.push_back(stage_toggle(b, stage_bytes, name));
    return t;
  }
  void toggle_stages(const std::vector<Reg>& bases, const std::vector<Reg>& toggles) {
    for (size_t i = 0; i < bases.size(); ++i) k_.v_xor_b32(bases[i], bases[i], toggles[i]);
  }

  // ---- LDS DMA (global_load_lds_dwordx4, gfx950): one instruction writes the wave's 64 lanes'
  // 16-byte chunks to 1024 consecutive LDS bytes from M0, so rows cannot be padded; logical chunk
  // c of LDS row r sits at slot c ^ chunk_swizzle(r) instead (gemm.cpp, "LDS layout").

  // The wave's LDS DMA base in stage 0 (lds_base + wave * 1024) and, with two stages, the
  // stage_toggle that moves it to the other stage by xor.
  struct DmaWaveBase {
    Reg base, toggle;
  };
  DmaWaveBase dma_wave_base(Reg wave, uint32_t lds_base, bool two_stages, uint32_t stage_bytes) {
    DmaWaveBase d;
    d.base = smul(wave, 64 * 16, "dma_base");
    if (lds_base) k_.s_add_u32(d.base, d.base, int64_t(lds_base));
    if (two_stages) {
      d.toggle = k_.sgpr("dma_toggle");
      k_.s_add_u32(d.toggle, d.base, int64_t(stage_bytes));
      k_.s_xor_b32(d.toggle, d.toggle, d.base);
    }
    return d;
  }
  // One wave-wide DMA: lane l's 16 bytes at `ptr` + off land at LDS byte M0 + l * 16, M0 = base +
  // byte. Global loads have no range check: the caller keeps every lane's offset inside memory.
  void dma_chunk(Reg base, uint32_t byte, Reg off, Reg ptr) {
    Reg m = k_.sgpr("m0_value");
    k_.s_add_u32(m, base, int64_t(byte));
    k_.s_mov_b32(m0, m);
    k_.global_load_lds_dwordx4(off, ptr);
  }
  // (row / swizzle_rows) % chunks_per_row: the xor between a logical chunk and its slot in `row`.
  Reg chunk_swizzle(Reg row, int swizzle_rows, int chunks_per_row, const char* name) {
    Reg x = k_.vgpr(name);
    k_.v_lshrrev_b32(x, int(std::countr_zero(unsigned(swizzle_rows))), row);
    k_.v_and_b32(x, chunks_per_row - 1, x);
    return x;
  }
  // Read addresses of the lane's fragment in rows first_row + lane_row, one per (k-step, 16-byte
  // part) because the swizzle is an xor (index ks * parts + part): logical chunk
  // lane_kgroup * parts + ks * (chunks per k-step) + part, xor-ed with `swizzle` (none if invalid).
  std::vector<Reg> dma_fragment_bases(const MfmaTileLayout& t, uint32_t lds_base, Reg first_row, Reg lane_row,
                                      Reg lane_kgroup, Reg swizzle, const char* name) {
    const int parts = t.mfma.a_bytes / 16, step_chunks = t.mfma.k * t.esize / 16;
    Reg r = k_.vgpr("frag_row");
    k_.v_add_u32(r, first_row, lane_row);
    Reg rb = vmul(r, uint32_t(t.lds_row_bytes), "frag_row_bytes");
    if (lds_base) k_.v_add_u32(rb, int64_t(lds_base), rb);
    std::vector<Reg> out;
    for (int ks = 0; ks < t.k_steps; ++ks)
      for (int j = 0; j < parts; ++j) {
        Reg c = vmul(lane_kgroup, uint32_t(parts), "frag_chunk");
        if (ks * step_chunks + j) k_.v_add_u32(c, ks * step_chunks + j, c);
        if (swizzle.valid()) k_.v_xor_b32(c, c, swizzle);
        Reg b = k_.vgpr(name);
        k_.v_lshl_add_u32(b, c, 4, rb);
        out.push_back(b);
      }
    return out;
  }
};

}  // namespace cdnajit::codegen
