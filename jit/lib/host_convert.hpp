// Host-side conversions between f32 and the narrow float formats the kernels read and write:
// bf16, and the 8-bit floats in AMD's FNUZ variants (gfx942: v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32,
// the fp8 MFMAs) and the OCP variants (gfx950). Header-only, no dependency: a host program fills
// its buffers with these and reads results back with the same rounding the instructions apply.
// tests/jit/test_host_convert.cpp holds every function against the simulator's conversion
// instructions (v_cvt_pk_bf16_f32, v_cvt_pk_fp8_f32, v_cvt_pk_bf8_f32, v_cvt_f32_fp8, v_cvt_f32_bf8).
//
// snippet-context: float x = 1.5f;
//   uint16_t b = cdnajit::host::f32_to_bf16(x);                          // round to nearest even
//   uint8_t q = cdnajit::host::f32_to_fp8(x, cdnajit::host::Fp8::e4m3_fnuz);
//   float y = cdnajit::host::fp8_to_f32(q, cdnajit::host::Fp8::e4m3_fnuz);
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace cdnajit::host {

inline float bf16_to_f32(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

// Round to nearest, ties to even. A NaN stays a NaN: sign and top payload bits kept, quiet bit set.
inline uint16_t f32_to_bf16(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t(u >> 16 | 0x40u);
  const uint32_t lsb = u >> 16 & 1u;
  return uint16_t((u + 0x7fffu + lsb) >> 16);
}

// The 8-bit float formats. FNUZ (CDNA3 ISA guide): E4M3 bias 8, E5M2 bias 16, no infinities, no
// negative zero, 0x80 the one NaN. OCP (OCP 8-bit Floating Point Specification 1.0, CDNA4 ISA
// guide): E4M3FN bias 7, S.1111.111 NaN, no infinities, largest 448; E5M2 bias 15, IEEE-style
// infinities and NaNs. gfx942's fp8 instructions use FNUZ, gfx950's use OCP.
enum class Fp8 : uint8_t { e4m3_fnuz, e5m2_fnuz, e4m3_ocp, e5m2_ocp };

namespace detail {
struct Fp8Shape {
  int mbits, bias;
  bool fnuz, e5m2;
};
constexpr Fp8Shape shape(Fp8 f) {
  switch (f) {
    case Fp8::e4m3_fnuz: return {3, 8, true, false};
    case Fp8::e5m2_fnuz: return {2, 16, true, true};
    case Fp8::e4m3_ocp: return {3, 7, false, false};
    case Fp8::e5m2_ocp: return {2, 15, false, true};
  }
  return {3, 8, true, false};
}
constexpr uint8_t largest(const Fp8Shape& s) { return s.fnuz ? 0x7f : s.e5m2 ? 0x7b : 0x7e; }
constexpr uint8_t nan_code(const Fp8Shape& s, uint8_t sign) { return s.fnuz ? 0x80 : uint8_t(sign | (s.e5m2 ? 0x7e : 0x7f)); }
// Infinity, and a finite value too large, when not saturating: FNUZ's NaN, E4M3FN's NaN, E5M2's inf.
constexpr uint8_t overflow_code(const Fp8Shape& s, uint8_t sign) {
  return s.fnuz ? 0x80 : s.e5m2 ? uint8_t(sign | 0x7c) : nan_code(s, sign);
}
}  // namespace detail

// f32 -> 8-bit float, round to nearest even (the rounding of the _pk_ conversions). Not saturating
// (what the instructions do by default): finite values beyond the largest become overflow_code
// (FNUZ: 0x80; OCP E4M3: NaN; OCP E5M2: ±inf). saturate = true: they become ± the largest finite value
// (the OCP conversions with MODE.FP16_OVFL set on gfx950); NaN and infinity convert as above either way.
inline uint8_t f32_to_fp8(float x, Fp8 format, bool saturate = false) {
  const detail::Fp8Shape s = detail::shape(format);
  const uint32_t u = std::bit_cast<uint32_t>(x);
  const uint8_t sign = uint8_t(u >> 24 & 0x80u);
  const uint32_t mag = u & 0x7fffffffu;
  if (mag > 0x7f800000u) return detail::nan_code(s, sign);
  if (mag == 0x7f800000u) return detail::overflow_code(s, sign);
  const uint8_t zero = s.fnuz ? 0 : sign;
  const int biased = int(mag >> 23);
  if (biased == 0) return zero;  // f32 subnormals are far below half the smallest 8-bit subnormal
  const uint64_t sig = (mag & 0x7fffffu) | 0x800000u;  // value = sig * 2^(e - 23)
  const int e = biased - 127;
  const bool subnormal = e < 1 - s.bias;
  // Low bits of sig below the target's last place: 23 - mbits for a normal, more below the normal range.
  const int drop = 23 - s.mbits + (subnormal ? (1 - s.bias) - e : 0);
  if (drop > 26) return zero;  // below a quarter of the smallest subnormal
  uint64_t q = sig >> drop;
  const uint64_t rest = sig & ((uint64_t(1) << drop) - 1), half = uint64_t(1) << (drop - 1);
  if (rest > half || (rest == half && (q & 1))) ++q;
  // A normal's code is (biased exponent - 1) << mbits plus the significand with its leading one, so
  // a carry out of the significand moves into the exponent on its own.
  const uint64_t code = subnormal ? q : (uint64_t(e + s.bias - 1) << s.mbits) + q;
  if (code == 0) return zero;
  if (code > detail::largest(s)) return saturate ? uint8_t(sign | detail::largest(s)) : detail::overflow_code(s, sign);
  return uint8_t(sign | code);
}

// 8-bit float -> f32, exact (every 8-bit value is an f32). NaN codes give a quiet NaN.
inline float fp8_to_f32(uint8_t v, Fp8 format) {
  const detail::Fp8Shape s = detail::shape(format);
  const bool neg = v & 0x80;
  const int ebits = s.e5m2 ? 5 : 4, exp = v >> s.mbits & ((1 << ebits) - 1), man = v & ((1 << s.mbits) - 1);
  if (s.fnuz && v == 0x80) return std::numeric_limits<float>::quiet_NaN();
  if (!s.fnuz && !s.e5m2 && exp == 15 && man == 7) return neg ? -std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::quiet_NaN();
  if (!s.fnuz && s.e5m2 && exp == 31) {
    if (man) return neg ? -std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::quiet_NaN();
    return neg ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  }
  const float m = exp == 0 ? float(man) : float(man | (1 << s.mbits));
  const float r = std::ldexp(m, (exp == 0 ? 1 : exp) - s.bias - s.mbits);
  return neg ? -r : r;
}

}  // namespace cdnajit::host
