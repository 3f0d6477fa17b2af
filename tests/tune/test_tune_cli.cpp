// `cdnajit tune` as a user runs it: --list, a replayed search with its log,
// the simulator with the timing model (a small problem, the pick stored as modelled),
// --check-only, database export/import/lookup, the default time budget, and bad options.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>
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
  CHECK(has(cli("tune --family frob --no-db"), "unknown kernel family 'frob' (valid: dwconv3d, conv3d_igemm, conv_bwd_weight, gemm, gemm_mx, examples)"));
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
    f << R"J({"format": "cdnajit-perfdb", "version": 2, "records": [{
      "arch": "gfx950", "cus": 256, "product": "hip:0", "build_id": "other build", "family": "dwconv3d", "problem": "N1 C512 D61 H45 W80 k3x5x5 pad0,2,2",
      "toolchain": "other toolchain", "project_version": "other version", "source": "gpu-measured",
      "source_label": "hip:0 hipEvents (gpu-measured)", "config": "variant=lds_dot2", "time_ms": 0.537,
      "samples": [0.537], "strategy": "two-level", "candidates": 3, "created_utc": "2026-01-01T00:00:00Z"}]})J";
  }
  Run i = cli("tune --import " + in + " --db " + db);
  INFO(i.out);
  CHECK(i.status == 0);
  CHECK(has(i, "1 added, 0 replaced, 0 kept"));
  // Keyed by toolchain, version and build id: this build does not see a record made by another.
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

TEST_CASE("cdnajit tune: numbers in a problem are checked as typed, never wrapped", "[tune][cli]") {
  // sscanf's %d wrapped W4294967304 to W8 (tuned and stored as W8) and W1000000000000 to a
  // negative number. Each is now a command-line error naming the field and the range.
  auto bad = [](const std::string& family, const std::string& problem, const std::vector<std::string>& words) {
    Run r = cli("tune --family " + family + " --problem \"" + problem + "\" --no-db --check-only");
    INFO(problem << "\n" << r.out);
    CHECK(r.status == 2);
    for (const std::string& w : words) CHECK(has(r, w));
    CHECK_FALSE(has(r, "valid configurations"));  // nothing was built
  };
  bad("dwconv3d", "N1 C4 D5 H8 W4294967304 k3x5x5 pad0,2,2", {"W: '4294967304' is out of range", "0..1073741824"});
  bad("dwconv3d", "N1 C4 D5 H8 W1000000000000 k3x5x5 pad0,2,2", {"W: '1000000000000' is out of range"});
  bad("dwconv3d", "N1 C4294967300 D5 H8 W16 k3x5x5 pad0,2,2", {"C: '4294967300' is out of range"});
  bad("dwconv3d", "N1 C4 D5 H8 W16 k3x5x5 pad0,2,-2", {"padW: '-2' is out of range"});
  bad("conv3d_igemm", "bf16 N1 C128 D6 H40 W40 K128 k3x3x3 s4294967297,1,1 p1,1,1 d1,1,1",
      {"stride_d: '4294967297' is out of range", "0..1024"});
  bad("conv3d_igemm", "seed:4294967336", {"seed:H: '4294967336' is out of range", "1..4096"});
  bad("conv_bwd_weight", "N1 G4294967297 C256 K256 13x13 f3x3 s1x1 p1x1 d1x1", {"G: '4294967297' is out of range"});
  // The form is still checked first.
  bad("dwconv3d", "N1 C4 D5 H8 W16 k3x5 pad0,2,2", {"expected 'seed' or"});
}

TEST_CASE("cdnajit tune --import refuses records this build cannot use", "[tune][cli]") {
  std::string db = scratch("import_checks.db"), in = scratch("import_checks.json");
  auto import = [&](const std::string& field, const std::string& value) {
    std::map<std::string, std::string> f = {
        {"arch", "\"gfx950\""}, {"cus", "256"}, {"family", "\"dwconv3d\""},
        {"problem", "\"N1 C512 D61 H45 W80 k3x5x5 pad0,2,2\""}, {"config", "\"variant=lds_dot2\""},
        {"time_ms", "0.5"}, {"candidates", "3"}};
    f[field] = value;
    std::ofstream(in) << "{\"format\": \"cdnajit-perfdb\", \"version\": 2, \"records\": [{\"arch\": " << f["arch"]
                      << ", \"cus\": " << f["cus"] << ", \"product\": \"hip:0\", \"build_id\": \"b\", \"family\": " << f["family"] << ", \"problem\": " << f["problem"]
                      << ", \"toolchain\": \"t\", \"project_version\": \"v\", \"source\": \"gpu-measured\", "
                         "\"source_label\": \"hip:0\", \"config\": "
                      << f["config"] << ", \"time_ms\": " << f["time_ms"] << ", \"samples\": [0.5], \"strategy\": "
                      << "\"two-level\", \"candidates\": " << f["candidates"] << ", \"created_utc\": \"\"}]}";
    return cli("tune --import " + in + " --db " + db);
  };
  Run ok = import("cus", "256");
  INFO(ok.out);
  REQUIRE(ok.status == 0);
  CHECK(has(ok, "1 added"));
  auto refused = [&](const std::string& field, const std::string& value, const std::vector<std::string>& words) {
    Run r = import(field, value);
    INFO(field << " = " << value << "\n" << r.out);
    CHECK(r.status == 1);
    for (const std::string& w : words) CHECK(has(r, w));
    CHECK_FALSE(has(r, "added"));
  };
  refused("config", "\"variant=nonexistent\"", {"variant = 'nonexistent'", "valid: lds_fmac, lds_dot2"});
  refused("family", "\"frob\"", {"unknown kernel family 'frob'", "dwconv3d, conv3d_igemm, conv_bwd_weight, gemm"});
  refused("arch", "\"gfx90a\"", {"unknown arch 'gfx90a'", "gfx942, gfx950"});
  refused("problem", "\"N1 C0 D61 H45 W80 k3x5x5 pad0,2,2\"", {"C0"});
  refused("problem", "\"N1  C512 D61 H45 W80 k3x5x5 pad0,2,2\"", {"expected 'seed' or"});
  refused("cus", "1e30", {"field 'cus' is 1e+30, not an integer", "1..100000"});
  refused("cus", "2147483648", {"field 'cus' is 2147483648, out of range"});
  refused("cus", "0", {"field 'cus' is 0, out of range"});
  refused("candidates", "-1", {"field 'candidates' is -1"});
  refused("time_ms", "-0.5", {"field 'time_ms' is -0.5"});
  // On gfx942 the family's rule refuses lds_dot2.
  Run rule = [&] {
    std::ofstream(in) << "{\"format\": \"cdnajit-perfdb\", \"version\": 2, \"records\": [{\"arch\": \"gfx942\", "
                         "\"cus\": 304, \"product\": \"hip:0\", \"build_id\": \"b\", \"family\": \"dwconv3d\", \"problem\": \"N1 C512 D61 H45 W80 k3x5x5 pad0,2,2\", "
                         "\"toolchain\": \"t\", \"project_version\": \"v\", \"source\": \"gpu-measured\", "
                         "\"source_label\": \"hip:0\", \"config\": \"variant=lds_dot2\", \"time_ms\": 0.5, "
                         "\"samples\": [0.5], \"strategy\": \"two-level\", \"candidates\": 3, \"created_utc\": \"\"}]}";
    return cli("tune --import " + in + " --db " + db);
  }();
  INFO(rule.out);
  CHECK(rule.status == 1);
  CHECK(has(rule, "lds_dot2 is not available on gfx942"));
  Run e = cli("tune --export - --db " + db);
  CHECK(has(e, "\"cus\": 256"));
  CHECK_FALSE(has(e, "nonexistent"));
  CHECK_FALSE(has(e, "-2147483648"));
}

TEST_CASE("cdnajit tune: database paths and the model are checked before any work", "[tune][cli]") {
  const std::string missing_dir = "/nonexistent_cdnajit_dir_" + std::to_string(getpid());
  Run l = cli("tune --family dwconv3d --lookup --db " + missing_dir + "/p.db");
  INFO(l.out);
  CHECK(l.status == 2);
  CHECK(has(l, "is in a directory that does not exist"));
  CHECK_FALSE(std::filesystem::exists(missing_dir));  // main created it
  Run empty = cli("tune --family dwconv3d --lookup --db \"\"");
  INFO(empty.out);
  CHECK(empty.status == 2);
  CHECK(has(empty, "--db: empty path"));
  // A lookup in a database that does not exist creates nothing.
  std::string absent = scratch("absent.db");
  Run a = cli("tune --family dwconv3d --lookup --db " + absent);
  INFO(a.out);
  CHECK(a.status == 3);
  CHECK(has(a, "there is no database at"));
  CHECK_FALSE(std::filesystem::exists(absent));
  // Without --problem each family is looked up on its own default problem from the registry
  // (gemm has no 'seed'): the conv families' seed layer, the others' example problem.
  Run gemm = cli("tune --family gemm --lookup --db " + absent);
  INFO(gemm.out);
  CHECK(gemm.status == 3);
  CHECK(has(gemm, "gemm [200x136x128 NT bf16]"));
  Run dw = cli("tune --family dwconv3d --lookup --db " + absent);
  CHECK(has(dw, "dwconv3d [N1 C512 D61 H45 W80 k3x5x5 pad0,2,2]"));
  Run m = cli("tune --family dwconv3d --model mi250 --no-db");
  CHECK(m.status == 2);
  CHECK(has(m, "unknown product 'mi250'"));
  Run arch = cli("tune --family dwconv3d --device sim:gfx942 --model mi355x --no-db");
  INFO(arch.out);
  CHECK(arch.status == 2);
  CHECK(has(arch, "--model mi355x is a gfx950 product, but --device sim:gfx942 runs gfx942"));
  Run fam = cli("tune --family frob --no-db");
  CHECK(fam.status == 2);
  Run nofam = cli("tune --no-db");
  CHECK(nofam.status == 2);
  CHECK(has(nofam, "tune needs --family NAME (valid: dwconv3d, conv3d_igemm, conv_bwd_weight, gemm, gemm_mx, examples)"));
  // --import reads a regular file of bounded size (a FIFO would block, a directory read as empty).
  Run dir = cli("tune --import " + std::filesystem::temp_directory_path().string() + " --db " + scratch("dir.db"));
  INFO(dir.out);
  CHECK(dir.status == 2);
  CHECK(has(dir, "--import: '"));
  CHECK(has(dir, "is not a regular file (a directory)"));
  // --export onto the database itself would overwrite it with JSON.
  std::string db = scratch("self.db");
  Run self = cli("tune --export " + db + " --db " + db);
  INFO(self.out);
  CHECK(self.status == 2);
  CHECK(has(self, "--export"));
  CHECK(has(self, "is the same file as the database"));
}
