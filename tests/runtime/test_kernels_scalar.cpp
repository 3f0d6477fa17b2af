// HIP C++ kernels (integer, float, half/bf16, control flow) compiled by
// compile_hip for gfx942 and gfx950, run on the simulator through the device
// API and compared bit-for-bit with CPU code doing the same arithmetic in the
// same order (std::fma where the kernel fuses; this file is compiled with
// -ffp-contract=off so the host never fuses on its own).
#include <algorithm>
#include <climits>

#include "tests/runtime/kernel_check.hpp"

using namespace cdnajit;
using kt::down;
using kt::up;

namespace {

constexpr auto kBoth = {Arch::gfx942, Arch::gfx950};

const char* kIntSource = R"(
extern "C" __global__ void u32_mix(unsigned* out, const unsigned* a, const unsigned* b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i];
  unsigned r = x * y + (x >> 3) - (y ^ 0x5a5a5a5au);
  r = (r << 7) | (r >> 25);
  r += (x & 0xffffu) * (y >> 16);
  out[i] = r;
}
extern "C" __global__ void i32_divmod(int* q, int* r, const int* a, const int* b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  q[i] = a[i] / b[i];
  r[i] = a[i] % b[i];
}
extern "C" __global__ void u64_mix(unsigned long long* out, const unsigned long long* a,
                                   const unsigned long long* b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long x = a[i], y = b[i];
  out[2 * i] = x * y + ((x >> 17) ^ (y << 5));
  out[2 * i + 1] = x % 1000003ull + (y >> 40) * 3ull;
}
extern "C" __global__ void int4_ops(int4* out, const int4* a, const int4* b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int4 x = a[i], y = b[i];
  out[i] = make_int4(min(x.x, y.x), max(x.y, y.y), x.z * 3 - y.z, abs(x.w - y.w));
}
extern "C" __global__ void bit_ops(unsigned* out, const unsigned* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i];
  out[4 * i + 0] = __popc(x);
  out[4 * i + 1] = __clz((int)x);
  out[4 * i + 2] = __builtin_bitreverse32(x);
  out[4 * i + 3] = __umulhi(x, 0x9e3779b9u);
}
)";

const char* kFloatSource = R"(
extern "C" __global__ void fma_chain(float* out, const float* a, const float* b, const float* c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = fmaf(a[i], b[i], c[i]);
  x = fmaf(x, a[i], -b[i]);
  out[i] = x;
}
extern "C" __global__ void fdiv(float* out, const float* a, const float* b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] / b[i];
}
extern "C" __global__ void fsqrt(float* out, const float* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = sqrtf(fabsf(a[i]));
}
extern "C" __global__ void fminmax(float* out, const float* a, const float* b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[4 * i + 0] = fminf(a[i], b[i]);
  out[4 * i + 1] = fmaxf(a[i], b[i]);
  out[4 * i + 2] = floorf(a[i]);
  out[4 * i + 3] = truncf(b[i]) - fabsf(a[i]);
}
extern "C" __global__ void convert(float* f, int* n, const int* ia, const unsigned* ua, const float* fa) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  f[i] = (float)ia[i] + (float)ua[i];
  n[i] = (int)fa[i] + (int)(unsigned)fabsf(fa[i]);
}
extern "C" __global__ void f64_ops(double* out, const double* a, const double* b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = fma(a[i], b[i], 0.125);
  out[i] = x * a[i] - b[i];
}
)";

// Compiled with -ffp-contract=off (through extra_flags): the multiply and the
// add round separately.
const char* kNoContractSource = R"(
extern "C" __global__ void mul_add(float* out, const float* a, const float* b, const float* c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] * b[i] + c[i];
}
)";

const char* kHalfSource = R"(
extern "C" __global__ void to_half(unsigned short* bits, float* back, const float* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  _Float16 h = (_Float16)a[i];
  bits[i] = cdna_half_bits(h);
  back[i] = (float)h * 2.0f;
}
extern "C" __global__ void to_bf16(unsigned short* bits, float* back, const float* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  __bf16 h = (__bf16)a[i];
  bits[i] = cdna_bf16_bits(h);
  back[i] = (float)h + 1.0f;
}
extern "C" __global__ void half_fma(unsigned short* out, const unsigned short* a, const unsigned short* b,
                                    const unsigned short* c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  _Float16 x = cdna_half_from_bits(a[i]), y = cdna_half_from_bits(b[i]), z = cdna_half_from_bits(c[i]);
  out[i] = cdna_half_bits(__builtin_fmaf16(x, y, z));
}
extern "C" __global__ void bf16_fma(unsigned short* out, const unsigned short* a, const unsigned short* b,
                                    const float* c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float r = fmaf(cdna_bf16_bits_to_float(a[i]), cdna_bf16_bits_to_float(b[i]), c[i]);
  out[i] = cdna_bf16_bits((__bf16)r);
}
)";

const char* kControlSource = R"(
extern "C" __global__ void var_loop(float* out, const int* n, const float* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < n[i]; ++j) acc = fmaf(acc, 0.5f, a[i] + (float)j);
  out[i] = acc;
}
extern "C" __global__ void branches(int* out, const int* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = a[i], r;
  if (x & 1) r = x * 3 + 1;
  else if (x % 3 == 0) r = x / 3;
  else r = -x;
  out[i] = r;
}
extern "C" __global__ void collatz(unsigned* out, const unsigned* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], steps = 0;
  while (x != 1u && steps < 1000u) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    ++steps;
  }
  out[i] = steps;
}
extern "C" __global__ void dims3(unsigned* out) {
  unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned lane = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  unsigned* o = out + 4 * (block * blockDim.x * blockDim.y * blockDim.z + lane);
  o[0] = gridDim.x | gridDim.y << 8 | gridDim.z << 16;
  o[1] = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
  o[2] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
  o[3] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
}
extern "C" __global__ void grid_stride(float* y, const float* x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = fmaf(a, x[i], y[i]);
}
extern "C" __global__ void clamp_sq(float* out, const float* a, float lo, float hi) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i] < lo ? lo : (a[i] > hi ? hi : a[i]);
  out[i] = v * v;
}
)";

}  // namespace

TEST_CASE("kernel u32_mix: 32-bit integer multiply, shifts, rotate", "[runtime][kernels][int]") {
  const size_t n = 256;
  auto a = kt::random_u32(n, 1), b = kt::random_u32(n, 2);
  std::vector<uint32_t> want(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t x = a[i], y = b[i];
    uint32_t r = x * y + (x >> 3) - (y ^ 0x5a5a5a5au);
    r = (r << 7) | (r >> 25);
    r += (x & 0xffffu) * (y >> 16);
    want[i] = r;
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kIntSource).kernel("u32_mix");
    Buffer o = d.alloc(n * 4, "out"), ba = up(d, a, "a"), bb = up(d, b, "b");
    d.launch(k, {4}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb));
    CHECK_BITS(down<uint32_t>(d, o), want);
  });
}

TEST_CASE("kernel i32_divmod: signed division expansion", "[runtime][kernels][int]") {
  const size_t n = 256;
  auto ra = kt::random_u32(n, 3), rb = kt::random_u32(n, 4);
  std::vector<int32_t> a(n), b(n), q(n), r(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = int32_t(ra[i]);
    b[i] = int32_t(rb[i]) >> (rb[i] % 31);  // divisors of every magnitude
    if (b[i] == 0 || (a[i] == INT_MIN && b[i] == -1)) b[i] = 7;
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kIntSource).kernel("i32_divmod");
    Buffer bq = d.alloc(n * 4, "q"), br = d.alloc(n * 4, "r"), ba = up(d, a, "a"), bb = up(d, b, "b");
    d.launch(k, {2}, {128}, 0, KernelArgs().ptr(bq).ptr(br).ptr(ba).ptr(bb));
    CHECK_BITS(down<int32_t>(d, bq), q);
    CHECK_BITS(down<int32_t>(d, br), r);
  });
}

TEST_CASE("kernel u64_mix: 64-bit multiply, shifts, remainder by constant", "[runtime][kernels][int]") {
  const size_t n = 128;
  auto lo = kt::random_u32(2 * n, 5), hi = kt::random_u32(2 * n, 6);
  std::vector<uint64_t> a(n), b(n), want(2 * n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = (uint64_t(hi[i]) << 32) | lo[i];
    b[i] = (uint64_t(hi[n + i]) << 32) | lo[n + i];
    want[2 * i] = a[i] * b[i] + ((a[i] >> 17) ^ (b[i] << 5));
    want[2 * i + 1] = a[i] % 1000003ull + (b[i] >> 40) * 3ull;
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kIntSource).kernel("u64_mix");
    Buffer o = d.alloc(2 * n * 8, "out"), ba = up(d, a, "a"), bb = up(d, b, "b");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb));
    CHECK_BITS(down<uint64_t>(d, o), want);
  });
}

TEST_CASE("kernel int4_ops: vector int loads, min/max/abs", "[runtime][kernels][int]") {
  const size_t n = 128;  // int4 elements
  auto ra = kt::random_u32(4 * n, 7), rb = kt::random_u32(4 * n, 8);
  std::vector<int32_t> a(4 * n), b(4 * n), want(4 * n);
  for (size_t i = 0; i < 4 * n; ++i) a[i] = int32_t(ra[i]) >> 4, b[i] = int32_t(rb[i]) >> 4;
  for (size_t i = 0; i < n; ++i) {
    const int32_t *x = &a[4 * i], *y = &b[4 * i];
    want[4 * i + 0] = std::min(x[0], y[0]);
    want[4 * i + 1] = std::max(x[1], y[1]);
    want[4 * i + 2] = x[2] * 3 - y[2];
    want[4 * i + 3] = std::abs(x[3] - y[3]);
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kIntSource).kernel("int4_ops");
    Buffer o = d.alloc(16 * n, "out"), ba = up(d, a, "a"), bb = up(d, b, "b");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb));
    CHECK_BITS(down<int32_t>(d, o), want);
  });
}

TEST_CASE("kernel bit_ops: popcount, clz, bit reverse, mulhi", "[runtime][kernels][int]") {
  const size_t n = 128;
  auto a = kt::random_u32(n, 9);
  for (size_t i = 0; i < n; i += 8) a[i] >>= (i % 32);  // leading zeros of every count
  a[1] = 0;
  std::vector<uint32_t> want(4 * n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t x = a[i], rev = 0;
    for (int bit = 0; bit < 32; ++bit) rev |= ((x >> bit) & 1u) << (31 - bit);
    want[4 * i + 0] = uint32_t(__builtin_popcount(x));
    want[4 * i + 1] = x ? uint32_t(__builtin_clz(x)) : 32u;
    want[4 * i + 2] = rev;
    want[4 * i + 3] = uint32_t((uint64_t(x) * 0x9e3779b9u) >> 32);
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kIntSource).kernel("bit_ops");
    Buffer o = d.alloc(16 * n, "out"), ba = up(d, a, "a");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba));
    CHECK_BITS(down<uint32_t>(d, o), want);
  });
}

TEST_CASE("kernel fma_chain: fused multiply-add", "[runtime][kernels][float]") {
  const size_t n = 256;
  auto a = kt::random_floats(n, -4, 4, 10), b = kt::random_floats(n, -4, 4, 11), c = kt::random_floats(n, -8, 8, 12);
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = std::fma(std::fma(a[i], b[i], c[i]), a[i], -b[i]);
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kFloatSource).kernel("fma_chain");
    Buffer o = d.alloc(n * 4, "out"), ba = up(d, a, "a"), bb = up(d, b, "b"), bc = up(d, c, "c");
    d.launch(k, {4}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb).ptr(bc));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel mul_add with -ffp-contract=off: two roundings", "[runtime][kernels][float]") {
  const size_t n = 256;
  auto a = kt::random_floats(n, -4, 4, 13), b = kt::random_floats(n, -4, 4, 14), c = kt::random_floats(n, -8, 8, 15);
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) {
    float p = a[i] * b[i];
    want[i] = p + c[i];
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kNoContractSource, {"-ffp-contract=off"}).kernel("mul_add");
    Buffer o = d.alloc(n * 4, "out"), ba = up(d, a, "a"), bb = up(d, b, "b"), bc = up(d, c, "c");
    d.launch(k, {4}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb).ptr(bc));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel fdiv: correctly rounded f32 division", "[runtime][kernels][float]") {
  const size_t n = 256;
  auto a = kt::random_floats(n, -1000, 1000, 16), b = kt::random_floats(n, -10, 10, 17);
  a[0] = 1.0f, b[0] = 0.0f;  // +inf
  a[1] = 0.0f, b[1] = -3.0f;  // -0
  a[2] = 1.0f, b[2] = 3.0f;
  a[3] = 1e30f, b[3] = 1e-10f;  // overflow to inf
  a[4] = 1e-30f, b[4] = 1e10f;  // into the denormal range
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = a[i] / b[i];
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kFloatSource).kernel("fdiv");
    Buffer o = d.alloc(n * 4, "out"), ba = up(d, a, "a"), bb = up(d, b, "b");
    d.launch(k, {4}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel fsqrt: correctly rounded f32 square root", "[runtime][kernels][float]") {
  const size_t n = 256;
  auto a = kt::random_floats(n, -1e6f, 1e6f, 18);
  a[0] = 0.0f, a[1] = 4.0f, a[2] = 2.0f, a[3] = 1e-20f, a[4] = INFINITY;
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = std::sqrt(std::fabs(a[i]));
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kFloatSource).kernel("fsqrt");
    Buffer o = d.alloc(n * 4, "out"), ba = up(d, a, "a");
    d.launch(k, {4}, {64}, 0, KernelArgs().ptr(o).ptr(ba));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel fminmax: min, max, floor, trunc, abs", "[runtime][kernels][float]") {
  const size_t n = 128;
  auto a = kt::random_floats(n, -50, 50, 19), b = kt::random_floats(n, -50, 50, 20);
  a[0] = -0.0f, b[0] = 0.0f;
  std::vector<float> want(4 * n);
  for (size_t i = 0; i < n; ++i) {
    want[4 * i + 0] = std::fmin(a[i], b[i]);
    want[4 * i + 1] = std::fmax(a[i], b[i]);
    want[4 * i + 2] = std::floor(a[i]);
    want[4 * i + 3] = std::trunc(b[i]) - std::fabs(a[i]);
  }
  // fmin/fmax of -0 and +0 may return either zero (IEEE minNum); accept the
  // GPU's choice only for that pair by checking it is a zero.
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kFloatSource).kernel("fminmax");
    Buffer o = d.alloc(16 * n, "out"), ba = up(d, a, "a"), bb = up(d, b, "b");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb));
    auto got = down<float>(d, o);
    CHECK(got[0] == 0.0f);
    CHECK(got[1] == 0.0f);
    got[0] = want[0], got[1] = want[1];
    CHECK_BITS(got, want);
  });
}

TEST_CASE("kernel convert: int <-> float conversions", "[runtime][kernels][float]") {
  const size_t n = 128;
  auto r = kt::random_u32(2 * n, 21);
  auto fa = kt::random_floats(n, -3e5f, 3e5f, 22);
  std::vector<int32_t> ia(n);
  std::vector<uint32_t> ua(n);
  std::vector<float> wf(n);
  std::vector<int32_t> wi(n);
  for (size_t i = 0; i < n; ++i) {
    ia[i] = int32_t(r[i]);
    ua[i] = r[n + i];
    wf[i] = float(ia[i]) + float(ua[i]);
    wi[i] = int32_t(fa[i]) + int32_t(uint32_t(std::fabs(fa[i])));
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kFloatSource).kernel("convert");
    Buffer of = d.alloc(4 * n, "f"), oi = d.alloc(4 * n, "n");
    Buffer bi = up(d, ia, "ia"), bu = up(d, ua, "ua"), bf = up(d, fa, "fa");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(of).ptr(oi).ptr(bi).ptr(bu).ptr(bf));
    CHECK_BITS(down<float>(d, of), wf);
    CHECK_BITS(down<int32_t>(d, oi), wi);
  });
}

TEST_CASE("kernel f64_ops: double fma and a contracted multiply-subtract", "[runtime][kernels][float]") {
  const size_t n = 128;
  auto fa = kt::random_floats(n, -100, 100, 23), fb = kt::random_floats(n, -100, 100, 24);
  std::vector<double> a(n), b(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = double(fa[i]) / 3.0;
    b[i] = double(fb[i]) * 1.1;
    // HIP compiles with -ffp-contract=fast-honor-pragmas: `x * a[i] - b[i]`
    // becomes one fused v_fma_f64 (a * x + -b), so the reference fuses too.
    double x = std::fma(a[i], b[i], 0.125);
    want[i] = std::fma(x, a[i], -b[i]);
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kFloatSource).kernel("f64_ops");
    Buffer o = d.alloc(8 * n, "out"), ba = up(d, a, "a"), bb = up(d, b, "b");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb));
    CHECK_BITS(down<double>(d, o), want);
  });
}

TEST_CASE("kernel to_half: f32 -> f16 round to nearest even, and back", "[runtime][kernels][half]") {
  const size_t n = 256;
  auto a = kt::random_floats(n, -70000, 70000, 25);  // includes overflow to inf
  auto small = kt::random_floats(64, -1e-4f, 1e-4f, 26);  // f16 subnormals
  std::copy(small.begin(), small.end(), a.begin());
  a[64] = 1.0f + 1.0f / 2048;  // exact tie -> even
  a[65] = 1.0f + 3.0f / 2048;  // exact tie -> up
  std::vector<uint16_t> wbits(n);
  std::vector<float> wback(n);
  for (size_t i = 0; i < n; ++i) {
    wbits[i] = kt::float_to_half(a[i]);
    wback[i] = kt::half_to_float(wbits[i]) * 2.0f;
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kHalfSource).kernel("to_half");
    Buffer ob = d.alloc(2 * n, "bits"), of = d.alloc(4 * n, "back"), ba = up(d, a, "a");
    d.launch(k, {4}, {64}, 0, KernelArgs().ptr(ob).ptr(of).ptr(ba));
    CHECK_BITS(down<uint16_t>(d, ob), wbits);
    CHECK_BITS(down<float>(d, of), wback);
  });
}

TEST_CASE("kernel to_bf16: f32 -> bf16 round to nearest even", "[runtime][kernels][bf16]") {
  const size_t n = 256;
  auto a = kt::random_floats(n, -3e5f, 3e5f, 27);
  a[0] = std::bit_cast<float>(0x3f808000u);  // tie, even stays
  a[1] = std::bit_cast<float>(0x3f818000u);  // tie, rounds up
  a[2] = 3e38f;                              // near the top of the bf16 range
  a[3] = -0.0f;
  std::vector<uint16_t> wbits(n);
  std::vector<float> wback(n);
  for (size_t i = 0; i < n; ++i) {
    wbits[i] = kt::float_to_bf16(a[i]);
    wback[i] = kt::bf16_to_float(wbits[i]) + 1.0f;
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kHalfSource).kernel("to_bf16");
    Buffer ob = d.alloc(2 * n, "bits"), of = d.alloc(4 * n, "back"), ba = up(d, a, "a");
    d.launch(k, {4}, {64}, 0, KernelArgs().ptr(ob).ptr(of).ptr(ba));
    CHECK_BITS(down<uint16_t>(d, ob), wbits);
    CHECK_BITS(down<float>(d, of), wback);
  });
}

TEST_CASE("kernel half_fma: f16 fused multiply-add", "[runtime][kernels][half]") {
  // Inputs in [1/64, 64) keep a*b+c exact in a double, so the CPU result is
  // that exact value rounded once to f16, as a fused f16 FMA does.
  const size_t n = 256;
  auto fa = kt::random_floats(n, -8, 8, 28), fb = kt::random_floats(n, -8, 8, 29), fc = kt::random_floats(n, -16, 16, 30);
  std::vector<uint16_t> a(n), b(n), c(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = kt::float_to_half(fa[i]), b[i] = kt::float_to_half(fb[i]), c[i] = kt::float_to_half(fc[i]);
    double exact = double(kt::half_to_float(a[i])) * kt::half_to_float(b[i]) + kt::half_to_float(c[i]);
    want[i] = kt::double_to_half(exact);
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kHalfSource).kernel("half_fma");
    Buffer o = d.alloc(2 * n, "out"), ba = up(d, a, "a"), bb = up(d, b, "b"), bc = up(d, c, "c");
    d.launch(k, {4}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb).ptr(bc));
    CHECK_BITS(down<uint16_t>(d, o), want);
  });
}

TEST_CASE("kernel bf16_fma: bf16 inputs, f32 fma, bf16 output", "[runtime][kernels][bf16]") {
  const size_t n = 256;
  auto fa = kt::random_floats(n, -8, 8, 31), fb = kt::random_floats(n, -8, 8, 32), c = kt::random_floats(n, -16, 16, 33);
  std::vector<uint16_t> a(n), b(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = kt::float_to_bf16(fa[i]), b[i] = kt::float_to_bf16(fb[i]);
    want[i] = kt::float_to_bf16(std::fma(kt::bf16_to_float(a[i]), kt::bf16_to_float(b[i]), c[i]));
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kHalfSource).kernel("bf16_fma");
    Buffer o = d.alloc(2 * n, "out"), ba = up(d, a, "a"), bb = up(d, b, "b"), bc = up(d, c, "c");
    d.launch(k, {4}, {64}, 0, KernelArgs().ptr(o).ptr(ba).ptr(bb).ptr(bc));
    CHECK_BITS(down<uint16_t>(d, o), want);
  });
}

TEST_CASE("kernel var_loop: per-lane trip counts", "[runtime][kernels][control]") {
  const size_t n = 128;
  auto r = kt::random_u32(n, 34);
  auto a = kt::random_floats(n, -2, 2, 35);
  std::vector<int32_t> trips(n);
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) {
    trips[i] = int32_t(r[i] % 40);
    float acc = 0.0f;
    for (int j = 0; j < trips[i]; ++j) acc = std::fma(acc, 0.5f, a[i] + float(j));
    want[i] = acc;
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kControlSource).kernel("var_loop");
    Buffer o = d.alloc(4 * n, "out"), bn = up(d, trips, "n"), ba = up(d, a, "a");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(bn).ptr(ba));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel branches: divergent if / else-if / else", "[runtime][kernels][control]") {
  const size_t n = 256;
  auto r = kt::random_u32(n, 36);
  std::vector<int32_t> a(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    int x = int32_t(r[i]) >> 8;
    a[i] = x;
    want[i] = (x & 1) ? x * 3 + 1 : (x % 3 == 0 ? x / 3 : -x);
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kControlSource).kernel("branches");
    Buffer o = d.alloc(4 * n, "out"), ba = up(d, a, "a");
    d.launch(k, {4}, {64}, 0, KernelArgs().ptr(o).ptr(ba));
    CHECK_BITS(down<int32_t>(d, o), want);
  });
}

TEST_CASE("kernel collatz: data-dependent while loop", "[runtime][kernels][control]") {
  const size_t n = 128;
  std::vector<uint32_t> a(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = uint32_t(i * 37 + 1);
    uint32_t x = a[i], steps = 0;
    while (x != 1u && steps < 1000u) x = (x & 1u) ? 3u * x + 1u : x >> 1, ++steps;
    want[i] = steps;
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kControlSource).kernel("collatz");
    Buffer o = d.alloc(4 * n, "out"), ba = up(d, a, "a");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba));
    CHECK_BITS(down<uint32_t>(d, o), want);
  });
}

TEST_CASE("kernel clamp_sq: selects and by-value float arguments", "[runtime][kernels][control]") {
  const size_t n = 128;
  auto a = kt::random_floats(n, -10, 10, 37);
  const float lo = -2.5f, hi = 3.25f;
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) {
    float v = a[i] < lo ? lo : (a[i] > hi ? hi : a[i]);
    want[i] = v * v;
  }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kControlSource).kernel("clamp_sq");
    Buffer o = d.alloc(4 * n, "out"), ba = up(d, a, "a");
    d.launch(k, {2}, {64}, 0, KernelArgs().ptr(o).ptr(ba).f32(lo).f32(hi));
    CHECK_BITS(down<float>(d, o), want);
  });
}

TEST_CASE("kernel dims3: 3-D grid and block, hidden block counts and group sizes", "[runtime][kernels][control]") {
  const Dim3 grid{2, 3, 2}, block{4, 2, 8};
  const uint32_t threads = block.x * block.y * block.z, blocks = grid.x * grid.y * grid.z;
  std::vector<uint32_t> want(4 * threads * blocks);
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx)
        for (uint32_t tz = 0; tz < block.z; ++tz)
          for (uint32_t ty = 0; ty < block.y; ++ty)
            for (uint32_t tx = 0; tx < block.x; ++tx) {
              uint32_t b = (bz * grid.y + by) * grid.x + bx, l = (tz * block.y + ty) * block.x + tx;
              uint32_t* o = &want[4 * (b * threads + l)];
              o[0] = grid.x | grid.y << 8 | grid.z << 16;
              o[1] = block.x | block.y << 8 | block.z << 16;
              o[2] = bx | by << 8 | bz << 16;
              o[3] = tx | ty << 8 | tz << 16;
            }
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kControlSource).kernel("dims3");
    Buffer o = d.alloc(4 * want.size(), "out");
    d.launch(k, grid, block, 0, KernelArgs().ptr(o));
    CHECK_BITS(down<uint32_t>(d, o), want);
  });
}

TEST_CASE("kernel grid_stride: loop bounded by gridDim.x * blockDim.x", "[runtime][kernels][control]") {
  const int n = 1000;  // 3 blocks of 64 threads: ~5 iterations each, ragged end
  auto x = kt::random_floats(size_t(n), -1, 1, 38), y0 = kt::random_floats(size_t(n), -1, 1, 39);
  const float a = 1.75f;
  std::vector<float> want(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) want[size_t(i)] = std::fma(a, x[size_t(i)], y0[size_t(i)]);
  kt::for_archs(kBoth, [&](Arch arch) {
    Device& d = kt::sim_device(arch);
    DeviceKernel k = kt::load(d, kControlSource).kernel("grid_stride");
    Buffer by = up(d, y0, "y"), bx = up(d, x, "x");
    d.launch(k, {3}, {64}, 0, KernelArgs().ptr(by).ptr(bx).f32(a).i32(n));
    CHECK_BITS(down<float>(d, by), want);
  });
}
