// The MX-scaled GEMM family (codegen/gemm_mx.hpp, gfx950 only): output tile, waves, the MFMA
// block size, the pipeline (direct to registers, or the LDS read-ahead one with its K tile) and the
// workgroup order. The generator's plan (make_gemm_mx_plan) is the validity rule for every limit
// (arch, alignment, K a multiple of the MFMA's K, the read-ahead's layout limits); the build
// refuses a kernel whose registers do not let the workgroup's waves share the SIMDs.
//
// Problem text: "MxNxK [fp8|bf8|fp6|bf6|fp4] [f32|bf16] [mk|km]", e.g. "4096x4096x4096 fp4 f32 km"
// (MXFP8 E4M3, an fp32 output and mk scales by default).
//
// Check: the configuration runs a small problem of the same formats with a partial M and a
// partial N tile and two MFMA k-steps, and every element is compared with the fp64 reference
// within its stated bound (tools/jobs/gemm_mx_host.hpp). The bit-for-bit oracle (the clang-compiled
// HIP reference) stays in `cdnajit gemm-mx` and tests/codegen/test_gemm_mx.
//
// Timing: the GEMM launch of the full problem.
#include <fmt/format.h>

#include <cstdio>
#include <tuple>

#include "tools/jobs/gemm_mx_host.hpp"
#include "jit/isa/error.hpp"
#include "tools/tune_families/family_base.hpp"
#include "tools/tune_families/registry.hpp"

namespace cdnajit::tune {

namespace {

using codegen::GemmMxConfig;
using codegen::GemmMxPlan;
using codegen::GemmMxShape;

constexpr const char* kProblemFormat =
    "'MxNxK [fp8|bf8|fp6|bf6|fp4] [f32|bf16] [mk|km]', e.g. '4096x4096x4096 fp4 f32 km'";

GemmMxShape parse_problem(std::string_view text) {
  GemmMxShape s;
  char format[8] = "fp8", out[8] = "f32", scales[8] = "mk";
  const std::string t(text);
  if (std::sscanf(t.c_str(), "%dx%dx%d %7s %7s %7s", &s.M, &s.N, &s.K, format, out, scales) < 3)
    throw Error(fmt::format("gemm_mx problem '{}': expected {}", text, kProblemFormat));
  s.format = codegen::parse_mx_format(format);
  s.output = codegen::parse_gemm_mx_output(out);
  s.scales = codegen::parse_gemm_mx_scale_layout(scales);
  return s;
}

std::string problem_text(const GemmMxShape& s) {
  return fmt::format("{}x{}x{} {} {}{}", s.M, s.N, s.K, codegen::mx_format_name(s.format),
                     codegen::gemm_mx_output_name(s.output), s.scales == codegen::GemmMxScaleLayout::km ? " km" : "");
}

GemmMxConfig to_config(const Config& c) {
  GemmMxConfig k;
  std::tie(k.tile_m, k.tile_n) = config_pair(c, "tile");
  std::tie(k.waves_m, k.waves_n) = config_pair(c, "waves");
  k.mfma_m = std::stoi(config_value(c, "mfma"));
  k.read_ahead = config_value(c, "pipeline") == "lds";
  // direct has no K tile: its only valid tile_k value is the default 128 (256 is refused by the plan)
  const int tk = std::stoi(config_value(c, "tile_k"));
  k.tile_k = k.read_ahead || tk != 128 ? tk : 0;
  k.group_m = std::stoi(config_value(c, "group_m"));
  k.persistent = std::stoi(config_value(c, "persistent"));
  return k;
}

// Partial M and N tiles (M a multiple of 4: km scales with the LDS pipeline need it), two k-steps
// (two K tiles with the LDS pipeline), same formats and scale layout.
// Persistent workgroups take whole tiles only and at least 4 K tiles: three tiles along M (so
// P = 2 leaves one workgroup a single tile) and 4 K tiles instead.
GemmMxPlan check_plan(const GemmMxPlan& p) {
  GemmMxShape s = p.shape;
  const bool whole_tiles = p.cfg.persistent > 0;
  s.M = whole_tiles ? 3 * p.cfg.tile_m : p.cfg.tile_m + p.cfg.tile_m / 2 + 4;
  s.N = whole_tiles ? p.cfg.tile_n : p.cfg.tile_n + 8;
  s.K = (whole_tiles ? 4 : 2) * (p.cfg.read_ahead ? p.cfg.tile_k : p.mfma_k);
  return codegen::make_gemm_mx_plan(s, p.arch, p.cfg);
}

class GemmMxCandidate final : public BuiltCandidate {
 public:
  GemmMxCandidate(const GemmMxPlan& plan, const BuildOptions& opts) : plan_(plan) {
    timed_build([&] { kernel_ = codegen::build_gemm_mx(plan_, opts); });
  }

  std::string check(Device& dev) override {
    const GemmMxPlan small = check_plan(plan_);
    return run_and_compare(dev, small, codegen::build_gemm_mx(small));
  }
  std::string verify(Device& dev) override { return run_and_compare(dev, plan_, kernel_); }
  const BuildResult& kernel() const override { return kernel_; }

  LaunchSpec bind(Device& dev) override {
    const codegen::GemmMxInputs in = codegen::gemm_mx_random_inputs(plan_, 21);
    auto bound = std::make_shared<BoundLaunch>(dev);
    Buffer a = bound->upload(in.a, "a");
    Buffer b = bound->upload(in.b, "b");
    Buffer sa = bound->upload(in.sa, "sa");
    Buffer sb = bound->upload(in.sb, "sb");
    Buffer c = bound->alloc(size_t(plan_.c_bytes()), "c");
    DeviceKernel k = bound->load(kernel_.code_object, kernel_.name);
    return bound_launch(bound, k, {plan_.grid[0], plan_.grid[1], plan_.grid[2]}, {uint32_t(plan_.threads)},
                        KernelArgs().ptr(a).ptr(b).ptr(sa).ptr(sb).ptr(c));
  }

 private:
  std::string describe() const override {
    return fmt::format("{}; {}", plan_.mnemonic, kernel_stats_line(kernel_, plan_.arch, plan_.threads));
  }

  // Runs kernel `k` (built for `p`) on `dev` and checks every element against the fp64 reference
  // within its stated bound.
  static std::string run_and_compare(Device& dev, const GemmMxPlan& p, const BuildResult& k) {
    const codegen::GemmMxInputs in = codegen::gemm_mx_random_inputs(p, 23);
    const codegen::GemmMxRunResult r = codegen::run_gemm_mx_jit(dev, p, k, in);
    const codegen::GemmMxBoundCheck b = codegen::gemm_mx_check_bound(p, r.c, codegen::gemm_mx_reference_fp64(p, in));
    return b.ok() ? "" : fmt::format("{}: {}", p.shape.str(), b.describe());
  }

  GemmMxPlan plan_;
  BuildResult kernel_;
};

class GemmMxFamily final : public FamilyBase<GemmMxShape, GemmMxConfig> {
 public:
  std::string name() const override { return "gemm_mx"; }
  std::string description() const override {
    return "MX-scaled GEMM (gfx950): MXFP8/MXFP6/MXFP4 with E8M0 scales, fp32 accumulation (codegen/gemm_mx.hpp)";
  }
  std::vector<Param> space() const override {
    return {
        {"tile", {"64x64", "128x64", "64x128", "128x128", "256x128", "128x256", "256x256"}, "output tile M x N"},
        {"waves", {"1x1", "2x2", "2x4", "4x2"}, "waves per workgroup M x N"},
        {"mfma", {"16", "32"}, "scaled MFMA block: 16 (16x16x128) or 32 (32x32x64)"},
        {"pipeline", {"direct", "lds"},
         "direct: global -> MFMA registers; lds: DMA into swizzled LDS rows with the read-ahead schedule (mfma 16)"},
        {"tile_k", {"128", "256"}, "lds pipeline: K elements per LDS tile (one or two k-steps); direct takes 128 only (no K tile)"},
        {"group_m", {"0", "8"}, "workgroup order: 0 = 2-D grid, G = XCD-contiguous groups of G tile rows"},
        {"persistent", {"0", "2", "4"},
         "lds pipeline: persistent workgroups of P output tiles each, one K pipeline per workgroup (0 = one tile each)"},
    };
  }
  std::string problem_format() const override { return kProblemFormat; }
  std::string example_problem() const override { return "200x136x256 fp8 f32"; }
  // The generator's defaults (GemmMxConfig), as `cdnajit gemm-mx` uses them.
  std::string default_config(Arch) const override {
    return "tile=128x128,waves=2x2,mfma=16,pipeline=direct,tile_k=128,group_m=0,persistent=0";
  }

 private:
  GemmMxShape parse(std::string_view text) const override { return parse_problem(text); }
  std::string canonical(const GemmMxShape& s) const override {
    codegen::make_gemm_mx_plan(s, Arch::gfx950);  // validates the shape with the default configuration
    return problem_text(s);
  }
  GemmMxConfig choose(const Config& c, const GemmMxShape&) const override { return to_config(c); }
  std::string invalid(const GemmMxShape& s, const GemmMxConfig& k, Arch arch) const override {
    return error_of([&] { codegen::make_gemm_mx_plan(s, arch, k); });
  }
  std::unique_ptr<Candidate> make(const GemmMxShape& s, const GemmMxConfig& k, Arch arch,
                                  const BuildOptions& opts) const override {
    return std::make_unique<GemmMxCandidate>(codegen::make_gemm_mx_plan(s, arch, k), opts);
  }
};

}  // namespace

const Family& gemm_mx_family() {
  static const GemmMxFamily f;
  return f;
}

}  // namespace cdnajit::tune
