// The depthwise conv3d family: its configuration space is the generator's
// variant, taken from codegen's one list (dw_variants(): arithmetic, LDS
// read/FMA schedule, KW_PACK and b64 reads are properties of a variant).
// The generator has no other free parameter today; a new one becomes a new
// Param here plus its rule in invalid_reason().
#include <fmt/format.h>

#include "codegen/dwconv3d.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "jit/isa/error.hpp"
#include "tools/tune_families/family_base.hpp"
#include "tools/tune_families/registry.hpp"
#include "runtime/tune/problem_text.hpp"

namespace cdnajit::tune {

namespace {

using codegen::DwConvShape;
using codegen::DwVariant;

constexpr const char* kProblemFormat = "'seed' or \"N1 C512 D61 H45 W80 k3x5x5 pad0,2,2\"";

DwConvShape parse_shape(std::string_view text) {
  if (text == "seed") return codegen::seed_shape();
  auto v = parse_problem_fields(
      text, "N{N} C{C} D{D} H{H} W{W} k{KD:1024}x{KH:1024}x{KW:1024} pad{padD:1024},{padH:1024},{padW:1024}", "dwconv3d");
  if (!v)
    throw Error(fmt::format("dwconv3d problem '{}': expected {}", text, kProblemFormat));
  DwConvShape s;
  int* fields[] = {&s.N, &s.C, &s.D, &s.H, &s.W, &s.KD, &s.KH, &s.KW, &s.padD, &s.padH, &s.padW};
  for (size_t i = 0; i < v->size(); ++i) *fields[i] = int((*v)[i]);
  return s;
}

// The correctness problem: the same filter, padding and row parity (so the
// same LDS load path), few channels and rows, so a simulator run takes
// milliseconds.
DwConvShape small_problem(const DwConvShape& p) {
  DwConvShape s = p;
  s.N = 1;
  s.C = std::min(p.C, 2);
  s.D = std::min(p.D, p.KD + 1);
  s.H = std::min(p.H, p.KH + 2);
  s.W = p.W <= 16 ? p.W : 16 + p.W % 2;
  return s;
}

class DwCandidate final : public BuiltCandidate {
 public:
  DwCandidate(DwConvShape s, DwVariant v, Arch a, const BuildOptions& opts) : shape_(s), variant_(v), arch_(a) {
    timed_build([&] { build_ = codegen::build_dwconv3d(s, v, a, opts); });
  }

  std::string check(Device& dev) override {
    const DwConvShape s = small_problem(shape_);
    return run_and_compare(dev, s, codegen::build_dwconv3d(s, variant_, arch_));
  }
  std::string verify(Device& dev) override { return run_and_compare(dev, shape_, build_); }
  const BuildResult& kernel() const override { return build_; }

  LaunchSpec bind(Device& dev) override {
    std::vector<uint16_t> x = codegen::random_bf16(size_t(shape_.input_elems()), 21);
    std::vector<uint16_t> w = codegen::random_bf16(size_t(shape_.weight_elems()), 22);
    auto bound = std::make_shared<BoundLaunch>(dev);
    DeviceKernel k = bound->load(build_.code_object, build_.name);
    Buffer in = bound->upload(x, "input");
    Buffer wt = bound->upload(w, "weight");
    Buffer out = bound->alloc(size_t(shape_.output_elems()) * 2, "output");
    return bound_launch(bound, k, {uint32_t(codegen::dwconv_geometry(shape_, arch_, variant_).grid_x)}, {256},
                        KernelArgs().ptr(in).ptr(wt).ptr(out));
  }

 private:
  std::string describe() const override { return codegen::format_build_stats(build_); }

  // Runs kernel `b` (this variant built for `s`) on `dev` with seeded inputs and compares its
  // bits with the host model of the same variant (the family's reference: same rounding order).
  std::string run_and_compare(Device& dev, const DwConvShape& s, const BuildResult& b) const {
    Module m = dev.load(b.code_object);
    DeviceKernel k = m.kernel(b.name);
    std::vector<uint16_t> x = codegen::random_bf16(size_t(s.input_elems()), 11);
    std::vector<uint16_t> w = codegen::random_bf16(size_t(s.weight_elems()), 12);
    Buffer in = dev.upload(std::span<const uint16_t>(x), "input");
    Buffer wt = dev.upload(std::span<const uint16_t>(w), "weight");
    Buffer out = dev.alloc(size_t(s.output_elems()) * 2, "output");
    dev.launch(k, {uint32_t(codegen::dwconv_geometry(s, arch_, variant_).grid_x)}, {256}, 0,
               KernelArgs().ptr(in).ptr(wt).ptr(out));
    dev.synchronize();
    std::vector<uint16_t> got = dev.download<uint16_t>(out);
    // The simulator's default dot2 rounding (sim::Options) is the fused single rounding.
    std::vector<uint16_t> want = codegen::dwconv3d_model(s, variant_, arch_, x, w);
    for (const Buffer& b2 : {in, wt, out}) dev.free(b2);
    codegen::BitCompare c = codegen::compare_bits(got, want);
    return c.equal() ? "" : fmt::format("on {}: {}", s.str(), codegen::describe_mismatch(c, s));
  }

  DwConvShape shape_;
  DwVariant variant_;
  Arch arch_;
  BuildResult build_;
};

class DwConv3dFamily final : public FamilyBase<DwConvShape, DwVariant> {
 public:
  std::string name() const override { return "dwconv3d"; }
  std::string description() const override {
    return "bf16 NCDHW depthwise conv3d (groups = C, stride 1), codegen/dwconv3d.hpp";
  }
  std::vector<Param> space() const override {
    std::vector<std::string> names;
    for (const codegen::DwVariantInfo& v : codegen::dw_variants()) names.emplace_back(v.name);
    return {{"variant", names, "the generator's variant (codegen/dwconv3d_shape.hpp, dw_variants())"}};
  }
  std::string problem_format() const override { return kProblemFormat; }
  std::string example_problem() const override { return "N1 C2 D4 H7 W16 k3x5x5 pad0,2,2"; }
  std::string default_problem() const override { return "seed"; }
  std::string default_config(Arch arch) const override {
    return fmt::format("variant={}", codegen::variant_name(codegen::default_variant(arch)));
  }

 private:
  DwConvShape parse(std::string_view text) const override { return parse_shape(text); }
  std::string canonical(const DwConvShape& s) const override {
    codegen::dwconv_geometry(s, Arch::gfx950);  // validates the fields (the arch limit is checked per config)
    return s.str();
  }
  DwVariant choose(const Config& c, const DwConvShape&) const override {
    return codegen::parse_variant(config_value(c, "variant"));
  }
  std::string invalid(const DwConvShape& s, const DwVariant& v, Arch arch) const override {
    if (!codegen::variant_available(v, arch))
      return fmt::format("{} is not available on {} (v_dot2_f32_bf16 needs gfx950)", codegen::variant_name(v),
                         arch_name(arch));
    return error_of([&] { codegen::dwconv_geometry(s, arch, v); });
  }
  std::unique_ptr<Candidate> make(const DwConvShape& s, const DwVariant& v, Arch arch,
                                  const BuildOptions& opts) const override {
    return std::make_unique<DwCandidate>(s, v, arch, opts);
  }
};

}  // namespace

const Family& dwconv3d_family() {
  static const DwConv3dFamily f;
  return f;
}

}  // namespace cdnajit::tune
