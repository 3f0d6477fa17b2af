#include "jit/isa/validate.hpp"

#include "jit/isa/encoding_rules.hpp"
#include "jit/isa/operand_fit.hpp"
#include "jit/isa/suggest.hpp"
#include "jit/isa/target.hpp"

#include <string_view>
#include <utility>
#include <vector>

namespace cdnajit::isa {
namespace {

constexpr int kNumSgprs = target::kAddressableSgprs;
constexpr int kNumVgprs = target::kVgprs;  // and as many AGPRs
constexpr size_t kMaxOperands = 12;  // the widest row has 6, plus a returning atomic's vdst


bool is_inline_constant(const Operand& o) {
  if (o.kind == Operand::Kind::FImm) return is_inline_f32_bits(uint32_t(o.imm));
  return o.kind == Operand::Kind::Imm && is_inline_int(o.imm);
}


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

std::string_view kind_text(OpKind k) { return operand_kind_text(k); }

// Range and alignment of a physical register tuple (the width is operand_fits_slot's).
bool check_range_alignment(const Operand& o, bool unaligned, std::string& why) {
  if (o.kind != Operand::Kind::Reg) return true;
  int limit = o.file == RegFile::SGPR ? kNumSgprs : kNumVgprs;
  if (o.index + o.dwords > limit) {
    why = "is out of range (" + std::string(o.file == RegFile::SGPR ? "s0..s" : "0..") + std::to_string(limit - 1) + ")";
    return false;
  }
  const int align = unaligned ? 1 : target::tuple_alignment(o.file, o.dwords);
  if (o.index % align) {
    why = "must start at a multiple of " + std::to_string(align);
    return false;
  }
  return true;
}

OperandShape shape_of(const Operand& o) {
  using C = OperandShape::Class;
  switch (o.kind) {
    case Operand::Kind::Reg:
      return OperandShape::reg(o.file == RegFile::SGPR ? C::Sgpr : o.file == RegFile::VGPR ? C::Vgpr : C::Agpr, o.dwords);
    case Operand::Kind::Special: return OperandShape::spec(o.special);
    case Operand::Kind::Imm:
    case Operand::Kind::FImm: return OperandShape::constant(o.kind == Operand::Kind::Imm, is_inline_constant(o), o.imm);
    case Operand::Kind::Label: return OperandShape::of(C::Label);
    case Operand::Kind::Off: return OperandShape::of(C::Off);
  }
  return {};
}

bool operand_fits(const InstrInfo& info, const OperandSpec& s, const Operand& o, int dwords, std::string& why) {
  return operand_fits_slot(info, s, shape_of(o), dwords, why) && check_range_alignment(o, s.unaligned, why);
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


}  // namespace

std::string modifier_names(uint32_t bits) {
  static const std::pair<uint32_t, const char*> names[] = {
      {kModOffset, "offset:"}, {kModOffset01, "offset0:/offset1:"}, {kModCache, "sc0/sc1/nt"},
      {kModClamp, "clamp"},    {kModOmod, "mul:/div:"},             {kModNegAbs, "neg/abs"},
      {kModOpSel, "op_sel"},   {kModLds, "lds"},                    {kModBufAddr, "offen/idxen"},
      {kModMfma, "cbsz/abid/blgp"}};
  std::string s;
  for (auto [bit, name] : names)
    if (bits & bit) s += (s.empty() ? "" : ", ") + std::string(name);
  return s.empty() ? "none" : s;
}

bool validate(const MachineInst& mi, Arch arch, std::string& error) {
  auto fail = [&](const std::string& why) {
    error = std::string(arch_name(arch)) + ": " + why + " in '" + print(mi) + "'";
    return false;
  };
  if (!mi.info) return fail("instruction '" + mi.mnemonic + "' is not in the instruction table" + did_you_mean(mi.mnemonic));
  const InstrInfo& info = *mi.info;
  if (!info.on(arch))
    return fail(std::string(info.mnemonic) + " does not exist on " + std::string(arch_name(arch)) + " (it is " +
                (info.archs == kGfx942 ? "gfx942" : "gfx950") + "-only)");

  // Forms whose operand list differs from the table's plain form. Fixed storage: every build
  // validates every instruction, so no allocation on the way to "valid".
  struct Slots {
    const OperandSpec* at[kMaxOperands];
    int width[kMaxOperands];
    size_t n = 0;
    void push_back(const OperandSpec* s) { if (n < kMaxOperands) at[n++] = s; }
    size_t size() const { return n; }
    const OperandSpec* operator[](size_t i) const { return at[i]; }
    const OperandSpec* const* begin() const { return at; }
    const OperandSpec* const* end() const { return at + n; }
    void erase_front() {
      for (size_t i = 1; i < n; ++i) at[i - 1] = at[i], width[i - 1] = width[i];
      --n;
    }
  } specs;
  int* widths = specs.width;
  // FLAT/GLOBAL/SCRATCH atomics under sc0 return the old value into a leading vdst. SMEM and
  // MUBUF atomics return it into their data register itself; DS atomics have _rtn mnemonics.
  const bool returning_atomic = info.is_atomic && mi.mods.sc0 && info.family != Family::DS &&
                                info.family != Family::SMEM && info.family != Family::MUBUF;
  static const OperandSpec kAtomicDst{"vdst", OpKind::VAReg, 1, true, false};
  const bool global_saddr = info.family == Family::GLOBAL && mi.operands.size() >= 2;
  for (size_t i = 0; i < info.operands.size(); ++i) {
    const OperandSpec& s = info.operands[i];
    if (i == 0 && returning_atomic) {
      // The returning form puts the old value first.
      widths[specs.size()] = info.atomic_result_dwords;
      specs.push_back(&kAtomicDst);
    }
    if (specs.size() < kMaxOperands) widths[specs.size()] = slot_dwords(info, s, mi.mods);
    specs.push_back(&s);
  }
  // MUBUF lds loads drop vdata; the table lists it as a def.
  if (info.family == Family::MUBUF && mi.mods.lds && !info.operands.empty() && info.operands[0].is_def)
    specs.erase_front();
  size_t required = 0;
  for (const OperandSpec* s : specs) required += !s->optional;
  if (mi.operands.size() < required || mi.operands.size() > specs.size())
    return fail(std::string(info.mnemonic) + " takes " + std::to_string(required) +
                (required == specs.size() ? "" : ".." + std::to_string(specs.size())) + " operands, got " +
                std::to_string(mi.operands.size()));

  // GLOBAL with an SGPR saddr takes a 32-bit VGPR offset instead of a 64-bit address.
  if (global_saddr) {
    for (size_t i = 0; i < specs.size() && i < mi.operands.size(); ++i)
      if (specs[i]->kind == OpKind::SAddrOrOff && mi.operands[i].kind != Operand::Kind::Off)
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
    return fail(std::string(info.mnemonic) + " does not take " + modifier_names(extra) + " (it accepts: " +
                modifier_names(info.mods) + ")");
  std::string why;
  if (!check_encoding_rules(mi, std::span<const OperandSpec* const>(specs.at, mi.operands.size()), why))
    return fail(why);
  return true;
}

}  // namespace cdnajit::isa
