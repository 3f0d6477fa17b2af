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
// number of low bits of the random operand, and a carry out rounds up. This is the rule of
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

// Encode the f32 with bits `u`. stochastic: round with the low bits of `rng` (see above), else RNE.
inline uint8_t fp8_encode(uint32_t u, Fp8Format f, bool stochastic, uint32_t rng, bool saturate) {
  const bool neg = u >> 31;
  const uint8_t sign = neg ? 0x80 : 0;
  const uint8_t zero = f.fnuz ? 0 : sign;  // FNUZ has no negative zero (0x80 is its NaN)
  if ((u & 0x7f800000u) == 0x7f800000u) {
    if (u & 0x7fffffu) return f.nan_code(neg);
    return f.fnuz ? 0x80 : f.e5m2 ? uint8_t(sign | 0x7c) : f.nan_code(neg);
  }
  float x;
  std::memcpy(&x, &u, 4);
  double a = std::fabs(double(x));
  if (a == 0) return zero;
  const int mb = f.mbits(), emin = 1 - f.bias();
  int e2;
  std::frexp(a, &e2);  // a in [2^(e2-1), 2^e2)
  int e = std::max(e2 - 1, emin);
  double s = std::ldexp(a, mb - e);  // significand in units of the last place: [0, 2^(mb+1))
  double n = std::floor(s), frac = s - n;  // both exact
  if (stochastic) {
    const int drop = 23 - mb;
    uint64_t fbits = uint64_t(std::floor(std::ldexp(frac, drop)));  // truncated below an f32's last place
    n += double((fbits + (rng & ((1u << drop) - 1))) >> drop);
  } else if (frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) != 0)) {
    n += 1;
  }
  uint32_t m = uint32_t(n);
  if (m >= (2u << mb)) { m >>= 1; ++e; }  // carry into the next binade (m was exactly 2^(mb+1))
  if (m == 0) return zero;
  uint32_t expf = m >= (1u << mb) ? uint32_t(e + f.bias()) : 0u;
  uint32_t code = (expf << mb) | (m & ((1u << mb) - 1));
  if (expf >= (f.e5m2 ? 32u : 16u) || code > f.max_code()) return saturate ? uint8_t(sign | f.max_code()) : f.overflow_code(neg);
  return uint8_t(sign | code);
}

}  // namespace cdnajit::sim
