// Correctly rounded transcendentals (correctly_rounded.hpp). Ziv's strategy: evaluate in double with
// a proven relative error bound, and round to the target format when both ends of the error interval
// round to the same value; otherwise (about once in 2^21 f32 inputs; never for f16, checked on every input) ask MPFR for
// the correctly rounded result. Only IEEE-754 basic operations (+ - * / sqrt fma, correctly rounded on
// every conforming host) and exact functions (floor, ldexp, frexp) are used on the fast path, never
// the host's libm approximations, so the bits do not depend on the host's C library.
//
// Error analysis (u = 2^-53, the unit roundoff of double); each fast path below is within ~6u of the
// exact value, and kFastRel = 2^-46 (~2^7 u) is the bound the rounding test uses, leaving a wide
// margin for the analysis' slack and for the rounding of y +- rel*|y| itself (< u*|y|):
//  exp2: x = n + r, |r| <= 1/2 (exact); 2^r by its Taylor series to degree 15 (next term < 2^-68);
//        Horner's rounding errors < 3u relative (the terms shrink by a factor <= 0.35 each, and
//        2^r >= 0.7); 2^n scaling is exact.
//  log2: x = 2^e m, m in [sqrt(1/2), sqrt(2)) (exact); log2(m) = 2 atanh(s) / ln 2, s = (m-1)/(m+1)
//        (m-1 exact by Sterbenz; s within 2u), atanh by its series to s^23 (|s| <= 0.172, next
//        term < 2^-61 relative); < 5u for log2(m), and e + log2(m) adds 1u (|e + log2 m| >= |e|/2).
//  sin/cos(2 pi x): 4x = n + f, |f| <= 1/2 (exact); sin(pi f/2) and cos(pi f/2) by their series to
//        degree 17 / 18 (next terms < 2^-63 relative), < 4u; the quadrant (n mod 4) picks which.
//  rsq:  1 / sqrt(x) in double: two correctly rounded operations, < 2.5u.
// These bounds are checked against MPFR by tests/sim/test_correctly_rounded.cpp.
#include "runtime/sim/correctly_rounded.hpp"

#include <mpfr.h>

#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>

#include "runtime/sim/fp.hpp"

namespace cdnajit::sim {
namespace {

constexpr double kFastRel = 0x1p-46;
constexpr double kLn2 = 0x1.62e42fefa39efp-1;          // ln 2, correctly rounded
constexpr double kTwoOverLn2 = 0x1.71547652b82fep+1;   // 2 / ln 2
constexpr double kHalfPi = 0x1.921fb54442d18p+0;       // pi / 2
constexpr double kSqrtHalf = 0x1.6a09e667f3bcdp-1;     // sqrt(1/2) (only a range split: need not be exact)

// ln2^i / i!, i = 0..15 (each within a few u: only the first two matter at that level).
constexpr std::array<double, 16> exp2_coeffs() {
  std::array<double, 16> c{};
  c[0] = 1;
  for (int i = 1; i < 16; ++i) c[i] = c[i - 1] * kLn2 / i;
  return c;
}
// (pi/2)^k / k! with the series' signs: sin uses the odd k (1..17), cos the even k (0..18).
constexpr std::array<double, 19> trig_coeffs() {
  std::array<double, 19> c{};
  c[0] = 1;
  for (int k = 1; k < 19; ++k) c[k] = c[k - 1] * kHalfPi / k;
  for (int k = 2; k < 19; ++k)
    if ((k / 2) % 2) c[k] = -c[k];
  return c;
}
constexpr auto kExp2 = exp2_coeffs();
constexpr auto kTrig = trig_coeffs();
static_assert(kTrig[1] > 0 && kTrig[2] < 0 && kTrig[3] < 0 && kTrig[4] > 0 && kTrig[5] > 0 && kTrig[6] < 0 && kTrig[18] < 0,
              "sin/cos series signs: + - - + + - - ...");

std::atomic<uint64_t> g_fallbacks{0};

double exp2_fast(double x) {  // |x| < 1000, not an integer
  const double n = std::floor(x + 0.5), r = x - n;  // n nearest x (x + 0.5 may round only when n = 0); r exact
  double p = kExp2[15];
  for (int i = 14; i >= 0; --i) p = p * r + kExp2[i];
  return std::ldexp(p, int(n));
}

double log2_fast(double x) {  // x > 0 finite
  int e;
  double m = std::frexp(x, &e);
  if (m < kSqrtHalf) m *= 2, --e;
  const double s = (m - 1) / (m + 1), s2 = s * s;
  double t = 1.0 / 23;
  for (int k = 21; k >= 3; k -= 2) t = t * s2 + 1.0 / k;
  const double atanh = s + s * (s2 * t);
  return double(e) + atanh * kTwoOverLn2;
}

// sin(2 pi x) or cos(2 pi x) for finite non-zero x; rel = 0 when 4x is an integer (exact result).
FastValue sincos_rev(double x, bool cosine) {
  const double v = 4 * x;                                            // exact
  const double n = std::fabs(v) >= 0x1p52 ? v : std::floor(v + 0.5);  // nearest integer, exact
  const double f = v - n;                                            // exact, |f| <= 1/2
  int q = int(n - 4 * std::floor(n * 0.25));                         // n mod 4, exact
  if (cosine) q = (q + 1) & 3;                                       // cos(t) = sin(t + pi/2)
  if (f == 0) {
    static constexpr double kExact[4] = {0.0, 1.0, 0.0, -1.0};
    return {kExact[q], 0};
  }
  const double f2 = f * f;  // exact (f has at most 24 significant bits for f16/f32 inputs)
  double y;
  if (q == 0 || q == 2) {  // +-sin(pi f / 2)
    double p = kTrig[17];
    for (int k = 15; k >= 1; k -= 2) p = p * f2 + kTrig[k];
    y = f * p;
  } else {  // +-cos(pi f / 2)
    double p = kTrig[18];
    for (int k = 16; k >= 0; k -= 2) p = p * f2 + kTrig[k];
    y = p;
  }
  return {q >= 2 ? -y : y, kFastRel};
}

uint64_t quiet_nan(uint64_t x, int bits) {
  return bits == 16 ? (x | 0x200) : bits == 32 ? (x | 0x400000) : (x | 1ull << 51);
}
uint64_t default_nan(int bits) { return bits == 16 ? 0xfe00 : bits == 32 ? 0xffc00000u : 0xfff8000000000000ull; }

struct Format {
  int bits;        // 16, 32, 64
  int precision;   // significand bits: 11, 24, 53
  int min_exp;     // exponent of the smallest subnormal: -24, -149, -1074
  int max_exp;     // results >= 2^max_exp overflow: 16, 128, 1024
};
constexpr Format kF16{16, 11, -24, 16}, kF32{32, 24, -149, 128}, kF64{64, 53, -1074, 1024};

uint64_t round_to(const Format& fmt, double v) {
  if (fmt.bits == 16) return f64_to_f16(v);
  if (fmt.bits == 32) return bits_of(float(v));
  uint64_t u;
  std::memcpy(&u, &v, 8);
  return u;
}
uint64_t bits_inf(const Format& fmt, bool neg) {
  const uint64_t inf = fmt.bits == 16 ? 0x7c00 : fmt.bits == 32 ? 0x7f800000u : 0x7ff0000000000000ull;
  return inf | (neg ? 1ull << (fmt.bits - 1) : 0);
}

// MPFR's correctly rounded f(x) in the format: rounded at the format's precision with an unbounded
// exponent, then (IEEE 754's definition) infinity when that reaches 2^max_exp, and for results below
// the normal range rounded directly onto the subnormal grid (at the precision left there), so that
// no value is rounded twice. Changes no MPFR global state (exponent range); MPFR's own caches (pi for
// sinu/cosu) are per thread in a thread-safe build, and a build without TLS is serialised here.
uint64_t mpfr_rounded(Transcendental f, const Format& fmt, double xd) {
  g_fallbacks.fetch_add(1, std::memory_order_relaxed);
  static std::mutex no_tls_mutex;
  std::unique_lock<std::mutex> lock(no_tls_mutex, std::defer_lock);
  if (!mpfr_buildopt_tls_p()) lock.lock();
  mpfr_t x, t;
  mpfr_init2(x, 53);
  mpfr_init2(t, fmt.precision + 8);
  mpfr_set_d(x, xd, MPFR_RNDN);  // exact
  auto eval = [&](mpfr_t r, mpfr_rnd_t rnd) -> int {
    switch (f) {
      case Transcendental::Exp2: return mpfr_exp2(r, x, rnd);
      case Transcendental::Log2: return mpfr_log2(r, x, rnd);
      case Transcendental::Rcp: return mpfr_ui_div(r, 1, x, rnd);
      case Transcendental::Rsq: return mpfr_rec_sqrt(r, x, rnd);
      case Transcendental::Sqrt: return mpfr_sqrt(r, x, rnd);
      case Transcendental::SinRev: return mpfr_sinu(r, x, 1, rnd);
      case Transcendental::CosRev: return mpfr_cosu(r, x, 1, rnd);
    }
    return 0;
  };
  // The exact result's binade: rounding toward zero never leaves it.
  const int tz = eval(t, MPFR_RNDZ);
  uint64_t out;
  if (mpfr_zero_p(t)) {
    out = round_to(fmt, mpfr_signbit(t) ? -0.0 : 0.0);
  } else {
    const bool neg = mpfr_signbit(t);
    const long e = mpfr_get_exp(t);  // |exact| in [2^(e-1), 2^e)
    const long room = e - fmt.min_exp;  // significand bits the format holds at that binade
    if (room >= 1) {
      mpfr_t r;
      mpfr_init2(r, room < fmt.precision ? room : fmt.precision);
      eval(r, MPFR_RNDN);
      if (mpfr_get_exp(r) > fmt.max_exp) out = bits_inf(fmt, neg);
      else out = round_to(fmt, mpfr_get_d(r, MPFR_RNDN));  // exact: r is a value of the format
      mpfr_clear(r);
    } else {
      // Below half the smallest subnormal, or in [2^(min-1), 2^min): 0 unless above the midpoint
      // 2^(min-1), which ties to even (0).
      const bool above_half = room == 0 && !(tz == 0 && mpfr_cmp_si_2exp(t, neg ? -1 : 1, fmt.min_exp - 1) == 0);
      const double v = above_half ? std::ldexp(1.0, fmt.min_exp) : 0.0;
      out = round_to(fmt, neg ? -v : v);
    }
  }
  mpfr_clear(x);
  mpfr_clear(t);
  return out;
}

// The correctly rounded value of fast value `fv` (for input xd), or MPFR's when the error interval
// straddles a rounding boundary.
uint64_t decide(Transcendental f, const Format& fmt, double xd, FastValue fv) {
  if (fv.rel == 0) return round_to(fmt, fv.y);
  const double e = std::fabs(fv.y) * fv.rel;
  const uint64_t lo = round_to(fmt, fv.y - e), hi = round_to(fmt, fv.y + e);
  if (lo == hi) return lo;
  return mpfr_rounded(f, fmt, xd);
}

// Value of raw bits in the format, as a double (exact).
double value_of(const Format& fmt, uint64_t x) {
  if (fmt.bits == 16) return f16_to_f32(uint16_t(x));
  if (fmt.bits == 32) return f32_of(uint32_t(x));
  double d;
  std::memcpy(&d, &x, 8);
  return d;
}

// f16 and f32 (and the f64 Rcp/Sqrt): special inputs, then the fast value or the IEEE operation.
uint64_t evaluate(Transcendental f, const Format& fmt, uint64_t bits) {
  const double x = value_of(fmt, bits);
  if (std::isnan(x)) return quiet_nan(bits, fmt.bits);
  const uint64_t nan = default_nan(fmt.bits);
  switch (f) {
    case Transcendental::Rcp:
    case Transcendental::Sqrt: {
      // IEEE-754 division and square root are correctly rounded on every conforming host. For
      // f16 and f32 they are done in a format with at least 2p+2 significand bits and rounded
      // once more: that double rounding is innocuous for / and sqrt (S. A. Figueroa, "When is
      // double rounding innocuous?", ACM SIGNUM Newsletter 30(3), 1995).
      if (f == Transcendental::Sqrt && x < 0) return nan;  // sqrt(-0) = -0 stays
      if (fmt.bits == 64) return round_to(fmt, f == Transcendental::Rcp ? 1.0 / x : std::sqrt(x));
      const float xf = float(x), r = f == Transcendental::Rcp ? 1.0f / xf : std::sqrt(xf);  // xf exact
      return fmt.bits == 16 ? f32_to_f16(bits_of(r)) : bits_of(r);
    }
    case Transcendental::Exp2:
      if (std::isinf(x)) return x > 0 ? bits_inf(fmt, false) : round_to(fmt, 0.0);
      if (x >= 1000) return bits_inf(fmt, false);
      if (x <= -1000) return round_to(fmt, 0.0);
      if (x == std::floor(x)) return round_to(fmt, std::ldexp(1.0, int(x)));  // exact
      return decide(f, fmt, x, {exp2_fast(x), kFastRel});
    case Transcendental::Log2:
      if (x < 0) return nan;
      if (x == 0) return bits_inf(fmt, true);
      if (std::isinf(x)) return bits_inf(fmt, false);
      if (x == 1) return round_to(fmt, 0.0);
      return decide(f, fmt, x, {log2_fast(x), kFastRel});
    case Transcendental::Rsq:
      if (x == 0) return bits_inf(fmt, std::signbit(x));
      if (x < 0) return nan;
      if (std::isinf(x)) return round_to(fmt, 0.0);
      return decide(f, fmt, x, {1.0 / std::sqrt(x), kFastRel});
    case Transcendental::SinRev:
    case Transcendental::CosRev: {
      const bool cosine = f == Transcendental::CosRev;
      if (std::isinf(x)) return nan;
      if (x == 0) return cosine ? round_to(fmt, 1.0) : bits;  // sin(+-0) = +-0
      return decide(f, fmt, x, sincos_rev(x, cosine));
    }
  }
  return nan;
}

// 1/sqrt(x) for a finite positive double, correctly rounded: y0 = 1/sqrt(m) (m the mantissa, with
// an even exponent split off), then one Newton correction in double-double. r = 1 - m*y0^2 is
// computed with exact products (fma) to within 2^-101 (1 - qh is exact by Sterbenz, the other two
// subtractions round at most 2^-102 each); y0 * (r/2 + 3r^2/8) is the correction to within
// 2^-101 * y0 (the next term, 5r^3/16, is below 2^-140). So the exact result is within
// y0 * 2^-100 of y0 + c, and 2^-96 * y0 is used as the bound.
uint64_t rsq_f64(double x) {
  int e;
  double m = std::frexp(x, &e);
  if (e & 1) m *= 2, --e;  // x = m * 2^e, e even, m in [0.5, 2)
  const double y0 = 1.0 / std::sqrt(m);
  const double ph = y0 * y0, pl = std::fma(y0, y0, -ph);
  const double qh = m * ph, ql = std::fma(m, ph, -qh);
  const double r = ((1.0 - qh) - ql) - m * pl;
  const double c = y0 * (r * (0.5 + 0.375 * r));
  const double err = y0 * 0x1p-96;
  const double lo = y0 + (c - err), hi = y0 + (c + err);
  if (lo == hi) return round_to(kF64, std::ldexp(lo, -e / 2));  // exact scaling: the result is normal
  return mpfr_rounded(Transcendental::Rsq, kF64, x);
}

}  // namespace

const char* name_of(Transcendental f) {
  switch (f) {
    case Transcendental::Exp2: return "exp2";
    case Transcendental::Log2: return "log2";
    case Transcendental::Rcp: return "rcp";
    case Transcendental::Rsq: return "rsq";
    case Transcendental::Sqrt: return "sqrt";
    case Transcendental::SinRev: return "sin(2 pi x)";
    case Transcendental::CosRev: return "cos(2 pi x)";
  }
  return "?";
}

uint32_t transcendental_f32(Transcendental f, uint32_t x) { return uint32_t(evaluate(f, kF32, x)); }
uint16_t transcendental_f16(Transcendental f, uint16_t x) { return uint16_t(evaluate(f, kF16, x)); }

uint64_t transcendental_f64(Transcendental f, uint64_t bits) {
  if (f == Transcendental::Rcp || f == Transcendental::Sqrt) return evaluate(f, kF64, bits);
  double x;
  std::memcpy(&x, &bits, 8);
  if (f != Transcendental::Rsq) return default_nan(64);
  if (std::isnan(x)) return quiet_nan(bits, 64);
  if (x == 0) return bits_inf(kF64, std::signbit(x));
  if (x < 0) return default_nan(64);
  if (std::isinf(x)) return 0;
  return rsq_f64(x);
}

uint64_t transcendental_fallbacks() { return g_fallbacks.load(std::memory_order_relaxed); }

FastValue transcendental_fast_value(Transcendental f, double x) {
  switch (f) {
    case Transcendental::Exp2: return {exp2_fast(x), kFastRel};
    case Transcendental::Log2: return {log2_fast(x), kFastRel};
    case Transcendental::Rsq: return {1.0 / std::sqrt(x), kFastRel};
    case Transcendental::SinRev: return sincos_rev(x, false);
    case Transcendental::CosRev: return sincos_rev(x, true);
    default: return {f == Transcendental::Rcp ? 1.0 / x : std::sqrt(x), 0x1p-53};
  }
}

}  // namespace cdnajit::sim
