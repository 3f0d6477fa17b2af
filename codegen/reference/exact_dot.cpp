// Deliberate independent oracle (see exact_dot.hpp): written without looking
// at, calling or sharing code with runtime/sim/dot2.cpp.
#include "codegen/reference/exact_dot.hpp"

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace cdnajit::reference {

namespace {

// ---- the double fast path and the bound that proves it exact ----

// A finite non-zero f32 is m * 2^scale with an integer m < 2^24. Its lowest and
// highest set bits, as powers of two.
struct BitSpan {
  int lsb, msb;
};
BitSpan bit_span(float x) {
  uint32_t u = std::bit_cast<uint32_t>(x);
  uint32_t biased = (u >> 23) & 0xff, m = u & 0x7fffff;
  int scale = -149;  // subnormal: m * 2^-149
  if (biased) {
    m |= 1u << 23;
    scale = int(biased) - 150;
  }
  return {scale + std::countr_zero(m), scale + int(std::bit_width(m)) - 1};
}

// Every partial sum of the terms is a multiple of 2^lo (lo = the lowest set bit
// of any term; a product's lowest bit is the sum of its factors' lowest bits)
// and is below 2^(hi + 1 + ceil(log2(terms))) (hi bounds each term's highest
// bit; a product's highest bit is at most msb(a) + msb(b) + 1). When that range
// holds at most 53 bits, every product and every addition is exact in double,
// so float(double sum) is the exact sum rounded once — by the hardware's own
// IEEE double->float conversion. Products of f32 values lie in [2^-298, 2^256],
// far inside double's normal range, so no double underflow or overflow occurs.
bool window_fits_double(std::span<const float> a, std::span<const float> b, float c) {
  if (!std::isfinite(c)) return false;
  int lo = 1 << 20, hi = -(1 << 20), terms = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i]) || !std::isfinite(b[i])) return false;
    if (a[i] == 0.0f || b[i] == 0.0f) continue;  // a signed zero: exact, outside the window
    BitSpan x = bit_span(a[i]), y = bit_span(b[i]);
    lo = std::min(lo, x.lsb + y.lsb);
    hi = std::max(hi, x.msb + y.msb + 1);
    ++terms;
  }
  if (c != 0.0f) {
    BitSpan z = bit_span(c);
    lo = std::min(lo, z.lsb);
    hi = std::max(hi, z.msb);
    ++terms;
  }
  if (terms == 0) return true;
  int growth = std::bit_width(unsigned(terms - 1));  // ceil(log2(terms))
  return hi + growth - lo + 1 <= 53;
}

float dot_in_double(std::span<const float> a, std::span<const float> b, float c) {
  // Terms added in the documented order so the sign of an exact zero follows
  // IEEE addition (-0 only when every term is -0).
  double sum = a.empty() ? double(c) : double(a[0]) * double(b[0]);
  for (size_t i = 1; i < a.size(); ++i) sum += double(a[i]) * double(b[i]);
  if (!a.empty()) sum += double(c);
  return float(sum);
}

// ---- the MPFR path ----

// Products of two f32 values need 48 bits. Any sum of such products and an
// f32 spans at most 2^256 down to 2^-298 (555 bits) plus carries, so 640 bits
// hold every sum of fewer than 2^80 terms exactly.
constexpr mpfr_prec_t kProductBits = 64, kSumBits = 640;

struct Mpfr {
  mpfr_t v;
  explicit Mpfr(mpfr_prec_t bits) { mpfr_init2(v, bits); }
  ~Mpfr() { mpfr_clear(v); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
};

void require_exact(int inexact, const char* what) {
  if (inexact) throw std::logic_error(std::string("exact_dot_f32: MPFR reported an inexact ") + what);
}

// Rounds an exact value once to binary32: 24 significant bits in the normal
// range, a fixed least significant bit of 2^-149 below 2^-126.
float round_to_f32(const mpfr_t exact) {
  if (!mpfr_regular_p(exact)) return mpfr_get_flt(exact, MPFR_RNDN);  // NaN, inf, signed zero
  // exact = 0.1xxx (binary) * 2^e, so its highest bit is 2^(e-1).
  long e = mpfr_get_exp(exact);
  long bits = (e - 1 >= -126) ? 24 : e + 149;  // subnormal: bits from 2^(e-1) down to 2^-149
  bool negative = mpfr_signbit(exact);
  if (bits <= 0) {
    // |exact| < 2^-149: rounds to 2^-149 only when above the midpoint 2^-150.
    Mpfr mag(kSumBits);
    mpfr_abs(mag.v, exact, MPFR_RNDN);
    bool above_half = bits == 0 && mpfr_cmp_si_2exp(mag.v, 1, -150) > 0;
    float r = above_half ? std::ldexp(1.0f, -149) : 0.0f;
    return negative ? -r : r;
  }
  Mpfr r(bits);
  mpfr_set(r.v, exact, MPFR_RNDN);  // the one rounding
  return mpfr_get_flt(r.v, MPFR_RNDN);  // exact: r is a binary32 value, or >= 2^128 which gives inf
}

}  // namespace

bool exact_dot_uses_fast_path(std::span<const float> a, std::span<const float> b, float c) {
  if (a.size() != b.size()) throw std::invalid_argument("exact_dot_f32: a and b differ in length");
  return window_fits_double(a, b, c);
}

float exact_dot_f32_mpfr(std::span<const float> a, std::span<const float> b, float c) {
  if (a.size() != b.size()) throw std::invalid_argument("exact_dot_f32: a and b differ in length");
  Mpfr x(24), y(24), product(kProductBits), sum(kSumBits);
  require_exact(mpfr_set_flt(sum.v, c, MPFR_RNDN), "conversion");
  for (size_t i = 0; i < a.size(); ++i) {
    require_exact(mpfr_set_flt(x.v, a[i], MPFR_RNDN), "conversion");
    require_exact(mpfr_set_flt(y.v, b[i], MPFR_RNDN), "conversion");
    require_exact(mpfr_mul(product.v, x.v, y.v, MPFR_RNDN), "product");
    if (i == 0)
      mpfr_set(sum.v, product.v, MPFR_RNDN);
    else
      require_exact(mpfr_add(sum.v, sum.v, product.v, MPFR_RNDN), "sum");
  }
  if (!a.empty()) {
    require_exact(mpfr_set_flt(y.v, c, MPFR_RNDN), "conversion");
    require_exact(mpfr_add(sum.v, sum.v, y.v, MPFR_RNDN), "sum");
  }
  return round_to_f32(sum.v);
}

namespace {

// bit_span for a finite float given by its bits, as branch-free integer work;
// +-0 gives the empty span {kNone, -kNone}, which min/max below ignore.
constexpr int kNone = 1 << 20;
BitSpan finite_bit_span(uint32_t u) {
  uint32_t biased = (u >> 23) & 0xff, m = (u & 0x7fffff) | (uint32_t(biased != 0) << 23);
  int scale = biased ? int(biased) - 150 : -149;
  if (m == 0) return {kNone, -kNone};
  return {scale + std::countr_zero(m), scale + int(std::bit_width(m)) - 1};
}

bool is_inf_or_nan(uint32_t u) { return ((u >> 23) & 0xff) == 0xff; }

// Out of line and marked cold so that the fast path below needs no register
// saves for the MPFR call.
[[gnu::noinline, gnu::cold]] float exact_dot2_by_mpfr(float a0, float b0, float a1, float b1, float c) {
  return exact_dot2_f32_mpfr(a0, b0, a1, b1, c);
}

}  // namespace

float exact_dot2_f32(float a0, float b0, float a1, float b1, float c) {
  uint32_t ua0 = std::bit_cast<uint32_t>(a0), ub0 = std::bit_cast<uint32_t>(b0);
  uint32_t ua1 = std::bit_cast<uint32_t>(a1), ub1 = std::bit_cast<uint32_t>(b1);
  uint32_t uc = std::bit_cast<uint32_t>(c);
  if (is_inf_or_nan(ua0) | is_inf_or_nan(ub0) | is_inf_or_nan(ua1) | is_inf_or_nan(ub1) | is_inf_or_nan(uc))
    return exact_dot2_by_mpfr(a0, b0, a1, b1, c);
  // The window of window_fits_double for exactly two products and c: a product
  // with a zero factor is an exact signed zero and stays outside the window.
  BitSpan x0 = finite_bit_span(ua0), y0 = finite_bit_span(ub0);
  BitSpan x1 = finite_bit_span(ua1), y1 = finite_bit_span(ub1), z = finite_bit_span(uc);
  bool p0 = (ua0 << 1) && (ub0 << 1), p1 = (ua1 << 1) && (ub1 << 1), pc = (uc << 1) != 0;
  int lo = z.lsb, hi = z.msb;
  if (p0) lo = std::min(lo, x0.lsb + y0.lsb), hi = std::max(hi, x0.msb + y0.msb + 1);
  if (p1) lo = std::min(lo, x1.lsb + y1.lsb), hi = std::max(hi, x1.msb + y1.msb + 1);
  int terms = int(p0) + int(p1) + int(pc);
  int growth = terms - int(terms != 0);  // ceil(log2(terms)) for 0..3 terms
  if (terms != 0 && hi + growth - lo + 1 > 53) return exact_dot2_by_mpfr(a0, b0, a1, b1, c);
  // Exact in double (see window_fits_double); added in the documented order.
  double sum = double(a0) * double(b0);
  sum += double(a1) * double(b1);
  sum += double(c);
  return float(sum);  // the one rounding
}

float exact_dot_f32(std::span<const float> a, std::span<const float> b, float c) {
  if (exact_dot_uses_fast_path(a, b, c)) return dot_in_double(a, b, c);
  return exact_dot_f32_mpfr(a, b, c);
}

namespace {

#if defined(__x86_64__) && defined(__GNUC__)
// floor(log2 v) for 0 < v < 2^24 (an exact conversion to f32, its exponent).
__attribute__((target("avx2"))) inline __m256i log2_of(__m256i v) {
  return _mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(v)), 23), _mm256_set1_epi32(127));
}
__attribute__((target("avx2"))) inline __m256i inf_or_nan8(__m256i u) {
  const __m256i top = _mm256_set1_epi32(0xff);
  return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_srli_epi32(u, 23), top), top);
}
__attribute__((target("avx2"))) inline __m256i nonzero8(__m256i u) {
  return _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_slli_epi32(u, 1), _mm256_setzero_si256()), _mm256_set1_epi32(-1));
}

// finite_bit_span of eight finite floats: lsb / msb from the f32 exponents of the significand's
// lowest set bit (m & -m) and of the significand itself, both exact conversions (m < 2^24).
__attribute__((target("avx2"))) inline void spans8(__m256i u, __m256i& lsb, __m256i& msb) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i biased = _mm256_and_si256(_mm256_srli_epi32(u, 23), _mm256_set1_epi32(0xff));
  const __m256i normal = _mm256_cmpgt_epi32(biased, zero);
  const __m256i m = _mm256_or_si256(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffff)), _mm256_and_si256(normal, _mm256_set1_epi32(0x800000)));
  const __m256i scale = _mm256_blendv_epi8(_mm256_set1_epi32(-149), _mm256_sub_epi32(biased, _mm256_set1_epi32(150)), normal);
  const __m256i none = _mm256_cmpeq_epi32(m, zero);
  lsb = _mm256_blendv_epi8(_mm256_add_epi32(scale, log2_of(_mm256_and_si256(m, _mm256_sub_epi32(zero, m)))), _mm256_set1_epi32(kNone), none);
  msb = _mm256_blendv_epi8(_mm256_add_epi32(scale, log2_of(m)), _mm256_set1_epi32(-kNone), none);
}

__attribute__((target("avx2"))) void exact_dot2_x8_avx2(float a0, float a1, const float* b0, const float* b1, float* c) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i ua0 = _mm256_set1_epi32(int32_t(std::bit_cast<uint32_t>(a0))), ua1 = _mm256_set1_epi32(int32_t(std::bit_cast<uint32_t>(a1)));
  const __m256i ub0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b0));
  const __m256i ub1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b1));
  const __m256i uc = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c));
  __m256i slow = _mm256_or_si256(_mm256_or_si256(inf_or_nan8(ua0), inf_or_nan8(ub0)), _mm256_or_si256(_mm256_or_si256(inf_or_nan8(ua1), inf_or_nan8(ub1)), inf_or_nan8(uc)));
  __m256i x0l, x0h, y0l, y0h, x1l, x1h, y1l, y1h, lo, hi;
  spans8(ua0, x0l, x0h);
  spans8(ub0, y0l, y0h);
  spans8(ua1, x1l, x1h);
  spans8(ub1, y1l, y1h);
  spans8(uc, lo, hi);
  const __m256i p0 = _mm256_and_si256(nonzero8(ua0), nonzero8(ub0)), p1 = _mm256_and_si256(nonzero8(ua1), nonzero8(ub1)), pc = nonzero8(uc);
  const __m256i one = _mm256_set1_epi32(1);
  lo = _mm256_blendv_epi8(lo, _mm256_min_epi32(lo, _mm256_add_epi32(x0l, y0l)), p0);
  hi = _mm256_blendv_epi8(hi, _mm256_max_epi32(hi, _mm256_add_epi32(_mm256_add_epi32(x0h, y0h), one)), p0);
  lo = _mm256_blendv_epi8(lo, _mm256_min_epi32(lo, _mm256_add_epi32(x1l, y1l)), p1);
  hi = _mm256_blendv_epi8(hi, _mm256_max_epi32(hi, _mm256_add_epi32(_mm256_add_epi32(x1h, y1h), one)), p1);
  // terms = p0 + p1 + pc (masks are -1); growth = terms - (terms != 0).
  const __m256i terms = _mm256_sub_epi32(zero, _mm256_add_epi32(_mm256_add_epi32(p0, p1), pc));
  const __m256i any = _mm256_xor_si256(_mm256_cmpeq_epi32(terms, zero), _mm256_set1_epi32(-1));
  const __m256i growth = _mm256_add_epi32(terms, any);
  const __m256i width = _mm256_add_epi32(_mm256_sub_epi32(_mm256_add_epi32(hi, growth), lo), one);
  slow = _mm256_or_si256(slow, _mm256_and_si256(any, _mm256_cmpgt_epi32(width, _mm256_set1_epi32(53))));
  // The double sum in the documented order, four lanes at a time.
  __m128 r[2];
  for (int h = 0; h < 2; ++h) {
    const __m256d s0 = _mm256_mul_pd(_mm256_set1_pd(double(a0)), _mm256_cvtps_pd(_mm_loadu_ps(b0 + 4 * h)));
    const __m256d s1 = _mm256_add_pd(s0, _mm256_mul_pd(_mm256_set1_pd(double(a1)), _mm256_cvtps_pd(_mm_loadu_ps(b1 + 4 * h))));
    r[h] = _mm256_cvtpd_ps(_mm256_add_pd(s1, _mm256_cvtps_pd(_mm_loadu_ps(c + 4 * h))));
  }
  alignas(32) float old[8];
  _mm256_store_ps(old, _mm256_castsi256_ps(uc));
  const int mask = _mm256_movemask_ps(_mm256_castsi256_ps(slow));
  _mm256_storeu_ps(c, _mm256_set_m128(r[1], r[0]));
  for (int l = 0; l < 8; ++l)
    if ((mask >> l) & 1) c[l] = exact_dot2_f32(a0, b0[l], a1, b1[l], old[l]);
}
const bool kAvx2 = __builtin_cpu_supports("avx2");
#endif

}  // namespace

void exact_dot2_f32_x8(float a0, float a1, const float* b0, const float* b1, float* c) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (kAvx2) return exact_dot2_x8_avx2(a0, a1, b0, b1, c);
#endif
  for (int l = 0; l < 8; ++l) c[l] = exact_dot2_f32(a0, b0[l], a1, b1[l], c[l]);
}

}  // namespace cdnajit::reference
