// Benchmark: how much the CDNA3 MFMA numerics model (sim::Options::MfmaNumerics::Cdna3) costs
// against the exact model (Exact) on the implicit-GEMM conv3d MFMA kernel, in the same run.
// Per model, best of --repeat runs with one simulator host thread: the process CPU time of the
// whole JIT pipeline (transpose + GEMM launches; the transpose is the same for both models), which
// other processes' load does not inflate, and the GEMM launch's host wall time, which it does. The
// machine's load average is printed before and after. Also checks that repeated runs of one model
// give the same bytes.
//
//   build/tools/bench_mfma_numerics [--hw 8] [--dtype bf16|fp8] [--arch gfx942|gfx950|all] [--repeat 3]
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "codegen/conv3d_igemm.hpp"
#include "codegen/conv3d_igemm_config.hpp"
#include "tools/jobs/conv3d_igemm_host.hpp"
#include "jit/isa/error.hpp"
#include "runtime/tune/checked_number.hpp"
#include "runtime/device.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {

std::string load_average() {
  std::ifstream f("/proc/loadavg");
  std::string a, b, c;
  if (!(f >> a >> b >> c)) return "unknown";
  return a + " " + b + " " + c;
}

// FNV-1a of the output bytes: lets runs of different builds be compared bit for bit.
uint64_t fnv1a(const std::vector<uint8_t>& v) {
  uint64_t h = 1469598103934665603ull;
  for (uint8_t b : v) h = (h ^ b) * 1099511628211ull;
  return h;
}

double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

struct Timing {
  double best_ms = 0, best_cpu_ms = 0;
  std::vector<uint8_t> y;
  bool repeatable = true;
};

Timing time_model(const Conv3dPlan& plan, const Conv3dKernels& k, const std::vector<uint8_t>& px,
                  const std::vector<uint8_t>& pw, const std::vector<float>& bias, sim::Options::MfmaNumerics model,
                  int repeat) {
  sim::Options o;
  o.threads = 1;
  o.mfma_numerics = model;
  auto dev = open_device(std::string("sim:") + std::string(arch_name(plan.arch)), o);
  Timing t;
  for (int r = 0; r < repeat; ++r) {
    double c0 = cpu_ms();
    Conv3dRunResult res = run_conv3d_jit(*dev, plan, k, px, pw, bias);
    double cpu = cpu_ms() - c0;
    if (r == 0 || res.gemm_host_ms < t.best_ms) t.best_ms = res.gemm_host_ms;
    if (r == 0 || cpu < t.best_cpu_ms) t.best_cpu_ms = cpu;
    if (r == 0) t.y = res.y;
    else if (res.y != t.y) t.repeatable = false;
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  int hw = 8, repeat = 3;
  std::string dtype = "bf16", archs = "all";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) { fmt::print(stderr, "bench_mfma_numerics: {} needs a value\n", a); std::exit(2); }
      return argv[++i];
    };
    auto number = [&](uint64_t hi) {  // the checked parser; a bad value is a usage error (status 2)
      try {
        return int(parse_uint(value(), a, 1, hi));
      } catch (const Error& e) {
        fmt::print(stderr, "bench_mfma_numerics: {}\n", e.what());
        std::exit(2);
      }
    };
    if (a == "--hw") hw = number(4096);
    else if (a == "--repeat") repeat = number(1000000);
    else if (a == "--dtype") dtype = value();
    else if (a == "--arch") archs = value();
    else {
      fmt::print(stderr, "usage: bench_mfma_numerics [--hw N] [--dtype bf16|fp8] [--arch gfx942|gfx950|all] [--repeat N]\n");
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  if (hw < 1 || repeat < 1 || (dtype != "bf16" && dtype != "fp8") ||
      (archs != "all" && archs != "gfx942" && archs != "gfx950")) {
    fmt::print(stderr, "bench_mfma_numerics: --hw and --repeat must be >= 1, --dtype bf16|fp8, --arch gfx942|gfx950|all\n");
    return 2;
  }
  try {
    fmt::print("conv3d implicit-GEMM MFMA kernel, seed shape with H = W = {}, {}, simulator with 1 host thread, "
               "best of {} runs per model\nload average before: {}\n",
               hw, dtype, repeat, load_average());
    for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
      if (archs != "all" && archs != arch_name(arch)) continue;
      Conv3dShape s = conv3d_seed_shape(hw);
      Conv3dPlan plan = make_conv3d_plan(s, dtype == "fp8" ? Conv3dDType::fp8 : Conv3dDType::bf16, arch);
      Conv3dKernels k = build_conv3d_kernels(plan);
      Conv3dInputs in = conv3d_random_inputs(s, 1);
      std::vector<uint8_t> px = conv3d_pack_input(plan, in.x), pw = conv3d_pack_weights(plan, in.w);
      Timing exact = time_model(plan, k, px, pw, in.bias, sim::Options::MfmaNumerics::Exact, repeat);
      Timing cdna3 = time_model(plan, k, px, pw, in.bias, sim::Options::MfmaNumerics::Cdna3, repeat);
      fmt::print("{}: CPU time exact {:.0f} ms, cdna3 {:.0f} ms, cdna3 / exact = {:.2f}x; GEMM wall time exact {:.0f} ms, "
                 "cdna3 {:.0f} ms ({:.2f}x); repeated runs identical: {}; the two models' outputs {}; output FNV-1a "
                 "exact {:016x}, cdna3 {:016x}\n",
                 arch_name(arch), exact.best_cpu_ms, cdna3.best_cpu_ms, cdna3.best_cpu_ms / exact.best_cpu_ms,
                 exact.best_ms, cdna3.best_ms, cdna3.best_ms / exact.best_ms,
                 exact.repeatable && cdna3.repeatable ? "yes" : "NO", exact.y == cdna3.y ? "agree" : "differ", fnv1a(exact.y), fnv1a(cdna3.y));
    }
    fmt::print("load average after: {}\n", load_average());
  } catch (const Error& e) {
    fmt::print(stderr, "bench_mfma_numerics: {}\n", e.what());
    return 1;
  }
  return 0;
}
