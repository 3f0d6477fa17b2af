// The LLVM MC objects that do not depend on the text being assembled (target,
// register info, asm info, instruction info, subtarget), built once per thread
// and arch. Shared by the text assembler (assemble.cpp) and the direct MCInst
// encoder (mcinst_templates.cpp, direct_assemble.cpp). Private to jit/asm.
#pragma once
#include <memory>
#include <string>

#include "jit/codeobject/llvm_fwd.hpp"
#include "jit/isa/isa.hpp"

namespace cdnajit {

struct ArchMC {
  ArchMC();
  ~ArchMC();
  std::unique_ptr<llvm::Triple> triple;
  const llvm::Target* target = nullptr;
  std::unique_ptr<llvm::MCTargetOptions> options;
  std::unique_ptr<llvm::MCRegisterInfo> register_info;
  std::unique_ptr<llvm::MCAsmInfo> asm_info;
  std::unique_ptr<llvm::MCInstrInfo> instr_info;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
  std::string setup_error;  // non-empty if the target could not be created
};

// Per-thread, per-arch: sharing across threads would need a lock around every
// call, while a per-thread copy costs a few milliseconds once per thread.
// `arch` must be gfx942 or gfx950 (callers check first).
const ArchMC& arch_mc(Arch arch);

}  // namespace cdnajit
