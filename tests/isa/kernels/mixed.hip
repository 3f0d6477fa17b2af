// Small HIP kernels compiled by clang for gfx942/gfx950; their disassembly is
// parser test input (see tests/isa/README in test_parse.cpp). No HIP headers.
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __device__ __attribute__((device))
typedef float float4_ __attribute__((ext_vector_type(4)));
typedef float float16_ __attribute__((ext_vector_type(16)));
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef _Float16 half8 __attribute__((ext_vector_type(8)));
typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));
typedef __bf16 bf16x2 __attribute__((ext_vector_type(2)));
typedef short short2_ __attribute__((ext_vector_type(2)));
typedef int int2_ __attribute__((ext_vector_type(2)));
typedef int int8_ __attribute__((ext_vector_type(8)));
static __device__ unsigned tid() { return __builtin_amdgcn_workitem_id_x(); }
static __device__ unsigned bid() { return __builtin_amdgcn_workgroup_id_x(); }

extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = bid() * 256 + tid();
  if (i < n) c[i] = a[i] * 2.0f + b[i] - 0.5f;
}

extern "C" __global__ void reduce(const float* in, float* out, int n) {
  __shared__ float tile[256];
  unsigned t = tid();
  float s = 0;
  for (int i = bid() * 256 + t; i < n; i += 65536) s += in[i];
  tile[t] = s;
  __builtin_amdgcn_s_barrier();
  for (int k = 128; k > 0; k >>= 1) {
    if (t < (unsigned)k) tile[t] += tile[t + k];
    __builtin_amdgcn_s_barrier();
  }
  if (t == 0) __atomic_fetch_add(out, tile[0], __ATOMIC_RELAXED);
}

extern "C" __global__ void mathk(float* x, double* y, _Float16* h, unsigned short* bf, int n) {
  unsigned i = bid() * 64 + tid();
  float v = x[i];
  float r = __builtin_sqrtf(v) + __builtin_expf(v) / (v + 3.0f) + __builtin_amdgcn_rsqf(v) + __builtin_logf(v);
  r = __builtin_fmaxf(r, 0.15915494f) * __builtin_sinf(v);
  x[i] = r;
  y[i] = (double)r * y[i] + 1.0;
  h[i] = (_Float16)r + h[i];
  bf[i] = (unsigned short)((__builtin_bit_cast(unsigned, r) + 0x7fff) >> 16);
  int q = (int)r; unsigned u = (unsigned)v;
  x[i + 64] = (float)q + (float)u + (float)(i % 7) + (float)(q / (int)(u | 1));
}

extern "C" __global__ void shuffles(int* p, const short* s, unsigned char* b) {
  unsigned t = tid();
  int v = p[t];
  v = __builtin_amdgcn_ds_bpermute((t ^ 1) << 2, v);
  v += __builtin_amdgcn_ds_swizzle(v, 0x401f);
  v += __builtin_amdgcn_readfirstlane(v);
  v += __builtin_amdgcn_mov_dpp(v, 0x111, 0xf, 0xf, false);
  v = __builtin_amdgcn_alignbit(v, t, 8) + __builtin_amdgcn_perm(v, t, 0x05040100u);
  v += s[t] + b[t];
  b[t + 64] = (unsigned char)v;
  ((short*)p)[t + 100] = (short)v;
  p[t] = v ^ (int)(t << 5) | 77;
}

extern "C" __global__ void mfma_f16(const half4* a, const half4* b, float16_* c) {
  unsigned t = tid();
  float16_ acc = c[t];
  half4 x = a[t], y = b[t];
  for (int k = 0; k < 4; ++k) acc = __builtin_amdgcn_mfma_f32_32x32x8f16(x, y, acc, 0, 0, 0);
  float4_ acc2 = {0, 0, 0, 0};
  acc2 = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, acc2, 0, 0, 0);
  acc[0] += acc2[0] + acc2[3];
  c[t] = acc;
}

extern "C" __global__ void lds_tile(const float* g, float* o) {
  __shared__ float tile[64 * 65];
  unsigned t = tid();
  for (int r = 0; r < 64; ++r) tile[r * 65 + t] = g[r * 64 + t];
  __builtin_amdgcn_s_barrier();
  float acc = 0;
  for (int r = 0; r < 64; ++r) acc = __builtin_fmaf(tile[t * 65 + r], (float)r, acc);
  o[t] = acc;
}

extern "C" __global__ void bufload(__amdgpu_buffer_rsrc_t r, float* o) {
  unsigned t = tid();
  float v = __builtin_amdgcn_raw_buffer_load_b32(r, t * 4, 0, 0);
  int2_ w = __builtin_amdgcn_raw_buffer_load_b64(r, t * 8, 16, 0);
  __builtin_amdgcn_raw_buffer_store_b32(v + w.x, r, t * 4 + 1024, 0, 0);
  o[t] = v * w.y;
}
