// Reads of a virtual register that some path from the kernel entry reaches
// without writing it: the read sees whatever the physical register held (a
// silent wrong result). A forward "must be written" dataflow: a register is
// defined at a point when EVERY path from the entry to it writes it (or it is
// an ABI value, live_in). Intersection over predecessors, iterated to a fixed
// point; blocks not yet reached start as "everything written" (the top).
// A partial def (a slice written) counts as writing the register: tuples are
// assembled slice by slice.
#include <bit>

#include "jit/regalloc/regalloc.hpp"

namespace cdnajit::regalloc {

namespace {

using Bits = std::vector<uint64_t>;
void set_bit(Bits& b, uint32_t v) { b[v / 64] |= uint64_t(1) << (v % 64); }
bool test_bit(const Bits& b, uint32_t v) { return (b[v / 64] >> (v % 64)) & 1; }

}  // namespace

std::vector<MaybeUndefinedRead> find_maybe_undefined_reads(const Function& f,
                                                            std::span<const std::pair<uint32_t, uint32_t>> ignored_edges) {
  const size_t words = (f.vregs.size() + 63) / 64, nb = f.blocks.size();
  std::vector<MaybeUndefinedRead> out;
  if (nb == 0) return out;
  std::vector<std::vector<uint32_t>> preds(nb);
  // Each ignored edge removes one occurrence: a conditional branch to the next block lists
  // that block twice (taken and fall-through), and the fall-through edge stays.
  std::vector<char> ignored_used(ignored_edges.size(), 0);
  auto ignore = [&](uint32_t b, uint32_t s) {
    for (size_t e = 0; e < ignored_edges.size(); ++e)
      if (!ignored_used[e] && ignored_edges[e] == std::pair(b, s)) return ignored_used[e] = 1;
    return char(0);
  };
  for (size_t b = 0; b < nb; ++b)
    for (uint32_t s : f.blocks[b].succs)
      if (s < nb && !ignore(uint32_t(b), s)) preds[s].push_back(uint32_t(b));
  // Written by each block (fully or partially).
  std::vector<Bits> gen(nb, Bits(words, 0));
  for (size_t b = 0; b < nb; ++b)
    for (const Instr& in : f.blocks[b].instrs) {
      for (uint32_t v : in.defs) set_bit(gen[b], v);
      for (uint32_t v : in.partial_defs) set_bit(gen[b], v);
    }
  Bits entry(words, 0);
  for (uint32_t v = 0; v < f.vregs.size(); ++v)
    if (f.vregs[v].live_in) set_bit(entry, v);
  std::vector<Bits> in(nb, Bits(words, ~uint64_t(0))), outb(nb, Bits(words, ~uint64_t(0)));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < nb; ++b) {
      Bits x = b == 0 ? entry : Bits(words, ~uint64_t(0));
      if (b != 0)
        for (uint32_t p : preds[b])
          for (size_t w = 0; w < words; ++w) x[w] &= outb[p][w];
      Bits o = x;
      for (size_t w = 0; w < words; ++w) o[w] |= gen[b][w];
      if (x != in[b] || o != outb[b]) {
        in[b] = std::move(x);
        outb[b] = std::move(o);
        changed = true;
      }
    }
  }
  // First write of each register in layout order, for the message.
  std::vector<const Instr*> first_write(f.vregs.size(), nullptr);
  for (const Block& blk : f.blocks)
    for (const Instr& ins : blk.instrs)
      for (const auto* list : {&ins.defs, &ins.partial_defs})
        for (uint32_t v : *list)
          if (!first_write[v]) first_write[v] = &ins;
  for (size_t b = 0; b < nb; ++b) {
    // A block no path from the entry reaches (still "top") reads nothing at run time.
    if (b != 0 && preds[b].empty()) continue;
    Bits cur = in[b];
    for (const Instr& ins : f.blocks[b].instrs) {
      for (uint32_t v : ins.uses)
        if (v < f.vregs.size() && !test_bit(cur, v)) {
          out.push_back({v, ins.origin, first_write[v] ? first_write[v]->origin : std::string()});
          set_bit(cur, v);  // one report per register and block
        }
      for (uint32_t v : ins.defs) set_bit(cur, v);
      for (uint32_t v : ins.partial_defs) set_bit(cur, v);
    }
  }
  return out;
}

}  // namespace cdnajit::regalloc
