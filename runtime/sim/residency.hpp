// Whether a workgroup of a launch can be resident on one compute unit, and how many can be at
// once: the kernel's register, LDS and wave use put through the target's occupancy arithmetic
// (jit/isa/occupancy.hpp, facts in jit/isa/target.hpp). A launch whose workgroup does not fit
// is refused, as a GPU refuses the dispatch (residency.cpp says how it fails there).
#pragma once
#include <cstdint>
#include <string>

#include "jit/codeobject/code_object.hpp"

namespace cdnajit::sim {

struct CuResidency {
  int waves_per_workgroup = 0;
  uint64_t workgroups_per_cu = 0;  // >= 1
  std::string why;                 // what the count is limited by, for messages
};

// Workgroups of `threads` work-items and `lds_bytes` of LDS (static + dynamic, at most the CU's)
// that one CU of `arch` holds at once. Throws LaunchError (Kind::OutOfResources) naming the
// kernel, its use, the limit and what would fit when not even one does.
CuResidency cu_residency(Arch arch, const KernelInfo& k, uint64_t threads, uint64_t lds_bytes);

}  // namespace cdnajit::sim
