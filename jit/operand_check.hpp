// Checks a builder call's operands against the instruction table and folds
// modifier operands (Offset, Lds, OpSel, ...) into isa::Modifiers.
#pragma once
#include <vector>

#include "jit/kernel_impl.hpp"

namespace cdnajit {

// Throws cdnajit::Error naming the instruction, the arch, the operand and the call site.
void check_and_fold_operands(const Kernel::Impl& k, const isa::InstrInfo& info, std::vector<Opnd> ops, IrInst& out);

// After register allocation and lowering, before either encoder: every instruction through
// isa::validate, the one legality check of both encoders (register alignment and ranges,
// operand classes, constant bus, literals, offsets: encoding_rules.hpp). Throws cdnajit::Error
// naming the builder call site, the instruction, what is wrong and what would be valid.
// first_same (isa/same_instruction.hpp): an instruction equal to an earlier one is not checked again.
void check_machine_program(const Kernel::Impl& k, const std::vector<isa::MachineInst>& prog,
                           const std::vector<uint32_t>& first_same);



}  // namespace cdnajit
