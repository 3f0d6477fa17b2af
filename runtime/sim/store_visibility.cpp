// Store visibility between the waves of a workgroup (Options::store_release).
//
// A store leaves the wave when it issues, but another wave of the workgroup is only sure to
// see it once it has completed, which the writer learns from its counters: LDS stores and
// atomics on lgkmcnt, global stores on vmcnt. LLVM's memory model therefore makes every
// workgroup release (the fence before __syncthreads()'s s_barrier) wait for them: lgkmcnt(0)
// for LDS, and vmcnt(0) for global memory in threadgroup-split mode, where the waves of a
// workgroup may run on different CUs (AMDGPUUsage, "Memory Model GFX942"; runtime/sim/README.md,
// "Store visibility"). The simulator writes memory at issue, so it keeps every store pending
// until the writer's s_waitcnt (or saturation, or s_endpgm) retires it, and an access by another
// wave to bytes of a pending store is an Error. The check does not depend on the order the
// waves run in: a wave may be switched at any instruction and the verdict stays the same.
//
// LDS: a tag per LDS byte names the wave slot and the serial of its latest store; LDS stores of
// a wave retire in issue order (lgkmcnt), so a tag is pending while its serial is above the
// slot's retired serial. Global: each wave keeps its pending stores' lane ranges (only tracked
// when global stores are checked at all). Atomics against atomics are not a race: they are
// exempt from each other.
//
// Only the other waves read a wave's LDS tags, and the waves of a workgroup take turns on one
// host thread, so a non-atomic LDS store's tags are written when its wave leaves the thread
// (lds_stores_publish), and not at all if its s_waitcnt retired it before then: the verdicts are
// the same. A tag that is pending is the same either way (stores are published in issue order,
// atomics publish the older ones before tagging). A byte whose latest store retired unpublished
// keeps an older tag, which is retired too: that store's own check found no pending store of
// another wave on the byte (a non-atomic store is exempt from none), and the wave's own older
// stores retired before it.
#include <algorithm>

#include "jit/isa/waitcnt.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

enum Kind : int { kLdsStore = 0, kGlobalStore = 1 };

// Tag of an LDS byte: wave slot + 1 (bits 4:0), atomic (bit 5), the store's serial (bits 63:6).
constexpr uint64_t kTagSlotMask = 31, kTagAtomic = 32;
constexpr int kTagSerialShift = 6;

bool stores(const Op& op) { return op.info && op.info->is_store; }
bool atomic(const Op& op) { return op.info && op.info->is_atomic; }

// The writer's pending entry of store `serial` of `kind`, or nullptr.
const Pending* pending_entry(const Wave& p, int kind, uint64_t serial) {
  for (const Pending& q : p.pend)
    if (q.store == serial && (q.counter == 1) == (kind == kGlobalStore)) return &q;
  return nullptr;
}

// The wait the writer needed before the barrier that released the store: the same-counter
// operations it issued after the store and before that barrier may stay outstanding.
std::string needed_wait(const Wave& p, const Pending& e, int kind) {
  int after = 0;
  bool smem = false;
  bool seen = false;
  for (const Pending& q : p.pend) {
    if (&q == &e) { seen = true; continue; }
    if (!seen || q.released_by != e.released_by) continue;
    if (kind == kGlobalStore ? q.counter == 1 : q.counter >= 2) ++after;
    smem |= q.counter == 3;
  }
  if (kind == kLdsStore && smem) after = 0;
  return kind == kGlobalStore ? isa::waitcnt_text(after, -1, -1) : isa::waitcnt_text(-1, -1, after);
}

[[noreturn]] void visibility_error(const Wave& w, const Op& op, const Wave& p, int kind, uint64_t serial, uint64_t lo,
                                   uint64_t hi, int lane) {
  const Pending* e = pending_entry(p, kind, serial);
  const char* space = kind == kLdsStore ? "LDS" : "global";
  std::string msg = std::string(stores(op) ? "writes " : "reads ") + space + " bytes [" + hex(lo) + ", " + hex(hi) +
                    ") that wave " + std::to_string(p.wave_in_wg) + " of this workgroup stored";
  if (e) msg += " with '" + e->op->text + "' at pc " + hex(e->op->pc);
  msg += ", and that store has not completed (wave " + std::to_string(p.wave_in_wg) +
         "'s s_waitcnt has not retired it), so it need not be visible to this wave yet; ";
  if (e && e->released_by) {
    msg += "wave " + std::to_string(p.wave_in_wg) + " passed the s_barrier at pc " + hex(e->released_by->pc) +
           " between them without waiting for it: it needs " + needed_wait(p, *e, kind) + " before that s_barrier";
  } else {
    msg += "there is no s_barrier between them (a race): wave " + std::to_string(p.wave_in_wg) + " needs " +
           (e ? needed_wait(p, *e, kind) : std::string("an s_waitcnt")) + " and an s_barrier before this access";
  }
  msg += kind == kLdsStore
             ? " (LLVM's memory model waits lgkmcnt(0) for LDS stores at every workgroup release, such as "
               "__syncthreads(); Options::store_release)"
             : " (global stores reach the other waves of a workgroup only once complete in threadgroup-split mode; "
               "LLVM waits vmcnt(0) at a workgroup release there; Options::store_release)";
  fail(w, op, msg, lane);
}

// Whether some byte of [lo, hi) holds a store of another wave that is still pending and that `op`
// may not touch: check_lds's test without its report (a whole-vector range is scanned once, and
// only a hit goes back to the per-lane check for the exact error).
bool lds_conflict(const Wave& w, const Op& op, uint64_t lo, uint64_t hi) {
  const bool at = atomic(op);
  for (uint64_t b = lo; b < hi; ++b) {
    const uint64_t t = w.lds_tags[b];
    if (t == 0) continue;
    const int slot = int(t & kTagSlotMask) - 1;
    if (slot == w.wave_in_wg || slot >= w.npeers) continue;
    const Wave& p = w.peers[slot];
    if ((t >> kTagSerialShift) <= p.stores_retired[kLdsStore] || (at && (t & kTagAtomic))) continue;
    return true;
  }
  return false;
}

void check_lds(Wave& w, const Op& op, uint64_t addr, uint32_t n, int lane) {
  const bool at = atomic(op);
  for (uint64_t b = addr; b < addr + n; ++b) {
    const uint64_t t = w.lds_tags[b];
    if (t == 0) continue;
    const int slot = int(t & kTagSlotMask) - 1;
    if (slot == w.wave_in_wg || slot >= w.npeers) continue;
    const Wave& p = w.peers[slot];
    const uint64_t serial = t >> kTagSerialShift;
    if (serial <= p.stores_retired[kLdsStore] || (at && (t & kTagAtomic))) continue;
    uint64_t hi = b + 1;
    while (hi < addr + n && w.lds_tags[hi] == t) ++hi;
    visibility_error(w, op, p, kLdsStore, serial, b, hi, lane);
  }
}

void check_global(Wave& w, const Op& op, uint64_t addr, uint32_t n, int lane) {
  const bool at = atomic(op);
  for (int i = 0; i < w.npeers; ++i) {
    const Wave& p = w.peers[i];
    if (&p == &w || p.stores_pending[kGlobalStore] == 0) continue;
    for (const GlobalStore& g : p.global_stores) {
      if (g.serial <= p.stores_retired[kGlobalStore] || (at && g.atomic)) continue;
      if (addr + n <= g.lo || addr >= g.hi) continue;
      for (const auto& [a, m] : g.ranges)
        if (addr < a + m && a < addr + n)
          visibility_error(w, op, p, kGlobalStore, g.serial, std::max(addr, a), std::min(addr + n, a + m), lane);
    }
  }
}

// Tags [addr, addr + n) with `tag`: at once for an atomic (after the deferred stores it follows),
// else deferred to lds_stores_publish (adjacent ranges of one store merged).
void tag_lds_now(Wave& w, uint64_t tag, uint64_t addr, uint32_t n) {
  lds_stores_publish(w);
  std::fill_n(w.lds_tags + addr, n, tag);
}
inline __attribute__((always_inline)) void tag_lds(Wave& w, uint64_t tag, uint64_t addr, uint32_t n) {
  if (tag & kTagAtomic) return tag_lds_now(w, tag, addr, n);
  if (w.lds_deferred.size() > w.lds_deferred_head) {
    Wave::DeferredLdsStore& b = w.lds_deferred.back();
    if (b.tag == tag && uint64_t(b.addr) + b.bytes == addr) { b.bytes += n; return; }
  }
  w.lds_deferred.push_back({tag, uint32_t(addr), n});
}

}  // namespace

void lds_stores_publish(Wave& w) {
  for (size_t i = w.lds_deferred_head; i < w.lds_deferred.size(); ++i) {
    const Wave::DeferredLdsStore& d = w.lds_deferred[i];
    std::fill_n(w.lds_tags + d.addr, d.bytes, d.tag);
  }
  w.lds_deferred.clear();
  w.lds_deferred_head = 0;
}

void lds_store_access(Wave& w, const Op& op, uint64_t addr, uint32_t n, int lane) {
  if (lds_stores_elsewhere(w)) check_lds(w, op, addr, n, lane);
  // LDS DMA (VMEM, counter 1) writes LDS too, but is tracked by its byte range (check_lds_dma).
  if (!stores(op) || op.counter == 1) return;
  const uint64_t tag = uint64_t(w.wave_in_wg + 1) | (atomic(op) ? kTagAtomic : 0) |
                       (w.stores_issued[kLdsStore] + 1) << kTagSerialShift;
  tag_lds(w, tag, addr, n);
  w.store_open[kLdsStore] = true;
}

void lds_store_lanes(Wave& w, const Op& op, const uint32_t* addr, uint64_t exec, uint32_t n, bool run) {
  // Whole-vector form (`run`: all 64 lanes on, lane l at addr[0] + l * n, the common unit-stride
  // access): one byte range [addr[0], addr[0] + 64 n), scanned and tagged at once.
  if (lds_stores_elsewhere(w) && (!run || lds_conflict(w, op, addr[0], uint64_t(addr[0]) + 64ull * n))) {
    for (int l = 0; l < 64; ++l)
      if ((exec >> l) & 1) check_lds(w, op, addr[l], n, l);
  }
  if (!stores(op) || op.counter == 1) return;
  const uint64_t tag = uint64_t(w.wave_in_wg + 1) | (atomic(op) ? kTagAtomic : 0) |
                       (w.stores_issued[kLdsStore] + 1) << kTagSerialShift;
  if (run) {
    tag_lds(w, tag, addr[0], 64 * n);
  } else {
    for (int l = 0; l < 64; ++l)
      if ((exec >> l) & 1) tag_lds(w, tag, addr[l], n);
  }
  w.store_open[kLdsStore] = true;
}

void global_store_access(Wave& w, const Op& op, uint64_t addr, uint32_t n, int lane) {
  if (op.unit == isa::Unit::SMEM) return;  // the scalar cache is not coherent with vector stores anyway
  if (global_stores_elsewhere(w)) check_global(w, op, addr, n, lane);
  if (!stores(op)) return;
  if (!w.store_open[kGlobalStore]) {
    w.global_stores.emplace_back();
    GlobalStore& g = w.global_stores.back();
    g.serial = w.stores_issued[kGlobalStore] + 1;
    g.atomic = atomic(op);
    g.op = &op;
    w.store_open[kGlobalStore] = true;
  }
  GlobalStore& g = w.global_stores.back();
  g.ranges.emplace_back(addr, n);
  g.lo = std::min(g.lo, addr);
  g.hi = std::max(g.hi, addr + n);
}

void store_issued(Wave& w, Pending& p) {
  const int kind = p.counter == 1 ? kGlobalStore : kLdsStore;
  if (!w.store_open[kind]) return;
  w.store_open[kind] = false;
  p.store = ++w.stores_issued[kind];
  ++w.stores_pending[kind];
  ++w.wg_stores_pending[kind];
}

namespace {
// `n` stores of `kind` retire, the newest with serial `newest` (in issue order, so one step
// leaves the state that retiring them one by one would).
void stores_retired(Wave& w, int kind, uint64_t newest, int n) {
  w.stores_retired[kind] = std::max(w.stores_retired[kind], newest);
  w.stores_pending[kind] -= n;
  w.wg_stores_pending[kind] -= n;
  if (kind == kLdsStore) {  // retired before another wave ran: its tags need not be written
    // Deferred stores are in issue order (serials rising): when the newest retired, all did.
    if (!w.lds_deferred.empty() && (w.lds_deferred.back().tag >> kTagSerialShift) <= w.stores_retired[kind])
      w.lds_deferred_head = w.lds_deferred.size();
    while (w.lds_deferred_head < w.lds_deferred.size() &&
           (w.lds_deferred[w.lds_deferred_head].tag >> kTagSerialShift) <= w.stores_retired[kind])
      ++w.lds_deferred_head;
    if (w.lds_deferred_head == w.lds_deferred.size()) w.lds_deferred.clear(), w.lds_deferred_head = 0;
  }
  if (kind == kGlobalStore)
    while (!w.global_stores.empty() && w.global_stores.front().serial <= w.stores_retired[kind]) w.global_stores.pop_front();
}
}  // namespace

void store_retired(Wave& w, const Pending& p) { stores_retired(w, p.counter == 1 ? kGlobalStore : kLdsStore, p.store, 1); }

void pending_stores_retired(Wave& w) {
  uint64_t newest[2] = {0, 0};
  int n[2] = {0, 0};
  for (const Pending& p : w.pend) {
    if (!p.store) continue;
    const int kind = p.counter == 1 ? kGlobalStore : kLdsStore;
    newest[kind] = std::max(newest[kind], p.store);
    ++n[kind];
  }
  for (int kind = 0; kind < 2; ++kind)
    if (n[kind]) stores_retired(w, kind, newest[kind], n[kind]);
}

void barrier_passed(Wave& w, const Op& op) {
  if (w.stores_pending[kLdsStore] + w.stores_pending[kGlobalStore] == 0) return;
  for (Pending& q : w.pend)
    if (!q.released_by) q.released_by = &op;
}

void begin_store_tracking(const Launch& L, Wave* waves, size_t n, std::vector<uint64_t>& tags, size_t lds_bytes,
                          int* wg_pending) {
  const bool on = L.opt.check_waitcnt && L.opt.store_release != Options::StoreRelease::None;
  const bool global = L.opt.check_waitcnt && (L.opt.store_release == Options::StoreRelease::All ||
                                              (L.opt.store_release == Options::StoreRelease::Lds && L.dk->info.tg_split()));
  if (on && tags.size() != lds_bytes) tags.assign(lds_bytes, 0);
  wg_pending[0] = wg_pending[1] = 0;
  for (size_t i = 0; i < n; ++i) {
    Wave& w = waves[i];
    w.lds_tags = on && lds_bytes ? tags.data() : nullptr;
    w.wg_stores_pending = wg_pending;
    w.track_global = global;
    // Stores a previous workgroup left pending (it stopped with an Error) count as retired:
    // serials keep counting per slot, so the tags they left behind are never pending again.
    for (int k = 0; k < 2; ++k) {
      w.stores_retired[k] = w.stores_issued[k];
      w.stores_pending[k] = 0;
      w.store_open[k] = false;
    }
    w.global_stores.clear();
    w.lds_deferred.clear();
    w.lds_deferred_head = 0;
  }
}

}  // namespace cdnajit::sim
