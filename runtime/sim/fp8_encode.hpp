// f32 -> 8-bit float encoding (v_cvt_pk_fp8_f32, v_cvt_pk_bf8_f32, v_cvt_sr_fp8_f32,
// v_cvt_sr_bf8_f32). The decoding direction is fp8_value in fp.hpp.
//
// Formats (the arch picks them, as for the MFMAs):
//   gfx942 (CDNA3 ISA guide, "FP8 and BF8" data formats): FNUZ — E4M3 bias 8 and E5M2 bias 16,
//     no infinities, no negative zero, 0x80 the only NaN.
//   gfx950 (CDNA4 ISA guide; OCP 8-bit floating point specification v1.0): E4M3FN bias 7
//     (S.1111.111 is NaN, no infinities, max 448) and E5M2 bias 15 (IEEE-like inf/NaN).
// Rounding: round-to-nearest-even for the _pk_ forms; the _sr_ forms round stochastically:
// the part of the significand below the 8-bit float's last place, taken as (23 - mantissa bits)
// bits of an f32 significand (truncated when the result is subnormal), is added to the same
// number of low bits of the random operand, and a carry out rounds up (Options::sr_seed_bits can
// make every stochastic conversion take the top bits instead). This is the rule of
// ROCm's published software emulation of these instructions (rocBLAS rocblas_hip_f8_impl.h
// cast_to_f8 with stoch = true, also in HIP's amd_hip_fp8.h); the ISA guides do not spell it out.
// Overflow and special values when not saturating (LLVM 22 never sets the VOP3 clamp bit of
// these instructions): FNUZ: NaN, ±inf and finite overflow -> 0x80; OCP E4M3: NaN, ±inf and
// overflow -> S.1111.111 (NaN); OCP E5M2: NaN -> S.11111.10, ±inf and overflow -> ±inf.
// Saturating (gfx950 with MODE.FP16_OVFL set, which ROCm's compilers set before OCP fp8
// conversions): finite overflow -> ±max finite; NaN and inf as above. HIP's amd_hip_fp8.h clamps
// with v_med3 before calling the gfx942 builtins when it wants saturation, evidence that the
// instruction itself does not saturate. Which NaN code OCP E5M2 produces is not documented.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace cdnajit::sim {

struct Fp8Format {
  bool e5m2;  // E5M2 (bf8) or E4M3 (fp8)
  bool fnuz;  // gfx942 FNUZ or gfx950 OCP
  int mbits() const { return e5m2 ? 2 : 3; }
  int bias() const { return (e5m2 ? 15 : 7) + (fnuz ? 1 : 0); }
  // Largest finite code (sign clear).
  uint8_t max_code() const { return fnuz ? 0x7f : e5m2 ? 0x7b : 0x7e; }
  uint8_t nan_code(bool neg) const { return fnuz ? 0x80 : uint8_t((neg ? 0x80 : 0) | (e5m2 ? 0x7e : 0x7f)); }
  uint8_t overflow_code(bool neg) const {
    return fnuz ? 0x80 : e5m2 ? uint8_t((neg ? 0x80 : 0) | 0x7c) : nan_code(neg);
  }
};

// Stochastic rounding input: the `bits` fraction bits of the value below the target's last place
// (truncated there) are added to `random` (< 2^bits); a carry out rounds the magnitude up.
// bits == 0: round to nearest even instead.
struct StochasticBits {
  int bits = 0;
  uint32_t random = 0;
};

// The magnitude code (biased exponent << mbits | mantissa, not masked: a value above the format's
// largest code means overflow) of the exact non-negative finite value `a`, in a format with
// `mbits` mantissa bits and exponent bias `bias` (subnormals below 2^(1 - bias)). Shared by every
// narrow float encoder (fp8/bf8 here, fp6/bf6/fp4 in mx_format.hpp).
inline uint64_t round_magnitude(double a, int mbits, int bias, StochasticBits sr) {
  if (a == 0) return 0;
  const int emin = 1 - bias;
  int e2;
  std::frexp(a, &e2);  // a in [2^(e2-1), 2^e2)
  int e = std::max(e2 - 1, emin);
  double s = std::ldexp(a, mbits - e);  // significand in units of the last place: [0, 2^(mbits+1))
  double n = std::floor(s), frac = s - n;  // both exact
  if (sr.bits > 0) {
    uint64_t fbits = uint64_t(std::floor(std::ldexp(frac, sr.bits)));  // truncated below the source's last place
    n += double((fbits + sr.random) >> sr.bits);
  } else if (frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) != 0)) {
    n += 1;
  }
  uint64_t m = uint64_t(n);
  if (m >= (2ull << mbits)) { m >>= 1; ++e; }  // carry into the next binade (m was exactly 2^(mbits+1))
  if (m == 0) return 0;
  const uint64_t expf = m >= (1ull << mbits) ? uint64_t(e + bias) : 0u;
  return (expf << mbits) | (m & ((1ull << mbits) - 1));
}

// Encode the value with sign `neg` and magnitude `a` (exact; may be inf or NaN) as fp8/bf8.
inline uint8_t fp8_encode_magnitude(bool neg, double a, Fp8Format f, StochasticBits sr, bool saturate) {
  const uint8_t sign = neg ? 0x80 : 0;
  const uint8_t zero = f.fnuz ? 0 : sign;  // FNUZ has no negative zero (0x80 is its NaN)
  if (std::isnan(a)) return f.nan_code(neg);
  if (std::isinf(a)) return f.fnuz ? 0x80 : f.e5m2 ? uint8_t(sign | 0x7c) : f.nan_code(neg);
  const uint64_t code = round_magnitude(a, f.mbits(), f.bias(), sr);
  if (code == 0) return zero;
  if (code > f.max_code()) return saturate ? uint8_t(sign | f.max_code()) : f.overflow_code(neg);
  return uint8_t(sign | code);
}

// Encode the f32 with bits `u`. stochastic: round with the low bits of `rng` (see above), else RNE.
inline uint8_t fp8_encode(uint32_t u, Fp8Format f, bool stochastic, uint32_t rng, bool saturate) {
  float x;
  std::memcpy(&x, &u, 4);
  StochasticBits sr;
  if (stochastic) {
    sr.bits = 23 - f.mbits();
    sr.random = rng & ((1u << sr.bits) - 1);
  }
  return fp8_encode_magnitude(u >> 31, std::fabs(double(x)), f, sr, saturate);
}

}  // namespace cdnajit::sim
