// 64-lane correctly rounded f32 FMA: the host's FMA instruction when the CPU
// has it (with AVX2 where present; chosen once at run time), else std::fma.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "runtime/sim/fp.hpp"

namespace cdnajit::sim {
namespace {

// Built for FMA + AVX2 hosts (eight lanes per instruction) and for FMA-only ones (four): the same
// correctly rounded fused results either way.
__attribute__((target("avx2,fma"))) void fma64_avx2(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) {
  for (int l = 0; l < 64; ++l) {
    float x, y, z;
    std::memcpy(&x, a + l, 4);
    std::memcpy(&y, b + l, 4);
    std::memcpy(&z, c + l, 4);
    float o = __builtin_fmaf(x, y, z);
    std::memcpy(r + l, &o, 4);
  }
}

__attribute__((target("fma"))) void fma64_hw(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) {
  for (int l = 0; l < 64; ++l) {
    float x, y, z;
    std::memcpy(&x, a + l, 4);
    std::memcpy(&y, b + l, 4);
    std::memcpy(&z, c + l, 4);
    float o = __builtin_fmaf(x, y, z);
    std::memcpy(r + l, &o, 4);
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
