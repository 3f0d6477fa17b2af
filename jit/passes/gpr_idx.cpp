#include "jit/passes/gpr_idx.hpp"

#include <algorithm>

#include "jit/isa/opcode.hpp"

namespace cdnajit::passes {
namespace {

// The mode after `mi` given the mode before it.
bool mode_after(const isa::MachineInst& mi, bool on) {
  if (!mi.info) return on;
  const isa::Opcode op = isa::opcode_of(*mi.info);
  if (op == isa::Opcode::s_set_gpr_idx_on) return true;
  if (op == isa::Opcode::s_set_gpr_idx_off) return false;
  // MODE.GPR_IDX_EN is bit 27 of MODE: an s_setreg may set it (the field is not decoded here).
  if (op == isa::Opcode::s_setreg_b32 || op == isa::Opcode::s_setreg_imm32_b32) return true;
  return on;
}

}  // namespace

std::vector<char> gpr_idx_may_be_on(const std::vector<isa::MachineInst>& program, const Cfg& cfg) {
  std::vector<char> on(program.size(), 0);
  bool any = false;
  for (const auto& mi : program) any = any || mode_after(mi, false);
  if (!any) return on;
  // Forward "may" dataflow over blocks: on at a block's entry if on at the exit of a predecessor;
  // off at the kernel entry (MODE's reset value).
  std::vector<char> out(cfg.blocks.size(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (int b : cfg.rpo) {
      const Block& blk = cfg.blocks[size_t(b)];
      bool m = false;
      for (int p : blk.preds) m = m || out[size_t(p)];
      for (size_t i = blk.begin; i < blk.end; ++i) {
        on[i] = m;
        m = mode_after(program[i], m);
      }
      if (char(m) != out[size_t(b)]) out[size_t(b)] = char(m), changed = true;
    }
  }
  return on;
}

size_t widen_gpr_indexed(const std::vector<isa::MachineInst>& program, const Cfg& cfg, std::vector<Access>& access) {
  const std::vector<char> on = gpr_idx_may_be_on(program, cfg);
  size_t widened = 0;
  for (size_t i = 0; i < program.size(); ++i) {
    const isa::InstrInfo* info = program[i].info;
    if (!on[i] || !info || (info->unit != isa::Unit::VALU && info->unit != isa::Unit::MFMA)) continue;
    bool any = false;
    decltype(access[i].explicit_regs) regs;
    for (RegOperand r : access[i].explicit_regs) {
      if (r.units.first >= kVgpr0 && r.units.first < kAgpr0) {  // only VGPRs are indexed
        r.units.count = std::min(r.units.first + r.units.count + 255, kAgpr0) - r.units.first;
        any = true;
      }
      regs.push_back(r);
    }
    if (any) access[i].explicit_regs = std::move(regs), ++widened;
  }
  return widened;
}

}  // namespace cdnajit::passes
