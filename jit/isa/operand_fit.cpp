#include "jit/isa/operand_fit.hpp"

#include "jit/isa/target.hpp"

namespace cdnajit::isa {

OperandShape OperandShape::spec(SpecialReg r) {
  OperandShape s;
  s.cls = Class::Special;
  s.special = r;
  s.dwords = target::special_reg_dwords(r);
  return s;
}

std::string_view operand_kind_text(OpKind k) {
  switch (k) {
    case OpKind::SReg: return "an SGPR tuple or special register";
    case OpKind::VReg: return "a VGPR tuple";
    case OpKind::AReg: return "an AGPR tuple";
    case OpKind::VAReg: return "a VGPR or AGPR tuple";
    case OpKind::SSrc: return "an SGPR, special register or constant";
    case OpKind::VSrc: return "a VGPR, SGPR, special register or constant";
    case OpKind::VSrcNoLit: return "a VGPR, SGPR, special register or inline constant (-16..64, ±0.5/1/2/4, 1/(2pi))";
    case OpKind::Simm16: return "a 16-bit immediate";
    case OpKind::Imm: return "a constant";
    case OpKind::Label: return "a branch target";
    case OpKind::SBase: return "an SGPR pair/quad base";
    case OpKind::SOffset: return "an SGPR, m0 or constant offset";
    case OpKind::VAddr: return "a VGPR address (or off)";
    case OpKind::SAddrOrOff: return "an SGPR pair or off";
    case OpKind::SRsrc: return "an SGPR quad buffer resource";
  }
  return "?";
}

namespace {
// The src_* registers are read-only values the hardware supplies (apertures, execz, vccz, scc,
// ...): LLVM takes them as constant-like sources, never as a register operand or destination.
bool is_source_only(SpecialReg r) { return r >= SpecialReg::SRC_SHARED_BASE; }
// The 64-bit aperture values also read as one dword in a 32-bit source slot (LLVM accepts
// v_mov_b32 v0, src_shared_base as well as s_mov_b64 s[0:1], src_shared_base).
bool is_aperture(SpecialReg r) { return r >= SpecialReg::SRC_SHARED_BASE && r <= SpecialReg::SRC_PRIVATE_LIMIT; }
// The message of a width mismatch, out of line: the test itself (every register operand of every
// instruction the builder checks) then stays small enough to be inlined where it is asked.
[[gnu::noinline]] bool wrong_width(int dwords, int w, std::string& why) {
  why = "is " + std::to_string(dwords) + " dword(s) wide but must be " + std::to_string(w);
  return false;
}
}  // namespace

bool is_inline_in_slot(const InstrInfo& info, const OperandSpec& s, bool is_int, int64_t imm) {
  if (!is_int) return is_inline_f32_bits(uint32_t(imm));
  if (is_inline_int(imm)) return true;
  // A 32-bit operand, a packed VOP3P source and an MFMA srcC (32-bit values per element) read
  // the value as 32 bits: 0xffffffff is -1. A 64-bit float or integer source does not.
  const bool value32 = !s.half && (s.dwords == 1 || info.family == Family::VOP3P ||
                                         (info.family == Family::MFMA && s.name == "src2"));
  if (value32 && imm >= 0x80000000LL && imm <= 0xffffffffLL && is_inline_int(int32_t(uint32_t(imm)))) return true;
  // An f16 source reads 16 bits: 0xffff is -1; and the f16 inline values 0.5, 1, 2, 4 (each
  // sign) and 1/(2*pi). LLVM treats the integer 16-bit sources by their value alone.
  if (!s.half_float || imm < -0x8000 || imm > 0xffff) return false;
  if (is_inline_int(int16_t(uint16_t(imm)))) return true;
  static constexpr uint16_t kF16Inline[] = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118};
  for (uint16_t v : kF16Inline)
    if (uint16_t(imm) == v) return true;
  return false;
}

int slot_dwords(const InstrInfo& info, const OperandSpec& s, const Modifiers& m) {
  if (info.family != Family::MFMA || !info.srcc_may_overlap || s.is_def) return s.dwords;
  const bool a = s.name == "src0", b = s.name == "src1";
  if (!a && !b) return s.dwords;
  switch (a ? m.cbsz : m.blgp) {
    case 0: case 1: return 8;  // fp8, bf8
    case 2: case 3: return 6;  // fp6, bf6
    case 4: return 4;          // fp4
    default: return s.dwords;  // not a format: the simulator reports it
  }
}

bool literal_fits_slot(const OperandSpec& s, int64_t imm) {
  return s.half ? imm >= -0x8000 && imm <= 0xffff : imm >= -0x80000000LL && imm <= 0xffffffffLL;
}

bool operand_fits_slot(const InstrInfo& info, const OperandSpec& s, const OperandShape& o, int want, std::string& why) {
  using C = OperandShape::Class;
  const bool valu = info.family == Family::VOP1 || info.family == Family::VOP2 || info.family == Family::VOPC ||
                    info.family == Family::VOP3 || info.family == Family::VOP3P || info.family == Family::MFMA;
  if (o.cls == C::Special && is_source_only(o.special)) {
    // Where LLVM takes them: scalar and vector sources, a VALU lane mask or carry-in, a scratch
    // saddr, an MFMA srcC; not SMEM offsets.
    const bool value_slot = s.kind == OpKind::SSrc || s.kind == OpKind::VSrc || s.kind == OpKind::VSrcNoLit ||
                            (s.kind == OpKind::SOffset && info.family != Family::SMEM);
    const bool source_slot = !s.is_def && (value_slot || (s.kind == OpKind::SReg && valu) || (s.kind == OpKind::SAddrOrOff && want == 1) ||
                                           (info.family == Family::MFMA && s.name == "src2"));
    if (!source_slot) {
      why = "is a read-only source value, not a register";
      return false;
    }
    if (is_aperture(o.special) && (want == 1 || info.family == Family::MFMA) && (value_slot || s.name == "src2")) return true;
  }
  const bool sreg = o.cls == C::Sgpr || o.cls == C::Special;
  const bool vreg = o.cls == C::Vgpr, areg = o.cls == C::Agpr, is_const = o.cls == C::Const;
  auto width = [&](int w) { return !w || o.dwords == w || wrong_width(o.dwords, w, why); };
  if (s.is_def && !(o.cls == C::Sgpr || vreg || areg || o.cls == C::Special)) {
    why = "is written, so it must be a register";
    return false;
  }
  switch (s.kind) {
    case OpKind::SReg:
    case OpKind::SBase: return sreg && width(want);
    case OpKind::SRsrc: return o.cls == C::Sgpr && width(4);
    case OpKind::VReg: return vreg && width(want);
    case OpKind::AReg: return areg && width(want);
    case OpKind::VAReg:
      if (info.family == Family::MFMA && s.name == "src2" && is_const &&
          (o.inline_const || (o.int_const && is_inline_in_slot(info, s, true, o.imm))))
        return true;  // srcC may be an inline constant (0)
      return (vreg || areg) && width(want);
    case OpKind::SSrc:
      if (is_const) return true;
      return sreg && width(want);
    case OpKind::VSrc:
      if (is_const) return true;
      return (sreg || vreg) && width(want);
    case OpKind::VSrcNoLit:
      if (is_const) {
        if (o.inline_const || (o.int_const && is_inline_in_slot(info, s, true, o.imm))) return true;
        why = "is not an inline constant; gfx9 VOP3 has no literals (valid: -16..64, ±0.5, ±1, ±2, ±4, 1/(2*pi); "
              "or move it into a register first)";
        return false;
      }
      return (sreg || vreg) && width(want);
    case OpKind::Simm16: {
      if (!is_const || !o.int_const) return false;
      const int64_t top = (int64_t(1) << s.imm_bits) - 1, bottom = s.imm_unsigned ? 0 : -(top + 1) / 2;
      // SOPP reads it as 32 bits, as the assembler does: 0xffff8000..0xffffffff are -32768..-1.
      const bool wraps = info.family == Family::SOPP && !s.imm_unsigned;
      const int64_t v = wraps && o.imm >= 0xffff8000LL && o.imm <= 0xffffffffLL ? int32_t(uint32_t(o.imm)) : o.imm;
      if (v < bottom || v > top) {
        why = "does not fit in " + std::to_string(s.imm_bits) + " bits (valid: " + std::to_string(bottom) + ".." +
              std::to_string(top) + ")";
        return false;
      }
      return true;
    }
    case OpKind::Imm: return is_const;
    case OpKind::Label: return o.cls == C::Label;
    case OpKind::SOffset:
      if (is_const) return true;
      return sreg && width(1);
    case OpKind::VAddr:
      if (o.cls == C::Off) return info.family == Family::MUBUF || info.family == Family::SCRATCH;
      return vreg && width(want);
    case OpKind::SAddrOrOff:
      if (o.cls == C::Off) return true;
      if (o.cls == C::Special && o.special == SpecialReg::EXEC) return false;  // LLVM: SReg_64_XEXEC
      return sreg && width(want);  // GLOBAL: a pair (or vcc); SCRATCH: one SGPR (or m0, vcc_lo, ...)
  }
  return false;
}

}  // namespace cdnajit::isa
