#include "tools/jobs/gemm_model.hpp"

#include <fmt/format.h>

#include <chrono>

#include "codegen/gemm.hpp"
#include "codegen/gemm_split_k.hpp"
#include "tools/jobs/gemm_host.hpp"
#include "tools/jobs/model_launch.hpp"
#include "runtime/model/product_file.hpp"
#include "jit/isa/error.hpp"
#include "jit/isa/isa.hpp"
#include "runtime/device.hpp"

namespace cdnajit::codegen {

GemmModelled model_gemm(const model::Hardware& hw, const GemmShape& s, const GemmConfig& cfg, uint64_t seed) {
  const auto t0 = std::chrono::steady_clock::now();
  const GemmPlan p = make_gemm_plan(s, hw.arch, cfg);
  GemmModelled m;
  m.model = hw.name;
  m.shape = s;
  m.config = p.cfg.str();
  m.mfma = std::string(p.mfma.mnemonic);
  m.gflop = s.gflop();
  const isa::InstrInfo* mi = isa::find(p.mfma.mnemonic);
  if (!mi) throw Error(fmt::format("gemm model: {} is not in the ISA table", p.mfma.mnemonic));
  const int flops = p.mfma.m * p.mfma.m * p.mfma.k * 2;
  m.peak_tflops = hw.peak_mfma_flops(flops, isa::mfma_passes(*mi, hw.arch)) / 1e12;
  m.peak_clock_ghz = hw.peak_clock_ghz;
  m.model_clock_ghz = hw.clock_ghz;
  const BuildResult k = build_gemm(p);
  const GemmInputs in = gemm_random_inputs(p, seed);
  auto dev = open_sim_device(hw.arch);
  Buffer a = dev->upload(in.a, "a");
  Buffer b = dev->upload(in.b, "b");
  Buffer c = s.beta != 0.0f ? dev->upload(in.c, "c") : dev->alloc(size_t(p.c_bytes()), "c");
  Buffer ws = p.split() || p.stream()
                  ? dev->alloc(size_t(p.split() ? p.workspace_bytes() : p.sk_workspace_bytes()), "workspace")
                  : Buffer{};
  KernelArgs args = KernelArgs().ptr(a).ptr(b).ptr(p.split() ? ws : c);
  if (p.stream()) args.ptr(ws);
  Buffer bias = s.bias != GemmBias::none ? dev->upload(in.bias, "bias") : Buffer{};
  if (s.bias != GemmBias::none && !p.split()) args.ptr(bias);  // split-K: the reduction adds the bias
  KernelArgs second = KernelArgs().ptr(ws).ptr(c);
  if (s.bias != GemmBias::none) second.ptr(bias);
  m.report = model_launch_of(*dev, hw, k, {p.grid[0], p.grid[1], p.grid[2]}, uint32_t(p.threads), args, m.gflop * 1e9);
  if (p.split())
    m.reduce = model_launch_of(*dev, hw, build_gemm_split_k_reduce(p), {gemm_reduce_grid(p)},
                               uint32_t(kGemmReduceThreads), second, 0);
  if (p.stream())
    m.reduce = model_launch_of(*dev, hw, build_gemm_stream_k_fixup(p), {gemm_fixup_grid(p)},
                               uint32_t(kGemmReduceThreads), second, 0);
  m.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return m;
}

const model::Hardware* gemm_model_product(Arch arch, const std::string& name) {
  if (name == "none") return nullptr;
  const model::Hardware& hw = model::resolve_product_or_default(name, arch);
  if (hw.arch != arch)
    throw Error(fmt::format("gemm: model {} is a {} product; the kernel is built for {} (pick a {} product or 'none')",
                            hw.name, arch_name(hw.arch), arch_name(arch), arch_name(arch)));
  return &hw;
}

}  // namespace cdnajit::codegen
