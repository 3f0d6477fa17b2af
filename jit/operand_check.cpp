#include "jit/operand_check.hpp"

#include "jit/isa/cross_lane.hpp"
#include "jit/isa/encoding_rules.hpp"
#include "jit/isa/operand_fit.hpp"
#include "jit/isa/target.hpp"
#include "jit/isa/validate.hpp"
#include "jit/isa/waitcnt.hpp"

#include <optional>
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

std::string_view kind_text(isa::OpKind k) { return isa::operand_kind_text(k); }

struct Checker {
  const Kernel::Impl& k;
  const isa::InstrInfo& info;
  const IrInst& out;

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(fmt::format("{}: {} ({}): {}", where(out.loc), info.mnemonic, arch_name(k.arch), what));
  }

  std::string describe(const Opnd& o, const Reg* r) const {
    if (r) return fmt::format("{} '{}'", class_name(r->cls), k.reg_label(*r));
    if (auto* sp = std::get_if<isa::SpecialReg>(&o.v)) return "special register " + isa::print_operand(isa::Operand::spec(*sp));
    if (auto* imm = std::get_if<int64_t>(&o.v)) return fmt::format("the constant {}", *imm);
    if (auto* f = std::get_if<float>(&o.v)) return fmt::format("the constant {}", *f);
    if (std::holds_alternative<Label>(o.v)) return "a label";
    if (std::holds_alternative<Off>(o.v)) return "off";
    return "an empty operand";
  }

  // The shared fit rules (isa::operand_fits_slot) on the builder's operand forms.
  void check(const Opnd& o, size_t i, const isa::OperandSpec& s) const {
    using C = isa::OperandShape::Class;
    const Reg* r = std::get_if<Reg>(&o.v);
    if (auto* n = std::get_if<Neg>(&o.v)) r = &n->r;
    if (auto* a = std::get_if<Abs>(&o.v)) r = &a->r;
    bool is_mod = std::holds_alternative<Neg>(o.v) || std::holds_alternative<Abs>(o.v);
    if (is_mod && !(info.mods & isa::kModNegAbs) && s.kind != isa::OpKind::VSrcNoLit)
      fail(fmt::format("operand {} ({}) takes no neg/abs modifier", i, s.name));
    if (r && (!r->valid() || r->owner != &k || r->id >= k.vregs.size()))
      fail(fmt::format("operand {} ({}) is a register of another Kernel or a default-constructed Reg "
                       "(registers belong to the Kernel whose sgpr()/vgpr()/agpr() made them)", i, s.name));
    if (auto* l = std::get_if<Label>(&o.v); l && (l->owner != &k || l->id >= k.label_names.size()))
      fail("label from another kernel");
    isa::OperandShape shape;
    if (r) {
      shape = isa::OperandShape::reg(r->cls == RegClass::S ? C::Sgpr : r->cls == RegClass::V ? C::Vgpr : C::Agpr, r->dwords);
    } else if (auto* sp = std::get_if<isa::SpecialReg>(&o.v)) {
      shape = isa::OperandShape::spec(*sp);
    } else if (auto* imm = std::get_if<int64_t>(&o.v)) {
      shape = isa::OperandShape::constant(true, isa::is_inline_int(*imm), *imm);
    } else if (auto* f = std::get_if<float>(&o.v)) {
      // +0.0 has the bit pattern of the inline integer 0.
      uint32_t bits = std::bit_cast<uint32_t>(*f);
      shape = isa::OperandShape::constant(false, bits == 0 || isa::is_inline_f32_bits(bits));
    } else if (std::holds_alternative<Label>(o.v)) {
      shape = isa::OperandShape::of(C::Label);
    } else if (std::holds_alternative<Off>(o.v)) {
      shape = isa::OperandShape::of(C::Off);
    } else {
      fail(fmt::format("operand {} ({}) is empty; it must be {}", i, s.name, kind_text(s.kind)));
    }
    std::string why;
    if (!isa::operand_fits_slot(info, s, shape, s.dwords, why))
      fail(fmt::format("operand {} ({}) is {}{}", i, s.name, describe(o, r),
                       why.empty() ? fmt::format(" but must be {}", kind_text(s.kind)) : ", which " + why));
    if (r) check_alignment(*r, i, s);
  }

  // An offset the row's encoding cannot hold (jit/isa/encoding_rules.hpp offset_range), at the call
  // rather than after register allocation.
  void check_offset(const char* what, int64_t v, bool pair) const {
    auto r = isa::offset_range(info, pair);
    if (r && (v < r->lo || v > r->hi))
      fail(fmt::format("{}({}) does not fit the {} encoding's offset field (valid: {})", what, v,
                       isa::family_name(info.family), r->what));
  }

  // A DPP control: the row must have a DPP form taking this control on this arch, and the operands must
  // fit the 32-bit DPP encoding (every vector source a VGPR, carries in vcc, no VOP3-only modifier).
  void check_dpp(const Dpp& d, const std::vector<Opnd>& ops, const isa::Modifiers& m) const {
    std::string why;
    if (!isa::dpp_ctrl_allowed(info, k.arch, d.ctrl, why)) fail(why + fmt::format(" (Dpp made at {})", where(d.loc)));
    if (m.clamp || m.omod || m.op_sel) fail("a DPP instruction takes no clamp/omod/op_sel modifier (the DPP form is the 32-bit encoding)");
    for (size_t i = 0; i < ops.size() && i < info.operands.size(); ++i) {
      const isa::OperandSpec& s = info.operands[i];
      const Opnd& o = ops[i];
      // LLVM 22 encodes neg/abs in the DPP word, but the simulator does not run that form, so nothing
      // here could show the result right: refused until it does.
      if (std::holds_alternative<Neg>(o.v) || std::holds_alternative<Abs>(o.v))
        fail(fmt::format("operand {} ({}): neg/abs under a DPP control are not supported yet (the simulator does not run "
                         "that form; valid: negate or take |x| in a separate instruction)", i, s.name));
      auto* sp = std::get_if<isa::SpecialReg>(&o.v);
      if (s.kind == isa::OpKind::SReg && s.dwords == 2 && !(sp && *sp == isa::SpecialReg::VCC))
        fail(fmt::format("operand {} ({}) must be vcc with a DPP control (the 32-bit encoding has no other lane mask)", i, s.name));
      if (s.is_def) continue;
      const Reg* r = std::get_if<Reg>(&o.v);
      if (auto* n = std::get_if<Neg>(&o.v)) r = &n->r;
      if (auto* a = std::get_if<Abs>(&o.v)) r = &a->r;
      const bool vector_src = s.kind == isa::OpKind::VSrc || s.kind == isa::OpKind::VSrcNoLit || s.kind == isa::OpKind::VReg;
      if (vector_src && !(r && r->cls == RegClass::V))
        fail(fmt::format("operand {} ({}) is {}, but with a DPP control every vector source must be a VGPR "
                         "(valid: copy it into a VGPR first)", i, s.name, describe(o, r)));
    }
  }

  // A tuple operand starts at a register aligned as gfx90a+ requires (isa::target::tuple_alignment).
  // Where that depends only on the declaration (a slice starting at an odd dword of an even-aligned
  // tuple, or a pinned register), it is known here; anything else is checked after allocation
  // (check_machine_program).
  void check_alignment(const Reg& r, size_t i, const isa::OperandSpec& s) const {
    const VRegDecl& d = k.vregs[r.id];
    const isa::RegFile file = r.cls == RegClass::S ? isa::RegFile::SGPR : r.cls == RegClass::V ? isa::RegFile::VGPR : isa::RegFile::AGPR;
    const int need = isa::target::tuple_alignment(file, r.dwords);
    if (need == 1 || s.unaligned) return;
    const bool misaligned = d.pinned >= 0 ? (d.pinned + r.first) % need != 0 : d.align % need == 0 && r.first % need != 0;
    if (!misaligned) return;
    fail(fmt::format("operand {} ({}) is {} '{}', which starts at dword {} of its {}-dword register: a {}-dword {} operand "
                     "must start at a register that is a multiple of {} on gfx90a+ (valid: a slice whose first dword is a "
                     "multiple of {}, e.g. .slice({}, {}))",
                     i, s.name, class_name(r.cls), k.reg_label(r), r.first, d.dwords, r.dwords, class_name(r.cls), need,
                     need, r.first / need * need, r.dwords));
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
          c.check_offset("Offset", x.bytes, false);
          m.offset = x.bytes;
        } else if constexpr (std::is_same_v<T, Offset0>) {
          need(isa::kModOffset01, "offset0:");
          c.check_offset("Offset0", x.v, true);
          m.offset0 = x.v;
        } else if constexpr (std::is_same_v<T, Offset1>) {
          need(isa::kModOffset01, "offset1:");
          c.check_offset("Offset1", x.v, true);
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
  // The operands stay in the caller's list (moved into `out`, no copy): modifiers are folded
  // into out.mods and leave it, the rest close up in order.
  std::optional<Dpp> dpp;
  size_t kept = 0;
  for (size_t j = 0; j < ops.size(); ++j) {
    Opnd& o = ops[j];
    if (auto* d = std::get_if<Dpp>(&o.v)) {
      if (dpp) c.fail(fmt::format("two DPP controls (made at {} and {}); an instruction takes one", where(dpp->loc), where(d->loc)));
      dpp = *d;
      continue;
    }
    if (auto* sw = std::get_if<Swizzle>(&o.v)) {
      if (!isa::offset_is_swizzle(info))
        c.fail(fmt::format("takes no Swizzle (made at {}): only ds_swizzle_b32's offset is a lane pattern "
                           "(valid: Dpp controls on VOP1/VOP2 instructions, Offset(bytes) on memory instructions)", where(sw->loc)));
      out.mods.offset = sw->offset;
      continue;
    }
    if (fold_modifier(o, info, out.mods, c)) continue;
    if (kept != j) ops[kept] = std::move(o);
    ++kept;
  }
  ops.erase(ops.begin() + long(kept), ops.end());
  out.ops = std::move(ops);
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
    spec.dwords = isa::slot_dwords(info, spec, out.mods);
    // GLOBAL addressing: a 64-bit VGPR address with saddr `off`, or a 32-bit VGPR offset with an SGPR-pair base.
    if (spec.kind == isa::OpKind::VAddr && (info.family == isa::Family::GLOBAL)) {
      for (size_t j = i + 1; j < out.ops.size(); ++j)
        if (info.operands[j].kind == isa::OpKind::SAddrOrOff && std::holds_alternative<Reg>(out.ops[j].v)) spec.dwords = 1;
    }
    c.check(out.ops[i], i, spec);
  }
  if (dpp) {
    c.check_dpp(*dpp, out.ops, out.mods);
    if (!out.mods.extra.empty()) out.mods.extra += ' ';
    out.mods.extra += isa::dpp_modifier_text(dpp->ctrl, dpp->rows, dpp->banks, dpp->zero_invalid);
    out.defs_also_read = isa::dpp_may_keep_old(dpp->ctrl, dpp->rows, dpp->banks, dpp->zero_invalid);
  }
}

void check_machine_program(const Kernel::Impl& k, const std::vector<isa::MachineInst>& prog,
                           const std::vector<uint32_t>& first_same) {
  std::string why;
  for (size_t i = 0; i < prog.size(); ++i) {
    const isa::MachineInst& mi = prog[i];
    // A repeat of an earlier instruction passed with it: the first failing instruction is
    // always the first of its kind, so the error is the one a check of every entry gives.
    if (!mi.info || first_same[i] != i || isa::validate(mi, k.arch, why)) continue;
    if (mi.source < 0) throw Error(fmt::format("kernel '{}', an instruction a pass inserted: {}", k.name, why));
    const IrInst& in = k.program[size_t(mi.source)];
    std::string names;
    for (const Opnd& o : in.ops) {
      const Reg* r = std::get_if<Reg>(&o.v);
      if (auto* n = std::get_if<Neg>(&o.v)) r = &n->r;
      if (auto* a = std::get_if<Abs>(&o.v)) r = &a->r;
      if (r) names += fmt::format("{}'{}'", names.empty() ? "" : ", ", k.reg_label(*r));
    }
    throw Error(fmt::format("{}: {} ({}) is not encodable after register allocation: {}{}", where(in.loc), mi.info->mnemonic,
                            arch_name(k.arch), why, names.empty() ? "" : " (the call's registers: " + names + ")"));
  }
}

}  // namespace cdnajit
