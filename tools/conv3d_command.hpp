// `cdnajit conv3d`: the implicit-GEMM conv3d seed job (see tools/conv3d_command.cpp).
#pragma once
#include "tools/cli_args.hpp"

namespace cdnajit {
// Returns 0 when every run is bit-exact with the HIP-MFMA reference, 1 otherwise.
int run_conv3d_command(const cli::Args& a);
}  // namespace cdnajit
