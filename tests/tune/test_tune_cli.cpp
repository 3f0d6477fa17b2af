// `cdnajit tune` as a user runs it: --list, a replayed search with its log,
// the simulator with the timing model (a small problem, the pick stored as modelled),
// --check-only, database export/import/lookup, the default time budget, and bad options.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_run.hpp"
#include "tools/tune_command.hpp"

namespace {

using cdnajit_test::cli;
using cdnajit_test::Run;

std::string scratch(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("cdnajit_tune_cli_" + std::to_string(getpid()));
  std::filesystem::create_directories(d);
  std::filesystem::remove(d / name);
  return (d / name).string();
}

bool has(const Run& r, const std::string& s) { return r.out.find(s) != std::string::npos; }

}  // namespace

TEST_CASE("cdnajit tune: list, replay, errors", "[tune][cli]") {
  Run l = cli("tune --list");
  CHECK(l.status == 0);
  CHECK(has(l, "variant = {lds_fmac, lds_dot2, row_interleaved,"));
  CHECK(has(l, "two-level (default)"));
  CHECK(has(l, "conv3d_igemm: MFMA implicit-GEMM conv3d"));
  CHECK(has(l, "split_k = {1, 2, 4}"));
  CHECK(has(l, "conv_bwd_weight: wave-specialised"));
  CHECK(has(l, "variant = {baseline, wavelet_4_4, wavelet_4_2}"));
  CHECK(has(cli("tune --family conv3d_igemm --problem 'bf16 N1 C8' --no-db"), "expected '[bf16|fp8] seed'"));

  Run r = cli("tune --replay seed-4-kernels --seed 3 --strategy original");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(has(r, "times are drawn from a noise model, not measured; nothing is stored"));
  CHECK(has(r, "[4/4] #3"));
  CHECK(has(r, "no warm-up"));
  CHECK(has(r, "picked #"));

  std::string db = scratch("cli.db");
  // A small problem on the simulator with the timing model: the pick is stored, labelled modelled.
  Run sim = cli("tune --family dwconv3d --problem \"N1 C4 D5 H8 W16 k3x5x5 pad0,2,2\" --model mi350x --db " + db);
  INFO(sim.out);
  CHECK(sim.status == 0);
  CHECK(has(sim, "modelled"));
  Run none = cli("tune --family dwconv3d --lookup --db " + db);
  CHECK(none.status == 3);
  CHECK(has(none, "no stored configuration for gfx950 256CU dwconv3d [N1 C512 D61 H45 W80 k3x5x5 pad0,2,2]"));

  Run hip = cli("tune --family dwconv3d --device hip:0 --no-db");
  CHECK(hip.status == 1);
  CHECK(has(hip, "hip:0"));
  CHECK(cli("tune --family dwconv3d --strategy fast").status == 2);
  CHECK(has(cli("tune --family dwconv3d --strategy fast"), "valid: original, warm1x1.1, min2x1.2, two-level, short-kernel"));
  CHECK(has(cli("tune --family frob --no-db"), "unknown kernel family 'frob' (valid: dwconv3d, conv3d_igemm, conv_bwd_weight, gemm)"));
  CHECK(has(cli("tune --family dwconv3d --problem huge --no-db"), "expected 'seed' or"));
  CHECK(cli("tune --samples 1 --family dwconv3d").status == 2);
}

TEST_CASE("cdnajit tune: check-only and database import/export/lookup", "[tune][cli]") {
  Run c = cli("tune --family dwconv3d --check-only --device sim:gfx942 --problem \"N1 C4 D5 H8 W16 k3x5x5 pad0,2,2\"");
  INFO(c.out);
  CHECK(c.status == 0);
  CHECK(has(c, "invalid: variant=lds_dot2: lds_dot2 is not available on gfx942"));
  CHECK(has(c, "check-only: "));
  CHECK(has(c, " passed, 0 failed, "));

  std::string db = scratch("io.db"), in = scratch("in.json"), out = scratch("out.json");
  {
    std::ofstream f(in);
    f << R"J({"format": "cdnajit-perfdb", "version": 1, "records": [{
      "arch": "gfx950", "cus": 256, "family": "dwconv3d", "problem": "N1 C512 D61 H45 W80 k3x5x5 pad0,2,2",
      "toolchain": "other toolchain", "project_version": "other version", "source": "gpu-measured",
      "source_label": "hip:0 hipEvents (gpu-measured)", "config": "variant=lds_dot2", "time_ms": 0.537,
      "samples": [0.537], "strategy": "two-level", "candidates": 3, "created_utc": "2026-01-01T00:00:00Z"}]})J";
  }
  Run i = cli("tune --import " + in + " --db " + db);
  INFO(i.out);
  CHECK(i.status == 0);
  CHECK(has(i, "1 added, 0 replaced, 0 kept"));
  // Keyed by toolchain and version: this build does not see a record made by another.
  CHECK(cli("tune --family dwconv3d --lookup --db " + db).status == 3);
  Run e = cli("tune --export " + out + " --db " + db);
  CHECK(e.status == 0);
  CHECK(has(e, "exported 1 records"));
  std::ifstream f(out);
  std::string text((std::istreambuf_iterator<char>(f)), {});
  CHECK(text.find("\"config\": \"variant=lds_dot2\"") != std::string::npos);
  Run bad = cli("tune --import " + db + " --db " + scratch("other.db"));
  CHECK(bad.status == 1);
  CHECK(has(bad, "not valid JSON"));
}

TEST_CASE("cdnajit tune: a default time budget, stated in --help and in the output", "[tune][cli]") {
  const std::string secs = std::to_string(int(cdnajit::kDefaultTuneBudgetS));
  REQUIRE(double(std::stoi(secs)) == cdnajit::kDefaultTuneBudgetS);  // a whole number of seconds, as printed
  Run help = cli("tune --help");
  INFO(help.out);
  CHECK(help.status == 0);
  CHECK(has(help, "(default " + secs + "; 0 = none: search every configuration)"));

  const std::string small = "tune --family dwconv3d --problem \"N1 C4 D5 H8 W16 k3x5x5 pad0,2,2\" --no-db --quiet";
  // No --budget: the default reaches the search (the tuner's line states the budget it was given).
  Run d = cli(small);
  INFO(d.out);
  CHECK(d.status == 0);
  CHECK(has(d, "time budget: " + secs + " s by default (--budget SECONDS changes it, --budget 0 searches every"));
  CHECK(has(d, "; time budget " + secs + " s from the start of the tune"));
  CHECK(has(d, "ended: all candidates\n"));
  // --budget 0: none, and no default stated.
  Run none = cli(small + " --budget 0");
  INFO(none.out);
  CHECK(none.status == 0);
  CHECK(has(none, "; no time budget"));
  CHECK_FALSE(has(none, "by default"));
  // An explicit budget replaces the default.
  Run given = cli(small + " --budget 3600");
  CHECK(has(given, "; time budget 3600 s from the start of the tune"));
  CHECK_FALSE(has(given, "by default"));
  // --check-only times nothing: no budget line.
  CHECK_FALSE(has(cli("tune --family dwconv3d --check-only --problem \"N1 C4 D5 H8 W16 k3x5x5 pad0,2,2\""), "time budget"));
}
