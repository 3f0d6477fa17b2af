#include "jit/isa/encoding_rules.hpp"

#include <string_view>

#include "jit/isa/operand_fit.hpp"

namespace cdnajit::isa {
namespace {

// Encoded field ranges of the offsets (CDNA3 ISA guide, "Microcode formats": DS OFFSET0/1
// 8 bits each, or one 16-bit OFFSET; FLAT OFFSET 13 bits, signed for the global and scratch
// segments and unsigned 12 bits for flat; MUBUF OFFSET 12 bits unsigned; SMEM OFFSET 21 bits,
// signed except for the s_buffer_* forms, which take 20 bits unsigned). LLVM's assembler
// reports "expected a N-bit (un)signed offset" outside them.
using Range = OffsetRange;
constexpr Range kDsOffset{0, 0xffff, "a 16-bit unsigned offset (0..65535)"};
constexpr Range kDsOffset01{0, 0xff, "an 8-bit unsigned offset (0..255)"};
constexpr Range kFlatOffset{0, 0xfff, "a 12-bit unsigned offset (0..4095)"};
constexpr Range kGlobalOffset{-0x1000, 0xfff, "a 13-bit signed offset (-4096..4095)"};
constexpr Range kMubufOffset{0, 0xfff, "a 12-bit unsigned offset (0..4095)"};
constexpr Range kSmemOffset{-0x100000, 0xfffff, "a 21-bit signed offset (-1048576..1048575)"};
constexpr Range kSmemBufferOffset{0, 0xfffff, "a 20-bit unsigned offset (0..1048575)"};
// A literal constant is one dword: a 32-bit pattern, written signed or unsigned (a 16-bit
// source's: operand_fit.hpp literal_fits_slot).
constexpr Range kLiteral{-0x80000000LL, 0xffffffffLL, "a 32-bit value (-2147483648..4294967295)"};
// The VALU reads at most one scalar value (SGPR, special register or literal) per
// instruction on gfx9 (LLVM: getConstantBusLimit is 1 before gfx10).
constexpr int kConstantBusLimit = 1;

bool in(const Range& r, int64_t v) { return v >= r.lo && v <= r.hi; }

bool is_valu(Family f) {
  return f == Family::VOP1 || f == Family::VOP2 || f == Family::VOPC || f == Family::VOP3 || f == Family::VOP3P ||
         f == Family::MFMA;
}
bool is_memory(Family f) {
  return f == Family::DS || f == Family::FLAT || f == Family::GLOBAL || f == Family::SCRATCH || f == Family::MUBUF;
}

// A constant that needs the literal dword: not an inline constant, or any value of an
// Imm slot (v_fmaak's K is always a literal).
bool is_literal(const InstrInfo& info, const Operand& o, const OperandSpec& s) {
  if (o.kind != Operand::Kind::Imm && o.kind != Operand::Kind::FImm) return false;
  if (s.kind == OpKind::Simm16 || s.kind == OpKind::Label) return false;  // fields of the instruction word
  return s.kind == OpKind::Imm || !is_inline_in_slot(info, s, o.kind == Operand::Kind::Imm, o.imm);
}

bool is_vcc(const Operand& o) { return o.kind == Operand::Kind::Special && o.special == SpecialReg::VCC; }

// VOP1/VOP2/VOPC rows have a 32-bit encoding; the assembler uses the 64-bit VOP3 one when
// the operands or modifiers need it, and VOP3 takes no literal on gfx9. `why` names the reason.
bool needs_vop3(const MachineInst& mi, std::span<const OperandSpec* const> slots, std::string& reason) {
  const Family f = mi.info->family;
  if (f != Family::VOP1 && f != Family::VOP2 && f != Family::VOPC) return true;
  std::string_view m = mi.mnemonic;
  if (m.size() > 4 && m.substr(m.size() - 4) == "_e64") return reason = "it is written _e64", true;
  const Modifiers& mods = mi.mods;
  if (mods.clamp || mods.omod || mods.op_sel) return reason = "of its clamp/omod/op_sel modifier", true;
  for (size_t i = 0; i < mi.operands.size(); ++i) {
    const Operand& o = mi.operands[i];
    const OperandSpec& s = *slots[i];
    if (o.neg || o.abs) return reason = "of its neg/abs modifier", true;
    // 32-bit forms: src1 is a VGPR; a carry-out, carry-in, lane mask or compare result is vcc.
    if (s.name == "src1" && !(o.kind == Operand::Kind::Reg && o.file == RegFile::VGPR))
      return reason = "src1 is not a VGPR", true;
    if (s.kind == OpKind::SReg && s.dwords == 2 && !is_vcc(o))
      return reason = "operand '" + std::string(s.name) + "' is not vcc", true;
  }
  return false;
}

std::string scalar_name(const Operand& o) {
  Operand bare = o;
  bare.neg = bare.abs = false;
  return print_operand(bare);
}

}  // namespace

std::optional<OffsetRange> offset_range(const InstrInfo& info, bool pair) {
  switch (info.family) {
    case Family::DS: return pair ? kDsOffset01 : kDsOffset;
    case Family::FLAT: return pair ? std::nullopt : std::optional(kFlatOffset);
    case Family::GLOBAL:
    case Family::SCRATCH: return pair ? std::nullopt : std::optional(kGlobalOffset);
    case Family::MUBUF: return pair ? std::nullopt : std::optional(kMubufOffset);
    default: return std::nullopt;
  }
}

bool check_encoding_rules(const MachineInst& mi, std::span<const OperandSpec* const> slots, std::string& why) {
  const InstrInfo& info = *mi.info;
  const Family f = info.family;
  const Modifiers& mods = mi.mods;

  // Offsets the encoding can hold.
  auto offset_fits = [&](const Range& r, int64_t v, const char* name) {
    if (in(r, v)) return true;
    why = std::string(name) + std::to_string(v) + " does not fit the encoding (valid: " + r.what + ")";
    return false;
  };
  if (auto r = offset_range(info, false); r && !offset_fits(*r, mods.offset, "offset:")) return false;
  if (auto r = offset_range(info, true);
      r && !(offset_fits(*r, mods.offset0, "offset0:") && offset_fits(*r, mods.offset1, "offset1:")))
    return false;

  // SMEM: the cache policy is glc (sc0) alone; results and data are SGPRs or vcc (not m0 or exec).
  if (f == Family::SMEM && (mods.sc1 || mods.nt)) {
    why = "scalar memory takes no sc1/nt (valid: glc)";
    return false;
  }
  for (size_t i = 0; i < mi.operands.size(); ++i) {
    const Operand& o = mi.operands[i];
    const OperandSpec& s = *slots[i];
    // A VALU's one-dword scalar result (v_readlane, v_readfirstlane) is not m0 (LLVM: SReg_32_XM0).
    if (is_valu(f) && s.is_def && s.kind == OpKind::SReg && s.dwords == 1 && o.kind == Operand::Kind::Special &&
        o.special == SpecialReg::M0) {
      why = "operand " + std::to_string(i) + " (" + std::string(s.name) + ") is m0, which a VALU instruction cannot write (valid: an SGPR)";
      return false;
    }
    if (f == Family::SMEM && s.kind == OpKind::SReg && o.kind == Operand::Kind::Special &&
        (o.special == SpecialReg::M0 || o.special == SpecialReg::EXEC || o.special == SpecialReg::EXEC_LO ||
         o.special == SpecialReg::EXEC_HI)) {
      why = "operand " + std::to_string(i) + " (" + std::string(s.name) + ") is " + print_operand(o) +
            "; scalar memory data is an SGPR tuple or vcc (not m0 or exec)";
      return false;
    }
    // MUBUF: the VGPR address is there exactly when offen or idxen says so; soffset is an
    // SGPR, m0 or an inline constant (no literal).
    if (f == Family::MUBUF && s.kind == OpKind::VAddr && (o.kind == Operand::Kind::Off) == (mods.offen || mods.idxen)) {
      why = mods.offen || mods.idxen ? "offen/idxen need a VGPR address (valid: a VGPR instead of off)"
                                     : "a VGPR address needs offen or idxen (valid: off, or add offen/idxen)";
      return false;
    }
    if (f == Family::MUBUF && s.kind == OpKind::SOffset && is_literal(info, o, s)) {
      why = "soffset " + print_operand(o) + " is not an inline constant (valid: an SGPR, m0 or -16..64, ±0.5/1/2/4)";
      return false;
    }
  }

  // Constants: one dword each; a VOP3-encoded VALU instruction takes no literal; an
  // instruction has at most one distinct literal value.
  int64_t literal = 0;
  int literals = 0;
  for (size_t i = 0; i < mi.operands.size(); ++i) {
    const Operand& o = mi.operands[i];
    const OperandSpec& s = *slots[i];
    if (o.kind != Operand::Kind::Imm && o.kind != Operand::Kind::FImm) continue;
    if (f == Family::SMEM && s.kind == OpKind::SOffset) {
      if (o.kind == Operand::Kind::FImm) {
        why = "offset " + print_operand(o) + " is a float (valid: an integer byte offset, an SGPR or m0)";
        return false;
      }
      bool buffer = false;
      for (const OperandSpec* t : slots) buffer |= t->kind == OpKind::SBase && t->dwords == 4;
      if (!offset_fits(buffer ? kSmemBufferOffset : kSmemOffset, o.imm, "offset ")) return false;
      continue;
    }
    if (o.kind == Operand::Kind::Imm && is_literal(info, o, s) && !literal_fits_slot(s, o.imm)) {
      why = "operand " + std::to_string(i) + " (" + std::string(s.name) + ") is the constant " + std::to_string(o.imm) +
            ", which does not fit a literal (valid: " + (s.half ? "a 16-bit value, -32768..65535" : kLiteral.what) + ")";
      return false;
    }
    if (!is_literal(info, o, s)) continue;
    if (s.no_literal) {
      why = "operand " + std::to_string(i) + " (" + std::string(s.name) + ") takes no literal (valid: an SGPR pair or an inline constant -16..64)";
      return false;
    }
    if (literals && o.imm != literal) {
      why = "only one distinct literal constant is allowed per instruction (operand " + std::to_string(i) + " (" +
            std::string(s.name) + ") is a second one; move one into a register)";
      return false;
    }
    literal = o.imm;
    ++literals;
  }
  if (literals && is_valu(f)) {
    std::string reason;
    if (needs_vop3(mi, slots, reason)) {
      why = "a literal constant needs the 32-bit encoding, but this " + std::string(family_name(f)) +
            " instruction is VOP3-encoded" + (reason.empty() ? "" : " because " + reason) +
            ", which has no literal on gfx9 (valid: inline constants -16..64, ±0.5, ±1, ±2, ±4, 1/(2*pi); or move it into a register)";
      return false;
    }
  }

  // The VALU constant bus: distinct SGPRs, special registers and the literal read.
  if (is_valu(f)) {
    static const Operand kImplicitVcc = Operand::spec(SpecialReg::VCC);
    const Operand* seen[kConstantBusLimit] = {};
    int uses = 0;
    auto same_value = [](const Operand& a, const Operand& b) {
      if (a.kind != b.kind) return false;
      if (a.kind == Operand::Kind::Reg) return a.index == b.index && a.dwords == b.dwords;
      if (a.kind == Operand::Kind::Special) return a.special == b.special;
      return a.imm == b.imm;  // literals
    };
    auto use = [&](const Operand& o) {
      for (int k = 0; k < uses; ++k)
        if (same_value(*seen[k], o)) return true;
      if (uses < kConstantBusLimit) {
        seen[uses++] = &o;
        return true;
      }
      why = "reads " + scalar_name(*seen[0]) + (seen[0] == &kImplicitVcc ? " (implicitly)" : "") + " and " +
            scalar_name(o) + ", more than " + std::to_string(kConstantBusLimit) +
            " scalar value (SGPR, special register or literal) per VALU instruction on gfx9 (the constant bus); "
            "move one into a VGPR";
      return false;
    };
    if (info.reads_vcc && !use(kImplicitVcc)) return false;
    for (size_t i = 0; i < mi.operands.size(); ++i) {
      const Operand& o = mi.operands[i];
      const OperandSpec& s = *slots[i];
      if (s.is_def) continue;
      // The lane select of v_readlane/v_writelane does not use the bus when it is m0.
      if (s.name == "lane" && o.kind == Operand::Kind::Special && o.special == SpecialReg::M0) continue;
      const bool scalar = (o.kind == Operand::Kind::Reg && o.file == RegFile::SGPR) || o.kind == Operand::Kind::Special;
      if ((scalar || is_literal(info, o, s)) && !use(o)) return false;
    }
  }

  // MFMA: a srcC register that partly overlaps a result wider than 4 dwords.
  if (f == Family::MFMA && !mi.operands.empty()) {
    const Operand& dst = mi.operands[0];
    for (size_t i = 1; i < mi.operands.size(); ++i) {
      const Operand& c = mi.operands[i];
      if (slots[i]->name != "src2" || c.kind != Operand::Kind::Reg || dst.kind != Operand::Kind::Reg) continue;
      if (c.file != dst.file) {
        why = "srcC " + print_operand(c) + " and the result " + print_operand(dst) +
              " are in different register files (valid: both VGPRs or both AGPRs)";
        return false;
      }
      const bool same = c.index == dst.index && c.dwords == dst.dwords;
      const bool overlap = c.index < dst.index + dst.dwords && dst.index < c.index + c.dwords;
      if (dst.dwords > 4 && overlap && !same && !info.srcc_may_overlap) {
        why = "srcC " + print_operand(c) + " partly overlaps the result " + print_operand(dst) +
              " (valid: the same registers as the result, or none of them)";
        return false;
      }
    }
  }

  // Memory: data and result in one register file (gfx90a+: all VGPRs or all AGPRs).
  if (is_memory(f)) {
    const Operand* first = nullptr;
    for (size_t i = 0; i < mi.operands.size(); ++i) {
      const Operand& o = mi.operands[i];
      if (slots[i]->kind != OpKind::VAReg || o.kind != Operand::Kind::Reg) continue;
      if (!first) {
        first = &o;
      } else if (o.file != first->file) {
        why = "mixes VGPRs and AGPRs in its data and result (" + print_operand(*first) + ", " + print_operand(o) +
              "; valid: all VGPRs or all AGPRs)";
        return false;
      }
    }
  }
  return true;
}

}  // namespace cdnajit::isa
