// Independent allocation checker. It shares no data structures with the
// allocator and does not use its intervals: it runs its own (deliberately
// plain) liveness dataflow with one bit per vreg, then walks every
// instruction backwards and checks that the physical dwords of all values
// occupied at that instruction are pairwise disjoint, where
//   occupied(p) = uses(p) | defs(p) | partial_defs(p) | live_after(p)
// and live_after(p) only counts values some write can have reached (same
// semantics as compute_liveness). Including uses and defs together enforces
// the conservative rule "a destination never shares a register with a source
// of the same instruction". At the kernel entry, the live_in vregs and the
// values live into block 0 must be disjoint too.
#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "jit/regalloc/detail.hpp"

namespace cdnajit::regalloc {

namespace {

// One bit per vreg (the checker's own sets; nothing is shared with liveness.cpp).
using Set = std::vector<uint64_t>;

bool set_test(const uint64_t* s, uint32_t v) { return (s[v / 64] >> (v % 64)) & 1; }
void set_to(uint64_t* s, uint32_t v, bool value) {
  const uint64_t m = uint64_t(1) << (v % 64);
  if (value) s[v / 64] |= m; else s[v / 64] &= ~m;
}

// Where the check currently is; the message text is only built on failure.
struct Point {
  int block = -1, index = -1, position = -1;  // position -1: kernel entry
};

constexpr int kMaxPhys = 256;  // largest architectural register count of any class

struct Checker {
  const Function& f;
  const Allocation& a;
  // Per class: physical dwords occupied at the current point, and which vregs occupy them
  // (pairwise disjoint, so the owner of a dword is found by scanning the list on failure).
  uint64_t occupied[kNumClasses][kMaxPhys / 64] = {};
  std::vector<uint32_t> occupants;
  std::vector<uint32_t> stamp;  // per vreg: == round when already occupying at the current point
  uint32_t round = 0;

  Checker(const Function& fn, const Allocation& al) : f(fn), a(al), stamp(fn.vregs.size(), 0) {}

  [[noreturn]] void fail(const std::string& what) { throw Error("regalloc verify: " + what); }

  void check_registers() {
    if (a.phys.size() != f.vregs.size())
      fail("allocation has " + std::to_string(a.phys.size()) + " entries for " + std::to_string(f.vregs.size()) +
           " virtual registers");
    std::vector<char> referenced(f.vregs.size(), 0);
    for (size_t v = 0; v < f.vregs.size(); ++v) referenced[v] = f.vregs[v].live_in;
    for (const Block& b : f.blocks)
      for (const Instr& in : b.instrs) {
        for (uint32_t v : in.uses) referenced[v] = 1;
        for (uint32_t v : in.defs) referenced[v] = 1;
        for (uint32_t v : in.partial_defs) referenced[v] = 1;
      }
    int highest[kNumClasses] = {0, 0, 0};
    for (uint32_t v = 0; v < f.vregs.size(); ++v) {
      const VirtualReg& r = f.vregs[v];
      const int p = a.phys[v];
      if (p < 0) {
        if (referenced[v]) fail(detail::describe(f, v) + " is used by the program but has no register");
        continue;
      }
      const int lim = architectural_limit(r.cls);
      if (p + r.dwords > lim)
        fail(detail::describe(f, v) + " is assigned " + detail::reg_text(r.cls, p, r.dwords) +
             ", out of range: only " + std::to_string(lim) + " " + class_name(r.cls) + "s exist");
      if (p % r.align != 0)
        fail(detail::describe(f, v) + " is assigned " + detail::reg_text(r.cls, p, r.dwords) +
             ", which violates its alignment of " + std::to_string(r.align));
      if (r.pinned >= 0 && p != r.pinned)
        fail(detail::describe(f, v) + " is pinned to " + detail::reg_text(r.cls, r.pinned, r.dwords) +
             " but assigned " + detail::reg_text(r.cls, p, r.dwords));
      highest[int(r.cls)] = std::max(highest[int(r.cls)], p + r.dwords);
    }
    const int reported[kNumClasses] = {a.sgprs_used, a.vgprs_used, a.agprs_used};
    for (int c = 0; c < kNumClasses; ++c)
      if (reported[c] != highest[c])
        fail(std::string(class_name(RegClass(c))) + "s used is reported as " + std::to_string(reported[c]) +
             " but the highest assigned register + 1 is " + std::to_string(highest[c]));
  }

  // Own liveness: plain bitsets, round-robin until nothing changes.
  void liveness(std::vector<Set>& live_out, std::vector<Set>& written_in) {
    const size_t nb = f.blocks.size(), nv = f.vregs.size(), words = (nv + 63) / 64;
    std::vector<Set> live_in(nb, Set(words, 0));
    live_out.assign(nb, Set(words, 0));
    // Each block's effect, summarised once: live_in = exposed | (live_out & ~killed), where
    // walking the block backwards a whole def kills a vreg and a use (or a partial def,
    // which keeps the rest of the register) makes it live again.
    std::vector<Set> exposed(nb, Set(words, 0)), killed(nb, Set(words, 0));
    for (size_t b = 0; b < nb; ++b) {
      const auto& instrs = f.blocks[b].instrs;
      for (size_t i = instrs.size(); i-- > 0;) {
        for (uint32_t v : instrs[i].defs) set_to(exposed[b].data(), v, false), set_to(killed[b].data(), v, true);
        for (const auto* list : {&instrs[i].uses, &instrs[i].partial_defs})
          for (uint32_t v : *list) set_to(exposed[b].data(), v, true), set_to(killed[b].data(), v, false);
      }
    }
    Set out(words), in(words);
    for (bool changed = true; changed;) {
      changed = false;
      // A backward problem: visiting blocks from the last one needs fewer rounds.
      for (size_t b = nb; b-- > 0;) {
        std::fill(out.begin(), out.end(), 0);
        for (uint32_t s : f.blocks[b].succs)
          for (size_t w = 0; w < words; ++w) out[w] |= live_in[s][w];
        for (size_t w = 0; w < words; ++w) in[w] = exposed[b][w] | (out[w] & ~killed[b][w]);
        if (in != live_in[b] || out != live_out[b]) {
          live_in[b] = in;
          live_out[b] = out;
          changed = true;
        }
      }
    }
    // Which vregs some write (or the kernel entry, for live_in) can have reached.
    std::vector<std::vector<uint32_t>> preds(nb);
    for (size_t p = 0; p < nb; ++p)
      for (uint32_t s : f.blocks[p].succs) preds[s].push_back(uint32_t(p));
    std::vector<Set> written_out(nb, Set(words, 0));
    written_in.assign(nb, Set(words, 0));
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 0; b < nb; ++b) {
        std::fill(in.begin(), in.end(), 0);
        if (b == 0)
          for (size_t v = 0; v < nv; ++v) set_to(in.data(), uint32_t(v), f.vregs[v].live_in);
        for (uint32_t p : preds[b])
          for (size_t w = 0; w < words; ++w) in[w] |= written_out[p][w];
        out = in;
        for (const Instr& ins : f.blocks[b].instrs) {
          for (uint32_t v : ins.defs) set_to(out.data(), v, true);
          for (uint32_t v : ins.partial_defs) set_to(out.data(), v, true);
        }
        if (in != written_in[b] || out != written_out[b]) {
          written_in[b] = in;
          written_out[b] = out;
          changed = true;
        }
      }
    }
  }

  // Marks v's dwords as occupied at the current point; two different vregs on one dword is an error.
  void occupy(uint32_t v, const Point& at) {
    if (stamp[v] == round) return;  // already occupying (read and live, say)
    const VirtualReg& r = f.vregs[v];
    const int c = int(r.cls), base = a.phys[v], end = base + r.dwords;
    uint64_t* occ = occupied[c];
    for (int i = base; i < end;) {
      const int bit = i % 64, k = std::min(64 - bit, end - i);
      const uint64_t mask = (k == 64 ? ~uint64_t(0) : ((uint64_t(1) << k) - 1)) << bit;
      if (uint64_t clash = occ[i / 64] & mask) overlap(v, i - bit + std::countr_zero(clash), at);
      i += k;
    }
    for (int i = base; i < end;) {
      const int bit = i % 64, k = std::min(64 - bit, end - i);
      occ[i / 64] |= (k == 64 ? ~uint64_t(0) : ((uint64_t(1) << k) - 1)) << bit;
      i += k;
    }
    stamp[v] = round;
    occupants.push_back(v);
  }

  [[noreturn]] void overlap(uint32_t v, int dword, const Point& at) {
    const VirtualReg& r = f.vregs[v];
    for (uint32_t o : occupants) {
      const VirtualReg& ro = f.vregs[o];
      if (ro.cls != r.cls || dword < a.phys[o] || dword >= a.phys[o] + ro.dwords) continue;
      fail(detail::describe(f, v) + " in " + detail::reg_text(r.cls, a.phys[v], r.dwords) + " overlaps " +
           detail::describe(f, o) + " in " + detail::reg_text(ro.cls, a.phys[o], ro.dwords) + ": both occupy " +
           detail::reg_text(r.cls, dword, 1) + " at " + detail::where_text(f, at.block, at.index, at.position));
    }
    fail("internal error: occupied register without an owner");
  }

  // Starts a new point: nothing occupied.
  void release() {
    for (auto& cls : occupied)
      for (uint64_t& w : cls) w = 0;
    occupants.clear();
    if (++round == 0) {  // wrapped: stale stamps could read as current
      std::fill(stamp.begin(), stamp.end(), 0);
      round = 1;
    }
  }

  // The full check of one point, in the order that decides which pair a message names:
  // live values by vreg id, then defs, partial defs and uses. Throws on the first overlap.
  void check_point(const Instr& in, const uint64_t* live, const uint64_t* written_after, size_t words,
                   const Point& at) {
    release();
    for (size_t k = 0; k < words; ++k)
      for (uint64_t x = live[k] & written_after[k]; x; x &= x - 1) occupy(uint32_t(k * 64 + std::countr_zero(x)), at);
    for (uint32_t v : in.defs) occupy(v, at);
    for (uint32_t v : in.partial_defs) occupy(v, at);
    for (uint32_t v : in.uses) occupy(v, at);
    release();
  }

  // Fast path: the dwords of the values held across points (live and written) are kept
  // in `held_dwords` and updated by the difference between neighbouring points, so a
  // point costs its changes, not all its live values. Between point i+1 and point i
  // (walking backwards) only instruction i+1's operands can change whether a value is
  // held: its defs and uses change liveness, and a value first written in the block by
  // i+1 is not yet written at i. Any clash re-runs check_point, which reports it exactly
  // as a from-scratch check of that point would.
  uint64_t held_dwords[kNumClasses][kMaxPhys / 64] = {};

  template <class F>
  void for_dwords(uint32_t v, F&& fn) {
    const int c = int(f.vregs[v].cls), base = a.phys[v], end = base + f.vregs[v].dwords;
    for (int i = base; i < end;) {
      const int bit = i % 64, k = std::min(64 - bit, end - i);
      fn(held_dwords[c][i / 64], (k == 64 ? ~uint64_t(0) : ((uint64_t(1) << k) - 1)) << bit);
      i += k;
    }
  }
  bool clashes(uint32_t v) {
    bool any = false;
    for_dwords(v, [&](uint64_t& w, uint64_t m) { any |= (w & m) != 0; });
    return any;
  }
  void mark(uint32_t v, bool value) {
    for_dwords(v, [&](uint64_t& w, uint64_t m) { w = value ? (w | m) : (w & ~m); });
  }

  template <class F>
  static void for_each_operand(const Instr& in, F&& fn) {
    for (uint32_t v : in.defs) fn(v);
    for (uint32_t v : in.partial_defs) fn(v);
    for (uint32_t v : in.uses) fn(v);
  }

  void check_overlaps() {
    std::vector<Set> live_out, written_in;
    liveness(live_out, written_in);
    const size_t nv = f.vregs.size(), words = (nv + 63) / 64;
    release();

    std::vector<int> block_first(f.blocks.size());
    for (size_t b = 0, p = 0; b < f.blocks.size(); p += f.blocks[b].instrs.size(), ++b) block_first[b] = int(p);

    // Per vreg: the index of its first write (def or partial def) in block first_write_block[v].
    std::vector<int> first_write(nv, 0), first_write_block(nv, -1);
    Set held(words), written_in_block(words);
    std::vector<uint32_t> operands;
    for (size_t b = 0; b < f.blocks.size(); ++b) {
      const auto& instrs = f.blocks[b].instrs;
      const uint64_t* win = written_in[b].data();
      std::fill(written_in_block.begin(), written_in_block.end(), 0);
      for (size_t i = 0; i < instrs.size(); ++i) {
        auto first = [&](uint32_t v) {
          if (first_write_block[v] == int(b)) return;
          first_write_block[v] = int(b);
          first_write[v] = int(i);
          set_to(written_in_block.data(), v, true);
        };
        for (uint32_t v : instrs[i].defs) first(v);
        for (uint32_t v : instrs[i].partial_defs) first(v);
      }
      // Written at (after) instruction i: on entry to the block, or by instruction 0..i.
      auto written_after = [&](uint32_t v, size_t i) {
        return set_test(win, v) || (first_write_block[v] == int(b) && first_write[v] <= int(i));
      };
      Set live = live_out[b];
      for (auto& cls : held_dwords)
        for (uint64_t& x : cls) x = 0;
      std::fill(held.begin(), held.end(), 0);
      bool clash = false;
      // The block's last point: every value live out and written somewhere before it.
      for (size_t k = 0; k < words && !clash && !instrs.empty(); ++k)
        for (uint64_t x = live[k] & (win[k] | written_in_block[k]); x && !clash; x &= x - 1) {
          const uint32_t v = uint32_t(k * 64 + std::countr_zero(x));
          clash = clashes(v);
          mark(v, true);
          set_to(held.data(), v, true);
        }
      for (size_t i = instrs.size(); i-- > 0;) {
        const Instr& in = instrs[i];
        if (i + 1 < instrs.size() && !clash) {
          // From point i+1 to point i: instruction i+1's operands, first the values no longer
          // held, then the values newly held.
          const Instr& next = instrs[i + 1];
          for_each_operand(next, [&](uint32_t v) {
            if (set_test(held.data(), v) && !(set_test(live.data(), v) && written_after(v, i))) {
              mark(v, false);
              set_to(held.data(), v, false);
            }
          });
          for_each_operand(next, [&](uint32_t v) {
            if (clash || set_test(held.data(), v) || !(set_test(live.data(), v) && written_after(v, i))) return;
            clash = clashes(v);
            mark(v, true);
            set_to(held.data(), v, true);
          });
        }
        // The instruction's own operands join for this point only.
        operands.clear();
        auto add = [&](uint32_t v) {
          if (clash || set_test(held.data(), v) || std::find(operands.begin(), operands.end(), v) != operands.end())
            return;
          clash = clashes(v);
          mark(v, true);
          operands.push_back(v);
        };
        for_each_operand(in, add);
        if (clash) {
          const Point at{int(b), int(i), block_first[b] + int(i)};
          Set wa = written_in[b];
          for (size_t j = 0; j <= i; ++j) {
            for (uint32_t v : instrs[j].defs) set_to(wa.data(), v, true);
            for (uint32_t v : instrs[j].partial_defs) set_to(wa.data(), v, true);
          }
          check_point(in, live.data(), wa.data(), words, at);
          fail("internal error: overlap at " + detail::where_text(f, at.block, at.index, at.position) +
               " not found again by the full check");
        }
        for (uint32_t v : operands) mark(v, false);
        for (uint32_t v : in.defs) set_to(live.data(), v, false);
        for (uint32_t v : in.uses) set_to(live.data(), v, true);
        for (uint32_t v : in.partial_defs) set_to(live.data(), v, true);
      }
      if (b == 0) {
        // Kernel entry: hardware-initialised values and values live into block 0 (if written by then).
        for (size_t v = 0; v < nv; ++v)
          if (f.vregs[v].live_in) occupy(uint32_t(v), Point{});
        release();
      }
    }
  }
};

}  // namespace

void verify(const Function& f, const Allocation& a) {
  detail::check_function(f);
  Checker c(f, a);
  c.check_registers();
  c.check_overlaps();
}

}  // namespace cdnajit::regalloc
