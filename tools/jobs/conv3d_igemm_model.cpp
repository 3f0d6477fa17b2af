#include "tools/jobs/conv3d_igemm_model.hpp"

#include <chrono>

#include "codegen/conv3d_igemm.hpp"
#include "tools/jobs/conv3d_igemm_host.hpp"
#include "tools/jobs/model_launch.hpp"
#include "jit/isa/error.hpp"
#include "runtime/device.hpp"
#include "jit/codeobject/code_object.hpp"

namespace cdnajit::codegen {

namespace {

Buffer upload_zero_tailed(Device& dev, std::vector<uint8_t> bytes, const char* name) {
  bytes.resize(bytes.size() + Conv3dPlan::kZeroTailBytes, 0);  // the DMA path reads past the end
  return dev.upload(bytes, name);
}

}  // namespace

const Conv3dSeedMeasured* conv3d_seed_measured(int hw) {
  static constexpr Conv3dSeedMeasured kSeed[] = {
      {40, 184.5, 258.8, 138.1},  {56, 364.0, 586.8, 270.4},   {72, 499.6, 845.5, 367.3},
      {104, 606.7, 1020.5, 453.0}, {144, 631.7, 1108.6, 447.3}, {168, 604.0, 1081.5, 525.9},
  };
  for (const auto& m : kSeed)
    if (m.hw == hw) return &m;
  return nullptr;
}

Conv3dModelled model_conv3d(const model::Hardware& hw, Conv3dDType t, const Conv3dShape& s, const Conv3dConfig& cfg,
                            uint64_t seed) {
  auto t0 = std::chrono::steady_clock::now();
  const Conv3dPlan p = make_conv3d_plan(s, t, hw.arch, cfg);
  Conv3dModelled m;
  m.model = hw.name;
  m.shape = s;
  m.config = p.cfg.str();
  m.gflop = s.gflop();
  const Conv3dKernels k = build_conv3d_kernels(p);

  Conv3dInputs in = conv3d_random_inputs(s, seed);
  const std::vector<uint8_t> px = conv3d_pack_input(p, in.x);
  auto dev = open_sim_device(hw.arch);
  // Transpose: its recorded workgroups write their part of xt; the GEMM reads the host's full xt.
  Buffer x = dev->upload(px, "x");
  Buffer xt_dev = dev->alloc(size_t(p.xt_bytes()) + Conv3dPlan::kZeroTailBytes, "xt (transpose output)");
  const Conv3dTransposeLaunch tl = conv3d_transpose_launch(p);
  m.transpose = model_launch_of(*dev, hw, k.transpose, {tl.grid[0], tl.grid[1], tl.grid[2]}, tl.threads,
                                KernelArgs().ptr(x).ptr(xt_dev), 0);
  Buffer xt = upload_zero_tailed(*dev, conv3d_transpose_host(p, px), "xt");
  Buffer wt = upload_zero_tailed(*dev, conv3d_pack_weights(p, in.w), "wt");
  std::vector<float> bias(size_t(s.K), 0.0f);
  if (s.bias) bias = in.bias;
  Buffer b = dev->upload(bias, "bias");
  const size_t out_bytes = size_t(s.output_elems()) * size_t(p.out_esize());
  Buffer ws = p.uses_workspace() ? dev->upload(std::vector<float>(size_t(s.output_elems()), 0.0f), "workspace") : Buffer{};
  Buffer y = dev->alloc(out_bytes, "y");
  m.igemm = model_launch_of(*dev, hw, k.igemm, {p.grid[0], p.grid[1], p.grid[2]}, uint32_t(p.threads),
                            KernelArgs().ptr(xt).ptr(wt).ptr(b).ptr(p.uses_workspace() ? ws : y), m.gflop * 1e9);
  if (k.finalize)
    m.finalize = model_launch_of(*dev, hw, *k.finalize, {conv3d_finalize_grid(p)}, kConv3dAuxThreads,
                                 KernelArgs().ptr(ws).ptr(b).ptr(y), 0);
  m.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return m;
}

}  // namespace cdnajit::codegen
