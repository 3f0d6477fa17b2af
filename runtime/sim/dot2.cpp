#include "runtime/sim/dot2.hpp"
#include "runtime/sim/host_cpu.hpp"

#include "runtime/sim/fixed_point.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace cdnajit::sim {

namespace {
using namespace fixed;

float dot2_fixed_point(float a0, float b0, float a1, float b1, float c) {
  if (!std::isfinite(a0) || !std::isfinite(b0) || !std::isfinite(a1) || !std::isfinite(b1) || !std::isfinite(c))
    return float(double(a0) * b0 + double(a1) * b1 + double(c));
  Fixed acc;
  bool all_neg_zero = true;
  auto add_product = [&](float x, float y) {
    uint64_t mx, my; int ex, ey; bool nx, ny;
    decompose(x, mx, ex, nx);
    decompose(y, my, ey, ny);
    if (mx && my) acc.add_shifted(mx * my, ex + ey + kFracBits, nx != ny);
    all_neg_zero &= (mx == 0 || my == 0) && (nx != ny);
  };
  add_product(a0, b0);
  add_product(a1, b1);
  uint64_t mc; int ec; bool nc;
  decompose(c, mc, ec, nc);
  if (mc) acc.add_shifted(mc, ec + kFracBits, nc);
  all_neg_zero &= (mc == 0) && nc;
  float r = round_fixed_to_f32(acc);
  if (r == 0.0f && acc.msb() < 0) return all_neg_zero ? -0.0f : 0.0f;
  return r;
}

}  // namespace

float dot2_fused(float a0, float b0, float a1, float b1, float c) {
  double p0 = double(a0) * double(b0), p1 = double(a1) * double(b1);
  if (std::isfinite(p0) && std::isfinite(p1) && std::isfinite(c)) {
    auto two_sum_err = [](double x, double y, double s) {
      double yy = s - x, xx = s - yy;
      return (x - xx) + (y - yy);
    };
    double s1 = p0 + p1;
    double s2 = s1 + double(c);
    if (two_sum_err(p0, p1, s1) == 0.0 && two_sum_err(s1, double(c), s2) == 0.0) return float(s2);
  }
  return dot2_fixed_point(a0, b0, a1, b1, c);
}

namespace {

// The exact-in-double test of dot2_fused on 64 lanes, branch-free: sum[l] = (a0 b0 + a1 b1) + c and
// exact[l] = 1 where the products and c are finite and both additions were exact (then the
// double sum is the exact value and its one rounding to f32 is dot2_fused's result).
template <int>
inline void exact_sums(const float* a0, const float* b0, const float* a1, const float* b1, const float* c, double* sum,
                       uint8_t* exact) {
  for (int l = 0; l < 64; ++l) {
    const double p0 = double(a0[l]) * double(b0[l]), p1 = double(a1[l]) * double(b1[l]), dc = double(c[l]);
    const double s1 = p0 + p1, s2 = s1 + dc;
    const double y1 = s1 - p0, e1 = (p0 - (s1 - y1)) + (p1 - y1);
    const double y2 = s2 - s1, e2 = (s1 - (s2 - y2)) + (dc - y2);
    const bool finite = std::fabs(p0) <= 1.7976931348623157e308 && std::fabs(p1) <= 1.7976931348623157e308 &&
                        std::fabs(dc) <= 1.7976931348623157e308;
    sum[l] = s2;
    exact[l] = uint8_t(finite & (e1 == 0.0) & (e2 == 0.0));
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same test and rounding on AVX2 hosts, four lanes at a time (no FMA: every operation rounds as
// in the portable loop): writes r[l] for the active lanes whose sum is exact and returns the active
// lanes that are not (the caller runs dot2_fused on those).
__attribute__((target("avx2"))) uint64_t exact_lanes_avx2(const float* a0, const float* b0, const float* a1, const float* b1,
                                                          const float* c, uint64_t lanes, uint32_t* r) {
  const __m256d max = _mm256_set1_pd(1.7976931348623157e308), zero = _mm256_setzero_pd();
  const __m256d sign = _mm256_set1_pd(-0.0);
  uint64_t slow = 0;
  for (int l = 0; l < 64; l += 4) {
    const uint64_t on = (lanes >> l) & 15;
    if (!on) continue;
    const __m256d p0 = _mm256_mul_pd(_mm256_cvtps_pd(_mm_loadu_ps(a0 + l)), _mm256_cvtps_pd(_mm_loadu_ps(b0 + l)));
    const __m256d p1 = _mm256_mul_pd(_mm256_cvtps_pd(_mm_loadu_ps(a1 + l)), _mm256_cvtps_pd(_mm_loadu_ps(b1 + l)));
    const __m256d dc = _mm256_cvtps_pd(_mm_loadu_ps(c + l));
    const __m256d s1 = _mm256_add_pd(p0, p1), s2 = _mm256_add_pd(s1, dc);
    const __m256d y1 = _mm256_sub_pd(s1, p0);
    const __m256d e1 = _mm256_add_pd(_mm256_sub_pd(p0, _mm256_sub_pd(s1, y1)), _mm256_sub_pd(p1, y1));
    const __m256d y2 = _mm256_sub_pd(s2, s1);
    const __m256d e2 = _mm256_add_pd(_mm256_sub_pd(s1, _mm256_sub_pd(s2, y2)), _mm256_sub_pd(dc, y2));
    __m256d ok = _mm256_and_pd(_mm256_cmp_pd(_mm256_andnot_pd(sign, p0), max, _CMP_LE_OQ),
                               _mm256_cmp_pd(_mm256_andnot_pd(sign, p1), max, _CMP_LE_OQ));
    ok = _mm256_and_pd(ok, _mm256_cmp_pd(_mm256_andnot_pd(sign, dc), max, _CMP_LE_OQ));
    ok = _mm256_and_pd(ok, _mm256_and_pd(_mm256_cmp_pd(e1, zero, _CMP_EQ_OQ), _mm256_cmp_pd(e2, zero, _CMP_EQ_OQ)));
    const uint64_t exact = uint64_t(_mm256_movemask_pd(ok)) & on;
    const __m128 f = _mm256_cvtpd_ps(s2);
    const __m128i store = _mm_set_epi32(-int((exact >> 3) & 1), -int((exact >> 2) & 1), -int((exact >> 1) & 1), -int(exact & 1));
    _mm_maskstore_ps(reinterpret_cast<float*>(r + l), store, f);
    slow |= (on & ~exact) << l;
  }
  return slow;
}
#define CDNAJIT_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl")))
// exact_lanes_avx2's test and rounding on eight lanes (AVX-512 F/DQ/VL hosts), the same operations in
// the same order (so the same sums and verdicts): writes r[0, 8) where `on` and exact, returns the
// lanes of `on` that are not exact.
CDNAJIT_AVX512 inline __mmask8 exact8_avx512(__m256 a0, __m256 b0, __m256 a1, __m256 b1, __m256 c, __mmask8 on, uint32_t* r) {
  const __m512d zero = _mm512_setzero_pd();
  const __m512d p0 = _mm512_mul_pd(_mm512_cvtps_pd(a0), _mm512_cvtps_pd(b0));
  const __m512d p1 = _mm512_mul_pd(_mm512_cvtps_pd(a1), _mm512_cvtps_pd(b1));
  const __m512d dc = _mm512_cvtps_pd(c);
  const __m512d s1 = _mm512_add_pd(p0, p1), s2 = _mm512_add_pd(s1, dc);
  const __m512d y1 = _mm512_sub_pd(s1, p0);
  const __m512d e1 = _mm512_add_pd(_mm512_sub_pd(p0, _mm512_sub_pd(s1, y1)), _mm512_sub_pd(p1, y1));
  const __m512d y2 = _mm512_sub_pd(s2, s1);
  const __m512d e2 = _mm512_add_pd(_mm512_sub_pd(s1, _mm512_sub_pd(s2, y2)), _mm512_sub_pd(dc, y2));
  // No finiteness test: an infinite or NaN product or c (f32 products are finite in double) makes
  // e1 or e2 NaN (inf - inf or NaN on the way), which fails the == 0 test, as the portable loop's
  // explicit test does; so the verdicts are the same.
  const __mmask8 exact = _mm512_mask_cmp_pd_mask(_mm512_mask_cmp_pd_mask(on, e1, zero, _CMP_EQ_OQ), e2, zero, _CMP_EQ_OQ);
  _mm256_mask_storeu_ps(reinterpret_cast<float*>(r), exact, _mm512_cvtpd_ps(s2));
  return __mmask8(on & ~exact);
}
CDNAJIT_AVX512 uint64_t exact_lanes_avx512(const float* a0, const float* b0, const float* a1, const float* b1, const float* c,
                                           uint64_t lanes, uint32_t* r) {
  uint64_t slow = 0;
  for (int l = 0; l < 64; l += 8)
    if (const __mmask8 on = __mmask8(lanes >> l))
      slow |= uint64_t(exact8_avx512(_mm256_loadu_ps(a0 + l), _mm256_loadu_ps(b0 + l), _mm256_loadu_ps(a1 + l),
                                     _mm256_loadu_ps(b1 + l), _mm256_loadu_ps(c + l), on, r + l))
              << l;
  return slow;
}
// The same on bf16 pairs straight from the registers (dot2_fused_bf16_rows): each lane's five f32
// operands made in the vector registers (a bf16 is the high half of its f32).
CDNAJIT_AVX512 uint64_t exact_bf16_avx512(const uint32_t* A, const uint32_t* B, const uint32_t* C, const Dot2Bf16Signs& sg,
                                          uint64_t lanes, uint32_t* r) {
  const __m256i hi = _mm256_set1_epi32(int(0xffff0000u));
  const __m256i sa0 = _mm256_set1_epi32(int(sg.a0)), sa1 = _mm256_set1_epi32(int(sg.a1));
  const __m256i sb0 = _mm256_set1_epi32(int(sg.b0)), sb1 = _mm256_set1_epi32(int(sg.b1));
  const __m256i cx = _mm256_set1_epi32(int(sg.c_xor)), ca = _mm256_set1_epi32(int(sg.c_and));
  uint64_t slow = 0;
  for (int l = 0; l < 64; l += 8) {
    const __mmask8 on = __mmask8(lanes >> l);
    if (!on) continue;
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(A + l));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(B + l));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(C + l));
    slow |= uint64_t(exact8_avx512(_mm256_castsi256_ps(_mm256_xor_si256(_mm256_slli_epi32(a, 16), sa0)),
                                   _mm256_castsi256_ps(_mm256_xor_si256(_mm256_slli_epi32(b, 16), sb0)),
                                   _mm256_castsi256_ps(_mm256_xor_si256(_mm256_and_si256(a, hi), sa1)),
                                   _mm256_castsi256_ps(_mm256_xor_si256(_mm256_and_si256(b, hi), sb1)),
                                   _mm256_castsi256_ps(_mm256_and_si256(_mm256_xor_si256(c, cx), ca)), on, r + l))
            << l;
  }
  return slow;
}
#undef CDNAJIT_AVX512
const bool kAvx2 = host_cpu().avx2;
const bool kAvx512 = host_cpu().avx512f && host_cpu().avx512dq && host_cpu().avx512vl;
#endif

}  // namespace

void dot2_fused_lanes(const float* a0, const float* b0, const float* a1, const float* b1, const float* c,
                      uint64_t lanes, uint32_t* r) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (kAvx2) {
    const uint64_t slow_lanes = kAvx512 ? exact_lanes_avx512(a0, b0, a1, b1, c, lanes, r) : exact_lanes_avx2(a0, b0, a1, b1, c, lanes, r);
    for (uint64_t slow = slow_lanes; slow; slow &= slow - 1) {
      const int l = std::countr_zero(slow);
      r[l] = std::bit_cast<uint32_t>(dot2_fused(a0[l], b0[l], a1[l], b1[l], c[l]));
    }
    return;
  }
#endif
  alignas(64) double sum[64];
  alignas(64) uint8_t exact[64];
  exact_sums<0>(a0, b0, a1, b1, c, sum, exact);
  for (int l = 0; l < 64; ++l) {
    if (!((lanes >> l) & 1)) continue;
    r[l] = std::bit_cast<uint32_t>(exact[l] ? float(sum[l]) : dot2_fused(a0[l], b0[l], a1[l], b1[l], c[l]));
  }
}

namespace {
// Lane l's five operands of dot2_fused_bf16_rows as floats.
struct Bf16Lane {
  float a0, b0, a1, b1, c;
};
Bf16Lane bf16_lane(const uint32_t* A, const uint32_t* B, const uint32_t* C, const Dot2Bf16Signs& s, int l) {
  const uint32_t a = A[l], b = B[l];
  return {std::bit_cast<float>((a << 16) ^ s.a0), std::bit_cast<float>((b << 16) ^ s.b0),
          std::bit_cast<float>((a & 0xffff0000u) ^ s.a1), std::bit_cast<float>((b & 0xffff0000u) ^ s.b1),
          std::bit_cast<float>((C[l] ^ s.c_xor) & s.c_and)};
}
}  // namespace

void dot2_fused_bf16_rows(const uint32_t* A, const uint32_t* B, const uint32_t* C, const Dot2Bf16Signs& s, uint64_t lanes,
                          uint32_t* r) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (kAvx512) {
    // A slow lane's sources are unchanged by the vector pass (it writes only exact lanes), even when r is one of them.
    for (uint64_t slow = exact_bf16_avx512(A, B, C, s, lanes, r); slow; slow &= slow - 1) {
      const int l = std::countr_zero(slow);
      const Bf16Lane x = bf16_lane(A, B, C, s, l);
      r[l] = std::bit_cast<uint32_t>(dot2_fused(x.a0, x.b0, x.a1, x.b1, x.c));
    }
    return;
  }
#endif
  alignas(64) float a0[64], b0[64], a1[64], b1[64], c[64];
  for (int l = 0; l < 64; ++l) {
    const Bf16Lane x = bf16_lane(A, B, C, s, l);
    a0[l] = x.a0, b0[l] = x.b0, a1[l] = x.a1, b1[l] = x.b1, c[l] = x.c;
  }
  dot2_fused_lanes(a0, b0, a1, b1, c, lanes, r);
}

}  // namespace cdnajit::sim
