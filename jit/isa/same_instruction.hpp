// Which entries of a program are the same instruction as an earlier one. A kernel repeats
// most of its instructions exactly (unrolled loops: the ping-pong GEMM has ~2,800
// instructions, ~700 distinct), and what the build does with an instruction after the
// passes — check that it is encodable, find its encoder template, print its text — depends
// on the instruction alone, not on its comment or position; those steps do the work once
// per distinct instruction and copy the answer to the repeats.
#pragma once
#include <cstdint>
#include <vector>

#include "jit/isa/machine_inst.hpp"

namespace cdnajit::isa {

// Equal in everything but the comment and the builder index (`source`): table row,
// mnemonic, operands, modifiers, raw text, label definition, address and size.
bool same_instruction(const MachineInst& a, const MachineInst& b);

// out[i] = the smallest j with same_instruction(prog[j], prog[i]) (i itself when none is earlier).
// What the build's steps rely on is weaker: out[i] is an entry at or before i equal to it (the
// passes keep such a list in step when they insert s_nop, each its own first).
void first_same_instruction(const std::vector<MachineInst>& prog, std::vector<uint32_t>& out);

}  // namespace cdnajit::isa
