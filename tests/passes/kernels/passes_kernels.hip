// HIP kernels compiled by clang for gfx942/gfx950 whose disassembly the Verify passes
// must accept without findings (clang's SIInsertWaitcnts and GCNHazardRecognizer made
// it correct). Chosen to exercise loops, joins, LDS, SMEM, DPP, lane ops, transcendentals,
// divisions, MFMA chains, v_dot2 and wide stores. No HIP headers.
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __device__ __attribute__((device))
typedef float float4_ __attribute__((ext_vector_type(4)));
typedef float float16_ __attribute__((ext_vector_type(16)));
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef short bf16x2_raw __attribute__((ext_vector_type(2)));
static __device__ unsigned tid() { return __builtin_amdgcn_workitem_id_x(); }
static __device__ unsigned bid() { return __builtin_amdgcn_workgroup_id_x(); }
// __syncthreads() as HIP defines it: a bare __builtin_amdgcn_s_barrier() orders no memory, so
// another wave may not see this wave's LDS stores yet (clang then emits no wait before it).
static __device__ void sync() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

extern "C" __global__ void loop_sum(const float* a, float* out, int n, int stride) {
  float s = 0.f, t = 1.f;
  for (int i = bid() * 64 + tid(); i < n; i += stride) {
    s += a[i];
    t *= a[i + 1] + 0.5f;
  }
  out[bid() * 64 + tid()] = s + t;
}

extern "C" __global__ void branches(const int* a, const float* b, float* out, int k) {
  unsigned t = tid();
  float v;
  if (a[t] > k) v = b[t] * 3.f + __builtin_sqrtf(b[t + 64]);
  else v = __builtin_expf(b[t + 128]) / (b[t] + 1.f);
  out[t] = v;
}

extern "C" __global__ void lds_and_lanes(const float* g, float* o, int sel) {
  __shared__ float tile[256];
  unsigned t = tid();
  tile[t] = g[t] * 2.f;
  sync();
  float x = tile[(t + 17) & 255] + tile[(t * 3) & 255];
  int xi = __builtin_bit_cast(int, x);
  xi += __builtin_amdgcn_readlane(xi, sel & 63);
  xi += __builtin_amdgcn_readfirstlane(xi);
  xi += __builtin_amdgcn_mov_dpp(xi, 0x111, 0xf, 0xf, false);
  xi = __builtin_amdgcn_ds_bpermute((int)((t ^ 5) << 2), xi);
  o[t] = __builtin_bit_cast(float, xi) + __builtin_logf(x);
}

extern "C" __global__ void wide_store(float4_* o, const float4_* in, float k) {
  unsigned t = tid();
  float4_ v = in[t];
  o[t] = v;
  v = v * k + 1.f;
  o[t + 64] = v;
  o[t + 128] = v * v;
}

extern "C" __global__ void mfma_chain(const half4* a, const half4* b, float16_* c, float4_* d, float* e) {
  unsigned t = tid();
  float16_ acc = c[t];
  half4 x = a[t], y = b[t];
  for (int k = 0; k < 3; ++k) acc = __builtin_amdgcn_mfma_f32_32x32x8f16(x, y, acc, 0, 0, 0);
  float4_ acc2 = d[t];
  acc2 = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, acc2, 0, 0, 0);
  acc2 = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, acc2, 0, 0, 0);
  float4_ acc3 = __builtin_amdgcn_mfma_f32_16x16x4f32(acc2[0], acc2[1], acc2, 0, 0, 0);
  e[t] = acc[0] + acc[5] * acc2[3];
  c[t] = acc;
  d[t] = acc3 + acc2;
}

extern "C" __global__ void divide(const float* a, const float* b, float* o) {
  unsigned t = tid();
  o[t] = a[t] / b[t];
}

#if defined(__gfx950__)
extern "C" __global__ void dot2(const bf16x2_raw* w, const bf16x2_raw* x, float* o, int n) {
  unsigned t = tid();
  float acc = 0.f;
  for (int i = 0; i < n; ++i)
    acc = __builtin_amdgcn_fdot2_f32_bf16(__builtin_bit_cast(__bf16 __attribute__((ext_vector_type(2))), w[i * 64 + t]),
                                          __builtin_bit_cast(__bf16 __attribute__((ext_vector_type(2))), x[i * 64 + t]),
                                          acc, false);
  o[t] = acc * 2.f;
}
#endif

typedef double double4_ __attribute__((ext_vector_type(4)));
typedef _Float16 half2_ __attribute__((ext_vector_type(2)));

extern "C" __global__ void dgemm(const double* a, const double* b, double4_* c, double* o) {
  unsigned t = tid();
  double4_ acc = c[t];
  acc = __builtin_amdgcn_mfma_f64_16x16x4f64(a[t], b[t], acc, 0, 0, 0);
  acc = __builtin_amdgcn_mfma_f64_16x16x4f64(a[t + 64], b[t], acc, 0, 0, 0);
  o[t] = __builtin_fma(acc[0], acc[1], a[t]) + acc[2];
  c[t] = acc;
}

extern "C" __global__ void buffers_atomics(__amdgpu_buffer_rsrc_t r, int* counter, float* f, int n) {
  unsigned t = tid();
  float v = __builtin_amdgcn_raw_buffer_load_b32(r, t * 4, 0, 0);
  int old = __atomic_fetch_add(counter + (t & 7), 1, __ATOMIC_RELAXED);
  __builtin_amdgcn_raw_buffer_store_b32(v * (float)old, r, t * 4 + 4096, 0, 0);
  if (t < (unsigned)n) __atomic_fetch_add(f + t, v, __ATOMIC_RELAXED);
}

extern "C" __global__ void lds_dma(float* g, float* o) {
  __shared__ float tile[1024];
  unsigned t = tid();
  typedef __attribute__((address_space(1))) void* gptr;
  typedef __attribute__((address_space(3))) void* lptr;
  __builtin_amdgcn_global_load_lds((gptr)(g + t), (lptr)tile, 4, 0, 0);
  __builtin_amdgcn_global_load_lds((gptr)(g + 256 + t), (lptr)(tile + 256), 4, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  __builtin_amdgcn_s_barrier();
  o[t] = tile[(t * 5) & 511] + tile[t ^ 3];
}

extern "C" __global__ void halfs(const half2_* a, half2_* o, const float* s, int lane) {
  unsigned t = tid();
  half2_ x = a[t];
  half2_ y = {x[1] * (_Float16)2, x[0] + (_Float16)1};
  o[t] = y * x;
  float w = s[t];
  int wi = __builtin_bit_cast(int, w);
  o[t + 64] = __builtin_bit_cast(half2_, __builtin_amdgcn_readlane(wi, lane) + wi);
}

extern "C" __global__ void big_mfma(const half4* a, const half4* b, float16_* c) {
  unsigned t = tid();
  float16_ acc0 = c[t], acc1 = c[t + 64], acc2 = c[t + 128];
  for (int k = 0; k < 8; ++k) {
    half4 x = a[t + k * 64], y = b[t + k * 64];
    acc0 = __builtin_amdgcn_mfma_f32_32x32x8f16(x, y, acc0, 0, 0, 0);
    acc1 = __builtin_amdgcn_mfma_f32_32x32x8f16(y, x, acc1, 0, 0, 0);
    acc2 = __builtin_amdgcn_mfma_f32_32x32x8f16(x, x, acc2, 0, 0, 0);
  }
  c[t] = acc0 + acc1;
  c[t + 64] = acc2;
}
