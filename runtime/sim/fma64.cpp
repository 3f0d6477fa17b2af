// 64-lane correctly rounded f32 FMA: the host's FMA instruction when the CPU
// has it (with AVX2 where present; chosen once at run time), else std::fma.
// fma64_bcast takes operands that are one value for all lanes as a pointer to that value.
#include <cmath>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "runtime/sim/fp.hpp"
#include "runtime/sim/host_cpu.hpp"

namespace cdnajit::sim {
namespace {

// Operands near the bottom of the f32 range. The host's FMA takes a microcode assist whenever an
// input or the result is an f32 denormal (MXCSR's DAZ/FTZ are off: the GPU's denormal mode decides
// results): measured on this project's Xeon host, about 65 ns per 8-lane FMA against 0.6 ns, so a
// kernel adding denormal floats spent most of its simulation time there. Conversions between f32
// and f64 and f64 arithmetic on such values take no assist (f32 denormals are f64 normals).
// A lane is "tiny" when one of its operands is nonzero with |x| < 2^-63 (biased exponent < 64).
// Without a tiny operand no result is a denormal either: a product of operands >= 2^-63 is
// >= 2^-126, and a nonzero a*b + c with every operand >= 2^-63 (or zero) is a multiple of at least
// 2^-111 wherever it cancels (|a*b| >= |c|/2 >= 2^-64 gives a product quantum
// 2^(ea+eb-46) >= 2^-111), or at least |c|/2 >= 2^-64 where it does not.
__attribute__((target("avx2,fma"))) inline __m256i tiny_minus_one(__m256 x) {
  // |x| - 1 as an unsigned word: below 2^-63's bits - 1 exactly for the tiny x (a zero wraps to ~0).
  return _mm256_sub_epi32(_mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32(0x7fffffff)), _mm256_set1_epi32(1));
}
constexpr int kTinyBits = 64 << 23;  // the bits of 2^-63
// All ones in the lanes whose x is infinite or NaN.
__attribute__((target("avx2,fma"))) inline __m256i nonfinite(__m256 x) {
  return _mm256_cmpgt_epi32(_mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32(0x7fffffff)), _mm256_set1_epi32(0x7f7fffff));
}

// Four lanes of fma8_tiny in f64: the correctly rounded fma of a, b, c.
__attribute__((target("avx2,fma"))) __m128 fma4_f64(__m128 a, __m128 b, __m128 c) {
  const __m256d p = _mm256_mul_pd(_mm256_cvtps_pd(a), _mm256_cvtps_pd(b)), q = _mm256_cvtps_pd(c);
  const __m256d s = _mm256_add_pd(p, q), bv = _mm256_sub_pd(s, p);
  const __m256d err = _mm256_add_pd(_mm256_sub_pd(p, _mm256_sub_pd(s, bv)), _mm256_sub_pd(q, bv));
  // Round to odd: an inexact sum with an even last bit steps one ulp toward the exact value
  // (+1 in the bits when err has the sum's sign, -1 when not; a zero sum is always exact).
  const __m256i sb = _mm256_castpd_si256(s), eb = _mm256_castpd_si256(err);
  const __m256i inexact = _mm256_castpd_si256(_mm256_cmp_pd(err, _mm256_setzero_pd(), _CMP_NEQ_OQ));
  const __m256i even = _mm256_cmpeq_epi64(_mm256_and_si256(sb, _mm256_set1_epi64x(1)), _mm256_setzero_si256());
  const __m256i step = _mm256_or_si256(_mm256_cmpgt_epi64(_mm256_setzero_si256(), _mm256_xor_si256(sb, eb)), _mm256_set1_epi64x(1));
  const __m256i odd = _mm256_add_epi64(sb, _mm256_and_si256(_mm256_and_si256(inexact, even), step));
  return _mm256_cvtpd_ps(_mm256_castsi256_pd(odd));
}
// (The compiler may fuse p's multiply into the additions that use p: p is exact, so a fused
// operation rounds the same value.)
// fma(x, y, z) of 8 lanes of which those in `tiny` (all ones) have a tiny operand and no infinite or
// NaN one: those lanes in f64, without an assist (the product of two f32 values is exact in an f64,
// TwoSum gives the addition's error, round to odd, then one rounding to f32 by the conversion: the
// correctly rounded fma, fma_f32_round_odd in fp.hpp, Boldo & Melquiond 2008); every other lane by
// the host FMA on the same operands as before (its NaN results included), the tiny lanes' operands
// replaced by 1 so that they cost no assist there.
__attribute__((target("avx2,fma"))) __m256 fma8_tiny(__m256 x, __m256 y, __m256 z, __m256 tiny) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 hw = _mm256_fmadd_ps(_mm256_blendv_ps(x, one, tiny), _mm256_blendv_ps(y, one, tiny), _mm256_blendv_ps(z, one, tiny));
  const __m256 soft = _mm256_set_m128(fma4_f64(_mm256_extractf128_ps(x, 1), _mm256_extractf128_ps(y, 1), _mm256_extractf128_ps(z, 1)),
                                      fma4_f64(_mm256_castps256_ps128(x), _mm256_castps256_ps128(y), _mm256_castps256_ps128(z)));
  return _mm256_blendv_ps(hw, soft, tiny);
}

// Built for FMA + AVX2 hosts (eight lanes per instruction) and for FMA-only ones (four): the same
// correctly rounded fused results either way. Explicit vectors: each block of lanes is loaded
// before its results are stored, so r may be a, b or c (an in-place v_fmac), which an
// auto-vectorised loop has to check for at run time and then runs lane by lane.
// Operand i with bit i of BC set is one value for every lane (an inline constant, a literal or an
// SGPR): broadcast in a register here. Filling a 64-lane row for it first costs more than the FMAs:
// the 32-byte loads of a row just written by narrower stores cannot be forwarded from the store
// buffer and stall until the stores retire.
// A block with a tiny lane (above) takes fma8_tiny; the check costs a few integer operations.
template <unsigned BC>
__attribute__((target("avx2,fma"))) void fma64_avx2(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) {
  const auto* fa = reinterpret_cast<const float*>(a);
  const auto* fb = reinterpret_cast<const float*>(b);
  const auto* fc = reinterpret_cast<const float*>(c);
  // The broadcast values, read before any result is stored.
  const __m256 ba = _mm256_broadcast_ss(fa), bb = _mm256_broadcast_ss(fb), bc = _mm256_broadcast_ss(fc);
  const __m256i limit = _mm256_set1_epi32(kTinyBits - 2);
  for (int l = 0; l < 64; l += 8) {
    const __m256 x = BC & 1 ? ba : _mm256_loadu_ps(fa + l);
    const __m256 y = BC & 2 ? bb : _mm256_loadu_ps(fb + l);
    const __m256 z = BC & 4 ? bc : _mm256_loadu_ps(fc + l);
    // The smallest |operand| - 1 per lane, unsigned: <= 2^-63's bits - 2 exactly in the tiny lanes.
    const __m256i least = _mm256_min_epu32(_mm256_min_epu32(tiny_minus_one(x), tiny_minus_one(y)), tiny_minus_one(z));
    __m256i tiny = _mm256_cmpeq_epi32(_mm256_min_epu32(least, limit), least);
    __m256 f;
    if (_mm256_testz_si256(tiny, tiny)) [[likely]] {
      f = _mm256_fmadd_ps(x, y, z);
    } else {
      // Lanes with an infinite or NaN operand stay with the host FMA (its NaN choice).
      tiny = _mm256_andnot_si256(_mm256_or_si256(_mm256_or_si256(nonfinite(x), nonfinite(y)), nonfinite(z)), tiny);
      f = fma8_tiny(x, y, z, _mm256_castsi256_ps(tiny));
    }
    _mm256_storeu_ps(reinterpret_cast<float*>(r + l), f);
  }
}

__attribute__((target("fma"))) void fma64_hw(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) {
  for (int l = 0; l < 64; l += 4) {
    const __m128 x = _mm_loadu_ps(reinterpret_cast<const float*>(a + l));
    const __m128 y = _mm_loadu_ps(reinterpret_cast<const float*>(b + l));
    const __m128 z = _mm_loadu_ps(reinterpret_cast<const float*>(c + l));
    _mm_storeu_ps(reinterpret_cast<float*>(r + l), _mm_fmadd_ps(x, y, z));
  }
}

void fma64_sw(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) {
  for (int l = 0; l < 64; ++l) r[l] = bits_of(std::fma(f32_of(a[l]), f32_of(b[l]), f32_of(c[l])));
}

using Fma64Fn = void (*)(const uint32_t*, const uint32_t*, const uint32_t*, uint32_t*);

// The host's best form, chosen once.
Fma64Fn fma64_impl() {
  if (host_cpu().fma && host_cpu().avx2) return &fma64_avx2<0>;
  if (host_cpu().fma) return &fma64_hw;
  return &fma64_sw;
}
const Fma64Fn kFma64 = fma64_impl();
const bool kAvx2Fma = kFma64 == &fma64_avx2<0>;

}  // namespace

void fma64(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) { kFma64(a, b, c, r); }

void fma64_bcast(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r, unsigned bcast) {
  if (kAvx2Fma) {
    switch (bcast & 7) {
      case 0: return fma64_avx2<0>(a, b, c, r);
      case 1: return fma64_avx2<1>(a, b, c, r);
      case 2: return fma64_avx2<2>(a, b, c, r);
      case 3: return fma64_avx2<3>(a, b, c, r);
      case 4: return fma64_avx2<4>(a, b, c, r);
      case 5: return fma64_avx2<5>(a, b, c, r);
      case 6: return fma64_avx2<6>(a, b, c, r);
      default: return fma64_avx2<7>(a, b, c, r);
    }
  }
  // Hosts without AVX2: make the broadcast rows and take the plain form.
  alignas(32) uint32_t rows[3][64];
  const uint32_t* p[3] = {a, b, c};
  for (int i = 0; i < 3; ++i)
    if ((bcast >> i) & 1) {
      for (int l = 0; l < 64; ++l) rows[i][l] = *p[i];
      p[i] = rows[i];
    }
  kFma64(p[0], p[1], p[2], r);
}

}  // namespace cdnajit::sim
