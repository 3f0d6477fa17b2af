// The wave-specialised family: grouped convolution backward-weight (codegen/conv_bwd_weight.hpp)
// in its three forms, baseline (one role of 4 waves) and the wavelet forms whose math/load wave
// ratio is 4:4 or 2:4 (jit/wave_roles.hpp), each with its output tile and split-K.
//
// Space: variant (the wave-role ratio) x tile (M = K rows x N = Y*X*C columns, 64 or 128 each)
// x split_k (the generator's whole range, powers of two 1..64). dW is fp32 (split-K adds with
// fp32 atomics; a 16-bit dW is a problem property the tuner does not choose).
// Validity: the generator's own rules (validate_bwd_weight: shape, tile, split-K, the (4,2)
// form's accumulator limit at 128x128) plus one duplicate rule: a split count above the problem's
// K tiles gives the same kernel as a smaller one (effective_splits).
//
// Problem text: "[bf16|f16] seed" (the wavelet seed's RetinaNet row C256 K256 13x13, 3x3, pad 1,
// stride 1, N = 1, G = 1) or BwdWeightShape::str()'s 2D format
// "N1 G1 C256 K256 13x13 f3x3 s1x1 p1x1 d1x1"; the dtype defaults to bf16.
//
// Check: the configuration runs a small problem of the same dtype, filter, stride, padding and
// dilation (K and C cut so both tile dimensions are partial, enough pixels for two K tiles per
// split), and every dW element is compared with the fp64 reference within the rigorous bound of
// an fp32 sum of exact products: |got - ref| <= (terms + splits) * 2^-24 * sum|products|
// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., eq. 3.5; bf16 x bf16 and
// f16 x f16 products are exact in fp32). A NaN or an unwritten element fails it.
//
// Timing: one launch of the full problem (dW zeroed once for split-K; the memset is not timed).
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <tuple>

#include "codegen/conv_bwd_weight.hpp"
#include "tools/jobs/conv_bwd_weight_host.hpp"
#include "jit/isa/error.hpp"
#include "tools/tune_families/conv_bwd_weight_check.hpp"
#include "tools/tune_families/family_base.hpp"
#include "tools/tune_families/registry.hpp"
#include "runtime/tune/problem_text.hpp"
#include "runtime/tune/checked_number.hpp"

namespace cdnajit::tune {

namespace {

using codegen::BwdWeightConfig;
using codegen::BwdWeightDType;
using codegen::BwdWeightShape;
using codegen::BwdWeightVariant;

struct Problem {
  BwdWeightDType dtype = BwdWeightDType::bf16;
  BwdWeightShape shape;
  std::string str() const { return fmt::format("{} {}", dtype == BwdWeightDType::f16 ? "f16" : "bf16", shape.str()); }
};

constexpr const char* kProblemFormat = "'[bf16|f16] seed' or '[bf16|f16] N1 G1 C256 K256 13x13 f3x3 s1x1 p1x1 d1x1'";

Problem parse_problem(std::string_view text) {
  Problem p;
  std::string t(text);
  for (auto [name, d] : {std::pair{"bf16 ", BwdWeightDType::bf16}, std::pair{"f16 ", BwdWeightDType::f16}})
    if (t.rfind(name, 0) == 0) {
      p.dtype = d;
      t = t.substr(std::string_view(name).size());
    }
  BwdWeightShape& s = p.shape;
  if (t == "seed") {
    s.N = 1, s.G = 1, s.C = 256, s.K = 256, s.Hi = s.Wi = 13, s.Y = s.X = 3;
    s.pad[0] = s.pad[1] = 1;
  } else {
    auto v = parse_problem_fields(t,
                                  "N{N} G{G} C{C} K{K} {Hi}x{Wi} f{Y:1024}x{X:1024} s{stride_h:1024}x{stride_w:1024} "
                                  "p{pad_h:1024}x{pad_w:1024} d{dil_h:1024}x{dil_w:1024}",
                                  "conv_bwd_weight");
    if (!v) throw Error(fmt::format("conv_bwd_weight problem '{}': expected {}", text, kProblemFormat));
    int* fields[] = {&s.N,         &s.G,         &s.C,      &s.K,      &s.Hi,     &s.Wi,     &s.Y,
                     &s.X,         &s.stride[0], &s.stride[1], &s.pad[0], &s.pad[1], &s.dil[0], &s.dil[1]};
    for (size_t i = 0; i < v->size(); ++i) *fields[i] = int((*v)[i]);
  }
  s.validate();
  return p;
}

BwdWeightVariant parse_variant(const std::string& v) {
  for (BwdWeightVariant x : codegen::kBwdWeightVariants)
    if (v == codegen::variant_name(x)) return x;
  throw Error(fmt::format("conv_bwd_weight: unknown variant '{}'", v));
}

struct Choice {
  BwdWeightVariant variant;
  BwdWeightConfig cfg;
};

Choice to_choice(const Config& c, BwdWeightDType dtype) {
  Choice k{parse_variant(config_value(c, "variant")), {}};
  std::tie(k.cfg.tile_m, k.cfg.tile_n) = config_pair(c, "tile");
  k.cfg.splits = int(parse_int(config_value(c, "split_k"), "split_k", 1, 4096));
  k.cfg.dtype = dtype;
  k.cfg.out_f32 = true;
  return k;
}

std::string invalid_choice(const Problem& p, const Choice& k) {
  if (std::string why = error_of([&] { codegen::validate_bwd_weight(p.shape, k.variant, k.cfg); }); !why.empty())
    return why;
  if (int eff = k.cfg.effective_splits(p.shape); eff < k.cfg.splits)
    return fmt::format("split_k {}: {} pixels make {} K tiles of {}, so only {} splits (same kernel as split_k {})",
                       k.cfg.splits, p.shape.gemm_k(), (p.shape.gemm_k() + codegen::kBwdTileK - 1) / codegen::kBwdTileK,
                       codegen::kBwdTileK, eff, eff);
  return "";
}

// The check's problem: same dtype, filter, stride, padding, dilation and depth parameters; K and
// C cut below 64 (partial M and N tiles), N = 1, G <= 2, and square inputs grown until there
// are two K tiles per split (every split reduces real pixels).
BwdWeightShape small_problem(const BwdWeightShape& full, int splits) {
  BwdWeightShape s = full;
  s.N = 1;
  s.G = std::min(full.G, 2);
  s.K = std::min(full.K, 36);
  s.C = std::min(full.C, 6);
  if (s.is_3d()) s.Di = std::min(full.Di, full.dil_d * (full.Z - 1) + 1 + full.stride_d);
  for (int h = 1; h <= 1024; ++h) {
    s.Hi = s.Wi = h;
    if (s.Ho() >= 1 && s.Wo() >= 1 && s.gemm_k() >= int64_t(2 * codegen::kBwdTileK) * splits) break;
  }
  s.validate();
  return s;
}

class BwdCandidate final : public BuiltCandidate {
 public:
  BwdCandidate(const Problem& p, const Choice& k, Arch arch, const BuildOptions& opts)
      : problem_(p), choice_(k), arch_(arch) {
    timed_build([&] { kernel_ = codegen::build_conv_bwd_weight(p.shape, k.variant, arch, k.cfg, opts); });
  }

  std::string check(Device& dev) override {
    BwdWeightShape s = small_problem(problem_.shape, choice_.cfg.splits);
    return run_and_compare(dev, s, codegen::build_conv_bwd_weight(s, choice_.variant, arch_, choice_.cfg));
  }
  std::string verify(Device& dev) override { return run_and_compare(dev, problem_.shape, kernel_); }
  const BuildResult& kernel() const override { return kernel_.build; }

  LaunchSpec bind(Device& dev) override {
    const BwdWeightShape& s = problem_.shape;
    codegen::BwdWeightInputs in = codegen::bwd_weight_random_inputs(s, problem_.dtype, 21);
    auto bound = std::make_shared<BoundLaunch>(dev);
    DeviceKernel k = bound->load(kernel_.build.code_object, codegen::kBwdWeightKernelName);
    Buffer x = bound->upload(in.x, "x");
    Buffer dy = bound->upload(in.dy, "dy");
    Buffer dw = bound->upload(std::vector<float>(size_t(s.dw_elems()), 0.0f), "dw");
    return bound_launch(bound, k, kernel_.grid, kernel_.block, KernelArgs().ptr(x).ptr(dy).ptr(dw));
  }

 private:
  std::string describe() const override {
    std::string roles;
    for (const RoleStats& r : kernel_.roles.roles)
      roles += fmt::format("{}{} x{} waves {} VGPRs", roles.empty() ? "" : ", ", r.name, r.waves, r.peak_vgprs);
    return fmt::format("{}; roles: {}", choice_.cfg.str(), roles);
  }

  // Runs kernel `k` (built for `s`) on `dev` and compares dW with the fp64 reference within its bound.
  std::string run_and_compare(Device& dev, const BwdWeightShape& s, const codegen::BwdWeightKernel& k) const {
    codegen::BwdWeightInputs in = codegen::bwd_weight_random_inputs(s, problem_.dtype, 31);
    std::vector<uint8_t> dw = codegen::run_bwd_weight(dev, k.build.code_object, codegen::kBwdWeightKernelName, k.grid,
                                                      k.block, s, in, 4, k.splits > 1);
    return bwd_weight_compare_fp64(s, in, codegen::bwd_weight_values(dw, 4, problem_.dtype), k.splits);
  }

  Problem problem_;
  Choice choice_;
  Arch arch_;
  codegen::BwdWeightKernel kernel_;
};

class ConvBwdWeightFamily final : public FamilyBase<Problem, Choice> {
 public:
  std::string name() const override { return "conv_bwd_weight"; }
  std::string description() const override {
    return "wave-specialised grouped conv backward-weight, bf16/f16 NHWGC, fp32 dW (codegen/conv_bwd_weight.hpp)";
  }
  std::vector<Param> space() const override {
    std::vector<std::string> variants;
    for (BwdWeightVariant v : codegen::kBwdWeightVariants) variants.emplace_back(codegen::variant_name(v));
    return {
        {"variant", variants, "wave roles: baseline (4 waves, one role), wavelet_4_4 / wavelet_4_2 (math:load waves 4:4 / 2:4)"},
        {"tile", {"64x64", "64x128", "128x64", "128x128"}, "dW tile M x N (K rows x Y*X*C columns)"},
        {"split_k", {"1", "2", "4", "8", "16", "32", "64"}, "pixel ranges summed into dW with fp32 atomics"},
    };
  }
  std::string problem_format() const override { return kProblemFormat; }
  std::string example_problem() const override { return "bf16 N1 G1 C40 K72 9x9 f3x3 s1x1 p1x1 d1x1"; }
  std::string default_problem() const override { return "seed"; }

 private:
  Problem parse(std::string_view text) const override { return parse_problem(text); }
  std::string canonical(const Problem& p) const override { return p.str(); }
  Choice choose(const Config& c, const Problem& p) const override { return to_choice(c, p.dtype); }
  std::string invalid(const Problem& p, const Choice& k, Arch) const override { return invalid_choice(p, k); }
  std::unique_ptr<Candidate> make(const Problem& p, const Choice& k, Arch arch, const BuildOptions& opts) const override {
    return std::make_unique<BwdCandidate>(p, k, arch, opts);
  }
};

}  // namespace

std::string bwd_weight_compare_fp64(const BwdWeightShape& s, const codegen::BwdWeightInputs& in, const std::vector<double>& got,
                    int splits) {
  std::vector<double> ref = codegen::bwd_weight_reference_fp64(s, in);
  codegen::BwdWeightInputs abs_in = in;
  for (auto* v : {&abs_in.x, &abs_in.dy})
    for (uint16_t& b : *v) b &= 0x7fff;  // |value|: bf16 and f16 keep the sign in bit 15
  std::vector<double> mag = codegen::bwd_weight_reference_fp64(s, abs_in);
  const double u = std::ldexp(1.0, -24);
  const double terms = double(s.gemm_k() + splits);
  for (size_t i = 0; i < ref.size(); ++i) {
    double bound = terms * u * mag[i];
    if (!(std::abs(got[i] - ref[i]) <= bound))
      return fmt::format("on {}: dW[{}] = {} but the fp64 reference is {} (bound {:.3g}, fp32 summation of {} terms)",
                         s.str(), i, got[i], ref[i], bound, s.gemm_k());
  }
  return "";
}

const Family& conv_bwd_weight_family() {
  static const ConvBwdWeightFamily f;
  return f;
}

}  // namespace cdnajit::tune
