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
  Run no_model = cli(run + " --flops 262144");
  CHECK(no_model.status == 2);
  CHECK_THAT(no_model.out, Catch::Contains("--flops") && Catch::Contains("needs --model"));
  Run bad = cli(run + " --model mi355x --flops -3");
  CHECK(bad.status == 2);
  std::filesystem::remove_all(dir);
}
