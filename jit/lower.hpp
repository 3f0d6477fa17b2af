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
regalloc::Function to_regalloc_function(const Kernel::Impl& k);
// Physical instructions; `origin_of[i]` is the IrInst index each MachineInst came from.
std::vector<isa::MachineInst> to_machine(const Kernel::Impl& k, const regalloc::Allocation& a);

}  // namespace cdnajit
