// Reads of a virtual register that some path from the kernel entry reaches
// without writing it: the read sees whatever the physical register held (a
// silent wrong result). A forward "must be written" dataflow: a register is
// defined at a point when EVERY path from the entry to it writes it (or it is
// an ABI value, live_in). Intersection over predecessors, iterated to a fixed
// point; blocks not yet reached start as "everything written" (the top).
// A partial def (a slice written) counts as writing the register: tuples are
// assembled slice by slice.
//
// Scalar and vector registers see different CFGs (the vector ones without the
// skipped edges), but each register's bit is its own dataflow, so one sweep
// serves both: along a skipped edge the vector bits arrive as "written" (the
// top, the neutral element of the intersection), which is the edge being absent
// for them, while the scalar bits arrive as along any other edge.
#include <bit>

#include "jit/regalloc/regalloc.hpp"

namespace cdnajit::regalloc {

namespace {

void set_bit(uint64_t* b, uint32_t v) { b[v / 64] |= uint64_t(1) << (v % 64); }
bool test_bit(const uint64_t* b, uint32_t v) { return (b[v / 64] >> (v % 64)) & 1; }

struct Pred {
  uint32_t block;
  bool skipped_by_vectors;  // one of the vector-skipped edges
};

}  // namespace

std::vector<MaybeUndefinedRead> find_maybe_undefined_reads(
    const Function& f, std::span<const std::pair<uint32_t, uint32_t>> vector_skipped_edges) {
  const size_t words = (f.vregs.size() + 63) / 64, nb = f.blocks.size();
  std::vector<MaybeUndefinedRead> out;
  // Without registers nothing can be read undefined (and the per-block bit rows below would be
  // empty: &in[b * words] on an empty vector is undefined behaviour).
  if (nb == 0 || words == 0) return out;
  std::vector<std::vector<Pred>> preds(nb);
  // Each skipped edge removes one occurrence: a conditional branch to the next block lists
  // that block twice (taken and fall-through), and the fall-through edge stays.
  std::vector<char> skip_used(vector_skipped_edges.size(), 0);
  auto skipped = [&](uint32_t b, uint32_t s) {
    for (size_t e = 0; e < vector_skipped_edges.size(); ++e)
      if (!skip_used[e] && vector_skipped_edges[e] == std::pair(b, s)) {
        skip_used[e] = 1;
        return true;
      }
    return false;
  };
  for (size_t b = 0; b < nb; ++b)
    for (uint32_t s : f.blocks[b].succs)
      if (s < nb) preds[s].push_back({uint32_t(b), skipped(uint32_t(b), s)});
  // The vector registers' bits: what a skipped edge delivers as "written".
  std::vector<uint64_t> vector_bits(words, 0);
  for (uint32_t v = 0; v < f.vregs.size(); ++v)
    if (f.vregs[v].cls != RegClass::S) set_bit(vector_bits.data(), v);
  // Per block, `words` words each: written by the block (fully or partially), and the state
  // on entry and exit.
  std::vector<uint64_t> gen(nb * words, 0), in(nb * words, ~uint64_t(0)), outb(nb * words, ~uint64_t(0));
  for (size_t b = 0; b < nb; ++b)
    for (const Instr& ins : f.blocks[b].instrs) {
      for (uint32_t v : ins.defs) set_bit(&gen[b * words], v);
      for (uint32_t v : ins.partial_defs) set_bit(&gen[b * words], v);
    }
  std::vector<uint64_t> entry(words, 0);
  for (uint32_t v = 0; v < f.vregs.size(); ++v)
    if (f.vregs[v].live_in) set_bit(entry.data(), v);
  std::vector<uint64_t> x(words);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < nb; ++b) {
      if (b == 0) {
        x = entry;
      } else {
        std::fill(x.begin(), x.end(), ~uint64_t(0));
        for (const Pred& p : preds[b]) {
          const uint64_t* po = &outb[p.block * words];
          if (p.skipped_by_vectors)
            for (size_t w = 0; w < words; ++w) x[w] &= po[w] | vector_bits[w];
          else
            for (size_t w = 0; w < words; ++w) x[w] &= po[w];
        }
      }
      uint64_t* bi = &in[b * words];
      uint64_t* bo = &outb[b * words];
      const uint64_t* g = &gen[b * words];
      for (size_t w = 0; w < words; ++w) {
        const uint64_t o = x[w] | g[w];
        if (x[w] != bi[w] || o != bo[w]) {
          bi[w] = x[w];
          bo[w] = o;
          changed = true;
        }
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
  // Scalar registers' reads first, then the vector registers' (each in layout order).
  std::vector<MaybeUndefinedRead> vector_reads;
  std::vector<uint64_t> cur(words);
  for (size_t b = 0; b < nb; ++b) {
    // A block no path from the entry reaches (still "top") reads nothing at run time.
    if (b != 0 && preds[b].empty()) continue;
    std::copy(&in[b * words], &in[b * words] + words, cur.begin());
    for (const Instr& ins : f.blocks[b].instrs) {
      for (uint32_t v : ins.uses)
        if (v < f.vregs.size() && !test_bit(cur.data(), v)) {
          (f.vregs[v].cls == RegClass::S ? out : vector_reads)
              .push_back({v, ins.origin, first_write[v] ? first_write[v]->origin : std::string()});
          set_bit(cur.data(), v);  // one report per register and block
        }
      for (uint32_t v : ins.defs) set_bit(cur.data(), v);
      for (uint32_t v : ins.partial_defs) set_bit(cur.data(), v);
    }
  }
  out.insert(out.end(), std::make_move_iterator(vector_reads.begin()), std::make_move_iterator(vector_reads.end()));
  return out;
}

}  // namespace cdnajit::regalloc
