// cdnajit device header for HIP C++ kernels compiled by clang++ without the
// ROCm headers (clang -x hip -nogpuinc). It provides the small part of the
// HIP device API that kernels in this project use, written on clang's AMDGPU
// builtins. When the source is compiled by hiprtc (ROCm >= 6), HIP's own
// definitions are already present and only the cdnajit extras at the end
// (cdna_* helpers) are added.
//
// Notes for kernel authors:
//  - HIP compiles with -ffp-contract=fast-honor-pragmas: a*b+c may become one
//    fused multiply-add. Write fmaf() where you want fusion and pass
//    -ffp-contract=off (or use #pragma clang fp contract(off)) where you do not.
//  - gridDim is read from the hidden kernel arguments (block counts) and
//    blockDim from the hidden group sizes, as clang's own HIP headers do.
#pragma once

#if !defined(__HIPCC_RTC__)

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
// __launch_bounds__(max_threads[, min_blocks_per_multiprocessor])
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

typedef unsigned int uint;

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x, y, z;
};

// Work-item and workgroup coordinates. Each use is a call the optimiser
// folds; unused dimensions cost nothing.
static __device__ __forceinline__ uint3 __cdna_thread_idx() {
  return {__builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z()};
}
static __device__ __forceinline__ uint3 __cdna_block_idx() {
  return {__builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z()};
}
static __device__ __forceinline__ dim3 __cdna_block_dim() {
  return {__builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(),
          __builtin_amdgcn_workgroup_size_z()};
}
// Code object v5 hidden arguments start with hidden_block_count_{x,y,z} (u32).
static __device__ __forceinline__ dim3 __cdna_grid_dim() {
  const unsigned* hidden = (const unsigned*)__builtin_amdgcn_implicitarg_ptr();
  return {hidden[0], hidden[1], hidden[2]};
}
#define threadIdx (__cdna_thread_idx())
#define blockIdx (__cdna_block_idx())
#define blockDim (__cdna_block_dim())
#define gridDim (__cdna_grid_dim())
#define warpSize 64

// Workgroup barrier with the memory ordering HIP gives __syncthreads: release
// our LDS/global writes to the workgroup, wait, then acquire everyone else's.
static __device__ __forceinline__ void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
static __device__ __forceinline__ void __threadfence_block() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup"); }
static __device__ __forceinline__ void __threadfence() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }

// In-kernel clocks, as HIP names them. clang-22 emits s_memtime for the cycle counter and
// s_memrealtime for the constant-rate one on gfx942/gfx950; the simulator returns modelled values
// for both under `cdnajit run --model` (runtime/model/clock_reads.hpp), else an instruction count.
static __device__ __forceinline__ long long clock64() { return (long long)__builtin_readcyclecounter(); }
static __device__ __forceinline__ long long clock() { return clock64(); }
static __device__ __forceinline__ long long wall_clock64() { return (long long)__builtin_readsteadycounter(); }

// Vector types as clang extended vectors (.x/.y/.z/.w and element-wise ops).
typedef float float2 __attribute__((ext_vector_type(2)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef int int2 __attribute__((ext_vector_type(2)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef unsigned uint2 __attribute__((ext_vector_type(2)));
typedef unsigned uint4 __attribute__((ext_vector_type(4)));
static __device__ __forceinline__ float2 make_float2(float x, float y) { return float2{x, y}; }
static __device__ __forceinline__ float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
static __device__ __forceinline__ int2 make_int2(int x, int y) { return int2{x, y}; }
static __device__ __forceinline__ int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }

// Scalar math.
static __device__ __forceinline__ float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static __device__ __forceinline__ double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
static __device__ __forceinline__ float fminf(float a, float b) { return __builtin_fminf(a, b); }
static __device__ __forceinline__ float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ __forceinline__ float fabsf(float a) { return __builtin_fabsf(a); }
static __device__ __forceinline__ float sqrtf(float a) { return __builtin_sqrtf(a); }
static __device__ __forceinline__ float floorf(float a) { return __builtin_floorf(a); }
static __device__ __forceinline__ float truncf(float a) { return __builtin_truncf(a); }
static __device__ __forceinline__ int min(int a, int b) { return a < b ? a : b; }
static __device__ __forceinline__ int max(int a, int b) { return a > b ? a : b; }
static __device__ __forceinline__ unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static __device__ __forceinline__ unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static __device__ __forceinline__ long long min(long long a, long long b) { return a < b ? a : b; }
static __device__ __forceinline__ long long max(long long a, long long b) { return a > b ? a : b; }
static __device__ __forceinline__ float min(float a, float b) { return __builtin_fminf(a, b); }
static __device__ __forceinline__ float max(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ __forceinline__ int abs(int a) { return a < 0 ? -a : a; }

// Bit reinterpretation.
static __device__ __forceinline__ unsigned __float_as_uint(float f) { return __builtin_bit_cast(unsigned, f); }
static __device__ __forceinline__ int __float_as_int(float f) { return __builtin_bit_cast(int, f); }
static __device__ __forceinline__ float __uint_as_float(unsigned u) { return __builtin_bit_cast(float, u); }
static __device__ __forceinline__ float __int_as_float(int i) { return __builtin_bit_cast(float, i); }
static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static __device__ __forceinline__ unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32);
}
static __device__ __forceinline__ int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }

// Half precision (IEEE binary16) and bfloat16, as clang's native types.
typedef _Float16 __half;
typedef __bf16 __hip_bfloat16;
static __device__ __forceinline__ __half __float2half(float f) { return (__half)f; }
static __device__ __forceinline__ float __half2float(__half h) { return (float)h; }
static __device__ __forceinline__ __hip_bfloat16 __float2bfloat16(float f) { return (__bf16)f; }
static __device__ __forceinline__ float __bfloat162float(__hip_bfloat16 b) { return (float)b; }

// Cross-lane: value of `var` in lane (own lane ^ mask), within the wave.
static __device__ __forceinline__ int __shfl_xor(int var, int lane_mask, int width = 64) {
  int lane = (int)__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  int src = lane ^ lane_mask;
  if ((src & ~(width - 1)) != (lane & ~(width - 1))) src = lane;  // stay inside the width-lane segment
  return __builtin_amdgcn_ds_bpermute(src << 2, var);
}
static __device__ __forceinline__ float __shfl_xor(float var, int lane_mask, int width = 64) {
  return __int_as_float(__shfl_xor(__float_as_int(var), lane_mask, width));
}

// Atomics (device scope, relaxed ordering, as HIP's atomicAdd).
static __device__ __forceinline__ int atomicAdd(int* p, int v) {
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
static __device__ __forceinline__ unsigned atomicAdd(unsigned* p, unsigned v) {
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
static __device__ __forceinline__ float atomicAdd(float* p, float v) {
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
static __device__ __forceinline__ int atomicMax(int* p, int v) {
  return __hip_atomic_fetch_max(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}

#endif  // !__HIPCC_RTC__

// ---- cdnajit extras (both compilers) -------------------------------------
// Packed-operand vector types of the AMDGPU builtins (dot2, MFMA, v_pk_*).
typedef _Float16 cdna_half2 __attribute__((ext_vector_type(2)));
typedef _Float16 cdna_half4 __attribute__((ext_vector_type(4)));
typedef __bf16 cdna_bf16x2 __attribute__((ext_vector_type(2)));
typedef __bf16 cdna_bf16x8 __attribute__((ext_vector_type(8)));
typedef short cdna_short2 __attribute__((ext_vector_type(2)));
typedef float cdna_float4 __attribute__((ext_vector_type(4)));

// bfloat16 from its raw 16 bits and back, without arithmetic.
static __device__ inline float cdna_bf16_bits_to_float(unsigned short b) {
  return __builtin_bit_cast(float, (unsigned)b << 16);
}
static __device__ inline unsigned short cdna_bf16_bits(__bf16 b) { return __builtin_bit_cast(unsigned short, b); }
static __device__ inline __bf16 cdna_bf16_from_bits(unsigned short b) { return __builtin_bit_cast(__bf16, b); }
static __device__ inline unsigned short cdna_half_bits(_Float16 h) { return __builtin_bit_cast(unsigned short, h); }
static __device__ inline _Float16 cdna_half_from_bits(unsigned short b) { return __builtin_bit_cast(_Float16, b); }

// Lane index within the wave (0..63).
static __device__ inline unsigned cdna_lane_id() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}

// Buffer resource for the raw buffer builtins: base pointer, byte size
// (num_records; out-of-range loads return 0, stores are dropped) and the
// word-3 flags gfx9 needs for untyped dword access (DATA_FORMAT = 32 bits).
// The builtin exists from clang 19 (older ROCm hiprtc compilers lack it).
#if __has_builtin(__builtin_amdgcn_make_buffer_rsrc)
static __device__ inline __amdgpu_buffer_rsrc_t cdna_make_buffer_rsrc(const void* base, unsigned bytes) {
  return __builtin_amdgcn_make_buffer_rsrc((void*)base, (short)0, (int)bytes, 0x00020000);
}
#endif
