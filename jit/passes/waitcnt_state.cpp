#include "jit/passes/waitcnt_state.hpp"

#include <algorithm>

#include "jit/passes/classify.hpp"

namespace cdnajit::passes {
namespace {

enum Event : uint8_t { kEvVmem = 1, kEvSmem = 2, kEvLds = 4, kEvMsg = 8 };


// Which counters `mi` raises, from the table (none for an instruction the table lacks).
isa::Counter counter_of(const isa::MachineInst& mi) { return mi.info ? mi.info->counter : isa::Counter::None; }

uint8_t lgkm_event(const isa::MachineInst& mi) {
  if (is_smem(mi)) return kEvSmem;
  if (is_ds(mi) || is_flat(mi)) return kEvLds;
  return kEvMsg;  // s_sendmsg and other lgkm events without register results
}

int popcount8(uint8_t v) {
  int n = 0;
  for (; v; v &= v - 1) ++n;
  return n;
}

}  // namespace

int counter_max(int c) { return c == kVm ? kVmcntMax : kLgkmcntMax; }

IssueInfo issue_info(const isa::MachineInst& mi) {
  IssueInfo info;
  isa::Counter ctr = counter_of(mi);
  info.counts[kVm] = ctr == isa::Counter::Vm || ctr == isa::Counter::VmLgkm;
  info.counts[kLgkm] = ctr == isa::Counter::Lgkm || ctr == isa::Counter::VmLgkm;
  info.flat = is_flat(mi);
  info.vmem_in_order = is_vmem(mi) && !info.flat;
  info.lgkm_event = lgkm_event(mi);
  return info;
}

bool Brackets::operator==(const Brackets& o) const {
  for (int c = 0; c < kNumCounters; ++c)
    if (ub[c] != o.ub[c] || lb[c] != o.lb[c] || last_flat[c] != o.last_flat[c] || events[c] != o.events[c] ||
        pend[c] != o.pend[c])
      return false;
  return true;
}

const PendingWrite* Brackets::find(int c, int unit) const {
  auto it = std::lower_bound(pend[c].begin(), pend[c].end(), unit,
                             [](const PendingWrite& p, int u) { return p.unit < u; });
  return it != pend[c].end() && it->unit == unit ? &*it : nullptr;
}

void Brackets::drop_landed(int c) {
  const uint32_t l = lb[c];
  if (std::erase_if(pend[c], [l](const PendingWrite& p) { return p.score <= l; })) remask();
}

void Brackets::remask() {
  pending_units.clear();
  for (const auto& list : pend)
    for (const PendingWrite& w : list) pending_units.add(w.unit);
}

bool Brackets::any_pending(const UnitRange& r) const { return pending_units.overlaps(r); }

bool Brackets::out_of_order(int c) const {
  if (c == kLgkm && (events[c] & kEvSmem)) return true;  // scalar loads return out of order
  return popcount8(events[c]) > 1;                         // mixed event kinds on one counter
}

bool Brackets::pending_flat() const {
  for (int c = 0; c < kNumCounters; ++c)
    if (last_flat[c] > lb[c] && last_flat[c] <= ub[c]) return true;
  return false;
}

int Brackets::count_for(int c, uint32_t s) const {
  // FLAT counts on both counters and may complete in either order relative to the others.
  if (pending_flat() || out_of_order(c)) return 0;
  return static_cast<int>(std::min<uint32_t>(ub[c] - s, counter_max(c) - 1));
}

bool Brackets::satisfied(const WaitFields& w) const {
  // expcnt only tracks exports/GDS, which compute kernels do not issue: always satisfied.
  if (w.vm >= 0 && ub[kVm] - lb[kVm] > static_cast<uint32_t>(w.vm)) return false;
  if (w.lgkm >= 0 && ub[kLgkm] - lb[kLgkm] > static_cast<uint32_t>(w.lgkm)) return false;
  return true;
}

void Brackets::apply(const WaitFields& w) {
  const int n[kNumCounters] = {w.vm, w.lgkm};
  for (int c = 0; c < kNumCounters; ++c) {
    if (n[c] < 0 || n[c] >= counter_max(c)) continue;
    uint32_t count = static_cast<uint32_t>(n[c]);
    if (ub[c] - lb[c] <= count) continue;
    if (count == 0) {
      lb[c] = ub[c];
      events[c] = 0;
      if (!pend[c].empty()) {
        pend[c].clear();
        remask();
      }
    } else if (!out_of_order(c)) {
      lb[c] = std::max(lb[c], ub[c] - count);
      drop_landed(c);
    }
  }
}

void Brackets::issue(const IssueInfo& info, const Access& a, int32_t index) {
  for (int c = 0; c < kNumCounters; ++c) {
    if (!info.counts[c]) continue;
    uint32_t s = ++ub[c];
    events[c] |= c == kVm ? static_cast<uint8_t>(kEvVmem) : info.lgkm_event;
    if (info.flat) last_flat[c] = s;
    std::vector<PendingWrite>& p = pend[c];
    a.for_each_def([&](const UnitRange& r) {
      auto it = std::lower_bound(p.begin(), p.end(), r.first,
                                 [](const PendingWrite& w, int u) { return w.unit < u; });
      for (int u = r.first; u < r.first + r.count; ++u) {
        pending_units.add(u);
        if (it != p.end() && it->unit == u) {
          it->score = s;
          it->writer = index;
        } else {
          it = p.insert(it, PendingWrite{u, s, index});
        }
        ++it;
      }
    });
    // The hardware counter holds at most counter_max operations: never claim more in
    // flight, and waiting for (max - 1) newer ops always suffices (keeps loops finite).
    uint32_t maxc = counter_max(c);
    if (ub[c] - lb[c] > maxc) {
      lb[c] = ub[c] - maxc;
      drop_landed(c);
    }
    if (ub[c] - lb[c] > maxc - 1) {  // only then can a pending score be older than that
      uint32_t oldest = ub[c] - (maxc - 1);
      for (PendingWrite& w : p)
        if (w.score < oldest) w.score = oldest;
      if (last_flat[c] > lb[c] && last_flat[c] < oldest) last_flat[c] = oldest;
    }
  }
}

void Brackets::saturate() {
  for (int c = 0; c < kNumCounters; ++c) {
    if (ub[c] == lb[c]) continue;
    uint32_t maxc = counter_max(c);
    if (ub[c] - lb[c] >= maxc) continue;
    // Shift every score up so that ub - lb == maxc (lb stays, nothing changes distance from ub).
    uint32_t add = maxc - (ub[c] - lb[c]);
    for (PendingWrite& w : pend[c]) w.score += add;
    if (last_flat[c] > lb[c]) last_flat[c] += add;
    ub[c] += add;
    lb[c] = ub[c] - maxc;
    // The ops now counted in (lb, lb + add] are phantom older ones: they fill the counter,
    // while the wait a real register needs (its distance from ub) is unchanged.
  }
}

Brackets Brackets::merge(const std::vector<const Brackets*>& ins) {
  Brackets out;
  if (ins.size() == 1) {
    // One predecessor (most blocks): the re-basing below with nothing to unite, done in one
    // copy instead of through the scratch list.
    const Brackets& b = *ins[0];
    for (int c = 0; c < kNumCounters; ++c) {
      const uint32_t span = b.ub[c] - b.lb[c];
      auto shift = [&](uint32_t s) -> uint32_t { return s > b.lb[c] ? s - b.ub[c] + span : 0; };
      out.ub[c] = span;
      out.events[c] = span == 0 ? 0 : b.events[c];
      out.last_flat[c] = shift(b.last_flat[c] <= b.ub[c] ? b.last_flat[c] : 0);
      out.pend[c].reserve(b.pend[c].size());
      for (const PendingWrite& w : b.pend[c]) out.pend[c].push_back({w.unit, shift(w.score), w.writer});
    }
    out.pending_units = b.pending_units;
    return out;
  }
  std::vector<PendingWrite> merged;
  for (int c = 0; c < kNumCounters; ++c) {
    uint32_t span = 0;
    for (const Brackets* b : ins) span = std::max(span, b->ub[c] - b->lb[c]);
    // Re-base every predecessor so that its newest op has score `span`: a register keeps
    // its distance from the newest op, and the union takes the most recent (worst) one.
    out.lb[c] = 0;
    out.ub[c] = span;
    std::vector<PendingWrite>& acc = out.pend[c];
    for (const Brackets* b : ins) {
      auto shift = [&](uint32_t s) -> uint32_t { return s > b->lb[c] ? s - b->ub[c] + span : 0; };
      out.events[c] |= b->events[c];
      out.last_flat[c] = std::max(out.last_flat[c], shift(b->last_flat[c] <= b->ub[c] ? b->last_flat[c] : 0));
      // Sorted union of `acc` and b's (re-based) pending units.
      merged.clear();
      merged.reserve(acc.size() + b->pend[c].size());
      auto x = acc.begin();
      for (const PendingWrite& w : b->pend[c]) {
        PendingWrite sw{w.unit, shift(w.score), w.writer};
        while (x != acc.end() && x->unit < w.unit) merged.push_back(*x++);
        if (x != acc.end() && x->unit == w.unit) {
          if (sw.score > x->score || (sw.score == x->score && sw.writer > x->writer)) merged.push_back(sw);
          else merged.push_back(*x);
          ++x;
        } else {
          merged.push_back(sw);
        }
      }
      merged.insert(merged.end(), x, acc.end());
      acc.swap(merged);
    }
    if (span == 0) out.events[c] = 0;
  }
  out.remask();
  return out;
}

std::optional<WaitNeed> wait_needed(const Brackets& s, const isa::MachineInst& mi, const Access& a) {
  return wait_needed(s, issue_info(mi), a);
}

namespace {

// The weakest wait for `a` in state `s`, and in `need` the units it protects (need.wait is
// left for the caller). nullopt: nothing `a` touches is pending.
std::optional<WaitFields> needed(const Brackets& s, const IssueInfo& info, const Access& a, WaitNeed& need) {
  if (!a.unknown && s.pend[kVm].empty() && s.pend[kLgkm].empty()) return std::nullopt;
  int count[kNumCounters] = {-1, -1};
  const bool flat_pending = s.pending_flat();
  auto found = [&](int c, const PendingWrite& p, bool is_write) {
    // VMEM results return in order: a VMEM load may overwrite a register another VMEM
    // load is still filling (the older one lands first), as LLVM also assumes.
    if (is_write && c == kVm && info.vmem_in_order && !flat_pending) return;
    int n = s.count_for(c, p.score);
    count[c] = count[c] < 0 ? n : std::min(count[c], n);
    (is_write ? need.writes : need.reads).push_back({p.unit, c, p.writer});
  };
  auto consider = [&](const UnitRange& r, bool is_write) {
    // A store never waits for an earlier store through the store pseudo-registers: only
    // s_barrier reads them (the release, regs.cpp).
    if (is_write && (r.first == kLdsStores || r.first == kGlobalStores)) return;
    if (!s.any_pending(r)) return;  // nothing below would be found
    // Unit by unit, both counters for each: the order the protected units are listed in. A
    // merge of the counters' pending entries inside the range (each list is sorted by unit),
    // each unit's first entry as find() would give it: not one search per unit of the range.
    std::vector<PendingWrite>::const_iterator at[kNumCounters], end[kNumCounters];
    for (int c = 0; c < kNumCounters; ++c) {
      at[c] = std::lower_bound(s.pend[c].begin(), s.pend[c].end(), r.first,
                               [](const PendingWrite& w, int u) { return w.unit < u; });
      end[c] = s.pend[c].end();
    }
    const int stop = r.first + r.count;
    for (;;) {
      int u = stop;  // the next unit any counter has pending in the range
      for (int c = 0; c < kNumCounters; ++c)
        if (at[c] != end[c] && at[c]->unit < u) u = at[c]->unit;
      if (u == stop) break;
      for (int c = 0; c < kNumCounters; ++c) {
        if (at[c] == end[c] || at[c]->unit != u) continue;
        found(c, *at[c], is_write);
        while (at[c] != end[c] && at[c]->unit == u) ++at[c];
      }
    }
  };
  if (a.unknown) {
    // Raw text: its registers are unknown, so everything in flight must land first.
    for (int c = 0; c < kNumCounters; ++c)
      if (s.ub[c] != s.lb[c]) count[c] = 0;
  }
  a.for_each_use([&](const UnitRange& r) { consider(r, false); });
  a.for_each_def([&](const UnitRange& r) { consider(r, true); });
  if (count[kVm] < 0 && count[kLgkm] < 0) return std::nullopt;
  WaitFields w;
  w.vm = count[kVm];
  w.lgkm = count[kLgkm];
  return w;
}

}  // namespace

std::optional<WaitNeed> wait_needed(const Brackets& s, const IssueInfo& info, const Access& a) {
  WaitNeed need;
  std::optional<WaitFields> w = needed(s, info, a, need);
  if (!w) return std::nullopt;
  need.wait = *w;
  return need;
}

}  // namespace cdnajit::passes
