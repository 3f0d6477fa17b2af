// Liveness over the control-flow graph and one live interval per vreg.
//
// 1. Backward dataflow to a fixed point (loops included):
//      live_in(b)  = upward_exposed(b) | (live_out(b) & ~killed(b))
//      live_out(b) = union of live_in(successors)
//    A partial def reads the old value (upward exposed) and kills nothing.
// 2. Forward "may be written" dataflow: written_in(entry) = live_in vregs,
//    written_out(b) = written_in(b) | everything b writes (fully or partially).
//    Live sets are intersected with it: a register holds nothing worth keeping
//    before the first write that can reach it.
// 3. Instructions are numbered linearly in block layout order. A vreg's
//    interval is the single closed range [first, last] position where it is
//    live at a block boundary, read or written (so a value live around a loop
//    back edge covers the whole loop: no holes). live_in vregs start at 0;
//    a def never read still occupies its register at the def instruction.
//
// Interference is "intervals share a position": with closed intervals the
// destination of an instruction never shares a register with its sources
// (conservative and always safe: partially overlapping tuples, loads whose
// data returns after the address was read).
#include <bit>

#include "jit/regalloc/detail.hpp"

namespace cdnajit::regalloc {

namespace {

using Bits = std::vector<uint64_t>;

void set_bit(Bits& b, uint32_t v) { b[v / 64] |= uint64_t(1) << (v % 64); }
bool test_bit(const Bits& b, uint32_t v) { return (b[v / 64] >> (v % 64)) & 1; }

template <class F>
void for_each_bit(const Bits& b, F&& fn) {
  for (size_t w = 0; w < b.size(); ++w)
    for (uint64_t x = b[w]; x; x &= x - 1) fn(uint32_t(w * 64 + std::countr_zero(x)));
}

// Per-block summaries for the backward problem.
struct BlockSummary {
  Bits upward_exposed;  // read (or partially written) before any full write in the block
  Bits killed;          // fully written somewhere in the block
  Bits written;         // written fully or partially somewhere in the block
};

BlockSummary summarize(const Block& blk, size_t words) {
  BlockSummary s{Bits(words, 0), Bits(words, 0), Bits(words, 0)};
  for (const Instr& in : blk.instrs) {
    for (uint32_t v : in.uses)
      if (!test_bit(s.killed, v)) set_bit(s.upward_exposed, v);
    for (uint32_t v : in.partial_defs) {
      if (!test_bit(s.killed, v)) set_bit(s.upward_exposed, v);
      set_bit(s.written, v);
    }
    for (uint32_t v : in.defs) {
      set_bit(s.killed, v);
      set_bit(s.written, v);
    }
  }
  return s;
}

std::vector<std::vector<uint32_t>> predecessors(const Function& f) {
  std::vector<std::vector<uint32_t>> preds(f.blocks.size());
  for (size_t b = 0; b < f.blocks.size(); ++b)
    for (uint32_t s : f.blocks[b].succs) preds[s].push_back(uint32_t(b));
  return preds;
}

}  // namespace

Liveness compute_liveness(const Function& f) {
  detail::check_function(f);
  const size_t nv = f.vregs.size(), nb = f.blocks.size(), words = (nv + 63) / 64;

  Liveness lv;
  lv.num_vregs = nv;
  lv.words_per_set = words;
  lv.live_in.assign(nb, Bits(words, 0));
  lv.live_out.assign(nb, Bits(words, 0));
  lv.intervals.assign(nv, Interval{});

  std::vector<BlockSummary> sum;
  sum.reserve(nb);
  for (const Block& blk : f.blocks) sum.push_back(summarize(blk, words));

  // Backward liveness; visiting blocks in reverse layout order converges in a
  // few sweeps for structured code.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      Bits& out = lv.live_out[b];
      for (uint32_t s : f.blocks[b].succs)
        for (size_t w = 0; w < words; ++w) out[w] |= lv.live_in[s][w];
      for (size_t w = 0; w < words; ++w) {
        uint64_t in = sum[b].upward_exposed[w] | (out[w] & ~sum[b].killed[w]);
        if (in != lv.live_in[b][w]) {
          lv.live_in[b][w] = in;
          changed = true;
        }
      }
    }
  }

  // Forward "may have been written" (live_in vregs are written at entry).
  Bits entry_written(words, 0);
  for (size_t v = 0; v < nv; ++v)
    if (f.vregs[v].live_in) set_bit(entry_written, uint32_t(v));
  std::vector<Bits> written_in(nb, Bits(words, 0)), written_out(nb, Bits(words, 0));
  if (nb > 0) written_in[0] = entry_written;
  const auto preds = predecessors(f);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < nb; ++b) {
      Bits& in = written_in[b];
      for (uint32_t p : preds[b])
        for (size_t w = 0; w < words; ++w) in[w] |= written_out[p][w];
      for (size_t w = 0; w < words; ++w) {
        uint64_t out = in[w] | sum[b].written[w];
        if (out != written_out[b][w]) {
          written_out[b][w] = out;
          changed = true;
        }
      }
    }
  }
  for (size_t b = 0; b < nb; ++b)
    for (size_t w = 0; w < words; ++w) {
      lv.live_in[b][w] &= written_in[b][w];
      lv.live_out[b][w] &= written_out[b][w];
    }

  // Positions and intervals.
  auto extend = [&](uint32_t v, int p) {
    Interval& iv = lv.intervals[v];
    if (iv.empty()) {
      iv.start = iv.end = p;
    } else {
      if (p < iv.start) iv.start = p;
      if (p > iv.end) iv.end = p;
    }
  };
  for (size_t v = 0; v < nv; ++v)
    if (f.vregs[v].live_in) extend(uint32_t(v), 0);

  lv.block_start.resize(nb);
  int pos = 0;
  for (size_t b = 0; b < nb; ++b) {
    const Block& blk = f.blocks[b];
    lv.block_start[b] = pos;
    if (blk.instrs.empty()) continue;  // covered by its neighbours' boundaries
    const int first = pos, last = pos + int(blk.instrs.size()) - 1;
    for_each_bit(lv.live_in[b], [&](uint32_t v) { extend(v, first); });
    for_each_bit(lv.live_out[b], [&](uint32_t v) { extend(v, last); });
    Bits written = written_in[b];
    for (const Instr& in : blk.instrs) {
      for (uint32_t v : in.uses) {
        extend(v, pos);
        if (!test_bit(written, v)) lv.undefined_reads.push_back({v, pos});
      }
      for (uint32_t v : in.partial_defs) {
        extend(v, pos);
        set_bit(written, v);
      }
      for (uint32_t v : in.defs) {
        extend(v, pos);
        set_bit(written, v);
      }
      ++pos;
    }
  }
  lv.num_positions = pos;
  return lv;
}

}  // namespace cdnajit::regalloc
