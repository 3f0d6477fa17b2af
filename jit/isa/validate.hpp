// Checks one physical MachineInst against the instruction table: the entry
// exists on the arch, operand count, kinds, widths, register ranges and the
// gfx90a+ tuple alignment, and that only modifiers the entry accepts are set.
// Used by the verifier/simulator on decoded or builder-made instructions.
#pragma once
#include <string>

#include "jit/isa/machine_inst.hpp"

namespace cdnajit::isa {

// Returns true if `mi` is valid on `arch`; otherwise false with `error` saying
// what is wrong (operand index and name, what was found, what is valid).
// Then the instruction-level rules LLVM's assembler enforces (encoding_rules.hpp: constant
// bus, literals, offset ranges, MFMA srcC overlap, one register file for memory data).
// Not checked: the text in Modifiers::extra (DPP/SDWA controls, bitop3:).
bool validate(const MachineInst& mi, Arch arch, std::string& error);

// The modifier spellings of a ModBits set ("offset:, sc0/sc1/nt"), or "none".
std::string modifier_names(uint32_t bits);

}  // namespace cdnajit::isa
