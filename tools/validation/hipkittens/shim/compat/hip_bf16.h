// The part of ROCm 6's <hip_bf16.h> API (__hip_bfloat16, __hip_bfloat162 and
// their conversions) that HipKittens' headers use, for Debian's ROCm 5.2 headers,
// which predate it. Written for cdnajit's validation runs from the API names only;
// float -> bf16 rounds to nearest even, NaN stays NaN.
#pragma once
#include <hip/hip_runtime.h>
#include <stdint.h>

struct __hip_bfloat16 {
  unsigned short data;
};
struct __hip_bfloat162 {
  __hip_bfloat16 x, y;
};

__host__ __device__ inline float __bfloat162float(__hip_bfloat16 a) {
  union { uint32_t u; float f; } v;
  v.u = uint32_t(a.data) << 16;
  return v.f;
}
__host__ __device__ inline __hip_bfloat16 __float2bfloat16(float f) {
  union { uint32_t u; float f; } v;
  v.f = f;
  if ((v.u & 0x7fffffffu) > 0x7f800000u) return __hip_bfloat16{uint16_t((v.u >> 16) | 0x40)};
  v.u += 0x7fffu + ((v.u >> 16) & 1u);
  return __hip_bfloat16{uint16_t(v.u >> 16)};
}
__host__ __device__ inline unsigned short __bfloat16_as_ushort(__hip_bfloat16 a) { return a.data; }
__host__ __device__ inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short a) { return __hip_bfloat16{a}; }
__host__ __device__ inline float2 __bfloat1622float2(__hip_bfloat162 a) {
  return float2{__bfloat162float(a.x), __bfloat162float(a.y)};
}
__host__ __device__ inline __hip_bfloat162 __float22bfloat162_rn(float2 a) {
  return __hip_bfloat162{__float2bfloat16(a.x), __float2bfloat16(a.y)};
}
__host__ __device__ inline __hip_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __hip_bfloat162{__float2bfloat16(a), __float2bfloat16(b)};
}

// Arithmetic and math on bf16 through f32, rounded back to nearest even (ROCm 6 names).
#define CDNAJIT_BF16_UNARY(NAME, EXPR)                                                                       \
  __host__ __device__ inline __hip_bfloat16 NAME(__hip_bfloat16 a) {                                         \
    const float x = __bfloat162float(a);                                                                     \
    return __float2bfloat16(EXPR);                                                                           \
  }
#define CDNAJIT_BF16_UNARY2(NAME, ONE)                                                                       \
  __host__ __device__ inline __hip_bfloat162 NAME(__hip_bfloat162 a) { return __hip_bfloat162{ONE(a.x), ONE(a.y)}; }
#define CDNAJIT_BF16_BINARY(NAME, EXPR)                                                                      \
  __host__ __device__ inline __hip_bfloat16 NAME(__hip_bfloat16 a, __hip_bfloat16 b) {                       \
    const float x = __bfloat162float(a), y = __bfloat162float(b);                                            \
    return __float2bfloat16(EXPR);                                                                           \
  }
#define CDNAJIT_BF16_BINARY2(NAME, ONE)                                                                      \
  __host__ __device__ inline __hip_bfloat162 NAME(__hip_bfloat162 a, __hip_bfloat162 b) {                    \
    return __hip_bfloat162{ONE(a.x, b.x), ONE(a.y, b.y)};                                                    \
  }
CDNAJIT_BF16_UNARY(hexp, __builtin_expf(x))
CDNAJIT_BF16_UNARY(hexp2, __builtin_exp2f(x))
CDNAJIT_BF16_UNARY(hlog, __builtin_logf(x))
CDNAJIT_BF16_UNARY(hlog2, __builtin_log2f(x))
CDNAJIT_BF16_UNARY(__habs, __builtin_fabsf(x))
CDNAJIT_BF16_UNARY2(h2exp, hexp)
CDNAJIT_BF16_UNARY2(h2exp2, hexp2)
CDNAJIT_BF16_UNARY2(h2log, hlog)
CDNAJIT_BF16_UNARY2(h2log2, hlog2)
CDNAJIT_BF16_UNARY2(__habs2, __habs)
CDNAJIT_BF16_BINARY(__hadd, x + y)
CDNAJIT_BF16_BINARY(__hsub, x - y)
CDNAJIT_BF16_BINARY(__hmul, x * y)
CDNAJIT_BF16_BINARY(__hdiv, x / y)
CDNAJIT_BF16_BINARY(__hmax, __builtin_fmaxf(x, y))
CDNAJIT_BF16_BINARY(__hmin, __builtin_fminf(x, y))
CDNAJIT_BF16_BINARY2(__hadd2, __hadd)
CDNAJIT_BF16_BINARY2(__hsub2, __hsub)
CDNAJIT_BF16_BINARY2(__hmul2, __hmul)
CDNAJIT_BF16_BINARY2(__h2div, __hdiv)
CDNAJIT_BF16_BINARY2(__hmax2, __hmax)
CDNAJIT_BF16_BINARY2(__hmin2, __hmin)
#undef CDNAJIT_BF16_UNARY
#undef CDNAJIT_BF16_UNARY2
#undef CDNAJIT_BF16_BINARY
#undef CDNAJIT_BF16_BINARY2
