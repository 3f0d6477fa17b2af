#pragma once
// The in-place form of isa::print (machine_inst.hpp) for callers that print many instructions
// into one buffer (a kernel's .s text): no string per line or per operand.

#include <string>

#include "jit/isa/machine_inst.hpp"

namespace cdnajit::isa {

// Appends exactly what print(mi) returns.
void print_to(std::string& out, const MachineInst& mi);
// The same without the comment: what print(mi) returns up to its " ; " (all of it without a comment).
void print_instruction_to(std::string& out, const MachineInst& mi);

}  // namespace cdnajit::isa
