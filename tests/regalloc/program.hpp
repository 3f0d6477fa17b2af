// Small helper for writing regalloc test programs by hand.
#pragma once
#include <string>
#include <vector>

#include "jit/regalloc/regalloc.hpp"

namespace ratest {

using namespace cdnajit::regalloc;

struct Program {
  Function f;

  uint32_t reg(RegClass c, std::string name, int dwords = 1, int align = 1, int pinned = -1, bool live_in = false) {
    VirtualReg r;
    r.cls = c;
    r.dwords = uint16_t(dwords);
    r.align = uint16_t(align);
    r.pinned = pinned;
    r.live_in = live_in;
    r.origin = "test.cpp:" + std::to_string(f.vregs.size() + 100);
    r.name = std::move(name);
    f.vregs.push_back(r);
    return uint32_t(f.vregs.size() - 1);
  }
  uint32_t v(std::string name, int dwords = 1, int align = 1) { return reg(RegClass::V, std::move(name), dwords, align); }
  uint32_t s(std::string name, int dwords = 1, int align = 1) { return reg(RegClass::S, std::move(name), dwords, align); }

  uint32_t block() {
    f.blocks.emplace_back();
    return uint32_t(f.blocks.size() - 1);
  }
  void edge(uint32_t from, uint32_t to) { f.blocks[from].succs.push_back(to); }

  // Appends an instruction to block b; returns its linear position.
  int ins(uint32_t b, std::vector<uint32_t> uses, std::vector<uint32_t> defs, std::vector<uint32_t> partial = {}) {
    Instr in;
    in.uses = std::move(uses);
    in.defs = std::move(defs);
    in.partial_defs = std::move(partial);
    int pos = 0;
    for (uint32_t i = 0; i < b; ++i) pos += int(f.blocks[i].instrs.size());
    pos += int(f.blocks[b].instrs.size());
    in.origin = "kernel.cpp:" + std::to_string(pos + 1000);
    f.blocks[b].instrs.push_back(std::move(in));
    return pos;
  }
};

// prefix + number (append form: GCC 12 warns falsely on "lit" + std::to_string()).
inline std::string numbered(const char* prefix, size_t i) { return std::string(prefix).append(std::to_string(i)); }

// True if the physical ranges of a and b (same class) share a dword.
inline bool phys_overlap(const Function& f, const Allocation& a, uint32_t x, uint32_t y) {
  if (f.vregs[x].cls != f.vregs[y].cls || a.phys[x] < 0 || a.phys[y] < 0) return false;
  return a.phys[x] < a.phys[y] + f.vregs[y].dwords && a.phys[y] < a.phys[x] + f.vregs[x].dwords;
}

}  // namespace ratest
