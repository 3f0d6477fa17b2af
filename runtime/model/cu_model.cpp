#include "runtime/model/cu_model.hpp"

#include <algorithm>
#include <deque>
#include <utility>

#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/isa/mfma_rate.hpp"
#include "jit/isa/waitcnt.hpp"
#include "runtime/sim/cache_lines.hpp"
#include "runtime/model/lds_banks.hpp"

namespace cdnajit::model {

const char* stall_name(Stall s) {
  static const std::string nop_sleep =
      std::string(isa::info(isa::Opcode::s_nop).mnemonic) + "/" + std::string(isa::info(isa::Opcode::s_sleep).mnemonic);
  static const char* n[] = {"wait vmcnt (global memory)", "wait lgkmcnt (LDS/scalar)", "barrier", nop_sleep.c_str(),
                            "branch refetch", "VALU pipe busy", "MFMA pipe busy", "issue port taken by another wave",
                            "wait counter full"};
  return n[int(s)];
}
const char* vector_idle_name(VectorIdle v) {
  static const char* n[] = {"no wave resident", "vector pipe still busy", "waiting on memory", "all waves at a barrier",
                            "scalar, branch or s_nop only"};
  return n[int(v)];
}
const char* pipe_name(Pipe p) {
  static const char* n[] = {"VALU", "MFMA", "SALU", "LDS", "VMEM address", "L2 bandwidth share",
                            "Infinity Cache bandwidth share", "HBM bandwidth share"};
  return n[int(p)];
}

namespace {

using isa::Unit;

// Issue-port categories: one instruction of each per SIMD turn.
enum Port { kValu, kSalu, kVmem, kLds, kSmem, kOther, kPorts };
Port port_of(Unit u) {
  switch (u) {
    case Unit::VALU: case Unit::MFMA: return kValu;
    case Unit::SALU: return kSalu;
    case Unit::VMEM: return kVmem;
    case Unit::DS: return kLds;
    case Unit::SMEM: return kSmem;
    default: return kOther;
  }
}

struct WaveState {
  const sim::RecordedWave* rw = nullptr;
  size_t pc = 0;
  int simd = 0, slot = 0, wg = 0;  // wg: index into the resident workgroup table
  uint64_t age = 0;                // launch order (older first)
  uint64_t ready = 0;              // not before this cycle
  Stall wait = Stall::NopSleep;    // why `ready` is in the future
  size_t line_pos = 0;             // next entry of this wave's MemoryModel::levels
  int prio = 0;
  enum { Active, AtBarrier, Draining, Done } state = Active;
  std::deque<uint64_t> vm;         // completion cycles, non-decreasing (in-order return)
  // Each LGKM operation's own completion cycle, kLdsPending for a DS instruction the LDS has not
  // started (Hardware::lds_serves_oldest_wave_first) or not finished (lds_bank_passes_by_age) yet;
  // they return in order, so entry i is done
  // at the largest of entries 0..i (lgkm_done).
  std::deque<uint64_t> lgkm;
  // trace: the open stall interval
  Stall open = Stall::Count;
  uint64_t open_start = 0;
};

struct WgState {
  int instance = 0;  // which workgroup of the run (recorded workgroup = instance % recorded)
  std::vector<int> waves;
  bool live = false;
};

uint64_t last_or(const std::deque<uint64_t>& q, uint64_t v) { return q.empty() ? v : std::max(v, q.back()); }

// The {priority, age} order S_SETPRIO documents for instruction issue ([ISA3]): a higher priority
// first, then the older wave. Issue arbitration uses it, and so do the LDS service rules that assume it.
bool outranks(const WaveState& x, const WaveState& y) { return x.prio != y.prio ? x.prio > y.prio : x.age < y.age; }

constexpr uint64_t kLdsPending = ~uint64_t(0);
// When the first `n` LGKM operations of a wave have returned (in-order return).
uint64_t lgkm_done(const std::deque<uint64_t>& q, size_t n) {
  uint64_t t = 0;
  for (size_t i = 0; i < std::min(n, q.size()); ++i) t = std::max(t, q[i]);
  return t;
}
uint64_t lgkm_done(const std::deque<uint64_t>& q) { return lgkm_done(q, q.size()); }

// The cycles an LDS half (or the CU's shared bank array) is reserved, as intervals: a DS instruction
// takes the first free interval from its issue on, an LDS-DMA load writes its data when it arrives
// from memory, hundreds of cycles after it issued. A single "free from" time would make every DS
// instruction issued in between wait for that arrival (and, for the shared banks, make one half's
// access queued for later hold back the other half's); the intervals let it use the free cycles.
class LdsCalendar {
 public:
  // The first `len` free cycles from `t` on, reserved; `now` (non-decreasing) drops what has passed.
  uint64_t reserve(uint64_t t, uint64_t len, uint64_t now) {
    size_t drop = 0;
    while (drop < busy_.size() && busy_[drop].second <= now) ++drop;
    busy_.erase(busy_.begin(), busy_.begin() + ptrdiff_t(drop));
    uint64_t s = t;
    size_t i = 0;
    for (; i < busy_.size(); ++i) {
      if (busy_[i].second <= s) continue;   // ends before the candidate start
      if (busy_[i].first >= s + len) break;  // the gap before it fits
      s = busy_[i].second;
    }
    if (len > 0) busy_.insert(busy_.begin() + ptrdiff_t(i), {s, s + len});
    return s;
  }
  // Whether cycles [t, t + len) are all free.
  bool free_at(uint64_t t, uint64_t len) const {
    for (const auto& b : busy_)
      if (b.first < t + len && b.second > t) return false;
    return true;
  }

 private:
  std::vector<std::pair<uint64_t, uint64_t>> busy_;  // [start, end), sorted, disjoint
};

}  // namespace

CuResult run_cu(const sim::Recording& rec, const Hardware& hw, const CuRunConfig& cfg) {
  const int wpw = int(rec.waves_per_workgroup);
  if (wpw == 0 || rec.waves.empty() || rec.waves.size() % size_t(wpw) != 0)
    throw Error("model: the recording holds no complete workgroup (was Options::recording set for the launch?)");
  if (cfg.workgroup_slots < 1 || cfg.workgroups < 1)
    throw Error("model: workgroup slots (" + std::to_string(cfg.workgroup_slots) + ") and workgroups (" +
                std::to_string(cfg.workgroups) + ") must be at least 1");
  const int recorded = int(rec.waves.size()) / wpw;
  const isa::InstrInfo* const kSleep = &isa::info(isa::Opcode::s_sleep);
  const isa::InstrInfo* const kSetprio = &isa::info(isa::Opcode::s_setprio);

  CuResult R;
  // Each level's bandwidth share of this CU, in bytes per cycle at the run's clock.
  const double clock = cfg.clock_ghz > 0 ? cfg.clock_ghz : hw.clock_ghz;
  const int ncu = std::clamp(cfg.active_cus, 1, hw.cus);
  const double hbm_bw = hw.hbm_achievable_bytes_per_s(ncu, clock) / ncu / (clock * 1e9);
  const double mall_bw = hw.mall_achievable_bytes_per_s(ncu, clock) / ncu / (clock * 1e9);
  const double l2_bw = std::min(hw.l2_bytes_per_clk_per_xcd * hw.l2_achievable_share / hw.active_cus_per_xcd(ncu),
                                hw.cu_l2_bytes_per_clk);
  MemoryModel own;
  if (!cfg.memory) own = simulate_memory(rec, hw);
  const MemoryModel& mem = cfg.memory ? *cfg.memory : own;
  if (mem.levels.size() != rec.waves.size())
    throw Error("model: the memory model covers " + std::to_string(mem.levels.size()) + " waves, the recording " +
                std::to_string(rec.waves.size()));
  // Wave-granular release (cfg.waves_per_simd > 0): per-SIMD wave slots, freed when a wave ends.
  const bool granular = cfg.waves_per_simd > 0;
  if (granular && cfg.waves_per_simd * hw.simds < wpw)
    throw Error("model: " + std::to_string(cfg.waves_per_simd) + " waves per SIMD cannot hold a workgroup of " +
                std::to_string(wpw) + " waves");
  const int max_wgs = granular ? std::max(cfg.workgroup_slots, cfg.max_workgroups) : cfg.workgroup_slots;
  std::vector<int> simd_waves(size_t(hw.simds), 0);  // resident waves per SIMD (granular mode)
  std::vector<WaveState> waves;
  std::vector<WgState> wgs(static_cast<size_t>(max_wgs));
  std::vector<uint64_t> valu_free(size_t(hw.simds), 0), mfma_free(size_t(hw.simds), 0);
  std::vector<LdsCalendar> lds_halves(size_t(std::max(1, hw.lds_halves)));  // per LDS half (SIMD pair)
  // The CU's bank array (Hardware::lds_banks_shared_by_halves): its reserved intervals, each half's
  // passes taking the earliest free stretch at or after their own start. Each half is served in
  // order, the banks by time: an access the other half queued for a later start does not hold
  // back one that can use the banks now.
  LdsCalendar lds_banks;
  // DS instructions issued and not yet started (Hardware::lds_serves_oldest_wave_first), in issue order.
  struct WaitingDs {
    int wave, half, bank_cycles, cycles;
  };
  std::vector<WaitingDs> lds_waiting;
  // Hardware::lds_bank_passes_by_age: each half's DS instructions in issue order, the first one in
  // service; it moves one port cycle per cycle, and one bank pass in each cycle the banks are its.
  struct InService {
    int wave, passes, port;
  };
  std::vector<std::deque<InService>> lds_fifo(size_t(std::max(1, hw.lds_halves)));
  const bool passes_by_age = hw.lds_bank_passes_by_age && hw.lds_banks_shared_by_halves && !hw.lds_serves_oldest_wave_first;
  uint64_t addr_free = 0;
  double l2_free = 0, mall_free = 0, hbm_free = 0;
  int launched = 0, finished = 0, next_simd = cfg.first_simd % hw.simds;
  uint64_t age = 0;

  auto trace_on = [&](uint64_t c) { return cfg.trace && c < cfg.trace_cycles; };
  auto close_stall = [&](WaveState& w, uint64_t c) {
    if (w.open != Stall::Count && trace_on(w.open_start) && c > w.open_start)
      R.trace.push_back({w.slot, w.open_start, c - w.open_start,
                         w.open == Stall::Barrier ? std::string("barrier") : std::string("stall: ") + stall_name(w.open),
                         w.open == Stall::Barrier ? 'b' : 's'});
    w.open = Stall::Count;
  };
  // S_BARRIER waits only for the waves of the workgroup that have not terminated (CDNA3/CDNA4 ISA
  // guides), as in the simulator: once no wave of workgroup `wg` is still running, its waiting
  // waves go on after the barrier's release time.
  auto release_barrier_if_all_arrived = [&](int wg, uint64_t c) {
    const WgState& g = wgs[size_t(wg)];
    for (int o : g.waves)
      if (waves[size_t(o)].state == WaveState::Active) return;
    for (int o : g.waves) {
      WaveState& x = waves[size_t(o)];
      if (x.state != WaveState::AtBarrier) continue;
      x.state = WaveState::Active;
      x.ready = c + uint64_t(hw.barrier_release_cycles);
      x.wait = Stall::Barrier;
      close_stall(x, c);
    }
  };
  auto stall = [&](WaveState& w, Stall s, uint64_t c) {
    R.stall[size_t(s)] += uint64_t(hw.issue_period);
    if (w.open != s) {
      close_stall(w, c);
      w.open = s;
      w.open_start = c;
    }
  };

  auto launch = [&](int slot_index, uint64_t c) {
    WgState& g = wgs[size_t(slot_index)];
    g.instance = launched++;
    g.live = true;
    g.waves.clear();
    const int r = g.instance % recorded;
    if (hw.rotate_first_simd_per_workgroup) next_simd = (g.instance + cfg.first_simd) % hw.simds;
    for (int i = 0; i < wpw; ++i) {
      WaveState w;
      w.rw = &rec.waves[size_t(r * wpw + i)];
      if (granular) {  // the SIMD with the most free wave slots, round-robin among equals
        int best = -1;
        for (int k = 0; k < hw.simds; ++k) {
          const int sd = (next_simd + k) % hw.simds;
          if (simd_waves[size_t(sd)] < cfg.waves_per_simd && (best < 0 || simd_waves[size_t(sd)] < simd_waves[size_t(best)]))
            best = sd;
        }
        w.simd = best;
        ++simd_waves[size_t(best)];
        next_simd = best + 1;
      } else {
        w.simd = next_simd++ % hw.simds;
      }
      w.slot = slot_index * wpw + i;
      w.wg = slot_index;
      w.age = age++;
      w.ready = c;
      g.waves.push_back(int(waves.size()));
      waves.push_back(std::move(w));
    }
  };
  std::vector<char> started(size_t(cfg.workgroup_slots), 0);
  int pending_first = cfg.workgroup_slots;  // slots whose first (staggered) workgroup has not started
  auto free_wave_slots = [&] {
    int n = 0;
    for (int v : simd_waves) n += cfg.waves_per_simd - v;
    return n;
  };

  // Starts, at cycle c, the waiting DS instructions whose half (and, shared, the banks) are free,
  // the highest-priority then oldest wave's first; a wave's own instructions in order.
  std::vector<size_t> by_rank;
  std::vector<int> ranked_waves;
  auto serve_lds = [&](uint64_t c) {
    if (lds_waiting.empty()) return;
    by_rank.resize(lds_waiting.size());
    for (size_t i = 0; i < by_rank.size(); ++i) by_rank[i] = i;
    std::stable_sort(by_rank.begin(), by_rank.end(), [&](size_t a, size_t b) {
      return outranks(waves[size_t(lds_waiting[a].wave)], waves[size_t(lds_waiting[b].wave)]);
    });
    ranked_waves.clear();
    std::vector<char> started_now(lds_waiting.size(), 0);
    for (size_t i : by_rank) {
      const WaitingDs& d = lds_waiting[i];
      if (std::find(ranked_waves.begin(), ranked_waves.end(), d.wave) != ranked_waves.end()) continue;
      ranked_waves.push_back(d.wave);  // this wave's later instructions wait for this one
      LdsCalendar& half = lds_halves[size_t(d.half)];
      const bool banks = hw.lds_banks_shared_by_halves && d.bank_cycles > 0;
      if (!half.free_at(c, uint64_t(d.cycles)) || (banks && !lds_banks.free_at(c, uint64_t(d.bank_cycles)))) continue;
      half.reserve(c, uint64_t(d.cycles), c);
      if (banks) lds_banks.reserve(c, uint64_t(d.bank_cycles), c);
      std::deque<uint64_t>& q = waves[size_t(d.wave)].lgkm;
      *std::find(q.begin(), q.end(), kLdsPending) = c + uint64_t(d.cycles) + uint64_t(hw.lds_latency);
      started_now[i] = 1;
    }
    size_t k = 0;
    for (size_t i = 0; i < lds_waiting.size(); ++i)
      if (!started_now[i]) lds_waiting[k++] = lds_waiting[i];
    lds_waiting.resize(k);
  };

  // Serves cycle c of every half's first DS instruction (Hardware::lds_bank_passes_by_age): its port
  // cycle, and the CU's one bank pass of the cycle to the half whose wave has the higher priority,
  // then is older. A half an LDS-DMA load holds (its calendar) does not move.
  auto serve_lds_passes = [&](uint64_t c) {
    int granted = -1;
    for (size_t h = 0; h < lds_fifo.size(); ++h) {
      if (lds_fifo[h].empty() || lds_fifo[h].front().passes == 0 || !lds_halves[h].free_at(c, 1)) continue;
      const WaveState& x = waves[size_t(lds_fifo[h].front().wave)];
      const WaveState* y = granted < 0 ? nullptr : &waves[size_t(lds_fifo[size_t(granted)].front().wave)];
      if (!y || outranks(x, *y)) granted = int(h);
    }
    for (size_t h = 0; h < lds_fifo.size(); ++h) {
      if (lds_fifo[h].empty() || !lds_halves[h].free_at(c, 1)) continue;
      InService& f = lds_fifo[h].front();
      if (f.port > 0) --f.port;
      if (int(h) == granted) --f.passes;
      if (f.port > 0 || f.passes > 0) continue;
      std::deque<uint64_t>& q = waves[size_t(f.wave)].lgkm;
      *std::find(q.begin(), q.end(), kLdsPending) = c + 1 + uint64_t(hw.lds_latency);
      lds_fifo[h].pop_front();
    }
  };
  auto lds_fifo_busy = [&] {
    for (const auto& q : lds_fifo)
      if (!q.empty()) return true;
    return false;
  };

  std::vector<int> order;
  for (uint64_t c = 0;; ++c) {
    if (c > (uint64_t(1) << 40)) throw Error("model: the CU model did not finish (internal error)");
    // First workgroup of each slot, at its (staggered) start.
    for (int si = 0; si < cfg.workgroup_slots; ++si)
      if (!started[size_t(si)] && c >= uint64_t(si) * cfg.stagger && launched < cfg.workgroups) {
        started[size_t(si)] = 1;
        --pending_first;
        launch(si, c);
      }
    // Waves that ended: drain outstanding memory, then free the workgroup's slot.
    for (int si = 0; si < max_wgs; ++si) {
      WgState& g = wgs[size_t(si)];
      if (!g.live) continue;
      bool all_done = true;
      for (int wi : g.waves) {
        WaveState& w = waves[size_t(wi)];
        if (w.state == WaveState::Draining && std::max(lgkm_done(w.lgkm), last_or(w.vm, 0)) <= c) {
          w.state = WaveState::Done;
          if (granular) --simd_waves[size_t(w.simd)];
        }
        all_done &= w.state == WaveState::Done;
      }
      if (!all_done) continue;
      g.live = false;
      ++finished;
      R.workgroup_end.push_back(c);
      if (!granular && launched < cfg.workgroups) launch(si, c + 1);
    }
    // Granular: start workgroups wherever wave slots and a workgroup entry are free (the staggered
    // first workgroups of the slots keep theirs).
    while (granular && launched < cfg.workgroups && free_wave_slots() - pending_first * wpw >= wpw) {
      int live = 0, free_entry = -1;
      for (int i = 0; i < max_wgs; ++i) {
        if (wgs[size_t(i)].live) ++live;
        else if (free_entry < 0 && (i >= cfg.workgroup_slots || started[size_t(i)])) free_entry = i;
      }
      if (free_entry < 0 || live + pending_first >= max_wgs) break;
      launch(free_entry, c + 1);
    }
    if (finished == cfg.workgroups) {
      R.cycles = c;
      break;
    }
    serve_lds(c);
    const int simd = int(c % uint64_t(hw.simds));
    // Candidates on this SIMD, higher priority first, then older.
    order.clear();
    size_t resident = 0;
    for (size_t i = 0; i < waves.size(); ++i) {
      if (waves[i].simd != simd || !wgs[size_t(waves[i].wg)].live || waves[i].state == WaveState::Done) continue;
      ++resident;
      if (waves[i].state == WaveState::Active || waves[i].state == WaveState::AtBarrier) order.push_back(int(i));
    }
    if (R.turns_by_resident_waves.size() <= resident) {
      R.turns_by_resident_waves.resize(resident + 1, 0);
      R.idle_turns_by_resident_waves.resize(resident + 1, 0);
    }
    ++R.turns_by_resident_waves[resident];
    std::sort(order.begin(), order.end(), [&](int a, int b) { return outranks(waves[size_t(a)], waves[size_t(b)]); });
    bool used[kPorts] = {};
    bool vector_turn_taken = false;  // a VALU or (Hardware::lds_valu_issue_cycles) a DS instruction issued
    // Why no vector instruction issued, if none does (VectorIdle).
    bool vector_issued = false, pipe_blocked = false, memory_wait = false, all_at_barrier = true;
    for (int wi : order) {
      WaveState& w = waves[size_t(wi)];
      R.wave_cycles += uint64_t(hw.issue_period);
      if (w.state == WaveState::AtBarrier) { stall(w, Stall::Barrier, c); continue; }
      all_at_barrier = false;
      if (w.ready > c) {
        memory_wait |= w.wait == Stall::WaitVm || w.wait == Stall::WaitLgkm;
        stall(w, w.wait, c);
        continue;
      }
      // Retire returned memory operations.
      while (!w.vm.empty() && w.vm.front() <= c) w.vm.pop_front();
      while (!w.lgkm.empty() && w.lgkm.front() <= c) w.lgkm.pop_front();
      bool issued = false;
      while (!issued && w.pc < w.rw->steps.size()) {
        const sim::RecordedStep& st = w.rw->steps[w.pc];
        const sim::RecordedOp& op = rec.ops[st.op];
        if (op.unit == Unit::Waitcnt) {  // handled by the sequencer, no issue port
          const isa::WaitcntFields f = isa::decode_waitcnt(uint16_t(op.imm));
          uint64_t need = 0;
          Stall why = Stall::WaitVm;
          if (f.vmcnt < isa::kMaxVmcnt && w.vm.size() > size_t(f.vmcnt)) need = w.vm[w.vm.size() - size_t(f.vmcnt) - 1];
          if (f.lgkmcnt < isa::kMaxLgkmcnt && w.lgkm.size() > size_t(f.lgkmcnt)) {
            uint64_t t = lgkm_done(w.lgkm, w.lgkm.size() - size_t(f.lgkmcnt));
            if (t == kLdsPending) t = c + 1;  // not started by the LDS yet: look again
            if (t > need) need = t, why = Stall::WaitLgkm;
          }
          if (need > c) {
            w.ready = need;
            w.wait = why;
            memory_wait = true;
            break;
          }
          ++w.pc;
          continue;
        }
        if (op.info == kSetprio) {
          w.prio = int(op.imm & 3);
          ++w.pc;
          continue;
        }
        const Port port = port_of(op.unit);
        if (used[port]) { stall(w, Stall::IssuePort, c); break; }
        if (op.unit == Unit::VALU && valu_free[size_t(simd)] > c) {
          pipe_blocked = true;
          stall(w, Stall::ValuBusy, c);
          break;
        }
        // A DS instruction and a VALU instruction of one SIMD share its vector issue (not the MFMA's).
        const bool ds_takes_valu = op.unit == Unit::DS && hw.lds_valu_issue_cycles > 0;
        if ((ds_takes_valu || op.unit == Unit::VALU) && vector_turn_taken) { stall(w, Stall::IssuePort, c); break; }
        if (ds_takes_valu && valu_free[size_t(simd)] > c) {
          pipe_blocked = true;
          stall(w, Stall::ValuBusy, c);
          break;
        }
        if (op.unit == Unit::MFMA && mfma_free[size_t(simd)] > c) {
          pipe_blocked = true;
          stall(w, Stall::MfmaBusy, c);
          break;
        }
        if ((op.unit == Unit::VMEM && int(w.vm.size()) >= isa::kMaxVmcnt) ||
            ((op.unit == Unit::DS || op.unit == Unit::SMEM) && int(w.lgkm.size()) >= isa::kMaxLgkmcnt)) {
          stall(w, Stall::CounterFull, c);
          break;
        }
        // Issue.
        used[port] = true;
        if (ds_takes_valu) valu_free[size_t(simd)] = c + uint64_t(hw.lds_valu_issue_cycles);
        vector_turn_taken |= ds_takes_valu || op.unit == Unit::VALU;
        vector_issued |= ds_takes_valu || op.unit == Unit::VALU || op.unit == Unit::MFMA;
        issued = true;
        close_stall(w, c);
        ++R.issued;
        if (cfg.clock_reads && op.clock != sim::ClockKind::None) R.clock_reads.push_back({w.rw->workgroup, w.rw->wave_in_wg, c});
        uint64_t dur = uint64_t(hw.issue_period);
        switch (op.unit) {
          case Unit::VALU: {
            const int busy = op.info && op.info->is_trans ? hw.trans_cycles : hw.valu_cycles;
            valu_free[size_t(simd)] = c + uint64_t(busy);
            R.busy[size_t(Pipe::Valu)] += busy;
            dur = uint64_t(busy);
            break;
          }
          case Unit::MFMA: {
            int passes = op.info ? isa::mfma_passes(*op.info, rec.arch, op.cbsz, op.blgp) : 0;
            if (passes <= 0) passes = 4;
            const int busy = passes * hw.mfma_cycles_per_pass;
            mfma_free[size_t(simd)] = c + uint64_t(busy);
            R.busy[size_t(Pipe::Mfma)] += busy;
            dur = uint64_t(busy);
            break;
          }
          case Unit::SALU:
            R.busy[size_t(Pipe::Salu)] += 1;
            w.ready = c + uint64_t(hw.salu_latency);
            w.wait = Stall::NopSleep;
            break;
          case Unit::Nop:
            w.ready = c + op.imm + 1;
            w.wait = Stall::NopSleep;
            break;
          case Unit::Branch:
            if (st.taken) {
              w.ready = c + uint64_t(hw.issue_period + hw.branch_taken_cycles);
              w.wait = Stall::Branch;
            }
            break;
          case Unit::Barrier: {
            w.state = WaveState::AtBarrier;
            release_barrier_if_all_arrived(w.wg, c);
            break;
          }
          case Unit::DS: {
            LdsCost cost;
            if (st.addr_count) {
              sim::StepAddressBuffer buf;
              const std::span<const uint64_t> a = sim::step_addresses(*w.rw, st, buf);
              const bool write = op.info && op.info->is_store && !op.info->is_load;
              R.lds_passes += uint64_t(lds_passes(a, op.lane_bytes, hw.lds_banks, hw.lds_misaligned_passes_per_byte, !write));
              cost = lds_cost(a, op.lane_bytes, hw, write);
            } else {  // permutes/swizzles: one conflict-free wave64 dword access
              cost.port_cycles = std::max(1, 64 * 4 / hw.lds_bytes_per_clk);
            }
            ++R.lds_instructions;
            const int cycles = std::max(cost.bank_cycles, cost.port_cycles);
            R.busy[size_t(Pipe::Lds)] += cycles;  // the instruction's own service, not its wait for the banks
            if (passes_by_age) {
              w.lgkm.push_back(kLdsPending);
              lds_fifo[size_t(simd * hw.lds_halves / hw.simds)].push_back({wi, cost.bank_cycles, std::max(1, cost.port_cycles)});
              break;
            }
            if (hw.lds_serves_oldest_wave_first) {
              w.lgkm.push_back(kLdsPending);
              lds_waiting.push_back({wi, int(simd * hw.lds_halves / hw.simds), cost.bank_cycles, cycles});
              serve_lds(c);
              break;
            }
            LdsCalendar& half = lds_halves[size_t(simd * hw.lds_halves / hw.simds)];
            const uint64_t start = half.reserve(c, uint64_t(cycles), c);
            uint64_t half_free = start + uint64_t(cycles);
            if (hw.lds_banks_shared_by_halves && cost.bank_cycles > 0) {
              // The passes wait for the CU's banks; the half is held until they and its bytes are done.
              const uint64_t banks_end =
                  lds_banks.reserve(start, uint64_t(cost.bank_cycles), c) + uint64_t(cost.bank_cycles);
              const uint64_t held = std::max(start + uint64_t(cost.port_cycles), banks_end);
              if (held > half_free) half.reserve(half_free, held - half_free, c);
              half_free = std::max(half_free, held);
            }
            w.lgkm.push_back(half_free + uint64_t(hw.lds_latency));
            break;
          }
          case Unit::SMEM:
            w.lgkm.push_back(c + uint64_t(hw.smem_latency));
            break;
          case Unit::VMEM: {
            // Each line at the level the memory hierarchy served it from (memory_hierarchy.hpp);
            // a line the hierarchy did not see (no recorded addresses) is taken from HBM.
            const int line = hw.cache_line;
            const std::vector<MemLevel>& lv = mem.levels[size_t(w.rw - rec.waves.data())];
            size_t n[4] = {};
            // A cache-control instruction (buffer_inv, buffer_wbl2: the ISA table gives it no load,
            // store or atomic) moves no data: no lines, no bytes. It completes after the L2 latency
            // (assumed: its request's round trip to the L2; the cost of the write-back or
            // invalidation itself is not modelled).
            const bool moves_no_data = op.info && !op.info->is_load && !op.info->is_store && !op.info->is_atomic;
            if (st.addr_count) {
              sim::StepAddressBuffer buf;
              const std::span<const uint64_t> a = sim::step_addresses(*w.rw, st, buf);
              const size_t nl = sim::cache_line_count(a, op.lane_bytes, line);
              for (size_t i = 0; i < nl; ++i) ++n[size_t(w.line_pos < lv.size() ? lv[w.line_pos++] : MemLevel::Hbm)];
            } else if (!moves_no_data) {  // no recorded addresses: contiguous lanes, from HBM
              n[size_t(MemLevel::Hbm)] = (size_t(st.active) * std::max<size_t>(op.lane_bytes, 4) + size_t(line) - 1) / size_t(line);
            }
            const size_t nlines = n[0] + n[1] + n[2] + n[3];
            const bool store = op.info && (op.info->is_store || op.info->is_atomic) && !op.info->is_load;
            const double l1_cycles = double(nlines) * line / hw.l1_bytes_per_clk;
            const uint64_t start = std::max(c, addr_free);
            const uint64_t addr_cycles = std::max<uint64_t>(uint64_t(hw.vmem_issue_cycles), uint64_t(l1_cycles + 0.999));
            addr_free = start + addr_cycles;
            R.busy[size_t(Pipe::VmemAddr)] += double(addr_cycles);
            // Bytes per level: every L1 miss and every store passes the L2; reads beyond it the Infinity
            // Cache; HBM reads and the write-backs a store will cause.
            const double L = double(line);
            const double b2 = double(nlines - n[size_t(MemLevel::L1)]) * L;
            const double b3 = store ? double(n[size_t(MemLevel::Hbm)]) * L
                                    : double(n[size_t(MemLevel::Mall)] + n[size_t(MemLevel::Hbm)]) * L;
            const double b4 = double(n[size_t(MemLevel::Hbm)]) * L;
            R.l1_bytes += double(n[size_t(MemLevel::L1)]) * L;
            R.l2_bytes += b2;
            R.mall_bytes += b3;
            R.hbm_bytes += b4;
            int latency = hw.l1_latency;
            if (store || moves_no_data) latency = hw.l2_latency;  // acknowledged by the L2
            else if (n[size_t(MemLevel::Hbm)]) latency = hw.hbm_latency;
            else if (n[size_t(MemLevel::Mall)]) latency = hw.mall_latency;
            else if (n[size_t(MemLevel::L2)]) latency = hw.l2_latency;
            double done = double(start) + latency;
            auto queue = [&](double& free, double bytes, double bw, Pipe p) {
              if (bytes <= 0) return;
              free = std::max(free, double(start)) + bytes / bw;
              R.busy[size_t(p)] += bytes / bw;
              done = std::max(done, free);
            };
            queue(l2_free, b2, l2_bw, Pipe::L2);
            queue(mall_free, b3, mall_bw, Pipe::Mall);
            queue(hbm_free, b4, hbm_bw, Pipe::Hbm);
            if (op.lds_dma) {  // an LDS-DMA load also writes its bytes into the wave's LDS half
              const double bytes = double(st.active) * std::max(4, int(op.lane_bytes));
              const uint64_t cycles = uint64_t(bytes / std::max(1, hw.lds_write_bytes_per_clk) + 0.999);
              // Written when its data has arrived, in the first free cycles of the half from then on.
              const uint64_t at = lds_halves[size_t(simd * hw.lds_halves / hw.simds)].reserve(uint64_t(done + 0.999), cycles, c);
              R.busy[size_t(Pipe::Lds)] += double(cycles);
              done = double(at + cycles);
            }
            const uint64_t t = std::max(last_or(w.vm, 0), uint64_t(done + 0.999));
            w.vm.push_back(t);
            break;
          }
          default:
            if (op.info == kSleep) {
              w.ready = c + uint64_t(hw.sleep_cycles_per_unit) * (op.imm & 0xffff);
              w.wait = Stall::NopSleep;
            }
            break;
        }
        if (trace_on(c)) R.trace.push_back({w.slot, c, dur, op.text, 'i'});
        ++w.pc;
        if (w.ready <= c) w.ready = c + 1;
      }
      if (w.pc >= w.rw->steps.size() && w.state == WaveState::Active) {
        close_stall(w, c);
        w.state = WaveState::Draining;
        // Release a barrier the other waves of the workgroup may be waiting at.
        release_barrier_if_all_arrived(w.wg, c);
      }
    }
    if (passes_by_age) serve_lds_passes(c);  // after this cycle's issue: an instruction issued at c starts at c
    ++R.simd_turns;
    if (vector_issued) ++R.vector_turns;
    else {
      ++R.idle_turns_by_resident_waves[resident];
      const VectorIdle why = order.empty()  ? VectorIdle::NoWave
                             : pipe_blocked ? VectorIdle::PipeBusy
                             : memory_wait  ? VectorIdle::MemoryWait
                             : all_at_barrier ? VectorIdle::Barrier
                                              : VectorIdle::ScalarOnly;
      ++R.vector_idle[size_t(why)];
    }
    // Clock replays: jump over cycles in which no wave can act (every resident wave waits for a
    // known cycle). Issue and end cycles are those of the cycle-by-cycle run; the per-turn
    // statistics of the skipped cycles are not counted.
    // An active wave acts only in its SIMD's issue turns (cycle % simds), so its next cycle is the
    // first of those at or after it is ready: a wave that is ready, or waits on a port, lets the
    // other SIMDs' turns pass too.
    // Slots whose first workgroup has not started matter only while workgroups remain to start (a CU's
    // share may hold fewer workgroups than it has slots).
    if (cfg.skip_idle_cycles && (pending_first == 0 || launched >= cfg.workgroups)) {
      uint64_t next = ~uint64_t(0);
      const uint64_t simds = uint64_t(hw.simds);
      for (const WaveState& w : waves) {
        if (w.state == WaveState::Active) {
          const uint64_t r = std::max(w.ready, c + 1);
          next = std::min(next, r + (uint64_t(w.simd) + simds - r % simds) % simds);
        } else if (w.state == WaveState::Draining) {
          next = std::min(next, std::max(std::max(lgkm_done(w.lgkm), last_or(w.vm, 0)), c + 1));
        }
      }
      if (!lds_waiting.empty() || lds_fifo_busy()) next = c + 1;  // the LDS may start or move an instruction any cycle
      if (next != ~uint64_t(0) && next > c + 1) c = next - 1;
    }
  }
  for (WaveState& w : waves) close_stall(w, R.cycles);
  return R;
}

}  // namespace cdnajit::model
