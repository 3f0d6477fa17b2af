// Benchmark: end-to-end JIT time (build + regalloc + passes + assemble + link) of
// the example kernels, against (a) the same .s through llvm-mc-22 + ld.lld-22
// subprocesses and (b) the same kernels written in HIP C++ compiled by clang++-22,
// all measured in this run. Prints medians (ms) and ratios.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#include "codegen/examples/examples.hpp"
#include "jit/asm/subprocess_toolchain.hpp"
#include "jit/kernel.hpp"
#include "runtime/hip_source.hpp"

using namespace cdnajit;

namespace {

double median_ms(int reps, const std::function<void(int)>& fn) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    fn(i);
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// The same computations as codegen/examples, written as HIP C++.
const char* kHipVectorAdd = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* out, unsigned n) {
  unsigned i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
)";
const char* kHipBf16Dot = R"(
extern "C" __global__ void bf16_dot(const unsigned* a, const unsigned* b, float* out, unsigned n) {
  unsigned i = blockIdx.x * 256 + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int p = 0; p < 4; ++p) {
    unsigned x = a[i * 4 + p], y = b[i * 4 + p];
    acc = __builtin_fmaf(__uint_as_float(x << 16), __uint_as_float(y << 16), acc);
    acc = __builtin_fmaf(__uint_as_float(x & 0xffff0000u), __uint_as_float(y & 0xffff0000u), acc);
  }
  out[i] = acc;
}
)";

}  // namespace

int main(int argc, char** argv) {
  int jit_reps = 50, sub_reps = 7, clang_reps = 5;
  if (argc > 1 && std::string(argv[1]) == "--quick") jit_reps = 11, sub_reps = 3, clang_reps = 3;
  SubprocessToolchain sub = SubprocessToolchain::find();
  fmt::print("cdnajit JIT benchmark (medians in ms; this machine, no GPU involved)\n");
  fmt::print("{:<11} {:<7} {:>9} {:>10} {:>12} {:>11} {:>10} {:>12}\n", "kernel", "arch", "JIT", "cache hit",
             "mc+lld subp", "clang HIP", "subp/JIT", "clang/JIT");
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    for (const char* name : examples::kBuiltinNames) {
      auto make = [&] {
        auto k = std::make_unique<Kernel>(name, arch);
        examples::define_builtin(*k, name);
        return k;
      };
      BuildOptions nocache;
      nocache.use_cache = false;
      make()->build(nocache);  // warm-up: LLVM target initialisation, lld first run
      double jit = median_ms(jit_reps, [&](int) { make()->build(nocache); });
      make()->build();  // fill the cache
      double hit = median_ms(jit_reps, [&](int) { make()->build(); });
      std::string s = make()->assembly();
      double subp = median_ms(sub_reps, [&](int) { sub.assemble_and_link(s, arch); });
      std::string src = std::string(name) == "vector_add" ? kHipVectorAdd : kHipBf16Dot;
      // A distinct comment per repetition defeats the HIP-source compile cache: clang really runs each time.
      double clang = median_ms(clang_reps, [&](int i) {
        compile_hip_with(HipSourceBackend::Kind::clang, src + "// rep " + std::to_string(i) + "\n", arch);
      });
      fmt::print("{:<11} {:<7} {:>9.3f} {:>10.4f} {:>12.1f} {:>11.1f} {:>9.0f}x {:>11.0f}x\n", name, arch_name(arch),
                 jit, hit, subp, clang, subp / jit, clang / jit);
    }
  }
  return 0;
}
