// The opcode enum and the class bits, generated from / derived from the instruction table.
// Opcode has one enumerator per row of instructions.def, in the file's order, so that every
// layer keys its per-instruction data (the simulator's semantics, identity tests in the passes)
// by a dense integer the compiler checks against the table, instead of a mnemonic string.
// Kept out of isa.hpp on purpose: only the files that use opcodes depend on instructions.def,
// so adding a row does not rebuild every file that includes the ISA vocabulary.
#pragma once
#include <cstddef>
#include <cstdint>

#include "jit/isa/isa.hpp"

namespace cdnajit::isa {

enum class Opcode : uint16_t {
#define CDNAJIT_INSTR(mnemonic, ...) mnemonic,
#include "jit/isa/instructions.def"
#undef CDNAJIT_INSTR
  Count  // not an instruction: the number of opcodes
};

constexpr size_t kOpcodeCount = size_t(Opcode::Count);

// Instruction classes as bits, declared per row in instructions.def's flags (MFMA_OP, XDL, ...; the
// TRANS flag is kClassTrans), so that passes test a bit instead of a string.
enum ClassBits : uint32_t {
  kClassMfma = 1u << 0,         // v_mfma_* / v_smfmac_* (matrix core; not v_accvgpr_*)
  kClassSmfmac = 1u << 1,       // sparse MFMA
  kClassDgemm = 1u << 2,        // v_mfma_f64_*
  kClassXdl = 1u << 3,          // gfx94x XDL MFMA (not f64, not the f32-input SMFMA-path forms)
  kClassDot = 1u << 4,          // v_dot*
  kClassVcmpx = 1u << 5,        // v_cmpx_* (writes EXEC)
  kClassTrans = 1u << 6,        // transcendental VALU
  kClassBranch = 1u << 7,       // SOPP branch with a label (s_branch, s_cbranch_*)
  kClassCondBranch = 1u << 8,   // conditional branch (s_cbranch_*)
  kClassTerminator = 1u << 9,   // ends the program's control flow (s_endpgm*, s_setpc_b64)
  kClassWaitcnt = 1u << 10,     // s_waitcnt (gfx9 combined form)
  kClassNop = 1u << 11,         // s_nop
  kClassLdsDma = 1u << 12,      // *_load_lds_*: global/scratch -> LDS
  kClassLaneShuffle = 1u << 13, // DS op that does not touch LDS memory (ds_bpermute/permute/swizzle, ds_nop)
};

// The row of an opcode (throws Error for Opcode::Count).
const InstrInfo& info(Opcode op);
// The opcode and the class bits of a table row (a copy is looked up by mnemonic; Opcode::Count
// and no classes for an entry that is not in the table).
Opcode opcode_of(const InstrInfo& row);
uint32_t classes_of(const InstrInfo& row);
inline bool is(const InstrInfo& row, uint32_t class_bits) { return (classes_of(row) & class_bits) != 0; }
inline bool is(const InstrInfo& row, Opcode op) { return opcode_of(row) == op; }

}  // namespace cdnajit::isa
