// Independent allocation checker. It shares no data structures with the
// allocator and does not use its intervals: it runs its own (deliberately
// plain) liveness dataflow with one bool per vreg, then walks every
// instruction backwards and checks that the physical dwords of all values
// occupied at that instruction are pairwise disjoint, where
//   occupied(p) = uses(p) | defs(p) | partial_defs(p) | live_after(p)
// and live_after(p) only counts values some write can have reached (same
// semantics as compute_liveness). Including uses and defs together enforces
// the conservative rule "a destination never shares a register with a source
// of the same instruction". At the kernel entry, the live_in vregs and the
// values live into block 0 must be disjoint too.
#include <string>
#include <vector>

#include "jit/regalloc/detail.hpp"

namespace cdnajit::regalloc {

namespace {

using Set = std::vector<char>;

struct Checker {
  const Function& f;
  const Allocation& a;
  std::vector<int> owner[kNumClasses];  // physical index -> vreg occupying it at the current point

  Checker(const Function& fn, const Allocation& al) : f(fn), a(al) {
    for (int c = 0; c < kNumClasses; ++c) owner[c].assign(architectural_limit(RegClass(c)), -1);
  }

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

  // Own liveness: plain bool vectors, round-robin until nothing changes.
  void liveness(std::vector<Set>& live_out, std::vector<Set>& written_in) {
    const size_t nb = f.blocks.size(), nv = f.vregs.size();
    std::vector<Set> live_in(nb, Set(nv, 0));
    live_out.assign(nb, Set(nv, 0));
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 0; b < nb; ++b) {
        Set out(nv, 0);
        for (uint32_t s : f.blocks[b].succs)
          for (size_t v = 0; v < nv; ++v) out[v] |= live_in[s][v];
        Set in = out;
        const auto& instrs = f.blocks[b].instrs;
        for (size_t i = instrs.size(); i-- > 0;) {
          for (uint32_t v : instrs[i].defs) in[v] = 0;
          for (uint32_t v : instrs[i].uses) in[v] = 1;
          for (uint32_t v : instrs[i].partial_defs) in[v] = 1;
        }
        if (in != live_in[b] || out != live_out[b]) {
          live_in[b] = std::move(in);
          live_out[b] = std::move(out);
          changed = true;
        }
      }
    }
    // Which vregs some write (or the kernel entry, for live_in) can have reached.
    std::vector<Set> written_out(nb, Set(nv, 0));
    written_in.assign(nb, Set(nv, 0));
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 0; b < nb; ++b) {
        Set in(nv, 0);
        if (b == 0)
          for (size_t v = 0; v < nv; ++v) in[v] = f.vregs[v].live_in;
        for (size_t p = 0; p < nb; ++p)
          for (uint32_t s : f.blocks[p].succs)
            if (s == b)
              for (size_t v = 0; v < nv; ++v) in[v] |= written_out[p][v];
        Set out = in;
        for (const Instr& ins : f.blocks[b].instrs) {
          for (uint32_t v : ins.defs) out[v] = 1;
          for (uint32_t v : ins.partial_defs) out[v] = 1;
        }
        if (in != written_in[b] || out != written_out[b]) {
          written_in[b] = std::move(in);
          written_out[b] = std::move(out);
          changed = true;
        }
      }
    }
  }

  // Marks v's dwords as occupied; two different vregs on one dword is an error.
  void occupy(uint32_t v, std::vector<std::pair<int, int>>& touched, const std::string& where) {
    const VirtualReg& r = f.vregs[v];
    const int c = int(r.cls), base = a.phys[v];
    for (int i = base; i < base + r.dwords; ++i) {
      const int o = owner[c][i];
      if (o == int(v)) continue;
      if (o >= 0) {
        const VirtualReg& ro = f.vregs[o];
        fail(detail::describe(f, v) + " in " + detail::reg_text(r.cls, base, r.dwords) + " overlaps " +
             detail::describe(f, uint32_t(o)) + " in " + detail::reg_text(ro.cls, a.phys[o], ro.dwords) +
             ": both occupy " + detail::reg_text(r.cls, i, 1) + " at " + where);
      }
      owner[c][i] = int(v);
      touched.emplace_back(c, i);
    }
  }

  void release(std::vector<std::pair<int, int>>& touched) {
    for (auto [c, i] : touched) owner[c][i] = -1;
    touched.clear();
  }

  void check_overlaps() {
    std::vector<Set> live_out, written_in;
    liveness(live_out, written_in);
    const size_t nv = f.vregs.size();
    std::vector<std::pair<int, int>> touched;

    std::vector<int> block_first(f.blocks.size());
    for (size_t b = 0, p = 0; b < f.blocks.size(); p += f.blocks[b].instrs.size(), ++b) block_first[b] = int(p);

    for (size_t b = 0; b < f.blocks.size(); ++b) {
      const auto& instrs = f.blocks[b].instrs;
      // written-before set at each instruction, forward.
      std::vector<Set> written_after(instrs.size());
      Set w = written_in[b];
      for (size_t i = 0; i < instrs.size(); ++i) {
        for (uint32_t v : instrs[i].defs) w[v] = 1;
        for (uint32_t v : instrs[i].partial_defs) w[v] = 1;
        written_after[i] = w;
      }
      Set live = live_out[b];
      for (size_t i = instrs.size(); i-- > 0;) {
        const Instr& in = instrs[i];
        const std::string where = detail::where_text(f, int(b), int(i), block_first[b] + int(i));
        for (size_t v = 0; v < nv; ++v)
          if (live[v] && written_after[i][v]) occupy(uint32_t(v), touched, where);
        for (uint32_t v : in.defs) occupy(v, touched, where);
        for (uint32_t v : in.partial_defs) occupy(v, touched, where);
        for (uint32_t v : in.uses) occupy(v, touched, where);
        release(touched);
        for (uint32_t v : in.defs) live[v] = 0;
        for (uint32_t v : in.uses) live[v] = 1;
        for (uint32_t v : in.partial_defs) live[v] = 1;
      }
      if (b == 0) {
        // Kernel entry: hardware-initialised values and values live into block 0 (if written by then).
        for (size_t v = 0; v < nv; ++v)
          if (f.vregs[v].live_in) occupy(uint32_t(v), touched, "kernel entry");
        release(touched);
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
