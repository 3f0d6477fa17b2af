#include "tools/tune_families/registry.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "jit/isa/error.hpp"

namespace cdnajit::tune {

// Each family's accessor, defined in its own file beside this one.
const Family& examples_family();         // examples.cpp: codegen/examples
const Family& conv3d_igemm_family();     // conv3d_igemm.cpp: codegen/conv3d_igemm.hpp
const Family& conv_bwd_weight_family();  // conv_bwd_weight.cpp: codegen/conv_bwd_weight.hpp
const Family& gemm_family();             // gemm.cpp: codegen/gemm.hpp
const Family& gemm_mx_family();          // gemm_mx.cpp: codegen/gemm_mx.hpp
// (dwconv3d_family: registry.hpp.)

// A new family: its accessor above and one entry here.
std::vector<const Family*> all_families() {
  return {&dwconv3d_family(), &conv3d_igemm_family(), &conv_bwd_weight_family(),
          &gemm_family(),     &gemm_mx_family(),     &examples_family()};
}

std::vector<std::string> family_names() {
  std::vector<std::string> n;
  for (const Family* f : all_families()) n.push_back(f->name());
  return n;
}

const Family& find_family(std::string_view name) {
  for (const Family* f : all_families())
    if (f->name() == name) return *f;
  throw Error(fmt::format("unknown kernel family '{}' (valid: {})", name, fmt::join(family_names(), ", ")));
}

std::string describe_family(const Family& f) {
  const std::string tuned = f.default_problem() == f.example_problem()
                               ? std::string()
                               : fmt::format("; tune's default: '{}'", f.default_problem());
  std::string s = fmt::format("{}: {}\n  problem: {} (example: '{}'{})\n", f.name(), f.description(), f.problem_format(),
                              f.example_problem(), tuned);
  const std::vector<Param> space = f.space();
  for (const Param& p : space) s += fmt::format("  {} = {{{}}}  {}\n", p.name, fmt::join(p.values, ", "), p.doc);
  if (space.empty()) s += "  (no configuration parameters)\n";
  return s;
}

void check_record(const PerfRecord& r) {
  const Family& f = find_family(r.key.family);
  auto arch = parse_arch(r.key.arch);
  if (!arch) throw Error(fmt::format("unknown arch '{}' (valid: gfx942, gfx950)", r.key.arch));
  const std::string canonical = f.canonical_problem(r.key.problem);
  if (canonical != r.key.problem)
    throw Error(fmt::format("problem '{}' is not in {}'s canonical form '{}' (the key a lookup uses)", r.key.problem,
                            f.name(), canonical));
  if (std::string why = unusable_config_reason(f, r.config, canonical, *arch); !why.empty())
    throw Error(fmt::format("config '{}' cannot be used for {} on {}: {}", r.config, f.name(), r.key.arch, why));
}

}  // namespace cdnajit::tune
