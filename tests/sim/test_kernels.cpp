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
