// The kernels the cdnajit command knows by name, and the seed job.
#pragma once
#include <string>
#include <vector>

#include "jit/kernel.hpp"
#include "tools/cli_args.hpp"

namespace cdnajit {

std::vector<std::string> builtin_kernel_names();
// Throws cdnajit::Error listing the valid names for an unknown one.
BuildResult build_builtin_kernel(const std::string& name, Arch arch, const BuildOptions& opts);
// `cdnajit seed`: the seed depthwise-conv3d job (build, dump .s, run, verify, stats).
int run_seed_command(const cli::Args& a);

}  // namespace cdnajit
