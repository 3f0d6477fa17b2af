// Replay of the clock-derived slice of a recorded run (clock_slice.hpp).
#include "runtime/sim/clock_slice.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

namespace {

// Words of the row entry at p (clock_slice.hpp's layout).
size_t row_words(const uint32_t* p) {
  if ((p[0] >> 16) == kSliceRowLoaded) return 5;
  const uint64_t taken = uint64_t(p[1]) | uint64_t(p[2]) << 32;
  return 3 + size_t(std::popcount(taken));
}

// Calls body(header, scalars, rows) for each step of a slice (scalars: 2 words each; rows: as laid out).
template <class Body>
void for_each_step(const ClockSlice& s, Body&& body) {
  for (size_t at = 0; at < s.words.size();) {
    SliceHeader h;
    std::memcpy(&h, &s.words[at], sizeof h);
    const uint32_t* scalars = &s.words[at + kSliceHeaderWords];
    const uint32_t* rows = scalars + 2 * size_t(h.scalars);
    const uint32_t* p = rows;
    for (uint32_t i = 0; i < h.rows; ++i) p += row_words(p);
    body(h, scalars, rows);
    at = size_t(p - s.words.data());
  }
}

// The hull of the bytes of a recorded step of a wave.
struct Hull {
  uint64_t lo, hi;
  uint32_t wave, step;
};

// The byte ranges [a, a + bytes) of a step's lanes, sorted.
std::vector<std::pair<uint64_t, uint64_t>> lane_ranges(const RecordedWave& w, const RecordedStep& st, uint64_t bytes) {
  StepAddressBuffer buf;
  std::vector<std::pair<uint64_t, uint64_t>> r;
  for (uint64_t a : step_addresses(w, st, buf))
    if (a != kNoAddress) r.emplace_back(a, a + bytes);
  std::sort(r.begin(), r.end());
  return r;
}

bool ranges_overlap(const std::vector<std::pair<uint64_t, uint64_t>>& a, const std::vector<std::pair<uint64_t, uint64_t>>& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].second <= b[j].first) ++i;
    else if (b[j].second <= a[i].first) ++j;
    else return true;
  }
  return false;
}

// "" when the slice can be replayed: every wave's slice is complete and has a cycle for each of its
// clock reads, no other store of the run (any wave) writes a byte a slice store writes or a load the
// slice reads again read, and those loads' memory is still there; else why. (A slice store and such a
// load do not meet: the clock-taint verdict checked every load against the clock-derived stores.)
std::string slice_replayable(const Recording& r, const Memory& memory, const ClockFeed& feed) {
  const uint64_t wpw = std::max<uint32_t>(1, r.waves_per_workgroup);
  auto bytes_of = [&](const RecordedStep& st) { return std::max<uint64_t>(r.ops[st.op].lane_bytes, 1); };
  // Every store of the run (taint_step noted them) and the allocations they write.
  std::vector<Hull> stores;
  std::vector<const Memory::Block*> written;
  const Memory::Block* last = nullptr;
  auto block_of = [&](uint64_t lo, uint64_t hi) {
    if (!last || lo < last->base || hi - last->base > last->size) last = memory.find(lo, hi - lo);
    return last;
  };
  for (size_t wi = 0; wi < r.waves.size(); ++wi) {
    const RecordedWave& w = r.waves[wi];
    if (!w.taint.slice.unreplayable.empty()) return recorded_wave_name(w) + ", " + w.taint.slice.unreplayable;
    if (w.taint.unrecorded_global_reads) return "a global atomic's addresses were not recorded";
    for (const ClockSlice::Store& x : w.taint.slice.stores) {
      stores.push_back({x.lo, x.hi, uint32_t(wi), x.step});
      const Memory::Block* b = block_of(x.lo, x.hi);
      if (std::find(written.begin(), written.end(), b) == written.end()) written.push_back(b);  // nullptr: not in one
    }
  }
  // Only stores into the same allocation can meet a reread load (one allocation holds each load's lanes).
  auto stores_may_meet = [&](const Memory::Block* b) {
    return std::find(written.begin(), written.end(), b) != written.end() ||
           std::find(written.begin(), written.end(), nullptr) != written.end();
  };
  std::vector<Hull> checked;  // the slice's stores and reread loads
  std::vector<uint8_t> checked_store;
  std::vector<uint32_t> rereads;
  for (size_t wi = 0; wi < r.waves.size(); ++wi) {
    const RecordedWave& w = r.waves[wi];
    const ClockSlice& sl = w.taint.slice;
    for (uint32_t s : sl.store_steps) {
      const auto [lo, hi] = recorded_step_hull(w, w.steps[s], bytes_of(w.steps[s]));
      if (lo < hi) {
        checked.push_back({lo, hi, uint32_t(wi), s});
        checked_store.push_back(1);
      }
    }
    // Every clock read of the slice has its cycle (the replay gave this wave one per read).
    auto it = feed.cycles.find(w.workgroup * wpw + uint64_t(w.wave_in_wg));
    if (sl.clock_reads != (it == feed.cycles.end() ? 0 : it->second.size()))
      return recorded_wave_name(w) + " has clock reads the model gave no cycle for";
    rereads.assign(sl.reread_loads.begin(), sl.reread_loads.end());
    std::sort(rereads.begin(), rereads.end());
    rereads.erase(std::unique(rereads.begin(), rereads.end()), rereads.end());
    for (uint32_t s : rereads) {
      const auto [lo, hi] = recorded_step_hull(w, w.steps[s], bytes_of(w.steps[s]));
      if (lo >= hi) continue;
      const Memory::Block* b = block_of(lo, hi);
      if (!b) return recorded_wave_name(w) + ": the memory a load of the slice read is no longer allocated";
      if (!stores_may_meet(b)) continue;
      checked.push_back({lo, hi, uint32_t(wi), s});
      checked_store.push_back(0);
    }
  }
  // Each checked hull against the stores whose hulls overlap it (sorted by start, with the running
  // maximum of their ends: the overlapping ones are found by one binary search and a short walk
  // back), lane by lane. Bounded: stores whose hulls interleave by the thousand fall back.
  std::sort(stores.begin(), stores.end(), [](const Hull& a, const Hull& b) { return a.lo < b.lo; });
  std::vector<uint64_t> max_hi(stores.size());
  for (size_t i = 0; i < stores.size(); ++i) max_hi[i] = std::max(stores[i].hi, i ? max_hi[i - 1] : 0);
  uint64_t compared = 0;
  for (size_t c = 0; c < checked.size(); ++c) {
    const Hull& x = checked[c];
    size_t k = size_t(std::lower_bound(stores.begin(), stores.end(), x.hi, [](const Hull& h, uint64_t v) { return h.lo < v; }) -
                      stores.begin());
    for (; k-- > 0 && max_hi[k] > x.lo;) {
      const Hull& y = stores[k];
      if (y.hi <= x.lo || (y.wave == x.wave && y.step == x.step)) continue;
      if (++compared > (uint64_t(1) << 20)) return "too many stores whose byte ranges interleave to compare";
      const RecordedWave &wx = r.waves[x.wave], &wy = r.waves[y.wave];
      const RecordedStep &sx = wx.steps[x.step], &sy = wy.steps[y.step];
      if (ranges_overlap(lane_ranges(wx, sx, bytes_of(sx)), lane_ranges(wy, sy, bytes_of(sy))))
        return recorded_wave_name(wx) + ", pc " + hex(r.ops[sx.op].pc) + " '" + r.ops[sx.op].text + "': " +
               (checked_store[c] ? "stores clock-derived data where another store of the run writes"
                                 : "the slice reads what this load read again, but a store of the run writes there");
    }
  }
  return "";
}

// Re-executes one wave's slice on `w` (registers of its own).
uint64_t replay_wave(const RecordedWave& rw, Wave& w, const DecodedKernel& dk, const ClockFeed& feed) {
  const uint64_t lin = rw.workgroup;
  w.wg[0] = uint32_t(lin % feed.grid[0]);
  w.wg[1] = uint32_t(lin / feed.grid[0] % feed.grid[1]);
  w.wg[2] = uint32_t(lin / feed.grid[0] / feed.grid[1]);
  w.wave_in_wg = rw.wave_in_wg;
  w.clock_reads = 0;
  w.icount = 0;
  w.status = Wave::Running;
  bool first = true;
  uint64_t steps = 0;
  StepAddressBuffer buf;
  for_each_step(rw.taint.slice, [&](const SliceHeader& h, const uint32_t* sc, const uint32_t* p) {
    const Op& op = dk.ops[h.op];
    w.s[kExecLo] = h.exec_lo;
    w.s[kExecHi] = h.exec_hi;
    if (first || w.mode != h.mode) set_mode(w, h.mode);
    first = false;
    if (h.flags & kSliceSccKnown) w.scc = (h.flags & kSliceSccValue) != 0;
    for (uint32_t i = 0; i < h.scalars; ++i, sc += 2) w.s[sc[0]] = sc[1];
    for (uint32_t i = 0; i < h.rows; ++i) {
      // The lanes that do not derive from a clock from the record (or memory), the others as the
      // replay left them.
      uint32_t* row = w.vr(uint16_t(p[0] & 0xffff));
      const uint64_t taken = uint64_t(p[1]) | uint64_t(p[2]) << 32;
      if ((p[0] >> 16) == kSliceRowLoaded) {
        // Dword p[4] of each lane's data: one block holds them all (slice_memory_apart found it).
        const RecordedStep& ld = rw.steps[p[3]];
        const uint64_t* aw = rw.addrs.data() + ld.addr_first;
        const uint64_t dw = 4 * uint64_t(p[4]);
        if (ld.affine && taken == ~0ull && aw[2] == ~0ull && aw[1] == 4) {  // 64 consecutive dwords
          const uint64_t lo = aw[0] + dw;
          std::memcpy(row, global_ptr(w, dk.ops[ld.op], lo, 256, 0, false), 256);
        } else {
          const std::span<const uint64_t> a = step_addresses(rw, ld, buf);
          for (uint64_t m = taken; m; m &= m - 1) {
            const int l = std::countr_zero(m);
            std::memcpy(&row[l], global_ptr(w, dk.ops[ld.op], a[size_t(l)] + dw, 4, l, false), 4);
          }
        }
      } else if (taken == ~0ull) {
        std::memcpy(row, p + 3, 64 * sizeof(uint32_t));
      } else {
        const uint32_t* v = p + 3;
        for (uint64_t m = taken; m; m &= m - 1) row[std::countr_zero(m)] = *v++;
      }
      p += row_words(p);
    }
    w.pc = h.op;
    w.branched = false;
    if (h.flags & kSliceDirectStore) {
      // The data of each lane at the step's recorded address: whole dwords, or the low bytes (of the
      // high half for D16_HI) of one register.
      const RecordedStep& st = rw.steps[h.step];
      const uint32_t bytes = op.info->access_bytes;
      const uint64_t* aw = rw.addrs.data() + st.addr_first;
      const Memory::Block* b = nullptr;
      if (st.affine && aw[2] == ~0ull && aw[1] == bytes && bytes % 4 == 0 && !w.track_global)
        b = w.L->mem->find(aw[0], 64 * uint64_t(bytes));
      if (b) {  // every lane, one after the other in one allocation: row by row
        uint8_t* dst = b->data.get() + (aw[0] - b->base);
        if (bytes == 4) std::memcpy(dst, &w.v[size_t(h.data_row) * 64], 256);
        else
          for (int l = 0; l < 64; ++l)
            for (uint32_t k = 0; k < bytes / 4; ++k)
              std::memcpy(dst + size_t(l) * bytes + 4 * k, &w.v[(size_t(h.data_row) + k) * 64 + size_t(l)], 4);
        ++steps;
        return;
      }
      const std::span<const uint64_t> a = step_addresses(rw, st, buf);
      for (int l = 0; l < int(a.size()); ++l) {
        if (a[size_t(l)] == kNoAddress) continue;
        uint8_t* dst = global_ptr(w, op, a[size_t(l)], bytes, l, true);
        if (!dst) continue;
        if (bytes % 4 == 0) {
          for (uint32_t k = 0; k < bytes / 4; ++k) std::memcpy(dst + 4 * k, &w.v[(size_t(h.data_row) + k) * 64 + size_t(l)], 4);
        } else {
          const uint32_t v = w.v[size_t(h.data_row) * 64 + size_t(l)] >> (op.info->d16_hi ? 16 : 0);
          std::memcpy(dst, &v, bytes);
        }
      }
    } else if (w.nondefault_mode) {
      run_in_mode(w, op);
    } else {
      op.fn(w, op);
    }
    ++steps;
  });
  return steps;
}

}  // namespace

SliceReplay replay_clock_slice(const Recording& r, Memory& memory, const Options& opt, ClockFeed& feed) {
  SliceReplay out;
  if (!r.decoded) {
    out.not_replayed = "the recording holds no decoded kernel";
    return out;
  }
  if (!opt.check_bounds) {  // an access out of bounds then reads or writes what the replay cannot know
    out.not_replayed = "the run did not check bounds (sim::Options::check_bounds)";
    return out;
  }
  const DecodedKernel& dk = *r.decoded;
  const uint64_t wpw = std::max<uint32_t>(1, r.waves_per_workgroup);
  out.not_replayed = slice_replayable(r, memory, feed);
  if (!out.not_replayed.empty()) return out;

  Launch L;
  L.dk = &dk;
  L.mem = &memory;
  L.opt = opt;
  L.opt.check_waitcnt = false;  // the run checked the waits; the slice has only some of the instructions
  L.opt.store_release = Options::StoreRelease::None;
  L.opt.recording = nullptr;
  L.opt.clock_feed = &feed;
  L.opt.write_journal = nullptr;  // the launch ends with this memory
  L.arch = r.arch;
  // Workgroups on the host's threads (the waves of one workgroup on one thread, so clock_value's
  // per-workgroup flag is written by one thread); the slice stores write disjoint bytes.
  const size_t nwg = r.waves.size() / wpw;
  int nthreads = opt.threads > 0 ? opt.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  nthreads = int(std::max<size_t>(1, std::min<size_t>(size_t(nthreads), nwg)));
  std::atomic<size_t> next{0};
  std::atomic<uint64_t> steps{0};
  std::exception_ptr failed;
  std::mutex failed_lock;
  auto worker = [&] {
    ThreadCtx T;
    std::vector<uint32_t> vregs(size_t(kVRows) * 64);
    Wave w;
    w.v = vregs.data();
    w.L = &L;
    w.T = &T;
    uint64_t n = 0;
    try {
      for (size_t g; (g = next.fetch_add(1)) < nwg;)
        for (size_t k = 0; k < wpw; ++k) n += replay_wave(r.waves[g * wpw + k], w, dk, feed);
    } catch (...) {
      std::lock_guard<std::mutex> lock(failed_lock);
      if (!failed) failed = std::current_exception();
    }
    steps += n;
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < nthreads; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  if (failed) std::rethrow_exception(failed);
  out.steps = steps;
  return out;
}

}  // namespace cdnajit::sim
