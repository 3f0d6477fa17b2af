// The exact dot-product oracle (codegen/reference/exact_dot.hpp) for lengths beyond
// two, as fused accumulation models (MFMA-style: one rounding of an exact sum) would
// call it: hand-worked answers, and its double fast path against its MPFR path.
#include <catch2/catch.hpp>

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
  for (int i = 0; i < 40000; ++i) {
    size_t n = 1 + rng() % 16;
    // Narrow: bf16-like 8-bit significands with close exponents (mostly the fast path);
    // wide: full 24-bit significands over a wide exponent range (mostly MPFR).
    bool narrow = i % 2;
    int span = narrow ? 4 : 120;
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
