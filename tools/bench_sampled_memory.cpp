// Benchmark (no test): the project's bf16 GEMM (codegen/gemm, default configuration) modelled three
// ways on sizes the simulator runs whole:
//   full:    every workgroup simulated, the first round traced (SimulatedGrid::full);
//   sampled: the model's workgroups and 16 traced in full, plus the first round traced address-only
//            (SimulatedGrid::sampled, runtime/model/grid_lines.hpp);
//   before:  sampled with the address-only round off (ModelOptions::sampled_round_lines = 0: the 16
//            traced workgroups only, the model before the address-only trace).
// Prints, per size, each way's modelled time, HBM MB and host seconds, and sampled / full.
//   bench_sampled_memory [--product NAME] [N ...]     (default: mi350x, N = 1024 2048; M = N = K = N)
#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/gemm.hpp"
#include "tools/jobs/gemm_host.hpp"
#include "jit/isa/error.hpp"
#include "runtime/model/model_device.hpp"
#include "runtime/model/product_file.hpp"

using namespace cdnajit;

namespace {

struct Way {
  const char* name;
  model::SimulatedGrid grid;
  uint64_t round_lines;
};

int run(int argc, char** argv) {
  std::string product = "mi350x";
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--product" && i + 1 < argc) {
      product = argv[++i];
    } else if (!a.empty() && a.find_first_not_of("0123456789") == std::string_view::npos && a.size() < 6) {
      sizes.push_back(std::atoi(argv[i]));
    } else {
      fmt::print(stderr, "bench_sampled_memory: unknown argument '{}' (usage: bench_sampled_memory [--product NAME] [N ...])\n", a);
      return 2;
    }
  }
  if (sizes.empty()) sizes = {1024, 2048};
  const model::Hardware& hw = model::resolve_product(product);
  const Way ways[] = {{"full", model::SimulatedGrid::full, model::kMaxTracedWorkgroups},
                      {"sampled", model::SimulatedGrid::sampled, model::kMaxTracedWorkgroups},
                      {"before", model::SimulatedGrid::sampled, 0}};
  fmt::print("# bf16 GEMM (codegen/gemm, default config), modelled (model {})\n", hw.name);
  fmt::print("N\tway\tms\tHBM_MB\tround_lines\thost_s\tms/full_ms\tHBM/full_HBM\n");
  for (int n : sizes) {
    codegen::GemmShape s;
    s.M = s.N = s.K = n;
    const codegen::GemmPlan p = codegen::make_gemm_plan(s, hw.arch, {});
    const BuildResult b = codegen::build_gemm(p);
    const codegen::GemmInputs in = codegen::gemm_random_inputs(p, 1);
    double full_ms = 0, full_hbm = 0;
    for (const Way& w : ways) {
      auto dev = open_sim_device(hw.arch);
      Buffer a = dev->upload(in.a, "a");
      Buffer bb = dev->upload(in.b, "b");
      Buffer c = dev->alloc(size_t(p.c_bytes()), "c");
      DeviceKernel k = dev->load(b.code_object).kernel(b.name);
      model::ModelOptions mo;
      mo.flops = s.gflop() * 1e9;
      mo.sampled_round_lines = w.round_lines;
      const model::ModelReport r = model::model_launch(*dev, k, {p.grid[0], p.grid[1], p.grid[2]}, {uint32_t(p.threads)},
                                                       0, KernelArgs().ptr(a).ptr(bb).ptr(c), hw, mo, w.grid)
                                       .report;
      if (w.grid == model::SimulatedGrid::full) full_ms = r.ms, full_hbm = r.traffic.hbm_bytes();
      const char* lines = r.grid_lines.used ? "used" : r.grid_lines.attempted ? "refused" : "-";
      fmt::print("{}\t{}\t{:.4f}\t{:.2f}\t{}\t{:.1f}\t{:.3f}\t{:.3f}\n", n, w.name, r.ms, r.traffic.hbm_bytes() / 1e6, lines,
                 r.sim_seconds + r.grid_lines.seconds + r.model_seconds, r.ms / full_ms, r.traffic.hbm_bytes() / full_hbm);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_sampled_memory: {}\n", e.what());
    return 1;
  }
}
