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
