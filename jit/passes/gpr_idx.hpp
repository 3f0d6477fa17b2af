// VGPR indexing mode (s_set_gpr_idx_on ... s_set_gpr_idx_off) for the register analyses: while it
// is on, the VGPR operands of a vector ALU instruction that M0[15:12] enables are offset by the
// index in M0[7:0] (0..255; AMD CDNA3 ISA guide, S_SET_GPR_IDX_ON / VGPR indexing; LLVM's
// SIInstrInfo models the indexed operand as reading or writing any VGPR). Neither the index nor
// the enables are tracked here: an instruction that may run with the mode on is treated as
// touching every VGPR from the one it names up to v255, so the wait-count and hazard checks stay
// conservative (sound) for such code.
#pragma once
#include <vector>

#include "jit/isa/machine_inst.hpp"
#include "jit/passes/cfg.hpp"
#include "jit/passes/regs.hpp"

namespace cdnajit::passes {

// Per instruction: 1 if VGPR indexing may be on when it executes (on some path from the entry an
// s_set_gpr_idx_on, or an s_setreg that may write MODE, is not followed by s_set_gpr_idx_off).
std::vector<char> gpr_idx_may_be_on(const std::vector<isa::MachineInst>& program, const Cfg& cfg);

// Widens the explicit VGPR operands of the vector ALU / MFMA instructions that may run indexed
// to [named register, v255]. Returns the number of instructions widened.
size_t widen_gpr_indexed(const std::vector<isa::MachineInst>& program, const Cfg& cfg, std::vector<Access>& access);

}  // namespace cdnajit::passes
