// The cdnajit command as a user runs it: list, dump, build, run on the simulator,
// fuzz, and clear errors with a non-zero exit status for bad input.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Run {
  int status;
  std::string out;
};

// Runs the cdnajit binary with `args` (stdout and stderr together).
Run cli(const std::string& args) {
  std::string cmd = std::string(CDNAJIT_CLI) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

std::filesystem::path scratch() {
  auto d = std::filesystem::temp_directory_path() / ("cdnajit_cli_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("cdnajit list and dump", "[cli]") {
  Run l = cli("list");
  CHECK(l.status == 0);
  CHECK_THAT(l.out, Catch::Contains("vector_add") && Catch::Contains("dwconv3d_seed.lds_dot2"));
  Run d = cli("dump --kernel bf16_dot --arch gfx942");
  CHECK(d.status == 0);
  CHECK_THAT(d.out, Catch::Contains(".amdhsa_kernel bf16_dot") && Catch::Contains("v_fmac_f32"));
}

TEST_CASE("cdnajit build then run on the simulator writes correct output", "[cli][sim]") {
  auto dir = scratch();
  std::string co = (dir / "va.co").string(), out = (dir / "out.bin").string();
  Run b = cli("build --kernel vector_add --arch gfx950 -o " + co);
  REQUIRE(b.status == 0);
  // iota inputs: the float with bit pattern i, plus itself: denormals add exactly, giving bit pattern 2i.
  Run r = cli("run " + co + " --kernel vector_add --device sim:gfx950 --grid 4 --block 256 "
              "--arg buf:a:4096:iota --arg buf:b:4096:iota --arg buf:out:4096 --arg u32:1000 --out out=" + out);
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("VALU"));
  std::ifstream f(out, std::ios::binary);
  std::vector<uint32_t> v(1024);
  f.read(reinterpret_cast<char*>(v.data()), 4096);
  REQUIRE(f.gcount() == 4096);
  int bad = 0;
  for (uint32_t i = 0; i < 1024; ++i) bad += v[i] != (i < 1000 ? 2 * i : 0u);
  CHECK(bad == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit errors name what is wrong and exit non-zero", "[cli][errors]") {
  Run a = cli("dump --kernel vector_add --arch gfx908");
  CHECK(a.status == 1);
  CHECK_THAT(a.out, Catch::Contains("gfx908") && Catch::Contains("valid: gfx942, gfx950"));
  Run k = cli("dump --kernel no_such_kernel --arch gfx942");
  CHECK(k.status == 1);
  CHECK_THAT(k.out, Catch::Contains("no_such_kernel") && Catch::Contains("vector_add"));
  Run v = cli("seed --arch gfx942 --variant lds_dot2 --channels 1");
  CHECK(v.status == 1);
  CHECK_THAT(v.out, Catch::Contains("only on gfx950"));
  Run m = cli("run /nonexistent.co --kernel x");
  CHECK(m.status == 1);
  CHECK_THAT(m.out, Catch::Contains("/nonexistent.co"));
}

TEST_CASE("cdnajit fuzz survives every mutation", "[cli][fuzz]") {
  // The iteration count ends the run; the time limit is set far beyond it so the result never
  // depends on how fast this machine is.
  Run f = cli("fuzz --iterations 300 --seconds 86400");
  INFO(f.out);
  CHECK(f.status == 0);
  CHECK_THAT(f.out, Catch::Contains("fuzzed 300 mutations"));  // a crash or a non-Error exception would have ended the process with a failure status
}
