// The part of ROCm 6's <hip_fp8.h> API that HipKittens' headers use: the fp8 E4M3
// types (OCP and FNUZ), pairs and quads, built from and read as float. Written for
// cdnajit's validation runs from the API names only; the conversions are plain
// software (round to nearest even, saturating to the largest finite value).
#pragma once
#include <hip/hip_runtime.h>
#include <stdint.h>

namespace cdnajit_compat {
// E4M3 with exponent bias `bias`; fnuz: no negative zero, 0x80 is NaN, max 240; OCP: max 448, S.1111.111 NaN.
__host__ __device__ inline uint8_t f32_to_e4m3(float f, int bias, bool fnuz) {
  union { uint32_t u; float f; } v;
  v.f = f;
  const uint8_t sign = uint8_t((v.u >> 24) & 0x80);
  if (f != f) return fnuz ? 0x80 : 0x7f;
  float a = f < 0 ? -f : f;
  const float maxv = fnuz ? 240.0f : 448.0f;
  if (a >= maxv) return sign | (fnuz ? 0x7f : 0x7e);
  // Smallest normal 2^(1-bias); subnormals step 2^(1-bias-3).
  const float min_normal = __builtin_ldexpf(1.0f, 1 - bias);
  uint32_t code;
  if (a < min_normal) {
    const float q = a / __builtin_ldexpf(1.0f, 1 - bias - 3);  // 0..8
    uint32_t n = uint32_t(q);
    const float r = q - float(n);
    if (r > 0.5f || (r == 0.5f && (n & 1))) ++n;
    code = n;  // n == 8 is the smallest normal, encoded the same way
  } else {
    int e;
    const float m = __builtin_frexpf(a, &e);  // a = m * 2^e, m in [0.5, 1)
    float q = (m * 2.0f - 1.0f) * 8.0f;       // mantissa in eighths
    uint32_t n = uint32_t(q);
    const float r = q - float(n);
    if (r > 0.5f || (r == 0.5f && (n & 1))) ++n;
    code = (uint32_t(e - 1 + bias) << 3) + n;  // a carry into the exponent is the right code
  }
  if (fnuz && code == 0) return 0;
  return uint8_t(sign | code);
}
__host__ __device__ inline float e4m3_to_f32(uint8_t b, int bias, bool fnuz) {
  if (fnuz && b == 0x80) return __builtin_nanf("");
  if (!fnuz && (b & 0x7f) == 0x7f) return __builtin_nanf("");
  const int e = (b >> 3) & 15, m = b & 7;
  const float mag = e == 0 ? __builtin_ldexpf(float(m), 1 - bias - 3) : __builtin_ldexpf(1.0f + float(m) / 8.0f, e - bias);
  return (b & 0x80) ? -mag : mag;
}
}  // namespace cdnajit_compat

// One fp8 type, its pair and its quad: built from float / float2 / float4, read as float.
#define CDNAJIT_COMPAT_FP8(ONE, TWO, FOUR, BIAS, FNUZ)                                                       \
  struct ONE {                                                                                               \
    uint8_t __x;                                                                                             \
    ONE() = default;                                                                                         \
    __host__ __device__ explicit ONE(float f) : __x(cdnajit_compat::f32_to_e4m3(f, BIAS, FNUZ)) {}           \
    __host__ __device__ operator float() const { return cdnajit_compat::e4m3_to_f32(__x, BIAS, FNUZ); }      \
  };                                                                                                         \
  struct TWO {                                                                                               \
    uint16_t __x;                                                                                            \
    TWO() = default;                                                                                         \
    __host__ __device__ explicit TWO(float2 f)                                                               \
        : __x(uint16_t(cdnajit_compat::f32_to_e4m3(f.x, BIAS, FNUZ) |                                        \
                       (cdnajit_compat::f32_to_e4m3(f.y, BIAS, FNUZ) << 8))) {}                              \
  };                                                                                                         \
  struct FOUR {                                                                                              \
    uint32_t __x;                                                                                            \
    FOUR() = default;                                                                                        \
    __host__ __device__ explicit FOUR(float4 f)                                                              \
        : __x(uint32_t(cdnajit_compat::f32_to_e4m3(f.x, BIAS, FNUZ)) |                                       \
              (uint32_t(cdnajit_compat::f32_to_e4m3(f.y, BIAS, FNUZ)) << 8) |                                \
              (uint32_t(cdnajit_compat::f32_to_e4m3(f.z, BIAS, FNUZ)) << 16) |                               \
              (uint32_t(cdnajit_compat::f32_to_e4m3(f.w, BIAS, FNUZ)) << 24)) {}                             \
  };

CDNAJIT_COMPAT_FP8(__hip_fp8_e4m3, __hip_fp8x2_e4m3, __hip_fp8x4_e4m3, 7, false)
CDNAJIT_COMPAT_FP8(__hip_fp8_e4m3_fnuz, __hip_fp8x2_e4m3_fnuz, __hip_fp8x4_e4m3_fnuz, 8, true)
#undef CDNAJIT_COMPAT_FP8
