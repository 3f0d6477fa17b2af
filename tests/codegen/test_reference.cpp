// The exact dot-product oracle (codegen/reference/exact_dot.hpp) for lengths beyond
// two, as fused accumulation models (MFMA-style: one rounding of an exact sum) would
// call it: hand-worked answers, and its double fast path against its MPFR path.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "codegen/reference/exact_dot.hpp"
#include "tests/test_support.hpp"

using cdnajit::reference::exact_dot_f32;
using cdnajit::reference::exact_dot_f32_mpfr;
using cdnajit::reference::exact_dot_uses_fast_path;

namespace {
bool same_f32(float x, float y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return std::bit_cast<uint32_t>(x) == std::bit_cast<uint32_t>(y);
}
}  // namespace

TEST_CASE("exact_dot_f32: hand-worked sums of several products, rounded once", "[codegen][reference]") {
  // 2^100 - 2^100 + 2^-100 + 1 + 2^-20: the huge terms cancel exactly, so the sum is
  // 1 + 2^-20 + 2^-100, which rounds to 1 + 2^-20 (a double sum would lose nothing here
  // either, but only because the cancellation comes first; MPFR does not depend on order).
  std::vector<float> a = {0x1p50f, -0x1p50f, 0x1p-50f, 1.0f, 0x1p-10f};
  std::vector<float> b = {0x1p50f, 0x1p50f, 0x1p-50f, 1.0f, 0x1p-10f};
  CHECK(exact_dot_f32(a, b, 0.0f) == 1.0f + 0x1p-20f);
  CHECK(exact_dot_f32_mpfr(a, b, 0.0f) == 1.0f + 0x1p-20f);
  // Four halves of an ulp of 1: 1 + 4 * 2^-25 = 1 + 2^-23 exactly (a chain of f32 roundings gives 1).
  std::vector<float> h = {1.0f, 0x1p-25f, 0x1p-25f, 0x1p-25f, 0x1p-25f}, ones(5, 1.0f);
  CHECK(exact_dot_f32(h, ones, 0.0f) == 1.0f + 0x1p-23f);
  // The empty sum is c itself, signed zero included.
  CHECK(std::signbit(exact_dot_f32({}, {}, -0.0f)));
  CHECK_THROWS(exact_dot_f32(std::vector<float>{1.0f}, std::vector<float>{}, 0.0f));
}

TEST_CASE("exact_dot_f32: the double fast path equals the MPFR path on random inputs", "[codegen][reference][random]") {
  std::mt19937_64 rng(cdnajit::test::test_seed("exact_dot_f32 fast vs MPFR", 42));
  int cases = 0, fast = 0, mismatches = 0;
  for (int i = 0; i < 60000; ++i) {
    size_t n = 1 + rng() % 16;
    // Narrow: bf16-like 8-bit significands with close exponents (mostly the fast path);
    // wide: full 24-bit significands over a wide exponent range (mostly MPFR).
    // A third of the cases: bf16-like significands with exponents within +-12, whose
    // windows straddle the fast path's 53-bit limit.
    bool narrow = i % 3 != 0;
    int span = i % 3 == 0 ? 120 : i % 3 == 1 ? 4 : 12;
    std::vector<float> a(n), b(n);
    auto value = [&] {
      float m = narrow ? 1.0f + float(rng() % 128) / 128.0f : 1.0f + float(rng() % (1u << 23)) * 0x1p-23f;
      return std::ldexp((rng() & 1) ? -m : m, int(rng() % uint64_t(2 * span + 1)) - span);
    };
    for (size_t k = 0; k < n; ++k) a[k] = value(), b[k] = value();
    float c = value();
    bool f = exact_dot_uses_fast_path(a, b, c);
    float want = exact_dot_f32_mpfr(a, b, c), got = exact_dot_f32(a, b, c);
    ++cases;
    fast += f;
    if (!same_f32(got, want) && ++mismatches <= 10)
      FAIL_CHECK("n " << n << ": fast path " << std::hexfloat << got << ", MPFR " << want);
  }
  std::printf("exact_dot_f32 fast vs MPFR: %d cases (lengths 1..16), %d on the double fast path, %d mismatches\n",
              cases, fast, mismatches);
  CHECK(mismatches == 0);
  CHECK(fast >= cases / 4);          // both paths are exercised
  CHECK(cases - fast >= cases / 4);
}

TEST_CASE("exact_dot2_f32: the two-term fast path equals the MPFR path, special values included", "[codegen][reference][random]") {
  // exact_dot2_f32 is the host dot2 model's inner step; it has its own specialised
  // exactness test, so it is checked here against the MPFR-only path on inputs that
  // reach both of its branches: bf16 operands as the model sees them, full f32 over
  // the whole exponent range, subnormals, signed zeros, infinities, NaN, and c chosen
  // so that the exact sum lies on a tie between two f32 values.
  std::mt19937_64 rng(cdnajit::test::test_seed("exact_dot2_f32 fast vs MPFR", 7));
  auto any_f32 = [&] {  // every finite exponent, subnormals included
    uint32_t u = uint32_t(rng()) & 0x7f7fffffu;
    u |= uint32_t(rng() % 254) << 23;
    return std::bit_cast<float>(u | (uint32_t(rng() & 1) << 31));
  };
  auto bf16 = [&](int lo, int hi) {  // 8-bit significand, exponent in [lo, hi]
    uint32_t e = uint32_t(127 + lo + int(rng() % uint64_t(hi - lo + 1)));
    return std::bit_cast<float>((uint32_t(rng() & 1) << 31) | (e << 23) | ((uint32_t(rng()) & 0x7f) << 16));
  };
  auto special = [&]() -> float {
    switch (rng() % 8) {
      case 0: return 0.0f;
      case 1: return -0.0f;
      case 2: return INFINITY;
      case 3: return -INFINITY;
      case 4: return NAN;
      case 5: return std::bit_cast<float>(uint32_t(rng()) & 0x807fffffu);  // subnormal (or zero)
      case 6: return 0x1p-149f;
      default: return -0x1p127f;
    }
  };
  auto operand = [&](int kind) -> float {
    switch (kind) {
      case 0: return bf16(-8, 1);      // the seed job's inputs
      case 1: return bf16(-60, 60);    // bf16, wide
      case 2: return any_f32();        // full f32, every exponent
      default: return rng() % 4 ? bf16(-8, 1) : special();
    }
  };
  int cases = 0, fast = 0, ties = 0, mismatches = 0;
  for (int i = 0; i < 200000; ++i) {
    int kind = i % 4;
    float a0 = operand(kind), b0 = operand(kind), a1 = operand(kind), b1 = operand(kind);
    float c = kind == 2 ? any_f32() : rng() % 2 ? operand(kind) : any_f32();
    if (i % 5 == 0) {
      // A tie: c's ulp is 2^k and a0*b0 = +-2^(k-1), half an ulp. Half the time a1*b1 = 0
      // (an exact tie, to even); otherwise a1*b1 is a bf16 product up to 60 bits further down,
      // which decides the rounding and is exactly what a double sum (53 bits) may lose: a
      // fast path that trusts double too far rounds these wrongly.
      c = bf16(-20, 20) + float(rng() % 1024);
      int k = std::ilogb(c) - 23;
      a0 = std::ldexp(1.0f, k / 2), b0 = std::ldexp(rng() & 1 ? 1.0f : -1.0f, k - 1 - k / 2), b1 = 0.0f;
      if (rng() & 1) {
        int low = k - 2 - int(rng() % 60);
        a1 = std::ldexp(bf16(0, 0), low / 2), b1 = std::ldexp(bf16(0, 0), low - low / 2);
      }
      ++ties;
    }
    float a[2] = {a0, a1}, b[2] = {b0, b1};
    bool f = cdnajit::reference::exact_dot_uses_fast_path(a, b, c);
    float want = cdnajit::reference::exact_dot2_f32_mpfr(a0, b0, a1, b1, c);
    float got = cdnajit::reference::exact_dot2_f32(a0, b0, a1, b1, c);
    ++cases;
    fast += f;
    if (!same_f32(got, want) && ++mismatches <= 10)
      FAIL_CHECK(std::hexfloat << a0 << "*" << b0 << " + " << a1 << "*" << b1 << " + " << c << ": fast "
                               << got << ", MPFR " << want);
    // The eight-lane form (the model's vector path): this case in lane 0, seven more of the same
    // kind with the same a0, a1, each against the scalar form checked above.
    float lb0[8] = {b0}, lb1[8] = {b1}, lc[8] = {c};
    for (int l = 1; l < 8; ++l) {
      lb0[l] = operand(kind), lb1[l] = operand(kind);
      lc[l] = kind == 2 ? any_f32() : rng() % 2 ? operand(kind) : any_f32();
    }
    float x8[8];
    std::copy(lc, lc + 8, x8);
    cdnajit::reference::exact_dot2_f32_x8(a0, a1, lb0, lb1, x8);
    for (int l = 0; l < 8; ++l) {
      const float one = l == 0 ? want : cdnajit::reference::exact_dot2_f32(a0, lb0[l], a1, lb1[l], lc[l]);
      if (!same_f32(x8[l], one) && ++mismatches <= 10)
        FAIL_CHECK("eight-lane form, lane " << l << ": " << std::hexfloat << a0 << "*" << lb0[l] << " + " << a1 << "*"
                                             << lb1[l] << " + " << lc[l] << ": " << x8[l] << ", scalar " << one);
    }
  }
  std::printf("exact_dot2_f32 fast vs MPFR: %d cases (%d ties), %d on the double fast path, %d mismatches\n", cases,
              ties, fast, mismatches);
  CHECK(mismatches == 0);
  CHECK(fast >= cases / 4);  // both branches are exercised
  CHECK(cases - fast >= cases / 4);
}
