// Load-time check of a code object against the simulator: every instruction of
// every kernel is decoded and bound to semantics; the ones that are not (LLVM
// cannot decode the word, the simulator has no semantics for the mnemonic, or it
// refuses an operand or modifier form) are listed with kernel, pc and text, so a
// kernel can be rejected before a launch reaches them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "jit/codeobject/code_object.hpp"

namespace cdnajit::sim {

struct UnboundInstruction {
  std::string kernel;
  uint32_t pc = 0;  // byte offset from the kernel entry
  std::string text; // LLVM's disassembly (or <undecodable 0x...>)
  std::string reason;  // the run-time Error's text (says why, for rows refused on purpose)
};

// Every instruction of every kernel in `co` without simulator semantics, in code order.
// Padding after the last s_endpgm (s_nop 0 or zero words) is not listed.
std::vector<UnboundInstruction> unbound_instructions(const CodeObject& co);

// One line per instruction: "kernel K pc 0x1c: v_foo v0, v1 has no simulator semantics".
std::string format_unbound(const std::vector<UnboundInstruction>& list);

}  // namespace cdnajit::sim
