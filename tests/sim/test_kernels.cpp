// HIP kernels compiled by clang for gfx942 and gfx950, run on the simulator and
// compared bit-for-bit with a CPU computation of the same arithmetic.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;

namespace {

std::vector<float> random_floats(size_t n, uint32_t seed, float lo = -4, float hi = 4) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

template <class T>
void require_bits_equal(const std::vector<T>& got, const std::vector<T>& want) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0, first = got.size();
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) { if (!bad) first = i; ++bad; }
  INFO("mismatches: " << bad << ", first at index " << first
       << (bad ? ": got " + std::to_string(double(got[first])) + " want " + std::to_string(double(want[first])) : ""));
  REQUIRE(bad == 0);
}

const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};

}  // namespace

TEST_CASE("vector add f32 with a partial last workgroup", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  unsigned i = bid() * bdim() + tid();
  if (i < n) c[i] = a[i] + b[i];
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    const int n = 1000;
    auto a = random_floats(n, 1), b = random_floats(n, 2);
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b"), dc = dev.upload(std::vector<float>(n), "c");
    auto st = dev.run(co, "vadd", ArgPack().add(da).add(db).add(dc).add(n), dims1((n + 255) / 256, 256));
    std::vector<float> want(n);
    for (int i = 0; i < n; ++i) want[i] = a[i] + b[i];
    require_bits_equal(dev.download<float>(dc, n), want);
    CHECK(st.workgroups == 4);
    CHECK(st.waves == 16);
  }
}

TEST_CASE("fma chain f32 matches std::fma bit for bit", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void fchain(const float* x, float* y) {
  unsigned i = bid() * 64 + tid();
  float v = x[i], acc = 0.25f;
  for (int k = 0; k < 16; ++k) acc = __builtin_fmaf(acc, v, 0.5f + k);
  y[i] = acc * v - 1.0f;
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    const int n = 256;
    auto x = random_floats(n, 3, -1.1f, 1.1f);
    uint64_t dx = dev.upload(x, "x"), dy = dev.upload(std::vector<float>(n), "y");
    dev.run(co, "fchain", ArgPack().add(dx).add(dy), dims1(n / 64, 64));
    std::vector<float> want(n);
    for (int i = 0; i < n; ++i) {
      float acc = 0.25f;
      for (int k = 0; k < 16; ++k) acc = std::fma(acc, x[i], 0.5f + k);
      want[i] = std::fma(acc, x[i], -1.0f);  // clang contracts acc * v - 1 into v_fma_f32
    }
    require_bits_equal(dev.download<float>(dy, n), want);
  }
}

TEST_CASE("integer ops: mul, shifts, div, min/max, bit tricks", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void iops(const unsigned* a, const int* b, unsigned* o) {
  unsigned i = bid() * 64 + tid();
  unsigned x = a[i]; int y = b[i];
  unsigned r = x * 2654435761u;
  r ^= (x >> 7) | (x << 3);
  r += (unsigned)(y >> 3) + (unsigned)(y / 7) + x % 13u;
  r += (unsigned)__builtin_popcount(x) + (unsigned)__builtin_clz(x | 1);
  r += (unsigned)(((unsigned long long)x * (unsigned)y) >> 32);
  r += (unsigned)(y < 0 ? -y : y) + (x > (unsigned)y ? x : (unsigned)y);
  o[i] = r;
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    const int n = 512;
    std::mt19937 g(5);
    std::vector<uint32_t> a(n);
    std::vector<int32_t> b(n);
    for (int i = 0; i < n; ++i) { a[i] = g(); b[i] = int32_t(g()); }
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b"), dout = dev.upload(std::vector<uint32_t>(n), "o");
    dev.run(co, "iops", ArgPack().add(da).add(db).add(dout), dims1(n / 64, 64));
    std::vector<uint32_t> want(n);
    for (int i = 0; i < n; ++i) {
      uint32_t x = a[i]; int32_t y = b[i];
      uint32_t r = x * 2654435761u;
      r ^= (x >> 7) | (x << 3);
      r += uint32_t(y >> 3) + uint32_t(y / 7) + x % 13u;
      r += uint32_t(__builtin_popcount(x)) + uint32_t(__builtin_clz(x | 1));
      r += uint32_t((uint64_t(x) * uint32_t(y)) >> 32);
      r += uint32_t(y < 0 ? -y : y) + (x > uint32_t(y) ? x : uint32_t(y));
      want[i] = r;
    }
    require_bits_equal(dev.download<uint32_t>(dout, n), want);
  }
}

TEST_CASE("loop with a data-dependent trip count and a divergent branch", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void loopdiv(const int* cnt, float* o) {
  unsigned i = bid() * 64 + tid();
  int c = cnt[i];
  float acc = 0.0f;
  for (int k = 0; k < c; ++k) acc += (float)k * 0.5f;
  if (i & 1) acc = acc * 3.0f; else acc = acc - 7.0f;
  if (c > 20) o[i] = acc; else o[i] = -acc;
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    const int n = 192;
    std::vector<int32_t> cnt(n);
    for (int i = 0; i < n; ++i) cnt[i] = (i * 7) % 41;
    uint64_t dc = dev.upload(cnt, "cnt"), dout = dev.upload(std::vector<float>(n), "o");
    dev.run(co, "loopdiv", ArgPack().add(dc).add(dout), dims1(n / 64, 64));
    std::vector<float> want(n);
    for (int i = 0; i < n; ++i) {
      float acc = 0.0f;
      for (int k = 0; k < cnt[i]; ++k) acc += float(k) * 0.5f;
      if (i & 1) acc = acc * 3.0f; else acc = acc - 7.0f;
      want[i] = cnt[i] > 20 ? acc : -acc;
    }
    require_bits_equal(dev.download<float>(dout, n), want);
  }
}

TEST_CASE("LDS tree reduction with barriers", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void reduce(const float* x, float* o) {
  __shared__ float buf[256];
  unsigned t = tid();
  buf[t] = x[bid() * 256 + t];
  sync();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    sync();
  }
  if (t == 0) o[bid()] = buf[0];
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    const int groups = 6;
    auto x = random_floats(groups * 256, 9);
    uint64_t dx = dev.upload(x, "x"), dout = dev.upload(std::vector<float>(groups), "o");
    auto st = dev.run(co, "reduce", ArgPack().add(dx).add(dout), dims1(groups, 256));
    std::vector<float> want(groups);
    for (int g = 0; g < groups; ++g) {
      float b[256];
      for (int t = 0; t < 256; ++t) b[t] = x[g * 256 + t];
      for (int s = 128; s > 0; s >>= 1)
        for (int t = 0; t < s; ++t) b[t] += b[t + s];
      want[g] = b[0];
    }
    require_bits_equal(dev.download<float>(dout, groups), want);
    CHECK(st.by_unit[int(cdnajit::isa::Unit::Barrier)] > 0);
    CHECK(st.by_unit[int(cdnajit::isa::Unit::DS)] > 0);
  }
}

TEST_CASE("f32 to bf16 conversion rounds to nearest even, NaN stays NaN", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void tobf16(const float* x, __bf16* o) {
  unsigned i = bid() * 64 + tid();
  o[i] = (__bf16)x[i];
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    const int n = 256;
    std::vector<uint32_t> xb(n);
    std::mt19937 g(11);
    for (int i = 0; i < n; ++i) xb[i] = g();
    // Ties, NaNs, infinities, denormals, zeros.
    xb[0] = 0x3f808000u; xb[1] = 0x3f818000u; xb[2] = 0x7fc00001u; xb[3] = 0xff800000u; xb[4] = 0x00000001u;
    xb[5] = 0x80000000u; xb[6] = 0x7f7fffffu; xb[7] = 0x7f800001u;
    uint64_t dx = dev.upload(xb, "x"), dout = dev.upload(std::vector<uint16_t>(n), "o");
    dev.run(co, "tobf16", ArgPack().add(dx).add(dout), dims1(n / 64, 64));
    auto got = dev.download<uint16_t>(dout, n);
    for (int i = 0; i < n; ++i) {
      uint32_t u = xb[i];
      bool nan = (u & 0x7fffffffu) > 0x7f800000u;
      INFO("i=" << i << " input 0x" << std::hex << u << " got 0x" << got[i]);
      if (nan) {
        REQUIRE((got[i] & 0x7f80) == 0x7f80);
        REQUIRE((got[i] & 0x7f) != 0);
      } else {
        uint16_t want = uint16_t((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
        REQUIRE(got[i] == want);
      }
    }
  }
}

TEST_CASE("f32 division (div_scale / div_fmas / div_fixup sequence) is correctly rounded", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void fdiv(const float* a, const float* b, float* c) {
  unsigned i = bid() * 64 + tid();
  c[i] = a[i] / b[i];
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    const int n = 512;
    auto a = random_floats(n, 21, -100, 100), b = random_floats(n, 22, -3, 3);
    a[0] = 1.0f; b[0] = 0.0f;    // inf
    a[1] = 0.0f; b[1] = 0.0f;    // nan
    a[2] = 1e-30f; b[2] = 1e10f; // tiny quotient (denormal range)
    a[3] = 3e38f; b[3] = 0.5f;   // overflow
    a[4] = 1e-40f; b[4] = 3.0f;  // denormal numerator
    a[5] = 7.0f; b[5] = 1e-39f;  // denormal denominator
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b"), dc = dev.upload(std::vector<float>(n), "c");
    dev.run(co, "fdiv", ArgPack().add(da).add(db).add(dc), dims1(n / 64, 64));
    auto got = dev.download<float>(dc, n);
    std::vector<float> want(n);
    for (int i = 0; i < n; ++i) want[i] = a[i] / b[i];
    REQUIRE(std::isnan(got[1]));
    got[1] = want[1] = 0;  // NaN payloads are not compared
    require_bits_equal(got, want);
  }
}

TEST_CASE("cross-lane ops: DPP row_shr/quad_perm, ds_swizzle, ds_bpermute", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void xlane(const int* x, int* o) {
  unsigned t = tid();
  int v = x[bid() * 64 + t];
  int a = __builtin_amdgcn_mov_dpp(v, 0x111, 0xf, 0xf, true);   // row_shr:1, bound_ctrl
  int b = __builtin_amdgcn_mov_dpp(v, 0x1b, 0xf, 0xf, false);   // quad_perm:[3,2,1,0]
  int c = __builtin_amdgcn_ds_swizzle(v, 0x041f);               // xor 1 within 32 lanes
  int d = __builtin_amdgcn_ds_bpermute((int)(((t + 5) & 63) * 4), v);
  o[(bid() * 64 + t) * 4 + 0] = a;
  o[(bid() * 64 + t) * 4 + 1] = b;
  o[(bid() * 64 + t) * 4 + 2] = c;
  o[(bid() * 64 + t) * 4 + 3] = d;
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    const int n = 128;
    std::vector<int32_t> x(n);
    for (int i = 0; i < n; ++i) x[i] = 1000 + i * 3;
    uint64_t dx = dev.upload(x, "x"), dout = dev.upload(std::vector<int32_t>(n * 4), "o");
    dev.run(co, "xlane", ArgPack().add(dx).add(dout), dims1(n / 64, 64));
    auto got = dev.download<int32_t>(dout, n * 4);
    std::vector<int32_t> want(n * 4);
    for (int g = 0; g < n / 64; ++g)
      for (int l = 0; l < 64; ++l) {
        const int32_t* v = &x[g * 64];
        int i = g * 64 + l;
        want[i * 4 + 0] = (l & 15) == 0 ? 0 : v[l - 1];
        want[i * 4 + 1] = v[(l & ~3) + 3 - (l & 3)];
        want[i * 4 + 2] = v[l ^ 1];
        want[i * 4 + 3] = v[(l + 5) & 63];
      }
    require_bits_equal(got, want);
  }
}

namespace {
float bf16_to_float(uint16_t h) { return flt(uint32_t(h) << 16); }
uint16_t float_to_bf16(float f) { uint32_t u = bits(f); return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16); }
uint16_t float_to_half(float f) { _Float16 x = (_Float16)f; uint16_t h; std::memcpy(&h, &x, 2); return h; }
}  // namespace

TEST_CASE("v_dot2_f32_bf16 (gfx950) under both documented rounding modes", "[sim][kernels]") {
  const char* src = R"(
typedef __bf16 bf16x2 __attribute__((ext_vector_type(2)));
extern "C" __global__ void dot2(const bf16x2* a, const bf16x2* b, float* o) {
  unsigned t = bid() * 64 + tid();
  float acc = o[t];
  for (int k = 0; k < 4; ++k) acc = __builtin_amdgcn_fdot2_f32_bf16(a[t * 4 + k], b[t * 4 + k], acc, false);
  o[t] = acc;
})";
  Arch arch = Arch::gfx950;
  auto co = load_hip(src, arch);
  const int n = 128;
  std::mt19937 g(77);
  std::uniform_real_distribution<float> d(-2, 2);
  std::vector<uint16_t> a(n * 8), b(n * 8);
  for (auto& x : a) x = float_to_bf16(d(g));
  for (auto& x : b) x = float_to_bf16(d(g));
  std::vector<float> init(n);
  for (auto& x : init) x = d(g) * 1e3f;
  using Mode = cdnajit::sim::Options::Dot2;
  for (Mode mode : {Mode::FusedSingleRounding, Mode::ProductsThenSum}) {
    Device dev(arch);
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b"), dout = dev.upload(init, "o");
    cdnajit::sim::Options opt;
    opt.dot2 = mode;
    dev.run(co, "dot2", ArgPack().add(da).add(db).add(dout), dims1(n / 64, 64), opt);
    std::vector<float> want(n);
    for (int t = 0; t < n; ++t) {
      float acc = init[t];
      for (int k = 0; k < 4; ++k) {
        float a0 = bf16_to_float(a[(t * 4 + k) * 2]), a1 = bf16_to_float(a[(t * 4 + k) * 2 + 1]);
        float b0 = bf16_to_float(b[(t * 4 + k) * 2]), b1 = bf16_to_float(b[(t * 4 + k) * 2 + 1]);
        if (mode == Mode::FusedSingleRounding) acc = float(double(a0) * b0 + double(a1) * b1 + double(acc));
        else acc = std::fma(a1, b1, std::fma(a0, b0, acc));
      }
      want[t] = acc;
    }
    require_bits_equal(dev.download<float>(dout, n), want);
  }
}

TEST_CASE("MFMA f16 16x16x16 and 32x32x8: lane layout and f32 accumulation", "[sim][kernels]") {
  // Each lane loads its A/B fragments and C rows as the ISA's layout prescribes;
  // the CPU computes D = A*B + C from the full matrices.
  const char* src = R"(
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float4_ __attribute__((ext_vector_type(4)));
typedef float float16_ __attribute__((ext_vector_type(16)));
extern "C" __global__ void mm16(const half4* a, const half4* b, const float4_* c, float4_* d) {
  unsigned t = tid();
  d[t] = __builtin_amdgcn_mfma_f32_16x16x16f16(a[t], b[t], c[t], 0, 0, 0);
}
extern "C" __global__ void mm32(const half4* a, const half4* b, const float16_* c, float16_* d) {
  unsigned t = tid();
  d[t] = __builtin_amdgcn_mfma_f32_32x32x8f16(a[t], b[t], c[t], 0, 0, 0);
})";
  for (Arch arch : kArchs) {
    auto co = load_hip(src, arch);
    for (int M : {16, 32}) {
      const int K = M == 16 ? 16 : 8, N = M, kpl = K / (64 / M), nreg = M * N / 64;
      std::mt19937 g(M);
      std::uniform_int_distribution<int> di(-8, 8);
      std::vector<float> A(M * K), B(K * N), C(M * N);
      for (auto& x : A) x = float(di(g)) * 0.25f;
      for (auto& x : B) x = float(di(g)) * 0.5f;
      for (auto& x : C) x = float(di(g));
      // Per-lane fragments: A[l % M][(l / M) * kpl + j], B[(l / N) * kpl + j][l % N].
      std::vector<uint16_t> fa(64 * 4), fb(64 * 4);
      for (int l = 0; l < 64; ++l)
        for (int j = 0; j < kpl; ++j) {
          fa[l * 4 + j] = float_to_half(A[(l % M) * K + (l / M) * kpl + j]);
          fb[l * 4 + j] = float_to_half(B[((l / N) * kpl + j) * N + l % N]);
        }
      auto row_of = [&](int l, int r) { return M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4; };
      std::vector<float> fc(64 * nreg), want(64 * nreg);
      for (int l = 0; l < 64; ++l)
        for (int r = 0; r < nreg; ++r) {
          int i = row_of(l, r), j = l % N;
          fc[l * nreg + r] = C[i * N + j];
          double acc = C[i * N + j];
          for (int k = 0; k < K; ++k) acc += double(A[i * K + k]) * B[k * N + j];
          want[l * nreg + r] = float(acc);
        }
      Device dev(arch);
      uint64_t da = dev.upload(fa, "a"), db = dev.upload(fb, "b"), dc = dev.upload(fc, "c"),
               dd = dev.upload(std::vector<float>(64 * nreg), "d");
      auto st = dev.run(co, M == 16 ? "mm16" : "mm32", ArgPack().add(da).add(db).add(dc).add(dd), dims1(1, 64));
      require_bits_equal(dev.download<float>(dd, 64 * nreg), want);
      CHECK(st.by_unit[int(cdnajit::isa::Unit::MFMA)] == 1);
    }
  }
}

TEST_CASE("v_cvt_pk_bf16_f32 (gfx950) packs two RNE-rounded bf16 values", "[sim][kernels]") {
  const char* src = R"(
typedef __bf16 bf16x2 __attribute__((ext_vector_type(2)));
extern "C" __global__ void pk(const float* x, bf16x2* o) {
  unsigned t = bid() * 64 + tid();
  bf16x2 q = {(__bf16)x[2 * t], (__bf16)x[2 * t + 1]};
  o[t] = q;
})";
  Arch arch = Arch::gfx950;
  Device dev(arch);
  auto co = load_hip(src, arch);
  const int n = 128;
  std::vector<uint32_t> xb(2 * n);
  std::mt19937 g(3);
  for (auto& u : xb) u = g();
  xb[0] = 0x3f808000u;  // tie -> even
  xb[1] = 0x3f818000u;  // tie -> up
  uint64_t dx = dev.upload(xb, "x"), dout = dev.upload(std::vector<uint32_t>(n), "o");
  dev.run(co, "pk", ArgPack().add(dx).add(dout), dims1(n / 64, 64));
  auto got = dev.download<uint32_t>(dout, n);
  bool saw_pk = dev.sim.disassemble(co, "pk").find("v_cvt_pk_bf16_f32") != std::string::npos;
  CHECK(saw_pk);
  for (int t = 0; t < n; ++t) {
    for (int h = 0; h < 2; ++h) {
      uint32_t u = xb[2 * t + h];
      uint16_t gh = uint16_t(got[t] >> (16 * h));
      INFO("t=" << t << " h=" << h << " in=0x" << std::hex << u << " got=0x" << gh);
      if ((u & 0x7fffffffu) > 0x7f800000u) REQUIRE(((gh & 0x7f80) == 0x7f80 && (gh & 0x7f)));
      else REQUIRE(gh == uint16_t((u + 0x7fffu + ((u >> 16) & 1)) >> 16));
    }
  }
}

TEST_CASE("LDS reverse exchange: negative base folded into the DS offset wraps at 32 bits", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void lrev(const int* x, int* o) {
  __shared__ int buf[256];
  unsigned t = tid();
  buf[t] = x[bid() * 256 + t];
  sync();
  o[bid() * 256 + t] = buf[255 - t];
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    std::vector<int32_t> x(512);
    for (int i = 0; i < 512; ++i) x[i] = i * 7 - 300;
    uint64_t dx = dev.upload(x, "x"), dout = dev.upload(std::vector<int32_t>(512), "o");
    dev.run(co, "lrev", ArgPack().add(dx).add(dout), dims1(2, 256));
    std::vector<int32_t> want(512);
    for (int g = 0; g < 2; ++g)
      for (int t = 0; t < 256; ++t) want[g * 256 + t] = x[g * 256 + 255 - t];
    require_bits_equal(dev.download<int32_t>(dout, 512), want);
  }
}

TEST_CASE("LDS DMA (global_load_lds): M0 base + offset + lane * size, counted on vmcnt", "[sim][kernels]") {
  const char* src4 = R"(
extern "C" __global__ void dma(const float* g, float* o) {
  __shared__ float tile[1024];
  unsigned t = tid();
  __builtin_amdgcn_global_load_lds((float*)g + t, (__attribute__((address_space(3))) void*)(tile + 512), 4, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  __builtin_amdgcn_s_barrier();
  o[t] = tile[512 + (t ^ 5)];
})";
  const char* src16 = R"(
extern "C" __global__ void dma(const float* g, float* o) {
  __shared__ float tile[1024];
  unsigned t = tid();
  __builtin_amdgcn_global_load_lds((float*)g + t * 4, (__attribute__((address_space(3))) void*)tile, 16, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  __builtin_amdgcn_s_barrier();
  o[t] = tile[t ^ 7] + tile[255 - t];
})";
  auto g = random_floats(256, 31);
  for (Arch arch : kArchs) {
    for (int size : {4, 16}) {
      if (size == 16 && arch != Arch::gfx950) continue;  // dwordx4 LDS DMA is gfx950-only
      Device dev(arch);
      auto co = load_hip(size == 4 ? src4 : src16, arch);
      std::string dis = dev.sim.disassemble(co, "dma");
      CHECK(dis.find(size == 4 ? "global_load_lds_dword " : "global_load_lds_dwordx4") != std::string::npos);
      uint64_t dg = dev.upload(g, "g"), dout = dev.upload(std::vector<float>(64), "o");
      auto st = dev.run(co, "dma", ArgPack().add(dg).add(dout), dims1(1, 64));
      std::vector<float> want(64);
      for (int t = 0; t < 64; ++t) want[t] = size == 4 ? g[t ^ 5] : g[t ^ 7] + g[255 - t];
      require_bits_equal(dev.download<float>(dout, 64), want);
      CHECK(st.by_unit[int(cdnajit::isa::Unit::VMEM)] >= 2);
    }
  }
}

TEST_CASE("MFMA fp8 16x16x32: FNUZ encoding on gfx942, OCP encoding on gfx950", "[sim][kernels]") {
  const char* src = R"(
typedef float float4_ __attribute__((ext_vector_type(4)));
extern "C" __global__ void mm8(const long* a, const long* b, const float4_* c, float4_* d) {
  unsigned t = tid();
  d[t] = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a[t], b[t], c[t], 0, 0, 0);
})";
  // Known encodings of {0, 0.5, 1, 1.5, -2} in E4M3: OCP bias 7, FNUZ bias 8.
  const float vals[5] = {0.0f, 0.5f, 1.0f, 1.5f, -2.0f};
  const uint8_t ocp[5] = {0x00, 0x30, 0x38, 0x3c, 0xc0}, fnuz[5] = {0x00, 0x38, 0x40, 0x44, 0xc8};
  for (Arch arch : kArchs) {
    const uint8_t* enc = arch == Arch::gfx942 ? fnuz : ocp;
    const int M = 16, K = 32, N = 16, kpl = 8;
    std::mt19937 g(int(arch) + 5);
    std::vector<int> ai(M * K), bi(K * N);
    for (auto& x : ai) x = int(g() % 5);
    for (auto& x : bi) x = int(g() % 5);
    std::vector<uint8_t> fa(64 * 8), fb(64 * 8);
    for (int l = 0; l < 64; ++l)
      for (int j = 0; j < kpl; ++j) {
        fa[l * 8 + j] = enc[ai[(l % M) * K + (l / M) * kpl + j]];
        fb[l * 8 + j] = enc[bi[((l / N) * kpl + j) * N + l % N]];
      }
    std::vector<float> fc(64 * 4), want(64 * 4);
    for (int l = 0; l < 64; ++l)
      for (int r = 0; r < 4; ++r) {
        int i = 4 * (l / 16) + r, j = l % 16;
        fc[l * 4 + r] = float(i - j);
        double acc = fc[l * 4 + r];
        for (int k = 0; k < K; ++k) acc += double(vals[ai[i * K + k]]) * vals[bi[k * N + j]];
        want[l * 4 + r] = float(acc);
      }
    Device dev(arch);
    auto co = load_hip(src, arch);
    uint64_t da = dev.upload(fa, "a"), db = dev.upload(fb, "b"), dc = dev.upload(fc, "c"), dd = dev.upload(std::vector<float>(256), "d");
    dev.run(co, "mm8", ArgPack().add(da).add(db).add(dc).add(dd), dims1(1, 64));
    require_bits_equal(dev.download<float>(dd, 256), want);
  }
}

TEST_CASE("f64 compares/selects and the deterministic s_memtime clock", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void dsel(const double* a, const double* b, double* o, unsigned long long* clk) {
  unsigned i = bid() * 64 + tid();
  unsigned long long t0 = __builtin_amdgcn_s_memtime();
  double x = a[i], y = b[i];
  double r = x < y ? x * 2.0 : (x > y ? y - x : 0.5);
  o[i] = r;
  unsigned long long t1 = __builtin_amdgcn_s_memtime();
  clk[i] = t1 - t0;
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    const int n = 128;
    std::vector<double> a(n), b(n);
    std::mt19937 g(8);
    for (int i = 0; i < n; ++i) { a[i] = double(int(g() % 7)) - 3; b[i] = double(int(g() % 7)) - 3; }
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b"), dout = dev.upload(std::vector<double>(n), "o"),
             dclk = dev.upload(std::vector<uint64_t>(n), "clk");
    dev.run(co, "dsel", ArgPack().add(da).add(db).add(dout).add(dclk), dims1(n / 64, 64));
    std::vector<double> want(n);
    for (int i = 0; i < n; ++i) want[i] = a[i] < b[i] ? a[i] * 2.0 : (a[i] > b[i] ? b[i] - a[i] : 0.5);
    require_bits_equal(dev.download<double>(dout, n), want);
    auto clk = dev.download<uint64_t>(dclk, n);
    CHECK(clk[0] > 0);
    CHECK(clk[0] == clk[n - 1]);  // same instruction path: same fake cycle count
  }
}

TEST_CASE("flat loads/stores through the LDS aperture (generic pointers to __shared__)", "[sim][kernels]") {
  // The pointer is LDS or global depending on a kernel argument, so clang must use flat_* accesses.
  const char* src = R"(
extern "C" __global__ void flat_lds(const float* x, float* o, int use_lds) {
  __shared__ float buf[64];
  unsigned t = tid();
  float* p = use_lds ? buf : o;
  p[t] = x[t] * 2.0f;
  sync();
  o[t] = p[63 - t] + x[t];
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    std::string dis = dev.sim.disassemble(co, "flat_lds");
    bool uses_flat = dis.find("flat_store") != std::string::npos || dis.find("flat_load") != std::string::npos;
    auto x = random_floats(64, 12);
    uint64_t dx = dev.upload(x, "x"), dout = dev.upload(std::vector<float>(64), "o");
    dev.run(co, "flat_lds", ArgPack().add(dx).add(dout).add(1), dims1(1, 64));
    std::vector<float> want(64);
    for (int t = 0; t < 64; ++t) want[t] = x[63 - t] * 2.0f + x[t];
    require_bits_equal(dev.download<float>(dout, 64), want);
    // Same kernel with p = o (global through flat): the wave writes o, then reads it back reversed.
    dev.run(co, "flat_lds", ArgPack().add(dx).add(dout).add(0), dims1(1, 64));
    require_bits_equal(dev.download<float>(dout, 64), want);
    CHECK(uses_flat);
  }
}

TEST_CASE("scratch (private memory): dynamically indexed local array", "[sim][kernels]") {
  const char* src = R"(
extern "C" __global__ void scr(const int* x, int* o, int n) {
  unsigned t = tid();
  int a[40];
  for (int i = 0; i < 40; ++i) a[i] = x[(t + i) % 64] * i;
  int s = 0;
  for (int i = 0; i < n; ++i) s += a[(t * 7 + i * 3) % 40];
  o[t] = s;
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    REQUIRE(co.find("scr")->private_segment_size > 0);
    REQUIRE(dev.sim.disassemble(co, "scr").find("scratch_load") != std::string::npos);
    std::vector<int32_t> x(64);
    for (int i = 0; i < 64; ++i) x[i] = i * 5 - 100;
    const int n = 17;
    uint64_t dx = dev.upload(x, "x"), dout = dev.upload(std::vector<int32_t>(64), "o");
    dev.run(co, "scr", ArgPack().add(dx).add(dout).add(n), dims1(1, 64));
    std::vector<int32_t> want(64);
    for (int t = 0; t < 64; ++t) {
      int a[40];
      for (int i = 0; i < 40; ++i) a[i] = x[(t + i) % 64] * i;
      int s = 0;
      for (int i = 0; i < n; ++i) s += a[(t * 7 + i * 3) % 40];
      want[t] = s;
    }
    require_bits_equal(dev.download<int32_t>(dout, 64), want);
  }
}

TEST_CASE("MFMA i8 16x16x32 (int32 accumulate) and f32 16x16x4", "[sim][kernels]") {
  const char* src = R"(
typedef int int4_ __attribute__((ext_vector_type(4)));
typedef float float4_ __attribute__((ext_vector_type(4)));
extern "C" __global__ void mmi8(const long* a, const long* b, const int4_* c, int4_* d) {
  unsigned t = tid();
  d[t] = __builtin_amdgcn_mfma_i32_16x16x32_i8(a[t], b[t], c[t], 0, 0, 0);
}
extern "C" __global__ void mmf32(const float* a, const float* b, const float4_* c, float4_* d) {
  unsigned t = tid();
  d[t] = __builtin_amdgcn_mfma_f32_16x16x4f32(a[t], b[t], c[t], 0, 0, 0);
})";
  for (Arch arch : kArchs) {
    auto co = load_hip(src, arch);
    std::mt19937 g(int(arch) + 41);
    {  // i8: A 16x32, B 32x16, 8 bytes per lane
      const int M = 16, K = 32, N = 16, kpl = 8;
      std::vector<int8_t> A(M * K), B(K * N);
      for (auto& x : A) x = int8_t(g());
      for (auto& x : B) x = int8_t(g());
      std::vector<int8_t> fa(64 * 8), fb(64 * 8);
      for (int l = 0; l < 64; ++l)
        for (int j = 0; j < kpl; ++j) {
          fa[l * 8 + j] = A[(l % M) * K + (l / M) * kpl + j];
          fb[l * 8 + j] = B[((l / N) * kpl + j) * N + l % N];
        }
      std::vector<int32_t> fc(256), want(256);
      for (int l = 0; l < 64; ++l)
        for (int r = 0; r < 4; ++r) {
          int i = 4 * (l / 16) + r, j = l % 16;
          fc[l * 4 + r] = int32_t(g() % 2001) - 1000;
          int32_t acc = fc[l * 4 + r];
          for (int k = 0; k < K; ++k) acc += int32_t(A[i * K + k]) * int32_t(B[k * N + j]);
          want[l * 4 + r] = acc;
        }
      Device dev(arch);
      uint64_t da = dev.upload(fa, "a"), db = dev.upload(fb, "b"), dc = dev.upload(fc, "c"), dd = dev.upload(std::vector<int32_t>(256), "d");
      dev.run(co, "mmi8", ArgPack().add(da).add(db).add(dc).add(dd), dims1(1, 64));
      require_bits_equal(dev.download<int32_t>(dd, 256), want);
    }
    {  // f32: A 16x4, B 4x16, one element per lane; exact with small integers
      const int M = 16, K = 4, N = 16;
      std::vector<float> A(M * K), B(K * N), fa(64), fb(64), fc(256), want(256);
      for (auto& x : A) x = float(int(g() % 9) - 4);
      for (auto& x : B) x = float(int(g() % 9) - 4) * 0.5f;
      for (int l = 0; l < 64; ++l) {
        fa[l] = A[(l % M) * K + l / M];
        fb[l] = B[(l / N) * N + l % N];
      }
      for (int l = 0; l < 64; ++l)
        for (int r = 0; r < 4; ++r) {
          int i = 4 * (l / 16) + r, j = l % 16;
          fc[l * 4 + r] = float(i * 100 + j);
          float acc = fc[l * 4 + r];
          for (int k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
          want[l * 4 + r] = acc;
        }
      Device dev(arch);
      uint64_t da = dev.upload(fa, "a"), db = dev.upload(fb, "b"), dc = dev.upload(fc, "c"), dd = dev.upload(std::vector<float>(256), "d");
      dev.run(co, "mmf32", ArgPack().add(da).add(db).add(dc).add(dd), dims1(1, 64));
      require_bits_equal(dev.download<float>(dd, 256), want);
    }
  }
}

TEST_CASE("the dispatch packet's group_segment_size is the kernel's LDS plus the dynamic LDS", "[sim][kernels]") {
  // hsa_kernel_dispatch_packet_t: group_segment_size is the uint32 at byte 28 (dword 7). It read 0
  // whatever the launch asked for.
  const char* src = R"(
extern "C" __global__ void packet(unsigned* y) {
  __shared__ unsigned t[16];
  const unsigned* p = (const unsigned*)__builtin_amdgcn_dispatch_ptr();
  t[tid()] = p[7] + tid();
  sync();
  y[tid()] = t[15 - tid()];
})";
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    REQUIRE(co.find("packet")->group_segment_size == 64);
    uint64_t dy = dev.upload(std::vector<unsigned>(16, 0), "y");
    cdnajit::sim::LaunchDims d = dims1(1, 16);
    d.dynamic_lds = 100;
    dev.run(co, "packet", ArgPack().add(dy), d);
    std::vector<unsigned> y = dev.download<unsigned>(dy, 16);
    CHECK(y[15] == 164u);  // 64 static + 100 dynamic
    CHECK(y[0] == 179u);
  }
}
