// Lowering of the builder's virtual program: to the register allocator's
// input, and (after allocation) to physical machine instructions.
#pragma once
#include <vector>

#include "jit/kernel_impl.hpp"
#include "jit/regalloc/regalloc.hpp"

namespace cdnajit {

// Fixes the ABI pins (workgroup id SGPRs depend on which ids are enabled).
void pin_abi_registers(Kernel::Impl& k);
// Blocks split at labels and after branches; uses/defs from the table's operand specs.
// `exec_skips` (optional) receives the taken edges (block, target) of
// s_cbranch_execz/execnz: they skip code only when no lane is active, which
// writes no lane of a VGPR either (used by the definedness check).
regalloc::Function to_regalloc_function(const Kernel::Impl& k,
                                        std::vector<std::pair<uint32_t, uint32_t>>* exec_skips = nullptr);
// Physical instructions; `origin_of[i]` is the IrInst index each MachineInst came from.
std::vector<isa::MachineInst> to_machine(const Kernel::Impl& k, const regalloc::Allocation& a);

}  // namespace cdnajit
