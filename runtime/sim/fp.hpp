// Floating-point conversions with the hardware's rounding (RNE) and NaN rules.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

namespace cdnajit::sim {

inline float f32_of(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline uint32_t bits_of(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

// f32 -> bf16, round to nearest even; NaN stays NaN (quieted).
inline uint16_t f32_to_bf16(uint32_t u) {
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40);
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}
inline uint32_t bf16_to_f32(uint16_t h) { return uint32_t(h) << 16; }

inline uint16_t f32_to_f16(uint32_t u) {
  _Float16 h = static_cast<_Float16>(f32_of(u));
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
inline uint16_t f64_to_f16(double d) {
  _Float16 h = static_cast<_Float16>(d);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
inline float f16_to_f32(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return float(h);
}
// f32 -> f16 rounding toward zero (v_cvt_pkrtz_f16_f32).
inline uint16_t f32_to_f16_rtz(uint32_t u) {
  float x = f32_of(u);
  uint16_t h = f32_to_f16(u);
  if (std::isnan(x) || std::isinf(x)) return h;
  if ((h & 0x7fff) == 0x7c00) return uint16_t((h & 0x8000) | 0x7bff);  // overflow -> max finite
  if (std::fabs(f16_to_f32(h)) > std::fabs(x)) h = uint16_t(h - 1);    // stepped away from zero: step back
  return h;
}
// Value of an 8-bit float code. gfx942 uses the FNUZ encodings (E4M3 bias 8 / E5M2 bias 16,
// 0x80 = NaN, no infinities, no -0); gfx950 the OCP ones (E4M3 bias 7 with S.1111.111 = NaN and
// no infinities; E5M2 bias 15 with IEEE-style inf/NaN). Exact in a double (and in a float).
inline double fp8_value(uint8_t b, bool e5m2, bool fnuz) {
  bool neg = b & 0x80;
  int mbits = e5m2 ? 2 : 3, ebits = e5m2 ? 5 : 4;
  int e = (b >> mbits) & ((1 << ebits) - 1), m = b & ((1 << mbits) - 1);
  int bias = (e5m2 ? 15 : 7) + (fnuz ? 1 : 0);
  if (fnuz && b == 0x80) return std::nan("");
  if (!fnuz) {
    if (e5m2 && e == 31) return m ? std::nan("") : (neg ? -INFINITY : INFINITY);
    if (!e5m2 && e == 15 && m == 7) return std::nan("");
  }
  double v = e == 0 ? std::ldexp(double(m), 1 - bias - mbits) : std::ldexp(double(m + (1 << mbits)), e - bias - mbits);
  return neg ? -v : v;
}
inline float fma_f32(float a, float b, float c) { return std::fma(a, b, c); }
// a * b + c for f32 operands, rounded to a double with round-to-odd: the product is exact in a
// double, TwoSum gives the addition's error, and an inexact result gets an odd last bit. Rounding
// that double once more to any format with at least two fewer significand bits (f32, f16) gives
// the correctly rounded fma (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums:
// proved algorithms using rounding to odd", IEEE Trans. Computers 57(4), 2008). The result may
// also be scaled by a power of two first (v_div_fmas), which is exact in a double.
inline double fma_f32_round_odd(float a, float b, float c) {
  double p = double(a) * double(b), z = double(c), s = p + z;
  if (!std::isfinite(s)) return s;
  double bv = s - p, err = (p - (s - bv)) + (z - bv);
  uint64_t u;
  std::memcpy(&u, &s, 8);
  if (err != 0 && !(u & 1)) s = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
  return s;
}
// r[l] = fma(a[l], b[l], c[l]) for 64 lanes of f32 bits, correctly rounded (fma64.cpp).
void fma64(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r);
// The same with operand i read as one value for all lanes (*a, *b or *c) where bit i of bcast is set.
void fma64_bcast(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r, unsigned bcast);
inline uint32_t flush_denorm32(uint32_t u) { return (u & 0x7f800000u) == 0 ? (u & 0x80000000u) : u; }

}  // namespace cdnajit::sim
