// The kernels the cdnajit command knows by name.
#pragma once
#include <string>
#include <vector>

#include "jit/kernel.hpp"

namespace cdnajit {

std::vector<std::string> builtin_kernel_names();
// Throws cdnajit::Error listing the valid names for an unknown one.
BuildResult build_builtin_kernel(const std::string& name, Arch arch, const BuildOptions& opts);

}  // namespace cdnajit
