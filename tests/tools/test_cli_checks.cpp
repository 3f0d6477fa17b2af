// The cdnajit command line refuses before any work what it cannot do right: option values
// (products, paths, kernel names, numbers as typed), output files that are the same file as
// another output or the input, and kernels that call functions, which the simulator does not
// model (kernels that reach global variables run from the code object's mapped image).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli_run.hpp"
#include "tests/sim/ext_harness.hpp"
#include "tests/sim/hip_compile.hpp"

namespace {

using cdnajit_test::cli;
using cdnajit_test::Run;

std::filesystem::path scratch() {
  auto d = std::filesystem::temp_directory_path() / ("cdnajit_cli_checks_" + std::to_string(getpid()));
  std::filesystem::create_directories(d);
  return d;
}

bool has(const Run& r, const std::string& s) { return r.out.find(s) != std::string::npos; }

// A bad command line: status 2, every word in the message, and nothing ran ("ran " is run's
// first line after a launch; "PASS"/"modelling" the jobs').
void expect_usage_error(const std::string& args, const std::vector<std::string>& words) {
  Run r = cli(args);
  INFO(args << "\n" << r.out);
  CHECK(r.status == 2);
  for (const std::string& w : words) CHECK(has(r, w));
  CHECK_FALSE(has(r, "ran "));
  CHECK_FALSE(has(r, "PASS"));
}

std::string write_code_object(const std::filesystem::path& dir, const std::string& name, const std::string& src) {
  std::vector<uint8_t> co = simtest::compile_hip(src, cdnajit::Arch::gfx942);
  std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(co.data()), std::streamsize(co.size()));
  return path;
}

}  // namespace

TEST_CASE("cdnajit: option values are checked before any work, status 2", "[cli][args]") {
  auto dir = scratch();
  std::string co = (dir / "va.co").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co).status == 0);
  const std::string run = "run " + co + " --kernel vector_add --device sim:gfx950 --grid 1 --block 64 "
                          "--arg buf:a:256 --arg buf:b:256 --arg buf:out:256 --arg u32:64 ";
  // Each of these ran the kernel (or the whole job) before failing with status 1.
  expect_usage_error(run + "--model mi250", {"unknown product 'mi250'", "mi300x", "mi355x"});
  expect_usage_error(run + "--model mi355x --trace /proc/version", {"--trace", "/proc/version"});
  expect_usage_error(run + "--trace " + (dir / "t.json").string(), {"--trace needs --model"});
  expect_usage_error("fuzz --kernel nope --iterations 1", {"unknown kernel 'nope'", "vector_add"});
  expect_usage_error("seed --arch gfx942 --model mi355x --channels 1", {"--model mi355x is a gfx950 product", "gfx942"});
  expect_usage_error("seed --arch gfx950 --model bogus --channels 1", {"unknown product 'bogus'"});
  expect_usage_error("seed --variant fastest --model none --channels 1", {"--variant fastest", "timing model"});
  expect_usage_error("seed --variant slowest --channels 1", {"unknown depthwise conv3d variant 'slowest'", "mfma_band"});
  // selftest compares a HIP device with the simulator: the simulator is no device under test, and
  // fewer than 20 timings are no median of 20.
  expect_usage_error("selftest --device sim:gfx942", {"--device", "is the simulator"});
  expect_usage_error("selftest --device hip:0 --timings 5", {"--timings", "20"});
  expect_usage_error("selftest --device hip:0 --family conv9d", {"--family", "conv9d"});
  expect_usage_error("selftest --device hip:0 --model mi999x", {"unknown product 'mi999x'"});
  expect_usage_error("conv3d --model bogus --model-only", {"unknown product 'bogus'"});
  expect_usage_error("conv3d --arch gfx942 --model mi355x --model-only", {"model mi355x is a gfx950 product"});
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit run: output files are compared by identity, not by spelling", "[cli][files]") {
  auto dir = scratch();
  std::string co = (dir / "va.co").string(), f = (dir / "f.bin").string(), link = (dir / "link.bin").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co).status == 0);
  const std::string run = "run " + co + " --kernel vector_add --device sim:gfx950 --grid 1 --block 64 "
                          "--arg buf:a:256 --arg buf:b:256 --arg buf:out:256 --arg u32:64 ";
  const std::string dotted = (dir / "." / "f.bin").string();
  expect_usage_error(run + "--out a=" + f + " --out b=" + dotted, {"--out b", "is the same file as --out a"});
  { std::ofstream(f) << "x"; }
  REQUIRE(::link(f.c_str(), link.c_str()) == 0);  // a hard link: another name, the same file
  expect_usage_error(run + "--out a=" + f + " --out b=" + link, {"--out b", "is the same file as --out a"});
  expect_usage_error(run + "--out a=" + f + " --model mi355x --trace " + link, {"--trace", "is the same file as --out a"});
  expect_usage_error(run + "--out out=" + co, {"--out out", "is the same file as the code object"});
  CHECK(std::filesystem::file_size(co) > 100);  // not overwritten
  // Distinct files, and /dev/null any number of times, are fine.
  Run ok = cli(run + "--out a=" + f + " --out b=" + (dir / "g.bin").string() + " --out out=/dev/null");
  INFO(ok.out);
  CHECK(ok.status == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit run --arg f32/f64 take nan and inf", "[cli][args]") {
  auto dir = scratch();
  std::string co = write_code_object(dir, "fill.co", R"(
extern "C" __global__ void fill(float* y, float v, double w) { y[tid()] = v; y[64 + tid()] = float(w); })");
  std::string out = (dir / "y.bin").string();
  const std::string run = "run " + co + " --kernel fill --device sim:gfx942 --grid 1 --block 64 --arg buf:y:512 ";
  for (const std::string& spelling : {"nan", "NaN", "-nan", "inf", "-inf", "+Infinity"}) {
    Run r = cli(run + "--arg f32:" + spelling + " --arg f64:" + spelling + " --out y=" + out);
    INFO(spelling << "\n" << r.out);
    REQUIRE(r.status == 0);
    std::ifstream in(out, std::ios::binary);
    std::vector<float> y(128);
    in.read(reinterpret_cast<char*>(y.data()), 512);
    const bool nan = spelling.find_first_of("aA") != std::string::npos;  // nan, NaN, -nan (Infinity has no 'a')
    for (float v : {y[0], y[64]}) {
      if (nan) CHECK(std::isnan(v));
      else CHECK((std::isinf(v) && (v < 0) == (spelling[0] == '-')));
    }
  }
  // Overflowing decimals stay errors, with the valid spellings named.
  expect_usage_error(run + "--arg f32:1e39 --arg f64:0", {"--arg f32", "out of range", "nan, inf or -inf"});
  expect_usage_error(run + "--arg f32:0 --arg f64:1e400", {"--arg f64", "out of range"});
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit run --arg struct: a by-value struct with pointers built from the other argument kinds", "[cli][args]") {
  auto dir = scratch();
  // Members of both sizes in an order that needs padding: scale at 8, the int at 16, the pointer at 24.
  std::string co = write_code_object(dir, "params.co", R"(
struct Params { float* out; float scale; int n; const float* in; char tag; };
extern "C" __global__ void apply(Params p) {
  if (int(tid()) < p.n) p.out[tid()] = p.scale * p.in[tid()] + float(p.tag);
})");
  const std::string y = (dir / "y.bin").string(), x = (dir / "x.bin").string();
  std::vector<float> xv(64);
  for (int i = 0; i < 64; ++i) xv[size_t(i)] = 0.5f * float(i) + 1.0f;
  std::ofstream(x, std::ios::binary).write(reinterpret_cast<const char*>(xv.data()), 256);
  // `in` is declared after the struct that points at it; n = 48 leaves the last 16 outputs untouched.
  Run r = cli("run " + co + " --kernel apply --device sim:gfx942 --grid 1 --block 64 --arg mem:y:256 "
              "--arg struct:ptr:y,f32:2.5,i32:48,ptr:x,i32:3 --arg mem:x:256:file=" + x + " --out y=" + y);
  INFO(r.out);
  REQUIRE(r.status == 0);
  std::vector<float> yv(64);
  std::ifstream(y, std::ios::binary).read(reinterpret_cast<char*>(yv.data()), 256);
  for (int i = 0; i < 64; ++i) {
    INFO(i);
    CHECK(yv[size_t(i)] == (i < 48 ? 2.5f * xv[size_t(i)] + 3.0f : 0.0f));  // exact in f32 either way (fma or not)
  }
  // A pointer field naming no buffer, and a nested form, are usage errors before any work.
  Run bad = cli("run " + co + " --kernel apply --device sim:gfx942 --grid 1 --block 64 --arg struct:ptr:nothere,f32:1");
  CHECK(bad.status == 2);
  CHECK(has(bad, "ptr:nothere names no buffer"));
  Run nested = cli("run " + co + " --kernel apply --device sim:gfx942 --grid 1 --block 64 --arg struct:buf:y:4");
  CHECK(nested.status == 2);
  CHECK(has(nested, "a struct field is a scalar or ptr:NAME"));
  // Without mem: the buffers are kernel arguments too, which this kernel does not take.
  Run passed = cli("run " + co + " --kernel apply --device sim:gfx942 --grid 1 --block 64 --arg buf:y:256 "
                   "--arg struct:ptr:y,f32:2.5,i32:48,ptr:y,i32:3");
  CHECK(passed.status == 1);
  CHECK(has(passed, "takes only 1 explicit argument"));
}

TEST_CASE("cdnajit run and check: global variables run from the mapped image, calls to the code object's functions run", "[cli][check]") {
  auto dir = scratch();
  std::string co = write_code_object(dir, "globals.co", R"(
__device__ int counts[64];
__constant__ float scales[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ unsigned counter;
__attribute__((noinline)) __device__ float helper(float x) { return x * 3.0f + 1.0f; }
extern "C" __global__ void uses_global(float* y, unsigned* seen) {
  y[tid()] = scales[tid() & 3] + float(counts[tid()]);
  counts[tid()] += 1;
  seen[tid()] = atomicAdd(&counter, 1u);
}
extern "C" __global__ void calls(float* y) { y[tid()] = helper(y[tid()]); }
extern "C" __global__ void plain(float* y) { y[tid()] = 2.0f * y[tid()]; })");
  // The __constant__ table comes from the image, the __device__ counter counts every work-item.
  const std::string y = (dir / "y.bin").string(), seen = (dir / "seen.bin").string();
  for (const std::string model : {"", " --model mi300x"}) {
    Run g = cli("run " + co + " --kernel uses_global --device sim:gfx942 --grid 1 --block 64 --arg buf:y:256 "
                "--arg buf:seen:256 --out y=" + y + " --out seen=" + seen + model);
    INFO(g.out);
    REQUIRE(g.status == 0);
    CHECK(has(g, "ran uses_global"));
    if (!model.empty()) CHECK(has(g, "modelled (model mi300x)"));
    std::vector<float> yv(64);
    std::vector<uint32_t> sv(64);
    std::ifstream(y, std::ios::binary).read(reinterpret_cast<char*>(yv.data()), 256);
    std::ifstream(seen, std::ios::binary).read(reinterpret_cast<char*>(sv.data()), 256);
    for (int i = 0; i < 64; ++i) CHECK(yv[size_t(i)] == float((i & 3) + 1));
    std::sort(sv.begin(), sv.end());
    for (uint32_t i = 0; i < 64; ++i) CHECK(sv[i] == i);  // each work-item took one count: 0..63
  }
  // The call into helper (a function of the code object, before the kernel in .text) runs: y = 3y + 1.
  const std::string yin = (dir / "yin.bin").string(), yout = (dir / "yout.bin").string();
  {
    std::vector<float> v(64);
    for (int i = 0; i < 64; ++i) v[size_t(i)] = float(i) * 0.5f;
    std::ofstream(yin, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), 256);
  }
  const std::string args = " --device sim:gfx942 --grid 1 --block 64 --arg buf:y:256:file=" + yin;
  Run c = cli("run " + co + " --kernel calls" + args + " --out y=" + yout);
  INFO(c.out);
  REQUIRE(c.status == 0);
  std::vector<float> yv(64);
  std::ifstream(yout, std::ios::binary).read(reinterpret_cast<char*>(yv.data()), 256);
  for (int i = 0; i < 64; ++i) CHECK(yv[size_t(i)] == float(i) * 0.5f * 3.0f + 1.0f);
  CHECK(cli("run " + co + " --kernel plain" + args).status == 0);

  // Nothing to report: the call is modelled, and the wait-count verifier counts it as a full wait
  // (the callee waits for every counter on entry), so the load before it is not "unwaited".
  Run ck = cli("check " + co);
  INFO(ck.out);
  CHECK(ck.status == 0);
  CHECK(has(ck, "3 kernels"));
  CHECK(has(ck, "0 findings"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit check: jumps and calls inside the kernel are modelled, not reported", "[cli][check]") {
  // The simulator runs PC writes whose target is an instruction of the kernel (test_ext_ops):
  // s_getpc_b64 + s_add_u32/s_addc_u32 to a later instruction, s_call_b64 to a label, s_swappc_b64
  // into the kernel and the s_setpc_b64 returns of both.
  const std::string body =
      "  s_getpc_b64 s[10:11]\n  s_add_u32 s10, s10, 16\n  s_addc_u32 s11, s11, 0\n  s_setpc_b64 s[10:11]\n"
      "  v_mov_b32 v8, 1\n  v_mov_b32 v9, 2\n  s_call_b64 s[12:13], .Lfunc\n  v_add_u32 v8, 4, v8\n"
      "  s_getpc_b64 s[10:11]\n  s_add_u32 s10, s10, 20\n  s_addc_u32 s11, s11, 0\n  s_swappc_b64 s[14:15], s[10:11]\n"
      "  v_add_u32 v8, 32, v8\n  s_branch .Ldone\n  v_add_u32 v9, 64, v9\n  s_setpc_b64 s[14:15]\n"
      ".Lfunc:\n  v_add_u32 v9, 16, v9\n  s_setpc_b64 s[12:13]\n.Ldone:\n";
  auto dir = scratch();
  std::vector<uint8_t> co = simtest::assemble(exttest::kernel_text("pcw", body, cdnajit::Arch::gfx950), cdnajit::Arch::gfx950);
  std::string path = (dir / "pcw.co").string();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(co.data()), std::streamsize(co.size()));
  Run c = cli("check " + path);
  INFO(c.out);
  CHECK_FALSE(has(c, "[not-modelled]"));
  CHECK(has(c, "1 kernel, 31 instructions checked"));
  std::filesystem::remove_all(dir);
}
