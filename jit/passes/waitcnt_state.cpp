#include "jit/passes/waitcnt_state.hpp"

#include <algorithm>

#include "jit/passes/classify.hpp"

namespace cdnajit::passes {
namespace {

enum Event : uint8_t { kEvVmem = 1, kEvSmem = 2, kEvLds = 4, kEvMsg = 8 };

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Which counters `mi` raises, from the table (class-based fallback without one).
isa::Counter counter_of(const isa::MachineInst& mi) {
  if (mi.info) return mi.info->counter;
  if (is_flat(mi)) return isa::Counter::VmLgkm;
  if (is_vmem(mi)) return isa::Counter::Vm;
  if (is_smem(mi) || is_ds(mi) || starts(base_mnemonic(mi), "s_sendmsg")) return isa::Counter::Lgkm;
  return isa::Counter::None;
}

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

Brackets::Brackets() {
  for (int c = 0; c < kNumCounters; ++c) {
    score[c].fill(0);
    writer[c].fill(-1);
  }
}

bool Brackets::operator==(const Brackets& o) const {
  for (int c = 0; c < kNumCounters; ++c)
    if (ub[c] != o.ub[c] || lb[c] != o.lb[c] || last_flat[c] != o.last_flat[c] || events[c] != o.events[c] ||
        score[c] != o.score[c] || writer[c] != o.writer[c])
      return false;
  return true;
}

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
    } else if (!out_of_order(c)) {
      lb[c] = std::max(lb[c], ub[c] - count);
    }
  }
}

void Brackets::issue(const isa::MachineInst& mi, const Access& a, int32_t index) {
  isa::Counter ctr = counter_of(mi);
  if (ctr == isa::Counter::None) return;
  bool counts[kNumCounters] = {ctr == isa::Counter::Vm || ctr == isa::Counter::VmLgkm,
                               ctr == isa::Counter::Lgkm || ctr == isa::Counter::VmLgkm};
  std::vector<UnitRange> defs = a.defs();
  for (int c = 0; c < kNumCounters; ++c) {
    if (!counts[c]) continue;
    uint32_t s = ++ub[c];
    events[c] |= c == kVm ? static_cast<uint8_t>(kEvVmem) : lgkm_event(mi);
    if (is_flat(mi)) last_flat[c] = s;
    for (const UnitRange& r : defs) {
      for (int u = r.first; u < r.first + r.count; ++u) {
        score[c][u] = s;
        writer[c][u] = index;
      }
      if (r.count > 0) {
        lo[c] = std::min(lo[c], r.first);
        hi[c] = std::max(hi[c], r.first + r.count);
      }
    }
    // The hardware counter holds at most counter_max operations: never claim more in
    // flight, and waiting for (max - 1) newer ops always suffices (keeps loops finite).
    uint32_t maxc = counter_max(c);
    if (ub[c] - lb[c] > maxc) lb[c] = ub[c] - maxc;
    if (ub[c] - lb[c] > maxc - 1) {  // only then can a pending score be older than that
      uint32_t oldest = ub[c] - (maxc - 1);
      for (int u = lo[c]; u < hi[c]; ++u)
        if (score[c][u] > lb[c] && score[c][u] < oldest) score[c][u] = oldest;
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
    for (int u = lo[c]; u < hi[c]; ++u)
      if (score[c][u] > lb[c]) score[c][u] += add;
    if (last_flat[c] > lb[c]) last_flat[c] += add;
    ub[c] += add;
    lb[c] = ub[c] - maxc;
    // The ops now counted in (lb, lb + add] are phantom older ones: they fill the counter,
    // while the wait a real register needs (its distance from ub) is unchanged.
  }
}

Brackets Brackets::merge(const std::vector<const Brackets*>& ins) {
  Brackets out;
  for (int c = 0; c < kNumCounters; ++c) {
    uint32_t span = 0;
    for (const Brackets* b : ins) span = std::max(span, b->ub[c] - b->lb[c]);
    // Re-base every predecessor so that its newest op has score `span`: a register keeps
    // its distance from the newest op, and the union takes the most recent (worst) one.
    out.lb[c] = 0;
    out.ub[c] = span;
    for (const Brackets* b : ins) {
      auto shift = [&](uint32_t s) -> uint32_t { return s > b->lb[c] ? s - b->ub[c] + span : 0; };
      out.events[c] |= b->events[c];
      out.last_flat[c] = std::max(out.last_flat[c], shift(b->last_flat[c] <= b->ub[c] ? b->last_flat[c] : 0));
      out.lo[c] = std::min(out.lo[c], b->lo[c]);
      out.hi[c] = std::max(out.hi[c], b->hi[c]);
      for (int u = b->lo[c]; u < b->hi[c]; ++u) {
        uint32_t s = shift(b->score[c][u]);
        if (s > out.score[c][u] || (s != 0 && s == out.score[c][u] && b->writer[c][u] > out.writer[c][u])) {
          out.score[c][u] = s;
          out.writer[c][u] = b->writer[c][u];
        }
      }
    }
    if (span == 0) out.events[c] = 0;
  }
  return out;
}

std::optional<WaitNeed> wait_needed(const Brackets& s, const isa::MachineInst& mi, const Access& a) {
  WaitNeed need;
  int count[kNumCounters] = {-1, -1};
  auto consider = [&](int u, bool is_write) {
    for (int c = 0; c < kNumCounters; ++c) {
      if (!s.pending(c, u)) continue;
      // VMEM results return in order: a VMEM load may overwrite a register another VMEM
      // load is still filling (the older one lands first), as LLVM also assumes.
      if (is_write && c == kVm && is_vmem(mi) && !is_flat(mi) && !s.pending_flat()) continue;
      int n = s.count_for(c, s.score[c][u]);
      count[c] = count[c] < 0 ? n : std::min(count[c], n);
      (is_write ? need.writes : need.reads).push_back({u, c, s.writer[c][u]});
    }
  };
  if (a.unknown) {
    // Raw text: its registers are unknown, so everything in flight must land first.
    for (int c = 0; c < kNumCounters; ++c)
      if (s.ub[c] != s.lb[c]) count[c] = 0;
  }
  for (const UnitRange& r : a.uses())
    for (int u = r.first; u < r.first + r.count; ++u) consider(u, false);
  for (const UnitRange& r : a.defs())
    for (int u = r.first; u < r.first + r.count; ++u) consider(u, true);
  if (count[kVm] < 0 && count[kLgkm] < 0) return std::nullopt;
  need.wait.vm = count[kVm];
  need.wait.lgkm = count[kLgkm];
  return need;
}

}  // namespace cdnajit::passes
