// A VALU-heavy kernel run with one, two and seven host threads: results must be identical.
// (Throughput is measured by tools/bench_sim; this test only prints it.)
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;

TEST_CASE("VALU-heavy kernel: results do not depend on the host thread count", "[sim][determinism]") {
  const char* src = R"(
extern "C" __global__ void valu_heavy(const float* x, float* y, int iters) {
  unsigned i = bid() * bdim() + tid();
  float v = x[i];
  float a0 = v, a1 = v + 1.0f, a2 = v - 1.0f, a3 = v * 0.5f;
  for (int k = 0; k < iters; ++k) {
    a0 = __builtin_fmaf(a0, 0.999f, 0.001f);
    a1 = __builtin_fmaf(a1, 0.998f, 0.002f);
    a2 = __builtin_fmaf(a2, 0.997f, 0.003f);
    a3 = __builtin_fmaf(a3, 0.996f, 0.004f);
    a0 = a0 * a1 + a2;
    a1 = a1 - a3 * 0.25f;
  }
  y[i] = a0 + a1 + a2 + a3;
})";
  Arch arch = Arch::gfx950;
  Device dev(arch);
  auto co = load_hip(src, arch);
  const int groups = 64, block = 256, n = groups * block, iters = 256;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = float(i % 97) * 0.01f;
  uint64_t dx = dev.upload(x, "x"), dy = dev.upload(std::vector<float>(n), "y");
  std::vector<float> results[3];
  double rate[3];
  const int thread_counts[3] = {1, 2, 7};
  for (int i = 0; i < 3; ++i) {
    const int t = thread_counts[i];
    cdnajit::sim::Options o;
    o.threads = t;
    auto st = dev.run(co, "valu_heavy", ArgPack().add(dx).add(dy).add(iters), dims1(groups, block), o);
    rate[i] = double(st.lane_ops) / st.seconds;
    std::printf("valu_heavy: %d thread(s): %.3g lane-ops in %.3f s = %.3g lane-ops/s (%.3g wave-instructions/s)\n", t,
                double(st.lane_ops), st.seconds, rate[i], double(st.wave_instructions) / st.seconds);
    results[i] = dev.download<float>(dy, n);
    CHECK(st.lane_ops >= uint64_t(n) * iters * 6);
  }
  REQUIRE(std::memcmp(results[0].data(), results[1].data(), n * sizeof(float)) == 0);
  REQUIRE(std::memcmp(results[0].data(), results[2].data(), n * sizeof(float)) == 0);
  // Speed is measured by tools/bench_sim (no timed assertions in tests); the rates above are informational.
  (void)rate;
}

// An LDS kernel with a barrier (four waves per workgroup, store visibility and wait counts
// checked): results, statistics and the first checker finding do not depend on the host thread
// count. Workgroups from `bad` on store out of bounds; the report names the lowest such workgroup
// whichever host thread reaches it first.
TEST_CASE("LDS kernel: results, statistics and checker findings do not depend on the host thread count",
          "[sim][determinism]") {
  const char* src = R"(
extern "C" __global__ void lds_mix(const float* x, float* y, int bad) {
  __shared__ float buf[256];
  unsigned t = tid(), g = bid();
  buf[t] = x[g * 256 + t];
  sync();
  float s = 0.0f;
  for (int k = 0; k < 8; ++k) s = __builtin_fmaf(buf[(t * 7 + k * 33) & 255], 0.5f, s);
  unsigned i = g * 256 + t;
  if (g >= unsigned(bad) && t == 3) i += 1u << 20;
  y[i] = s;
})";
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    const int groups = 64, n = groups * 256;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) x[i] = float((i * 37) % 101) * 0.125f - 3.0f;
    uint64_t dx = dev.upload(x, "x"), dy = dev.upload(std::vector<float>(n), "y");
    std::vector<float> first;
    cdnajit::sim::Stats first_stats;
    std::string first_error;
    for (const int t : {1, 2, 7}) {
      INFO(cdnajit::arch_name(arch) << ", " << t << " host threads");
      cdnajit::sim::Options o;
      o.threads = t;
      const auto st = dev.run(co, "lds_mix", ArgPack().add(dx).add(dy).add(groups), dims1(groups, 256), o);
      const std::vector<float> y = dev.download<float>(dy, n);
      std::string err;
      try {
        dev.run(co, "lds_mix", ArgPack().add(dx).add(dy).add(37), dims1(groups, 256), o);
      } catch (const cdnajit::Error& e) {
        err = e.what();
      }
      CHECK_THAT(err, Catch::Matchers::Contains("out-of-bounds global store") && Catch::Matchers::Contains("workgroup (37,0,0)"));
      if (t == 1) {
        first = y, first_stats = st, first_error = err;
        continue;
      }
      CHECK(std::memcmp(y.data(), first.data(), size_t(n) * sizeof(float)) == 0);
      CHECK(st.wave_instructions == first_stats.wave_instructions);
      CHECK(st.lane_ops == first_stats.lane_ops);
      for (int u = 0; u <= int(cdnajit::isa::Unit::Misc); ++u) CHECK(st.by_unit[u] == first_stats.by_unit[u]);
      CHECK(err == first_error);
    }
  }
}
