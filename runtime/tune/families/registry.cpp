#include "runtime/tune/families/registry.hpp"

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

}  // namespace cdnajit::tune
