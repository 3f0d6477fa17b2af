// 64-lane correctly rounded f32 FMA: the host's FMA instruction when the CPU
// has it (with AVX2 where present; chosen once at run time), else std::fma.
#include <cmath>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "runtime/sim/fp.hpp"

namespace cdnajit::sim {
namespace {

// Built for FMA + AVX2 hosts (eight lanes per instruction) and for FMA-only ones (four): the same
// correctly rounded fused results either way. Explicit vectors: each block of lanes is loaded
// before its results are stored, so r may be a, b or c (an in-place v_fmac), which an
// auto-vectorised loop has to check for at run time and then runs lane by lane.
__attribute__((target("avx2,fma"))) void fma64_avx2(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) {
  for (int l = 0; l < 64; l += 8) {
    const __m256 x = _mm256_loadu_ps(reinterpret_cast<const float*>(a + l));
    const __m256 y = _mm256_loadu_ps(reinterpret_cast<const float*>(b + l));
    const __m256 z = _mm256_loadu_ps(reinterpret_cast<const float*>(c + l));
    _mm256_storeu_ps(reinterpret_cast<float*>(r + l), _mm256_fmadd_ps(x, y, z));
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

}  // namespace

void fma64(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) {
  static const bool hw = __builtin_cpu_supports("fma"), avx2 = hw && __builtin_cpu_supports("avx2");
  if (avx2) fma64_avx2(a, b, c, r);
  else if (hw) fma64_hw(a, b, c, r);
  else fma64_sw(a, b, c, r);
}

}  // namespace cdnajit::sim
