// Checks a builder call's operands against the instruction table and folds
// modifier operands (Offset, Lds, OpSel, ...) into isa::Modifiers.
#pragma once
#include <vector>

#include "jit/kernel_impl.hpp"

namespace cdnajit {

// Throws cdnajit::Error naming the instruction, the arch, the operand and the call site.
void check_and_fold_operands(const Kernel::Impl& k, const isa::InstrInfo& info, std::vector<Opnd> ops, IrInst& out);

// True if v is an AMDGPU inline constant for a 32-bit operand (integers -16..64).
bool is_inline_int(int64_t v);
// True if the f32 bit pattern is an inline float constant (0.5, 1, 2, 4 and negatives, 1/(2*pi)).
bool is_inline_f32(uint32_t bits);


}  // namespace cdnajit
