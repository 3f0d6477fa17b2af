// The pieces the MFMA GEMM-shaped generators (gemm, gemm_mx, the implicit-GEMM conv3d) emit
// alike: accumulators, where a wave's and a lane's outputs sit, and the row-major output offsets.
// Header-only, like DslEmitter: each generator derives its emitter class from MfmaGemmEmitter.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "codegen/dsl_emitter.hpp"

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
};

}  // namespace cdnajit::codegen
