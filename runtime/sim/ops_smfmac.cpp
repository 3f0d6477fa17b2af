// Sparse MFMA (v_smfmac_*): D += A * B with A 4:2 structured-sparse, on gfx942 and gfx950.
//
// Operands: vdst (C and D, accumulated in place), src0 = compressed A, src1 = dense B, src2 = a VGPR
// of compression indices. A is MxK and holds two stored values per 4 consecutive K elements; each
// stored value carries a 2-bit index naming its position in its group of 4.
//
// Layouts (AMD's matrix instruction calculator, ROCm/amd_matrix_instruction_calculator, --architecture
// cdna3 with -A / -B / --compression on every v_smfmac_*; the same rule extended to gfx950's K):
//   kpl = K / (64 / M) dense K elements per lane, cpl = kpl / 2 stored A values per lane.
//   A: lane l holds row l % M, dense columns (l / M) * kpl .. + kpl - 1; its stored value c
//      (element c of src0, packed like a dense MFMA's A) lies in the 4-group c / 2 of that range, at
//      position idx(l, c) within the group.
//   idx(l, c) = bits [2c + 1 : 2c] of the selected index set of lane l's src2: a set is 2 * cpl bits
//      wide; with CBSZ = 0, ABID picks the set, with CBSZ != 0 ABID is ignored and set 0 is used
//      (calculator README, "Example of Printing Compression Index Information for a Sparse Matrix
//      Instruction"). gfx942 16-bit: 8-bit sets, ABID 0..3; 8-bit: 16-bit sets, ABID 0..1. gfx950
//      (K doubled): 16-bit inputs use 16-bit sets (ABID 0..1), 8-bit inputs the whole dword (LLVM
//      commit "Correct gfx950 smfmac sparse index verifier", llvm-project #193541, after the CDNA4
//      ISA guide's layout tables).
//   B: lane l holds column l % N, rows (l / N) * kpl .. + kpl - 1 (the dense rule).
//   C/D: as the dense MFMA of the same M (16x16: D[4 (l / 16) + r][l % 16]; 32x32:
//      D[8 (r / 4) + 4 (l / 32) + r % 4][l % 32]).
// Arithmetic: each stored A value is multiplied with the B element its index selects, and the K / 2
// products go through the dense MFMA numerics of the same element type (mfma_numerics.hpp,
// Options::mfma_numerics) as a dot product of length K / 2 in stored order: the matrix core sees the
// compressed stream (that is how it doubles the rate). This grouping under the CDNA3 rules is a
// hypothesis (no published model of the sparse MFMAs' rounding); the Exact mode rounds the exact sum
// once and does not depend on it. Two stored values with the same index both count (no rule for it
// is published). Integer forms accumulate exactly in int32 with wrap-around. EXEC is ignored, as
// for every MFMA; BLGP does not exist for these (LLVM 22 rejects it) and is refused if present.
#include <string>

#include "runtime/sim/mfma_operands.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

template <int M, int K, Fmt FA, Fmt FB>
void smfmac(Wave& w, const Op& op) {
  constexpr int N = M, kpl = K / (64 / M), cpl = kpl / 2, KC = K / 2, nreg = M * N / 64;
  constexpr int set_bits = 2 * cpl, sets = 32 / set_bits;
  static_assert(nreg == 4 || nreg == 16);
  if (op.blgp) fail(w, op, "blgp on a sparse MFMA (v_smfmac_* has no B lane group pattern)");
  const int set = op.cbsz ? 0 : op.abid;
  if (set >= sets)
    fail(w, op, "abid " + std::to_string(op.abid) + " selects no compression index set (this sparse MFMA has " +
                    std::to_string(sets) + " set" + (sets > 1 ? "s, abid 0.." + std::to_string(sets - 1) : ", abid 0") +
                    " with cbsz 0)");
  const bool fnuz = w.L->arch == Arch::gfx942;
  // Rows of A (stored values, with the dense column each one sits at) and dense columns of B.
  static thread_local OperandVec<KC> A[M];
  static thread_local int pos[M][KC];
  static thread_local OperandVec<K> B[N];
  for (int l = 0; l < 64; ++l) {
    const uint32_t idx = uint32_t(uint64_t(lane_src(w, op.s[2], l)) >> (set * set_bits));
    mfma_gather_fragment(w, op.s[0], l, cpl, FA, fnuz, A[l % M].v + (l / M) * cpl);
    for (int c = 0; c < cpl; ++c) pos[l % M][(l / M) * cpl + c] = (l / M) * kpl + 4 * (c / 2) + int((idx >> (2 * c)) & 3);
    mfma_gather_fragment(w, op.s[1], l, kpl, FB, fnuz, B[l % N].v + (l / N) * kpl);
  }
  const MfmaFormat format{mfma_kind(FA), mfma_min_exp(FA, fnuz), mfma_min_exp(FB, fnuz)};
  const bool exact = w.L->opt.mfma_numerics == Options::MfmaNumerics::Exact;
  if (!exact && FA != Fmt::I8) {
    for (auto& x : A) x.decode(format.min_exp_a);
    for (auto& x : B) x.decode(format.min_exp_b);
  }
  uint32_t out[nreg][64];
  double bv[KC];
  MfmaTerm bt[KC];
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < nreg; ++r) {
      const int i = M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4, j = l % N;
      for (int c = 0; c < KC; ++c) { bv[c] = B[j].v[pos[i][c]]; bt[c] = B[j].t[pos[i][c]]; }
      const uint32_t acc = w.vr(uint16_t(op.d[0].idx + r))[l];  // C is the destination itself
      if (FA == Fmt::I8) {  // exact products, int32 accumulation with wrap-around
        uint32_t sum = acc;
        for (int c = 0; c < KC; ++c) sum += uint32_t(int32_t(A[i].v[c]) * int32_t(bv[c]));
        out[r][l] = sum;
        continue;
      }
      const float c0 = f32_of(acc);
      out[r][l] = bits_of(exact ? mfma_dot_exact(A[i].v, bv, KC, c0)
                                : mfma_dot_cdna3(A[i].view(), MfmaOperand{bv, bt, B[j].decoded}, KC, c0, format));
    }
  for (int r = 0; r < nreg; ++r) std::memcpy(w.vr(uint16_t(op.d[0].idx + r)), out[r], 256);
  w.lane_ops += 64;
}

}  // namespace

void register_smfmac(Registry& r) {
  using F = Fmt;
  // gfx942 and gfx950 (K as CDNA3 defines it).
  r.add(O::v_smfmac_f32_16x16x32_f16, &smfmac<16, 32, F::F16, F::F16>, FType::F16);
  r.add(O::v_smfmac_f32_32x32x16_f16, &smfmac<32, 16, F::F16, F::F16>, FType::F16);
  r.add(O::v_smfmac_f32_16x16x32_bf16, &smfmac<16, 32, F::BF16, F::BF16>, FType::BF16);
  r.add(O::v_smfmac_f32_32x32x16_bf16, &smfmac<32, 16, F::BF16, F::BF16>, FType::BF16);
  r.add(O::v_smfmac_i32_16x16x64_i8, &smfmac<16, 64, F::I8, F::I8>);
  r.add(O::v_smfmac_i32_32x32x32_i8, &smfmac<32, 32, F::I8, F::I8>);
  // FType F32 for the fp8/bf8 forms too: float instructions that fail under a non-default MODE like the f16/bf16
  // ones (ops_mfma.cpp, register_mfma).
  r.add(O::v_smfmac_f32_16x16x64_fp8_fp8, &smfmac<16, 64, F::FP8, F::FP8>, FType::F32);
  r.add(O::v_smfmac_f32_16x16x64_fp8_bf8, &smfmac<16, 64, F::FP8, F::BF8>, FType::F32);
  r.add(O::v_smfmac_f32_16x16x64_bf8_fp8, &smfmac<16, 64, F::BF8, F::FP8>, FType::F32);
  r.add(O::v_smfmac_f32_16x16x64_bf8_bf8, &smfmac<16, 64, F::BF8, F::BF8>, FType::F32);
  r.add(O::v_smfmac_f32_32x32x32_fp8_fp8, &smfmac<32, 32, F::FP8, F::FP8>, FType::F32);
  r.add(O::v_smfmac_f32_32x32x32_fp8_bf8, &smfmac<32, 32, F::FP8, F::BF8>, FType::F32);
  r.add(O::v_smfmac_f32_32x32x32_bf8_fp8, &smfmac<32, 32, F::BF8, F::FP8>, FType::F32);
  r.add(O::v_smfmac_f32_32x32x32_bf8_bf8, &smfmac<32, 32, F::BF8, F::BF8>, FType::F32);
  // gfx950 only: K doubled.
  r.add(O::v_smfmac_f32_16x16x64_f16, &smfmac<16, 64, F::F16, F::F16>, FType::F16);
  r.add(O::v_smfmac_f32_32x32x32_f16, &smfmac<32, 32, F::F16, F::F16>, FType::F16);
  r.add(O::v_smfmac_f32_16x16x64_bf16, &smfmac<16, 64, F::BF16, F::BF16>, FType::BF16);
  r.add(O::v_smfmac_f32_32x32x32_bf16, &smfmac<32, 32, F::BF16, F::BF16>, FType::BF16);
  r.add(O::v_smfmac_i32_16x16x128_i8, &smfmac<16, 128, F::I8, F::I8>);
  r.add(O::v_smfmac_i32_32x32x64_i8, &smfmac<32, 64, F::I8, F::I8>);
  r.add(O::v_smfmac_f32_16x16x128_fp8_fp8, &smfmac<16, 128, F::FP8, F::FP8>, FType::F32);
  r.add(O::v_smfmac_f32_16x16x128_fp8_bf8, &smfmac<16, 128, F::FP8, F::BF8>, FType::F32);
  r.add(O::v_smfmac_f32_16x16x128_bf8_fp8, &smfmac<16, 128, F::BF8, F::FP8>, FType::F32);
  r.add(O::v_smfmac_f32_16x16x128_bf8_bf8, &smfmac<16, 128, F::BF8, F::BF8>, FType::F32);
  r.add(O::v_smfmac_f32_32x32x64_fp8_fp8, &smfmac<32, 64, F::FP8, F::FP8>, FType::F32);
  r.add(O::v_smfmac_f32_32x32x64_fp8_bf8, &smfmac<32, 64, F::FP8, F::BF8>, FType::F32);
  r.add(O::v_smfmac_f32_32x32x64_bf8_fp8, &smfmac<32, 64, F::BF8, F::FP8>, FType::F32);
  r.add(O::v_smfmac_f32_32x32x64_bf8_bf8, &smfmac<32, 64, F::BF8, F::BF8>, FType::F32);
}

}  // namespace cdnajit::sim
