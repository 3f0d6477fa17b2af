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

// Built for FMA + AVX2 hosts (eight lanes per instruction) and for FMA-only ones (four): the same
// correctly rounded fused results either way. Explicit vectors: each block of lanes is loaded
// before its results are stored, so r may be a, b or c (an in-place v_fmac), which an
// auto-vectorised loop has to check for at run time and then runs lane by lane.
// Operand i with bit i of BC set is one value for every lane (an inline constant, a literal or an
// SGPR): broadcast in a register here. Filling a 64-lane row for it first costs more than the FMAs:
// the 32-byte loads of a row just written by narrower stores cannot be forwarded from the store
// buffer and stall until the stores retire.
template <unsigned BC>
__attribute__((target("avx2,fma"))) void fma64_avx2(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) {
  const auto* fa = reinterpret_cast<const float*>(a);
  const auto* fb = reinterpret_cast<const float*>(b);
  const auto* fc = reinterpret_cast<const float*>(c);
  // The broadcast values, read before any result is stored.
  const __m256 ba = _mm256_broadcast_ss(fa), bb = _mm256_broadcast_ss(fb), bc = _mm256_broadcast_ss(fc);
  for (int l = 0; l < 64; l += 8) {
    const __m256 x = BC & 1 ? ba : _mm256_loadu_ps(fa + l);
    const __m256 y = BC & 2 ? bb : _mm256_loadu_ps(fb + l);
    const __m256 z = BC & 4 ? bc : _mm256_loadu_ps(fc + l);
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
