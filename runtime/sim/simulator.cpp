// Launch: kernel entry state, workgroup scheduling over host threads, the
// per-wave dispatch loop, and the checkers (bounds, wait counts, barriers,
// budget).
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <functional>
#include <thread>

#include "jit/isa/waitcnt.hpp"
#include "runtime/sim/residency.hpp"
#include "runtime/sim/sim_internal.hpp"
#include "runtime/sim/write_journal.hpp"

namespace cdnajit::sim {

std::string wave_name(const Wave& w) {
  return "workgroup (" + std::to_string(w.wg[0]) + "," + std::to_string(w.wg[1]) + "," + std::to_string(w.wg[2]) +
         ") wave " + std::to_string(w.wave_in_wg);
}

void fail(const Wave& w, const Op& op, const std::string& what, int lane, LaunchError::Kind kind) {
  std::string msg = "simulator: kernel " + w.L->dk->info.name + ", pc " + hex(op.pc) + " '" + op.text + "', " + wave_name(w);
  if (lane >= 0) msg += ", lane " + std::to_string(lane);
  throw LaunchError(kind, msg + ": " + what);
}

uint8_t* global_ptr(Wave& w, const Op& op, uint64_t addr, uint32_t n, int lane, bool store) {
  const Memory::Block* b = w.T->last_block;
  if (!b || addr < b->base || addr - b->base > b->size || b->size - (addr - b->base) < n) {
    b = w.L->mem->find(addr, n);
    // FLAT instructions reach LDS through the shared aperture (addr[31:0] = LDS address).
    if (!b && (addr >> 32) == kSharedApertureHi && op.counter == 4) return lds_ptr(w, op, addr & 0xffffffffu, n, lane);
    if (!b && ((addr >> 32) == kSharedApertureHi || (addr >> 32) == kPrivateApertureHi))
      fail(w, op, std::string((addr >> 32) == kSharedApertureHi ? "global access to the LDS aperture at " : "access to the scratch aperture at ") +
                      hex(addr) + ((addr >> 32) == kSharedApertureHi ? " (only flat_* instructions reach LDS through it)" : " (scratch is not modelled)"), lane,
           LaunchError::Kind::OutOfBounds);
    if (!b) {
      if (w.L->opt.check_bounds)
        fail(w, op, std::string("out-of-bounds global ") + (store ? "store" : "load") + " of " + std::to_string(n) +
                        " bytes at address " + hex(addr) + "; " + w.L->mem->describe_nearest(addr), lane,
             LaunchError::Kind::OutOfBounds);
      return nullptr;
    }
    w.T->last_block = b;
  }
  if (w.track_global) global_store_access(w, op, addr, n, lane);
  if (store && w.L->opt.write_journal) [[unlikely]] w.L->opt.write_journal->before_write(addr, n);
  return b->data.get() + (addr - b->base);
}

uint8_t* lds_ptr(Wave& w, const Op& op, uint64_t addr, uint32_t n, int lane) {
  if (addr > w.lds_size || w.lds_size - addr < n) {
    if (w.L->opt.check_bounds)
      fail(w, op, "out-of-bounds LDS access of " + std::to_string(n) + " bytes at LDS address " + hex(addr) +
                      "; the workgroup has " + std::to_string(w.lds_size) + " bytes of LDS", lane,
           LaunchError::Kind::OutOfBounds);
    return nullptr;
  }
  // Every DS (and FLAT-to-LDS) access, read or write, is checked against the workgroup's outstanding
  // LDS DMA; the DMA's own LDS writes (VMEM, counter 1) are what is checked against.
  if (op.counter != 1) check_lds_dma(w, op, addr, addr + n, lane);
  if (w.lds_tags) lds_store_access(w, op, addr, n, lane);
  return w.lds + addr;
}

// ---- wait counts -----------------------------------------------------------
static std::string reg_name(uint16_t file, uint16_t r) {
  if (file == 0) {
    if (r == kVccLo) return "vcc_lo";
    if (r == kM0) return "m0";
    return "s" + std::to_string(r);
  }
  return r >= 256 ? "a" + std::to_string(r - 256) : "v" + std::to_string(r);
}

static void retire(Wave& w, size_t i);

// One more / one fewer outstanding (entry, register) pair on the prefilter bit of register r.
static void cover(Wave& w, uint16_t file, uint16_t r) {
  if (w.pend_bits[file][r & 63]++ == 0) (file == 0 ? w.pend_smask : w.pend_vmask) |= 1ull << (r & 63);
}
static void uncover(Wave& w, uint16_t file, uint16_t r) {
  if (--w.pend_bits[file][r & 63] == 0) (file == 0 ? w.pend_smask : w.pend_vmask) &= ~(1ull << (r & 63));
}

// Retires the oldest entry on vmcnt (vm) or lgkmcnt: out of line, so that pend_add's common
// path stays short.
[[gnu::noinline]] static void retire_oldest(Wave& w, bool vm) {
  size_t oldest = 0;
  while ((w.pend[oldest].counter == 1) != vm) ++oldest;
  retire(w, oldest);
}

void pend_add(Wave& w, const Op& op, uint8_t counter, uint16_t file, uint16_t first, uint16_t count) {
  if (!w.L->opt.check_waitcnt) return;
  // The hardware counters saturate (vmcnt 63, lgkmcnt 15 on gfx9): a wave does not issue
  // another operation on a full counter until the oldest one returns. So at most that many
  // are ever outstanding, and issuing one more retires the oldest of its counter (LLVM's
  // SIInsertWaitcnts models the same: waiting for max-1 newer ops always suffices).
  const bool vm = counter == 1;
  const size_t limit = vm ? 63 : 15;
  if (w.pend_count[vm ? 0 : 1] >= limit) retire_oldest(w, vm);
  w.pend.push_back(Pending{&op, counter, file, first, count});
  ++w.pend_count[vm ? 0 : 1];
  if (w.store_open[0] || w.store_open[1]) store_issued(w, w.pend.back());
  for (uint16_t r = first; r < first + count; ++r) {
    (file == 0 ? w.pend_s[r] : w.pend_v[r]) = &op;
    cover(w, file, r);
  }
}

// Retires the entries of w.pend whose mark[i] is set, in one pass (the same state as retiring
// them one by one in index order): their registers are no longer outstanding unless a remaining
// load (same in-order counter, or the same instruction again in a loop) also writes them, in
// which case the newest such load owns them. At most kMaxPending entries are outstanding.
constexpr size_t kMaxPending = 128;  // vmcnt saturates at 63, lgkmcnt at 15 (pend_add)
// Retires every entry (in index order): nothing stays outstanding, so no register changes owner.
static void retire_all(Wave& w) {
  pending_stores_retired(w);
  for (const Pending& p : w.pend) {
    if (p.lds_hi > p.lds_lo && w.wg_dma_pending) --*w.wg_dma_pending;
    for (uint16_t r = p.first; r < p.first + p.count; ++r) (p.file == 0 ? w.pend_s[r] : w.pend_v[r]) = nullptr;
  }
  w.pend.clear();
  w.pend_count[0] = w.pend_count[1] = 0;
  w.pend_vmask = w.pend_smask = 0;
  std::memset(w.pend_bits, 0, sizeof w.pend_bits);
}

// The retired entry's counters, LDS-DMA and store bookkeeping and prefilter bits (not its registers' owners).
static void retire_entry(Wave& w, const Pending& p) {
  --w.pend_count[p.counter == 1 ? 0 : 1];
  if (p.lds_hi > p.lds_lo && w.wg_dma_pending) --*w.wg_dma_pending;
  if (p.store) store_retired(w, p);
  for (uint16_t r = p.first; r < p.first + p.count; ++r) uncover(w, p.file, r);
}

static void retire_marked(Wave& w, const uint8_t* mark) {
  bool all = true;
  for (size_t i = 0; i < w.pend.size(); ++i) all &= mark[i] != 0;
  if (all) return retire_all(w);
  size_t kept = 0;
  for (size_t i = 0; i < w.pend.size(); ++i) {
    const Pending p = w.pend[i];
    if (!mark[i]) {
      w.pend[kept++] = p;
      continue;
    }
    retire_entry(w, p);
    for (uint16_t r = p.first; r < p.first + p.count; ++r) (p.file == 0 ? w.pend_s[r] : w.pend_v[r]) = nullptr;
  }
  w.pend.resize(kept);
  // A register a retired entry freed goes to the newest remaining entry that writes it (newest
  // first: the first to find it free); every other register of a remaining entry kept its owner.
  for (size_t i = w.pend.size(); i-- > 0;) {
    const Pending& q = w.pend[i];
    for (uint16_t r = q.first; r < q.first + q.count; ++r) {
      const Op*& owner = q.file == 0 ? w.pend_s[r] : w.pend_v[r];
      if (!owner) owner = q.op;
    }
  }
}

// Retires entry i alone (a saturated counter's oldest): retire_marked's result without its pass
// over every remaining entry. Each of its registers goes to the newest remaining entry that
// writes it, or to none; the owner of every other register is already the newest entry writing it.
static void retire(Wave& w, size_t i) {
  const Pending p = w.pend[i];
  if (w.pend.size() == 1) return retire_all(w);
  retire_entry(w, p);
  w.pend.erase(w.pend.begin() + ptrdiff_t(i));
  for (uint16_t r = p.first; r < p.first + p.count; ++r) {
    const Op* owner = nullptr;
    for (size_t j = w.pend.size(); j-- > 0;) {
      const Pending& q = w.pend[j];
      if (q.file == p.file && r >= q.first && r < q.first + q.count) {
        owner = q.op;
        break;
      }
    }
    (p.file == 0 ? w.pend_s[r] : w.pend_v[r]) = owner;
  }
}

void pend_set_lds_range(Wave& w, uint32_t lo, uint32_t hi) {
  if (w.pend.empty() || hi <= lo) return;
  w.pend.back().lds_lo = lo;
  w.pend.back().lds_hi = hi;
  if (w.wg_dma_pending) ++*w.wg_dma_pending;
}

void drain_pending(Wave& w) {
  uint8_t all[kMaxPending];
  std::fill_n(all, kMaxPending, uint8_t(1));
  retire_marked(w, all);
}

void check_lds_dma(Wave& w, const Op& op, uint64_t lo, uint64_t hi, int lane) {
  if (!w.wg_dma_pending || *w.wg_dma_pending == 0) return;
  for (int i = 0; i < w.npeers; ++i) {
    const Wave& p = w.peers[i];
    int after = 0;
    for (auto it = p.pend.rbegin(); it != p.pend.rend(); ++it) {
      const Pending& q = *it;
      if (q.lds_hi > q.lds_lo && lo < q.lds_hi && q.lds_lo < hi)
        fail(w, op, std::string(op.nd == 0 ? "writes" : "reads") + " LDS bytes [" + hex(std::max<uint64_t>(lo, q.lds_lo)) + ", " + hex(std::min<uint64_t>(hi, q.lds_hi)) +
                        ") that the LDS DMA at pc " + hex(q.op->pc) + " '" + q.op->text + "' of wave " + std::to_string(p.wave_in_wg) +
                        " has not completed; that wave needs s_waitcnt vmcnt(" + std::to_string(after) + ")" +
                        (&p == &w ? "" : " before the s_barrier") + " first", lane);
      if (q.counter == 1) ++after;
    }
  }
}

void do_waitcnt(Wave& w, const Op& op, int vm, int lgkm) {
  if (w.pend.empty()) return;
  // vmcnt: VMEM ops complete in issue order: all but the newest `vm` retire.
  // lgkmcnt: DS in order; SMEM out of order, so only lgkmcnt(0) guarantees an SMEM result
  // while SMEM is outstanding (the rule LLVM's SIInsertWaitcnts follows).
  int nvm = w.pend_count[0], nl = w.pend_count[1];
  bool smem = false;
  if (nl > lgkm && lgkm != 0)
    for (const Pending& p : w.pend) smem |= p.counter == 3;
  const bool lgkm_retires = nl > lgkm && (!smem || lgkm == 0);
  if (nvm <= vm && !lgkm_retires) return;
  if ((nvm == 0 || vm == 0) && (nl == 0 || lgkm == 0)) return retire_all(w);  // e.g. s_waitcnt lgkmcnt(0) with no VMEM out
  uint8_t mark[kMaxPending] = {};
  for (size_t i = 0; i < w.pend.size(); ++i) {
    if (w.pend[i].counter == 1 && nvm > vm) { mark[i] = 1; --nvm; }
    else if (w.pend[i].counter >= 2 && lgkm_retires && nl > lgkm) { mark[i] = 1; --nl; }
  }
  retire_marked(w, mark);
}

[[noreturn]] static void pending_error(Wave& w, const Op& op, uint16_t file, uint16_t r, bool write) {
  const Op* load = file == 0 ? w.pend_s[r] : w.pend_v[r];
  // The newest outstanding entry that writes the register (an earlier one on the same in-order
  // counter is covered by the same wait).
  size_t at = w.pend.size();
  for (size_t i = w.pend.size(); i-- > 0;) {
    const Pending& q = w.pend[i];
    if (q.op == load && q.file == file && r >= q.first && r < q.first + q.count) { at = i; break; }
  }
  const Pending* p = at < w.pend.size() ? &w.pend[at] : nullptr;
  int after = 0;  // same-counter operations issued after the load
  for (size_t i = at + 1; p && i < w.pend.size(); ++i) {
    const Pending& q = w.pend[i];
    if ((p->counter == 1 && q.counter == 1) || (p->counter >= 2 && q.counter >= 2)) after++;
  }
  std::string need = p && p->counter == 1 ? isa::waitcnt_text(after, -1, -1)
                     : p && p->counter == 2 ? isa::waitcnt_text(-1, -1, after)
                                            : isa::waitcnt_text(-1, -1, 0);
  fail(w, op, std::string(write ? "overwrites " : "reads ") + reg_name(file, r) +
                  " while the load at pc " + hex(load->pc) + " '" + load->text + "' into it is still outstanding; " +
                  need + " is needed before this instruction", -1, LaunchError::Kind::UnwaitedRead);
}

// A load may target registers an older load still has outstanding when both return in order
// on the same counter (VMEM loads on vmcnt, DS loads on lgkmcnt): the newer data lands last.
// Not so for SMEM (out of order), FLAT (two counters, may reach LDS) or any non-load write.
static bool ordered_reload(const Op& op, const Op* older) {
  return (op.counter == 1 || op.counter == 2) && older && older->counter == op.counter;
}

void check_pending(Wave& w, const Op& op) {
  if (!(op.vmask & w.pend_vmask) && !(op.smask & w.pend_smask)) return;
  auto chk = [&](const Src& s, bool write) {
    if (s.k == SrcKind::S) {
      for (uint16_t r = s.idx; r < s.idx + s.n && r < kSFileSize; ++r)
        if (w.pend_s[r] && !(write && ordered_reload(op, w.pend_s[r]))) pending_error(w, op, 0, r, write);
    } else if (s.k == SrcKind::V) {
      for (uint16_t r = s.idx; r < s.idx + s.n && r < kVFile; ++r)
        if (w.pend_v[r] && !(write && ordered_reload(op, w.pend_v[r]))) pending_error(w, op, 1, r, write);
    }
  };
  for (int i = 0; i < op.ns; ++i) chk(op.s[i], false);
  for (int i = 0; i < op.nd; ++i) chk(op.d[i], true);
  // DPP: the handler reads a permuted copy, the permutation reads the original source register.
  if (op.fn == &dpp_exec) {
    Src src = op.s[0];
    src.idx = op.dpp_src;
    chk(src, false);
  }
  // Implicit operands: VCC (carry-in / cndmask e32), EXEC, M0 (LDS DMA).
  if (w.pend_s[kExecLo] || w.pend_s[kExecHi]) pending_error(w, op, 0, w.pend_s[kExecLo] ? kExecLo : kExecHi, false);
}

// ---- scheduling ---------------------------------------------------------------
// The wave scheduler (runtime/sim/README.md "Wave scheduler"). Within a workgroup the waves take
// turns on one host thread: a wave runs until it ends, reaches s_barrier, executes s_sleep, or
// takes a backward branch once it has run kWaveQuantum instructions since it last yielded. At
// such a loop edge the wave's registers are compared with those at its previous loop edge:
// a loop iteration that changed no register only re-read memory, i.e. the wave spins on a flag,
// and from then on it yields after every iteration. A workgroup whose live waves all wait
// (spin, sleep, or stand at a barrier the others have not reached) for kWaitingRounds rounds is
// suspended with its storage, and the host thread runs another workgroup. Every decision depends
// only on the workgroup's own instruction stream and the values it reads, never on time or on
// the host thread count.
namespace {

constexpr uint64_t kWaveQuantum = 4096;          // wave-instructions before a loop edge yields
constexpr int kWaitingRounds = 4;                // rounds of waiting before a workgroup is suspended
constexpr uint64_t kWorkgroupSlice = 1ull << 24; // wave-instructions per turn once suspended ones wait to resume

struct WgStorage {
  std::vector<uint32_t> vregs;  // waves * kVFile * 64
  std::vector<uint8_t> lds;
  std::vector<Wave> waves;
  std::vector<uint8_t> scratch;  // waves * 64 * private_segment_size
  int dma_pending = 0;
  // The workgroup it holds and its scheduling state.
  uint64_t lin = 0;
  int nwaves = 0;
  RecordedWave* rec = nullptr;   // its recorded waves, or nullptr
  uint64_t stores = 0;           // memory-writing instructions executed in the current turn
  uint64_t turn_epoch = 0;       // Scheduler::epoch when the current turn began
  bool hashed = false;           // state_hash holds the state at the last suspension
  uint64_t state_hash = 0;
  uint64_t waits = 0;            // turns that ended with every live wave waiting
  std::vector<uint64_t> lds_tags;  // store visibility (store_visibility.cpp)
  int stores_pending[2] = {0, 0};
};

struct FirstError {
  std::mutex m;
  uint64_t wg = ~0ull;
  std::string msg;
  LaunchError::Kind kind = LaunchError::Kind::Other;
  std::atomic<uint64_t> limit{~0ull};
  void set(uint64_t id, const std::string& s, LaunchError::Kind k = LaunchError::Kind::Other) {
    std::lock_guard<std::mutex> l(m);
    if (id < wg) { wg = id; msg = s; kind = k; limit = id; }
  }
  bool any() { std::lock_guard<std::mutex> l(m); return wg != ~0ull; }
};

// The launch-wide part of the scheduler: which workgroup a host thread runs next, the suspended
// workgroups (resumed oldest first), and the deadlock rule. A host thread starts a new workgroup
// while the grid has one left and fewer than `resident_limit` are started and unfinished;
// otherwise it resumes the oldest suspended one. Deadlock: no workgroup may start, and every live
// workgroup has had a turn that began after the last change anywhere (the epoch: a workgroup
// ended, or a turn stored or changed a register or the LDS) and ended in the state it began in
// without a store. Such a turn saw memory no store had changed, so every later turn repeats it:
// no wave can ever read anything new.
struct Scheduler {
  std::mutex m;
  std::deque<std::unique_ptr<WgStorage>> suspended;  // under m
  std::atomic<uint64_t> nsuspended{0};
  std::atomic<uint64_t> live{0};   // started and not finished (running or suspended)
  std::atomic<uint64_t> epoch{0};  // advances whenever a workgroup ends or suspends after a change
  std::atomic<uint64_t> next{0};   // next slot of the run list
  uint64_t nrun = 0;
  uint64_t resident_limit = 0;
  std::string resident_why;        // how resident_limit was found, for messages
  // Under m: the workgroups whose last turn began and ended at epoch `idle_epoch` without a change
  // (a store, a register, the LDS), with what their waves wait for.
  uint64_t idle_epoch = ~0ull;
  std::map<uint64_t, std::string> idle;
  std::vector<uint32_t> writing_pcs;  // the instructions that write memory: stores, atomics, LDS DMAs

  bool may_start() const { return next.load() < nrun && live.load() < resident_limit; }
  bool reserve() {  // one more live workgroup, if the resident limit allows
    uint64_t l = live.load();
    while (l < resident_limit)
      if (live.compare_exchange_weak(l, l + 1)) return true;
    return false;
  }
  std::unique_ptr<WgStorage> resume() {
    std::lock_guard<std::mutex> g(m);
    if (suspended.empty()) return nullptr;
    auto S = std::move(suspended.front());
    suspended.pop_front();
    --nsuspended;
    S->turn_epoch = epoch.load();
    S->stores = 0;
    return S;
  }
  // Under m: a suspend() that read the epoch before this workgroup ended must not see `live`
  // already lowered (it would count its stale idle turn against one workgroup fewer and report a
  // deadlock the ended workgroup's stores had just resolved).
  void finished() {
    std::lock_guard<std::mutex> g(m);
    ++epoch;
    --live;
  }
};

uint32_t vgpr_limit(const KernelInfo& k) { return isa::target::descriptor_vector_regs(k.rsrc1); }
// The vector-register rows a wave's launch state covers (VGPRs, then AGPRs at 256): the rows
// zeroed at the start, compared by the spin test and hashed by the deadlock test.
uint32_t vgpr_rows(const KernelInfo& k) { return std::min<uint32_t>(vgpr_limit(k), 256); }
uint32_t agpr_rows(const KernelInfo& k) { return k.agpr_count ? std::min<uint32_t>(k.agpr_count + 8, 256) : 0; }

std::string fmt_seconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", s);
  return b;
}

// What the scheduler was doing, appended to the time-limit and budget messages: when waves or
// workgroups were waiting, the limit most likely stopped a wait that never ends.
std::string scheduler_note(const WgStorage* S, const Scheduler* sched) {
  const uint64_t waits = S ? S->waits : 0, susp = sched ? sched->nsuspended.load() : 0;
  if (!waits && !susp) return "";
  return "; the wave scheduler was cycling waiting workgroups (this one was suspended " + std::to_string(waits) +
         " times with every wave spinning, sleeping or at s_barrier; " + std::to_string(susp) +
         " others are suspended now): this is the scheduler's limit on a wait that did not end, e.g. a spin on a "
         "flag nobody sets whose loop stores (an atomic), or changes a register every iteration (a counter), so "
         "that it cannot be proved a deadlock";
}

// Throws once the launch's wall-clock limit has passed (checked every 64Ki
// instructions and at each turn start, so an infinite loop stops promptly).
void check_deadline(const Launch& L, const Wave* w, const Op* op, const WgStorage* S = nullptr,
                    const Scheduler* sched = nullptr) {
  if (std::chrono::steady_clock::now() < L.deadline) return;
  std::string msg = "time limit of " + fmt_seconds(L.opt.time_limit_seconds) +
                    " s exceeded (runaway loop or a very large grid?); raise sim::Options::time_limit_seconds "
                    "(cdnajit run --timeout) if intended" + scheduler_note(S, sched);
  if (w && op) fail(*w, *op, msg, -1, LaunchError::Kind::TimeLimit);
  throw LaunchError(LaunchError::Kind::TimeLimit, "simulator: " + msg);
}

[[noreturn]] void budget_exhausted(const Wave& w, const Op& op, const WgStorage& S, const Scheduler& sched) {
  fail(w, op, "instruction budget of " + std::to_string(w.L->opt.instruction_budget) +
                  " wave-instructions exhausted (runaway loop?); raise sim::Options::instruction_budget "
                  "(cdnajit run --max-instructions) if intended" + scheduler_note(&S, &sched));
}

// A taken backward branch once the wave's quantum is used up (or, while a probe is armed, every
// one): the spin test. Registers unchanged since the previous loop edge (scalar file, SCC, MODE,
// then the vector rows) mean the iteration only re-read memory: the wave waits, and yields.
[[gnu::noinline]] void loop_edge(Wave& w, uint32_t vrows, uint32_t arows) {
  const bool same_s = w.probing && w.pc == w.probe_pc && w.scc == w.probe_scc &&
                      std::memcmp(w.s, w.probe_s, sizeof w.s) == 0;
  if (same_s) {
    uint32_t* pv = w.probe_v.data();
    const size_t vb = size_t(vrows) * 64 * 4, ab = size_t(arows) * 64 * 4;
    if (!w.probe_has_v) {  // the scalar state repeats: compare the vector rows from the next edge on
      w.probe_v.resize((vb + ab) / 4);
      std::memcpy(w.probe_v.data(), w.v, vb);
      if (ab) std::memcpy(w.probe_v.data() + vb / 4, w.v + 256 * 64, ab);
      w.probe_has_v = true;
      w.status = Wave::Yielded;
      return;
    }
    if (std::memcmp(pv, w.v, vb) == 0 && (!ab || std::memcmp(pv + vb / 4, w.v + 256 * 64, ab) == 0)) {
      w.spinning = true;
      w.status = Wave::Yielded;
      return;
    }
  }
  if (w.probing) {  // the iteration changed a register: a loop that computes, run another quantum
    w.probing = w.probe_has_v = false;
    w.yield_at = w.icount + kWaveQuantum;
    return;
  }
  w.probing = true;  // quantum used up: remember the registers and let the other waves run
  w.probe_pc = w.pc;
  w.probe_scc = w.scc;
  std::memcpy(w.probe_s, w.s, sizeof w.s);
  w.status = Wave::Yielded;
}

void start_workgroup(Launch& L, WgStorage& S, const LaunchDims& d, uint64_t lin) {
  const KernelInfo& k = L.dk->info;
  uint32_t gx = uint32_t(lin % d.grid[0]), gy = uint32_t((lin / d.grid[0]) % d.grid[1]),
           gz = uint32_t(lin / (uint64_t(d.grid[0]) * d.grid[1]));
  uint32_t bx = d.block[0], by = d.block[1], bz = d.block[2];
  uint32_t nthreads = bx * by * bz;
  int nwaves = int((nthreads + 63) / 64);
  S.lin = lin;
  S.nwaves = nwaves;
  S.stores = 0;
  S.hashed = false;
  S.waits = 0;
  std::fill(S.lds.begin(), S.lds.end(), 0);
  std::fill(S.scratch.begin(), S.scratch.end(), 0);
  S.dma_pending = 0;
  for (int wi = 0; wi < nwaves; ++wi) {
    Wave& w = S.waves[wi];
    w.v = S.vregs.data() + size_t(wi) * kVRows * 64;
    std::memset(w.v, 0, size_t(vgpr_rows(k)) * 64 * 4);
    if (k.agpr_count) std::memset(w.v + 256 * 64, 0, size_t(agpr_rows(k)) * 64 * 4);
    std::memset(w.s, 0, sizeof w.s);
    w.scc = false;
    w.icount = 0;
    w.clock_reads = 0;
    set_mode(w, L.initial_mode);
    w.pc = 0;
    w.status = Wave::Running;
    w.yield_at = kWaveQuantum;
    w.slept = w.spinning = w.probing = w.probe_has_v = false;
    w.wg[0] = gx; w.wg[1] = gy; w.wg[2] = gz;
    w.wave_in_wg = wi;
    w.lds = S.lds.data();
    w.lds_size = uint32_t(S.lds.size());
    w.scratch_size = k.private_segment_size;
    w.scratch = S.scratch.data() + size_t(wi) * 64 * k.private_segment_size;
    w.L = &L;
    w.pend.clear();
    w.pend_vmask = w.pend_smask = 0;
    std::memset(w.pend_bits, 0, sizeof w.pend_bits);
    w.pend_count[0] = w.pend_count[1] = 0;
    w.peers = S.waves.data();
    w.npeers = nwaves;
    w.wg_dma_pending = L.opt.check_waitcnt ? &S.dma_pending : nullptr;  // LDS written by LDS DMA is a load's destination too
    if (L.opt.check_waitcnt) { w.pend_v.assign(kVFile, nullptr); }
    std::fill(std::begin(w.pend_s), std::end(w.pend_s), nullptr);
    // User SGPRs in ABI order.
    int sg = 0;
    auto put64 = [&](uint64_t v) { w.s[sg++] = uint32_t(v); w.s[sg++] = uint32_t(v >> 32); };
    if (k.private_segment_buffer) { sg += 4; }
    if (k.dispatch_ptr) put64(L.kernarg_addr - 256);  // AQL packet lives just before kernargs
    if (k.queue_ptr) put64(0);
    if (k.kernarg_ptr) put64(L.kernarg_addr);
    if (k.dispatch_id) put64(0);
    if (k.flat_scratch_init) put64(0);
    if (k.private_segment_size_sgpr) w.s[sg++] = 0;
    for (uint32_t i = 0; i < k.kernarg_preload_length && sg < kSgprCount; ++i) w.s[sg++] = L.preload[i];
    sg = std::max(sg, k.user_sgpr_count);
    if (k.wg_id_x) w.s[sg++] = gx;
    if (k.wg_id_y) w.s[sg++] = gy;
    if (k.wg_id_z) w.s[sg++] = gz;
    if (k.wg_info) w.s[sg++] = 0;
    if (k.private_segment_wave_offset) w.s[sg++] = 0;
    uint64_t exec = 0;
    for (int l = 0; l < 64; ++l) {
      uint32_t t = uint32_t(wi * 64 + l);
      if (t >= nthreads) break;
      exec |= 1ull << l;
      uint32_t x = t % bx, y = (t / bx) % by, z = t / (bx * by);
      // gfx90a+: packed work-item ids in v0. Only the components the descriptor enables
      // (rsrc2.ENABLE_VGPR_WORKITEM_ID: 0 = x, 1 = x and y, 2 = x, y and z) are written; the others
      // read as zero, which LLVM relies on: with only X enabled it uses v0 unmasked as the X id
      // (its test llvm/test/CodeGen/AMDGPU/llvm.amdgcn.workitem.id.ll, PACKED-TID).
      if (k.workitem_id_vgprs < 1) y = 0;
      if (k.workitem_id_vgprs < 2) z = 0;
      w.v[l] = x | (y << 10) | (z << 20);
    }
    w.set_exec(exec);
    w.s[kM0] = 0xffffffffu;
  }
  begin_store_tracking(L, S.waves.data(), S.waves.size(), S.lds_tags, S.lds.size(), S.stores_pending);
  // Timing-model recording: this workgroup's waves, or nullptr (record_step in record.cpp).
  S.rec = nullptr;
  if (L.rec) {
    auto it = std::lower_bound(L.rec_index.begin(), L.rec_index.end(), std::make_pair(lin, 0u));
    if (it != L.rec_index.end() && it->first == lin) S.rec = &L.rec->waves[size_t(it->second) * size_t(nwaves)];
  }
}

enum class TurnEnd { Finished, Waiting, Preempted };

// What an address-only workgroup (Options::trace_lines_address_only) does not execute: matrix math,
// and global/buffer/flat stores and atomics (their addresses are traced before this is asked); the
// wave's private scratch_* stores run (a spilled register may hold an address).
bool skipped_when_address_only(const Op& op) {
  if (op.unit == isa::Unit::MFMA) return true;
  return op.unit == isa::Unit::VMEM && op.info && (op.info->is_store || op.info->is_atomic) && !memory_is_scratch(op);
}

// Runs the workgroup's waves round-robin until they have all ended, or the workgroup waits, or
// (while other workgroups are suspended) its slice is used up.
// RECORDING: the workgroup is recorded for the timing model (its steps or its cache lines); the
// loop without it has none of the recording tests per instruction.
template <bool RECORDING>
TurnEnd run_turn_as(Launch& L, ThreadCtx& T, WgStorage& S, const Scheduler& sched, std::atomic<uint64_t>& budget_used,
                    LineWave* const lines) {
  const int nwaves = S.nwaves;
  RecordedWave* const rec = S.rec;
  const Op* ops = L.dk->ops.data();
  const uint32_t nops = uint32_t(L.dk->ops.size());
  uint64_t* const executed = T.executed.data();
  const uint32_t vrows = vgpr_rows(L.dk->info), arows = agpr_rows(L.dk->info);
  uint64_t local = 0;
  // Memory writes this turn: the writing instructions' counts at its end less those at its start.
  auto writes_so_far = [&] {
    uint64_t n = 0;
    for (const uint32_t pc : sched.writing_pcs) n += executed[pc];
    return n;
  };
  const uint64_t writes_before = writes_so_far();
  const uint64_t budget = L.opt.instruction_budget;
  const bool checkw = L.opt.check_waitcnt;
  // Options::trace_lines_address_only: a traced workgroup that is not recorded skips MFMA math and global writes.
  const bool address_only = RECORDING && L.opt.trace_lines_address_only && !rec && lines;
  int waiting_rounds = 0;
  // One test per instruction: `local` reaching `next_check`, the first of the next time-limit check
  // (every 2^16 instructions) and the instruction at which the budget, as last read, is used up.
  // The shared count changes only when a turn ends (this thread's or another's), so one host thread
  // stops at the same instruction as a per-instruction read would; with several, another thread's
  // turn ending in between is seen at the next check.
  uint64_t next_check = 0;
  auto plan_check = [&] {
    const uint64_t used = budget_used.load(std::memory_order_relaxed);
    const uint64_t last_ok = used >= budget ? 0 : budget - used;  // local may reach this, not pass it
    const uint64_t deadline_at = (local | 0xffff) + 1;
    next_check = last_ok < deadline_at - 1 ? last_ok + 1 : deadline_at;
  };
  plan_check();
  for (int wi = 0; wi < nwaves; ++wi) S.waves[wi].T = &T;
  auto end_turn = [&](TurnEnd e) {
    T.stats.wave_instructions += local;
    budget_used.fetch_add(local, std::memory_order_relaxed);
    S.stores += writes_so_far() - writes_before;
    return e;
  };
  for (;;) {
    for (int wi = 0; wi < nwaves; ++wi) {
      Wave& w = S.waves[wi];
      if (w.status == Wave::Yielded) {
        w.status = Wave::Running;
        w.slept = w.spinning = false;
        w.yield_at = w.probing ? 0 : w.icount + kWaveQuantum;
      }
      while (w.status == Wave::Running) {
        if (w.pc >= nops) fail(w, ops[nops - 1], "execution ran past the end of the kernel code (missing s_endpgm?)");
        const Op& op = ops[w.pc];
        if (!op.fn) fail(w, op, unbound_reason(op));
        if (++local >= next_check) [[unlikely]] {
          if (local + budget_used.load(std::memory_order_relaxed) > budget) budget_exhausted(w, op, S, sched);
          if ((local & 0xffff) == 0) check_deadline(L, &w, &op, &S, &sched);
          plan_check();
        }
        // Under VGPR indexing a VALU instruction's registers are checked once offset (run_gpr_indexed).
        // check_pending's own first test inline: most instructions name no outstanding register.
        if (checkw && ((op.vmask & w.pend_vmask) | (op.smask & w.pend_smask)) &&
            !((w.mode & kModeGprIdxEn) && op.unit == isa::Unit::VALU))
          check_pending(w, op);
        w.branched = false;
        w.icount++;
        executed[w.pc]++;
        if (RECORDING && rec) [[unlikely]] record_step(rec[wi], w, op, lines && op.unit == isa::Unit::VMEM ? &lines[wi] : nullptr);
        else if (RECORDING && lines && op.unit == isa::Unit::VMEM) [[unlikely]] record_lines(lines[wi], w, op, L.rec->line_bytes);
        if (address_only && skipped_when_address_only(op)) [[unlikely]] {
          // nothing computed or written (Options::trace_lines_address_only); a store still takes its
          // vmcnt slot, so a wait that counts the stores issued after a load checks the same load
          if (op.unit == isa::Unit::VMEM) pend_add(w, op, 1, 1, 0, 0);
        } else if (w.nondefault_mode) [[unlikely]] {
          run_in_mode(w, op);
        } else {
          op.fn(w, op);
        }
        if (RECORDING && rec) [[unlikely]] rec[wi].steps.back().taken = w.branched;
        if (!w.branched) w.pc++;
        else if (w.pc <= op.index && w.icount >= w.yield_at && w.status == Wave::Running) [[unlikely]]
          loop_edge(w, vrows, arows);
      }
      if (!w.lds_deferred.empty()) lds_stores_publish(w);  // the other waves may read its LDS tags now
    }
    int done = 0, barrier = 0, waiting = 0;
    for (int wi = 0; wi < nwaves; ++wi) {
      const Wave& w = S.waves[wi];
      done += w.status == Wave::Done;
      barrier += w.status == Wave::AtBarrier;
      waiting += w.status == Wave::Yielded && (w.slept || w.spinning);
    }
    if (done == nwaves) return end_turn(TurnEnd::Finished);
    // S_BARRIER (CDNA3/CDNA4 ISA guides): "If some waves in the threadgroup have already
    // terminated, this waits on only the surviving waves." Released once every wave that has not
    // ended stands at the barrier.
    if (barrier > 0 && barrier + done == nwaves) {
      for (int wi = 0; wi < nwaves; ++wi)
        if (S.waves[wi].status == Wave::AtBarrier) S.waves[wi].status = Wave::Running;
      waiting_rounds = 0;
      continue;
    }
    if (barrier + done + waiting == nwaves) {
      if (++waiting_rounds >= kWaitingRounds) {
        ++S.waits;
        return end_turn(TurnEnd::Waiting);
      }
    } else {
      waiting_rounds = 0;
    }
    // Suspended workgroups run only once no new one may start; then they share the host threads
    // with the running ones by slices (a waiting loop the spin test does not recognise still ends).
    if (local >= kWorkgroupSlice && sched.nsuspended.load() > 0 && !sched.may_start()) return end_turn(TurnEnd::Preempted);
  }
}

TurnEnd run_turn(Launch& L, ThreadCtx& T, WgStorage& S, const Scheduler& sched, std::atomic<uint64_t>& budget_used) {
  // The workgroup's global cache lines for the memory hierarchy (Recording::line_workgroups), or nullptr.
  const size_t first = S.lin * size_t(S.nwaves);
  LineWave* const lines = L.rec && first < L.rec->line_waves.size() ? &L.rec->line_waves[first] : nullptr;
  if (S.rec || lines) return run_turn_as<true>(L, T, S, sched, budget_used, lines);
  return run_turn_as<false>(L, T, S, sched, budget_used, nullptr);
}

// Hash of everything a suspended workgroup's future depends on besides global memory: each
// wave's status, pc, SCC, MODE, scalar file and vector rows, and the LDS.
uint64_t state_hash(const WgStorage& S, const KernelInfo& k) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  auto mix = [&](const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t x;
      std::memcpy(&x, b + i, 8);
      h = (h ^ x) * 0x100000001b3ull;
      h ^= h >> 29;
    }
    for (; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  };
  for (int i = 0; i < S.nwaves; ++i) {
    const Wave& w = S.waves[size_t(i)];
    const uint32_t small[4] = {uint32_t(w.status), w.pc, uint32_t(w.scc), w.mode};
    mix(small, sizeof small);
    mix(w.s, sizeof w.s);
    mix(w.v, size_t(vgpr_rows(k)) * 64 * 4);
    if (k.agpr_count) mix(w.v + 256 * 64, size_t(agpr_rows(k)) * 64 * 4);
  }
  mix(S.lds.data(), S.lds.size());
  return h;
}

// What each live wave of a deadlocked workgroup waits for.
std::string waiting_waves(const Launch& L, const WgStorage& S) {
  const Op* ops = L.dk->ops.data();
  std::string out;
  for (int i = 0; i < S.nwaves; ++i) {
    const Wave& w = S.waves[size_t(i)];
    if (w.status == Wave::Done) continue;
    std::string what;
    if (w.status == Wave::AtBarrier) {
      const Op& op = ops[w.pc - 1];
      what = "waits at s_barrier (pc " + hex(op.pc) + ")";
    } else if (w.slept) {
      const Op& op = ops[w.pc - 1];
      what = "sleeps in a loop (s_sleep at pc " + hex(op.pc) + ")";
    } else {
      const Op& op = ops[w.pc];
      what = "spins in the loop at pc " + hex(op.pc) + " '" + op.text + "', whose iterations change no register";
    }
    out += (out.empty() ? "" : "; ") + std::string("wave ") + std::to_string(i) + " " + what;
  }
  return out;
}

// Suspends a workgroup that waits (or used up its slice). Returns the deadlock message when the
// deadlock rule above holds, else "".
std::string suspend(Launch& L, Scheduler& sched, std::unique_ptr<WgStorage> S, TurnEnd why, uint64_t& reported) {
  const uint64_t h = state_hash(*S, L.dk->info);
  std::lock_guard<std::mutex> g(sched.m);
  const uint64_t epoch = sched.epoch.load();
  if (sched.idle_epoch != epoch) {  // something changed since the idle turns counted so far
    sched.idle_epoch = epoch;
    sched.idle.clear();
  }
  const bool idle = why == TurnEnd::Waiting && S->hashed && S->state_hash == h && S->stores == 0 && S->turn_epoch == epoch;
  S->hashed = true;
  S->state_hash = h;
  const uint64_t lin = S->lin;
  std::string note;
  if (idle) {
    const Wave& w0 = S->waves[0];
    note = "workgroup (" + std::to_string(w0.wg[0]) + "," + std::to_string(w0.wg[1]) + "," + std::to_string(w0.wg[2]) +
           "): deadlock: " + waiting_waves(L, *S);
  }
  sched.suspended.push_back(std::move(S));
  ++sched.nsuspended;
  if (!idle) {
    ++sched.epoch;
    return "";
  }
  sched.idle[lin] = note;
  // Every live workgroup has had a turn that changed nothing since the last change anywhere.
  if (sched.idle.size() != sched.live.load() || sched.may_start()) return "";
  reported = sched.idle.begin()->first;  // the lowest id, as for any other error
  std::string msg = "simulator: kernel " + L.dk->info.name + ", " + sched.idle.begin()->second +
                    "; nothing else can change what they read: ";
  const size_t others = sched.idle.size() - 1;
  msg += others == 1 ? std::string("1 other workgroup waits the same way, ")
         : others    ? std::to_string(others) + " other workgroups wait the same way, "
                     : std::string("no other workgroup runs, ");
  msg += sched.next.load() >= sched.nrun ? "every workgroup of the grid has started"
                                          : std::to_string(sched.live.load()) + " workgroups are resident, " + sched.resident_why;
  return msg + ", and none of the waiting loops stores anything";
}

uint64_t content_hash(const std::vector<uint8_t>& b) {
  uint64_t h = 1469598103934665603ull;
  for (uint8_t c : b) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

// Every register an instruction names must lie inside the files the descriptor allocates (gfx90a+
// unified file: VGPRs below accum_offset, AGPRs above): what ops[first, last) use beyond them, as
// the error to give (empty: nothing).
static std::string register_range_error(const DecodedKernel& dk, size_t first, size_t last, const std::string& where) {
  const KernelInfo& k = dk.info;
  uint32_t total = isa::target::descriptor_vector_regs(k.rsrc1);
  uint32_t vlimit = std::min<uint32_t>(k.accum_offset ? k.accum_offset : total, 256);
  uint32_t alimit = total > vlimit ? total - vlimit : 0;
  uint32_t slimit = std::max<uint32_t>((((k.rsrc1 >> 6) & 15) + 1) * 8, k.sgpr_count);
  for (size_t i = first; i < last; ++i) {
    const Op& op = dk.ops[i];
    if (!op.fn) continue;
    auto at = [&] { return "simulator: kernel " + k.name + where + ", pc " + hex(op.pc) + " '" + op.text + "': "; };
    auto chk = [&](const Src& s) -> std::string {
      if (s.k == SrcKind::S && s.idx + s.n > kSFileSize)
        return at() + "scalar operand s" + std::to_string(s.idx) + " with " + std::to_string(s.n) + " dwords runs past the scalar register file";
      if (s.k == SrcKind::V && s.idx < 256 && s.idx + s.n > vlimit)
        return at() + "uses v" + std::to_string(s.idx + s.n - 1) + " but the kernel descriptor allocates " + std::to_string(vlimit) + " VGPRs";
      if (s.k == SrcKind::V && s.idx >= 256 && s.idx < kVFile && uint32_t(s.idx - 256 + s.n) > alimit)
        return at() + "uses a" + std::to_string(s.idx - 256 + s.n - 1) + " but the kernel descriptor allocates " + std::to_string(alimit) + " AGPRs";
      if (s.k == SrcKind::S && s.idx < kSgprCount && s.idx + s.n > slimit + 6)  // +6: VCC/FLAT_SCRATCH/XNACK are extra
        return at() + "uses s" + std::to_string(s.idx + s.n - 1) + " beyond the " + std::to_string(slimit) + " SGPRs the descriptor allocates";
      return {};
    };
    for (int j = 0; j < op.nd; ++j)
      if (std::string e = chk(op.d[j]); !e.empty()) return e;
    for (int j = 0; j < op.ns; ++j)
      if (std::string e = chk(op.s[j]); !e.empty()) return e;
  }
  return {};
}

// The kernel's own instructions are checked before it runs; a function of the code object only
// when a call enters it (DecodedKernel::Function::register_error): another kernel's callees may
// use more registers than this kernel allocates.
static void check_register_ranges(const DecodedKernel& dk) {
  if (std::string e = register_range_error(dk, 0, dk.kernel_ops, ""); !e.empty()) throw Error(e);
}

Simulator::Simulator(Arch arch) : arch_(arch) {}
Simulator::~Simulator() = default;

const DecodedKernel& Simulator::decoded(const CodeObject& co, const KernelInfo& k) {
  std::string key = std::to_string(content_hash(co.bytes)) + ":" + std::to_string(co.bytes.size()) + ":" + k.name;
  std::lock_guard<std::mutex> lock(cache_mutex_);
  auto it = cache_.find(key);
  if (it != cache_.end()) return *it->second;
  auto dk = decode_kernel(co, k);
  for (size_t i = 0; i < dk->functions.size(); ++i) {
    auto& f = dk->functions[i];
    const size_t last = i + 1 < dk->functions.size() ? dk->functions[i + 1].first_op : dk->ops.size();
    f.register_error = register_range_error(*dk, f.first_op, last, " (in function " + f.name + ", which it calls)");
  }
  auto& ref = *dk;
  cache_[key] = std::move(dk);
  return ref;
}

std::string Simulator::disassemble(const CodeObject& co, std::string_view kernel) {
  const KernelInfo* k = co.find(kernel);
  if (!k) throw Error("simulator: no kernel '" + std::string(kernel) + "' in the code object");
  const DecodedKernel& dk = decoded(co, *k);
  check_register_ranges(dk);
  if (dk.ops.empty()) throw Error("simulator: kernel " + k->name + " has no code");
  std::string out;
  for (const auto& op : dk.ops) out += hex(op.pc) + ": " + op.text + (op.fn ? "" : "    ; <not implemented>") + (op.private_parse ? "    ; <private parser>" : "") + "\n";
  return out;
}

Stats Simulator::launch(const CodeObject& co, std::string_view kernel, std::span<const uint8_t> kernarg,
                        const LaunchDims& dims, const Options& opt) {
  auto t0 = std::chrono::steady_clock::now();
  if (co.arch != arch_)
    throw Error("simulator: code object is for " + std::string(arch_name(co.arch)) + " but the simulator models " +
                std::string(arch_name(arch_)));
  const KernelInfo* k = co.find(kernel);
  if (!k) {
    std::string names;
    for (auto& kk : co.kernels) names += (names.empty() ? "" : ", ") + kk.name;
    throw Error("simulator: no kernel '" + std::string(kernel) + "' in the code object; it has: " + names);
  }
  if (k->wavefront_size != 64) throw Error("simulator: kernel " + k->name + " is wave32; only wave64 is modelled");
  uint64_t nthreads = uint64_t(dims.block[0]) * dims.block[1] * dims.block[2];
  if (nthreads == 0 || nthreads > 1024 || (k->max_flat_workgroup_size && nthreads > k->max_flat_workgroup_size))
    throw Error("simulator: block size " + std::to_string(nthreads) + " invalid for kernel " + k->name +
                " (1.." + std::to_string(k->max_flat_workgroup_size ? k->max_flat_workgroup_size : 1024) + ")");
  if (dims.grid[0] == 0 || dims.grid[1] == 0 || dims.grid[2] == 0) throw Error("simulator: grid has a zero dimension");
  for (int i = 0; i < 3; ++i)
    if (uint64_t(dims.grid[i]) * dims.block[i] > 0xffffffffull)
      throw Error("simulator: grid dimension " + std::string(1, char('x' + i)) + " has " +
                  std::to_string(uint64_t(dims.grid[i]) * dims.block[i]) +
                  " work-items, more than the dispatch packet's 32-bit grid size allows");
  // Bounds the workgroup count so that it fits 64-bit arithmetic (a real grid is far smaller).
  if (double(dims.grid[0]) * dims.grid[1] * dims.grid[2] > double(1ull << 40))
    throw Error("simulator: grid " + std::to_string(dims.grid[0]) + "x" + std::to_string(dims.grid[1]) + "x" +
                std::to_string(dims.grid[2]) + " has more than 2^40 workgroups, the simulator's limit");
  // The CodeObject may not come from read_code_object: re-check the sizes the launch allocates from.
  if (k->private_segment_size > kMaxPrivateSegmentBytes || k->kernarg_size > kMaxKernargBytes)
    throw Error("simulator: kernel " + k->name + " asks for " + std::to_string(k->private_segment_size) +
                " private segment (scratch) bytes per work-item and " + std::to_string(k->kernarg_size) +
                " kernarg bytes; the limits are " + std::to_string(kMaxPrivateSegmentBytes) + " and " +
                std::to_string(kMaxKernargBytes) + " (jit/codeobject/code_object.hpp)");
  if (kernarg.size() > kMaxKernargBytes)
    throw Error("simulator: kernarg segment of " + std::to_string(kernarg.size()) + " bytes exceeds the limit of " +
                std::to_string(kMaxKernargBytes) + " (kMaxKernargBytes in jit/codeobject/code_object.hpp)");
  if (k->kernel_code_properties & (1u << 11))
    throw Error("simulator: kernel " + k->name + " uses a dynamic stack (recursion, an indirect call or a variable-sized alloca: a stack whose size is not known before it runs), which the simulator does not model");
  uint64_t lds_bytes = uint64_t(k->group_segment_size) + dims.dynamic_lds;
  uint64_t lds_max = lds_bytes_per_cu(arch_);
  if (lds_bytes > lds_max)
    throw Error("simulator: kernel " + k->name + " needs " + std::to_string(lds_bytes) + " bytes of LDS; " +
                std::string(arch_name(arch_)) + " has " + std::to_string(lds_max));
  const DecodedKernel& dk = decoded(co, *k);
  check_register_ranges(dk);
  if (dk.ops.empty()) throw Error("simulator: kernel " + k->name + " has no code");

  Launch L;
  L.dk = &dk;
  L.mem = &memory_;
  L.opt = opt;
  if (opt.time_limit_seconds > 0)
    L.deadline = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                          std::chrono::duration<double>(opt.time_limit_seconds));
  L.arch = arch_;
  // The wave's initial MODE: rsrc1 FLOAT_ROUND_MODE_32/_16_64 and FLOAT_DENORM_MODE_32/_16_64
  // (bits 12..19) are MODE[7:0]; DX10_CLAMP and IEEE_MODE its bits 8 and 9.
  L.initial_mode = ((k->rsrc1 >> 12) & 0xff) | uint32_t(k->dx10_clamp) << 8 | uint32_t(k->ieee_mode) << 9;
  // Kernarg segment (plus a fake AQL dispatch packet 256 bytes before it).
  // Padded with zeros to a multiple of 64 bytes: clang-22 widens the loads of the last explicit
  // arguments past the segment's end (e.g. s_load_dwordx4 at offset 8 of a 20-byte segment, which
  // the hardware serves from the runtime's kernarg buffer); test "clang's widened kernarg load".
  uint64_t ka_size = (std::max<uint64_t>({k->kernarg_size, kernarg.size(), 8}) + 63) / 64 * 64;
  uint64_t region = memory_.alloc(256 + ka_size, "kernarg segment of " + k->name);
  struct Free { Memory& m; uint64_t a; ~Free() { try { m.free(a); } catch (...) {} } } guard{memory_, region};
  L.kernarg_addr = region + 256;
  L.pc_base = co.load_address ? co.load_address + co.text_address : 0;
  std::vector<uint8_t> ka(ka_size, 0);
  std::copy(kernarg.begin(), kernarg.end(), ka.begin());
  uint64_t grid_items[3];
  for (int i = 0; i < 3; ++i) grid_items[i] = uint64_t(dims.grid[i]) * dims.block[i];
  for (const auto& a : k->args) {
    auto put = [&](uint64_t v) {
      if (uint64_t(a.offset) + a.size <= ka.size()) std::memcpy(ka.data() + a.offset, &v, std::min<uint32_t>(a.size, 8));
    };
    const std::string& vk = a.value_kind;
    for (int i = 0; i < 3; ++i) {
      std::string c(1, char('x' + i));
      if (vk == "hidden_block_count_" + c) put(dims.grid[i]);
      if (vk == "hidden_group_size_" + c) put(dims.block[i]);
      if (vk == "hidden_remainder_" + c) put(0);  // grid is a whole number of workgroups
      if (vk == "hidden_global_offset_" + c) put(0);
    }
    if (vk == "hidden_grid_dims") put(dims.grid[2] * dims.block[2] > 1 ? 3 : dims.grid[1] * dims.block[1] > 1 ? 2 : 1);
    if (vk == "hidden_dynamic_lds_size") put(dims.dynamic_lds);
  }
  memory_.write(L.kernarg_addr, ka.data(), ka.size());
  for (uint32_t i = 0; i < k->kernarg_preload_length; ++i) {
    uint64_t off = (uint64_t(k->kernarg_preload_offset) + i) * 4;
    uint32_t v = 0;
    if (off + 4 <= ka.size()) std::memcpy(&v, ka.data() + off, 4);
    L.preload.push_back(v);
  }
  uint8_t aql[64] = {};
  uint16_t wgs[3] = {uint16_t(dims.block[0]), uint16_t(dims.block[1]), uint16_t(dims.block[2])};
  std::memcpy(aql + 4, wgs, 6);
  for (int i = 0; i < 3; ++i) { uint32_t g = uint32_t(grid_items[i]); std::memcpy(aql + 12 + 4 * i, &g, 4); }
  { uint32_t g = uint32_t(lds_bytes); std::memcpy(aql + 28, &g, 4); }  // group_segment_size: static + dynamic LDS bytes
  std::memcpy(aql + 40, &L.kernarg_addr, 8);
  memory_.write(region, aql, 64);
  // kernarg_addr - 256 would be before the region: point the dispatch ptr at the packet copy.
  L.kernarg_addr = region + 256;
  L.pc_base = co.load_address ? co.load_address + co.text_address : 0;

  uint64_t nwg = uint64_t(dims.grid[0]) * dims.grid[1] * dims.grid[2];
  if (opt.recording) begin_recording(L, *opt.recording, uint32_t((nthreads + 63) / 64), nwg);
  if (opt.only_recorded_workgroups && !opt.recording)
    throw Error("simulator: only_recorded_workgroups needs a recording that lists the workgroups to run");
  // The workgroups this launch runs: the whole grid, or only the recorded ones.
  // The recorded workgroups and those whose cache lines are recorded (Recording::line_workgroups).
  std::vector<uint64_t> run_ids;
  if (opt.only_recorded_workgroups) {
    run_ids = opt.recording->workgroups;
    for (uint64_t i = 0; i < std::min<uint64_t>(opt.recording->line_workgroups, nwg); ++i) run_ids.push_back(i);
    std::sort(run_ids.begin(), run_ids.end());
    run_ids.erase(std::unique(run_ids.begin(), run_ids.end()), run_ids.end());
  }
  const std::vector<uint64_t>* subset = opt.only_recorded_workgroups ? &run_ids : nullptr;
  const uint64_t nrun = subset ? uint64_t(subset->size()) : nwg;
  const int nwaves = int((nthreads + 63) / 64);
  Scheduler sched;
  sched.nrun = nrun;
  // The most workgroups of this kernel a GPU of the arch holds at once: its CUs times the workgroups
  // a CU holds by wave slots, barriers, LDS and register use (residency.hpp, the target's occupancy
  // arithmetic). A launch whose workgroup does not fit on a CU is refused there, as a GPU refuses it.
  {
    namespace tg = isa::target;
    const CuResidency cu = cu_residency(arch_, *k, nthreads, lds_bytes);
    sched.resident_limit = uint64_t(tg::max_compute_units(arch_)) * cu.workgroups_per_cu;
    sched.resident_why = "the most a " + std::string(arch_name(arch_)) + " GPU holds (" +
                         std::to_string(tg::max_compute_units(arch_)) + " CUs x " + cu.why + ")";
    if (opt.resident_workgroups > 0) {
      sched.resident_limit = opt.resident_workgroups;
      sched.resident_why = "the limit sim::Options::resident_workgroups sets";
    }
  }
  for (size_t i = 0; i < dk.ops.size(); ++i) {
    const Op& op = dk.ops[i];
    if (op.lds || (op.info && (op.info->is_store || op.info->is_atomic))) sched.writing_pcs.push_back(uint32_t(i));
  }
  int nthreads_host = opt.threads > 0 ? opt.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  nthreads_host = int(std::max<uint64_t>(1, std::min<uint64_t>(uint64_t(nthreads_host), nrun)));
  std::atomic<uint64_t> budget_used{0};
  FirstError ferr;
  std::vector<ThreadCtx> tctx(static_cast<size_t>(nthreads_host));
  for (auto& t : tctx) t.executed.assign(dk.ops.size(), 0);
  auto new_storage = [&]() {
    auto S = std::make_unique<WgStorage>();
    S->vregs.assign(size_t(nwaves) * kVRows * 64, 0);
    S->lds.assign(lds_bytes, 0);
    S->scratch.assign(size_t(nwaves) * 64 * k->private_segment_size, 0);
    S->waves.resize(size_t(nwaves));
    return S;
  };
  auto worker = [&](int ti) {
    ThreadCtx& T = tctx[size_t(ti)];
    std::unique_ptr<WgStorage> spare;
    for (;;) {
      // A new workgroup while the grid has one and the resident limit allows, else a suspended one.
      std::unique_ptr<WgStorage> S;
      uint64_t id = ~0ull;
      if (sched.next.load() < nrun && sched.reserve()) {
        const uint64_t slot = sched.next.fetch_add(1);
        if (slot < nrun) id = subset ? (*subset)[slot] : slot;
        else --sched.live;
      }
      if (id != ~0ull) {
        // After an error only workgroups with lower ids still run (the lowest id's error is reported).
        if (id > ferr.limit.load()) { --sched.live; break; }
        try {
          S = spare ? std::move(spare) : new_storage();
        } catch (const std::bad_alloc&) {
          ferr.set(id, "simulator: out of host memory for the state of workgroup " + std::to_string(id) + " of " +
                           k->name + " (" + std::to_string(sched.nsuspended.load()) + " workgroups suspended)");
          --sched.live;
          continue;
        }
        start_workgroup(L, *S, dims, id);
      } else {
        S = sched.resume();
        if (!S) break;
        // After an error, a suspended workgroup may wait for the one that failed: drop it.
        if (ferr.any()) { sched.finished(); continue; }
      }
      const uint64_t lin = S->lin;
      try {
        check_deadline(L, nullptr, nullptr, S.get(), &sched);
        const TurnEnd e = run_turn(L, T, *S, sched, budget_used);
        if (e == TurnEnd::Finished) {
          if (S->rec && L.rec->workgroup_done) L.rec->workgroup_done(*L.rec, size_t(S->rec - L.rec->waves.data()));
          for (int wi = 0; wi < S->nwaves; ++wi) T.stats.lane_ops += S->waves[wi].lane_ops, S->waves[wi].lane_ops = 0;
          T.stats.waves += uint64_t(S->nwaves);
          T.stats.workgroups++;
          sched.finished();
          if (!spare) spare = std::move(S);
        } else {
          uint64_t reported = lin;
          const std::string dead = suspend(L, sched, std::move(S), e, reported);
          if (!dead.empty()) ferr.set(reported, dead, LaunchError::Kind::Deadlock);
        }
      } catch (const LaunchError& e) {
        ferr.set(lin, e.what(), e.kind);
        sched.finished();
      } catch (const Error& e) {
        ferr.set(lin, e.what());
        sched.finished();
      } catch (const std::exception& e) {
        ferr.set(lin, std::string("simulator: internal error: ") + e.what());
        sched.finished();
      }
    }
  };
  if (nthreads_host == 1) worker(0);
  else {
    std::vector<std::thread> th;
    for (int i = 0; i < nthreads_host; ++i) th.emplace_back(worker, i);
    for (auto& t : th) t.join();
  }
  if (ferr.wg != ~0ull) throw LaunchError(ferr.kind, ferr.msg);
  if (sched.nsuspended.load() != 0 || sched.next.load() < nrun)
    throw Error("simulator: internal error: the scheduler stopped with " + std::to_string(sched.nsuspended.load()) +
                " workgroups suspended");
  Stats st;
  for (auto& t : tctx) {
    for (size_t pc = 0; pc < dk.ops.size(); ++pc) st.by_unit[int(dk.ops[pc].unit)] += t.executed[pc];
    st.wave_instructions += t.stats.wave_instructions;
    st.lane_ops += t.stats.lane_ops;
    st.waves += t.stats.waves;
    st.workgroups += t.stats.workgroups;
  }
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return st;
}

std::string unbound_reason(const Op& op) {
  // The decoder's placeholder for a cut-off instruction (decode.cpp) is its own reason.
  if (op.text.rfind("<kernel code ends mid-instruction", 0) == 0) return op.text.substr(1, op.text.size() - 2);
  std::string s = "instruction not implemented by the simulator (or not decodable): '" + op.text + "'";
  if (op.info) {
    const std::string_view why = registry().refused[size_t(isa::opcode_of(*op.info))];
    if (!why.empty()) s += "; not modelled on purpose: " + std::string(why);
  }
  return s;
}

const Registry& registry() {
  static const Registry r = [] {
    Registry x;
    register_salu(x);
    register_valu(x);
    register_mem(x);
    register_mfma(x);
    register_smfmac(x);
    register_buffer_format(x);
    register_gpr_idx(x);
    register_sendmsg(x);
    register_ds_transpose(x);
    register_div(x);
    register_fp8(x);
    register_mode(x);
    register_rounding(x);
    register_mode_convert(x);
    register_mode_exact(x);
    register_mode_f16(x);
    register_permlane(x);
    // The VALU files below read lanes directly (no SDWA select / destination merge): their
    // handlers are marked so that an _sdwa form runs through sdwa_direct_exec.
    auto without_sdwa = [&x](void (*register_file)(Registry&)) {
      const auto before = x.by_opcode;
      register_file(x);
      for (size_t i = 0; i < before.size(); ++i)
        if (x.by_opcode[i].fn && x.by_opcode[i].fn != before[i].fn) x.sdwa_direct.set(i);
    };
    register_atomic(x);    // the files below only add names not defined above
    without_sdwa(&register_f64);
    without_sdwa(&register_dot_int);
    without_sdwa(&register_vcmp_ext);
    register_salu_ext(x);
    without_sdwa(&register_valu_bytes);
    without_sdwa(&register_valu_legacy);
    register_lds_ext(x);
    return x;
  }();
  return r;
}

}  // namespace cdnajit::sim
