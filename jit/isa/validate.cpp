#include "jit/isa/validate.hpp"

#include <string_view>
#include <utility>
#include <vector>

namespace cdnajit::isa {
namespace {

constexpr int kNumSgprs = 102;  // s0..s101 on gfx9
constexpr int kNumVgprs = 256;  // and as many AGPRs

int special_dwords(SpecialReg r) {
  switch (r) {
    case SpecialReg::VCC:
    case SpecialReg::EXEC:
    case SpecialReg::FLAT_SCRATCH:
    case SpecialReg::XNACK_MASK:
    case SpecialReg::SRC_SHARED_BASE:
    case SpecialReg::SRC_SHARED_LIMIT:
    case SpecialReg::SRC_PRIVATE_BASE:
    case SpecialReg::SRC_PRIVATE_LIMIT: return 2;  // 64-bit (the apertures read as 64-bit values)
    default: return 1;
  }
}

bool is_inline_constant(const Operand& o) {
  if (o.kind == Operand::Kind::FImm) return is_inline_f32_bits(uint32_t(o.imm));
  return o.kind == Operand::Kind::Imm && is_inline_int(o.imm);
}

bool is_imm(const Operand& o) { return o.kind == Operand::Kind::Imm || o.kind == Operand::Kind::FImm; }

std::string describe(const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::Reg: return "register " + print_operand(o);
    case Operand::Kind::Special: return "special register " + print_operand(o);
    case Operand::Kind::Imm:
    case Operand::Kind::FImm: return "constant " + print_operand(o);
    case Operand::Kind::Label: return "label " + print_operand(o);
    case Operand::Kind::Off: return "off";
  }
  return "?";
}

std::string_view kind_text(OpKind k) {
  switch (k) {
    case OpKind::SReg: return "an SGPR tuple or special register";
    case OpKind::VReg: return "a VGPR tuple";
    case OpKind::AReg: return "an AGPR tuple";
    case OpKind::VAReg: return "a VGPR or AGPR tuple";
    case OpKind::SSrc: return "an SGPR, special register or constant";
    case OpKind::VSrc: return "a VGPR, SGPR, special register or constant";
    case OpKind::VSrcNoLit: return "a VGPR, SGPR, special register or inline constant (-16..64, +-0.5/1/2/4, 1/(2pi))";
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

// Register width/range/alignment of a tuple operand.
bool check_reg(const Operand& o, int want_dwords, std::string& why) {
  if (o.kind == Operand::Kind::Special) {
    if (want_dwords && special_dwords(o.special) != want_dwords) {
      why = "is " + std::to_string(special_dwords(o.special)) + " dword(s) wide, expected " + std::to_string(want_dwords);
      return false;
    }
    return true;
  }
  if (want_dwords && o.dwords != want_dwords) {
    why = "is " + std::to_string(o.dwords) + " dword(s) wide, expected " + std::to_string(want_dwords);
    return false;
  }
  int limit = o.file == RegFile::SGPR ? kNumSgprs : kNumVgprs;
  if (o.index + o.dwords > limit) {
    why = "is out of range (" + std::string(o.file == RegFile::SGPR ? "s0..s101" : "0..255") + ")";
    return false;
  }
  int align = 1;
  if (o.file == RegFile::SGPR) align = o.dwords >= 4 ? 4 : o.dwords == 2 ? 2 : 1;
  else if (o.dwords >= 2) align = 2;  // gfx90a+: 64-bit and wider VGPR/AGPR tuples are even-aligned
  if (o.index % align) {
    why = "must start at a multiple of " + std::to_string(align);
    return false;
  }
  return true;
}

bool operand_fits(const InstrInfo& info, const OperandSpec& s, const Operand& o, int dwords, std::string& why) {
  using K = Operand::Kind;
  const bool sreg = (o.kind == K::Reg && o.file == RegFile::SGPR) || o.kind == K::Special;
  const bool vreg = o.kind == K::Reg && o.file == RegFile::VGPR;
  const bool areg = o.kind == K::Reg && o.file == RegFile::AGPR;
  if (s.is_def && !(o.kind == K::Reg || o.kind == K::Special)) {
    why = "is written, so it must be a register";
    return false;
  }
  switch (s.kind) {
    case OpKind::SReg:
    case OpKind::SBase:
      if (!sreg) return false;
      return check_reg(o, dwords, why);
    case OpKind::SRsrc:
      if (!(o.kind == K::Reg && o.file == RegFile::SGPR)) return false;
      return check_reg(o, 4, why);
    case OpKind::VReg:
      if (!vreg) return false;
      return check_reg(o, dwords, why);
    case OpKind::AReg:
      if (!areg) return false;
      return check_reg(o, dwords, why);
    case OpKind::VAReg:
      if (info.family == Family::MFMA && !s.is_def && is_inline_constant(o)) return true;  // srcC may be 0
      if (!vreg && !areg) return false;
      return check_reg(o, dwords, why);
    case OpKind::SSrc:
      if (is_imm(o)) return true;
      if (!sreg) return false;
      return check_reg(o, dwords, why);
    case OpKind::VSrc:
      if (is_imm(o)) return true;
      if (!sreg && !vreg) return false;
      return check_reg(o, dwords, why);
    case OpKind::VSrcNoLit:
      if (is_imm(o)) {
        if (!is_inline_constant(o)) {
          why = "is a literal; this operand takes only inline constants on gfx9";
          return false;
        }
        return true;
      }
      if (!sreg && !vreg) return false;
      return check_reg(o, dwords, why);
    case OpKind::Simm16:
      if (o.kind != K::Imm) return false;
      if (o.imm < -32768 || o.imm > 65535) {
        why = "does not fit in 16 bits";
        return false;
      }
      return true;
    case OpKind::Imm: return is_imm(o);
    case OpKind::Label: return o.kind == K::Label;
    case OpKind::SOffset:
      if (is_imm(o)) return true;
      if (!sreg) return false;
      return check_reg(o, 1, why);
    case OpKind::VAddr:
      if (o.kind == K::Off) return info.family == Family::MUBUF;
      if (!vreg) return false;
      return check_reg(o, dwords, why);
    case OpKind::SAddrOrOff:
      if (o.kind == K::Off) return true;
      if (!(o.kind == K::Reg && o.file == RegFile::SGPR)) return false;
      return check_reg(o, 2, why);
  }
  return false;
}

uint32_t modifiers_used(const MachineInst& mi) {
  const Modifiers& m = mi.mods;
  const bool vop3p = mi.info->family == Family::VOP3P || mi.info->family == Family::MFMA;
  uint32_t used = 0;
  if (m.offset) used |= kModOffset;
  if (m.offset0 || m.offset1) used |= kModOffset01;
  if (m.sc0 || m.sc1 || m.nt) used |= kModCache;
  if (m.clamp) used |= kModClamp;
  if (m.omod) used |= kModOmod;
  if (m.op_sel || m.op_sel_hi_set) used |= kModOpSel;
  if (m.neg_lo || m.neg_hi) used |= vop3p ? kModNegAbs : kModOpSel;
  if (m.lds) used |= kModLds;
  if (m.offen || m.idxen) used |= kModBufAddr;
  if (m.cbsz || m.abid || m.blgp) used |= kModMfma;
  for (const Operand& o : mi.operands)
    if (o.neg || o.abs) used |= kModNegAbs;
  return used;
}

std::string mod_names(uint32_t bits) {
  static const std::pair<uint32_t, const char*> names[] = {
      {kModOffset, "offset:"}, {kModOffset01, "offset0:/offset1:"}, {kModCache, "sc0/sc1/nt"},
      {kModClamp, "clamp"},    {kModOmod, "mul:/div:"},             {kModNegAbs, "neg/abs"},
      {kModOpSel, "op_sel"},   {kModLds, "lds"},                    {kModBufAddr, "offen/idxen"},
      {kModMfma, "cbsz/abid/blgp"}, {kModSdwa, "sdwa"}};
  std::string s;
  for (auto [bit, name] : names)
    if (bits & bit) s += (s.empty() ? "" : ", ") + std::string(name);
  return s.empty() ? "none" : s;
}

}  // namespace

bool validate(const MachineInst& mi, Arch arch, std::string& error) {
  auto fail = [&](const std::string& why) {
    error = std::string(arch_name(arch)) + ": " + why + " in '" + print(mi) + "'";
    return false;
  };
  if (!mi.info) return fail("instruction '" + mi.mnemonic + "' is not in the instruction table");
  const InstrInfo& info = *mi.info;
  if (!info.on(arch))
    return fail(std::string(info.mnemonic) + " does not exist on " + std::string(arch_name(arch)) + " (it is " +
                (info.archs == kGfx942 ? "gfx942" : "gfx950") + "-only)");

  // Forms whose operand list differs from the table's plain form.
  std::vector<const OperandSpec*> specs;
  std::vector<int> widths;
  const bool atomic = info.mnemonic.find("atomic") != std::string_view::npos;
  const bool returning_atomic = atomic && mi.mods.sc0 && info.family != Family::DS;
  static const OperandSpec kAtomicDst{"vdst", OpKind::VReg, 1, true, false};
  const bool global_saddr = info.family == Family::GLOBAL && mi.operands.size() >= 2;
  for (size_t i = 0; i < info.operands.size(); ++i) {
    const OperandSpec& s = info.operands[i];
    if (i == 0 && returning_atomic) {
      // The returning form puts the old value first, as wide as the data.
      int data_dwords = 1;
      for (const auto& t : info.operands)
        if (t.name == "data" || t.name == "vdata") data_dwords = t.dwords;
      specs.push_back(&kAtomicDst);
      widths.push_back(data_dwords);
    }
    specs.push_back(&s);
    widths.push_back(s.dwords);
  }
  // MUBUF lds loads drop vdata; the table lists it as a def.
  if (info.family == Family::MUBUF && mi.mods.lds && !info.operands.empty() && info.operands[0].is_def) {
    specs.erase(specs.begin());
    widths.erase(widths.begin());
  }
  size_t required = 0;
  for (const OperandSpec* s : specs) required += !s->optional;
  if (mi.operands.size() < required || mi.operands.size() > specs.size())
    return fail(std::string(info.mnemonic) + " takes " + std::to_string(required) +
                (required == specs.size() ? "" : ".." + std::to_string(specs.size())) + " operands, got " +
                std::to_string(mi.operands.size()));

  // GLOBAL with an SGPR saddr takes a 32-bit VGPR offset instead of a 64-bit address.
  if (global_saddr) {
    for (size_t i = 0; i < specs.size() && i < mi.operands.size(); ++i)
      if (specs[i]->kind == OpKind::SAddrOrOff && mi.operands[i].kind == Operand::Kind::Reg)
        for (size_t j = 0; j < specs.size(); ++j)
          if (specs[j]->kind == OpKind::VAddr) widths[j] = 1;
  }
  // MUBUF: the VGPR address is two dwords with both idxen and offen.
  if (info.family == Family::MUBUF && mi.mods.idxen && mi.mods.offen)
    for (size_t j = 0; j < specs.size(); ++j)
      if (specs[j]->kind == OpKind::VAddr) widths[j] = 2;

  for (size_t i = 0; i < mi.operands.size(); ++i) {
    std::string why;
    if (!operand_fits(info, *specs[i], mi.operands[i], widths[i], why)) {
      std::string msg = "operand " + std::to_string(i) + " (" + std::string(specs[i]->name) + ") is " +
                        describe(mi.operands[i]) + (why.empty() ? "" : " and " + why) + "; expected " +
                        std::string(kind_text(specs[i]->kind));
      if (specs[i]->kind != OpKind::Simm16 && specs[i]->kind != OpKind::Imm && specs[i]->kind != OpKind::Label)
        msg += " of " + std::to_string(widths[i]) + " dword(s)";
      return fail(msg);
    }
  }
  uint32_t extra = modifiers_used(mi) & ~info.mods;
  if (extra)
    return fail(std::string(info.mnemonic) + " does not take " + mod_names(extra) + " (it accepts: " +
                mod_names(info.mods) + ")");
  return true;
}

}  // namespace cdnajit::isa
