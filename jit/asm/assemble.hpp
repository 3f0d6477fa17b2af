// In-process assembly of AMDGPU assembly text into a relocatable ELF object,
// using LLVM's MC layer (the same parser llvm-mc uses) for gfx942 / gfx950.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit {

// One message from the assembler. Lines and columns are 1-based and refer to
// the text passed to assemble(); line 0 means "no location" (e.g. a failure
// while writing the object). The builder maps lines back to its call sites.
struct AsmDiagnostic {
  int line = 0;
  int column = 0;
  std::string message;
  std::string line_text;  // the source line the message points into
  bool is_error = true;   // false for warnings and notes
};

struct AsmResult {
  bool ok = false;                          // true iff no error was reported
  std::vector<uint8_t> object;              // relocatable ELF (empty unless ok)
  std::vector<AsmDiagnostic> diagnostics;   // errors and warnings, in order
};

// Assembles `asm_text` for triple amdgcn-amd-amdhsa and the given arch.
// Never prints to stderr and never throws for bad assembly: problems come back
// as diagnostics. Thread-safe; a warm call reuses per-thread, per-arch MC
// objects (register info, asm info, subtarget, instruction info).
AsmResult assemble(std::string_view asm_text, Arch arch);

// "line 12:5: error: invalid operand\n    v_add_f32 v0, v1\n", one per diagnostic.
std::string format_diagnostics(const std::vector<AsmDiagnostic>& diagnostics);

}  // namespace cdnajit
