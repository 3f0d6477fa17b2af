// gfx950-only instructions clang emits (dot2 bf16, cvt_pk_bf16, new MFMAs, wider LDS DMA).
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __device__ __attribute__((device))
typedef float float4_ __attribute__((ext_vector_type(4)));
typedef float float16_ __attribute__((ext_vector_type(16)));
typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));
typedef __bf16 bf16x2 __attribute__((ext_vector_type(2)));
typedef _Float16 half8 __attribute__((ext_vector_type(8)));
typedef int int8_ __attribute__((ext_vector_type(8)));
static __device__ unsigned tid() { return __builtin_amdgcn_workitem_id_x(); }

extern "C" __global__ void mfma950(const bf16x8* a, const bf16x8* b, float4_* c, float16_* d, const half8* h, const int8_* f) {
  unsigned t = tid();
  float4_ acc = c[t];
  acc = __builtin_amdgcn_mfma_f32_16x16x32_bf16(a[t], b[t], acc, 0, 0, 0);
  acc = __builtin_amdgcn_mfma_f32_16x16x32_f16(h[t], h[t + 1], acc, 0, 0, 0);
  acc = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(f[t], f[t + 1], acc, 0, 0, 0, 0x7f, 0, 0x7f);
  float16_ acc16 = d[t];
  acc16 = __builtin_amdgcn_mfma_f32_32x32x16_bf16(a[t], b[t], acc16, 0, 0, 0);
  c[t] = acc;
  d[t] = acc16;
}

extern "C" __global__ void dot2(const bf16x2* a, const bf16x2* b, float* o, bf16x2* p) {
  unsigned t = tid();
  float acc = o[t];
  for (int k = 0; k < 8; ++k) acc = __builtin_amdgcn_fdot2_f32_bf16(a[t + k], b[t + k], acc, false);
  o[t] = acc;
  bf16x2 q = {(__bf16)acc, (__bf16)(acc * 2.0f)};
  p[t] = q;
}

extern "C" __global__ void ldsdma(const float* g, float* o) {
  __shared__ float tile[1024];
  unsigned t = tid();
  __builtin_amdgcn_global_load_lds((float*)g + t * 4, (__attribute__((address_space(3))) void*)tile, 16, 0, 0);
  __builtin_amdgcn_global_load_lds((float*)g + t, (__attribute__((address_space(3))) void*)(tile + 512), 4, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  __builtin_amdgcn_s_barrier();
  o[t] = tile[t ^ 3];
}
