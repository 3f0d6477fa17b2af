// Benchmark: the simulator's kernel decoding, binary decoder (what the simulator uses) against
// the LLVM text path it replaced (LLVM-C disassembler -> text -> isa::parse, kept as the test
// oracle), on the seed job's depthwise conv3d kernel and on a clang-22 compiled f32 GEMM, for
// gfx942 and gfx950. Prints the median decode time of each and their ratio, the cost of learning
// the opcode numbers from LLVM MC (paid at build time, by gen_opcode_map) and of building the
// lookup maps from the generated table (paid at the first decode of an arch in a process).
// Usage: bench_decode [--repeats N]   (default 50)
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "codegen/dwconv3d.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/hip_source.hpp"
#include "runtime/sim/decode_opcode_learn.hpp"
#include "runtime/sim/decode_opcode_map.hpp"
#include "runtime/sim/decode_paths.hpp"

using namespace cdnajit;

namespace {

// A tiled f32 GEMM (C = A * B, row-major, 16x16 LDS tiles), compiled by clang-22 at -O3.
const char* kGemm = R"(
extern "C" __global__ void gemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[16][17], Bs[16][17];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.f;
    Bs[ty][tx] = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
})";

template <class F>
double median_us(int repeats, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    const auto a = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 50;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeats" && i + 1 < argc) {
      repeats = std::atoi(argv[++i]);
      if (repeats < 1) { fmt::print(stderr, "bench_decode: --repeats needs a positive count\n"); return 2; }
    } else {
      fmt::print(stderr, "bench_decode: unknown argument '{}' (valid: --repeats N)\n", a);
      return 2;
    }
  }
  try {
    fmt::print("{:<8} {:<12} {:>6} {:>12} {:>12} {:>7}\n", "arch", "kernel", "insts", "binary us", "LLVM text us", "ratio");
    for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
      const auto t0 = std::chrono::steady_clock::now();
      const sim::OpcodeMap& map = sim::opcode_map(arch);
      const auto t1 = std::chrono::steady_clock::now();
      (void)sim::learn_opcode_map(arch);
      const auto t2 = std::chrono::steady_clock::now();
      const double first_use_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
      const double learn_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
      struct Case { std::string name; std::vector<uint8_t> bytes; };
      std::vector<Case> cases;
      const codegen::DwConvShape shape = codegen::seed_shape();
      cases.push_back({"seed-dwconv", codegen::build_dwconv3d(shape, codegen::default_variant(arch), arch).code_object});
      cases.push_back({"clang-gemm", compile_hip(kGemm, arch, {"-O3"})});
      for (const Case& c : cases) {
        const CodeObject co = read_code_object(c.bytes);
        const KernelInfo& k = co.kernels.at(0);
        size_t n = 0;
        const double binary = median_us(repeats, [&] { n = sim::decode_kernel(co, k)->ops.size(); });
        const double text = median_us(repeats, [&] { (void)sim::decode_kernel_llvm_text(co, k); });
        fmt::print("{:<8} {:<12} {:>6} {:>12.1f} {:>12.1f} {:>6.1f}x\n", arch_name(arch), c.name, n, binary, text, text / binary);
      }
      fmt::print("{:<8} opcode map: learning from LLVM MC {:.1f} ms (at build time); building it from the generated table "
                 "{:.2f} ms (first decode in a process); {} forms\n",
                 arch_name(arch), learn_ms, first_use_ms, map.forms_learned);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_decode: {}\n", e.what());
    return 1;
  }
  return 0;
}
