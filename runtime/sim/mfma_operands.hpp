// What the dense (ops_mfma.cpp) and sparse (ops_smfmac.cpp) MFMA handlers share: the element
// formats an MFMA reads from its A/B registers, how one element is decoded from its dword, how a
// lane's packed fragment is gathered, the numerics kind and smallest normal exponent of each
// format (for mfma_numerics.hpp), and an operand vector decoded once per instruction for the fast
// CDNA3 path.
#pragma once
#include <cstdint>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/mfma_numerics.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

// XF32: an f32 register read as xf32 (low 13 bits cleared; see mfma_numerics_reference.cpp).
enum class Fmt : uint8_t { F16, BF16, FP8, BF8, F32, I8, XF32 };

// Elements per dword of a format.
constexpr int mfma_per_dword(Fmt f) {
  return f == Fmt::F32 || f == Fmt::XF32 ? 1 : (f == Fmt::F16 || f == Fmt::BF16) ? 2 : 4;
}

// Element j (of the dword's mfma_per_dword) of `dword`, exactly. fp8/bf8 are FNUZ on gfx942
// (`fnuz`), OCP E4M3FN / E5M2 on gfx950.
inline double mfma_element(uint32_t dword, int j, Fmt f, bool fnuz) {
  switch (f) {
    case Fmt::F16: return f16_to_f32(uint16_t(dword >> (16 * (j & 1))));
    case Fmt::BF16: return f32_of(bf16_to_f32(uint16_t(dword >> (16 * (j & 1)))));
    case Fmt::F32: return f32_of(dword);
    case Fmt::XF32: return f32_of(dword & ~0x1fffu);
    case Fmt::I8: return double(int8_t(uint8_t(dword >> (8 * (j & 3)))));
    case Fmt::FP8: return fp8_value(uint8_t(dword >> (8 * (j & 3))), false, fnuz);
    default: return fp8_value(uint8_t(dword >> (8 * (j & 3))), true, fnuz);
  }
}

// The first n elements of lane `lane`'s packed fragment of `src` (mfma_per_dword(f) elements per
// dword, element 0 in the low bits of the first dword), exactly, into out[0, n).
inline void mfma_gather_fragment(Wave& w, const Src& src, int lane, int n, Fmt f, bool fnuz, double* out) {
  const int per = mfma_per_dword(f);
  for (int j = 0; j < n; ++j) out[j] = mfma_element(lane_src(w, src, lane, j / per), j % per, f, fnuz);
}

// Smallest normal exponent of each element format, for the CDNA3 alignment rule.
inline int mfma_min_exp(Fmt f, bool fnuz) {
  switch (f) {
    case Fmt::F16: return -14;
    case Fmt::FP8: return fnuz ? -7 : -6;    // E4M3: bias 8 (FNUZ) / 7 (OCP)
    case Fmt::BF8: return fnuz ? -15 : -14;  // E5M2: bias 16 (FNUZ) / 15 (OCP)
    default: return -126;                    // bf16, f32
  }
}

// The accumulation rules an A format selects (I8 is integer arithmetic and never asks).
inline MfmaKind mfma_kind(Fmt f) {
  return f == Fmt::F32 ? MfmaKind::F32 : f == Fmt::XF32 ? MfmaKind::Xf32 : (f == Fmt::FP8 || f == Fmt::BF8) ? MfmaKind::Fp8 : MfmaKind::Fused;
}

// One operand vector of an MFMA (a row of A or a column of B): exact values and their decode for
// the fast CDNA3 path (mfma_numerics.hpp), decoded once per instruction.
template <int K>
struct OperandVec {
  double v[K];
  MfmaTerm t[K];
  bool decoded = false;
  void decode(int min_exp) { decoded = mfma_decode(v, K, min_exp, t); }
  MfmaOperand view() const { return {v, t, decoded}; }
};

}  // namespace cdnajit::sim
