// Registers an instruction writes or reads without naming them as operands, per table row
// (instructions.def flags WRITES_SCC, READS_SCC, WRITES_EXEC, WRITES_M0, WRITES_MODE, READS_VCC and
// the VCMPX class), as LLVM 22 declares them in each instruction's MCInstrDesc implicit defs / uses
// (tests/isa/test_implicit_regs.cpp checks every row LLVM names alike). Every vector instruction also
// reads EXEC; the M0 reads are declared for the scalar rows only (the LDS rows' M0 reads are not listed here).
#pragma once
#include "jit/isa/isa.hpp"

namespace cdnajit::isa {

struct ImplicitRegs {
  bool writes_scc = false;   // SALU results, compares and carries
  bool reads_scc = false;    // s_cselect, s_cmov*, s_addc/s_subb, s_cbranch_scc*
  bool writes_exec = false;  // s_*_saveexec, s_*_wrexec, v_cmpx_*
  bool writes_m0 = false;    // s_set_gpr_idx_on / _idx / _mode
  bool writes_mode = false;  // s_setreg*, s_set_gpr_idx_*
  bool reads_m0 = false;     // scalar rows only: s_movrel* (M0 offsets the register), messages, s_set_gpr_idx_on/_idx
  bool reads_vcc = false;    // InstrInfo::reads_vcc
};

// The row's implicit registers (all false for an entry that is not a table row).
ImplicitRegs implicit_regs(const InstrInfo& row);

}  // namespace cdnajit::isa
