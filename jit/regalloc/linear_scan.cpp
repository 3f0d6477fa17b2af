// Linear scan over the intervals of compute_liveness().
//
// Intervals are visited in order of start position. Each class keeps a bitmap
// of busy physical registers; an interval takes the lowest index that is a
// multiple of its alignment and has `dwords` free registers. Intervals that
// ended before the current start are expired first (closed intervals: one that
// ends exactly at the current start still conflicts).
//
// Pinned vregs take their fixed index. Pins are reserved ahead of time: an
// unpinned interval never takes registers of a pinned interval it overlaps,
// even one that starts later, so a pin can only collide with another pin
// (an error naming both).
//
// No spilling: when nothing fits, the error lists the class, the limit, the
// peak pressure, the position and call site, and every value live there.
#include <algorithm>
#include <array>
#include <bit>
#include <queue>

#include "jit/regalloc/detail.hpp"

namespace cdnajit::regalloc {

namespace {

constexpr int kMaxRegs = 512;

// Fixed-size register bitmap (enough for any class).
struct RegSet {
  std::array<uint64_t, kMaxRegs / 64> w{};

  bool any(int base, int n) const {
    for (int i = base; i < base + n;) {
      const int bit = i % 64, k = std::min(64 - bit, base + n - i);
      const uint64_t mask = (k == 64 ? ~uint64_t(0) : ((uint64_t(1) << k) - 1)) << bit;
      if (w[i / 64] & mask) return true;
      i += k;
    }
    return false;
  }
  // The first register at or after `from` that is free (kMaxRegs if none).
  int first_free(int from) const {
    for (int i = from; i < kMaxRegs;) {
      const uint64_t free = ~w[i / 64] >> (i % 64);
      if (free) return i + std::countr_zero(free);
      i = (i / 64 + 1) * 64;
    }
    return kMaxRegs;
  }
  void assign(int base, int n, bool value) {
    for (int i = base; i < base + n; ++i) {
      const uint64_t m = uint64_t(1) << (i % 64);
      if (value) w[i / 64] |= m; else w[i / 64] &= ~m;
    }
  }
};

struct Active {
  int end;
  uint32_t vreg;
  bool operator>(const Active& o) const { return end > o.end; }
};

// Where position p is in the program, for messages.
struct PositionIndex {
  std::vector<std::pair<int, int>> at;  // position -> (block, index in block)
  explicit PositionIndex(const Function& f) {
    for (size_t b = 0; b < f.blocks.size(); ++b)
      for (size_t i = 0; i < f.blocks[b].instrs.size(); ++i) at.emplace_back(int(b), int(i));
  }
  std::string where(const Function& f, int p) const {
    if (p < 0 || p >= int(at.size())) return "kernel entry";
    return detail::where_text(f, at[p].first, at[p].second, p);
  }
};

class LinearScan {
 public:
  LinearScan(const Function& f, const Limits& limits) : f_(f), lv_(compute_liveness(f)), pos_(f) {
    limit_[0] = limits.sgprs;
    limit_[1] = limits.vgprs;
    limit_[2] = limits.agprs;
    for (int c = 0; c < kNumClasses; ++c) {
      const RegClass rc = RegClass(c);
      if (limit_[c] < 0 || limit_[c] > architectural_limit(rc))
        throw Error("regalloc: " + std::string(class_name(rc)) + " limit " + std::to_string(limit_[c]) +
                    " is outside 0.." + std::to_string(architectural_limit(rc)));
    }
    compute_pressure();
  }

  Allocation run() {
    const size_t nv = f_.vregs.size();
    a_.phys.assign(nv, -1);
    a_.peak_sgpr_pressure = peak_[0];
    a_.peak_vgpr_pressure = peak_[1];
    a_.peak_agpr_pressure = peak_[2];

    std::vector<uint32_t> order;
    for (uint32_t v = 0; v < nv; ++v) {
      if (lv_.intervals[v].empty()) continue;
      order.push_back(v);
      const VirtualReg& r = f_.vregs[v];
      if (r.pinned >= 0) {
        if (r.pinned + r.dwords > limit_[cls(v)])
          throw Error("regalloc: " + detail::describe(f_, v) + " is pinned to " +
                      detail::reg_text(r.cls, r.pinned, r.dwords) + ", but only " +
                      std::to_string(limit_[cls(v)]) + " " + class_name(r.cls) + "s are allocatable");
        pinned_[cls(v)].push_back(v);
      }
    }
    // Start order; at equal starts pins first, then wider tuples (less fragmentation).
    std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
      const VirtualReg &rx = f_.vregs[x], &ry = f_.vregs[y];
      const int sx = lv_.intervals[x].start, sy = lv_.intervals[y].start;
      if (sx != sy) return sx < sy;
      if ((rx.pinned >= 0) != (ry.pinned >= 0)) return rx.pinned >= 0;
      if (rx.dwords != ry.dwords) return rx.dwords > ry.dwords;
      return x < y;
    });

    for (uint32_t v : order) {
      expire(lv_.intervals[v].start);
      const int base = f_.vregs[v].pinned >= 0 ? take_pinned(v) : take_lowest_fit(v);
      place(v, base);
    }
    return a_;
  }

 private:
  int cls(uint32_t v) const { return int(f_.vregs[v].cls); }

  void compute_pressure() {
    const int n = lv_.num_positions + 2;
    for (int c = 0; c < kNumClasses; ++c) pressure_[c].assign(n, 0);
    for (size_t v = 0; v < lv_.intervals.size(); ++v) {
      const Interval& iv = lv_.intervals[v];
      if (iv.empty()) continue;
      pressure_[cls(uint32_t(v))][iv.start] += f_.vregs[v].dwords;
      pressure_[cls(uint32_t(v))][iv.end + 1] -= f_.vregs[v].dwords;
    }
    for (int c = 0; c < kNumClasses; ++c) {
      int run = 0;
      for (int& p : pressure_[c]) {
        run += p;
        p = run;
        peak_[c] = std::max(peak_[c], run);
      }
    }
  }

  void expire(int start) {
    while (!active_.empty() && active_.top().end < start) {
      const uint32_t v = active_.top().vreg;
      active_.pop();
      busy_[cls(v)].assign(a_.phys[v], f_.vregs[v].dwords, false);
      live_[cls(v)].erase(std::find(live_[cls(v)].begin(), live_[cls(v)].end(), v));
    }
  }

  void place(uint32_t v, int base) {
    const int c = cls(v), n = f_.vregs[v].dwords;
    a_.phys[v] = base;
    busy_[c].assign(base, n, true);
    live_[c].push_back(v);
    active_.push({lv_.intervals[v].end, v});
    int& used = c == 0 ? a_.sgprs_used : c == 1 ? a_.vgprs_used : a_.agprs_used;
    used = std::max(used, base + n);
  }

  int take_pinned(uint32_t v) {
    const VirtualReg& r = f_.vregs[v];
    const int c = cls(v);
    if (!busy_[c].any(r.pinned, r.dwords)) return r.pinned;
    for (uint32_t o : live_[c]) {
      const int ob = a_.phys[o], on = f_.vregs[o].dwords;
      if (ob < r.pinned + r.dwords && r.pinned < ob + on)
        throw Error("regalloc: " + detail::describe(f_, v) + " is pinned to " +
                    detail::reg_text(r.cls, r.pinned, r.dwords) + " but " + detail::describe(f_, o) +
                    (f_.vregs[o].pinned >= 0 ? " is pinned to " : " holds ") +
                    detail::reg_text(r.cls, ob, on) + " and both are live at " +
                    pos_.where(f_, lv_.intervals[v].start) + "; pinned values must not overlap while live");
    }
    throw Error("regalloc: internal error: busy register without a live owner");
  }

  int take_lowest_fit(uint32_t v) {
    const VirtualReg& r = f_.vregs[v];
    const int c = cls(v);
    const Interval& iv = lv_.intervals[v];
    RegSet blocked = busy_[c];
    for (uint32_t p : pinned_[c])
      if (lv_.intervals[p].overlaps(iv)) blocked.assign(f_.vregs[p].pinned, f_.vregs[p].dwords, true);
    // Lowest aligned base whose registers are all free: skip straight to the next free
    // register (rounded up to the alignment) instead of testing every aligned base.
    for (int base = 0; base + r.dwords <= limit_[c];) {
      const int free = blocked.first_free(base);
      const int aligned = (free + r.align - 1) / r.align * r.align;
      if (aligned != base) {
        base = aligned;
        continue;
      }
      if (!blocked.any(base, r.dwords)) return base;
      base += r.align;
    }
    exhausted(v);
  }

  [[noreturn]] void exhausted(uint32_t v) {
    const VirtualReg& r = f_.vregs[v];
    const int c = cls(v);
    const Interval& iv = lv_.intervals[v];
    // Everything holding (or reserved in) this class at the failing point.
    std::vector<uint32_t> held = live_[c];
    for (uint32_t p : pinned_[c])
      if (lv_.intervals[p].overlaps(iv) && a_.phys[p] < 0) held.push_back(p);
    held.push_back(v);
    std::sort(held.begin(), held.end(), [&](uint32_t x, uint32_t y) {
      if (f_.vregs[x].dwords != f_.vregs[y].dwords) return f_.vregs[x].dwords > f_.vregs[y].dwords;
      return x < y;
    });
    int held_dwords = 0;
    for (uint32_t h : held) held_dwords += f_.vregs[h].dwords;

    const std::string cn = class_name(r.cls);
    std::string msg = "regalloc: out of " + cn + "s (limit " + std::to_string(limit_[c]) + ", peak pressure " +
                      std::to_string(peak_[c]) + " dwords) at " + pos_.where(f_, iv.start) + " (pressure there " +
                      std::to_string(pressure_[c][iv.start]) + " dwords): cannot place " +
                      detail::describe(f_, v) + " with alignment " + std::to_string(r.align) + ". ";
    if (held_dwords <= limit_[c])
      msg += "The live values need only " + std::to_string(held_dwords) + " of " + std::to_string(limit_[c]) +
             " registers, but no free block of " + std::to_string(r.dwords) + " aligned to " +
             std::to_string(r.align) + " is left (fragmentation by tuple alignment). ";
    msg += "There is no spilling: shorten live ranges, reuse registers, or lower tile sizes. " +
           std::to_string(held.size()) + " values live there (" + std::to_string(held_dwords) +
           " dwords), largest first:";
    const size_t shown = std::min<size_t>(held.size(), 100);
    for (size_t i = 0; i < shown; ++i) {
      const uint32_t h = held[i];
      msg += "\n  " + detail::describe(f_, h);
      if (a_.phys[h] >= 0) msg += " in " + detail::reg_text(r.cls, a_.phys[h], f_.vregs[h].dwords);
      else if (f_.vregs[h].pinned >= 0) msg += " pinned to " + detail::reg_text(r.cls, f_.vregs[h].pinned, f_.vregs[h].dwords);
      if (h == v) msg += "  <- being allocated";
    }
    if (shown < held.size()) msg += "\n  ... and " + std::to_string(held.size() - shown) + " more";
    throw Error(msg);
  }

  const Function& f_;
  Liveness lv_;
  PositionIndex pos_;
  int limit_[kNumClasses] = {};
  int peak_[kNumClasses] = {};
  std::vector<int> pressure_[kNumClasses];
  RegSet busy_[kNumClasses];
  std::vector<uint32_t> live_[kNumClasses];    // currently allocated vregs per class
  std::vector<uint32_t> pinned_[kNumClasses];  // pinned vregs with a live interval
  std::priority_queue<Active, std::vector<Active>, std::greater<Active>> active_;
  Allocation a_;
};

}  // namespace

Allocation allocate(const Function& f, const Limits& limits) { return LinearScan(f, limits).run(); }

}  // namespace cdnajit::regalloc
