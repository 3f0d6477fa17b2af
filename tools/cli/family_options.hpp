// The options that name one kernel of a registered family (tools/tune_families/registry.hpp):
// the family, --config NAME=VALUE (repeatable; each overrides one value of the family's default
// configuration) and --problem TEXT (default: the family's example problem). Shared by job,
// dump, build and stats; resolved while the command line is parsed, so a bad family, problem,
// configuration key or value is a usage error (status 2) before any work.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "runtime/tune/family.hpp"
#include "tools/cli/app.hpp"

namespace cdnajit::cli {

struct FamilyKernelOptions {
  std::string family;               // "" = none given
  std::vector<std::string> config;  // NAME=VALUE, in order
  std::string problem;              // "" = the family's example problem
  // Filled by resolve():
  const tune::Family* resolved = nullptr;
  tune::Config chosen;
  std::string canonical_problem;

  bool given() const { return !family.empty(); }
  // Looks up the family, canonicalises the problem and resolves the configuration for `arch`
  // (tune::resolve_config). Throws Error naming what is wrong and what would be valid.
  void resolve(Arch arch);
  // Builds the resolved kernel with `opts` (resolve() must have run).
  std::unique_ptr<tune::Candidate> build(Arch arch, const BuildOptions& opts) const;
  // "family F, problem 'P', config k=v,..." for a heading.
  std::string str() const;
};

// --config and --problem (the family itself is the caller's: a positional word or --family).
void add_family_config_options(CLI::App* c, FamilyKernelOptions& o);

}  // namespace cdnajit::cli
