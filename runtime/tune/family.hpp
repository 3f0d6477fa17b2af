// A kernel family, as the tuner and every family-aware command (list, dump, build, stats, job,
// tune) see it: a declared configuration space (named parameters with their values), a problem
// text, validity rules, and a way to build a configuration for a problem. A built candidate
// hands out its kernel, checks itself against the family's reference on a small problem,
// verifies its own problem against that reference, and binds a launch of its problem for timing.
//
// A family implements this interface (through tools/tune_families/family_base.hpp) and is
// listed once in tools/tune_families/registry.cpp.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jit/isa/isa.hpp"
#include "jit/kernel.hpp"
#include "runtime/device.hpp"
#include "runtime/tune/time_source.hpp"

namespace cdnajit::tune {

struct Param {
  std::string name;
  std::vector<std::string> values;
  std::string doc;
};

// One value per parameter, in the order of the family's space.
using Config = std::vector<std::pair<std::string, std::string>>;
std::string config_str(const Config& c);  // "variant=lds_dot2,unroll=2"
// Parses config_str's format against a space; throws Error naming the unknown
// parameter or value and listing the valid ones.
Config parse_config(const std::vector<Param>& space, std::string_view text);
// The value of `name` in `c`; throws Error if absent.
const std::string& config_value(const Config& c, std::string_view name);

class Candidate {
 public:
  virtual ~Candidate() = default;
  // Runs the configuration on a small problem on `dev` and compares with the
  // family's reference. Returns "" when it matches, else what differs.
  virtual std::string check(Device& dev) = 0;
  // Runs the candidate's own problem (not a reduced one) on `dev` and compares every output
  // with the family's reference within the family's tolerance rule (`cdnajit job`). Returns ""
  // when it matches, else what differs.
  virtual std::string verify(Device& dev) = 0;
  // Uploads inputs for the full problem on `dev` and returns one launch of it
  // (buffers and module stay alive with the spec).
  virtual LaunchSpec bind(Device& dev) = 0;
  // The kernel the configuration generates for the problem (dump, build, stats); a family whose
  // operation chains kernels (split-K's finalize) hands out its main one.
  virtual const BuildResult& kernel() const = 0;
  // One line: registers, LDS, occupancy, build time.
  virtual std::string summary() const = 0;
};

class Family {
 public:
  virtual ~Family() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual std::vector<Param> space() const = 0;
  // The accepted problem text, e.g. "'MxNxK [NT|NN] [bf16|f32]'".
  virtual std::string problem_format() const = 0;
  // A problem small enough that `cdnajit job` runs and verifies it on the simulator in seconds.
  virtual std::string example_problem() const = 0;
  // The problem `tune` searches when none is given: the one the family is tuned for (the conv
  // families: their seed layer), by default the example problem.
  virtual std::string default_problem() const { return example_problem(); }
  // The configuration `job`, `dump`, `build` and `stats` start from (config_str text; --config
  // k=v overrides single values). "": the first valid one of the space for the problem.
  virtual std::string default_config(Arch) const { return ""; }
  // The canonical text of a problem (the database key); throws Error with the
  // accepted format for bad text.
  virtual std::string canonical_problem(std::string_view text) const = 0;
  // "" if the configuration is valid for the problem and arch, else why not.
  virtual std::string invalid_reason(const Config& c, const std::string& problem, Arch arch) const = 0;
  // Builds a configuration (called from several threads at once) with the build options' passes
  // (the tuner gives the defaults; dump/build/stats pass the command line's). Throws Error.
  virtual std::unique_ptr<Candidate> build(const Config& c, const std::string& problem, Arch arch,
                                           const BuildOptions& opts) const = 0;
  // With the default build options.
  std::unique_ptr<Candidate> build(const Config& c, const std::string& problem, Arch arch) const {
    return build(c, problem, arch, BuildOptions{});
  }
};

// "" when `config` (config_str text, e.g. read from the database) is a configuration of `f`'s
// space that is valid for the canonical `problem` on `arch`, else why not (the unknown
// parameter or value with the valid ones, or the family's validity rule).
std::string unusable_config_reason(const Family& f, std::string_view config, const std::string& problem, Arch arch);

// Every combination of the space's values, in order, split into the valid
// ones and the invalid ones with their reasons ("variant=lds_dot2: needs gfx950").
struct Enumeration {
  std::vector<Config> valid;
  std::vector<std::string> invalid;
};
Enumeration enumerate(const Family& f, const std::string& problem, Arch arch);

// The configuration a family-aware command uses: the family's default_config(arch) (or, when it
// gives none, the first valid configuration of the space for the canonical `problem`), with each
// "name=value" of `overrides` replacing one value. Throws Error naming an unknown parameter or
// value with the valid ones, a repeated parameter, or why the result is invalid for the problem
// on `arch`.
Config resolve_config(const Family& f, const std::vector<std::string>& overrides, const std::string& problem, Arch arch);

}  // namespace cdnajit::tune
