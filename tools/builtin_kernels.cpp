#include "tools/builtin_kernels.hpp"

#include "codegen/dwconv3d.hpp"
#include "codegen/examples/examples.hpp"

namespace cdnajit {

namespace {

const std::string kDwPrefix = "dwconv3d_seed.";

}  // namespace

std::vector<std::string> builtin_kernel_names() {
  std::vector<std::string> v(std::begin(examples::kBuiltinNames), std::end(examples::kBuiltinNames));
  for (const codegen::DwVariantInfo& d : codegen::dw_variants()) v.push_back(kDwPrefix + std::string(d.name));
  return v;
}

BuildResult build_builtin_kernel(const std::string& name, Arch arch, const BuildOptions& opts) {
  if (name.rfind(kDwPrefix, 0) == 0) {
    codegen::DwVariant v = codegen::parse_variant(name.substr(kDwPrefix.size()));
    return codegen::build_dwconv3d(codegen::seed_shape(), v, arch, opts);
  }
  Kernel k(name, arch);
  if (!examples::define_builtin(k, name)) {
    std::string valid;
    for (const std::string& n : builtin_kernel_names()) valid += (valid.empty() ? "" : ", ") + n;
    throw Error("unknown kernel '" + name + "' (valid: " + valid + ")");
  }
  return k.build(opts);
}

}  // namespace cdnajit
