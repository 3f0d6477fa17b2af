#include "tools/cli/selftest_kernels.hpp"

#include <fmt/format.h>

#include "codegen/conv3d_igemm_config.hpp"
#include "tools/jobs/conv3d_igemm_host.hpp"
#include "codegen/conv_bwd_weight.hpp"
#include "tools/jobs/conv_bwd_weight_host.hpp"
#include "codegen/dwconv3d.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "codegen/dwconv_mfma.hpp"
#include "codegen/gemm.hpp"
#include "tools/jobs/gemm_host.hpp"
#include "codegen/gemm_mx.hpp"
#include "tools/jobs/gemm_mx_host.hpp"
#include "codegen/hip_sources.hpp"
#include "runtime/hip_source.hpp"
#include "tools/tune_families/registry.hpp"

namespace cdnajit::cli {

namespace {

using namespace codegen;

// One launch of a depthwise kernel (input, weight, output; 256 threads), the output read back as
// the drivers do.
void run_dwconv(Device& dev, std::span<const uint8_t> co, const std::string& kernel, uint32_t grid,
                const DwConvShape& s, const std::vector<uint16_t>& x, const std::vector<uint16_t>& w) {
  Module m = dev.load(co);
  Buffer in = dev.upload(x, "input"), wt = dev.upload(w, "weight");
  Buffer out = dev.alloc(size_t(s.output_elems()) * 2, "output");
  dev.launch(m.kernel(kernel), {grid}, {256}, 0, KernelArgs().ptr(in).ptr(wt).ptr(out));
  dev.synchronize();
  dev.download<uint16_t>(out);
  for (const Buffer& b : {in, wt, out}) dev.free(b);
}

// The seed's filter and padding on two channels, four depth slices and 7 x 16 rows (the tuner's
// correctness problem for the seed shape), milliseconds to simulate.
SelftestKernelSet dwconv3d_hip_set(Arch arch) {
  DwConvShape s = seed_shape();
  s.C = 2, s.D = 4, s.H = 7, s.W = 16;
  return {"dwconv3d", s.str(), [arch, s](SelftestDevice& dev) {
            const std::vector<uint16_t> x = random_bf16(size_t(s.input_elems()), 11);
            const std::vector<uint16_t> w = random_bf16(size_t(s.weight_elems()), 12);
            for (HipReference r : kHipReferences) {
              dev.set_label(fmt::format("dwconv3d: HIP reference {}", dwconv3d_hip_seed_kernel(r)));
              run_dwconv(dev, compile_hip(dwconv3d_hip_source(r), arch, dwconv3d_hip_flags(s, r)),
                         dwconv3d_hip_kernel_name(r), dwconv3d_hip_grid(s, r), s, x, w);
            }
            dev.set_label("dwconv3d: HIP reference mfma_band");
            run_dwconv(dev, compile_hip(dwconv_mfma_hip_source(), arch, dwconv_mfma_hip_flags(s, arch)),
                       kDwconvMfmaHipKernel, uint32_t(plan_dwconv_mfma(s, arch).grid_x), s, x, w);
          }};
}

// The seed's conv3d (3x3x3, pad 1) on one image of 2 x 6 x 6 pixels: 3 input channels (the
// channel padding) and 24 output channels, so a partial M and N tile of the default configuration.
// bf16 and fp8 (E4M3: FNUZ on gfx942, OCP on gfx950): the same-order MFMA reference of each (on
// the input transposed on the host), the direct reference once, on the bf16 data.
SelftestKernelSet conv3d_hip_set(Arch arch) {
  Conv3dShape s = conv3d_seed_shape(6);
  s.C = 3, s.K = 24, s.D = 2;
  return {"conv3d_igemm", s.str() + " bf16, fp8", [arch, s](SelftestDevice& dev) {
            const Conv3dInputs in = conv3d_random_inputs(s, 7);
            for (Conv3dDType t : {Conv3dDType::bf16, Conv3dDType::fp8}) {
              const Conv3dPlan p = make_conv3d_plan(s, t, arch);
              const std::vector<uint8_t> px = conv3d_pack_input(p, in.x), pw = conv3d_pack_weights(p, in.w);
              dev.set_label(fmt::format("conv3d_igemm {}: HIP reference (MFMA, same order)", dtype_name(t)));
              run_conv3d_hip_mfma(dev, p, compile_hip(conv3d_igemm_hip_source(), arch, conv3d_hip_flags(p)),
                                  conv3d_transpose_host(p, px), pw, in.bias);
              if (t != Conv3dDType::bf16) continue;
              dev.set_label("conv3d_igemm bf16: HIP reference (direct)");
              run_conv3d_direct(dev, p, compile_hip(conv3d_direct_hip_source(), arch, conv3d_hip_flags(p)), in);
            }
          }};
}

// Two groups, three K tiles (the stage loop runs twice), 3x3 filter with padding.
SelftestKernelSet bwd_weight_hip_set(Arch arch) {
  BwdWeightShape s;
  s.N = 3, s.G = 2, s.C = 4, s.K = 6, s.Hi = 5, s.Wi = 5, s.Y = 3, s.X = 3;
  s.pad[0] = s.pad[1] = 1;
  return {"conv_bwd_weight", s.str() + " bf16->f32", [arch, s](SelftestDevice& dev) {
            const BwdWeightConfig cfg;
            const BwdWeightInputs in = bwd_weight_random_inputs(s, cfg.dtype, 5);
            dev.set_label("conv_bwd_weight: HIP reference (MFMA, same order)");
            run_bwd_weight(dev, compile_hip(bwd_weight_hip_source(), arch, bwd_weight_hip_flags(s, arch, cfg)),
                           kBwdWeightHipKernelName, bwd_weight_hip_grid(s), Dim3{64, 1, 1}, s, in, cfg.out_bytes());
            dev.set_label("conv_bwd_weight: HIP reference (plain)");
            run_bwd_weight(dev, compile_hip(bwd_weight_plain_hip_source(), arch, bwd_weight_hip_flags(s, arch, cfg)),
                           kBwdWeightPlainKernelName, bwd_weight_plain_grid(s), Dim3{256, 1, 1}, s, in, cfg.out_bytes());
          }};
}

// Two workgroups of the default configuration: a partial tile in M, a full and a partial one in
// N, two K tiles (the MFMA simulation dominates the run time; more tiles add no code path).
SelftestKernelSet gemm_hip_set(Arch arch) {
  const GemmPlan tile = make_gemm_plan(GemmShape{256, 256, 256}, arch);
  GemmShape s;
  s.M = tile.cfg.tile_m / 2 + 8, s.N = tile.cfg.tile_n + 8, s.K = 2 * tile.cfg.tile_k;
  const GemmPlan p = make_gemm_plan(s, arch);
  return {"gemm", s.str(), [arch, p](SelftestDevice& dev) {
            const GemmInputs in = gemm_random_inputs(p, 23);
            dev.set_label("gemm: HIP reference (MFMA, same order)");
            run_gemm_hip(dev, p, compile_hip(gemm_hip_source(), arch, gemm_hip_flags(p)), in);
          }};
}

SelftestKernelSet gemm_mx_hip_set(Arch arch) {
  GemmMxShape s;
  s.M = 72, s.N = 136, s.K = 128;  // as the GEMM: a partial tile in M, a full and a partial one in N
  const GemmMxPlan p = make_gemm_mx_plan(s, arch);
  return {"gemm_mx", s.str(), [arch, p](SelftestDevice& dev) {
            const GemmMxInputs in = gemm_mx_random_inputs(p, 23);
            dev.set_label("gemm_mx: HIP reference (MFMA, same order)");
            run_gemm_mx_hip(dev, p, compile_hip(gemm_mx_hip_source(), arch, gemm_mx_hip_flags(p)), in);
          }};
}

// In-kernel clocks: each wave reads clock64() around a dependent chain of 256 FMAs. The cycles
// (the 'clock' allocation) are the device's own count against the model's; the chain's results
// are compared bit for bit.
constexpr const char* kClockProbeSource = R"(
extern "C" __global__ void clock_probe(float* out, long long* clock, float a, float b) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = float(i) * 0.25f;
  const long long t0 = clock64();
  for (int k = 0; k < 256; ++k) x = __builtin_fmaf(x, a, b);
  out[i] = x;
  const long long t1 = clock64();
  if (threadIdx.x % 64 == 0) clock[i / 64] = t1 - t0;
}
)";

SelftestKernelSet clock_set(Arch arch) {
  return {"clock", "4 workgroups of 256, 256 dependent FMAs per lane", [arch](SelftestDevice& dev) {
            Module m = dev.load(compile_hip(kClockProbeSource, arch));
            Buffer out = dev.alloc(1024 * 4, "out"), clock = dev.alloc(16 * 8, std::string(kSelftestClockBuffer));
            dev.set_label("clock: HIP clock64() around an FMA chain");
            dev.launch(m.kernel("clock_probe"), {4}, {256}, 0, KernelArgs().ptr(out).ptr(clock).f32(0.5f).f32(1.0f));
            dev.synchronize();
            for (const Buffer& b : {out, clock}) dev.free(b);
          }};
}

// A family's JIT kernel as `cdnajit job` makes it (tools/tune_families/registry.hpp): its default
// configuration for `arch` on its example problem, run whole and verified against the family's
// reference on each side (a failed verification is an error of that side). Built once, on the
// first side's run.
SelftestKernelSet family_set(const tune::Family& f, const std::string& problem, const tune::Config& cfg, Arch arch) {
  auto built = std::make_shared<std::unique_ptr<tune::Candidate>>();
  return {f.name(), cfg.empty() ? problem : fmt::format("{}; config {}", problem, tune::config_str(cfg)),
          [&f, problem, cfg, arch, built](SelftestDevice& dev) {
            if (!*built) *built = f.build(cfg, problem, arch);
            dev.set_label(fmt::format("{}: JIT, default configuration, verified", f.name()));
            if (std::string why = (*built)->verify(dev); !why.empty())
              throw Error(fmt::format("verification against the {} reference: {}", f.name(), why));
          }};
}

}  // namespace

std::vector<std::string> selftest_set_names() {
  std::vector<std::string> names = tune::family_names();
  names.push_back("clock");
  return names;
}

std::vector<SelftestKernelSet> selftest_kernel_sets(Arch arch, std::vector<std::string>* skipped) {
  std::vector<SelftestKernelSet> sets;
  for (const tune::Family* f : tune::all_families()) {
    const std::string problem = f->canonical_problem(f->example_problem());
    try {
      sets.push_back(family_set(*f, problem, tune::resolve_config(*f, {}, problem, arch), arch));
    } catch (const Error& e) {  // the family has no kernel for this arch (gemm_mx: gfx950 only)
      if (skipped) skipped->push_back(fmt::format("{}: {}", f->name(), e.what()));
    }
  }
  // The clang-compiled HIP references beside the families, and the clock probe.
  for (SelftestKernelSet s : {dwconv3d_hip_set(arch), conv3d_hip_set(arch), bwd_weight_hip_set(arch), gemm_hip_set(arch)})
    sets.push_back(std::move(s));
  if (arch == Arch::gfx950) sets.push_back(gemm_mx_hip_set(arch));  // the scaled MFMA is gfx950's
  sets.push_back(clock_set(arch));
  return sets;
}

}  // namespace cdnajit::cli
