// The kernels `cdnajit selftest` runs on a device and on the simulator: every registered family's
// kernel as `cdnajit job` makes it (tools/tune_families/registry.hpp: its default configuration on
// its example problem, verified against the family's reference), the clang-compiled HIP references
// beside the families (codegen/hip/*.hip) on reduced problems, and a small clang kernel that reads
// the clock (clock64()) around a dependent FMA chain. A set runs on whatever device it is given.
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
  std::string family;   // a registered family's name, or "clock"
  std::string problem;  // the problem (and configuration), as text
  // Builds the set's kernels and runs each once on `dev` (labelling each launch).
  std::function<void(SelftestDevice& dev)> run;
};

// The families' sets (those with a kernel for `arch`; the others named with the reason in
// `skipped`), then the HIP references and the clock probe.
std::vector<SelftestKernelSet> selftest_kernel_sets(Arch arch, std::vector<std::string>* skipped = nullptr);
// What `selftest --family` accepts: the registered families and "clock".
std::vector<std::string> selftest_set_names();

}  // namespace cdnajit::cli
