// MFMA accumulation arithmetic, fast path: the CDNA3 rules (stated with their source in
// mfma_numerics_reference.cpp) on operands decoded once per instruction into integer
// significands and exponents, so that a group of products is a few integer multiplies and
// shifts instead of an ilogb/ldexp split of every product. Bit-identical to the reference
// implementation by construction (the same integer quantities, computed from exact integer
// significands instead of exact double significands); groups the fast path does not handle
// (non-finite C, products that may reach 2^128) go to the reference group function, and
// operands with non-finite or over-wide elements are never decoded. The randomized equivalence
// test is tests/sim/test_mfma_fast_path.cpp.
//
// Also the "exact" model (Options::MfmaNumerics::Exact): one rounding of the exact sum.
#include "runtime/sim/mfma_numerics.hpp"
#include "runtime/sim/host_cpu.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CDNAJIT_MFMA_AVX2 1
#endif

#include "runtime/sim/fixed_point.hpp"
#include "runtime/sim/fp.hpp"

namespace cdnajit::sim {
namespace {

constexpr int kNo = kMfmaNoExponent;

// floor(v * 2^shift) for an integer v (arithmetic right shift = floor).
int64_t floor_shift(int64_t v, int shift) {
  if (shift >= 0) return v << shift;
  if (shift <= -63) return v < 0 ? -1 : 0;
  return v >> -shift;
}

// 2^e as a double, -1022 <= e <= 1023.
double pow2(int e) { return std::bit_cast<double>(uint64_t(e + 1023) << 52); }

// Products of one subset (every `stride`-th of n, from 0), aligned at their largest exponent
// and truncated toward zero to 24 fractional bits: the sum in units of 2^(e - 24).
// p[i] = sig_a * sig_b, the product's value p[i] * 2^(pe[i] - 48); zero products have p = 0 and
// pe = kNo. Branch-free: a zero product shifts to 0 like one far below the largest.
template <int n, int stride>
int64_t aligned_sum(const int64_t* p, const int* pe, int& e) {
  e = kNo;
  for (int i = 0; i < n; i += stride) e = std::max(e, pe[i]);
  int64_t s = 0;
  for (int i = 0; i < n; i += stride) {
    const int d = std::min(24 + e - pe[i], 63);
    const int64_t neg = p[i] >> 63;                     // 0 or -1
    const int64_t mag = int64_t(uint64_t((p[i] ^ neg) - neg) >> d);
    s += (mag ^ neg) - neg;                             // trunc toward zero
  }
  return s;
}

// The group's product sum s (units of 2^(e - 24); e = kNo: no nonzero product) added to c and
// rounded once to f32.
float accumulate_c(int e, int64_t s, float c, bool kFp8) {
  // C = csig * 2^(cexp - 23), cexp clamped at -126 (f32 subnormals).
  const uint32_t u = std::bit_cast<uint32_t>(c);
  const int biased = int((u >> 23) & 0xff);
  int64_t csig = int64_t((u & 0x7fffff) | (biased ? 0x800000u : 0u));
  if (u >> 31) csig = -csig;
  const int cexp = csig == 0 ? kNo : biased ? biased - 127 : -126;
  const int E = std::max(e, cexp);
  if (E == kNo) return 0.0f;
  int64_t total = e == kNo ? 0 : floor_shift(s, 7 + e - E);  // units of 2^(E - 31)
  bool keep_c = csig != 0 && !(kFp8 && cexp < E - 25);
  if (keep_c) total += floor_shift(csig, 1 + cexp - E) * 128;  // C floored to 24 fractional bits at 2^E
  return float(double(total) * pow2(E - 31));  // |total| < 2^53: exact double, one RNE rounding
}

#ifdef CDNAJIT_MFMA_AVX2
// aligned_sum<8, 1> of the products of 8 decoded terms, four 64-bit lanes at a time (AVX2): the
// same integers (products, exponent sums, shifts, truncation toward zero, sum) as the scalar
// loops below, so the same bits. Returns false when the largest product exponent exceeds 126
// (the caller takes the reference path then, as the scalar code does).
__attribute__((target("avx2"))) bool group8_sum_avx2(const MfmaTerm* ta, const MfmaTerm* tb, int& e, int64_t& s) {
  static_assert(sizeof(MfmaTerm) == 8 && offsetof(MfmaTerm, sig) == 0 && offsetof(MfmaTerm, exp) == 4);
  const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ta));
  const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ta + 4));
  const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(tb));
  const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(tb + 4));
  const __m256i zero = _mm256_setzero_si256();
  // sig_a * sig_b (signed 32 x 32 -> 64 of each lane's low dword); zero iff a factor is zero.
  const __m256i p0 = _mm256_mul_epi32(a0, b0), p1 = _mm256_mul_epi32(a1, b1);
  // exp_a + exp_b in each lane's high dword; gathered as 8 dwords [0 4 1 5 2 6 3 7], kNo for zeros.
  const __m256i pe = _mm256_blend_epi32(_mm256_srli_epi64(_mm256_add_epi32(a0, b0), 32), _mm256_add_epi32(a1, b1), 0xaa);
  const __m256i z = _mm256_blend_epi32(_mm256_srli_epi64(_mm256_cmpeq_epi64(p0, zero), 32), _mm256_cmpeq_epi64(p1, zero), 0xaa);
  const __m256i pez = _mm256_blendv_epi8(pe, _mm256_set1_epi32(kNo), z);
  __m256i m = _mm256_max_epi32(pez, _mm256_permute2x128_si256(pez, pez, 1));
  m = _mm256_max_epi32(m, _mm256_shuffle_epi32(m, 0x4e));
  m = _mm256_max_epi32(m, _mm256_shuffle_epi32(m, 0xb1));
  e = _mm256_cvtsi256_si32(m);
  if (e > 126) return false;
  // Shift of each product: 24 + e - pe (>= 24; a zero product's shifts a zero); a count of 64 or
  // more shifts everything out, like the scalar code's min(d, 63) on magnitudes below 2^63.
  const __m256i d = _mm256_sub_epi32(_mm256_add_epi32(m, _mm256_set1_epi32(24)), pez);
  const __m256i d0 = _mm256_and_si256(d, _mm256_set1_epi64x(0xffffffff)), d1 = _mm256_srli_epi64(d, 32);
  // |p| >> count with p's sign back (truncation toward zero), per 64-bit lane.
  const __m256i n0 = _mm256_cmpgt_epi64(zero, p0), n1 = _mm256_cmpgt_epi64(zero, p1);  // 0 or -1
  const __m256i m0 = _mm256_srlv_epi64(_mm256_sub_epi64(_mm256_xor_si256(p0, n0), n0), d0);
  const __m256i m1 = _mm256_srlv_epi64(_mm256_sub_epi64(_mm256_xor_si256(p1, n1), n1), d1);
  const __m256i t = _mm256_add_epi64(_mm256_sub_epi64(_mm256_xor_si256(m0, n0), n0), _mm256_sub_epi64(_mm256_xor_si256(m1, n1), n1));
  alignas(32) int64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), t);
  s = lanes[0] + lanes[1] + lanes[2] + lanes[3];
  return true;
}
bool use_avx2 = host_cpu().avx2;
// The 16-column form of the row path (half_rows_avx512) needs AVX-512 F, BW (16-bit multiplies) and DQ.
bool avx512_host() {
  return host_cpu().avx512f && host_cpu().avx512bw && host_cpu().avx512dq;
}
bool use_avx512 = avx512_host();
#else
bool use_avx2 = false;
bool use_avx512 = false;
#endif

// One group of n products (n = 8 or 16 here, fixed at compile time) accumulated into a finite c;
// both operands decoded (finite).
template <int n, bool kFp8>
float fast_group(const MfmaTerm* ta, const MfmaTerm* tb, const double* a, const double* b, float c,
                 const MfmaFormat& f) {
  int e;
  int64_t s;  // the products' sum in units of 2^(e - 24)
#ifdef CDNAJIT_MFMA_AVX2
  if constexpr (n == 8 && !kFp8) {
    if (use_avx2) {
      if (!group8_sum_avx2(ta, tb, e, s)) return mfma_group_cdna3_reference(a, b, n, c, f);
      return accumulate_c(e, s, c, false);
    }
  }
#endif
  int64_t p[n];
  int pe[n];
  int emax = kNo;
  for (int i = 0; i < n; ++i) {
    const bool zero = ta[i].sig == 0 || tb[i].sig == 0;
    p[i] = int64_t(ta[i].sig) * tb[i].sig;
    pe[i] = zero ? kNo : ta[i].exp + tb[i].exp;
    emax = std::max(emax, pe[i]);
  }
  // |product| < 2^(pe + 2): below 2^128 (the reference's infinity threshold) when pe <= 126.
  if (emax > 126) return mfma_group_cdna3_reference(a, b, n, c, f);
  if constexpr (kFp8) {
    int e0, e1;
    int64_t s0 = aligned_sum<n, 2>(p, pe, e0), s1 = aligned_sum<n - 1, 2>(p + 1, pe + 1, e1);
    e = std::max(e0, e1);
    s = e == kNo ? 0 : floor_shift(s0, e0 - e) + floor_shift(s1, e1 - e);
  } else {
    s = aligned_sum<n, 1>(p, pe, e);
  }
  return accumulate_c(e, s, c, kFp8);
}

// ---- row-vector form for 16-bit floats (mfma_half_row8) ----
// The exact value of a 16-bit element from its bits (for the reference path).
double half_value(uint16_t h, bool bf16) { return bf16 ? double(f32_of(bf16_to_f32(h))) : double(f16_to_f32(h)); }

// Output (i, j) of the K-long dot product by the per-output path, from the elements' bits.
float half_dot_reference(const MfmaHalfOperands& t, int i, int j, int k0, int n, float c, bool whole) {
  double a[256], b[256];
  for (int k = 0; k < n; ++k) {
    a[k] = half_value(t.raw_a[(k0 + k) * t.lda + i], t.bf16);
    b[k] = half_value(t.raw_b[(k0 + k) * t.ldb + j], t.bf16);
  }
  const int min_exp = t.bf16 ? -126 : -14;
  const MfmaFormat f{MfmaKind::Fused, min_exp, min_exp};
  return whole ? mfma_dot_cdna3(a, b, n, c, f) : mfma_group_cdna3_reference(a, b, n, c, f);
}

template <bool BF16>
bool half_decode(const uint32_t* dw, int n, int shift, uint32_t* sig, int32_t* exp, uint16_t* raw) {
  constexpr int fb = BF16 ? 7 : 10, ebits = BF16 ? 8 : 5, bias = BF16 ? 127 : 15, pre = mfma_half_preshift(BF16);
  constexpr uint32_t top = (1u << ebits) - 1;
  uint32_t bad = 0;
  for (int x = 0; x < n; ++x) {
    const uint32_t h = (dw[x] >> shift) & 0xffff;
    const uint32_t ef = (h >> fb) & top;
    const uint32_t mag = ((h & ((1u << fb) - 1)) | (ef ? 1u << fb : 0u)) << pre;
    sig[x] = ((h & 0x8000) ? 0u - mag : mag) & 0xffff;
    exp[x] = mag == 0 ? kNo : ef ? int32_t(ef) - bias : 1 - bias;
    raw[x] = uint16_t(h);
    bad |= uint32_t(ef == top);
  }
  return bad == 0;
}

#ifdef CDNAJIT_MFMA_AVX2
// 2^x for four int32 exponents (-1022 <= x <= 1023) as doubles.
__attribute__((target("avx2"))) inline __m256d pow2x4(__m128i x) {
  return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_cvtepi32_epi64(_mm_add_epi32(x, _mm_set1_epi32(1023))), 52));
}

// Four lanes of accumulate_c (kFp8 false) in doubles: floor_shift(v, sh) = floor(v * 2^sh) exactly
// (|v| < 2^30, sh in [-400, 7]: the product is exact), both terms are integers below 2^53 and so is
// their sum, and the scaling by 2^(E - 31) is exact: one RNE rounding to f32, as the scalar code.
__attribute__((target("avx2"))) inline __m128 accumulate4(__m128i s, __m128i sh_s, __m128i csig, __m128i sh_c, __m128i eo) {
  constexpr int kFloor = _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;
  const __m256d a = _mm256_round_pd(_mm256_mul_pd(_mm256_cvtepi32_pd(s), pow2x4(sh_s)), kFloor);
  const __m256d b = _mm256_round_pd(_mm256_mul_pd(_mm256_cvtepi32_pd(csig), pow2x4(sh_c)), kFloor);
  const __m256d total = _mm256_add_pd(a, _mm256_mul_pd(b, _mm256_set1_pd(128.0)));
  return _mm256_cvtpd_ps(_mm256_mul_pd(total, pow2x4(_mm_sub_epi32(eo, _mm_set1_epi32(31)))));
}

// mfma_half_row8 with the eight outputs in the eight 32-bit lanes: per product the same integers
// as fast_group<8, false> (product, exponent sum, shift, truncation toward zero; the pre-shifted
// significands make a product's value in the group-sum units < 2^26, so 32 bits hold it and the sum
// of eight), then accumulate_c on four lanes at a time. Lanes the scalar code sends to the
// reference group function (largest product exponent above 126, C not finite) go there too.
// R rows (i, i + 1, ...) at once: they share the loads of B, and their chains of C through the
// groups are independent, so one's accumulation overlaps the other's products.
template <int R>
__attribute__((target("avx2"))) void half_rows_avx2(const MfmaHalfOperands& t, int i, int j0, float* cio) {
  const __m256i kno = _mm256_set1_epi32(kNo), zero = _mm256_setzero_si256();
  __m256 c[R];
  for (int r = 0; r < R; ++r) c[r] = _mm256_loadu_ps(cio + 8 * r);
  for (int k0 = 0; k0 < t.K; k0 += 8) {
    __m256i p[R][8], pe[R][8], emax[R];
    for (int r = 0; r < R; ++r) emax[r] = _mm256_set1_epi32(-0x40000000);
    for (int q = 0; q < 8; ++q) {
      const int k = k0 + q;
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.sig_b + k * t.ldb + j0));
      const __m256i eb = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.exp_b + k * t.ldb + j0));
      for (int r = 0; r < R; ++r) {
        const __m256i a = _mm256_set1_epi32(int32_t(t.sig_a[k * t.lda + i + r]));
        p[r][q] = _mm256_madd_epi16(a, b);  // high halves are 0: the signed 16 x 16 product
        pe[r][q] = _mm256_add_epi32(_mm256_set1_epi32(t.exp_a[k * t.lda + i + r]), eb);
        emax[r] = _mm256_max_epi32(emax[r], pe[r][q]);
      }
    }
    for (int r = 0; r < R; ++r) {
      __m256i s = zero;
      for (int q = 0; q < 8; ++q) {
        const __m256i m = _mm256_srlv_epi32(_mm256_abs_epi32(p[r][q]), _mm256_sub_epi32(emax[r], pe[r][q]));  // >= 32: 0
        s = _mm256_add_epi32(s, _mm256_sign_epi32(m, p[r][q]));
      }
      // A zero product's exponent sum is far below any real one: no nonzero product leaves e = kNo.
      const __m256i e = _mm256_blendv_epi8(emax[r], kno, _mm256_cmpgt_epi32(_mm256_set1_epi32(-50000), emax[r]));
      const __m256i u = _mm256_castps_si256(c[r]);
      const __m256i biased = _mm256_and_si256(_mm256_srli_epi32(u, 23), _mm256_set1_epi32(0xff));
      const __m256i cmag = _mm256_or_si256(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffff)),
                                           _mm256_and_si256(_mm256_cmpgt_epi32(biased, zero), _mm256_set1_epi32(0x800000)));
      const __m256i csig = _mm256_sign_epi32(cmag, u);
      const __m256i czero = _mm256_cmpeq_epi32(cmag, zero);
      const __m256i cexp = _mm256_blendv_epi8(_mm256_sub_epi32(_mm256_max_epi32(biased, _mm256_set1_epi32(1)), _mm256_set1_epi32(127)), kno, czero);
      const __m256i E = _mm256_max_epi32(e, cexp);
      const __m256i sh_s = _mm256_andnot_si256(_mm256_cmpeq_epi32(e, kno), _mm256_add_epi32(_mm256_set1_epi32(7), _mm256_sub_epi32(e, E)));
      const __m256i sh_c = _mm256_andnot_si256(czero, _mm256_add_epi32(_mm256_set1_epi32(1), _mm256_sub_epi32(cexp, E)));
      const __m256i eo = _mm256_blendv_epi8(E, _mm256_set1_epi32(31), _mm256_cmpeq_epi32(E, kno));  // E = kNo: total 0, +0.0
      const __m128 lo = accumulate4(_mm256_castsi256_si128(s), _mm256_castsi256_si128(sh_s), _mm256_castsi256_si128(csig),
                                    _mm256_castsi256_si128(sh_c), _mm256_castsi256_si128(eo));
      const __m128 hi = accumulate4(_mm256_extracti128_si256(s, 1), _mm256_extracti128_si256(sh_s, 1), _mm256_extracti128_si256(csig, 1),
                                    _mm256_extracti128_si256(sh_c, 1), _mm256_extracti128_si256(eo, 1));
      const __m256 next = _mm256_set_m128(hi, lo);
      const __m256i slow = _mm256_or_si256(_mm256_cmpgt_epi32(e, _mm256_set1_epi32(126)), _mm256_cmpeq_epi32(biased, _mm256_set1_epi32(0xff)));
      if (const int mask = _mm256_movemask_ps(_mm256_castsi256_ps(slow))) [[unlikely]] {
        alignas(32) float before[8], after[8];
        _mm256_store_ps(before, c[r]);
        _mm256_store_ps(after, next);
        for (int x = 0; x < 8; ++x)
          if ((mask >> x) & 1) after[x] = half_dot_reference(t, i + r, j0 + x, k0, 8, before[x], false);
        c[r] = _mm256_load_ps(after);
      } else {
        c[r] = next;
      }
    }
  }
  for (int r = 0; r < R; ++r) _mm256_storeu_ps(cio + 8 * r, c[r]);
}

#define CDNAJIT_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq")))
// pow2x4 and accumulate4 on eight lanes (the same operations, one rounding each: same bits).
CDNAJIT_AVX512 inline __m512d pow2x8(__m256i x) {
  return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_cvtepi32_epi64(_mm256_add_epi32(x, _mm256_set1_epi32(1023))), 52));
}
CDNAJIT_AVX512 inline __m256 accumulate8(__m256i s, __m256i sh_s, __m256i csig, __m256i sh_c, __m256i eo) {
  constexpr int kFloor = _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;
  const __m512d a = _mm512_roundscale_pd(_mm512_mul_pd(_mm512_cvtepi32_pd(s), pow2x8(sh_s)), kFloor);
  const __m512d b = _mm512_roundscale_pd(_mm512_mul_pd(_mm512_cvtepi32_pd(csig), pow2x8(sh_c)), kFloor);
  const __m512d total = _mm512_add_pd(a, _mm512_mul_pd(b, _mm512_set1_pd(128.0)));
  return _mm512_cvtpd_ps(_mm512_mul_pd(total, pow2x8(_mm256_sub_epi32(eo, _mm256_set1_epi32(31)))));
}

// half_rows_avx2 with sixteen outputs of a row (columns j0 .. j0 + 15) in the sixteen 32-bit lanes
// of an AVX-512 vector: the same integers step by step (_mm256_sign_epi32's negation as a masked
// subtraction: a zero product gives m = 0 either way), c[16 r .. 16 r + 15] for row i + r.
template <int R>
CDNAJIT_AVX512 void half_rows_avx512(const MfmaHalfOperands& t, int i, int j0, float* cio) {
  const __m512i kno = _mm512_set1_epi32(kNo), zero = _mm512_setzero_si512();
  __m512 c[R];
  for (int r = 0; r < R; ++r) c[r] = _mm512_loadu_ps(cio + 16 * r);
  for (int k0 = 0; k0 < t.K; k0 += 8) {
    __m512i p[R][8], pe[R][8], emax[R];
    for (int r = 0; r < R; ++r) emax[r] = _mm512_set1_epi32(-0x40000000);
    for (int q = 0; q < 8; ++q) {
      const int k = k0 + q;
      const __m512i b = _mm512_loadu_si512(t.sig_b + k * t.ldb + j0);
      const __m512i eb = _mm512_loadu_si512(t.exp_b + k * t.ldb + j0);
      for (int r = 0; r < R; ++r) {
        const __m512i a = _mm512_set1_epi32(int32_t(t.sig_a[k * t.lda + i + r]));
        p[r][q] = _mm512_madd_epi16(a, b);  // high halves are 0: the signed 16 x 16 product
        pe[r][q] = _mm512_add_epi32(_mm512_set1_epi32(t.exp_a[k * t.lda + i + r]), eb);
        emax[r] = _mm512_max_epi32(emax[r], pe[r][q]);
      }
    }
    for (int r = 0; r < R; ++r) {
      __m512i s = zero;
      for (int q = 0; q < 8; ++q) {
        const __m512i m = _mm512_srlv_epi32(_mm512_abs_epi32(p[r][q]), _mm512_sub_epi32(emax[r], pe[r][q]));  // >= 32: 0
        s = _mm512_add_epi32(s, _mm512_mask_sub_epi32(m, _mm512_cmplt_epi32_mask(p[r][q], zero), zero, m));
      }
      const __m512i e = _mm512_mask_blend_epi32(_mm512_cmpgt_epi32_mask(_mm512_set1_epi32(-50000), emax[r]), emax[r], kno);
      const __m512i u = _mm512_castps_si512(c[r]);
      const __m512i biased = _mm512_and_si512(_mm512_srli_epi32(u, 23), _mm512_set1_epi32(0xff));
      const __m512i cmag = _mm512_or_si512(_mm512_and_si512(u, _mm512_set1_epi32(0x7fffff)),
                                           _mm512_maskz_mov_epi32(_mm512_cmpgt_epi32_mask(biased, zero), _mm512_set1_epi32(0x800000)));
      const __m512i csig = _mm512_mask_sub_epi32(cmag, _mm512_cmplt_epi32_mask(u, zero), zero, cmag);
      const __mmask16 czero = _mm512_cmpeq_epi32_mask(cmag, zero);
      const __m512i cexp = _mm512_mask_blend_epi32(czero, _mm512_sub_epi32(_mm512_max_epi32(biased, _mm512_set1_epi32(1)), _mm512_set1_epi32(127)), kno);
      const __m512i E = _mm512_max_epi32(e, cexp);
      const __m512i sh_s = _mm512_maskz_add_epi32(_mm512_cmpneq_epi32_mask(e, kno), _mm512_set1_epi32(7), _mm512_sub_epi32(e, E));
      const __m512i sh_c = _mm512_maskz_add_epi32(__mmask16(~czero), _mm512_set1_epi32(1), _mm512_sub_epi32(cexp, E));
      const __m512i eo = _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(E, kno), E, _mm512_set1_epi32(31));  // E = kNo: +0.0
      const __m256 lo = accumulate8(_mm512_castsi512_si256(s), _mm512_castsi512_si256(sh_s), _mm512_castsi512_si256(csig),
                                    _mm512_castsi512_si256(sh_c), _mm512_castsi512_si256(eo));
      const __m256 hi = accumulate8(_mm512_extracti64x4_epi64(s, 1), _mm512_extracti64x4_epi64(sh_s, 1),
                                    _mm512_extracti64x4_epi64(csig, 1), _mm512_extracti64x4_epi64(sh_c, 1),
                                    _mm512_extracti64x4_epi64(eo, 1));
      const __m512 next = _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
      const __mmask16 slow = _mm512_cmpgt_epi32_mask(e, _mm512_set1_epi32(126)) | _mm512_cmpeq_epi32_mask(biased, _mm512_set1_epi32(0xff));
      if (slow) [[unlikely]] {
        alignas(64) float before[16], after[16];
        _mm512_store_ps(before, c[r]);
        _mm512_store_ps(after, next);
        for (int x = 0; x < 16; ++x)
          if ((slow >> x) & 1) after[x] = half_dot_reference(t, i + r, j0 + x, k0, 8, before[x], false);
        c[r] = _mm512_load_ps(after);
      } else {
        c[r] = next;
      }
    }
  }
  for (int r = 0; r < R; ++r) _mm512_storeu_ps(cio + 16 * r, c[r]);
}
// half_decode_avx2 on sixteen elements per vector (n a multiple of 16): the same fields, same results
// (the 16-bit raw values narrowed by truncation, which keeps them: they are below 2^16).
template <bool BF16>
CDNAJIT_AVX512 bool half_decode_avx512(const uint32_t* dw, int n, bool hi, uint32_t* sig, int32_t* exp, uint16_t* raw) {
  constexpr int fb = BF16 ? 7 : 10, ebits = BF16 ? 8 : 5, bias = BF16 ? 127 : 15, pre = mfma_half_preshift(BF16);
  const __m512i top = _mm512_set1_epi32((1 << ebits) - 1), zero = _mm512_setzero_si512();
  __mmask16 bad = 0;
  for (int x = 0; x < n; x += 16) {
    const __m512i d = _mm512_loadu_si512(dw + x);
    const __m512i h = hi ? _mm512_srli_epi32(d, 16) : _mm512_and_si512(d, _mm512_set1_epi32(0xffff));
    const __m512i ef = _mm512_and_si512(_mm512_srli_epi32(h, fb), top);
    const __m512i mag = _mm512_slli_epi32(_mm512_or_si512(_mm512_and_si512(h, _mm512_set1_epi32((1 << fb) - 1)),
                                                          _mm512_maskz_mov_epi32(_mm512_cmpgt_epi32_mask(ef, zero), _mm512_set1_epi32(1 << fb))),
                                          pre);
    const __m512i neg = _mm512_srai_epi32(_mm512_slli_epi32(h, 16), 31);  // -1 where the sign bit is set
    const __m512i sg = _mm512_and_si512(_mm512_sub_epi32(_mm512_xor_si512(mag, neg), neg), _mm512_set1_epi32(0xffff));
    const __m512i ex = _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(mag, zero),
                                               _mm512_sub_epi32(_mm512_max_epi32(ef, _mm512_set1_epi32(1)), _mm512_set1_epi32(bias)),
                                               _mm512_set1_epi32(kNo));
    _mm512_storeu_si512(sig + x, sg);
    _mm512_storeu_si512(exp + x, ex);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(raw + x), _mm512_cvtepi32_epi16(h));
    bad |= _mm512_cmpeq_epi32_mask(ef, top);
  }
  return bad == 0;
}
#undef CDNAJIT_AVX512

// half_decode on eight elements per vector (n a multiple of 8): the same fields, same results.
template <bool BF16>
__attribute__((target("avx2"))) bool half_decode_avx2(const uint32_t* dw, int n, bool hi, uint32_t* sig, int32_t* exp, uint16_t* raw) {
  constexpr int fb = BF16 ? 7 : 10, ebits = BF16 ? 8 : 5, bias = BF16 ? 127 : 15, pre = mfma_half_preshift(BF16);
  const __m256i top = _mm256_set1_epi32((1 << ebits) - 1), zero = _mm256_setzero_si256();
  __m256i bad = zero;
  for (int x = 0; x < n; x += 8) {
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dw + x));
    const __m256i h = hi ? _mm256_srli_epi32(d, 16) : _mm256_and_si256(d, _mm256_set1_epi32(0xffff));
    const __m256i ef = _mm256_and_si256(_mm256_srli_epi32(h, fb), top);
    const __m256i normal = _mm256_cmpgt_epi32(ef, zero);
    const __m256i mag = _mm256_slli_epi32(_mm256_or_si256(_mm256_and_si256(h, _mm256_set1_epi32((1 << fb) - 1)),
                                                          _mm256_and_si256(normal, _mm256_set1_epi32(1 << fb))), pre);
    const __m256i neg = _mm256_srai_epi32(_mm256_slli_epi32(h, 16), 31);  // -1 where the sign bit is set
    const __m256i sg = _mm256_and_si256(_mm256_sub_epi32(_mm256_xor_si256(mag, neg), neg), _mm256_set1_epi32(0xffff));
    const __m256i ex = _mm256_blendv_epi8(_mm256_sub_epi32(_mm256_max_epi32(ef, _mm256_set1_epi32(1)), _mm256_set1_epi32(bias)),
                                          _mm256_set1_epi32(kNo), _mm256_cmpeq_epi32(mag, zero));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sig + x), sg);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(exp + x), ex);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(raw + x), _mm_packus_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1)));
    bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(ef, top));
  }
  return _mm256_testz_si256(bad, bad);
}
#endif

}  // namespace

bool mfma_half_decode(const uint32_t* dwords, int n, bool hi, bool bf16, uint32_t* sig, int32_t* exp, uint16_t* raw) {
#ifdef CDNAJIT_MFMA_AVX2
  if (use_avx512 && n % 16 == 0)
    return bf16 ? half_decode_avx512<true>(dwords, n, hi, sig, exp, raw) : half_decode_avx512<false>(dwords, n, hi, sig, exp, raw);
  if (use_avx2 && n % 8 == 0)
    return bf16 ? half_decode_avx2<true>(dwords, n, hi, sig, exp, raw) : half_decode_avx2<false>(dwords, n, hi, sig, exp, raw);
#endif
  return bf16 ? half_decode<true>(dwords, n, hi ? 16 : 0, sig, exp, raw) : half_decode<false>(dwords, n, hi ? 16 : 0, sig, exp, raw);
}

bool mfma_half_rows_available() { return use_avx2; }

void mfma_half_row8(const MfmaHalfOperands& t, int i, int j0, float* c) {
#ifdef CDNAJIT_MFMA_AVX2
  if (use_avx2) return half_rows_avx2<1>(t, i, j0, c);
#endif
  for (int x = 0; x < 8; ++x) c[x] = half_dot_reference(t, i, j0 + x, 0, t.K, c[x], true);
}

void mfma_half_rows8x2(const MfmaHalfOperands& t, int i, int j0, float* c) {
#ifdef CDNAJIT_MFMA_AVX2
  if (use_avx2) return half_rows_avx2<2>(t, i, j0, c);
#endif
  mfma_half_row8(t, i, j0, c);
  mfma_half_row8(t, i + 1, j0, c + 8);
}

void mfma_half_rows16x2(const MfmaHalfOperands& t, int i, int j0, float* c) {
#ifdef CDNAJIT_MFMA_AVX2
  if (use_avx512) return half_rows_avx512<2>(t, i, j0, c);
#endif
  for (int h = 0; h < 2; ++h) {  // columns j0 + 8h .. j0 + 8h + 7 of both rows
    float part[16];
    std::copy(c + 8 * h, c + 8 * h + 8, part);
    std::copy(c + 16 + 8 * h, c + 16 + 8 * h + 8, part + 8);
    mfma_half_rows8x2(t, i, j0 + 8 * h, part);
    std::copy(part, part + 8, c + 8 * h);
    std::copy(part + 8, part + 16, c + 16 + 8 * h);
  }
}

bool mfma_vector_path(bool on) {
#ifdef CDNAJIT_MFMA_AVX2
  use_avx2 = on && host_cpu().avx2;
  use_avx512 = on && avx512_host();
#endif
  return use_avx2;
}

bool mfma_decode(const double* x, int n, int min_exp, MfmaTerm* out) {
  // From the double's bits: v = m * 2^(ilogb - 52), m the 53-bit significand (normal doubles only;
  // every MFMA element value is one). sig = v * 2^(24 - e) = m >> (28 + e - ilogb), exact when the
  // bits shifted out are zero and nonzero when the shift leaves at least one bit.
  for (int i = 0; i < n; ++i) {
    const uint64_t u = std::bit_cast<uint64_t>(x[i]);
    const int biased = int((u >> 52) & 0x7ff);
    if ((u << 1) == 0) { out[i] = {0, kNo}; continue; }
    if (biased == 0 || biased == 0x7ff) return false;  // double subnormal, inf, NaN
    const int ilogb = biased - 1023, e = std::max(ilogb, min_exp), shift = 28 + e - ilogb;
    const uint64_t m = (u & ((uint64_t(1) << 52) - 1)) | (uint64_t(1) << 52);
    if (shift >= 53 || (m & ((uint64_t(1) << shift) - 1)) != 0) return false;
    const int32_t sig = int32_t(m >> shift);  // < 2^25
    out[i] = {(u >> 63) ? -sig : sig, e};
  }
  return true;
}

float mfma_dot_cdna3(const MfmaOperand& a, const MfmaOperand& b, int K, float c, const MfmaFormat& f) {
  if (f.kind == MfmaKind::F32) {
    for (int k = 0; k < K; ++k) c = std::fma(float(a.value[k]), float(b.value[k]), c);
    return c;
  }
  const bool fp8 = f.kind == MfmaKind::Fp8;
  const int group = mfma_group_size(f.kind, K);
  const bool decoded = a.decoded && b.decoded;
  for (int k = 0; k < K; k += group) {
    const int n = std::min(group, K - k);
    const MfmaTerm *ta = a.term + k, *tb = b.term + k;
    const double *va = a.value + k, *vb = b.value + k;
    if (!decoded || !std::isfinite(c)) c = mfma_group_cdna3_reference(va, vb, n, c, f);
    else if (fp8 && n == 16) c = fast_group<16, true>(ta, tb, va, vb, c, f);
    else if (!fp8 && n == 8) c = fast_group<8, false>(ta, tb, va, vb, c, f);
    else if (!fp8 && n == 4) c = fast_group<4, false>(ta, tb, va, vb, c, f);  // xf32; multi-block f16/bf16, K = 4
    else c = mfma_group_cdna3_reference(va, vb, n, c, f);
  }
  return c;
}

float mfma_dot_cdna3(const double* a, const double* b, int K, float c, const MfmaFormat& f) {
  if (f.kind == MfmaKind::F32) return mfma_dot_cdna3_reference(a, b, K, c, f);
  MfmaTerm ta[256], tb[256];
  if (K > 256) return mfma_dot_cdna3_reference(a, b, K, c, f);
  bool da = mfma_decode(a, K, f.min_exp_a, ta), db = mfma_decode(b, K, f.min_exp_b, tb);
  return mfma_dot_cdna3(MfmaOperand{a, ta, da}, MfmaOperand{b, tb, db}, K, c, f);
}

float mfma_dot_exact(const double* a, const double* b, int K, float c) {
  double fsum = double(c);
  bool finite = std::isfinite(c);
  for (int k = 0; k < K; ++k) {
    fsum += a[k] * b[k];
    finite &= std::isfinite(a[k]) && std::isfinite(b[k]);
  }
  if (!finite) return float(fsum);
  fixed::Fixed acc;
  bool all_neg_zero = std::signbit(c) && c == 0;
  auto add = [&](double v) {  // v exact; mantissa stripped of trailing zeros keeps the LSB >= 2^-320
    if (v == 0) return;
    int e = std::ilogb(v) - 52;
    uint64_t m = uint64_t(std::ldexp(std::fabs(v), -e));
    int tz = std::countr_zero(m);
    acc.add_shifted(m >> tz, e + tz + fixed::kFracBits, v < 0);
  };
  add(double(c));
  for (int k = 0; k < K; ++k) {
    double p = a[k] * b[k];  // exact: products of values with <= 24-bit significands
    add(p);
    all_neg_zero &= p == 0 && std::signbit(p);
  }
  if (acc.msb() < 0) return all_neg_zero ? -0.0f : 0.0f;
  return fixed::round_fixed_to_f32(acc);
}

}  // namespace cdnajit::sim
