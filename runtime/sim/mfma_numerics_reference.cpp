// MFMA accumulation arithmetic: the reference implementation.
//
// This file is the straightforward reading of the rules below, on exact double values (split
// into significand and exponent with ilogb/ldexp per product). The simulator's fast path
// (mfma_numerics.cpp) computes the same thing on operands decoded once per instruction; this
// implementation is kept, unchanged in its arithmetic, as (1) the fast path's fallback for
// groups it does not handle (non-finite inputs, products near the f32 overflow threshold) and
// (2) the independent test oracle the fast path is checked against bit for bit
// (tests/sim/test_mfma_fast_path.cpp, randomized, seeded).
//
// CDNA3 (gfx942): the bit-exact rules published by Xie, Wang, Yang and Yang,
// "MMA-Sim: Bit-Accurate Reference Model of Tensor Cores and Matrix Cores",
// arXiv:2511.10909 (2025), Sec. on AMD CDNA3, validated there against MI300
// hardware. Summary of the facts used (code written here from them):
//  - f32 inputs: D = fma(A[K-1], B[K-1], ... fma(A[0], B[0], C)), each fma RNE.
//  - 16-bit float inputs (f16, bf16): K is cut into groups of min(8, K) products,
//    processed in increasing k, each group fused with the running accumulator:
//      * every element is significand * 2^exponent with the exponent clamped at
//        its format's smallest normal exponent (subnormals keep a significand < 1);
//        a product's exponent is the sum of its factors' exponents (its
//        significand lies in [0, 4)), a zero product has no exponent;
//      * products are aligned to the group's largest exponent e and truncated
//        toward zero to 24 fractional bits (relative to 2^e), then summed exactly;
//      * with E = max(e, exponent of C): the group sum is floored (toward -inf)
//        to 31 fractional bits relative to 2^E, C is floored to 24 fractional
//        bits relative to 2^E, both are added exactly and the sum is rounded
//        once to f32 (RNE): the accumulator for the next group.
//  - xf32 inputs (gfx942 v_mfma_f32_*_xf32): each f32 input truncated to xf32 (its low 13
//    bits cleared: 10 fraction bits, toward zero), then as 16-bit inputs with groups of 4
//    (MMA-Sim's CDNA3 model: truncate_to_tf32, group size 4, the same fused group sum).
//  - 8-bit float inputs: groups of 16; within a group the even-indexed and the
//    odd-indexed products are two sub-groups, each aligned and truncated as above
//    at its own largest exponent; both sub-sums are floored to 24 fractional bits
//    at the larger of the two exponents and added; then as above, except that C
//    is dropped entirely when its exponent is more than 25 below E.
//  - Infinities / NaNs: when any input is not finite the result is the IEEE
//    double sum of the products and C (inf - inf = NaN); a finite product at or
//    beyond 2^128 counts as an infinity of its sign.
// gfx950 (CDNA4) has no published model: the simulator applies the same rules to
// its shapes and formats (OCP fp8 uses the OCP formats' smallest normal
// exponents) as a documented hypothesis; Options::mfma_numerics switches to the
// exact model (one rounding of the exact sum) instead.
#include "runtime/sim/mfma_numerics.hpp"

#include <algorithm>
#include <cmath>

namespace cdnajit::sim {
namespace {

constexpr int kNoExponent = -100000;  // exponent of a zero: never the largest

struct Term {
  double sig;  // significand, |sig| < 4 (exact)
  int exp;
};

// x = sig * 2^exp with exp >= min_exp (x exact in a double).
Term split(double x, int min_exp) {
  if (x == 0) return {0.0, kNoExponent};
  int e = std::max(std::ilogb(x), min_exp);
  return {std::ldexp(x, -e), e};
}

// floor(v * 2^shift) for an integer v, shift <= 0 or small positive.
int64_t floor_shift(int64_t v, int shift) {
  if (shift >= 0) return v << shift;
  if (shift <= -63) return v < 0 ? -1 : 0;
  return v >> -shift;  // arithmetic shift: floor
}

// Products aligned at their largest exponent, truncated toward zero to 24
// fractional bits and summed: returns the sum in units of 2^(e - 24).
int64_t aligned_sum(const Term* p, int n, int stride, int& e) {
  e = kNoExponent;
  for (int i = 0; i < n; i += stride) e = std::max(e, p[i].exp);
  int64_t s = 0;
  if (e == kNoExponent) return 0;
  for (int i = 0; i < n; i += stride)
    if (p[i].sig != 0) s += int64_t(std::trunc(std::ldexp(p[i].sig, 24 + p[i].exp - e)));
  return s;
}

// Non-finite inputs or products beyond the f32 range (see the header comment).
bool special_case(const double* a, const double* b, int n, float c, float& out) {
  double sum = 0;
  bool pinf = false, ninf = false;
  for (int i = 0; i < n; ++i) {
    double p = a[i] * b[i];
    sum += p;
    pinf |= p >= 0x1p128;
    ninf |= p <= -0x1p128;
  }
  sum += double(c);
  if (!std::isfinite(sum)) { out = float(sum); return true; }
  if (pinf || ninf) { out = pinf && ninf ? NAN : pinf ? INFINITY : -INFINITY; return true; }
  return false;
}

}  // namespace

float mfma_group_cdna3_reference(const double* a, const double* b, int n, float c, const MfmaFormat& f) {
  float special;
  if (special_case(a, b, n, c, special)) return special;
  Term p[16];
  for (int i = 0; i < n; ++i) {
    Term x = split(a[i], f.min_exp_a), y = split(b[i], f.min_exp_b);
    p[i] = (x.sig == 0 || y.sig == 0) ? Term{0.0, kNoExponent} : Term{x.sig * y.sig, x.exp + y.exp};
  }
  int e;
  int64_t s;  // the products' sum in units of 2^(e - 24)
  if (f.kind == MfmaKind::Fp8) {
    int e0, e1;
    int64_t s0 = aligned_sum(p, n, 2, e0), s1 = aligned_sum(p + 1, n - 1, 2, e1);
    e = std::max(e0, e1);
    s = e == kNoExponent ? 0 : floor_shift(s0, e0 - e) + floor_shift(s1, e1 - e);
  } else {
    s = aligned_sum(p, n, 1, e);
  }
  Term ct = split(double(c), -126);
  int E = std::max(e, ct.exp);
  if (E == kNoExponent) return 0.0f;
  // Group sum floored to 31 fractional bits at 2^E (units of 2^(E - 31)).
  int64_t total = e == kNoExponent ? 0 : floor_shift(s, 7 + e - E);
  // C floored to 24 fractional bits at 2^E, in the same units.
  bool keep_c = ct.sig != 0 && !(f.kind == MfmaKind::Fp8 && ct.exp < E - 25);
  if (keep_c) total += int64_t(std::floor(std::ldexp(ct.sig, 24 + ct.exp - E))) * 128;
  return float(std::ldexp(double(total), E - 31));  // exact double, one RNE rounding to f32
}

float mfma_dot_cdna3_reference(const double* a, const double* b, int K, float c, const MfmaFormat& f) {
  if (f.kind == MfmaKind::F32) {
    for (int k = 0; k < K; ++k) c = std::fma(float(a[k]), float(b[k]), c);
    return c;
  }
  int group = mfma_group_size(f.kind, K);
  for (int k = 0; k < K; k += group) c = mfma_group_cdna3_reference(a + k, b + k, std::min(group, K - k), c, f);
  return c;
}

}  // namespace cdnajit::sim
