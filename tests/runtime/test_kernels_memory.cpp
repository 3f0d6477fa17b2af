// HIP C++ kernels (LDS + barriers, reductions, 64-bit addressing, buffer and
// global memory, packed f32 math, dot2, MFMA) compiled for gfx942 and gfx950
// and compared bit-for-bit with CPU models on the simulator.
#include <algorithm>
#include <numeric>

#include "tests/runtime/kernel_check.hpp"

using namespace cdnajit;
using kt::down;
using kt::up;

namespace {

constexpr auto kBoth = {Arch::gfx942, Arch::gfx950};

const char* kLdsSource = R"(
extern "C" __global__ __launch_bounds__(256) void lds_reverse(float* out, const float* in) {
  __shared__ float tile[256];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = in[i];
  __syncthreads();
  out[i] = tile[255 - t];
}
extern "C" __global__ __launch_bounds__(256) void reduce_lds(float* out, const float* in) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
extern "C" __global__ void wave_sum(int* out, const int* in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int m = 32; m > 0; m >>= 1) v += __shfl_xor(v, m);
  out[i] = v;
}
extern "C" __global__ void transpose16(float* out, const float* in, int width, int height) {
  __shared__ float tile[16][17];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
  tile[ty][tx] = in[y * width + x];
  __syncthreads();
  unsigned ox = blockIdx.y * 16 + tx, oy = blockIdx.x * 16 + ty;
  out[oy * height + ox] = tile[tx][ty];
}
extern "C" __global__ void dyn_lds(float* out, const float* in) {
  extern __shared__ float dyn[];
  unsigned t = threadIdx.x, n = blockDim.x, i = blockIdx.x * n + t;
  dyn[t] = in[i] * 2.0f;
  __syncthreads();
  out[i] = dyn[(t + 1) % n] + dyn[t];
}
)";

const char* kMemSource = R"(
extern "C" __global__ void strided64(float* base, long long stride, const float* in, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float* end = in + n;
  base[(long long)i * stride + 3] = end[-1 - (int)i];
}
extern "C" __global__ void vec4_copy(float4* out, const float4* in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = v.wzyx * 2.0f;
}
extern "C" __global__ void gather(float* out, const float* in, const int* idx) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}
extern "C" __global__ void scatter(float* out, const float* in, const int* idx) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx[i]] = in[i] + 1.0f;
}
extern "C" __global__ void buffer_io(float* out, const float* in, int in_valid, int out_valid) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t src = cdna_make_buffer_rsrc(in, in_valid * 4);
  __amdgpu_buffer_rsrc_t dst = cdna_make_buffer_rsrc(out, out_valid * 4);
  // The b32 builtins move raw bits (unsigned int).
  float v = __uint_as_float(__builtin_amdgcn_raw_buffer_load_b32(src, i * 4, 0, 0));  // 0 beyond in_valid
  __builtin_amdgcn_raw_buffer_store_b32(__float_as_uint(v + 0.5f), dst, i * 4, 0, 0);  // dropped beyond out_valid
}
)";

const char* kPackedSource = R"(
extern "C" __global__ void pk_fma(float2* out, const float2* a, const float2* b, const float2* c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __builtin_elementwise_fma(a[i], b[i], c[i]);
}
extern "C" __global__ void pk_mul_add(float2* out, const float2* a, const float2* b, const float2* c) {
  #pragma clang fp contract(off)
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] * b[i] + c[i];
}
extern "C" __global__ void pk_i16(cdna_short2* out, const cdna_short2* a, const cdna_short2* b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  cdna_short2 x = a[i], y = b[i];
  out[3 * i] = x + y;                                        // v_pk_add_u16
  out[3 * i + 1] = x * y;                                    // v_pk_mul_lo_u16
  out[3 * i + 2] = __builtin_elementwise_max(x, y) - (y >> 2);  // v_pk_max_i16, v_pk_ashrrev_i16 op_sel_hi, v_pk_sub_i16
}
extern "C" __global__ void dot2_f16(float* out, const cdna_half2* a, const cdna_half2* b, const float* c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __builtin_amdgcn_fdot2(a[i], b[i], c[i], false);
}
// Negated sources and clamp: clang folds the negation into a v_xor and picks
// the VOP3P encoding (v_dot2_f32_*, with clamp) instead of v_dot2c.
extern "C" __global__ void dot2_f16_mods(float* out, const cdna_half2* a, const cdna_half2* b, const float* c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * i] = __builtin_amdgcn_fdot2(-a[i], b[i], c[i], false);
  out[2 * i + 1] = __builtin_amdgcn_fdot2(a[i], b[i], c[i], true);
}
extern "C" __global__ void mfma_f16(cdna_float4* d, const cdna_half4* a, const cdna_half4* b, const cdna_float4* c) {
  unsigned l = threadIdx.x;
  d[l] = __builtin_amdgcn_mfma_f32_16x16x16f16(a[l], b[l], c[l], 0, 0, 0);
}
#if defined(__gfx950__)
extern "C" __global__ void dot2_bf16(float* out, const cdna_bf16x2* a, const cdna_bf16x2* b, const float* c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __builtin_amdgcn_fdot2_f32_bf16(a[i], b[i], c[i], false);
}
extern "C" __global__ void dot2_bf16_mods(float* out, const cdna_bf16x2* a, const cdna_bf16x2* b, const float* c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * i] = __builtin_amdgcn_fdot2_f32_bf16(-a[i], b[i], c[i], false);
  out[2 * i + 1] = __builtin_amdgcn_fdot2_f32_bf16(a[i], b[i], c[i], true);
}
extern "C" __global__ void mfma_bf16(cdna_float4* d, const cdna_bf16x8* a, const cdna_bf16x8* b, const cdna_float4* c) {
  unsigned l = threadIdx.x;
  d[l] = __builtin_amdgcn_mfma_f32_16x16x32_bf16(a[l], b[l], c[l], 0, 0, 0);
}
#endif
)";

}  // namespace

TEST_CASE("kernel lds_reverse: LDS exchange across a 256-thread workgroup", "[runtime][kernels][lds]") {
  const size_t n = 512;
  auto in = kt::random_floats(n, -1, 1, 40);
  std::vector<float> want(n);
  for (size_t b = 0; b < 2; ++b)
    for (size_t t = 0; t < 256; ++t) want[b * 256 + t] = in[b * 256 + 255 - t];
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kLdsSource).kernel("lds_reverse");
    Buffer o = d.alloc(4 * n, "out"), bi = up(d, in, "in");
    d.launch(k, {2}, {256}, 0, KernelArgs().ptr(o).ptr(bi));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel reduce_lds: tree reduction with barriers", "[runtime][kernels][lds]") {
  const size_t blocks = 3;
  auto in = kt::random_floats(256 * blocks, -1, 1, 41);
  std::vector<float> want(blocks);
  for (size_t b = 0; b < blocks; ++b) {
    std::vector<float> s(in.begin() + b * 256, in.begin() + (b + 1) * 256);
    for (size_t stride = 128; stride > 0; stride >>= 1)
      for (size_t t = 0; t < stride; ++t) s[t] += s[t + stride];
    want[b] = s[0];
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kLdsSource).kernel("reduce_lds");
    Buffer o = d.alloc(4 * blocks, "out"), bi = up(d, in, "in");
    d.launch(k, {uint32_t(blocks)}, {256}, 0, KernelArgs().ptr(o).ptr(bi));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel wave_sum: butterfly reduction with ds_bpermute", "[runtime][kernels][lds]") {
  const size_t n = 256;
  auto r = kt::random_u32(n, 42);
  std::vector<int32_t> in(n), want(n);
  for (size_t i = 0; i < n; ++i) in[i] = int32_t(r[i] % 100000) - 50000;
  for (size_t w = 0; w < n / 64; ++w) {
    int32_t sum = std::accumulate(in.begin() + w * 64, in.begin() + (w + 1) * 64, 0);
    std::fill(want.begin() + w * 64, want.begin() + (w + 1) * 64, sum);
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kLdsSource).kernel("wave_sum");
    Buffer o = d.alloc(4 * n, "out"), bi = up(d, in, "in");
    d.launch(k, {2}, {128}, 0, KernelArgs().ptr(o).ptr(bi));
    CHECK_BITS(down<int32_t>(d, o), want);
  });
}

TEST_CASE("kernel transpose16: 2-D blocks and grid, padded LDS tile", "[runtime][kernels][lds]") {
  const int width = 48, height = 32;  // 3 x 2 tiles of 16x16
  auto in = kt::random_floats(size_t(width * height), -5, 5, 43);
  std::vector<float> want(in.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) want[size_t(x * height + y)] = in[size_t(y * width + x)];
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kLdsSource).kernel("transpose16");
    Buffer o = d.alloc(4 * in.size(), "out"), bi = up(d, in, "in");
    d.launch(k, {3, 2, 1}, {16, 16, 1}, 0, KernelArgs().ptr(o).ptr(bi).i32(width).i32(height));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel dyn_lds: dynamic LDS sized at launch", "[runtime][kernels][lds]") {
  const uint32_t block = 128, blocks = 2;
  auto in = kt::random_floats(block * blocks, -3, 3, 44);
  std::vector<float> want(in.size());
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t t = 0; t < block; ++t) {
      float self = in[b * block + t] * 2.0f, next = in[b * block + (t + 1) % block] * 2.0f;
      want[b * block + t] = next + self;
    }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kLdsSource).kernel("dyn_lds");
    Buffer o = d.alloc(4 * in.size(), "out"), bi = up(d, in, "in");
    d.launch(k, {blocks}, {block}, block * 4, KernelArgs().ptr(o).ptr(bi));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel strided64: 64-bit index arithmetic and negative offsets", "[runtime][kernels][memory]") {
  const int n = 128;
  const long long stride = 2053;  // i * stride * 4 bytes spans > 1 MiB
  auto in = kt::random_floats(size_t(n), -1, 1, 45);
  std::vector<float> want(size_t(n * stride), 0.0f);
  for (int i = 0; i < n; ++i) want[size_t(i * stride + 3)] = in[size_t(n - 1 - i)];
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kMemSource).kernel("strided64");
    Buffer o = kt::zeros(d, want.size() * 4, "base"), bi = up(d, in, "in");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).i64(stride).ptr(bi).i32(n));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel vec4_copy: 128-bit global loads and stores", "[runtime][kernels][memory]") {
  const size_t n = 128;  // float4 elements
  auto in = kt::random_floats(4 * n, -9, 9, 46);
  std::vector<float> want(4 * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t c = 0; c < 4; ++c) want[4 * i + c] = in[4 * i + 3 - c] * 2.0f;
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kMemSource).kernel("vec4_copy");
    Buffer o = d.alloc(16 * n, "out"), bi = up(d, in, "in");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(bi));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernels gather / scatter: data-dependent addresses", "[runtime][kernels][memory]") {
  const size_t n = 256;
  auto in = kt::random_floats(n, -1, 1, 47);
  std::vector<int32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::shuffle(idx.begin(), idx.end(), std::mt19937(48));
  std::vector<float> wg(n), ws(n);
  for (size_t i = 0; i < n; ++i) wg[i] = in[size_t(idx[i])], ws[size_t(idx[i])] = in[i] + 1.0f;
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    Module m = kt::load(d, kMemSource);
    Buffer og = d.alloc(4 * n, "gathered"), os = d.alloc(4 * n, "scattered"), bi = up(d, in, "in"),
           bx = up(d, idx, "idx");
    d.launch(m.kernel("gather"), {4}, {64}, 0, KernelArgs().ptr(og).ptr(bi).ptr(bx));
    d.launch(m.kernel("scatter"), {4}, {64}, 0, KernelArgs().ptr(os).ptr(bi).ptr(bx));
    CHECK_BITS(down<float>(d, og), wg);
    CHECK_BITS(down<float>(d, os), ws);
  });
}

TEST_CASE("kernel buffer_io: raw buffer loads/stores with range checking", "[runtime][kernels][memory]") {
  // Buffers are fully allocated; the resources cover only a prefix, so the
  // hardware's num_records check (loads return 0, stores are dropped) decides.
  // The simulator reports such accesses as errors unless bounds checking is
  // off, which selects the hardware behaviour this test is about.
  const size_t n = 128;
  const int in_valid = 100, out_valid = 90;
  auto in = kt::random_floats(n, -4, 4, 49);
  std::vector<float> want(n, -7.0f);
  for (int i = 0; i < out_valid; ++i) want[size_t(i)] = (i < in_valid ? in[size_t(i)] : 0.0f) + 0.5f;
  kt::for_archs(kBoth, [&](Arch arch) {
    sim::Options hardware_oob;
    hardware_oob.check_bounds = false;
    auto dev = open_sim_device(arch, hardware_oob);
    Device& d = *dev;
    DeviceKernel k = kt::load(d, kMemSource).kernel("buffer_io");
    std::vector<float> init(n, -7.0f);
    Buffer o = up(d, init, "out"), bi = up(d, in, "in");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(bi).i32(in_valid).i32(out_valid));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel pk_fma: float2 fma as v_pk_fma_f32", "[runtime][kernels][packed]") {
  const size_t n = 128;  // float2 elements
  auto a = kt::random_floats(2 * n, -3, 3, 50), b = kt::random_floats(2 * n, -3, 3, 51),
       c = kt::random_floats(2 * n, -3, 3, 52);
  std::vector<float> want(2 * n);
  for (size_t i = 0; i < 2 * n; ++i) want[i] = std::fma(a[i], b[i], c[i]);
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kPackedSource).kernel("pk_fma");
    Buffer o = d.alloc(8 * n, "out"), ba = up(d, a, "a"), bb = up(d, b, "b"), bc = up(d, c, "c");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb).ptr(bc));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel pk_mul_add: float2 multiply then add (v_pk_mul_f32, v_pk_add_f32)", "[runtime][kernels][packed]") {
  const size_t n = 128;
  auto a = kt::random_floats(2 * n, -3, 3, 53), b = kt::random_floats(2 * n, -3, 3, 54),
       c = kt::random_floats(2 * n, -3, 3, 55);
  std::vector<float> want(2 * n);
  for (size_t i = 0; i < 2 * n; ++i) {
    float p = a[i] * b[i];
    want[i] = p + c[i];
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kPackedSource).kernel("pk_mul_add");
    Buffer o = d.alloc(8 * n, "out"), ba = up(d, a, "a"), bb = up(d, b, "b"), bc = up(d, c, "c");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb).ptr(bc));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel pk_i16: packed 16-bit integer add, mul, max, shift, sub", "[runtime][kernels][packed]") {
  const size_t n = 128;  // short2 elements
  auto r = kt::random_u32(4 * n, 56);
  std::vector<int16_t> a(2 * n), b(2 * n), want(6 * n);
  for (size_t i = 0; i < 2 * n; ++i) a[i] = int16_t(r[i]), b[i] = int16_t(r[2 * n + i]);
  for (size_t i = 0; i < n; ++i)
    for (size_t h = 0; h < 2; ++h) {
      int16_t x = a[2 * i + h], y = b[2 * i + h];
      want[6 * i + h] = int16_t(uint16_t(x) + uint16_t(y));
      want[6 * i + 2 + h] = int16_t(uint32_t(uint16_t(x)) * uint16_t(y));  // unsigned: uint16_t * uint16_t promotes to int and overflows
      want[6 * i + 4 + h] = int16_t(uint16_t(std::max(x, y)) - uint16_t(int16_t(y >> 2)));
    }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kPackedSource).kernel("pk_i16");
    Buffer o = d.alloc(12 * n, "out"), ba = up(d, a, "a"), bb = up(d, b, "b");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb));
    CHECK_BITS(down<int16_t>(d, o), want);
  });
}

namespace {

// dot2 CPU models, for the two sim::Options::Dot2 modes (simulator.hpp):
//  FusedSingleRounding: a.lo*b.lo + a.hi*b.hi + c exact, rounded once to f32.
//    Evaluated in binary128 (113-bit significand): the products of 11- or
//    8-bit significands and the sum with an f32 c of these magnitudes are
//    exact there, so the final conversion to float is the single rounding.
//  ProductsThenSum: fma(a.hi, b.hi, fma(a.lo, b.lo, c)) in f32.
float dot2_fused(float alo, float ahi, float blo, float bhi, float c) {
  using q = __float128;
  return float(q(alo) * q(blo) + q(ahi) * q(bhi) + q(c));
}
float dot2_chained(float alo, float ahi, float blo, float bhi, float c) {
  return std::fma(ahi, bhi, std::fma(alo, blo, c));
}

struct Dot2Case {
  std::vector<uint16_t> a, b;  // pairs: [2i] = lo, [2i+1] = hi
  std::vector<float> c;
};

Dot2Case dot2_inputs(size_t n, bool bf16, uint32_t seed) {
  auto fa = kt::random_floats(2 * n, -4, 4, seed), fb = kt::random_floats(2 * n, -4, 4, seed + 1);
  Dot2Case k{std::vector<uint16_t>(2 * n), std::vector<uint16_t>(2 * n), kt::random_floats(n, -2, 2, seed + 2)};
  for (size_t i = 0; i < 2 * n; ++i) {
    k.a[i] = bf16 ? kt::float_to_bf16(fa[i]) : kt::float_to_half(fa[i]);
    k.b[i] = bf16 ? kt::float_to_bf16(fb[i]) : kt::float_to_half(fb[i]);
  }
  return k;
}

void run_dot2(Arch arch, bool bf16, sim::Options::Dot2 mode) {
  const size_t n = 128;
  Dot2Case in = dot2_inputs(n, bf16, bf16 ? 60 : 70);
  auto to_f = [&](uint16_t h) { return bf16 ? kt::bf16_to_float(h) : kt::half_to_float(h); };
  std::vector<float> want(n);
  size_t modes_differ = 0;
  for (size_t i = 0; i < n; ++i) {
    float alo = to_f(in.a[2 * i]), ahi = to_f(in.a[2 * i + 1]), blo = to_f(in.b[2 * i]), bhi = to_f(in.b[2 * i + 1]);
    float fused = dot2_fused(alo, ahi, blo, bhi, in.c[i]), chained = dot2_chained(alo, ahi, blo, bhi, in.c[i]);
    modes_differ += fused != chained;
    want[i] = mode == sim::Options::Dot2::FusedSingleRounding ? fused : chained;
  }
  // The inputs must tell the two rounding modes apart, or the test proves nothing.
  REQUIRE(modes_differ > 0);
  sim::Options opt;
  opt.dot2 = mode;
  auto dev = open_sim_device(arch, opt);
  DeviceKernel k = kt::load(*dev, kPackedSource).kernel(bf16 ? "dot2_bf16" : "dot2_f16");
  Buffer o = dev->alloc(4 * n, "out"), ba = up(*dev, in.a, "a"), bb = up(*dev, in.b, "b"), bc = up(*dev, in.c, "c");
  dev->launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb).ptr(bc));
  CHECK_BITS(down<float>(*dev, o), want);
}

// Negation and clamp (VOP3P v_dot2_f32_*), default rounding mode. Clamp
// limits the f32 result to [0, 1]; inputs are scaled so results straddle it.
void run_dot2_mods(Arch arch, bool bf16) {
  const size_t n = 128;
  auto fa = kt::random_floats(2 * n, -1, 1, 100), fb = kt::random_floats(2 * n, -1, 1, 101);
  auto c = kt::random_floats(n, -0.5f, 1.5f, 102);
  std::vector<uint16_t> a(2 * n), b(2 * n);
  for (size_t i = 0; i < 2 * n; ++i) {
    a[i] = bf16 ? kt::float_to_bf16(fa[i]) : kt::float_to_half(fa[i]);
    b[i] = bf16 ? kt::float_to_bf16(fb[i]) : kt::float_to_half(fb[i]);
  }
  auto to_f = [&](uint16_t h) { return bf16 ? kt::bf16_to_float(h) : kt::half_to_float(h); };
  std::vector<float> want(2 * n);
  size_t inside = 0;
  for (size_t i = 0; i < n; ++i) {
    float alo = to_f(a[2 * i]), ahi = to_f(a[2 * i + 1]), blo = to_f(b[2 * i]), bhi = to_f(b[2 * i + 1]);
    want[2 * i] = dot2_fused(-alo, -ahi, blo, bhi, c[i]);
    float r = dot2_fused(alo, ahi, blo, bhi, c[i]);
    inside += r > 0.0f && r < 1.0f;
    want[2 * i + 1] = std::fmin(std::fmax(r, 0.0f), 1.0f);
  }
  REQUIRE(inside > n / 8);  // the clamp must not decide every element
  Device& d = kt::sim_device(arch);
  DeviceKernel k = kt::load(d, kPackedSource).kernel(bf16 ? "dot2_bf16_mods" : "dot2_f16_mods");
  Buffer o = d.alloc(8 * n, "out"), ba = up(d, a, "a"), bb = up(d, b, "b"), bc = up(d, c, "c");
  d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb).ptr(bc));
  CHECK_BITS(down<float>(d, o), want);
}

}  // namespace

TEST_CASE("kernel dot2_f16_mods / dot2_bf16_mods: negated sources, clamp (VOP3P form)", "[runtime][kernels][dot2]") {
  kt::for_archs(kBoth, [&](Arch arch) { run_dot2_mods(arch, false); });
  kt::for_archs({Arch::gfx950}, [&](Arch arch) { run_dot2_mods(arch, true); });
}

TEST_CASE("kernel dot2_f16: v_dot2(c)_f32_f16 against the simulator's documented rounding", "[runtime][kernels][dot2]") {
  kt::for_archs(kBoth, [&](Arch arch) {
    run_dot2(arch, false, sim::Options::Dot2::FusedSingleRounding);
    run_dot2(arch, false, sim::Options::Dot2::ProductsThenSum);
  });
}

TEST_CASE("kernel dot2_bf16 (gfx950): v_dot2(c)_f32_bf16 in both rounding modes", "[runtime][kernels][dot2]") {
  kt::for_archs({Arch::gfx950}, [&](Arch arch) {
    run_dot2(arch, true, sim::Options::Dot2::FusedSingleRounding);
    run_dot2(arch, true, sim::Options::Dot2::ProductsThenSum);
  });
}

namespace {

// MFMA 16x16xK operand layout (one wave): lane l holds A[l % 16][kb + j] and
// B[kb + j][l % 16] with kb = (K / 4) * (l / 16), j < K / 4; the result lane l,
// element j is D[4 * (l / 16) + j][l % 16].
// The CPU model is the simulator's documented semantics (runtime/sim/
// ops_mfma.cpp): C plus the K products summed in f64 in increasing k, rounded
// once to f32. Two input sets: small integers and halves, where every partial
// sum is exact even in f32 so the result cannot depend on accumulation order
// or internal precision (what any hardware must produce), and random
// fractions, which follow the documented single-rounding model.
template <class ToFloat>
// C plus the exact products, rounded once to f32 (the double sum is exact for these 16-bit
// inputs): the simulator's MfmaNumerics::Exact mode, so the tests below run on that device.
std::vector<float> mfma_model(int K, const std::vector<uint16_t>& a, const std::vector<uint16_t>& b,
                              const std::vector<float>& c, ToFloat to_f) {
  const int per = K / 4;
  auto A = [&](int i, int k) { return to_f(a[size_t((i + 16 * (k / per)) * per + k % per)]); };
  auto B = [&](int k, int j) { return to_f(b[size_t((j + 16 * (k / per)) * per + k % per)]); };
  std::vector<float> d(256);
  for (int l = 0; l < 64; ++l)
    for (int e = 0; e < 4; ++e) {
      int i = 4 * (l / 16) + e, j = l % 16;
      double s = c[size_t(l * 4 + e)];
      for (int k = 0; k < K; ++k) s += double(A(i, k)) * double(B(k, j));
      d[size_t(l * 4 + e)] = float(s);
    }
  return d;
}

template <class FromFloat>
std::vector<uint16_t> fractions(size_t n, uint32_t seed, FromFloat from_f) {
  auto f = kt::random_floats(n, -2, 2, seed);
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = from_f(f[i]);
  return v;
}

template <class FromFloat>
std::vector<uint16_t> small_values(size_t n, uint32_t seed, FromFloat from_f) {
  auto r = kt::random_u32(n, seed);
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = from_f(float(int(r[i] % 17) - 8) * 0.5f);  // -4 .. 4 step 0.5
  return v;
}

}  // namespace

TEST_CASE("kernel mfma_f16: v_mfma_f32_16x16x16_f16", "[runtime][kernels][mfma]") {
  bool exact_inputs = GENERATE(true, false);
  INFO((exact_inputs ? "small exact inputs" : "random fractions"));
  auto a = exact_inputs ? small_values(256, 80, kt::float_to_half) : fractions(256, 90, kt::float_to_half);
  auto b = exact_inputs ? small_values(256, 81, kt::float_to_half) : fractions(256, 91, kt::float_to_half);
  std::vector<float> c(256);
  for (size_t i = 0; i < 256; ++i) c[i] = exact_inputs ? float(int(i % 13) - 6) * 0.25f : float(i) / 7.0f - 18.0f;
  auto want = mfma_model(16, a, b, c, kt::half_to_float);
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device_exact_mfma(arch);
    DeviceKernel k = kt::load(d, kPackedSource).kernel("mfma_f16");
    Buffer o = d.alloc(1024, "d"), ba = up(d, a, "a"), bb = up(d, b, "b"), bc = up(d, c, "c");
    d.launch(k, {1}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb).ptr(bc));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel mfma_bf16 (gfx950): v_mfma_f32_16x16x32_bf16", "[runtime][kernels][mfma]") {
  bool exact_inputs = GENERATE(true, false);
  INFO((exact_inputs ? "small exact inputs" : "random fractions"));
  auto a = exact_inputs ? small_values(512, 82, kt::float_to_bf16) : fractions(512, 92, kt::float_to_bf16);
  auto b = exact_inputs ? small_values(512, 83, kt::float_to_bf16) : fractions(512, 93, kt::float_to_bf16);
  std::vector<float> c(256);
  for (size_t i = 0; i < 256; ++i) c[i] = exact_inputs ? float(int(i % 11) - 5) * 0.5f : float(i) / 9.0f - 11.0f;
  auto want = mfma_model(32, a, b, c, kt::bf16_to_float);
  kt::for_archs({Arch::gfx950}, [&](Arch arch) {
    Device& d = kt::sim_device_exact_mfma(arch);
    DeviceKernel k = kt::load(d, kPackedSource).kernel("mfma_bf16");
    Buffer o = d.alloc(1024, "d"), ba = up(d, a, "a"), bb = up(d, b, "b"), bc = up(d, c, "c");
    d.launch(k, {1}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb).ptr(bc));
    CHECK_BITS(down<float>(d, o), want);
  });
}
