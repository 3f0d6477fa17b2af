// More instruction variety for the parser tests: 16/8-bit math (SDWA), packed
// f32, lane ops, atomics with return, buffer->LDS DMA, fp8 MFMA, s_getreg,
// s_memtime, s_setprio, s_sleep.
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __device__ __attribute__((device))
typedef float float2_ __attribute__((ext_vector_type(2)));
typedef float float4_ __attribute__((ext_vector_type(4)));
typedef short short2_ __attribute__((ext_vector_type(2)));
typedef _Float16 half2_ __attribute__((ext_vector_type(2)));
static __device__ unsigned tid() { return __builtin_amdgcn_workitem_id_x(); }

extern "C" __global__ void small_ints(unsigned short* a, unsigned char* b, short2_* c, half2_* h) {
  unsigned t = tid();
  unsigned short x = a[t], y = a[t + 64];
  a[t] = (unsigned short)(x * y + (x >> 3));
  b[t] = (unsigned char)(b[t] * 3 + b[t + 1]);
  c[t] = c[t] + c[t + 1] * (short)7;
  h[t] = h[t] * h[t + 1] + (half2_){(_Float16)1.0f, (_Float16)-2.0f};
}

extern "C" __global__ void packed(float2_* p, float* q, int n) {
  unsigned t = tid();
  float2_ a = p[t], b = p[t + 64];
  float2_ r = a * b + (float2_){0.5f, 4.0f};
  p[t] = r;
  float v = q[t];
  float s = __builtin_amdgcn_readlane(__builtin_bit_cast(int, v), 5);
  int w = __builtin_amdgcn_readfirstlane((int)t * 3);
  q[t] = v + s + (float)w;
}

extern "C" __global__ void atomics(int* p, float* f, unsigned* out) {
  unsigned t = tid();
  int old = __atomic_fetch_add(p + (t & 7), 1, __ATOMIC_RELAXED);
  unsigned m = __atomic_fetch_max((unsigned*)p + 64, t, __ATOMIC_RELAXED);
  float g = __atomic_fetch_add(f + t, 1.5f, __ATOMIC_RELAXED);
  out[t] = old + m + (unsigned)g;
}

extern "C" __global__ void special(unsigned* out, __amdgpu_buffer_rsrc_t r) {
  __shared__ unsigned tile[256];
  unsigned t = tid();
  __builtin_amdgcn_s_setprio(2);
  unsigned hw = __builtin_amdgcn_s_getreg((4) | (0 << 6) | (31 << 11));
  unsigned long long tm = __builtin_amdgcn_s_memtime();
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, (__attribute__((address_space(3))) void*)tile, 4, t * 4, 0, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  __builtin_amdgcn_s_sleep(1);
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_s_setprio(0);
  out[t] = hw + (unsigned)tm + tile[t ^ 1];
}

extern "C" __global__ void fp8(const long* a, const long* b, float4_* c) {
  unsigned t = tid();
  float4_ acc = c[t];
  acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a[t], b[t], acc, 0, 0, 0);
  acc = __builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8(a[t + 1], b[t], acc, 1, 2, 3);
  c[t] = acc;
}
