// `cdnajit run --model` and `--trace` as a user runs them: the report is labelled
// modelled, the trace is valid Chrome-trace JSON with one track per wave slot,
// and wrong use fails with a clear message.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "runtime/hip_source.hpp"
#include "runtime/model/hardware.hpp"
#include "tests/cli_run.hpp"

namespace {

using cdnajit_test::cli;
using cdnajit_test::Run;

}  // namespace

TEST_CASE("cdnajit run --model prints a modelled report and writes a trace", "[model][cli]") {
  auto dir = std::filesystem::temp_directory_path() / ("cdnajit_model_cli_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string co = (dir / "va.co").string(), trace = (dir / "t.json").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx942 -o " + co).status == 0);
  const std::string run = "run " + co + " --kernel vector_add --grid 1024 --block 256 --arg buf:a:1048576:iota "
                          "--arg buf:b:1048576:iota --arg buf:out:1048576 --arg u32:262144";
  Run r = cli(run + " --model mi300x --trace " + trace);
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("modelled (model mi300x): vector_add") && Catch::Contains("limiter:") &&
                        Catch::Contains("busy:") && Catch::Contains("top stalls"));
  std::ifstream f(trace);
  nlohmann::json j = nlohmann::json::parse(f);
  int issues = 0, tracks = 0;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") ++tracks;
    if (e["ph"] == "X" && e["cat"] == "issue") ++issues;
  }
  CHECK(tracks >= 4);   // 4 waves per workgroup, several workgroups per CU
  CHECK(issues > 19);   // at least one wave's instructions
  Run wrong = cli(run + " --model mi355x");
  CHECK(wrong.status != 0);
  CHECK_THAT(wrong.out, Catch::Contains("mi355x is gfx950") && Catch::Contains("gfx942"));
  Run unknown = cli(run + " --model h100");
  CHECK(unknown.status != 0);
  CHECK_THAT(unknown.out, Catch::Contains("mi300x, mi325x, mi350x, mi355x"));
  Run notrace = cli(run + " --trace " + trace);
  CHECK(notrace.status != 0);
  CHECK_THAT(notrace.out, Catch::Contains("--trace needs --model"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit run --model gives a HIP kernel's clock64() and wall_clock64() modelled values", "[model][cli][clocks]") {
  auto dir = std::filesystem::temp_directory_path() / ("cdnajit_model_clk_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string co = (dir / "clk.co").string(), out = (dir / "out.bin").string();
  // 64 dependent FMAs between two clock64() reads: at least 64 x 4 modelled cycles.
  const char* src = R"(
extern "C" __global__ void clk(unsigned long long* out) {
  long long t0 = clock64();
  float v = threadIdx.x + float(t0 & 1);  // the work starts after the first read...
  for (int j = 0; j < 64; ++j) v = v * 1.0001f + 0.5f;
  __asm__ volatile("" ::"v"(v));         // ...and ends before the second
  long long t1 = clock64();
  if (threadIdx.x == 0) { out[0] = t0; out[1] = t1; out[2] = wall_clock64(); }
  if (v == 12345.0f) out[3] = 1;
})";
  const std::vector<uint8_t> bytes = cdnajit::compile_hip_with(cdnajit::HipSourceBackend::Kind::clang, src, cdnajit::Arch::gfx942);
  std::ofstream(co, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  const std::string run = "run " + co + " --kernel clk --grid 1 --block 64 --arg buf:out:32 --out out=" + out;
  Run r = cli(run + " --model mi300x");
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("modelled (model mi300x): in-kernel clocks: 3 reads in 1 workgroups") &&
                        // v derives from t0 and `if (v == ...)` writes it into EXEC: both runs are recorded.
                        Catch::Contains("2 simulator runs (2 recorded) to a fixed point"));
  uint64_t t[4] = {};
  std::ifstream(out, std::ios::binary).read(reinterpret_cast<char*>(t), sizeof t);
  CHECK(t[1] >= t[0] + 64 * 4);
  // s_memrealtime, read after the second clock64(): the product's 100 MHz counter at the modelled clock.
  const cdnajit::model::Hardware& hw = cdnajit::model::product("mi300x");
  const double ticks_per_cycle = hw.realtime_counter_mhz * 1e-3 / hw.clock_ghz;
  CHECK(t[2] >= uint64_t(double(t[1]) * ticks_per_cycle));
  CHECK(t[2] <= uint64_t(double(t[1] + 400) * ticks_per_cycle));
  Run usage = cli(run + " --clock-runs 3");
  CHECK(usage.status == 2);
  CHECK_THAT(usage.out, Catch::Contains("--clock-runs, --clock-workgroups and --clock-predict need --model"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit run --model --flops prints modelled TFLOP/s and the clock; --flops alone is a usage error",
          "[model][cli]") {
  auto dir = std::filesystem::temp_directory_path() / ("cdnajit_model_flops_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string co = (dir / "va.co").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co).status == 0);
  const std::string run = "run " + co + " --kernel vector_add --grid 1024 --block 256 --arg buf:a:1048576:iota "
                          "--arg buf:b:1048576:iota --arg buf:out:1048576 --arg u32:262144";
  Run r = cli(run + " --model mi355x --flops 262144");
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("TFLOP/s") && Catch::Contains("modelled clock of") &&
                        Catch::Contains("memory: HBM"));
  // 1024 workgroups, all in the first round on mi355x's 256 CUs x 4+ slots: the memory hierarchy sees them all.
  CHECK_THAT(r.out, Catch::Contains("caches fed by 1024 workgroups (the first round's line trace)"));
  Run no_model = cli(run + " --flops 262144");
  CHECK(no_model.status == 2);
  CHECK_THAT(no_model.out, Catch::Contains("--flops") && Catch::Contains("needs --model"));
  Run bad = cli(run + " --model mi355x --flops -3");
  CHECK(bad.status == 2);
  std::filesystem::remove_all(dir);
}
