#include "jit/isa/same_instruction.hpp"

#include <functional>
#include <string_view>

namespace cdnajit::isa {
namespace {

bool same_operand(const Operand& a, const Operand& b) {
  return a.kind == b.kind && a.file == b.file && a.special == b.special && a.index == b.index && a.dwords == b.dwords &&
         a.neg == b.neg && a.abs == b.abs && a.imm == b.imm && a.label == b.label;
}

bool same_mods(const Modifiers& a, const Modifiers& b) {
  return a.offset == b.offset && a.offset0 == b.offset0 && a.offset1 == b.offset1 && a.sc0 == b.sc0 && a.sc1 == b.sc1 &&
         a.nt == b.nt && a.lds == b.lds && a.offen == b.offen && a.idxen == b.idxen && a.clamp == b.clamp &&
         a.omod == b.omod && a.op_sel == b.op_sel && a.op_sel_hi == b.op_sel_hi && a.neg_lo == b.neg_lo &&
         a.neg_hi == b.neg_hi && a.op_sel_hi_set == b.op_sel_hi_set && a.cbsz == b.cbsz && a.abid == b.abid &&
         a.blgp == b.blgp && a.extra == b.extra;
}

struct Hasher {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  void add(uint64_t v) {
    h ^= v;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  void add(std::string_view s) { add(std::hash<std::string_view>{}(s)); }
};

uint64_t hash_of(const MachineInst& mi) {
  Hasher x;
  x.add(uint64_t(reinterpret_cast<uintptr_t>(mi.info)));
  // The mnemonic only by its length (same_instruction compares it): the row mostly decides it.
  x.add(mi.mnemonic.size());
  for (const Operand& o : mi.operands) {
    x.add(uint64_t(o.kind) | uint64_t(o.file) << 8 | uint64_t(o.special) << 16 | uint64_t(o.index) << 24 |
          uint64_t(o.dwords) << 40 | uint64_t(o.neg) << 48 | uint64_t(o.abs) << 49);
    x.add(uint64_t(o.imm));
    if (!o.label.empty()) x.add(o.label);
  }
  const Modifiers& m = mi.mods;
  x.add(uint64_t(uint32_t(m.offset)) | uint64_t(uint32_t(m.offset0)) << 32);
  x.add(uint64_t(uint32_t(m.offset1)) | uint64_t(m.op_sel) << 32 | uint64_t(m.op_sel_hi) << 40 |
        uint64_t(m.neg_lo) << 48 | uint64_t(m.neg_hi) << 56);
  x.add(uint64_t(m.sc0) | uint64_t(m.sc1) << 1 | uint64_t(m.nt) << 2 | uint64_t(m.lds) << 3 | uint64_t(m.offen) << 4 |
        uint64_t(m.idxen) << 5 | uint64_t(m.clamp) << 6 | uint64_t(m.op_sel_hi_set) << 7 | uint64_t(m.omod) << 8 |
        uint64_t(m.cbsz) << 16 | uint64_t(m.abid) << 24 | uint64_t(m.blgp) << 32);
  if (!m.extra.empty()) x.add(m.extra);
  if (!mi.raw.empty()) x.add(mi.raw);
  if (!mi.label_def.empty()) x.add(mi.label_def);
  x.add(mi.address);
  x.add(mi.size_bytes);
  return x.h;
}

}  // namespace

bool same_instruction(const MachineInst& a, const MachineInst& b) {
  if (a.info != b.info || a.mnemonic != b.mnemonic || a.operands.size() != b.operands.size() || a.raw != b.raw ||
      a.label_def != b.label_def || a.address != b.address || a.size_bytes != b.size_bytes || !same_mods(a.mods, b.mods))
    return false;
  for (size_t i = 0; i < a.operands.size(); ++i)
    if (!same_operand(a.operands[i], b.operands[i])) return false;
  return true;
}

void first_same_instruction(const std::vector<MachineInst>& prog, std::vector<uint32_t>& out) {
  out.resize(prog.size());
  // Open addressing, at most half full: each slot holds an entry index + 1 (0: empty).
  size_t capacity = 64;
  while (capacity < 2 * prog.size()) capacity *= 2;
  thread_local std::vector<uint32_t> slots;
  thread_local std::vector<uint64_t> hashes;
  slots.assign(capacity, 0);
  hashes.resize(prog.size());
  const size_t mask = capacity - 1;
  for (size_t i = 0; i < prog.size(); ++i) {
    const uint64_t h = hashes[i] = hash_of(prog[i]);
    for (size_t s = size_t(h) & mask;; s = (s + 1) & mask) {
      if (slots[s] == 0) {
        slots[s] = uint32_t(i + 1);
        out[i] = uint32_t(i);
        break;
      }
      const uint32_t j = slots[s] - 1;
      if (hashes[j] == h && same_instruction(prog[j], prog[i])) {
        out[i] = j;
        break;
      }
    }
  }
}

}  // namespace cdnajit::isa
