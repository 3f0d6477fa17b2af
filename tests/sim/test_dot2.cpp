// The simulator's fused dot2 rule (sim::dot2_fused: the exact value of
// a0*b0 + a1*b1 + c rounded once to f32) against the independent MPFR oracle
// in codegen/reference (which shares no code with runtime/sim), over hand-picked
// cases and randomized wide-exponent inputs that reach the fixed-point path,
// subnormal results, overflow, infinities/NaN and the sign of exact zeros.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

#include "codegen/reference/exact_dot.hpp"
#include "runtime/sim/dot2.hpp"
#include "tests/test_support.hpp"

using cdnajit::reference::exact_dot2_f32;
using cdnajit::reference::exact_dot2_f32_mpfr;
using cdnajit::sim::dot2_fused;

namespace {

// Same value, or both NaN (NaN payloads are not specified by either side).
bool same_f32(float x, float y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return std::bit_cast<uint32_t>(x) == std::bit_cast<uint32_t>(y);
}

float bf16_bits(uint16_t h) { return std::bit_cast<float>(uint32_t(h) << 16); }
float f32_bits(uint32_t u) { return std::bit_cast<float>(u); }

}  // namespace

TEST_CASE("dot2_fused and the MPFR oracle agree on hand-picked exact answers", "[sim][dot2]") {
  struct Case {
    float a0, b0, a1, b1, c, want;
  };
  float big = std::ldexp(1.0f, 30), tiny = std::ldexp(1.0f, -30), half_ulp = std::ldexp(1.0f, -24);
  float min_sub = std::ldexp(1.0f, -149), fmax = 3.40282347e38f;
  const Case cases[] = {
      // A double sum would lose the small product entirely (2^60 + 2^-60 - 2^60 = 0 in f64).
      {big, big, tiny, tiny, -std::ldexp(1.0f, 60), std::ldexp(1.0f, -60)},
      // Ties to even at f32 precision: 1 + 2^-24 is halfway between 1 and 1 + 2^-23 ...
      {1.0f, 1.0f, half_ulp, 1.0f, 0.0f, 1.0f},
      // ... and a further tiny term, below double precision relative to the sum, breaks the tie upward.
      {1.0f, 1.0f, half_ulp, 1.0f, std::ldexp(1.0f, -80), std::nextafter(1.0f, 2.0f)},
      {1.5f, 2.0f, -0.25f, 4.0f, 0.125f, 2.125f},
      // Subnormal result: 2^-75 * 2^-75 = 2^-150 is the midpoint between 0 and 2^-149; ties to even gives 0 ...
      {std::ldexp(1.0f, -75), std::ldexp(1.0f, -75), 0.0f, 1.0f, 0.0f, 0.0f},
      // ... and 2^-150 + 2^-200 is above the midpoint: 2^-149.
      {std::ldexp(1.0f, -75), std::ldexp(1.0f, -75), std::ldexp(1.0f, -100), std::ldexp(1.0f, -100), 0.0f, min_sub},
      // 3 * 2^-150 is a midpoint between 2^-149 and 2^-148: ties to even gives 2^-148.
      {std::ldexp(3.0f, -75), std::ldexp(1.0f, -75), 0.0f, 1.0f, 0.0f, std::ldexp(1.0f, -148)},
      // Overflow: FLT_MAX + FLT_MAX is inf; FLT_MAX*2 - FLT_MAX cancels back to FLT_MAX exactly.
      {fmax, 1.0f, fmax, 1.0f, 0.0f, INFINITY},
      {fmax, 2.0f, fmax, -1.0f, 0.0f, fmax},
      // Signs of exact zeros: -0 only when every term is -0.
      {1.0f, 1.0f, -1.0f, 1.0f, 0.0f, 0.0f},
      {-0.0f, 1.0f, 0.0f, -1.0f, -0.0f, -0.0f},
      {0.0f, 1.0f, 0.0f, -1.0f, -0.0f, 0.0f},
      {1.0f, 1.0f, -1.0f, 1.0f, -0.0f, 0.0f},
      // Infinities: propagate, or NaN for inf*0 and inf-inf.
      {INFINITY, 1.0f, 1.0f, 1.0f, 0.0f, INFINITY},
      {INFINITY, 0.0f, 1.0f, 1.0f, 0.0f, NAN},
      {INFINITY, 1.0f, 1.0f, 1.0f, -INFINITY, NAN},
      {NAN, 1.0f, 1.0f, 1.0f, 0.0f, NAN},
  };
  for (const Case& k : cases) {
    INFO("a0 " << k.a0 << " b0 " << k.b0 << " a1 " << k.a1 << " b1 " << k.b1 << " c " << k.c);
    CHECK(same_f32(exact_dot2_f32_mpfr(k.a0, k.b0, k.a1, k.b1, k.c), k.want));
    CHECK(same_f32(exact_dot2_f32(k.a0, k.b0, k.a1, k.b1, k.c), k.want));
    CHECK(same_f32(dot2_fused(k.a0, k.b0, k.a1, k.b1, k.c), k.want));
  }
}

TEST_CASE("dot2_fused equals the MPFR oracle on randomized wide-exponent inputs", "[sim][dot2][random]") {
  std::mt19937_64 rng(cdnajit::test::test_seed("dot2_fused vs MPFR", 20261126));
  auto u32 = [&] { return uint32_t(rng()); };
  auto finite_bf16 = [&] {  // any finite bf16, subnormals included
    for (;;) {
      uint16_t h = uint16_t(rng());
      if (((h >> 7) & 0xff) != 0xff) return bf16_bits(h);
    }
  };
  auto finite_f32 = [&] {
    for (;;) {
      uint32_t u = u32();
      if (((u >> 23) & 0xff) != 0xff) return f32_bits(u);
    }
  };
  // A bf16 with a random sign and mantissa and an unbiased exponent in [lo, hi].
  auto bf16_exp = [&](int lo, int hi) {
    int e = lo + int(rng() % uint64_t(hi - lo + 1));
    return std::ldexp(1.0f + float(rng() % 128) / 128.0f, e) * ((rng() & 1) ? -1.0f : 1.0f);
  };
  auto special = [&]() -> float {
    static const float pool[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 3.40282347e38f,
                                 -3.40282347e38f, std::ldexp(1.0f, -149), -std::ldexp(1.0f, -133)};
    return (rng() % 3) ? pool[rng() % std::size(pool)] : finite_bf16();
  };

  constexpr int kPerClass = 40000;
  struct Counts {
    int cases = 0, mismatches = 0, mpfr_path = 0, double_sum_wrong = 0, subnormal = 0, overflow = 0,
        plus_zero = 0, minus_zero = 0, nan = 0, inf_in = 0, ties = 0;
  } n;
  auto run = [&](float a0, float b0, float a1, float b1, float c) {
    float want = exact_dot2_f32_mpfr(a0, b0, a1, b1, c);
    float got = dot2_fused(a0, b0, a1, b1, c);
    float fast = exact_dot2_f32(a0, b0, a1, b1, c);  // the oracle's own double fast path, checked too
    // The simulator's 64-lane form (dot2_fused_lanes), the case in lane `cases % 64`, zeros elsewhere.
    alignas(64) float la0[64] = {}, lb0[64] = {}, la1[64] = {}, lb1[64] = {}, lc[64] = {};
    uint32_t lanes_out[64] = {};
    const int lane = n.cases % 64;
    la0[lane] = a0, lb0[lane] = b0, la1[lane] = a1, lb1[lane] = b1, lc[lane] = c;
    cdnajit::sim::dot2_fused_lanes(la0, lb0, la1, lb1, lc, uint64_t(1) << lane, lanes_out);
    const float got_lanes = std::bit_cast<float>(lanes_out[lane]);
    ++n.cases;
    if (!same_f32(got, want) || !same_f32(fast, want) || !same_f32(got_lanes, want)) {
      if (++n.mismatches <= 10)
        FAIL_CHECK("a0 " << std::hexfloat << a0 << " b0 " << b0 << " a1 " << a1 << " b1 " << b1 << " c " << c
                         << ": MPFR " << want << ", dot2_fused " << got << ", 64-lane form " << got_lanes
                         << ", oracle fast path " << fast);
    }
    float a[2] = {a0, a1}, b[2] = {b0, b1};
    n.mpfr_path += !cdnajit::reference::exact_dot_uses_fast_path(a, b, c);
    bool finite_in = std::isfinite(a0) && std::isfinite(b0) && std::isfinite(a1) && std::isfinite(b1) &&
                     std::isfinite(c);
    n.inf_in += !finite_in;
    if (finite_in) {
      float naive = float(double(a0) * b0 + double(a1) * b1 + double(c));  // what a plain double sum gives
      n.double_sum_wrong += !same_f32(naive, want);
      n.overflow += std::isinf(want);
    }
    n.subnormal += want != 0.0f && std::fabs(want) < std::ldexp(1.0f, -126);
    n.plus_zero += want == 0.0f && !std::signbit(want);
    n.minus_zero += want == 0.0f && std::signbit(want);
    n.nan += std::isnan(want);
    if (finite_in && std::fabs(b1) == 3.0f && a0 == b0 && c == -a0 * b0) {  // class 8: is a1*3 a tie?
      double p = double(a1) * b1;
      float r = float(p), other = std::nextafter(r, p > double(r) ? INFINITY : -INFINITY);
      n.ties += p != double(r) && std::fabs(p - double(r)) == std::fabs(double(other) - double(r)) / 2;
    }
  };

  for (int i = 0; i < kPerClass; ++i) {
    // 1. Any finite bf16 inputs and any finite f32 accumulator: exponent spans far beyond double.
    run(finite_bf16(), finite_bf16(), finite_bf16(), finite_bf16(), finite_f32());
    // 2. Near-cancellation: c is minus the rounded sum of the products, nudged by 0..3 ulps.
    {
      float a0 = bf16_exp(-60, 60), b0 = bf16_exp(-60, 60), a1 = bf16_exp(-60, 60), b1 = bf16_exp(-60, 60);
      if (rng() & 1) a1 = -a0 * b0 / b1;  // products nearly cancel each other
      float s = float(double(a0) * b0 + double(a1) * b1);
      uint32_t nudge = uint32_t(rng() % 4);
      float c = std::isfinite(s) ? -f32_bits(std::bit_cast<uint32_t>(s) + nudge) : 0.0f;
      if (rng() % 4 == 0) c = -0.0f;
      run(a0, b0, a1, b1, c);
    }
    // 3. Results around the subnormal range (products 2^-160 .. 2^-110).
    run(bf16_exp(-80, -55), bf16_exp(-80, -55), bf16_exp(-80, -55), bf16_exp(-80, -55),
        (rng() & 1) ? f32_bits(u32() & 0x807fffff) : bf16_exp(-149, -120));
    // 4. Results around overflow (products 2^120 .. 2^132, c near FLT_MAX).
    run(bf16_exp(58, 66), bf16_exp(58, 66), bf16_exp(58, 66), bf16_exp(58, 66),
        (rng() & 1) ? bf16_exp(120, 127) : -3.40282347e38f);
    // 5. Specials (zeros of both signs, infinities, NaN, extremes) mixed with random bf16.
    run(special(), special(), special(), special(), special());
    // 6. Full f32 inputs (24-bit significands, more than bf16 or f16 ever give the function).
    run(finite_f32(), finite_f32(), finite_f32(), finite_f32(), finite_f32());
    // 7. Signed zeros: each product is +-0 (a zero factor of either sign) or a tiny value that may underflow.
    {
      auto zero_or_tiny = [&] { return (rng() % 4) ? ((rng() & 1) ? -0.0f : 0.0f) : bf16_exp(-80, -76); };
      run(zero_or_tiny(), zero_or_tiny(), zero_or_tiny(), zero_or_tiny(), (rng() & 1) ? -0.0f : 0.0f);
    }
    // 8. Round-to-nearest ties behind a huge cancelling term: a0*b0 = -c = 2^k (k in 60..100) leaves
    //    a1*3, a 25-26-bit value that is often exactly halfway between two f32 values; the double
    //    sum 2^k + a1*3 is inexact, so the fixed-point path must round the tie.
    {
      float huge = std::ldexp(1.0f, 30 + int(rng() % 21));
      float a1 = std::ldexp(1.0f + float(u32() & 0x7fffff) * 0x1p-23f, int(rng() % 40) - 20);
      run(huge, huge, a1, (rng() & 1) ? 3.0f : -3.0f, -huge * huge);
    }
  }
  std::printf("dot2_fused vs MPFR: %d cases, %d mismatches; %d took the oracle's MPFR path, %d where a plain double "
              "sum rounds wrongly, %d subnormal results, %d overflows to inf from finite inputs, %d +0, %d -0, "
              "%d NaN, %d with a non-finite input, %d rounding ties behind a cancelled 2^60..2^100 term\n",
              n.cases, n.mismatches, n.mpfr_path, n.double_sum_wrong, n.subnormal, n.overflow, n.plus_zero,
              n.minus_zero, n.nan, n.inf_in, n.ties);
  CHECK(n.mismatches == 0);
  // The classes above must actually reach every region the claim covers.
  CHECK(n.mpfr_path >= kPerClass);
  CHECK(n.double_sum_wrong >= 1000);
  CHECK(n.subnormal >= 1000);
  CHECK(n.overflow >= 1000);
  CHECK(n.plus_zero >= 1000);
  CHECK(n.minus_zero >= 100);
  CHECK(n.nan >= 1000);
  CHECK(n.ties >= 1000);
}

// The simulator's bf16 row form (dot2_fused_bf16_rows: v_dot2_f32_bf16's operands made from the
// registers, one vector pass on AVX-512 hosts) against dot2_fused on the same five floats, lane by
// lane: random EXEC masks, neg_lo / neg_hi / c neg and abs, narrow exponent windows (exact in
// double) and any bits (NaN, infinities, subnormals, wide exponents: the per-lane fallback), and
// the destination aliasing each source (v_dot2c's C is its destination).
TEST_CASE("dot2_fused_bf16_rows equals dot2_fused lane by lane", "[sim][dot2][random]") {
  std::mt19937_64 rng(cdnajit::test::test_seed("dot2_fused_bf16_rows", 20261129));
  auto narrow16 = [&]() -> uint32_t {  // bf16 with exponent field 120..134
    return uint32_t(rng() & 0x807f) | uint32_t(120 + rng() % 15) << 7;
  };
  long checked = 0, mismatches = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int mode = int(rng() % 3);  // 0 narrow, 1 any bits, 2 mixed per lane
    uint32_t A[64], B[64], C[64], init[64];
    for (int l = 0; l < 64; ++l) {
      const bool wide = mode == 1 || (mode == 2 && (rng() & 1));
      A[l] = wide ? uint32_t(rng()) : narrow16() | narrow16() << 16;
      B[l] = wide ? uint32_t(rng()) : narrow16() | narrow16() << 16;
      C[l] = wide ? uint32_t(rng()) : std::bit_cast<uint32_t>(std::ldexp(float(int(rng() % 2001) - 1000), -int(rng() % 12)));
      init[l] = uint32_t(rng());
    }
    const uint32_t sign = 0x80000000u;
    cdnajit::sim::Dot2Bf16Signs s;
    s.a0 = (rng() & 1) ? sign : 0, s.a1 = (rng() & 1) ? sign : 0, s.b0 = (rng() & 1) ? sign : 0, s.b1 = (rng() & 1) ? sign : 0;
    s.c_xor = (rng() & 1) ? sign : 0, s.c_and = (rng() % 4 == 0) ? ~sign : ~0u;
    const uint64_t lanes = (rng() % 3 == 0) ? ~0ull : rng();
    uint32_t want[64];
    for (int l = 0; l < 64; ++l) {
      const float a0 = std::bit_cast<float>((A[l] << 16) ^ s.a0), a1 = std::bit_cast<float>((A[l] & 0xffff0000u) ^ s.a1);
      const float b0 = std::bit_cast<float>((B[l] << 16) ^ s.b0), b1 = std::bit_cast<float>((B[l] & 0xffff0000u) ^ s.b1);
      const float c = std::bit_cast<float>((C[l] ^ s.c_xor) & s.c_and);
      want[l] = ((lanes >> l) & 1) ? std::bit_cast<uint32_t>(dot2_fused(a0, b0, a1, b1, c)) : init[l];
    }
    // r separate, r = C, r = A (the sources of the aliased call are copies holding the inactive lanes' init).
    for (int alias = 0; alias < 3; ++alias) {
      uint32_t r[64], a[64], b[64], c[64];
      std::copy(A, A + 64, a);
      std::copy(B, B + 64, b);
      std::copy(C, C + 64, c);
      std::copy(init, init + 64, r);
      uint32_t* out = r;
      if (alias == 1) out = c;
      if (alias == 2) out = a;
      if (alias) {  // the aliased source's inactive lanes are the destination's old values
        for (int l = 0; l < 64; ++l)
          if (!((lanes >> l) & 1)) out[l] = init[l];
        // An active lane of the aliased source keeps its value until the call (compared below through want).
      }
      if (alias == 1)
        for (int l = 0; l < 64; ++l) c[l] = ((lanes >> l) & 1) ? C[l] : init[l];
      if (alias == 2)
        for (int l = 0; l < 64; ++l) a[l] = ((lanes >> l) & 1) ? A[l] : init[l];
      cdnajit::sim::dot2_fused_bf16_rows(a, b, c, s, lanes, out);
      for (int l = 0; l < 64; ++l) {
        ++checked;
        if (out[l] != want[l] && ++mismatches <= 5)
          FAIL_CHECK("trial " << trial << " alias " << alias << " lane " << l << ": got " << std::hex << out[l] << ", want "
                              << want[l] << std::dec);
      }
    }
  }
  std::printf("dot2_fused_bf16_rows: %ld lanes checked\n", checked);
  CHECK(mismatches == 0);
}
