// One answer to "does this operand fit this slot of this instruction?" for the
// builder (virtual registers, before allocation) and the physical validator
// (after allocation or on parsed text). Register range and alignment are the
// physical side's own check: virtual registers have no index yet.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "jit/isa/isa.hpp"
#include "jit/isa/machine_inst.hpp"

namespace cdnajit::isa {

// What an operand is, as far as fitting a slot goes.
struct OperandShape {
  enum class Class : uint8_t { Sgpr, Vgpr, Agpr, Special, Const, Label, Off };
  Class cls = Class::Const;
  int dwords = 1;             // Sgpr/Vgpr/Agpr tuple width; Special: filled in from the target facts
  SpecialReg special = SpecialReg::VCC;
  bool int_const = false;     // Const: an integer (otherwise a float constant)
  bool inline_const = false;  // Const: encodable as an inline constant
  int64_t imm = 0;            // Const: the integer

  static OperandShape reg(Class c, int dwords) { OperandShape s; s.cls = c; s.dwords = dwords; return s; }
  static OperandShape spec(SpecialReg r);
  static OperandShape constant(bool is_int, bool is_inline, int64_t imm = 0) {
    OperandShape s; s.int_const = is_int; s.inline_const = is_inline; s.imm = imm; return s;
  }
  static OperandShape of(Class c) { OperandShape s; s.cls = c; return s; }
};

// True if `o` fits slot `s` of `info`, `want_dwords` wide (0: any width). On false,
// `why` may hold the specific reason ("is 2 dword(s) wide but must be 1"); empty means
// the operand is simply of the wrong kind (see operand_kind_text).
bool operand_fits_slot(const InstrInfo& info, const OperandSpec& s, const OperandShape& o, int want_dwords,
                       std::string& why);

// Whether a constant in slot `s` of `info` is an inline constant (no literal dword): the integers
// -16..64 and the f32 inline values; a source read as 32-bit values (one dword, a VOP3P source,
// an MFMA srcC) also takes 0xffffffff..0xfffffff0 as -1..-16; an f16 source (OperandSpec::half_float)
// takes any value whose low half sign-extends to -16..64 and the f16 inline values.
bool is_inline_in_slot(const InstrInfo& info, const OperandSpec& s, bool is_int, int64_t imm);
// The range of a literal in slot `s`: 16-bit sources -32768..65535, others one dword.
bool literal_fits_slot(const OperandSpec& s, int64_t imm);

// The width of slot `s` under the instruction's modifiers: the table's, except the A and B
// sources of the gfx950 f8f6f4 MFMAs (the table marks them with srcc_may_overlap), whose widths
// follow their formats, CBSZ for src0 and BLGP for src1: 32 elements per lane, so fp8/bf8 8
// dwords, fp6/bf6 6, fp4 4 (LLVM 22's operand classes; llvm-mc-22 rejects any other width).
int slot_dwords(const InstrInfo& info, const OperandSpec& s, const Modifiers& m);

// "a VGPR, SGPR, special register or constant", for messages.
std::string_view operand_kind_text(OpKind k);

}  // namespace cdnajit::isa
