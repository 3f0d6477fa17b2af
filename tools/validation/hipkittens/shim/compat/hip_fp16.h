// ROCm 5.2's <hip_fp16.h> calls __llvm_amdgcn_rcp_f16 / _2f16, which it leaves to
// clang's HIP wrapper headers to declare; clang 22's no longer do, so every file
// including it fails to compile. They are defined here (the hardware v_rcp_f16) before
// the ROCm header is included.
#pragma once
#include <hip/hip_runtime.h>
#if defined(__HIP_DEVICE_COMPILE__) || defined(__HIP__)
extern "C" __device__ inline __attribute__((const)) _Float16 __llvm_amdgcn_rcp_f16(_Float16 x) {
  return _Float16(__builtin_amdgcn_rcph(x));
}
typedef _Float16 __cdnajit_2f16 __attribute__((ext_vector_type(2)));
__device__ inline __cdnajit_2f16 __llvm_amdgcn_rcp_2f16(__cdnajit_2f16 x) {
  return __cdnajit_2f16{_Float16(__builtin_amdgcn_rcph(x.x)), _Float16(__builtin_amdgcn_rcph(x.y))};
}
#endif
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
