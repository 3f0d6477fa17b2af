#include "jit/isa/sample_inst.hpp"

#include <string_view>

namespace cdnajit::isa {
namespace {

struct RegCursor {
  int next[3] = {8, 10, 0};  // SGPR, VGPR, AGPR: skip s[0:7] so kernarg-like pairs stay free
  Operand take(RegFile f, int dwords) {
    int align = dwords == 1 ? 1 : (f == RegFile::SGPR && dwords > 2 ? 4 : 2);
    int& n = next[int(f)];
    n = (n + align - 1) / align * align;
    Operand o = Operand::reg(f, uint16_t(n), uint8_t(dwords));
    n += dwords;
    return o;
  }
};

}  // namespace

MachineInst sample_instruction(const InstrInfo& info, bool with_mods) {
  MachineInst mi;
  mi.info = &info;
  mi.mnemonic = std::string(info.mnemonic);
  RegCursor regs;
  const bool mfma = info.family == Family::MFMA;
  const bool buf_addr = with_mods && (info.mods & kModBufAddr);
  int ndefs = 0;
  for (const OperandSpec& s : info.operands) {
    ndefs += s.is_def;
    Operand o;
    switch (s.kind) {
      case OpKind::SReg:
      case OpKind::SSrc:
      case OpKind::SBase:
        // Two SGPR sources break VALU's one-constant-bus limit: lane selects use m0.
        // VOP2 carries and VOPC results use vcc, so the plain sample keeps the 32-bit encoding.
        if (s.name == "lane") o = Operand::spec(SpecialReg::M0);
        else if ((info.family == Family::VOP2 || info.family == Family::VOPC) && s.kind == OpKind::SReg && s.dwords == 2)
          o = Operand::spec(SpecialReg::VCC);
        else o = regs.take(RegFile::SGPR, s.dwords);
        break;
      case OpKind::SRsrc: o = regs.take(RegFile::SGPR, 4); break;
      case OpKind::VReg:
      case OpKind::VSrc:
      case OpKind::VSrcNoLit: o = regs.take(RegFile::VGPR, s.dwords); break;
      case OpKind::AReg: o = regs.take(RegFile::AGPR, s.dwords); break;
      case OpKind::VAReg:
        o = regs.take(mfma && (s.name == "vdst" || s.name == "src2") ? RegFile::AGPR : RegFile::VGPR, s.dwords);
        break;
      case OpKind::VAddr:
        o = info.family == Family::MUBUF && !buf_addr ? Operand::off() : regs.take(RegFile::VGPR, s.dwords);
        break;
      case OpKind::SAddrOrOff: o = Operand::off(); break;
      case OpKind::SOffset: o = Operand::immediate(info.family == Family::SMEM ? 0x10 : 0); break;
      case OpKind::Simm16:
        o = Operand::immediate(info.mnemonic == "s_waitcnt" || info.mnemonic == "s_nop" ? 0 : 1);
        break;
      case OpKind::Imm: o = Operand::immediate(0x4800); break;  // a literal for f32 and f16 (8.0) slots alike
      case OpKind::Label: o = Operand::target(kSampleLabel); break;
    }
    mi.operands.push_back(o);
  }
  if (!with_mods) return mi;

  const uint32_t m = info.mods;
  Modifiers& mods = mi.mods;
  if (m & kModBufAddr) mods.offen = true;
  if (m & kModOffset) mods.offset = 16;
  if (m & kModOffset01) {
    mods.offset0 = 1;
    mods.offset1 = 2;
  }
  if (m & kModCache) {
    // On atomics sc0 selects the returning form (an extra vdst operand).
    mods.sc0 = !info.is_atomic;
    mods.sc1 = info.family != Family::SMEM;
    mods.nt = info.family != Family::SMEM;
  }
  if (m & kModClamp) mods.clamp = true;
  if (m & kModOmod) mods.omod = 1;
  if (m & kModOpSel) {
    if (mfma) {
      mods.op_sel_hi_set = true;  // scaled MFMA: op_sel_hi selects the scale bytes
    } else {
      mods.op_sel = 1;
    }
  }
  if (m & kModMfma) {
    bool f8f6f4 = info.mnemonic.find("f8f6f4") != std::string_view::npos;
    bool f64 = info.mnemonic.find("_f64_") != std::string_view::npos;
    if (!f64) mods.blgp = 1;
    if (!f64 && !f8f6f4) {
      mods.cbsz = 1;
      mods.abid = 1;
    }
  }
  if (m & kModNegAbs) {
    bool mix = info.mnemonic.find("_mix") != std::string_view::npos;  // v_fma_mix*: per-source -|x|
    if (info.family == Family::VOP3P && !mix) {
      mods.neg_lo = 1;
    } else if (mfma) {
      mods.neg_lo = 1;  // printed as neg:[1,0,0]
    } else if (ndefs < int(mi.operands.size()) && mi.operands[size_t(ndefs)].kind == Operand::Kind::Reg) {
      mi.operands[size_t(ndefs)].neg = true;
      mi.operands[size_t(ndefs)].abs = true;
    }
  }
  return mi;
}

}  // namespace cdnajit::isa
