#include "tools/cli/family_options.hpp"

#include <fmt/format.h>

#include "tools/tune_families/registry.hpp"

namespace cdnajit::cli {

void FamilyKernelOptions::resolve(Arch arch) {
  resolved = &tune::find_family(family);  // throws listing the families
  try {
    canonical_problem = resolved->canonical_problem(problem.empty() ? resolved->example_problem() : problem);
  } catch (const Error& e) {
    throw Error(fmt::format("--problem: {} (family {}: {})", e.what(), family, resolved->problem_format()));
  }
  chosen = tune::resolve_config(*resolved, config, canonical_problem, arch);
}

std::unique_ptr<tune::Candidate> FamilyKernelOptions::build(Arch arch, const BuildOptions& opts) const {
  if (!resolved) throw Error("internal: FamilyKernelOptions::build before resolve()");
  return resolved->build(chosen, canonical_problem, arch, opts);
}

std::string FamilyKernelOptions::str() const {
  return fmt::format("family {}, problem '{}', config {}", family, canonical_problem, tune::config_str(chosen));
}

void add_family_config_options(CLI::App* c, FamilyKernelOptions& o) {
  c->add_option("--config", o.config,
                "NAME=VALUE: one value of the family's configuration (repeatable; the rest from the family's "
                "default); see 'cdnajit list'")
      ->allow_extra_args(false);
  c->add_option("--problem", o.problem, "the family's problem text (default: its example problem; see 'cdnajit list')");
}

}  // namespace cdnajit::cli
