// Instruction-level legality beyond each operand's kind and width (validate.cpp checks
// those): the rules LLVM's AMDGPU assembler enforces on gfx942/gfx950 when it matches and
// validates an instruction (AMDGPUAsmParser::validateInstruction and the operand classes
// of its matcher) — the VALU constant-bus limit, literal constants (VOP3 has none on gfx9,
// one unique literal per instruction, 32-bit values), encoded offset ranges, MFMA srcC
// overlap, one register file for a memory instruction's data and result.
// Private to validate(); tests/isa/test_legality_diff.cpp holds these against LLVM.
#pragma once
#include <optional>
#include <span>
#include <string>

#include "jit/isa/machine_inst.hpp"

namespace cdnajit::isa {

// `slots[i]` is the table slot operand i fills (validate() resolves the returning-atomic
// and LDS-DMA forms). Returns false with `why` saying what is wrong and what is valid.
bool check_encoding_rules(const MachineInst& mi, std::span<const OperandSpec* const> slots, std::string& why);

// The encodable range of a memory row's offset: field (pair = false) or of each of its
// offset0:/offset1: fields (pair = true); nullopt when the row's family has no such field.
// The builder checks a call's Offset against it at the call (jit/operand_check.cpp).
struct OffsetRange {
  int64_t lo, hi;
  const char* what;  // "a 16-bit unsigned offset (0..65535)"
};
std::optional<OffsetRange> offset_range(const InstrInfo& info, bool pair);

}  // namespace cdnajit::isa
