// One instruction with physical operands: the form shared by the builder after
// register allocation, the wait-count and hazard passes, the asm printer and
// the simulator's decoder (which parses LLVM's disassembly into it).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit::isa {

enum class RegFile : uint8_t { SGPR, VGPR, AGPR };

enum class SpecialReg : uint8_t {
  VCC, VCC_LO, VCC_HI, EXEC, EXEC_LO, EXEC_HI, M0, SCC,
  FLAT_SCRATCH, FLAT_SCRATCH_LO, FLAT_SCRATCH_HI, XNACK_MASK,
  SRC_SHARED_BASE, SRC_SHARED_LIMIT, SRC_PRIVATE_BASE, SRC_PRIVATE_LIMIT,
  SRC_POPS_EXITING_WAVE_ID, SRC_LDS_DIRECT, SRC_EXECZ, SRC_VCCZ, SRC_SCC,
};

struct Operand {
  enum class Kind : uint8_t {
    Reg,      // file + index + dwords: v5, s[4:7], a[0:3]
    Special,  // vcc, exec, m0, ...
    Imm,      // integer immediate / literal (raw 32- or 64-bit pattern in imm)
    FImm,     // float inline constant written as float text (0.5, -4.0, 1/(2*pi)): imm holds f32 bits
    Label,    // branch target name (builder) or absolute byte address (decoder: imm)
    Off,      // `off` (global saddr / MUBUF vaddr omitted)
  };
  Kind kind = Kind::Imm;
  RegFile file = RegFile::VGPR;
  SpecialReg special = SpecialReg::VCC;
  uint16_t index = 0;   // first register
  uint8_t dwords = 1;   // tuple width
  bool neg = false;     // -x   (VOP3 float source modifier)
  bool abs = false;     // |x|
  int64_t imm = 0;
  std::string label;

  static Operand reg(RegFile f, uint16_t index, uint8_t dwords = 1) {
    Operand o; o.kind = Kind::Reg; o.file = f; o.index = index; o.dwords = dwords; return o;
  }
  static Operand spec(SpecialReg s) { Operand o; o.kind = Kind::Special; o.special = s; return o; }
  static Operand immediate(int64_t v) { Operand o; o.kind = Kind::Imm; o.imm = v; return o; }
  static Operand off() { Operand o; o.kind = Kind::Off; return o; }
  static Operand target(std::string name) { Operand o; o.kind = Kind::Label; o.label = std::move(name); return o; }
};

// Modifiers after the operand list. Unset fields are not printed.
struct Modifiers {
  int32_t offset = 0;          // offset:N
  int32_t offset0 = 0, offset1 = 0;
  bool sc0 = false, sc1 = false, nt = false;  // gfx94x cache policy (glc/slc spelled sc0/sc1)
  bool lds = false, offen = false, idxen = false;
  bool clamp = false;
  uint8_t omod = 0;            // 0 none, 1 mul:2, 2 mul:4, 3 div:2
  uint8_t op_sel = 0, op_sel_hi = 0, neg_lo = 0, neg_hi = 0;  // bit i = source i
  bool op_sel_hi_set = false;  // op_sel_hi given explicitly (default is all ones for VOP3P)
  uint8_t cbsz = 0, abid = 0, blgp = 0;
  std::string extra;           // anything else, printed verbatim (e.g. sdwa selectors)
};

struct MachineInst {
  const InstrInfo* info = nullptr;  // null for raw text / pseudo (labels)
  std::string mnemonic;             // as printed, may carry _e32/_e64 suffix
  std::vector<Operand> operands;    // in asm order
  Modifiers mods;
  std::string comment;              // printed after ';' (virtual names, call site)
  std::string raw;                  // raw-instruction escape: printed verbatim when info == nullptr
  std::string label_def;            // non-empty: this entry is a label definition "name:" (no instruction)
  uint64_t address = 0;             // byte offset in .text (decoder only)
  uint8_t size_bytes = 0;           // encoded size (decoder only)
  // The builder: index of the IR instruction this was lowered from (-1: none). Its comment
  // is formatted from there only when text is wanted (jit/lower.hpp, add_comments).
  int32_t source = -1;
};

// Inline constants of 32-bit operands (no literal dword needed): integers -16..64 and the
// f32 values ±0.5, ±1, ±2, ±4 and 1/(2*pi), given as bit patterns.
bool is_inline_int(int64_t v);
bool is_inline_f32_bits(uint32_t bits);

// Printing and parsing of the LLVM AMDGPU assembly syntax (see asm_syntax.cpp).
std::string print_operand(const Operand& o);
std::string print(const MachineInst& mi);  // one line, no newline, comment included
// Parse one instruction line as printed by LLVM's disassembler or by print().
// Returns false and fills `error` on anything it does not understand.
// `out` is reset except address/size_bytes: set out.address first when parsing
// decoder output, because a numeric branch operand (LLVM-C prints the raw simm16)
// becomes a Label operand with imm = address + 4 + 4 * simm16 (absolute byte address),
// and print() turns it back into the simm16 using mi.address.
// info = find(mnemonic without _e32/_e64/_sdwa/_dpp), nullptr if not in the table.
bool parse(std::string_view line, MachineInst& out, std::string& error);

}  // namespace cdnajit::isa
