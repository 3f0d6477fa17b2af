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

bool operand_fits_slot(const InstrInfo& info, const OperandSpec& s, const OperandShape& o, int want, std::string& why) {
  using C = OperandShape::Class;
  const bool sreg = o.cls == C::Sgpr || o.cls == C::Special;
  const bool vreg = o.cls == C::Vgpr, areg = o.cls == C::Agpr, is_const = o.cls == C::Const;
  auto width = [&](int w) {
    if (w && o.dwords != w) {
      why = "is " + std::to_string(o.dwords) + " dword(s) wide but must be " + std::to_string(w);
      return false;
    }
    return true;
  };
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
      if (info.family == Family::MFMA && !s.is_def && is_const && o.inline_const) return true;  // srcC may be 0
      return (vreg || areg) && width(want);
    case OpKind::SSrc:
      if (is_const) return true;
      return sreg && width(want);
    case OpKind::VSrc:
      if (is_const) return true;
      return (sreg || vreg) && width(want);
    case OpKind::VSrcNoLit:
      if (is_const) {
        if (o.inline_const) return true;
        why = "is not an inline constant; gfx9 VOP3 has no literals (valid: -16..64, ±0.5, ±1, ±2, ±4, 1/(2*pi); "
              "or move it into a register first)";
        return false;
      }
      return (sreg || vreg) && width(want);
    case OpKind::Simm16:
      if (!is_const || !o.int_const) return false;
      if (o.imm < -32768 || o.imm > 65535) {
        why = "does not fit in 16 bits (valid: -32768..65535)";
        return false;
      }
      return true;
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
      return o.cls == C::Sgpr && width(want);  // GLOBAL: a pair; SCRATCH: one SGPR
  }
  return false;
}

}  // namespace cdnajit::isa
