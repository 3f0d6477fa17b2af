#include "tools/builtin_kernels.hpp"
#include "tools/model_cli.hpp"

#include <iostream>

#include "codegen/dwconv3d.hpp"
#include "codegen/examples/examples.hpp"
#include "codegen/seed_job.hpp"

namespace cdnajit {

namespace {

constexpr codegen::DwVariant kVariants[] = {codegen::DwVariant::lds_fmac, codegen::DwVariant::lds_dot2,
                                            codegen::DwVariant::row_interleaved};
const std::string kDwPrefix = "dwconv3d_seed.";

}  // namespace

std::vector<std::string> builtin_kernel_names() {
  std::vector<std::string> v(std::begin(examples::kBuiltinNames), std::end(examples::kBuiltinNames));
  for (codegen::DwVariant d : kVariants) v.push_back(kDwPrefix + std::string(codegen::variant_name(d)));
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

int run_seed_command(const cli::Args& a) {
  auto arch = parse_arch(a.get("--arch", "gfx950"));
  if (!arch) throw Error("unknown --arch '" + a.get("--arch", "") + "' (valid: gfx942, gfx950)");
  codegen::DwVariant v = a.has("--variant") ? codegen::parse_variant(a.get("--variant", ""))
                                            : codegen::default_variant(*arch);
  codegen::SeedJobOptions o;
  o.device = a.get("--device", "");
  o.channels = std::stoi(a.get("--channels", "0"));
  const int rc = codegen::run_seed_job(std::cout, *arch, v, a.get("--asm", "dwconv3d_seed_" + std::string(arch_name(*arch)) + ".s"), o);
  model_cli::print_seed(std::cout, *arch, v, a.get("--model", ""), a.get("--trace", ""));
  return rc;
}

}  // namespace cdnajit
