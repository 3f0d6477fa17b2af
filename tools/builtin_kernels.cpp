#include "tools/builtin_kernels.hpp"

#include "codegen/examples/examples.hpp"

namespace cdnajit {

std::vector<std::string> builtin_kernel_names() {
  std::vector<std::string> v(std::begin(examples::kBuiltinNames), std::end(examples::kBuiltinNames));
  return v;
}

BuildResult build_builtin_kernel(const std::string& name, Arch arch, const BuildOptions& opts) {
  Kernel k(name, arch);
  if (!examples::define_builtin(k, name)) {
    std::string valid;
    for (const std::string& n : builtin_kernel_names()) valid += (valid.empty() ? "" : ", ") + n;
    throw Error("unknown kernel '" + name + "' (valid: " + valid + ")");
  }
  return k.build(opts);
}

int run_seed_command(const cli::Args& a) {
  throw Error("seed job not wired yet");
}

}  // namespace cdnajit
