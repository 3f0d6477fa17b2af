// Structural comparison of two MachineInsts for round-trip tests.
#pragma once
#include <string>

#include "jit/isa/machine_inst.hpp"

namespace cdnajit::isa::test {

// Empty when equal, else a description of the first difference.
inline std::string difference(const MachineInst& a, const MachineInst& b) {
  if (a.info != b.info) return "info differs";
  if (a.mnemonic != b.mnemonic) return "mnemonic " + a.mnemonic + " vs " + b.mnemonic;
  if (a.label_def != b.label_def) return "label_def differs";
  if (a.operands.size() != b.operands.size())
    return "operand count " + std::to_string(a.operands.size()) + " vs " + std::to_string(b.operands.size());
  for (size_t i = 0; i < a.operands.size(); ++i) {
    const Operand &x = a.operands[i], &y = b.operands[i];
    bool same = x.kind == y.kind && x.neg == y.neg && x.abs == y.abs;
    if (same && x.kind == Operand::Kind::Reg) same = x.file == y.file && x.index == y.index && x.dwords == y.dwords;
    if (same && x.kind == Operand::Kind::Special) same = x.special == y.special;
    if (same && (x.kind == Operand::Kind::Imm || x.kind == Operand::Kind::FImm)) same = x.imm == y.imm;
    if (same && x.kind == Operand::Kind::Label) same = x.imm == y.imm && x.label == y.label;
    if (!same) return "operand " + std::to_string(i) + ": " + print_operand(x) + " vs " + print_operand(y);
  }
  const Modifiers &m = a.mods, &n = b.mods;
  if (m.offset != n.offset || m.offset0 != n.offset0 || m.offset1 != n.offset1) return "offsets differ";
  if (m.sc0 != n.sc0 || m.sc1 != n.sc1 || m.nt != n.nt) return "cache bits differ";
  if (m.lds != n.lds || m.offen != n.offen || m.idxen != n.idxen) return "lds/offen/idxen differ";
  if (m.clamp != n.clamp || m.omod != n.omod) return "clamp/omod differ";
  if (m.op_sel != n.op_sel || m.op_sel_hi != n.op_sel_hi || m.op_sel_hi_set != n.op_sel_hi_set ||
      m.neg_lo != n.neg_lo || m.neg_hi != n.neg_hi)
    return "op_sel/neg differ";
  if (m.cbsz != n.cbsz || m.abid != n.abid || m.blgp != n.blgp) return "cbsz/abid/blgp differ";
  if (m.extra != n.extra) return "extra '" + m.extra + "' vs '" + n.extra + "'";
  if (a.comment != b.comment) return "comment differs";
  return {};
}

}  // namespace cdnajit::isa::test
