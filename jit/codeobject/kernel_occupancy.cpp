#include "jit/codeobject/kernel_occupancy.hpp"

#include <algorithm>

#include "jit/isa/target.hpp"

namespace cdnajit {

int allocated_sgprs(const KernelInfo& k) { return std::max(0, int(k.sgpr_count) - isa::target::kReservedSgprs); }

isa::target::Occupancy code_object_occupancy(const KernelInfo& k, Arch arch, uint32_t workgroup_size) {
  if (workgroup_size == 0) workgroup_size = k.max_flat_workgroup_size ? k.max_flat_workgroup_size : 256;
  return isa::target::occupancy(arch, int(architectural_vgprs(k)), int(k.agpr_count), allocated_sgprs(k),
                                k.group_segment_size, workgroup_size);
}

}  // namespace cdnajit
