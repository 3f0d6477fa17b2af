// `cdnajit calibrate` against cdnajit's drop-in HIP runtime: the runtime's event times come from
// the timing model of a product file whose parameters were perturbed; calibrating from the
// unperturbed product must recover the perturbed values.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "runtime/model/product_file.hpp"
#include "tests/cli_run.hpp"

using namespace cdnajit;
using Catch::Contains;

namespace {

// The cdnajit command with environment settings (`env`: "NAME=VALUE ..."), like cdnajit_test::cli.
cdnajit_test::Run cli_with(const std::string& env, const std::string& args) {
  const std::string cmd = env + " " + CDNAJIT_CLI + " " + args + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  REQUIRE(f);
  cdnajit_test::Run r{-1, ""};
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) r.out.append(buf, n);
  const int st = pclose(f);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string drop_in_env(const std::string& model) {
  return std::string("CDNAJIT_HIP_LIBRARY=") + CDNAJIT_DROP_IN +
         " CDNAJIT_HIP_DEVICE=sim:gfx942 CDNAJIT_HIP_MODEL_ONLY=1 CDNAJIT_HIP_HOST_WORK=0 CDNAJIT_HIP_MODEL=" + model;
}

}  // namespace

TEST_CASE("calibrate recovers perturbed model parameters through the drop-in HIP runtime", "[model][calibrate]") {
  auto dir = std::filesystem::temp_directory_path() / ("cdnajit_calibrate_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const model::Hardware& base = model::product("mi300x");
  model::Hardware p = base;
  p.name = "mi300x-perturbed";
  p.hbm_achievable_share = base.hbm_achievable_share * 0.8;
  p.clock_ghz = base.clock_ghz * 0.9;
  p.mfma_dense_clock_ghz = base.mfma_dense_clock_ghz * 0.9;
  p.lds_latency = base.lds_latency + 12;
  p.lds_bytes_per_clk = base.lds_bytes_per_clk / 2;
  const std::string perturbed = (dir / "perturbed.json").string(), out = (dir / "cal.json").string();
  model::save_product_file(perturbed, p);

  cdnajit_test::Run r = cli_with(drop_in_env(perturbed), "calibrate --device hip:0 --out " + out +
                                                             " --base mi300x --small --repeat 1");
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("its event times are modelled (model mi300x-perturbed)"));

  const model::ProductDescription d = model::load_product_file(out);
  REQUIRE(d.calibrated);
  CHECK(d.calibrated->base == "mi300x");
  CHECK_THAT(d.calibrated->time_source, Contains("modelled (model mi300x-perturbed)"));
  CHECK(d.calibrated->kernels.size() == 5);
  CHECK(d.hw.name == "mi300x-calibrated");
  // Tolerances: 1% for the clocks and the HBM share (the model's cycles move slightly with the
  // clock through the per-cycle bandwidth shares); the LDS bandwidth exactly; the LDS latency within
  // one issue turn (4 cycles): a waiting wave issues again only at its SIMD's next turn, so the
  // chain's time per access moves in whole turns and latencies within a turn give the same time.
  CHECK(d.hw.clock_ghz == Approx(p.clock_ghz).epsilon(0.01));
  CHECK(d.hw.mfma_dense_clock_ghz == Approx(p.mfma_dense_clock_ghz).epsilon(0.01));
  CHECK(d.hw.hbm_achievable_share == Approx(p.hbm_achievable_share).epsilon(0.01));
  CHECK(d.hw.lds_bytes_per_clk == p.lds_bytes_per_clk);
  CHECK(std::abs(d.hw.lds_latency - p.lds_latency) < base.issue_period);
  // Every field the calibration does not measure is the base's.
  model::Hardware expect = d.hw;
  expect.name = base.name;
  expect.product = base.product;
  expect.hbm_achievable_share = base.hbm_achievable_share;
  expect.clock_ghz = base.clock_ghz;
  expect.mfma_dense_clock_ghz = base.mfma_dense_clock_ghz;
  expect.lds_latency = base.lds_latency;
  expect.lds_bytes_per_clk = base.lds_bytes_per_clk;
  CHECK(model::product_to_json(expect) == model::product_to_json(base));

  std::ifstream md(dir / "cal.md");
  std::stringstream text;
  text << md.rdbuf();
  CHECK_THAT(text.str(), Contains("themselves modelled, not measured") && Contains("| hbm_achievable_share |") &&
                             Contains("modelled after (model mi300x-calibrated)"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("calibrate refuses a simulator device and a bad --out before any work", "[model][calibrate]") {
  cdnajit_test::Run r = cdnajit_test::cli("calibrate --device sim:gfx942 --out x.json");
  CHECK(r.status == 2);
  CHECK_THAT(r.out, Contains("calibrate measures a HIP device"));
  r = cdnajit_test::cli("calibrate --device hip:0 --out x.txt");
  CHECK(r.status == 2);
  CHECK_THAT(r.out, Contains("FILE.json"));
  r = cdnajit_test::cli("calibrate --device hip:0 --out x.json --base mi250");
  CHECK(r.status == 2);
  CHECK_THAT(r.out, Contains("unknown product 'mi250'"));
  r = cdnajit_test::cli("calibrate --device hip:0 --out x.json --name mi300x");
  CHECK(r.status == 2);
  CHECK_THAT(r.out, Contains("--name 'mi300x': 'mi300x' is a built-in product"));
  // A malformed product file given to the drop-in HIP runtime: no device, and the reason names the key.
  auto dir = std::filesystem::temp_directory_path() / ("cdnajit_calibrate_bad_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string text = model::product_to_json(model::product("mi300x"));
  const std::string key = "\"hbm_latency\"";
  text.replace(text.find(key), key.size(), "\"hbm_latencyy\"");
  const std::string bad = (dir / "bad.json").string();
  std::ofstream(bad) << text;
  r = cli_with(drop_in_env(bad), "calibrate --device hip:0 --out " + (dir / "x.json").string() + " --small");
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Contains("CDNAJIT_HIP_MODEL='" + bad + "'") && Contains("unknown key 'hbm_latencyy'"));
  std::filesystem::remove_all(dir);
}
