#include "tools/tune_families/registry.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "jit/isa/error.hpp"

namespace cdnajit::tune {

namespace {
// Add new families here.
std::vector<const Family*> all() { return {&dwconv3d_family(), &conv3d_igemm_family(), &conv_bwd_weight_family(), &gemm_family()}; }
}  // namespace

std::vector<std::string> family_names() {
  std::vector<std::string> n;
  for (const Family* f : all()) n.push_back(f->name());
  return n;
}

const Family& find_family(std::string_view name) {
  for (const Family* f : all())
    if (f->name() == name) return *f;
  throw Error(fmt::format("unknown kernel family '{}' (valid: {})", name, fmt::join(family_names(), ", ")));
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
