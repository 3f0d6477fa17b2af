// The JIT core's example kernels (codegen/examples): f32 vector add and the bf16 dot-product
// micro-kernel, as one family. Which kernel is part of the problem (they compute different
// things, so the tuner must not choose between them); the kernels have no tunable parameter, so
// the configuration space is empty (one configuration, "").
//
// Problem text: "vector_add n{N}" or "bf16_dot n{N}": N outputs (vector_add: out[i] = a[i] + b[i];
// bf16_dot: out[i] = the dot product of 8 bf16 pairs), launched as ceil(N / 256) workgroups of
// 256 threads.
//
// Reference: vector_add is compared bit for bit with the host's f32 sum (one rounding, the same
// on both); bf16_dot with the fp64 dot product within 8 * 2^-24 * sum|a b| + 2^-126 (at most 8
// roundings of a running sum bounded by sum|a b|: 8 fmac on gfx942, 4 dot2 on gfx950; products
// of bf16 values are exact in f32), since the gfx950 dot2 rounds its three-term sum once.
//
// Timing: one launch of the problem.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "codegen/bf16.hpp"
#include "codegen/dwconv3d.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "codegen/examples/examples.hpp"
#include "jit/isa/error.hpp"
#include "runtime/tune/problem_text.hpp"
#include "tools/tune_families/family_base.hpp"
#include "tools/tune_families/registry.hpp"

namespace cdnajit::tune {

namespace {

constexpr const char* kProblemFormat = "'vector_add n{N}' or 'bf16_dot n{N}': N outputs, e.g. 'bf16_dot n1000'";
constexpr uint32_t kThreads = 256;

struct Problem {
  std::string kernel;  // one of examples::kBuiltinNames
  uint32_t n = 0;
};
struct NoChoice {};

struct Inputs {
  std::vector<uint8_t> a, b;  // f32 (vector_add) or 8 bf16 per output (bf16_dot)
};

bool is_dot(const std::string& kernel) { return kernel == "bf16_dot"; }

Inputs random_inputs(const std::string& kernel, uint32_t n, uint64_t seed) {
  Inputs in;
  if (is_dot(kernel)) {
    for (auto [v, s] : {std::pair{&in.a, seed}, std::pair{&in.b, seed + 1}}) {
      std::vector<uint16_t> h = codegen::random_bf16(size_t(n) * examples::kDotElemsPerThread, s);
      v->resize(h.size() * 2);
      std::memcpy(v->data(), h.data(), v->size());
    }
    return in;
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  for (auto* v : {&in.a, &in.b}) {
    std::vector<float> f(n);
    for (float& x : f) x = d(rng);
    v->resize(size_t(n) * 4);
    std::memcpy(v->data(), f.data(), v->size());
  }
  return in;
}

// "" when `out` (n f32) matches the reference of `kernel` on `in`, else the first difference.
std::string compare(const std::string& kernel, uint32_t n, const Inputs& in, const std::vector<float>& out) {
  size_t bad = 0, first = 0;
  double first_want = 0, first_bound = 0;
  for (uint32_t i = 0; i < n; ++i) {
    double want = 0, bound = 0;
    bool ok;
    if (is_dot(kernel)) {
      double abs_sum = 0;
      for (uint32_t j = 0; j < examples::kDotElemsPerThread; ++j) {
        uint16_t a, b;
        std::memcpy(&a, &in.a[(size_t(i) * examples::kDotElemsPerThread + j) * 2], 2);
        std::memcpy(&b, &in.b[(size_t(i) * examples::kDotElemsPerThread + j) * 2], 2);
        const double p = double(codegen::bf16_to_f32(a)) * double(codegen::bf16_to_f32(b));
        want += p;
        abs_sum += std::fabs(p);
      }
      bound = 8 * std::ldexp(abs_sum, -24) + std::ldexp(1.0, -126);
      ok = std::fabs(double(out[i]) - want) <= bound;
    } else {
      float a, b;
      std::memcpy(&a, &in.a[size_t(i) * 4], 4);
      std::memcpy(&b, &in.b[size_t(i) * 4], 4);
      const float sum = a + b;
      want = sum;
      ok = std::memcmp(&sum, &out[i], 4) == 0;
    }
    if (!ok && bad++ == 0) first = i, first_want = want, first_bound = bound;
  }
  if (bad == 0) return "";
  return fmt::format("{} of {} outputs differ; first out[{}] = {} but the reference is {}{}", bad, n, first, out[first],
                     first_want, is_dot(kernel) ? fmt::format(" (bound {:.3g})", first_bound) : " (bit-exact f32 sum)");
}

class ExampleCandidate final : public BuiltCandidate {
 public:
  ExampleCandidate(std::string kernel, uint32_t n, Arch arch, const BuildOptions& opts)
      : kernel_name_(std::move(kernel)), n_(n) {
    timed_build([&] {
      Kernel k(kernel_name_, arch);
      examples::define_builtin(k, kernel_name_);
      build_ = k.build(opts);
    });
  }

  // The problem is already small (a few thousand outputs run in milliseconds).
  std::string check(Device& dev) override { return verify(dev); }
  std::string verify(Device& dev) override {
    const Inputs in = random_inputs(kernel_name_, n_, 5);
    Module m = dev.load(build_.code_object);
    Buffer a = dev.upload(std::span<const uint8_t>(in.a), "a");
    Buffer b = dev.upload(std::span<const uint8_t>(in.b), "b");
    Buffer out = dev.alloc(size_t(n_) * 4, "out");
    dev.launch(m.kernel(build_.name), grid(), {kThreads}, 0, KernelArgs().ptr(a).ptr(b).ptr(out).u32(n_));
    dev.synchronize();
    std::vector<float> got = dev.download<float>(out);
    for (const Buffer& x : {a, b, out}) dev.free(x);
    return compare(kernel_name_, n_, in, got);
  }
  const BuildResult& kernel() const override { return build_; }

  LaunchSpec bind(Device& dev) override {
    const Inputs in = random_inputs(kernel_name_, n_, 21);
    auto bound = std::make_shared<BoundLaunch>(dev);
    Buffer a = bound->upload(in.a, "a");
    Buffer b = bound->upload(in.b, "b");
    Buffer out = bound->alloc(size_t(n_) * 4, "out");
    DeviceKernel k = bound->load(build_.code_object, build_.name);
    return bound_launch(bound, k, grid(), {kThreads}, KernelArgs().ptr(a).ptr(b).ptr(out).u32(n_));
  }

 private:
  Dim3 grid() const { return {(n_ + kThreads - 1) / kThreads}; }
  std::string describe() const override { return codegen::format_build_stats(build_); }

  std::string kernel_name_;
  uint32_t n_;
  BuildResult build_;
};

class ExamplesFamily final : public FamilyBase<Problem, NoChoice> {
 public:
  std::string name() const override { return "examples"; }
  std::string description() const override {
    return "the JIT core's example kernels: f32 vector add, bf16 dot product (codegen/examples)";
  }
  std::vector<Param> space() const override { return {}; }
  std::string problem_format() const override { return kProblemFormat; }
  std::string example_problem() const override { return "bf16_dot n1000"; }

 private:
  Problem parse(std::string_view text) const override {
    const size_t space = text.find(' ');
    Problem p{std::string(text.substr(0, space)), 0};
    if (std::find(std::begin(examples::kBuiltinNames), std::end(examples::kBuiltinNames), p.kernel) ==
        std::end(examples::kBuiltinNames))
      throw Error(fmt::format("examples problem '{}': expected {}", text, kProblemFormat));
    auto v = parse_problem_fields(space == std::string_view::npos ? "" : text.substr(space + 1), "n{N}", "examples");
    if (!v) throw Error(fmt::format("examples problem '{}': expected {}", text, kProblemFormat));
    if ((*v)[0] < 1 || (*v)[0] > (int64_t(1) << 26))
      throw Error(fmt::format("examples problem '{}': N = {} (valid: 1..{})", text, (*v)[0], int64_t(1) << 26));
    p.n = uint32_t((*v)[0]);
    return p;
  }
  std::string canonical(const Problem& p) const override { return fmt::format("{} n{}", p.kernel, p.n); }
  NoChoice choose(const Config&, const Problem&) const override { return {}; }
  std::string invalid(const Problem&, const NoChoice&, Arch) const override { return ""; }
  std::unique_ptr<Candidate> make(const Problem& p, const NoChoice&, Arch arch, const BuildOptions& opts) const override {
    return std::make_unique<ExampleCandidate>(p.kernel, p.n, arch, opts);
  }
};

}  // namespace

const Family& examples_family() {
  static const ExamplesFamily f;
  return f;
}

}  // namespace cdnajit::tune
