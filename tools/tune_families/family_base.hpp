// What every kernel family shares, so that a family states only what is its own: its
// problem text, what a configuration means for its generator, its validity rules, the kernels
// it builds, its check and the launch it times.
//
//   FamilyBase<Problem, Choice>  parses the problem and the configuration once per call, applies
//                                the family's validity rule, and builds only what is valid;
//   BuiltCandidate               times the candidate's build and appends it to its summary line;
//   BoundLaunch                  owns the modules and device buffers of a bound launch and frees
//                                the buffers when the last LaunchSpec holding it goes.
#pragma once
#include <chrono>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jit/isa/error.hpp"
#include "runtime/tune/family.hpp"

namespace cdnajit::tune {

// Problem: the family's parsed problem. Choice: what a configuration means to its generator.
template <class Problem, class Choice>
class FamilyBase : public Family {
 public:
  using Family::build;
  std::string canonical_problem(std::string_view text) const final { return canonical(parse(text)); }
  std::string invalid_reason(const Config& c, const std::string& problem, Arch arch) const final {
    Problem p = parse(problem);
    return invalid(p, choose(c, p), arch);
  }
  std::unique_ptr<Candidate> build(const Config& c, const std::string& problem, Arch arch,
                                   const BuildOptions& opts) const final {
    Problem p = parse(problem);
    Choice k = choose(c, p);
    if (std::string why = invalid(p, k, arch); !why.empty()) throw Error(why);
    return make(p, k, arch, opts);
  }

 protected:
  // The problem text parsed; throws Error with the accepted format for bad text.
  virtual Problem parse(std::string_view text) const = 0;
  // The canonical text of a parsed problem (the database key); throws Error for a problem the
  // generator rejects whatever the configuration.
  virtual std::string canonical(const Problem& p) const = 0;
  // The configuration's values read for the generator; throws Error for a malformed value.
  virtual Choice choose(const Config& c, const Problem& p) const = 0;
  // "" if the choice is valid for the problem on `arch`, else why not.
  virtual std::string invalid(const Problem& p, const Choice& k, Arch arch) const = 0;
  // Builds a valid choice with the build options (called from several threads at once).
  virtual std::unique_ptr<Candidate> make(const Problem& p, const Choice& k, Arch arch, const BuildOptions& opts) const = 0;
};

// "" when `f()` returns, else the message of the cdnajit::Error it throws: a generator's plan or
// validation used as a family's validity rule.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The two numbers of a configuration value "AxB" (a tile, a wave grid); Error when it is not that.
std::pair<int, int> config_pair(const Config& c, std::string_view name);

// A candidate whose summary line ends with its build time.
class BuiltCandidate : public Candidate {
 public:
  std::string summary() const final;

 protected:
  // Runs `build` (the candidate's kernel builds) and keeps its wall time for the summary.
  template <class F>
  void timed_build(F&& build) {
    auto t0 = std::chrono::steady_clock::now();
    build();
    build_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  // The summary without the build time: registers, LDS, occupancy, roles.
  virtual std::string describe() const = 0;

 private:
  double build_ms_ = 0;
};

// The modules and buffers of one bound launch (a LaunchSpec's keep_alive). Buffers are freed
// on the device when it is destroyed; the family decides the order of uploads and loads.
class BoundLaunch {
 public:
  explicit BoundLaunch(Device& dev) : dev_(dev) {}
  BoundLaunch(const BoundLaunch&) = delete;
  BoundLaunch& operator=(const BoundLaunch&) = delete;
  ~BoundLaunch();

  Device& device() const { return dev_; }
  template <class T>
  Buffer upload(const std::vector<T>& host, std::string name) {
    return keep(dev_.upload(std::span<const T>(host), std::move(name)));
  }
  Buffer alloc(size_t bytes, std::string name) { return keep(dev_.alloc(bytes, std::move(name))); }
  // Loads a code object (kept loaded as long as this) and returns its kernel `name`.
  DeviceKernel load(std::span<const uint8_t> code_object, std::string_view name);

 private:
  Buffer keep(const Buffer& b) {
    buffers_.push_back(b);
    return b;
  }
  Device& dev_;
  std::vector<Module> modules_;
  std::vector<Buffer> buffers_;
};

// "VGPR v AGPR a SGPR s LDS n B, w waves/SIMD" of built kernel `b` launched with `threads` per
// workgroup on `arch`, read from its code object (a candidate's summary).
std::string kernel_stats_line(const BuildResult& b, Arch arch, int threads);

// One launch of `kernel` on bound->device() whose arguments point into `bound`.
LaunchSpec bound_launch(const std::shared_ptr<BoundLaunch>& bound, const DeviceKernel& kernel, Dim3 grid, Dim3 block,
                        KernelArgs args);

}  // namespace cdnajit::tune
