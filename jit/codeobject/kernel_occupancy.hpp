// Occupancy of a kernel read from a code object: its descriptor/metadata counts put
// through the target's occupancy arithmetic (jit/isa/occupancy.hpp).
#pragma once
#include <cstdint>

#include "jit/codeobject/code_object.hpp"
#include "jit/isa/occupancy.hpp"

namespace cdnajit {

// The metadata's SGPR count without the SGPRs the hardware reserves for VCC, FLAT_SCRATCH and
// XNACK_MASK (isa::target::kReservedSgprs), which .sgpr_count includes (clang's and the JIT's
// alike) and isa::target::occupancy adds itself. Comparable with BuildResult.stats.sgprs.
int allocated_sgprs(const KernelInfo& k);

// Occupancy of a loaded kernel from its code object's metadata.
// `workgroup_size` 0 = the metadata's max_flat_workgroup_size (256 if absent).
isa::target::Occupancy code_object_occupancy(const KernelInfo& k, Arch arch, uint32_t workgroup_size = 0);

}  // namespace cdnajit
