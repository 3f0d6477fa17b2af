// A signed fixed-point accumulator wide enough to hold exactly any f32, any
// product of two f32 values and any sum of a few hundred of them, and its
// correctly rounded (RNE, subnormals kept) conversion to f32. Used where the
// simulator must round an exact sum once: the fused dot2 (dot2.cpp) and the
// "exact" MFMA numerics (mfma_numerics.cpp).
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace cdnajit::sim::fixed {

// A signed fixed-point number with its least significant bit worth 2^-kFracBits,
// wide enough for any f32 and any product of two bf16 values.
constexpr int kFracBits = 320;
constexpr int kLimbs = 10;  // 640 bits
struct Fixed {
  std::array<uint64_t, kLimbs> limb{};
  void add_shifted(uint64_t mant, int bit, bool negative) {
    // Two's complement add of (+/-) mant << bit.
    std::array<uint64_t, kLimbs> t{};
    int li = bit / 64, sh = bit % 64;
    t[li] = mant << sh;
    if (sh && li + 1 < kLimbs) t[li + 1] = mant >> (64 - sh);
    if (negative) {
      uint64_t carry = 1;
      for (auto& x : t) { x = ~x; uint64_t y = x + carry; carry = (y < x); x = y; }
    }
    uint64_t carry = 0;
    for (int i = 0; i < kLimbs; ++i) {
      uint64_t a = limb[i], b = t[i];
      uint64_t s1 = a + b, c1 = s1 < a;
      uint64_t s2 = s1 + carry, c2 = s2 < s1;
      limb[i] = s2;
      carry = c1 | c2;
    }
  }
  bool negative() const { return limb[kLimbs - 1] >> 63; }
  void negate() {
    uint64_t carry = 1;
    for (auto& x : limb) { x = ~x; uint64_t y = x + carry; carry = (y < x); x = y; }
  }
  bool bit(int i) const { return i >= 0 && ((limb[i / 64] >> (i % 64)) & 1); }
  bool any_below(int i) const {  // any set bit at positions < i
    for (int k = 0; k < kLimbs && k * 64 < i; ++k) {
      uint64_t m = (i - k * 64 >= 64) ? ~0ull : ((1ull << (i - k * 64)) - 1);
      if (limb[k] & m) return true;
    }
    return false;
  }
  int msb() const {
    for (int k = kLimbs - 1; k >= 0; --k)
      if (limb[k]) return k * 64 + 63 - std::countl_zero(limb[k]);
    return -1;
  }
};

// Significand and exponent of a finite float: f = mant * 2^exp.
inline void decompose(float f, uint64_t& mant, int& exp, bool& neg) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  neg = u >> 31;
  int e = (u >> 23) & 0xff;
  mant = u & 0x7fffff;
  if (e) mant |= 0x800000;
  exp = (e ? e : 1) - 150;
}

inline float round_fixed_to_f32(Fixed acc) {
  bool neg = acc.negative();
  if (neg) acc.negate();
  int p = acc.msb();
  if (p < 0) return 0.0f;
  int lsb = std::max(p - 23, kFracBits - 149);  // subnormals keep their LSB at 2^-149
  uint64_t m = 0;
  for (int i = p; i >= lsb; --i) m = (m << 1) | uint64_t(acc.bit(i));
  bool round = acc.bit(lsb - 1), sticky = acc.any_below(lsb - 1);
  if (round && (sticky || (m & 1))) ++m;
  float r = std::ldexp(float(m), lsb - kFracBits);  // exact, or inf on overflow
  return neg ? -r : r;
}

}  // namespace cdnajit::sim::fixed
