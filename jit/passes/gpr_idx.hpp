// VGPR indexing mode (s_set_gpr_idx_on ... s_set_gpr_idx_off) for the register analyses: while it
// is on, the VGPR operands of a vector ALU instruction in the slots M0[15:12] enables (SRC0, SRC1,
// SRC2, DST) are offset by the index in M0[7:0] (0..255; AMD CDNA3 ISA guide, S_SET_GPR_IDX_ON /
// VGPR indexing). The enables are tracked from the immediates of s_set_gpr_idx_on / _mode (any
// other M0 write makes them unknown); the index, an SGPR value, is not: an operand that may be
// offset is treated as touching every VGPR from the one it names up to v255, so the wait-count and
// hazard checks stay conservative (sound) for such code.
#pragma once
#include <cstdint>
#include <vector>

#include "jit/isa/machine_inst.hpp"
#include "jit/passes/cfg.hpp"
#include "jit/passes/regs.hpp"

namespace cdnajit::passes {

// Per instruction: the enables (bits 0..3: SRC0, SRC1, SRC2, DST) that may apply when it executes,
// 0 where the mode is off on every path from the entry (s_set_gpr_idx_on, or an s_setreg that may
// write MODE, not followed by s_set_gpr_idx_off).
std::vector<uint8_t> gpr_idx_enables(const std::vector<isa::MachineInst>& program, const Cfg& cfg,
                                     const std::vector<Access>& access);

// Widens the explicit VGPR operands of the vector ALU / MFMA instructions that may be offset (their
// slot may be enabled, or the operand has no SRC0/SRC1/SRC2/DST slot) to [named register, v255]. Returns the number of instructions widened.
size_t widen_gpr_indexed(const std::vector<isa::MachineInst>& program, const Cfg& cfg, std::vector<Access>& access);

}  // namespace cdnajit::passes
