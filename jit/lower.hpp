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
// Without `messages`, the names and call sites that only error messages quote are left
// empty (hundreds of strings per kernel); everything the allocator decides from is the same.
regalloc::Function to_regalloc_function(const Kernel::Impl& k,
                                        std::vector<std::pair<uint32_t, uint32_t>>* exec_skips = nullptr,
                                        bool messages = true);
// The same, written into `f` (overwritten): its lists keep their memory, so a thread that
// keeps one Function for all its builds allocates little here after the first.
void to_regalloc_function(const Kernel::Impl& k, std::vector<std::pair<uint32_t, uint32_t>>* exec_skips, bool messages,
                          regalloc::Function& f);
// Physical instructions; each keeps the index of its IrInst in `source`. Their comments
// (virtual register names and builder call site) are left empty: formatting them cost about
// half of the lowering, and a build that wants no .s text never reads them.
// `out` is overwritten; its entries' strings and operand lists are reused, so a thread that
// keeps one vector for all its builds allocates little here after the first.
void to_machine(const Kernel::Impl& k, const regalloc::Allocation& a, std::vector<isa::MachineInst>& out);
// Formats the comment of every instruction of `prog` lowered by to_machine() (entries the
// passes inserted keep their own). Idempotent.
void add_comments(const Kernel::Impl& k, std::vector<isa::MachineInst>& prog);

}  // namespace cdnajit
