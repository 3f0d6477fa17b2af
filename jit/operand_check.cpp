#include "jit/operand_check.hpp"

#include "jit/isa/waitcnt.hpp"

#include <bit>
#include <fmt/format.h>

namespace cdnajit {

int64_t WaitCnt::encode() const { return int64_t(isa::encode_waitcnt(vm, -1, lgkm)); }

WaitCnt vmcnt(int n, std::source_location loc) {
  if (n < 0 || n > isa::kMaxVmcnt)
    throw Error(fmt::format("{}: vmcnt({}) is out of range (valid: 0..{})", where(loc), n, isa::kMaxVmcnt));
  return {n, -1};
}

WaitCnt lgkmcnt(int n, std::source_location loc) {
  if (n < 0 || n > isa::kMaxLgkmcnt)
    throw Error(fmt::format("{}: lgkmcnt({}) is out of range (valid: 0..{})", where(loc), n, isa::kMaxLgkmcnt));
  return {-1, n};
}

namespace {

const char* class_name(RegClass c) { return c == RegClass::S ? "SGPR" : c == RegClass::V ? "VGPR" : "AGPR"; }

std::string kind_text(isa::OpKind k) {
  using K = isa::OpKind;
  switch (k) {
    case K::SReg: return "an SGPR";
    case K::VReg: return "a VGPR";
    case K::AReg: return "an AGPR";
    case K::VAReg: return "a VGPR or AGPR";
    case K::SSrc: return "an SGPR, special register or constant";
    case K::VSrc: return "a VGPR, SGPR or constant";
    case K::VSrcNoLit: return "a VGPR, SGPR or inline constant (-16..64, ±0.5/1/2/4)";
    case K::Simm16: return "a 16-bit immediate";
    case K::Imm: return "an immediate";
    case K::Label: return "a label";
    case K::SBase: return "an SGPR base pair";
    case K::SOffset: return "an SGPR or immediate offset";
    case K::VAddr: return "a VGPR address";
    case K::SAddrOrOff: return "an SGPR pair or `off`";
    case K::SRsrc: return "an SGPR quad buffer resource";
  }
  return "?";
}

int special_dwords(isa::SpecialReg s) {
  using S = isa::SpecialReg;
  return (s == S::VCC || s == S::EXEC || s == S::FLAT_SCRATCH) ? 2 : 1;
}

struct Checker {
  const Kernel::Impl& k;
  const isa::InstrInfo& info;
  const IrInst& out;

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(fmt::format("{}: {} ({}): {}", where(out.loc), info.mnemonic, arch_name(k.arch), what));
  }

  void check_reg(const Reg& r, size_t i, const isa::OperandSpec& s, bool allow_s, bool allow_v, bool allow_a) const {
    if (!r.valid() || r.owner != &k || r.id >= k.vregs.size())
      fail(fmt::format("operand {} ({}) is a register of another Kernel or a default-constructed Reg "
                       "(registers belong to the Kernel whose sgpr()/vgpr()/agpr() made them)", i, s.name));
    bool ok = (r.cls == RegClass::S && allow_s) || (r.cls == RegClass::V && allow_v) || (r.cls == RegClass::A && allow_a);
    if (!ok)
      fail(fmt::format("operand {} ({}) is {} '{}' but must be {}", i, s.name, class_name(r.cls), k.reg_label(r), kind_text(s.kind)));
    if (s.dwords && r.dwords != s.dwords)
      fail(fmt::format("operand {} ({}) '{}' is {} dword(s) wide but must be {}", i, s.name, k.reg_label(r), r.dwords, s.dwords));
  }

  void check(const Opnd& o, size_t i, const isa::OperandSpec& s) const {
    using K = isa::OpKind;
    const Reg* r = std::get_if<Reg>(&o.v);
    if (auto* n = std::get_if<Neg>(&o.v)) r = &n->r;
    if (auto* a = std::get_if<Abs>(&o.v)) r = &a->r;
    bool is_mod = std::holds_alternative<Neg>(o.v) || std::holds_alternative<Abs>(o.v);
    if (is_mod && !(info.mods & isa::kModNegAbs) && s.kind != K::VSrcNoLit)
      fail(fmt::format("operand {} ({}) takes no neg/abs modifier", i, s.name));
    auto* imm = std::get_if<int64_t>(&o.v);
    auto* fimm = std::get_if<float>(&o.v);
    auto* sp = std::get_if<isa::SpecialReg>(&o.v);
    bool is_const = imm || fimm;
    // +0.0 has the bit pattern of the inline integer 0.
    uint32_t fbits = fimm ? std::bit_cast<uint32_t>(*fimm) : 0;
    bool inline_const = (imm && isa::is_inline_int(*imm)) || (fimm && (fbits == 0 || isa::is_inline_f32_bits(fbits)));
    if (s.is_def && !r && !sp) fail(fmt::format("operand {} ({}) is written, so it must be a register", i, s.name));
    switch (s.kind) {
      case K::SReg:
      case K::SBase:
      case K::SRsrc:
        if (sp) {
          if (s.dwords && special_dwords(*sp) != s.dwords)
            fail(fmt::format("operand {} ({}) must be {} dword(s); the special register is {}", i, s.name, s.dwords, special_dwords(*sp)));
          return;
        }
        if (!r) fail(fmt::format("operand {} ({}) must be {}", i, s.name, kind_text(s.kind)));
        return check_reg(*r, i, s, true, false, false);
      case K::VReg:
      case K::VAddr:
        if (!r) fail(fmt::format("operand {} ({}) must be {}", i, s.name, kind_text(s.kind)));
        return check_reg(*r, i, s, false, true, false);
      case K::AReg:
        if (!r) fail(fmt::format("operand {} ({}) must be {}", i, s.name, kind_text(s.kind)));
        return check_reg(*r, i, s, false, false, true);
      case K::VAReg:
        if (!r) fail(fmt::format("operand {} ({}) must be {}", i, s.name, kind_text(s.kind)));
        return check_reg(*r, i, s, false, true, true);
      case K::SSrc:
      case K::SOffset:
        if (r) return check_reg(*r, i, s, true, false, false);
        if (sp || is_const) return;
        fail(fmt::format("operand {} ({}) must be {}", i, s.name, kind_text(s.kind)));
      case K::VSrc:
        if (r) return check_reg(*r, i, s, true, true, false);
        if (sp || is_const) return;
        fail(fmt::format("operand {} ({}) must be {}", i, s.name, kind_text(s.kind)));
      case K::VSrcNoLit:
        if (r) return check_reg(*r, i, s, true, true, false);
        if (sp || inline_const) return;
        if (is_const)
          fail(fmt::format("operand {} ({}) is the constant {} which is not an inline constant; gfx9 VOP3 has no literals "
                           "(valid: -16..64, ±0.5, ±1, ±2, ±4, 1/(2*pi); or move it into a register first)",
                           i, s.name, imm ? std::to_string(*imm) : fmt::format("{}", *fimm)));
        fail(fmt::format("operand {} ({}) must be {}", i, s.name, kind_text(s.kind)));
      case K::Simm16:
        if (!imm) fail(fmt::format("operand {} ({}) must be {}", i, s.name, kind_text(s.kind)));
        if (*imm < -32768 || *imm > 65535)
          fail(fmt::format("operand {} ({}) = {} is out of range (valid: -32768..65535)", i, s.name, *imm));
        return;
      case K::Imm:
        if (!imm) fail(fmt::format("operand {} ({}) must be {}", i, s.name, kind_text(s.kind)));
        return;
      case K::Label:
        if (!std::holds_alternative<Label>(o.v)) fail(fmt::format("operand {} ({}) must be a Label", i, s.name));
        if (std::get<Label>(o.v).owner != &k || std::get<Label>(o.v).id >= k.label_names.size())
          fail("label from another kernel");
        return;
      case K::SAddrOrOff:
        if (std::holds_alternative<Off>(o.v)) return;
        if (!r) fail(fmt::format("operand {} ({}) must be {}", i, s.name, kind_text(s.kind)));
        return check_reg(*r, i, s, true, false, false);
    }
  }
};

// Folds a modifier operand into mods; returns false if `o` is not a modifier.
bool fold_modifier(const Opnd& o, const isa::InstrInfo& info, isa::Modifiers& m, const Checker& c) {
  auto need = [&](uint32_t bit, const char* what) {
    if (!(info.mods & bit)) c.fail(fmt::format("takes no {} modifier", what));
  };
  return std::visit(
      [&](auto&& x) -> bool {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Offset>) {
          need(isa::kModOffset, "offset:");
          m.offset = x.bytes;
        } else if constexpr (std::is_same_v<T, Offset0>) {
          need(isa::kModOffset01, "offset0:");
          m.offset0 = x.v;
        } else if constexpr (std::is_same_v<T, Offset1>) {
          need(isa::kModOffset01, "offset1:");
          m.offset1 = x.v;
        } else if constexpr (std::is_same_v<T, Lds>) {
          need(isa::kModLds, "lds");
          m.lds = true;
        } else if constexpr (std::is_same_v<T, Offen>) {
          need(isa::kModBufAddr, "offen");
          m.offen = true;
        } else if constexpr (std::is_same_v<T, Idxen>) {
          need(isa::kModBufAddr, "idxen");
          m.idxen = true;
        } else if constexpr (std::is_same_v<T, Sc0>) {
          need(isa::kModCache, "sc0");
          m.sc0 = true;
        } else if constexpr (std::is_same_v<T, Sc1>) {
          need(isa::kModCache, "sc1");
          m.sc1 = true;
        } else if constexpr (std::is_same_v<T, Nt>) {
          need(isa::kModCache, "nt");
          m.nt = true;
        } else if constexpr (std::is_same_v<T, Clamp>) {
          need(isa::kModClamp, "clamp");
          m.clamp = true;
        } else if constexpr (std::is_same_v<T, OpSel>) {
          need(isa::kModOpSel, "op_sel");
          m.op_sel = x.bits;
        } else if constexpr (std::is_same_v<T, OpSelHi>) {
          need(isa::kModOpSel, "op_sel_hi");
          m.op_sel_hi = x.bits;
          m.op_sel_hi_set = true;
        } else if constexpr (std::is_same_v<T, Cbsz>) {
          need(isa::kModMfma, "cbsz");
          m.cbsz = x.v;
        } else if constexpr (std::is_same_v<T, Abid>) {
          need(isa::kModMfma, "abid");
          m.abid = x.v;
        } else if constexpr (std::is_same_v<T, Blgp>) {
          need(isa::kModMfma, "blgp");
          m.blgp = x.v;
        } else {
          return false;
        }
        return true;
      },
      o.v);
}

}  // namespace

void check_and_fold_operands(const Kernel::Impl& k, const isa::InstrInfo& info, std::vector<Opnd> ops, IrInst& out) {
  Checker c{k, info, out};
  if (!info.on(k.arch)) {
    std::string has = info.archs == isa::kGfx942 ? "gfx942" : info.archs == isa::kGfx950 ? "gfx950" : "no supported arch";
    c.fail(fmt::format("{} does not have this instruction (it exists on {})", arch_name(k.arch), has));
  }
  for (const Opnd& o : ops) {
    if (fold_modifier(o, info, out.mods, c)) continue;
    out.ops.push_back(o);
  }
  size_t required = 0;
  for (const auto& s : info.operands)
    if (!s.optional) ++required;
  if (out.ops.size() < required || out.ops.size() > info.operands.size()) {
    std::string sig;
    for (const auto& s : info.operands) sig += fmt::format(" {}{}{}", s.optional ? "[" : "", s.name, s.optional ? "]" : "");
    c.fail(fmt::format("got {} operand(s), expected {}{} (signature:{})", out.ops.size(), required,
                       required == info.operands.size() ? "" : fmt::format("..{}", info.operands.size()), sig));
  }
  for (size_t i = 0; i < out.ops.size(); ++i) {
    isa::OperandSpec spec = info.operands[i];
    // GLOBAL addressing: a 64-bit VGPR address with saddr `off`, or a 32-bit VGPR offset with an SGPR-pair base.
    if (spec.kind == isa::OpKind::VAddr && (info.family == isa::Family::GLOBAL)) {
      for (size_t j = i + 1; j < out.ops.size(); ++j)
        if (info.operands[j].kind == isa::OpKind::SAddrOrOff && std::holds_alternative<Reg>(out.ops[j].v)) spec.dwords = 1;
    }
    c.check(out.ops[i], i, spec);
  }
}

}  // namespace cdnajit
