// An MCCodeEmitter that remembers the bytes of every instruction it has encoded during one
// assembly and answers a repeated instruction from them. A kernel repeats many instructions
// exactly (the ping-pong GEMM: 2837 instructions, 689 distinct), and LLVM's AMDGPU emitter
// spends ~1,600 host instructions on each (multi-word APInt fields). The encoding of an
// instruction whose operands are registers and immediates is a function of the instruction
// and the subtarget alone, so the streamer receives the same bytes either way; instructions
// with an expression operand (labels) or whose encoding produced a fixup always go to LLVM's
// emitter. Private to jit/asm.
#pragma once
#include <memory>

#include "jit/codeobject/llvm_fwd.hpp"

namespace llvm {
class MCCodeEmitter;
}

namespace cdnajit {

// Wraps `inner` (owned); one instance per assembly (per MCContext).
std::unique_ptr<llvm::MCCodeEmitter> memo_code_emitter(std::unique_ptr<llvm::MCCodeEmitter> inner);

}  // namespace cdnajit
