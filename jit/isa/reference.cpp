#include "jit/isa/reference.hpp"

#include <fnmatch.h>

#include "jit/isa/cross_lane.hpp"
#include "jit/isa/encoding_rules.hpp"
#include "jit/isa/operand_fit.hpp"
#include "jit/isa/validate.hpp"

namespace cdnajit::isa {
namespace {

std::string archs_text(const InstrInfo& info) {
  if (info.archs == kAllArchs) return "gfx942, gfx950";
  return info.archs == kGfx942 ? "gfx942 only" : "gfx950 only";
}

std::string operand_line(const OperandSpec& op) {
  std::string s = "- `" + std::string(op.name) + "`" + (op.is_def ? " (written" + std::string(op.also_read ? " and read)" : ")") : "") +
                  (op.optional ? " (optional)" : "") + ": " + std::string(operand_kind_text(op.kind));
  if (op.dwords > 1) s += ", " + std::to_string(op.dwords) + " dwords";
  return s + "\n";
}

}  // namespace

std::string reference_entry(const InstrInfo& info) {
  std::string s = "### " + std::string(info.mnemonic) + "\n\n```cpp\nk." + std::string(info.mnemonic) + "(";
  for (size_t i = 0; i < info.operands.size(); ++i)
    s += (i ? ", " : "") + std::string(info.operands[i].name);
  s += ");\n```\n\n";
  bool has_saddr = false;
  for (const OperandSpec& op : info.operands) has_saddr |= op.kind == OpKind::SAddrOrOff;
  for (const OperandSpec& op : info.operands) {
    s += operand_line(op);
    // With an SGPR-pair saddr the VGPR is a 32-bit offset, not the 64-bit address (the README's saddr form).
    if (op.kind == OpKind::VAddr && has_saddr)
      s += "  (a 64-bit address with `saddr` off; one VGPR, an unsigned 32-bit byte offset, with an SGPR-pair `saddr`)\n";
  }
  s += "- arch: " + archs_text(info) + "; encoding: " + std::string(family_name(info.family)) +
       "; unit: " + std::string(unit_name(info.unit)) + "; wait counter: " + std::string(counter_name(info.counter)) + "\n";
  s += "- modifiers: " + modifier_names(info.mods) + "\n";
  // The offset range the builder checks at the call (encoding_rules offset_range); SMEM's is left to LLVM MC.
  for (bool pair : {false, true})
    if (info.mods & (pair ? kModOffset01 : kModOffset))
      if (auto r = offset_range(info, pair)) s += std::string("- ") + (pair ? "offset0:/offset1:" : "offset:") + " " + r->what +
                                                 (pair ? ", in elements of the access size (of 64 elements for the st64 forms)\n" : ", in bytes\n");
  if (info.mfma_passes) {
    s += "- MFMA passes (4 cycles each):";
    for (Arch a : {Arch::gfx942, Arch::gfx950})
      if (info.on(a)) s += " " + std::string(arch_name(a)) + " " + std::to_string(mfma_passes(info, a));
    s += "\n";
  }
  if (std::string why; accepts_dpp(info, why))
    s += is_dp_alu_dpp(info) ? "- cross-lane: a DPP control on src0, `Dpp::row_newbcast(lane)` only (64-bit operand)\n"
                             : "- cross-lane: a DPP control on src0 (`Dpp::quad_perm`, `row_shr`, `row_bcast15`, ...)\n";
  if (offset_is_swizzle(info)) s += "- cross-lane: the offset is a lane pattern (`Swizzle::xor_mask`, `quad_perm`, `bitmask`, `broadcast`)\n";
  std::string kinds;
  for (auto [flag, word] : {std::pair{info.is_load, "load"}, {info.is_store, "store"}, {info.is_atomic, "atomic"},
                            {info.is_trans, "transcendental (quarter rate)"}})
    if (flag) kinds += (kinds.empty() ? "" : ", ") + std::string(word);
  if (!kinds.empty()) s += "- kind: " + kinds + "\n";
  return s + "\n";
}

std::string reference_markdown(std::optional<Arch> arch, std::string_view pattern, size_t* count) {
  const std::string glob(pattern);
  std::string body;
  size_t n = 0;
  for (const InstrInfo& info : table()) {
    if (arch && !info.on(*arch)) continue;
    if (!glob.empty() && fnmatch(glob.c_str(), std::string(info.mnemonic).c_str(), 0) != 0) continue;
    body += reference_entry(info);
    ++n;
  }
  if (count) *count = n;
  std::string head = "# Instruction reference (" + std::string(arch ? arch_name(*arch) : "gfx942 and gfx950") +
                     (glob.empty() ? "" : ", matching `" + glob + "`") + "): " + std::to_string(n) + (n == 1 ? " instruction\n\n" : " instructions\n\n") +
                     "Generated from the instruction table (jit/isa/instructions.def) by `cdnajit isa`. Operands in "
                     "assembly order, definitions first; each is one argument of the builder call.\n\n";
  return head + body;
}

}  // namespace cdnajit::isa
