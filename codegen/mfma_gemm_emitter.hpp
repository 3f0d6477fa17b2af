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
#include "codegen/gemm_config.hpp"  // kDispatchXcds
#include "codegen/mfma_tile.hpp"

namespace cdnajit::codegen {

// Marks the invalid part of a two-part output offset (row part + column part): valid parts stay
// below 2^30 bytes, so a sum with one marked part is at least 2^30 (without wrapping, and 2^31 with
// a kOob row): past num_records, the store is dropped with no compare.
inline constexpr int64_t kInvalidPart = 0x40000000;

class MfmaGemmEmitter : public DslEmitter {
 protected:
  // The workgroup's output tile origin and the place of this thread's wave in the tile (place_tile,
  // or the generator's own coordinates).
  Reg m0_, n0_, wave_, wm_, wn_, lane_;

 public:
  using DslEmitter::DslEmitter;

  // The output tile of this workgroup: (x, y) of a 2-D grid, or the grouped order of a 1-D grid
  // (GemmConfig::group_m; `xcd_remap` when kDispatchXcds divides the tile count; every id maps to a
  // distinct tile, the map is a bijection on 0..tiles-1); `linear`, group_m > 0: that id, not the workgroup's.
  // The first steps of every tiled MFMA kernel: its workgroup size and the LDS of its stages
  // (16-byte aligned); returns the stages' LDS base.
  uint32_t begin_tiled_kernel(int threads, uint32_t lds_bytes) {
    k_.set_workgroup_size(uint32_t(threads));
    return k_.lds_alloc("stages", lds_bytes, 16);
  }

  // The workgroup's output tile origin (m0_, n0_ = tile coordinates x tile size, tile_coordinates)
  // and the place of thread `tid`'s wave in it (wave_grid).
  void place_tile(int group_m, int tiles_m, int tiles_n, bool xcd_remap, int tile_m, int tile_n, Reg tid, int waves_m) {
    Reg tm, tn;
    tile_coordinates(group_m, tiles_m, tiles_n, xcd_remap, tm, tn);
    m0_ = smul(tm, uint32_t(tile_m), "m0");
    n0_ = smul(tn, uint32_t(tile_n), "n0");
    const WaveGrid w = wave_grid(tid, waves_m);
    wave_ = w.wave;
    wm_ = w.wm;
    wn_ = w.wn;
    lane_ = w.lane;
  }

  void tile_coordinates(int group_m, int tiles_m, int tiles_n, bool xcd_remap, Reg& tm, Reg& tn, Reg linear = Reg{}) {
    if (group_m == 0) {
      tm = k_.workgroup_id(0);
      tn = k_.workgroup_id(1);
      return;
    }
    const uint32_t G = uint32_t(group_m), TMs = uint32_t(tiles_m), TNs = uint32_t(tiles_n);
    Reg id = linear.valid() ? linear : k_.workgroup_id(0);
    if (xcd_remap) {  // id -> (id mod X) * (tiles / X) + id / X: each XCD's ids become contiguous
      const uint32_t X = uint32_t(kDispatchXcds);
      Reg x = k_.sgpr("xcd");
      k_.s_and_b32(x, int64_t(X - 1), id);
      Reg r = sdiv(id, X, "xcd_rank");
      Reg l = k_.sgpr("wg_linear");
      k_.s_mul_i32(l, x, sconst(TMs * TNs / X, "xcd_share"));
      k_.s_add_u32(l, l, r);
      id = l;
    }
    const uint32_t span = G * TNs;  // ids per group of G tile rows
    Reg group = sdiv(id, span, "group");
    Reg first = smul(group, G, "group_first_m");
    Reg r = k_.sgpr("group_rank");
    k_.s_sub_u32(r, id, smul(group, span, "group_start"));
    // rows in this group: G, or tiles_m mod G in the last group
    const uint32_t last_rows = TMs % G;
    auto split = [&](uint32_t rows, Reg& m, Reg& n) {
      n = sdiv(r, rows, "group_n");
      m = k_.sgpr("group_m_off");
      k_.s_sub_u32(m, r, smul(n, rows, "group_n_rows"));
    };
    Reg m, n;
    split(G, m, n);
    if (last_rows != 0) {
      Reg m2, n2;
      split(last_rows, m2, n2);
      k_.s_cmp_eq_u32(group, sconst(TMs / G, "last_group"));
      k_.s_cselect_b32(m, m2, m);
      k_.s_cselect_b32(n, n2, n);
    }
    tm = k_.sgpr("tile_m_index");
    k_.s_add_u32(tm, first, m);
    tn = n;
  }

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

  // Stores blocks_m x blocks_n accumulator blocks of mfma_m x mfma_m (lane l: rows from row4 =
  // 4 * (l / m), column l % m, accumulator_lane) of the wave whose sub-tile starts at `origin`, as
  // fp32 or (`bf16`, gfx950) bf16 RNE into the rows x columns row-major output behind `rsrc`;
  // rows past M are marked kOob and columns past N kInvalidPart, so those stores are dropped.
  void store_accumulators(const RegArray& acc, const WaveOrigin& origin, const AccumulatorLane& lane, int blocks_m,
                          int blocks_n, int mfma_m, int regs, bool bf16, uint32_t rows, uint32_t columns, Reg rsrc) {
    const int osize = bf16 ? 2 : 4;
    const std::vector<Reg> coloff = output_column_offsets(origin.n, lane.col, blocks_n, mfma_m, osize, columns);
    for (int bi = 0; bi < blocks_m; ++bi)
      for (int r = 0; r < regs; ++r) {
        Reg ro = output_row_offset(origin.m, lane.row4, uint32_t(bi * mfma_m + 8 * (r / 4) + r % 4),
                                   columns * uint32_t(osize), rows);
        for (int bj = 0; bj < blocks_n; ++bj) {
          Reg off = k_.vgpr("out_bytes");
          k_.v_add_u32(off, ro, coloff[size_t(bj)]);
          Reg v = k_.vgpr("out_value");
          k_.v_accvgpr_read_b32(v, Reg(acc.at({bi, bj}))[r]);
          store_fp32_as(k_, bf16, v, off, rsrc, Reg{});  // gfx950 only: no c7fff
        }
      }
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

  // LDS byte address of the thread's first chunk: row * row_bytes + chunk * 16 past lds_base
  // (`unit_shift` 3: `chunk` counts 8-byte units).
  Reg chunk_write_base(Reg chunk, Reg row, int row_bytes, uint32_t lds_base, int unit_shift = 4) {
    Reg w = k_.vgpr("lds_w");
    k_.v_lshl_add_u32(w, chunk, unit_shift, vmul(row, uint32_t(row_bytes), "row_bytes"));
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
  // One wave-wide DMA: lane l's 16 bytes (`lane_bytes` 4: one dword) at `ptr` + off land at LDS
  // byte M0 + l * lane_bytes, M0 = base + byte. Global loads have no range check: the caller keeps
  // every lane's offset inside memory.
  void dma_chunk(Reg base, uint32_t byte, Reg off, Reg ptr, int lane_bytes = 16) {
    Reg m = k_.sgpr("m0_value");
    k_.s_add_u32(m, base, int64_t(byte));
    k_.s_mov_b32(m0, m);
    if (lane_bytes == 4) k_.global_load_lds_dword(off, ptr);
    else k_.global_load_lds_dwordx4(off, ptr);
  }
  // The read-ahead's half-major rows (read_ahead_schedule.hpp): row `q` of half `half` of a tile
  // whose waves hold `wave_rows` rows each is operand row w * wave_rows + half * wave_rows / 2 + o,
  // w = q / (wave_rows / 2), o = q % (wave_rows / 2) (wave_rows a power of two); returns first +
  // that row. `q` is overwritten.
  Reg half_major_row(Reg first, Reg q, int half, int wave_rows) {
    const int ws = wave_rows / 2;
    Reg w = k_.vgpr("half_wave");
    k_.v_lshrrev_b32(w, std::countr_zero(unsigned(ws)), q);
    k_.v_and_b32(q, ws - 1, q);
    k_.v_lshl_add_u32(q, w, std::countr_zero(unsigned(wave_rows)), q);
    return vadd_sv(first, q, uint32_t(half * ws), "row");
  }
  // Byte offsets (at K tile 0) of a thread's DMA chunks: chunk i of a tile of chunks * step rows
  // goes to LDS row row0 + i * step and holds logical 16-byte chunk `logical_chunk` of operand row
  // first + that row (`half_major`: first + the half-major row of it); rows past `rows` are clamped
  // to the last (they only feed outputs the epilogue drops), rows `row_bytes` apart.
  std::vector<Reg> dma_row_offsets(Reg first, Reg row0, Reg logical_chunk, int chunks, int step, int wave_rows,
                                   uint32_t rows, uint32_t row_bytes, bool half_major) {
    const int tile = chunks * step;
    std::vector<Reg> out;
    for (int i = 0; i < chunks; ++i) {
      Reg r;
      if (half_major) {
        // LDS row i * step + row0 is in half h = i * step / (tile / 2) (step divides tile / 2)
        const int hs = tile / 2, h = i * step / hs;
        Reg q = k_.vgpr("half_row");
        k_.v_add_u32(q, i * step % hs, row0);
        r = half_major_row(first, q, h, wave_rows);
      } else {
        r = vadd_sv(first, row0, uint32_t(i * step), "row");
      }
      k_.v_min_u32(r, sconst(rows - 1, "last_row"), r);
      Reg off = vmul(r, row_bytes, "row_bytes");
      k_.v_lshl_add_u32(off, logical_chunk, 4, off);
      out.push_back(off);
    }
    return out;
  }
  // (row / swizzle_rows) % chunks_per_row: the xor between a logical chunk and its slot in `row`.
  Reg chunk_swizzle(Reg row, int swizzle_rows, int chunks_per_row, const char* name) {
    Reg x = k_.vgpr(name);
    k_.v_lshrrev_b32(x, int(std::countr_zero(unsigned(swizzle_rows))), row);
    k_.v_and_b32(x, chunks_per_row - 1, x);
    return x;
  }
  // The xor for fragments of `fragment_chunks` 16-byte chunks. One-chunk fragments: chunk_swizzle.
  // Two-chunk fragments in 8-chunk rows (fp8 / MXFP8: lane l reads chunks 2q, 2q + 1, q = l / 16):
  // with chunk_swizzle's x, the pass of a ds_read_b128 that holds rows r and lanes of q and q + 1
  // (chunks c and c + 2) maps rows r and r ^ 2 to the same bank group, a 2-way conflict (8 passes
  // instead of 4 by the model's bank model). x' = ((x >> 1) & 1) | (x & 4) gives the four even rows
  // (and the four odd ones) of 8 the xors 0, 1, 4, 5, whose pairs {x', x' ^ 2} cover all 8 slots:
  // conflict free (tests/codegen/test_gemm.cpp and test_gemm_mx.cpp check the passes).
  Reg fragment_chunk_swizzle(Reg row, int swizzle_rows, int chunks_per_row, int fragment_chunks, const char* name) {
    Reg x = chunk_swizzle(row, swizzle_rows, chunks_per_row, name);
    if (fragment_chunks != 2 || chunks_per_row != 8) return x;
    Reg t = k_.vgpr("swizzle_pair");
    k_.v_bfe_u32(t, x, 1, 1);
    k_.v_and_b32(x, 4, x);
    k_.v_or_b32(x, x, t);
    return x;
  }
  // Read addresses of the lane's fragment in rows first_row + lane_row, one per (k-step, 16-byte
  // part) because the swizzle is an xor (index ks * parts + part): logical chunk
  // lane_kgroup * parts + ks * (chunks per k-step) + part, xor-ed with `swizzle` (none if invalid).
  std::vector<Reg> dma_fragment_bases(const MfmaTileLayout& t, uint32_t lds_base, Reg first_row, Reg lane_row,
                                      Reg lane_kgroup, Reg swizzle, const char* name) {
    return dma_fragment_bases(t.mfma.a_bytes / 16, t.mfma.k * t.esize / 16, t.k_steps, t.lds_row_bytes, lds_base,
                              first_row, lane_row, lane_kgroup, swizzle, name);
  }
  // The same for fragments of `parts` 16-byte chunks, k-steps `step_chunks` chunks apart
  // (`unit_shift` 3: 8-byte units instead of chunks, the register-staged XOR layout).
  std::vector<Reg> dma_fragment_bases(int parts, int step_chunks, int k_steps, int lds_row_bytes, uint32_t lds_base,
                                      Reg first_row, Reg lane_row, Reg lane_kgroup, Reg swizzle, const char* name,
                                      int unit_shift = 4) {
    Reg r = k_.vgpr("frag_row");
    k_.v_add_u32(r, first_row, lane_row);
    Reg rb = vmul(r, uint32_t(lds_row_bytes), "frag_row_bytes");
    if (lds_base) k_.v_add_u32(rb, int64_t(lds_base), rb);
    std::vector<Reg> out;
    for (int ks = 0; ks < k_steps; ++ks)
      for (int j = 0; j < parts; ++j) {
        Reg c = vmul(lane_kgroup, uint32_t(parts), "frag_chunk");
        if (ks * step_chunks + j) k_.v_add_u32(c, ks * step_chunks + j, c);
        if (swizzle.valid()) k_.v_xor_b32(c, c, swizzle);
        Reg b = k_.vgpr(name);
        k_.v_lshl_add_u32(b, c, unit_shift, rb);
        out.push_back(b);
      }
    return out;
  }
};

}  // namespace cdnajit::codegen
