// Every registered kernel family behind the same commands (tools/tune_families/registry.cpp):
// `cdnajit job` generates, runs and verifies the family's example problem on each arch the
// family supports and prints the modelled time; `cdnajit dump --family` prints an .s that
// assembles; `cdnajit list` shows the family; a bad configuration key or value, an unknown
// family or a configuration invalid for the arch is a usage error (status 2).
//
// CDNAJIT_TEST_FAMILY (set by the per-family ctest entries of tests/tools/CMakeLists.txt) limits
// the [job] and [dump] cases to one family, so each family's runs are one short test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "jit/asm/assemble.hpp"
#include "runtime/model/hardware.hpp"
#include "tests/cli_run.hpp"
#include "tools/tune_families/registry.hpp"

namespace {

using namespace cdnajit;
using cdnajit_test::cli;
using cdnajit_test::Run;

bool has(const Run& r, const std::string& s) { return r.out.find(s) != std::string::npos; }

std::vector<const tune::Family*> families_under_test() {
  const char* only = std::getenv("CDNAJIT_TEST_FAMILY");
  if (!only || !*only) return tune::all_families();
  return {&tune::find_family(only)};
}

// The archs on which the family's default configuration is valid for its example problem.
std::vector<Arch> supported_archs(const tune::Family& f) {
  std::vector<Arch> out;
  const std::string problem = f.canonical_problem(f.example_problem());
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    try {
      tune::resolve_config(f, {}, problem, a);
      out.push_back(a);
    } catch (const Error&) {
    }
  }
  return out;
}

}  // namespace

TEST_CASE("the per-family ctest entries cover every registered family", "[families]") {
  // CDNAJIT_FAMILIES (comma-separated): tools/tune_families/CMakeLists.txt's list (one NAME.cpp each), for each of
  // which tests/tools/CMakeLists.txt makes a [job]/[dump] entry.
  std::vector<std::string> in_cmake;
  std::string list = CDNAJIT_FAMILIES;
  for (size_t start = 0; start <= list.size();) {
    size_t semi = list.find(',', start);
    in_cmake.push_back(list.substr(start, semi == std::string::npos ? std::string::npos : semi - start));
    if (semi == std::string::npos) break;
    start = semi + 1;
  }
  std::vector<std::string> registered = tune::family_names();
  std::sort(in_cmake.begin(), in_cmake.end());
  std::sort(registered.begin(), registered.end());
  CHECK(in_cmake == registered);
}

TEST_CASE("every family: job verifies its example problem on each arch it supports", "[.][job]") {
  for (const tune::Family* f : families_under_test()) {
    const std::vector<Arch> archs = supported_archs(*f);
    INFO(f->name());
    CHECK(!archs.empty());
    for (Arch a : {Arch::gfx942, Arch::gfx950}) {
      const std::string arch(arch_name(a));
      if (std::find(archs.begin(), archs.end(), a) == archs.end()) {
        // Not supported: refused before any work, with the family's reason.
        Run r = cli("job " + f->name() + " --arch " + arch);
        INFO(r.out);
        CHECK(r.status == 2);
        CHECK(has(r, "is not valid for '"));
        continue;
      }
      const std::string product = model::default_product(a).name;
      Run r = cli("job " + f->name() + " --arch " + arch + " --model " + product);
      INFO(r.out);
      CHECK(r.status == 0);
      CHECK(has(r, "verification against the " + f->name() + " reference on sim:" + arch));
      CHECK(has(r, "): pass\n"));
      CHECK(has(r, "VGPR"));
      CHECK(has(r, "ms, modelled (model " + product + ")"));
    }
  }
}

TEST_CASE("every family: dump prints an .s that assembles", "[.][dump]") {
  for (const tune::Family* f : families_under_test())
    for (Arch a : supported_archs(*f)) {
      Run r = cli("dump --family " + f->name() + " --arch " + std::string(arch_name(a)));
      INFO(f->name() << " on " << arch_name(a) << "\n" << r.out.substr(0, 2000));
      REQUIRE(r.status == 0);
      CHECK(has(r, ".amdhsa_kernel"));
      AsmResult asm_result = assemble(r.out, a);
      INFO(format_diagnostics(asm_result.diagnostics));
      CHECK(asm_result.ok);
    }
}

TEST_CASE("family commands: list shows every family; bad names and configurations are usage errors", "[families]") {
  Run l = cli("list");
  CHECK(l.status == 0);
  for (const std::string& n : tune::family_names()) CHECK(has(l, n + ": "));
  CHECK(has(l, "  tile = {64x64, 128x64, 64x128, 128x128"));  // gemm's space
  CHECK(has(l, "problem: 'MxNxK [NT|NN|TN|TT] [bf16|f16|f32 output]"));
  CHECK(has(l, "\nvector_add\n"));  // the built-in kernels follow
  Run names = cli("list --kernels");
  CHECK(names.status == 0);
  CHECK(names.out.rfind("vector_add\n", 0) == 0);
  CHECK(!has(names, ":"));

  Run va = cli("job examples --problem 'vector_add n1000' --arch gfx942 --model none");
  INFO(va.out);
  CHECK(va.status == 0);
  CHECK(has(va, "verification against the examples reference on sim:gfx942"));
  CHECK(has(va, "): pass\n"));
  CHECK(!has(va, "modelled"));
  // A problem too large to simulate whole: modelled only (the model simulates the workgroups it records).
  Run big = cli("job gemm --problem '1024x1024x512 NT' --model-only");
  INFO(big.out);
  CHECK(big.status == 0);
  CHECK(has(big, "verification: skipped (--model-only)\n"));
  CHECK(has(big, "grid 8x8x1, block 256): "));
  CHECK(has(big, "ms, modelled (model mi350x)\n"));
  // `run --family` is the job's path: the family's kernel on its problem's inputs, verified; the
  // timing model only when asked for (as for a code object).
  Run rf = cli("run --family examples --problem 'vector_add n1000' --arch gfx942");
  INFO(rf.out);
  CHECK(rf.status == 0);
  CHECK(has(rf, "run --family on gfx942: family examples, problem 'vector_add n1000'"));
  CHECK(has(rf, "verification against the examples reference on sim:gfx942"));
  CHECK(has(rf, "): pass\n"));
  CHECK(!has(rf, "modelled"));
  Run rfm = cli("run --family examples --device sim:gfx950 --model mi355x");
  INFO(rfm.out);
  CHECK(rfm.status == 0);
  CHECK(has(rfm, "ms, modelled (model mi355x)\n"));
  // A kernel that cannot run correctly is a failed job (status 1), not a verified one.
  Run nowait = cli("job examples --waitcnt off --drop-author-waits --model none");
  INFO(nowait.out);
  CHECK(nowait.status == 1);
  CHECK(has(nowait, "s_waitcnt lgkmcnt(0) is needed before this instruction"));

  struct Bad {
    std::string args, message;
  };
  const Bad bad[] = {
      {"job gemm --config tile=7x7", "--config 'tile=7x7': tile = '7x7' is not a value of gemm (valid: 64x64, 128x64"},
      {"job gemm --config tlie=64x64", "--config 'tlie=64x64': gemm has no parameter 'tlie' (valid: tile, tile_k, waves"},
      {"job gemm --config tile", "--config 'tile' is not NAME=VALUE (parameters of gemm: tile, tile_k"},
      {"job gemm --config tile=64x64 --config tile=128x128", "parameter 'tile' given twice"},
      {"job gemm --problem 12x", "--problem: gemm problem '12x': expected 'MxNxK [NT|NN|TN|TT] [bf16|f16|f32 output]"},
      {"job gemm_mx --arch gfx942", "is not valid for '200x136x256 fp8 f32' on gfx942: gemm-mx: gfx942 has no block-scaled MFMA"},
      {"job gemm --model mi300x", "--model mi300x is a gfx942 product; the job runs --arch gfx950"},
      {"job nosuch", "unknown kernel family 'nosuch' (valid: dwconv3d, conv3d_igemm"},
      {"dump --family dwconv3d --config variant=fast", "variant = 'fast' is not a value of dwconv3d (valid: "},
      {"stats --family examples --config size=1", "examples has no parameter 'size' (valid: none)"},
      {"job examples --problem 'vector_add n0'", "N = 0 (valid: 1..67108864)"},
      {"build --family gemm --kernel vector_add -o x.co", "--kernel excludes --family"},
      {"dump --kernel vector_add --config variant=lds_dot2", "--config and --problem choose a family's kernel"},
      {"dump", "give --kernel NAME or --family NAME"},
      {"job gemm --model-only --model none", "--model-only needs the timing model"},
      {"run --family examples --kernel vector_add", "--kernel describes a code object's launch; with --family"},
      {"run --family examples x.co", "the code object file describes a code object's launch"},
      {"run --family examples --device sim:gfx942", "--device sim:gfx942 runs gfx942, but --arch is gfx950"},
      {"run --family examples --device hip:0 --model mi350x", "--model models the launch on the simulator"},
      {"run --family nosuch", "unknown kernel family 'nosuch' (valid: dwconv3d"},
      {"run x.co --grid 1 --block 64", "--kernel is required (or --family FAMILY"},
      {"run x.co --kernel k --grid 1 --block 64 --config tile=64x64", "--config needs --family"},
  };
  for (const Bad& b : bad) {
    Run r = cli(b.args);
    INFO(b.args << "\n" << r.out);
    CHECK(r.status == 2);
    CHECK(has(r, b.message));
  }
}
