// sim::Options::only_recorded_workgroups: a launch runs just the workgroups its recording lists
// (the timing model's runs of a large grid), each computing what it computes in the full grid.
#include <catch2/catch.hpp>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;

TEST_CASE("only_recorded_workgroups runs exactly the listed workgroups of the grid", "[sim][record]") {
  const char* src = R"(
extern "C" __global__ void mark(int* y) {
  y[bid() * bdim() + tid()] = int(bid()) * 1000 + int(tid()) + 1;
})";
  Arch arch = Arch::gfx950;
  Device dev(arch);
  auto co = load_hip(src, arch);
  const int groups = 12, block = 128, n = groups * block;
  uint64_t dy = dev.upload(std::vector<int>(n, 0), "y");
  cdnajit::sim::Recording rec;
  rec.workgroups = {9, 2};  // any order
  cdnajit::sim::Options o;
  o.recording = &rec;
  o.only_recorded_workgroups = true;
  auto st = dev.run(co, "mark", ArgPack().add(dy), dims1(groups, block), o);
  CHECK(st.workgroups == 2);
  CHECK(st.waves == 4);
  std::vector<int> y = dev.download<int>(dy, n);
  for (int g = 0; g < groups; ++g)
    for (int t = 0; t < block; ++t) {
      int want = (g == 9 || g == 2) ? g * 1000 + t + 1 : 0;
      INFO("workgroup " << g << " thread " << t);
      REQUIRE(y[size_t(g * block + t)] == want);
    }
  REQUIRE(rec.waves.size() == 4);
  CHECK(rec.waves[0].workgroup == 9);
  CHECK(rec.waves[2].workgroup == 2);
  CHECK(!rec.waves[0].steps.empty());
  CHECK(!rec.waves[3].steps.empty());
}

TEST_CASE("only_recorded_workgroups without a recording is an error that says so", "[sim][record]") {
  const char* src = R"(
extern "C" __global__ void mark(int* y) { y[bid() * bdim() + tid()] = 1; })";
  Arch arch = Arch::gfx942;
  Device dev(arch);
  auto co = load_hip(src, arch);
  uint64_t dy = dev.upload(std::vector<int>(64, 0), "y");
  cdnajit::sim::Options o;
  o.only_recorded_workgroups = true;
  REQUIRE_THROWS_WITH(dev.run(co, "mark", ArgPack().add(dy), dims1(1, 64), o),
                      Catch::Contains("only_recorded_workgroups needs a recording"));
}

TEST_CASE("a recording stops at its cap with an error naming the wave, not at the host's memory", "[sim][record]") {
  // A loop that never ends (the flag is never set). Without a cap the recording grew until
  // std::bad_alloc (1.6 GB after 5 s); the instruction budget is far above what the cap allows.
  const char* src = R"(
extern "C" __global__ void spin(volatile int* flag, int* y) {
  int n = 0;
  while (*flag == 0) ++n;
  y[tid()] = n;
})";
  Arch arch = Arch::gfx942;
  Device dev(arch);
  auto co = load_hip(src, arch);
  uint64_t dflag = dev.upload(std::vector<int>(1, 0), "flag");
  uint64_t dy = dev.upload(std::vector<int>(128, 0), "y");
  cdnajit::sim::Recording rec;
  rec.workgroups = {0};
  rec.max_bytes = 4 << 20;
  cdnajit::sim::Options o;
  o.recording = &rec;
  o.instruction_budget = 1ull << 40;
  REQUIRE_THROWS_WITH(dev.run(co, "spin", ArgPack().add(dflag).add(dy), dims1(1, 128), o),
                      Catch::Contains("the timing-model recording reached its cap (sim::Recording::max_bytes = "
                                      "4194304 bytes over 2 recorded waves) while recording workgroup 0 wave ") &&
                          Catch::Contains("a loop that does not end"));
  CHECK(rec.used.n.load() > rec.max_bytes);
  CHECK(rec.used.n.load() <= rec.max_bytes + 2 * cdnajit::sim::kRecordingChargeBytes);
  CHECK(cdnajit::sim::Recording{}.max_bytes == cdnajit::sim::kDefaultMaxRecordingBytes);
}
