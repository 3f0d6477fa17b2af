// Instruction classes the passes reason about, derived from the instruction table
// (isa::InstrInfo) and the mnemonic. One place so every rule agrees on "what is a VALU".
#pragma once
#include <initializer_list>
#include <string_view>

#include "jit/isa/machine_inst.hpp"
#include "jit/isa/opcode.hpp"

namespace cdnajit::passes {

// Whether `mi` is a table row with one of these opcodes (identity tests without mnemonic strings).
bool is_one_of(const isa::MachineInst& mi, std::initializer_list<isa::Opcode> ops);

// Mnemonic without the encoding suffix (_e32, _e64, _sdwa, _dpp).
std::string_view base_mnemonic(const isa::MachineInst& mi);

bool is_label(const isa::MachineInst& mi);
bool is_comment_line(const isa::MachineInst& mi);  // a Kernel::comment entry: no instruction
bool is_valu(const isa::MachineInst& mi);      // any vector ALU op, MFMA included (as LLVM's isVALU)
bool is_mfma(const isa::MachineInst& mi);      // v_mfma_* / v_smfmac_* (not v_accvgpr_*)
bool is_dgemm(const isa::MachineInst& mi);     // v_mfma_f64_*
bool is_xdl(const isa::MachineInst& mi);       // gfx94x XDL MFMA (not f64, not f32-input)
bool is_dot(const isa::MachineInst& mi);       // v_dot*
bool is_trans(const isa::MachineInst& mi);
bool is_salu(const isa::MachineInst& mi);      // SOP1/SOP2/SOPK/SOPC (not SOPP)
bool is_smem(const isa::MachineInst& mi);
bool is_ds(const isa::MachineInst& mi);
bool is_vmem(const isa::MachineInst& mi);      // MUBUF, GLOBAL, FLAT (scratch included)
bool is_flat(const isa::MachineInst& mi);      // FLAT segment (counts on vmcnt and lgkmcnt)
bool is_lds_dma(const isa::MachineInst& mi);   // buffer_load ... lds, global_load_lds_*
bool ds_accesses_lds(const isa::MachineInst& mi);  // DS op touching LDS memory (not bpermute/swizzle)
bool is_vcmpx(const isa::MachineInst& mi);
bool is_dpp(const isa::MachineInst& mi);
bool is_sdwa(const isa::MachineInst& mi);
bool is_waitcnt(const isa::MachineInst& mi);   // s_waitcnt (the gfx9 combined form)
bool is_nop(const isa::MachineInst& mi);
int mfma_passes(const isa::MachineInst& mi, Arch arch);  // from the table; 16 if unknown (conservative)

// Wait states an instruction provides to the ones after it: s_nop N gives N+1,
// labels and comment lines give 0, every other instruction 1.
int wait_states_of(const isa::MachineInst& mi);

enum class BranchKind { None, Uncond, Cond, End };
BranchKind branch_kind(const isa::MachineInst& mi);

}  // namespace cdnajit::passes
