// What HipKittens uses from ROCm 6's <hip_fp16.h> that ROCm 5.2's lacks (the rcp helpers 5.2's
// header needs under clang 22 come from cdnajit-hipcc itself).
#pragma once
#include <hip/hip_runtime.h>
#include_next <hip_fp16.h>

// ROCm 6 adds __hmax / __hmin (and the pair forms) for __half; ROCm 5.2 has none.
__host__ __device__ inline __half __hmax(__half a, __half b) { return __float2half(__builtin_fmaxf(__half2float(a), __half2float(b))); }
__host__ __device__ inline __half __hmin(__half a, __half b) { return __float2half(__builtin_fminf(__half2float(a), __half2float(b))); }
__host__ __device__ inline __half2 __hmax2(__half2 a, __half2 b) { return __half2{__hmax(a.x, b.x), __hmax(a.y, b.y)}; }
__host__ __device__ inline __half2 __hmin2(__half2 a, __half2 b) { return __half2{__hmin(a.x, b.x), __hmin(a.y, b.y)}; }

// ROCm 5.2's vector types (float2, float4, ...) have a user-provided copy assignment
// (HIP_vector_base::operator=), so they are not trivially copyable and std::bit_cast
// refuses them; ROCm 6's are. This bit_cast takes a same-size non-trivially-copyable
// HIP vector type on either side and copies the bytes.
#include <bit>
#include <type_traits>
namespace std {
template <class To, class From>
  requires(sizeof(To) == sizeof(From) && (!is_trivially_copyable_v<To> || !is_trivially_copyable_v<From>))
__host__ __device__ inline To bit_cast(const From& from) noexcept {
  To to;
  __builtin_memcpy(&to, &from, sizeof(To));
  return to;
}
}  // namespace std
