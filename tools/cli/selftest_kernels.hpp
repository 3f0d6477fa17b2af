// The kernels `cdnajit selftest` runs on a device and on the simulator: every family's default
// kernels (the depthwise conv3d variants, the implicit-GEMM conv3d, the conv backward-weight
// variants, the GEMM, the MX GEMM on gfx950) and the clang-compiled HIP references beside them
// (codegen/hip/*.hip), each on a reduced problem so that a simulator run takes milliseconds; and
// a small clang kernel that reads the clock (clock64()) around a dependent FMA chain.
// A set runs through codegen's own drivers on whatever device it is given.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "tools/cli/selftest_device.hpp"

namespace cdnajit::cli {

// An allocation of this name holds in-kernel clock values (one int64 per wave): the device's
// are its own clock, the simulator's the model's, so they are reported side by side, not
// compared bit for bit.
inline constexpr const char* kSelftestClockBuffer = "clock";

struct SelftestKernelSet {
  std::string family;   // "dwconv3d", "conv3d_igemm", "conv_bwd_weight", "gemm", "gemm_mx", "clock"
  std::string problem;  // the reduced problem, as text
  // Builds the set's kernels and runs each once on `dev` (labelling each launch).
  std::function<void(SelftestDevice& dev)> run;
};

std::vector<SelftestKernelSet> selftest_kernel_sets(Arch arch);

}  // namespace cdnajit::cli
