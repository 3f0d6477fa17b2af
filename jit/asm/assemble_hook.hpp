// The text assembler with extra directives whose statements the caller
// emits itself, straight into the object streamer: the direct MCInst path
// (direct_assemble.cpp) lets LLVM parse only the kernel's framing (header,
// descriptor, metadata, labels, instructions it cannot encode directly) and
// emits the instruction runs between them as MCInsts. Private to jit/asm.
#pragma once
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "jit/asm/assemble.hpp"
#include "jit/codeobject/llvm_fwd.hpp"

namespace cdnajit {

struct DirectiveHook {
  std::string_view name;  // lower case, with the dot: ".cdnajit_run"
  // Called once per statement, in text order. Returns true and fills `error` on failure.
  std::function<bool(llvm::MCStreamer&, llvm::MCContext&, std::string& error)> emit;
};

// assemble() with `hooks` (may be empty) registered on the parser.
AsmResult assemble_with_hooks(std::string_view asm_text, Arch arch, std::span<const DirectiveHook> hooks);

}  // namespace cdnajit
