// f32 division, reciprocal, square root and the transcendental calls clang-22 lowers without a
// device library (expf, exp2f, logf, log2f, sinf, cosf, and the v_rcp / v_rsq / v_exp / v_log /
// v_sin / v_cos builtins) on gfx942 and gfx950, in the default denormal mode (f32 denormals kept).
// Two kinds of check, kept apart on purpose:
//  - bit-exact where IEEE 754 defines the result: the correctly rounded default-flag a / b, 1.0f / x
//    (HIP's __frcp_rn), sqrtf and 1.0f / sqrtf(x) on every input (oracle: the host's IEEE binary32
//    division and square root, x86 SSE with denormals), and the transcendental calls at the points
//    where IEEE 754-2008 section 9.2 defines them exactly (+-0, +-inf, NaN, negatives into log, 1
//    into log); the reciprocal-multiply form x * v_rcp_f32(y) on zero / infinite / NaN divisors, where
//    the reciprocal of +-0 / +-inf / NaN is exact (+-inf / +-0 / NaN) and the product is one IEEE
//    multiplication;
//  - within a bound, not bit-exact, for everything else the hardware approximates: AMD does not
//    document the exact bits of v_exp_f32, v_log_f32, v_rcp_f32, v_rsq_f32, v_sin_f32, v_cos_f32,
//    so no bit-exact oracle is invented for them. Bounds: 1 ulp for the single instructions v_rcp,
//    v_rsq, v_exp, v_log (the ISA guide's stated precision), 2 ulp for -ffast-math a / b (a 1-ulp
//    reciprocal and one rounded multiplication), 3 ulp for the library calls expf / exp2f / logf /
//    log2f (OpenCL 1.2's single-precision requirement, which LLVM's lowering of the intrinsics is
//    written to meet), and 2^-19 absolute for sinf / cosf / v_sin / v_cos on |x| <= 16 (an absolute
//    bound: relative error is meaningless at their zeros). The references are the host's double
//    precision libm values (errors far below one f32 ulp).
// Also f64 a / b, 1.0 / x and sqrt, correctly rounded by clang's inline sequences: bit-exact.
// Inputs: special values and a seeded random sweep (CDNAJIT_TEST_SEED, printed).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>

#include "tests/sim/ieee_oracle.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace simtest;
using namespace ieee_oracle;
using cdnajit::Arch;

namespace {

// One source, compiled twice: with the default flags (kernel `exact_math`, `approx`) and with
// -ffast-math (kernel `fast`).
const char* kSrc = R"(
extern "C" __global__ void exact_math(const float* a, const float* b, float* o) {
  unsigned i = bid() * 64 + tid();
  float x = a[i], y = b[i];
  float* p = o + i * 12;
  p[0] = x / y;
  p[1] = 1.0f / x;
  p[2] = __builtin_sqrtf(x);
  p[3] = 1.0f / __builtin_sqrtf(x);
  p[4] = __builtin_expf(x);
  p[5] = __builtin_exp2f(x);
  p[6] = __builtin_logf(x);
  p[7] = __builtin_log2f(x);
  p[8] = __builtin_sinf(x);
  p[9] = __builtin_cosf(x);
  p[10] = x * __builtin_amdgcn_rcpf(y);
}
extern "C" __global__ void approx(const float* a, float* o) {
  unsigned i = bid() * 64 + tid();
  float x = a[i];
  float* p = o + i * 6;
  p[0] = __builtin_amdgcn_rcpf(x);
  p[1] = __builtin_amdgcn_rsqf(x);
  p[2] = __builtin_amdgcn_exp2f(x);
  p[3] = __builtin_amdgcn_logf(x);
  p[4] = __builtin_amdgcn_sinf(x);
  p[5] = __builtin_amdgcn_cosf(x);
}
extern "C" __global__ void fast(const float* a, const float* b, float* o) {
  unsigned i = bid() * 64 + tid();
  float x = a[i], y = b[i];
  o[2 * i] = x / y;
  o[2 * i + 1] = 1.0f / __builtin_sqrtf(x);
}
)";

double fv(uint32_t u) { return double(simtest::flt(u)); }

// Distance in f32 ulps between a result and a reference value r (a double): |got - r| over the
// spacing of f32 numbers at r (2^-149 at the bottom).
double ulp_error(uint32_t got, double r) {
  const double g = fv(got);
  if (std::isinf(r) || std::isinf(g)) return (g == r) ? 0 : INFINITY;
  int e;
  (void)std::frexp(r, &e);
  const double ulp = std::ldexp(1.0, std::max(e - 24, -149));
  return std::fabs(g - r) / ulp;
}

struct Bounded {
  size_t checked = 0, bad = 0;
  double worst = 0;
  std::string first;
  void check(double err, double bound, const std::string& what) {
    ++checked;
    worst = std::max(worst, err);
    if (!(err <= bound) && ++bad <= 12) first += "\n  " + what + ": error " + std::to_string(err) + " > bound " + std::to_string(bound);
  }
};

}  // namespace

TEST_CASE("f32 division, sqrt and transcendentals: exact where IEEE defines them, within a bound elsewhere",
          "[sim][numerics][special_math]") {
  std::string why;
  if (!load_hip_or_skip(kSrc, Arch::gfx942, why)) CDNAJIT_SKIP(why);
  const uint64_t seed = cdnajit::test::test_seed("test_clang_special_math", 20261126u);
  std::mt19937_64 g(seed);
  const uint32_t specials[] = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
                               0x80800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7f7fffff,
                               0xff7fffff, 0x3f800000, 0xbf800000, 0x40000000, 0x3f000000, 0x40400000};
  const int ns = int(std::size(specials)), n = 1024;
  std::vector<uint32_t> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    if (i < ns * ns) {  // every special against every special
      a[size_t(i)] = specials[i / ns];
      b[size_t(i)] = specials[i % ns];
      continue;
    }
    const int kind = i % 4;
    auto rnd = [&](int lo, int hi) {
      float v = std::ldexp(float((1u << 23) | uint32_t(g() & 0x7fffff)), int(g() % uint64_t(hi - lo + 1)) + lo - 23);
      return simtest::bits((g() & 1) ? -v : v);
    };
    a[size_t(i)] = kind == 0 ? rnd(-7, 6) : kind == 1 ? rnd(-110, 100) : kind == 2 ? uint32_t(g() & 0x807fffff) : rnd(-126, 127);
    b[size_t(i)] = rnd(-40, 40);
  }
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO("arch " << cdnajit::arch_name(arch));
    auto co = load_hip(kSrc, arch);
    auto co_fast = load_hip(kSrc, arch, {"-ffast-math"});
    Device dev(arch);
    const std::string de = dev.sim.disassemble(co, "exact_math"), da = dev.sim.disassemble(co, "approx"),
                      df = dev.sim.disassemble(co_fast, "fast");
    for (const char* m : {"v_div_scale_f32", "v_div_fmas_f32", "v_div_fixup_f32", "v_sqrt_f32", "v_exp_f32", "v_log_f32",
                          "v_sin_f32", "v_cos_f32", "v_rcp_f32"}) {
      INFO(m);
      CHECK(de.find(m) != std::string::npos);
    }
    for (const char* m : {"v_rcp_f32", "v_rsq_f32", "v_exp_f32", "v_log_f32", "v_sin_f32", "v_cos_f32"}) {
      INFO(m);
      CHECK(da.find(m) != std::string::npos);
    }
    CHECK(df.find("v_rcp_f32") != std::string::npos);
    CHECK(df.find("v_rsq_f32") != std::string::npos);
    CHECK(df.find("v_div_scale") == std::string::npos);  // the fast form really is the reciprocal one
    REQUIRE((de + da + df).find("<not implemented>") == std::string::npos);
    uint64_t dA = dev.upload(a), dB = dev.upload(b), dO = dev.upload(std::vector<uint32_t>(size_t(n) * 12)),
             dP = dev.upload(std::vector<uint32_t>(size_t(n) * 6)), dF = dev.upload(std::vector<uint32_t>(size_t(n) * 2));
    dev.run(co, "exact_math", ArgPack().add(dA).add(dB).add(dO), dims1(n / 64, 64));
    dev.run(co, "approx", ArgPack().add(dA).add(dP), dims1(n / 64, 64));
    dev.run(co_fast, "fast", ArgPack().add(dA).add(dB).add(dF), dims1(n / 64, 64));
    auto o = dev.download<uint32_t>(dO, size_t(n) * 12), p = dev.download<uint32_t>(dP, size_t(n) * 6),
         f = dev.download<uint32_t>(dF, size_t(n) * 2);
    Tally exact;
    Bounded bound;
    size_t specials_checked = 0;
    for (int i = 0; i < n; ++i) {
      const float x = simtest::flt(a[size_t(i)]), y = simtest::flt(b[size_t(i)]);
      const std::string xs = " x=" + hex(a[size_t(i)]), xys = xs + " y=" + hex(b[size_t(i)]);
      const uint32_t* r = &o[size_t(i) * 12];
      // Correctly rounded everywhere (host IEEE binary32 operations).
      exact.check(r[0], simtest::bits(x / y), &kF32, "x / y" + xys);
      exact.check(r[1], simtest::bits(1.0f / x), &kF32, "1.0f / x" + xs);
      exact.check(r[2], simtest::bits(std::sqrt(x)), &kF32, "sqrtf(x)" + xs);
      exact.check(r[3], simtest::bits(1.0f / std::sqrt(x)), &kF32, "1.0f / sqrtf(x)" + xs);
      // IEEE 754-2008 section 9.2 special cases, exact; elsewhere the bounds.
      const bool nan = std::isnan(x), zero = x == 0, inf = std::isinf(x);
      auto special = [&](uint32_t got, double want, const char* what) {
        ++specials_checked;
        exact.check(got, std::isnan(want) ? 0x7fc00000u : simtest::bits(float(want)), &kF32, what + xs);
      };
      if (nan || zero || inf) {
        special(r[4], nan ? NAN : zero ? 1.0 : x > 0 ? INFINITY : 0.0, "expf");
        special(r[5], nan ? NAN : zero ? 1.0 : x > 0 ? INFINITY : 0.0, "exp2f");
        special(r[6], nan ? NAN : zero ? -INFINITY : x > 0 ? INFINITY : NAN, "logf");
        special(r[7], nan ? NAN : zero ? -INFINITY : x > 0 ? INFINITY : NAN, "log2f");
        special(r[8], nan || inf ? NAN : double(x), "sinf");  // sin(+-0) = +-0
        special(r[9], nan || inf ? NAN : 1.0, "cosf");
      } else {
        if (x < 0) { special(r[6], NAN, "logf of a negative"); special(r[7], NAN, "log2f of a negative"); }
        else if (x == 1.0f) { special(r[6], 0.0, "logf(1)"); special(r[7], 0.0, "log2f(1)"); }
        else {
          bound.check(ulp_error(r[6], std::log(double(x))), 3, "logf" + xs);
          bound.check(ulp_error(r[7], std::log2(double(x))), 3, "log2f" + xs);
        }
        if (std::fabs(std::exp(double(x))) < 3.4e38) bound.check(ulp_error(r[4], std::exp(double(x))), 3, "expf" + xs);
        if (std::fabs(std::exp2(double(x))) < 3.4e38) bound.check(ulp_error(r[5], std::exp2(double(x))), 3, "exp2f" + xs);
        if (std::fabs(x) <= 16) {
          bound.check(std::fabs(fv(r[8]) - std::sin(double(x))) * 0x1p19, 1, "sinf (error in 2^-19)" + xs);
          bound.check(std::fabs(fv(r[9]) - std::cos(double(x))) * 0x1p19, 1, "cosf (error in 2^-19)" + xs);
        }
      }
      // x * v_rcp_f32(y) on +-0 / +-inf / NaN divisors: exact.
      if (std::isnan(y) || y == 0 || std::isinf(y)) {
        const float rcp = std::isnan(y) ? NAN : y == 0 ? std::copysign(INFINITY, y) : std::copysign(0.0f, y);
        ++specials_checked;
        exact.check(r[10], simtest::bits(x * rcp), &kF32, "x * rcp(y)" + xys);
      }
      // Single instructions on normal inputs with normal results: 1 ulp.
      const uint32_t* q = &p[size_t(i) * 6];
      const double ax = std::fabs(double(x));
      if (std::isnormal(x) && ax < 0x1p126 && ax > 0x1p-126) {
        bound.check(ulp_error(q[0], 1.0 / double(x)), 1, "v_rcp_f32" + xs);
        if (x > 0) bound.check(ulp_error(q[1], 1.0 / std::sqrt(double(x))), 1, "v_rsq_f32" + xs);
        if (x > 0 && x != 1.0f) bound.check(ulp_error(q[3], std::log2(double(x))), 1, "v_log_f32" + xs);
        if (ax < 126) bound.check(ulp_error(q[2], std::exp2(double(x))), 1, "v_exp_f32" + xs);
        if (ax <= 16) {  // revolutions
          bound.check(std::fabs(fv(q[4]) - std::sin(6.283185307179586 * double(x))) * 0x1p19, 1, "v_sin_f32 (error in 2^-19)" + xs);
          bound.check(std::fabs(fv(q[5]) - std::cos(6.283185307179586 * double(x))) * 0x1p19, 1, "v_cos_f32 (error in 2^-19)" + xs);
        }
      }
      // -ffast-math: finite normal operands and quotients.
      const double quo = double(x) / double(y);
      if (std::isnormal(x) && std::isnormal(y) && std::fabs(quo) > 0x1p-125 && std::fabs(quo) < 0x1p126 && std::fabs(double(y)) < 0x1p125)
        bound.check(ulp_error(f[size_t(2 * i)], quo), 2, "fast x / y" + xys);
      if (std::isnormal(x) && x > 0 && x < 0x1p126) bound.check(ulp_error(f[size_t(2 * i + 1)], 1.0 / std::sqrt(double(x))), 1, "fast rsqrt" + xs);
    }
    INFO("bit-exact checks " << exact.checked << " (" << specials_checked << " at special values), mismatches " << exact.bad << exact.first);
    CHECK(exact.bad == 0);
    INFO("bounded checks " << bound.checked << ", worst error " << bound.worst << " (in each check's unit), over the bound " << bound.bad << bound.first);
    CHECK(bound.bad == 0);
    CHECK(specials_checked > 400);
    CHECK(bound.checked > 1000);
  }
}

TEST_CASE("f64 division, reciprocal and sqrt over special values and a random sweep are correctly rounded",
          "[sim][numerics][special_math]") {
  // clang-22 lowers these inline (v_div_scale/fmas/fixup_f64 for a / b and 1.0 / x; v_rsq_f64 with
  // scaling and refinement for sqrt), so every result is IEEE-defined: bit-exact against the host's
  // binary64 division and square root (NaN: any NaN).
  const char* src = R"(
extern "C" __global__ void dmath(const double* a, const double* b, double* o) {
  unsigned i = bid() * 64 + tid();
  double x = a[i], y = b[i];
  o[3 * i] = x / y;
  o[3 * i + 1] = 1.0 / x;
  o[3 * i + 2] = __builtin_sqrt(x);
})";
  std::string why;
  if (!load_hip_or_skip(src, Arch::gfx942, why)) CDNAJIT_SKIP(why);
  const uint64_t seed = cdnajit::test::test_seed("test_clang_special_math f64", 20261126u);
  std::mt19937_64 g(seed);
  const uint64_t specials[] = {0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001, 0x000fffffffffffff,
                               0x0010000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001,
                               0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000, 0xbff0000000000000, 0x4000000000000000,
                               0x3fe0000000000000, 0x4008000000000000, 0x0000000000000003};
  const int ns = int(std::size(specials)), n = 1024;
  std::vector<uint64_t> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    if (i < ns * ns) { a[size_t(i)] = specials[i / ns]; b[size_t(i)] = specials[i % ns]; continue; }
    auto rnd = [&](int lo, int hi) {
      double v = std::ldexp(double((uint64_t(1) << 52) | (g() >> 12)), int(g() % uint64_t(hi - lo + 1)) + lo - 52);
      return dbits((g() & 1) ? -v : v);
    };
    const int kind = i % 3;
    a[size_t(i)] = kind == 0 ? rnd(-1022, 1023) : kind == 1 ? (g() & 0x800fffffffffffffull) : rnd(-30, 30);  // wide, subnormal, narrow
    b[size_t(i)] = kind == 2 ? rnd(-30, 30) : rnd(-1022, 1023);
    if (i % 7 == 0) a[size_t(i)] &= ~(uint64_t(1) << 63);  // more positive inputs for sqrt
  }
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO("arch " << cdnajit::arch_name(arch));
    auto co = load_hip(src, arch);
    Device dev(arch);
    const std::string dis = dev.sim.disassemble(co, "dmath");
    for (const char* m : {"v_div_scale_f64", "v_div_fmas_f64", "v_div_fixup_f64", "v_rsq_f64"}) {
      INFO(m);
      CHECK(dis.find(m) != std::string::npos);
    }
    REQUIRE(dis.find("<not implemented>") == std::string::npos);
    uint64_t dA = dev.upload(a), dB = dev.upload(b), dO = dev.upload(std::vector<uint64_t>(size_t(n) * 3));
    dev.run(co, "dmath", ArgPack().add(dA).add(dB).add(dO), dims1(n / 64, 64));
    auto o = dev.download<uint64_t>(dO, size_t(n) * 3);
    Tally t;
    for (int i = 0; i < n; ++i) {
      const double x = dval(a[size_t(i)]), y = dval(b[size_t(i)]);
      const std::string xs = " x=" + hex(a[size_t(i)]);
      t.check(o[size_t(3 * i)], dbits(x / y), &kF64, "x / y" + xs + " y=" + hex(b[size_t(i)]));
      t.check(o[size_t(3 * i + 1)], dbits(1.0 / x), &kF64, "1.0 / x" + xs);
      t.check(o[size_t(3 * i + 2)], dbits(std::sqrt(x)), &kF64, "sqrt(x)" + xs);
    }
    INFO("checked " << t.checked << ", mismatches " << t.bad << t.first);
    CHECK(t.bad == 0);
  }
}
