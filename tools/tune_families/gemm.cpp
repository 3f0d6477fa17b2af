// The MFMA GEMM family (codegen/gemm.hpp): output tile, K tile, waves, LDS stages and the MFMA
// block size. The generator's plan (make_gemm_plan) is the validity rule for every limit
// (registers, LDS, DS offsets, alignment, K a multiple of the K tile).
//
// Problem text: "MxNxK [NT|NN|TN|TT] [bf16|f16|f32] [bf16|f16|e4m3|e5m2] [bias=col] [act=relu|silu|gelu_tanh]",
// e.g. "4096x4096x4096 NT" (layout NT, bf16 output and bf16 inputs, no epilogue by default); alpha = 1, beta = 0.
//
// Check: the configuration runs a small problem of the same layout and output type sized to have
// a partial M tile and a partial N tile and two K tiles, and every element is compared with the
// fp64 reference within its stated bound (tools/jobs/gemm_host.hpp). The bit-for-bit oracle (the
// clang-compiled HIP reference) costs seconds of compilation per configuration, so it stays in
// tests/codegen/test_gemm.
//
// Timing: the GEMM launch of the full problem.
#include <fmt/format.h>

#include <cstdio>
#include <sstream>
#include <tuple>

#include "codegen/gemm.hpp"
#include "tools/jobs/gemm_host.hpp"
#include "jit/isa/error.hpp"
#include "tools/tune_families/family_base.hpp"
#include "tools/tune_families/registry.hpp"

namespace cdnajit::tune {

namespace {

using codegen::GemmConfig;
using codegen::GemmPlan;
using codegen::GemmShape;

constexpr const char* kProblemFormat =
    "'MxNxK [NT|NN|TN|TT] [bf16|f16|f32 output] [bf16|f16|e4m3|e5m2 input] [bias=col] [act=relu|silu|gelu_tanh]', "
    "e.g. '4096x4096x4096 NT'";

GemmShape parse_problem(std::string_view text) {
  GemmShape s;
  std::istringstream words{std::string(text)};
  std::string dims, w;
  char extra = 0;
  words >> dims;
  if (std::sscanf(dims.c_str(), "%dx%dx%d%c", &s.M, &s.N, &s.K, &extra) != 3)
    throw Error(fmt::format("gemm problem '{}': expected {}", text, kProblemFormat));
  int positional = 0;  // layout, output type, input type, in this order
  while (words >> w) {
    if (w.starts_with("bias=")) s.bias = codegen::parse_gemm_bias(w.substr(5));
    else if (w.starts_with("act=")) s.act = codegen::parse_gemm_activation(w.substr(4));
    else if (positional == 0 && ++positional) s.layout = codegen::parse_gemm_layout(w);
    else if (positional == 1 && ++positional) s.output = codegen::parse_gemm_output(w);
    else if (positional == 2 && ++positional) s.dtype = codegen::parse_gemm_dtype(w);
    else throw Error(fmt::format("gemm problem '{}': unexpected '{}'; expected {}", text, w, kProblemFormat));
  }
  return s;
}

std::string problem_text(const GemmShape& s) {
  std::string t =
      fmt::format("{}x{}x{} {} {}", s.M, s.N, s.K, codegen::gemm_layout_name(s.layout), codegen::gemm_output_name(s.output));
  if (s.dtype != codegen::GemmDType::bf16) t += fmt::format(" {}", codegen::gemm_dtype_name(s.dtype));
  if (s.bias != codegen::GemmBias::none) t += fmt::format(" bias={}", codegen::gemm_bias_name(s.bias));
  if (s.act != codegen::GemmActivation::none) t += fmt::format(" act={}", codegen::gemm_activation_name(s.act));
  return t;
}

GemmConfig to_config(const Config& c) {
  GemmConfig k;
  std::tie(k.tile_m, k.tile_n) = config_pair(c, "tile");
  k.tile_k = std::stoi(config_value(c, "tile_k"));
  std::tie(k.waves_m, k.waves_n) = config_pair(c, "waves");
  k.stages = std::stoi(config_value(c, "stages"));
  k.mfma_m = std::stoi(config_value(c, "mfma"));
  k.group_m = std::stoi(config_value(c, "group_m"));
  k.lds_dma = config_value(c, "dma") == "1";
  k.read_ahead = config_value(c, "read_ahead") == "1";
  k.lds_xor = config_value(c, "lds_xor") == "1";
  k.ra_split = std::stoi(config_value(c, "ra_split"));
  k.pingpong = config_value(c, "pingpong") == "1";
  return k;
}

// Partial M and N tiles, two K tiles, same layout and output type.
GemmPlan check_plan(const GemmPlan& p) {
  GemmShape s = p.shape;
  // a K-row operand (A K x M, B K x N) needs whole 16-byte chunks: M (N) a multiple of 16 / esize
  const int e = 16 / p.esize;
  auto whole = [&](int v, bool k_rows) { return k_rows ? (v + e - 1) / e * e : v; };
  s.M = whole(p.cfg.tile_m + p.cfg.tile_m / 2 + 3, codegen::gemm_a_k_rows(s.layout));
  s.N = whole(p.cfg.tile_n + 8, codegen::gemm_b_k_rows(s.layout));
  s.K = 2 * p.cfg.tile_k;
  return codegen::make_gemm_plan(s, p.arch, p.cfg);
}

class GemmCandidate final : public BuiltCandidate {
 public:
  GemmCandidate(const GemmPlan& plan, const BuildOptions& opts) : plan_(plan) {
    timed_build([&] { kernel_ = codegen::build_gemm(plan_, opts); });
  }

  std::string check(Device& dev) override {
    const GemmPlan small = check_plan(plan_);
    return run_and_compare(dev, small, codegen::build_gemm(small));
  }
  std::string verify(Device& dev) override { return run_and_compare(dev, plan_, kernel_); }
  const BuildResult& kernel() const override { return kernel_; }

  LaunchSpec bind(Device& dev) override {
    const codegen::GemmInputs in = codegen::gemm_random_inputs(plan_, 21);
    auto bound = std::make_shared<BoundLaunch>(dev);
    Buffer a = bound->upload(in.a, "a");
    Buffer b = bound->upload(in.b, "b");
    Buffer c = bound->alloc(size_t(plan_.c_bytes()), "c");
    KernelArgs args;
    args.ptr(a).ptr(b).ptr(c);
    if (plan_.shape.bias != codegen::GemmBias::none) args.ptr(bound->upload(in.bias, "bias"));
    DeviceKernel k = bound->load(kernel_.code_object, kernel_.name);
    return bound_launch(bound, k, {plan_.grid[0], plan_.grid[1], plan_.grid[2]}, {uint32_t(plan_.threads)}, args);
  }

 private:
  std::string describe() const override { return kernel_stats_line(kernel_, plan_.arch, plan_.threads); }

  // Runs kernel `k` (built for `p`) on `dev` and checks every element against the fp64 reference
  // within its stated bound.
  static std::string run_and_compare(Device& dev, const GemmPlan& p, const BuildResult& k) {
    const codegen::GemmInputs in = codegen::gemm_random_inputs(p, 23);
    const codegen::GemmRunResult r = codegen::run_gemm_jit(dev, p, k, in);
    const codegen::GemmBoundCheck b = codegen::gemm_check_bound(p, r.c, codegen::gemm_reference_fp64(p, in));
    return b.ok() ? "" : fmt::format("{}: {}", p.shape.str(), b.describe());
  }

  GemmPlan plan_;
  BuildResult kernel_;
};

class GemmFamily final : public FamilyBase<GemmShape, GemmConfig> {
 public:
  std::string name() const override { return "gemm"; }
  std::string description() const override {
    return "MFMA GEMM, bf16/f16/fp8 in, fp32 accumulation, bf16/f16/fp32 out, NT/NN/TN/TT (codegen/gemm.hpp)";
  }
  std::vector<Param> space() const override {
    return {
        {"tile", {"64x64", "128x64", "64x128", "128x128", "128x112", "256x128", "128x256", "256x256", "224x256"},
         "output tile M x N (224x256: 4096^2 in 19 x 16 = 304 tiles, 128x112: 2048^2 in 16 x 19 = 304 tiles, one per CU of a 304-CU gfx942 product)"},
        {"tile_k", {"32", "64", "128"}, "K tile in elements (a multiple of the MFMA K)"},
        {"waves", {"2x2", "2x4", "4x2", "4x1", "1x4"}, "waves per workgroup M x N (4x1: a 112-wide tile is 7 MFMA blocks, one wave along N)"},
        {"stages", {"1", "2", "3", "4"}, "LDS stages (2: next tile's loads in flight during the MFMAs; 3, 4: with dma)"},
        {"mfma", {"16", "32"}, "MFMA block: 16x16xK or 32x32xK"},
        {"dma", {"0", "1"}, "1: global -> LDS directly into XOR-swizzled rows (gfx950, NT, mfma 16)"},
        {"group_m", {"0", "4", "8"}, "workgroup order: 0 = 2-D grid (M fastest), G = XCD-contiguous groups of G tile rows"},
        {"read_ahead", {"0", "1"}, "1: quadrant MFMAs with the next fragments read between them (dma with 2 stages, or 1 stage without dma)"},
        {"lds_xor", {"0", "1"}, "1: unpadded LDS rows with XOR-swizzled 8-byte units (gfx942, NT, no dma; rows of 128 bytes or more)"},
        {"ra_split", {"1", "2"}, "read_ahead without dma: K sub-tiles per K tile (2: half the fragment registers)"},
        {"pingpong", {"0", "1"}, "1: 8-wave ping-pong, two wave groups alternating reads/loads and MFMAs (dma, 2 stages, 8 waves)"},
    };
  }
  std::string problem_format() const override { return kProblemFormat; }
  std::string example_problem() const override { return "200x136x128 NT bf16"; }
  // The generator's defaults (GemmConfig), as `cdnajit gemm` uses them.
  std::string default_config(Arch arch) const override {
    return fmt::format("tile=128x128,tile_k={},waves=2x2,stages=2,mfma=16,dma=0,group_m=0,read_ahead=0,lds_xor=0,ra_split=1,pingpong=0",
                       arch == Arch::gfx950 ? 64 : 32);
  }

 private:
  GemmShape parse(std::string_view text) const override { return parse_problem(text); }
  std::string canonical(const GemmShape& s) const override {
    // validates the shape with a configuration every valid shape admits (K tile 32 divides K or the error says so)
    GemmConfig c;
    c.tile_k = 32;
    codegen::make_gemm_plan(s, Arch::gfx942, c);
    return problem_text(s);
  }
  GemmConfig choose(const Config& c, const GemmShape&) const override { return to_config(c); }
  std::string invalid(const GemmShape& s, const GemmConfig& k, Arch arch) const override {
    return error_of([&] { codegen::make_gemm_plan(s, arch, k); });
  }
  std::unique_ptr<Candidate> make(const GemmShape& s, const GemmConfig& k, Arch arch,
                                  const BuildOptions& opts) const override {
    return std::make_unique<GemmCandidate>(codegen::make_gemm_plan(s, arch, k), opts);
  }
};

}  // namespace

const Family& gemm_family() {
  static const GemmFamily f;
  return f;
}

}  // namespace cdnajit::tune
