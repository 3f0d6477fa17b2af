#include "jit/asm/mc_arch.hpp"

#include <array>
#include <mutex>

#include "jit/codeobject/target_id.hpp"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

namespace cdnajit {
namespace {

// Registers the AMDGPU target with LLVM's registry exactly once per process.
void initialize_amdgpu_target() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
  });
}

std::unique_ptr<ArchMC> make_arch_mc(Arch arch) {
  initialize_amdgpu_target();
  auto mc = std::make_unique<ArchMC>();
  std::string error;
  mc->target = llvm::TargetRegistry::lookupTarget(*mc->triple, error);
  if (!mc->target) {
    mc->setup_error = "LLVM has no AMDGPU target: " + error;
    return mc;
  }
  mc->register_info.reset(mc->target->createMCRegInfo(*mc->triple));
  if (mc->register_info)
    mc->asm_info.reset(mc->target->createMCAsmInfo(*mc->register_info, *mc->triple, *mc->options));
  mc->instr_info.reset(mc->target->createMCInstrInfo());
  mc->subtarget.reset(mc->target->createMCSubtargetInfo(*mc->triple, std::string(mcpu_name(arch)), ""));
  if (!mc->register_info || !mc->asm_info || !mc->instr_info || !mc->subtarget)
    mc->setup_error = "LLVM could not create the MC objects for " + std::string(mcpu_name(arch));
  return mc;
}

}  // namespace

ArchMC::ArchMC()
    : triple(std::make_unique<llvm::Triple>(std::string(kAmdgpuTriple))),
      options(std::make_unique<llvm::MCTargetOptions>()) {}
ArchMC::~ArchMC() = default;

const ArchMC& arch_mc(Arch arch) {
  thread_local std::array<std::unique_ptr<ArchMC>, 2> per_arch;
  auto& slot = per_arch[static_cast<size_t>(arch)];
  if (!slot) slot = make_arch_mc(arch);
  return *slot;
}

}  // namespace cdnajit
