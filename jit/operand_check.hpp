// Checks a builder call's operands against the instruction table and folds
// modifier operands (Offset, Lds, OpSel, ...) into isa::Modifiers.
#pragma once
#include <vector>

#include "jit/kernel_impl.hpp"

namespace cdnajit {

// Throws cdnajit::Error naming the instruction, the arch, the operand and the call site.
void check_and_fold_operands(const Kernel::Impl& k, const isa::InstrInfo& info, std::vector<Opnd> ops, IrInst& out);



}  // namespace cdnajit
