#include "jit/passes/gpr_idx.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "jit/isa/opcode.hpp"

namespace cdnajit::passes {
namespace {

// Dataflow state: bit 4 = the mode may be on, bits 0..3 = the M0[15:12] enables (SRC0, SRC1, SRC2,
// DST) that may be set. Merging paths ORs the states (a "may" analysis).
constexpr uint8_t kOn = 16, kAllSlots = 15;

uint8_t imm_or_all(const isa::MachineInst& mi, size_t k) {
  if (k < mi.operands.size() && mi.operands[k].kind == isa::Operand::Kind::Imm) return uint8_t(mi.operands[k].imm & kAllSlots);
  return kAllSlots;
}

// The state after instruction i given the state before it.
uint8_t state_after(const isa::MachineInst& mi, const Access& acc, uint8_t st) {
  if (!mi.info) return acc.unknown ? uint8_t(kOn | kAllSlots) : st;  // raw text: could be anything
  const isa::Opcode op = isa::opcode_of(*mi.info);
  if (op == isa::Opcode::s_set_gpr_idx_on) return uint8_t(kOn | imm_or_all(mi, 1));  // M0[15:12] = SIMM4
  if (op == isa::Opcode::s_set_gpr_idx_off) return uint8_t(st & kAllSlots);
  if (op == isa::Opcode::s_set_gpr_idx_mode) return uint8_t((st & kOn) | imm_or_all(mi, 0));
  // MODE.GPR_IDX_EN is bit 27 of MODE: an s_setreg may set it (the field is not decoded here).
  if (op == isa::Opcode::s_setreg_b32 || op == isa::Opcode::s_setreg_imm32_b32) st |= kOn | kAllSlots;
  if (acc.writes(kM0Unit)) st |= kAllSlots;  // any other M0 write may set the enables
  return st;
}

}  // namespace

std::vector<uint8_t> gpr_idx_enables(const std::vector<isa::MachineInst>& program, const Cfg& cfg,
                                     const std::vector<Access>& access) {
  std::vector<uint8_t> in(program.size(), 0);
  bool any = false;
  for (const auto& mi : program) {
    if (!mi.info) continue;
    const isa::Opcode op = isa::opcode_of(*mi.info);  // once per instruction, not once per opcode compared
    any = any || op == isa::Opcode::s_set_gpr_idx_on || op == isa::Opcode::s_setreg_b32 || op == isa::Opcode::s_setreg_imm32_b32;
  }
  if (!any) return in;
  // Forward dataflow over blocks; off at the kernel entry (MODE's reset value), enables unknown.
  std::vector<uint8_t> out(cfg.blocks.size(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (int b : cfg.rpo) {
      const Block& blk = cfg.blocks[size_t(b)];
      uint8_t st = blk.begin == 0 ? kAllSlots : 0;
      for (int p : blk.preds) st |= out[size_t(p)];
      for (size_t i = blk.begin; i < blk.end; ++i) {
        in[i] = st & kOn ? uint8_t(st & kAllSlots) : 0;
        st = state_after(program[i], access[i], st);
      }
      if (st != out[size_t(b)]) out[size_t(b)] = st, changed = true;
    }
  }
  return in;
}

size_t widen_gpr_indexed(const std::vector<isa::MachineInst>& program, const Cfg& cfg, std::vector<Access>& access) {
  const std::vector<uint8_t> enables = gpr_idx_enables(program, cfg, access);
  size_t widened = 0;
  for (size_t i = 0; i < program.size(); ++i) {
    const isa::InstrInfo* info = program[i].info;
    if (!enables[i] || !info || (info->unit != isa::Unit::VALU && info->unit != isa::Unit::MFMA)) continue;
    bool any = false;
    decltype(access[i].explicit_regs) regs;
    for (RegOperand r : access[i].explicit_regs) {
      const int slot = r.op_index < info->operands.size() ? isa::gpr_idx_slot(info->operands[r.op_index]) : -1;
      // Only VGPRs are indexed; an operand with no known slot is widened whenever any slot may be enabled.
      if (r.units.first >= kVgpr0 && r.units.first < kAgpr0 && (slot < 0 || ((enables[i] >> slot) & 1))) {
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
