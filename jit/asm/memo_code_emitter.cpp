#include "jit/asm/memo_code_emitter.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"

namespace cdnajit {
namespace {

// Open addressing over keys of 64-bit words kept in one pool: a lookup builds the key in a
// scratch buffer, hashes it and compares words, without allocating.
class MemoCodeEmitter final : public llvm::MCCodeEmitter {
 public:
  explicit MemoCodeEmitter(std::unique_ptr<llvm::MCCodeEmitter> inner) : inner_(std::move(inner)) {}

  void reset() override {
    inner_->reset();
    slots_.clear();
    keys_.clear();
    bytes_.clear();
    used_ = 0;
  }

  void encodeInstruction(const llvm::MCInst& inst, llvm::SmallVectorImpl<char>& out,
                         llvm::SmallVectorImpl<llvm::MCFixup>& fixups, const llvm::MCSubtargetInfo& sti) const override {
    if (!key_of(inst, sti)) {
      inner_->encodeInstruction(inst, out, fixups, sti);
      return;
    }
    const uint64_t h = hash();
    Slot* slot = find(h);
    if (slot && slot->used) {
      out.append(bytes_.data() + slot->bytes_at, bytes_.data() + slot->bytes_at + slot->bytes_size);
      return;
    }
    const size_t start = out.size(), fixups_before = fixups.size();
    inner_->encodeInstruction(inst, out, fixups, sti);
    if (fixups.size() != fixups_before) return;  // not expected without expressions; never reused
    if (2 * (used_ + 1) > slots_.size()) {
      grow();
      slot = find(h);
    }
    *slot = Slot{h, uint32_t(keys_.size()), uint32_t(key_size_), uint32_t(bytes_.size()), uint32_t(out.size() - start), true};
    keys_.insert(keys_.end(), key_, key_ + key_size_);
    bytes_.append(out.begin() + long(start), out.end());
    ++used_;
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t key_at = 0, key_size = 0, bytes_at = 0, bytes_size = 0;
    bool used = false;
  };

  // The instruction as words in key_: the subtarget, opcode and flags, each operand's kind
  // (4 bits each) and value. False if an operand is an expression or a nested instruction
  // (their bytes may depend on the layout and come with fixups), or if it has more operands
  // than the key holds (no AMDGPU instruction has).
  bool key_of(const llvm::MCInst& inst, const llvm::MCSubtargetInfo& sti) const {
    const size_t n = inst.getNumOperands(), kinds_at = 2, values_at = kinds_at + (n + 15) / 16;
    if (values_at + n > kMaxKey) return false;
    key_[0] = reinterpret_cast<uintptr_t>(&sti);
    key_[1] = uint64_t(inst.getOpcode()) | uint64_t(inst.getFlags()) << 32;
    for (size_t k = kinds_at; k < values_at; ++k) key_[k] = 0;
    for (size_t i = 0; i < n; ++i) {
      const llvm::MCOperand& op = inst.getOperand(unsigned(i));
      uint64_t kind = 0, value = 0;
      if (op.isReg()) kind = 1, value = op.getReg().id();
      else if (op.isImm()) kind = 2, value = uint64_t(op.getImm());
      else if (op.isSFPImm()) kind = 3, value = op.getSFPImm();
      else if (op.isDFPImm()) kind = 4, value = op.getDFPImm();
      else return false;
      key_[kinds_at + i / 16] |= kind << (4 * (i % 16));
      key_[values_at + i] = value;
    }
    key_size_ = values_at + n;
    return true;
  }

  uint64_t hash() const {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ key_size_;
    for (size_t k = 0; k < key_size_; ++k) {
      h ^= key_[k];
      h *= 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }
    return h;
  }

  // The slot holding key_ (used), or the empty slot where it would go; null if the table is empty.
  Slot* find(uint64_t h) const {
    if (slots_.empty()) return nullptr;
    const size_t mask = slots_.size() - 1;
    for (size_t i = size_t(h) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!s.used) return &s;
      if (s.hash == h && s.key_size == key_size_ && std::equal(key_, key_ + key_size_, keys_.begin() + s.key_at))
        return &s;
    }
  }

  void grow() const {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : 2 * old.size(), Slot{});
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!s.used) continue;
      size_t i = size_t(s.hash) & mask;
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::unique_ptr<llvm::MCCodeEmitter> inner_;
  static constexpr size_t kMaxKey = 64;
  mutable uint64_t key_[kMaxKey];       // scratch: the key of the instruction being encoded
  mutable size_t key_size_ = 0;
  mutable std::vector<Slot> slots_;     // a power of two, at most half used
  mutable std::vector<uint64_t> keys_;  // the keys of the used slots
  mutable std::string bytes_;           // their encodings
  mutable size_t used_ = 0;
};

}  // namespace

std::unique_ptr<llvm::MCCodeEmitter> memo_code_emitter(std::unique_ptr<llvm::MCCodeEmitter> inner) {
  return std::make_unique<MemoCodeEmitter>(std::move(inner));
}

}  // namespace cdnajit
