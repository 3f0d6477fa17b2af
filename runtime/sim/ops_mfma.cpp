// MFMA (matrix fused multiply-add) and accumulation-register moves.
//
// Lane layouts (AMD CDNA3/CDNA4 ISA, "dense matrix" section; also AMD's
// matrix instruction calculator), for a wave64 MxNxK op with A: MxK, B: KxN:
//   A: lane l, element j of the lane's packed K-slice -> A[l % M][(l / M) * kpl + j]
//   B: lane l, element j                              -> B[(l / N) * kpl + j][l % N]
//   C/D (M=N=16): lane l, register r -> D[4 * (l / 16) + r][l % 16]
//   C/D (M=N=32): lane l, register r -> D[8 * (r / 4) + 4 * (l / 32) + r % 4][l % 32]
// where kpl = K / (64 / M) elements per lane.
// Accumulation: every product of two 16-bit values is exact in f64; the simulator
// sums C and all K products of an output in f64 in increasing k and rounds once
// to f32. (Hardware's internal order/precision is not observable here.)
#include "runtime/sim/fp.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

using U = isa::Unit;

template <int M, int K, bool BF>
void mfma(Wave& w, const Op& op) {
  if (op.cbsz || op.abid || op.blgp) fail(w, op, "MFMA with cbsz/abid/blgp broadcast is not implemented by the simulator");
  constexpr int N = M;
  constexpr int kpl = K / (64 / M);
  constexpr int nreg = M * N / 64;
  static_assert(nreg == 4 || nreg == 16);
  float A[M][K], B[K][N];
  for (int l = 0; l < 64; ++l)
    for (int j = 0; j < kpl; ++j) {
      uint32_t a = lane_src(w, op.s[0], l, j / 2), b = lane_src(w, op.s[1], l, j / 2);
      uint16_t ah = uint16_t(j & 1 ? a >> 16 : a), bh = uint16_t(j & 1 ? b >> 16 : b);
      float fa = BF ? f32_of(bf16_to_f32(ah)) : f16_to_f32(ah);
      float fb = BF ? f32_of(bf16_to_f32(bh)) : f16_to_f32(bh);
      A[l % M][(l / M) * kpl + j] = fa;
      B[(l / N) * kpl + j][l % N] = fb;
    }
  uint32_t out[nreg][64];
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < nreg; ++r) {
      int i = M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4;
      int j = l % N;
      double acc = f32_of(lane_src(w, op.s[2], l, r));
      for (int k = 0; k < K; ++k) acc += double(A[i][k]) * double(B[k][j]);
      out[r][l] = bits_of(float(acc));
    }
  // MFMA ignores EXEC on gfx9 (the whole wave participates).
  for (int r = 0; r < nreg; ++r) std::memcpy(w.vr(uint16_t(op.d[0].idx + r)), out[r], 256);
  w.lane_ops += 64;
}

void accvgpr_move(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) d[l] = lane_src(w, op.s[0], l);
}

}  // namespace

void register_mfma(Registry& r) {
  r.add("v_mfma_f32_16x16x16_f16", &mfma<16, 16, false>, U::MFMA, FType::F16);
  r.add("v_mfma_f32_16x16x16f16", &mfma<16, 16, false>, U::MFMA, FType::F16);
  r.add("v_mfma_f32_32x32x8_f16", &mfma<32, 8, false>, U::MFMA, FType::F16);
  r.add("v_mfma_f32_32x32x8f16", &mfma<32, 8, false>, U::MFMA, FType::F16);
  r.add("v_mfma_f32_16x16x16_bf16", &mfma<16, 16, true>, U::MFMA, FType::BF16);
  r.add("v_mfma_f32_16x16x16bf16_1k", &mfma<16, 16, true>, U::MFMA, FType::BF16);
  r.add("v_mfma_f32_32x32x8_bf16", &mfma<32, 8, true>, U::MFMA, FType::BF16);
  r.add("v_mfma_f32_32x32x8bf16_1k", &mfma<32, 8, true>, U::MFMA, FType::BF16);
  r.add("v_mfma_f32_16x16x32_bf16", &mfma<16, 32, true>, U::MFMA, FType::BF16);
  r.add("v_mfma_f32_16x16x32_f16", &mfma<16, 32, false>, U::MFMA, FType::F16);
  r.add("v_mfma_f32_32x32x16_bf16", &mfma<32, 16, true>, U::MFMA, FType::BF16);
  r.add("v_mfma_f32_32x32x16_f16", &mfma<32, 16, false>, U::MFMA, FType::F16);
  r.add("v_accvgpr_read_b32", &accvgpr_move, U::VALU);
  r.add("v_accvgpr_write_b32", &accvgpr_move, U::VALU);
  r.add("v_accvgpr_mov_b32", &accvgpr_move, U::VALU);
}

}  // namespace cdnajit::sim
