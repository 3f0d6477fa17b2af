// The implicit-GEMM conv3d family (codegen/conv3d_igemm.hpp): output tile, K tile, waves,
// LDS stages, split-K, workgroup mapping and the LDS DMA load path: every tile shape, wave grid
// and split the seed's kernels and their neighbours use (the generator's enumerate_conv3d_configs
// space plus the DMA path). Several hundred configurations are valid for the seed shape; the
// tuner bounds its run time with the search's budget and patience, not by a smaller space.
// The generator's plan
// (make_conv3d_plan) is the validity rule for every limit (registers, LDS, alignment); the
// family adds two rules that drop configurations which would launch the same kernel schedule
// as another one for this problem (split-K with fewer whole K tiles than splits, mapping n
// with a single N tile).
//
// Problem text: "[bf16|fp8] SHAPE" where SHAPE is "seed" (3x3x3, stride 1, pad 1,
// C = K = 128, D = 6, N = 1, H = W = 40), "seed:H" (H = W = H) or Conv3dShape::str()'s
// format "N1 C128 D6 H40 W40 K128 k3x3x3 s1,1,1 p1,1,1 d1,1,1 [bias]"; the dtype defaults to bf16.
//
// Check: the configuration runs a small problem of the same dtype, filter, stride, padding,
// dilation and bias, sized so that the tile has a partial M and a partial N tile and split-K
// has a K range per split, and every output is compared with the fp64 reference of the same
// (fp8-quantised for fp8) inputs within the rounding bound of a bf16 output of an fp32
// accumulation (conv3d_igemm_tolerance.hpp). The bit-for-bit oracle (the clang-compiled HIP-MFMA
// reference) costs seconds of compilation per configuration, so it stays in test_conv3d_igemm.
//
// Timing: the GEMM launch of the full problem, followed by split-K's finalize (a chain the
// time source sums). The transpose is the same kernel for every configuration and is not timed;
// split-K's workspace zeroing (a memset) is not in the time either.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <tuple>

#include "codegen/bf16.hpp"
#include "codegen/conv3d_igemm.hpp"
#include "tools/jobs/conv3d_igemm_host.hpp"
#include "tools/jobs/seed_run.hpp"
#include "jit/isa/error.hpp"
#include "jit/codeobject/code_object.hpp"
#include "tools/tune_families/conv3d_igemm_check.hpp"
#include "tools/tune_families/family_base.hpp"
#include "tools/tune_families/registry.hpp"
#include "runtime/tune/problem_text.hpp"
#include "runtime/tune/checked_number.hpp"

namespace cdnajit::tune {

namespace {

using codegen::Conv3dConfig;
using codegen::Conv3dDType;
using codegen::Conv3dPlan;
using codegen::Conv3dShape;

struct Problem {
  Conv3dDType dtype = Conv3dDType::bf16;
  Conv3dShape shape;
  std::string str() const { return fmt::format("{} {}", codegen::dtype_name(dtype), shape.str()); }
};

constexpr const char* kProblemFormat =
    "'[bf16|fp8] seed', '[bf16|fp8] seed:H' or '[bf16|fp8] N1 C128 D6 H40 W40 K128 k3x3x3 s1,1,1 p1,1,1 d1,1,1 [bias]'";

Problem parse_problem(std::string_view text) {
  Problem p;
  std::string t(text);
  for (Conv3dDType d : {Conv3dDType::bf16, Conv3dDType::fp8}) {
    std::string prefix = std::string(codegen::dtype_name(d)) + " ";
    if (t.rfind(prefix, 0) == 0) {
      p.dtype = d;
      t = t.substr(prefix.size());
    }
  }
  if (t == "seed") {
    p.shape = codegen::conv3d_seed_shape();
    return p;
  }
  if (t.rfind("seed:", 0) == 0) {
    p.shape = codegen::conv3d_seed_shape(int(parse_int(t.substr(5), fmt::format("conv3d_igemm problem '{}': seed:H", text), 1, 4096)));
    return p;
  }
  const std::string bias = " bias";
  Conv3dShape& s = p.shape;
  s.bias = t.size() > bias.size() && t.compare(t.size() - bias.size(), bias.size(), bias) == 0;
  if (s.bias) t.resize(t.size() - bias.size());
  auto v = parse_problem_fields(t,
                                "N{N} C{C} D{D} H{H} W{W} K{K} k{T:1024}x{R:1024}x{S:1024} "
                                "s{stride_d:1024},{stride_h:1024},{stride_w:1024} p{pad_d:1024},{pad_h:1024},{pad_w:1024} "
                                "d{dil_d:1024},{dil_h:1024},{dil_w:1024}",
                                "conv3d_igemm");
  if (!v) throw Error(fmt::format("conv3d_igemm problem '{}': expected {}", text, kProblemFormat));
  int* fields[] = {&s.N,         &s.C,         &s.D,         &s.H,      &s.W,      &s.K,      &s.T,
                   &s.R,         &s.S,         &s.stride[0], &s.stride[1], &s.stride[2], &s.pad[0], &s.pad[1],
                   &s.pad[2],    &s.dil[0],    &s.dil[1],    &s.dil[2]};
  for (size_t i = 0; i < v->size(); ++i) *fields[i] = int((*v)[i]);
  return p;
}

Conv3dConfig to_config(const Config& c) {
  Conv3dConfig k;
  // The values come from the space (parse_config checked them); read with the checked parser all the same.
  auto one = [&](std::string_view name) { return int(parse_int(config_value(c, name), name, 1, 4096)); };
  std::tie(k.tile_m, k.tile_n) = config_pair(c, "tile");
  k.tile_k = one("tile_k");
  std::tie(k.waves_m, k.waves_n) = config_pair(c, "waves");
  k.stages = one("stages");
  k.split_k = one("split_k");
  k.mapping = config_value(c, "mapping") == "n" ? codegen::Conv3dMapping::n_fastest : codegen::Conv3dMapping::m_fastest;
  k.lds_dma = config_value(c, "lds_dma") == "on" ? 1 : 0;
  return k;
}

// The plan, or the reason there is none (every limit of make_conv3d_plan plus the family's
// duplicate rules).
std::string plan_or_reason(const Problem& p, const Conv3dConfig& k, Arch arch, Conv3dPlan* out) {
  Conv3dPlan plan;
  if (std::string why = error_of([&] { plan = codegen::make_conv3d_plan(p.shape, p.dtype, arch, k); }); !why.empty())
    return why;
  if (plan.splits != k.split_k)
    return fmt::format("split_k {}: the {} K tiles of {} split into only {} ranges (same kernel as split_k {})", k.split_k,
                       plan.k_tiles, k.tile_k, plan.splits, plan.splits);
  if (k.mapping == codegen::Conv3dMapping::n_fastest && plan.tiles_n == 1)
    return fmt::format("mapping n: one N tile (K {} <= tile_n {}), same workgroup order as mapping m", p.shape.K,
                       k.tile_n);
  if (out) *out = plan;
  return "";
}

class Conv3dCandidate final : public BuiltCandidate {
 public:
  Conv3dCandidate(const Problem& p, const Conv3dPlan& plan, const BuildOptions& opts) : problem_(p), plan_(plan) {
    timed_build([&] {
      gemm_ = codegen::build_conv3d_igemm(plan_, opts);
      if (plan_.uses_workspace()) finalize_ = codegen::build_conv3d_finalize(plan_, opts);
    });
  }

  std::string check(Device& dev) override { return conv3d_check_small(dev, problem_.dtype, plan_); }
  // The whole operation on the problem: the input transpose (the same kernel for every
  // configuration, so built here and not per candidate), the GEMM and split-K's finalize.
  std::string verify(Device& dev) override {
    return conv3d_check(dev, problem_.dtype, plan_, {codegen::build_conv3d_transpose(plan_), gemm_, finalize_});
  }
  const BuildResult& kernel() const override { return gemm_; }

  LaunchSpec bind(Device& dev) override {
    const Conv3dShape& s = plan_.shape;
    codegen::Conv3dInputs in = codegen::conv3d_random_inputs(s, 21);
    auto bound = std::make_shared<BoundLaunch>(dev);
    std::vector<uint8_t> xt = codegen::conv3d_transpose_host(plan_, codegen::conv3d_pack_input(plan_, in.x));
    std::vector<uint8_t> wt = codegen::conv3d_pack_weights(plan_, in.w);
    xt.resize(xt.size() + Conv3dPlan::kZeroTailBytes, 0);  // the DMA path reads past the end
    wt.resize(wt.size() + Conv3dPlan::kZeroTailBytes, 0);
    std::vector<float> bias(size_t(s.K), 0.0f);
    if (s.bias) bias = in.bias;
    Buffer bxt = bound->upload(xt, "xt");
    Buffer bwt = bound->upload(wt, "wt");
    Buffer bb = bound->upload(bias, "bias");
    Buffer by = bound->alloc(size_t(s.output_elems()) * size_t(plan_.out_esize()), "y");
    Buffer workspace;
    if (plan_.uses_workspace())
      workspace = bound->upload(std::vector<float>(size_t(s.output_elems()), 0.0f), "workspace");
    DeviceKernel gemm = bound->load(gemm_.code_object, gemm_.name);
    LaunchSpec spec = bound_launch(bound, gemm, {plan_.grid[0], plan_.grid[1], plan_.grid[2]}, {uint32_t(plan_.threads)},
                                   KernelArgs().ptr(bxt).ptr(bwt).ptr(bb).ptr(plan_.uses_workspace() ? workspace : by));
    if (finalize_)
      spec.then.push_back(bound_launch(bound, bound->load(finalize_->code_object, finalize_->name),
                                       {codegen::conv3d_finalize_grid(plan_)}, {uint32_t(codegen::kConv3dAuxThreads)},
                                       KernelArgs().ptr(workspace).ptr(bb).ptr(by)));
    return spec;
  }

 private:
  std::string describe() const override { return kernel_stats_line(gemm_, plan_.arch, plan_.threads); }

  Problem problem_;
  Conv3dPlan plan_;
  BuildResult gemm_;
  std::optional<BuildResult> finalize_;
};

class Conv3dIgemmFamily final : public FamilyBase<Problem, Conv3dConfig> {
 public:
  std::string name() const override { return "conv3d_igemm"; }
  std::string description() const override {
    return "MFMA implicit-GEMM conv3d forward, bf16 / fp8 NCDHW (codegen/conv3d_igemm.hpp)";
  }
  std::vector<Param> space() const override {
    return {
        {"tile", {"64x64", "64x128", "128x64", "128x128", "128x256", "256x128"}, "output tile M x N (pixels x channels)"},
        {"tile_k", {"32", "64", "128", "256"}, "K tile in elements (a multiple of the MFMA K)"},
        {"waves", {"2x2", "2x4", "4x2"}, "waves per workgroup M x N"},
        {"stages", {"1", "2"}, "LDS stages (2: prefetch + double buffer)"},
        {"split_k", {"1", "2", "4"}, "K ranges summed with fp32 atomics, then a finalize kernel"},
        {"mapping", {"m", "n"}, "which tile index varies fastest with the workgroup id"},
        {"lds_dma", {"off", "on"}, "global -> LDS by DMA (gfx950)"},
    };
  }
  std::string problem_format() const override { return kProblemFormat; }
  std::string example_problem() const override { return "bf16 N1 C13 D3 H9 W9 K40 k3x3x3 s1,1,1 p1,1,1 d1,1,1"; }
  std::string default_problem() const override { return "seed"; }

 private:
  Problem parse(std::string_view text) const override { return parse_problem(text); }
  std::string canonical(const Problem& p) const override {
    codegen::make_conv3d_plan(p.shape, p.dtype, Arch::gfx950);  // validates the shape (configs are checked per arch)
    return p.str();
  }
  Conv3dConfig choose(const Config& c, const Problem&) const override { return to_config(c); }
  std::string invalid(const Problem& p, const Conv3dConfig& k, Arch arch) const override {
    return plan_or_reason(p, k, arch, nullptr);
  }
  std::unique_ptr<Candidate> make(const Problem& p, const Conv3dConfig& k, Arch arch,
                                  const BuildOptions& opts) const override {
    Conv3dPlan plan;
    if (std::string why = plan_or_reason(p, k, arch, &plan); !why.empty()) throw Error(why);
    return std::make_unique<Conv3dCandidate>(p, plan, opts);
  }
};

}  // namespace

const Family& conv3d_igemm_family() {
  static const Conv3dIgemmFamily f;
  return f;
}

}  // namespace cdnajit::tune
