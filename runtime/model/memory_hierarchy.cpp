#include "runtime/model/memory_hierarchy.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>

#include "jit/isa/error.hpp"
#include "runtime/sim/cache_lines.hpp"

namespace cdnajit::model {

const char* mem_level_name(MemLevel l) {
  static const char* n[] = {"L1", "L2", "Infinity Cache", "HBM"};
  return n[int(l)];
}

namespace {

// A set-associative LRU cache of line indices with a dirty bit per line. A set holds only the lines
// it has (at most `ways`): a 256 MiB Infinity Cache costs only the lines a kernel brings in, not its
// associativity times the sets it touches (most of which hold a line or two; the fixed 16-way sets
// made the model's page faults cost more than its lookups). A set's ways lie in one arena, in a
// block of 2, 4, ... up to `ways` slots, moved to a block twice as large when it fills (no
// allocation per set: a streaming kernel touches a new Infinity Cache set with most of its lines).
class Cache {
 public:
  Cache(uint64_t bytes, int line, int ways) : ways_(std::max(1, ways)) {
    const uint64_t lines = std::max<uint64_t>(1, bytes / uint64_t(std::max(1, line)));
    sets_ = std::max<uint64_t>(1, lines / uint64_t(ways_));
    // calloc: a large table comes as zero pages the kernel maps only where a set is touched (the
    // Infinity Cache's 512 KiB table per model run would otherwise be written whole every time).
    set_index_.reset(static_cast<uint32_t*>(std::calloc(size_t(sets_), sizeof(uint32_t))));
    if (!set_index_) throw Error("model: no memory for a cache model of " + std::to_string(sets_) + " sets");
  }
  struct Result {
    bool hit = false;
    bool was_dirty = false;       // the line was already dirty here
    bool evicted_dirty = false;   // a dirty line left to make room
    uint64_t evicted = 0;
  };
  // Looks the line up and allocates it on a miss (a free way, else the LRU victim); `dirty` marks it written.
  Result access(uint64_t line, bool dirty) {
    Result r;
    uint32_t& i = set_index_[size_t(line % sets_)];
    if (i == kNone) {
      sets_used_.push_back({});
      i = uint32_t(sets_used_.size());
    }
    Set& set = sets_used_[i - 1];
    Way* ways = arena_.data() + set.at;
    Way* victim = nullptr;
    for (uint32_t k = 0; k < set.size; ++k) {
      Way& w = ways[k];
      if (w.line == line) {
        r.hit = true;
        r.was_dirty = w.use & 1;
        w.use = (++clock_ << 1) | (w.use & 1) | uint64_t(dirty);
        return r;
      }
      if (!victim || w.use < victim->use) victim = &w;  // least recently used (clock values are distinct)
    }
    if (set.size < uint32_t(ways_)) {
      if (set.size == set.capacity) {  // move the set to a block twice as large
        const uint32_t cap = std::min<uint32_t>(uint32_t(ways_), std::max<uint32_t>(2, 2 * set.capacity));
        const size_t at = arena_.size();
        arena_.resize(at + cap);
        std::copy_n(arena_.begin() + set.at, set.size, arena_.begin() + ptrdiff_t(at));
        set.at = uint32_t(at);
        set.capacity = cap;
      }
      arena_[set.at + set.size++] = {line, (++clock_ << 1) | uint64_t(dirty)};
      return r;
    }
    if (victim->use & 1) {
      r.evicted_dirty = true;
      r.evicted = victim->line;
    }
    *victim = {line, (++clock_ << 1) | uint64_t(dirty)};
    return r;
  }
  // Drops every line (a cache without dirty lines: the write-through vector L1).
  void invalidate() {
    for (Set& set : sets_used_) set.size = 0;
  }
  template <class F>
  void for_each_dirty(F f) const {
    for (const Set& set : sets_used_)
      for (uint32_t k = 0; k < set.size; ++k)
        if (arena_[set.at + k].use & 1) f(arena_[set.at + k].line);
  }

 private:
  static constexpr uint32_t kNone = 0;
  struct Way {
    uint64_t line = 0;
    uint64_t use = 0;  // last use (LRU clock) << 1 | dirty
  };
  struct Set {
    uint32_t at = 0;        // first slot in arena_
    uint32_t size = 0;      // lines held
    uint32_t capacity = 0;  // slots of its block
  };
  struct Free {
    void operator()(uint32_t* p) const { std::free(p); }
  };
  int ways_;
  uint64_t sets_ = 1;
  std::unique_ptr<uint32_t[], Free> set_index_;  // 1 + the set's index in sets_used_ (kNone: not touched yet)
  std::vector<Set> sets_used_;                   // the touched sets, in order of first touch
  std::vector<Way> arena_;                       // every set's block
  uint64_t clock_ = 0;
};

// The vector L1 policy of gfx94x/gfx950 (Hardware, "Vector L1 policy"; AMDGPUUsage "Memory Model GFX942"):
// a load at agent or system scope (SC1) or a non-temporal one (NT) is served past the L1 and not kept
// in it; buffer_inv at workgroup scope or wider (SC0 or SC1) empties the issuing CU's L1.
bool load_misses_l1(const Hardware& hw, uint8_t bits) {
  return (hw.l1_miss_on_sc1_load && (bits & sim::kCacheSc1)) || (hw.l1_miss_on_nt_load && (bits & sim::kCacheNt));
}
bool l1_invalidated_by(const Hardware& hw, uint8_t bits) {
  return hw.l1_invalidated_by_buffer_inv && (bits & (sim::kCacheSc0 | sim::kCacheSc1));
}

struct Stream {
  uint64_t workgroup = 0;
  int wave = 0;
  const sim::LineWave* lines = nullptr;
  int recorded = -1;  // index into Recording::waves, or -1
};

// The line stream of a recorded wave, from its recorded addresses (when no line trace covers it).
sim::LineWave lines_of(const sim::Recording& rec, const sim::RecordedWave& w, int line) {
  sim::LineWave lw;
  for (const sim::RecordedStep& st : w.steps) {
    const sim::RecordedOp& op = rec.ops[st.op];
    if (op.unit != isa::Unit::VMEM) continue;
    if (op.cache_bits & sim::kCacheInvalidate) {  // an access without lines, as record_lines makes it
      lw.end_access(op.cache_bits);
      continue;
    }
    if (!st.addr_count) continue;
    const uint64_t written = op.info && (op.info->is_store || op.info->is_atomic) ? 1 : 0;
    sim::StepAddressBuffer buf;
    const size_t first = lw.lines.size();
    sim::append_cache_lines(sim::step_addresses(w, st, buf), op.lane_bytes, line, lw.lines);
    for (size_t i = first; i < lw.lines.size(); ++i) lw.lines[i] = lw.lines[i] << 1 | written;
    lw.end_access(op.cache_bits);
  }
  return lw;
}

}  // namespace

MemoryModel simulate_memory(const sim::Recording& rec, const Hardware& hw) {
  const int wpw = int(rec.waves_per_workgroup);
  if (wpw == 0 || rec.waves.empty())
    throw Error("model: the recording holds no complete workgroup (was Options::recording set for the launch?)");
  const int line = hw.cache_line;
  if (!rec.line_waves.empty() && rec.line_bytes != uint32_t(line))
    throw Error("model: the recording traced " + std::to_string(rec.line_bytes) + "-byte lines but " + hw.name +
                " has " + std::to_string(line) + "-byte lines");
  MemoryModel m;
  m.from_line_trace = !rec.line_waves.empty();
  m.levels.resize(rec.waves.size());
  const uint64_t traced_wgs = rec.line_waves.size() / size_t(wpw);
  std::vector<Stream> streams;
  for (uint64_t g = 0; g < traced_wgs; ++g)
    for (int w = 0; w < wpw; ++w) streams.push_back({g, w, &rec.line_waves[size_t(g) * size_t(wpw) + size_t(w)], -1});
  // Recorded waves: their traced stream, or a stream from their recorded addresses.
  std::vector<std::unique_ptr<sim::LineWave>> derived;
  for (size_t i = 0; i < rec.waves.size(); ++i) {
    const sim::RecordedWave& w = rec.waves[i];
    if (w.workgroup < traced_wgs) {
      streams[size_t(w.workgroup) * size_t(wpw) + size_t(w.wave_in_wg)].recorded = int(i);
      continue;
    }
    derived.push_back(std::make_unique<sim::LineWave>(lines_of(rec, w, line)));
    streams.push_back({w.workgroup, w.wave_in_wg, derived.back().get(), int(i)});
  }
  std::stable_sort(streams.begin(), streams.end(), [](const Stream& a, const Stream& b) {
    return a.workgroup != b.workgroup ? a.workgroup < b.workgroup : a.wave < b.wave;
  });
  {
    uint64_t distinct = 0, last = ~0ull;
    for (const Stream& s : streams) distinct += s.workgroup != last, last = s.workgroup;
    m.traced.workgroups = distinct;
  }
  const int xcds = std::max(1, hw.xcds);
  const int per_xcd = std::max(1, hw.cus_per_xcd);
  std::map<uint64_t, Cache> l1, l2;  // by CU (xcd * per_xcd + cu), by XCD
  Cache mall(hw.mall_bytes, line, hw.mall_ways);
  LevelTraffic& t = m.traced;
  const double L = double(line);
  auto write_back_to_mall = [&](uint64_t victim) {
    t.mall_write_bytes += L;
    const Cache::Result r = mall.access(victim, true);
    if (r.evicted_dirty) t.hbm_write_bytes += L;
  };
  // Round r of the interleaving (every stream's r-th access) visits the G workgroups in an order of
  // its own, a pseudo-random permutation (fixed seed, so the model is deterministic): which of the
  // workgroups sharing a line touches it first (and is charged its L2 or HBM miss) is then each
  // sharer with equal probability whatever their ids. A rotation (round r starting with workgroup
  // r mod G) did that only for sharers spread evenly over the ids: HipKittens' 4096^3 GEMM on MI355X
  // puts the 16 workgroups of a tile row at ids 0, 8, ..., 120, and workgroup 0 (the replayed CU's)
  // led them in 136 of every 256 rounds, paying HBM for about half its lines instead of 1/16.
  std::vector<size_t> group_first;  // index into streams of each workgroup's first stream
  for (size_t si = 0; si < streams.size(); ++si)
    if (!si || streams[si].workgroup != streams[si - 1].workgroup) group_first.push_back(si);
  group_first.push_back(streams.size());
  std::vector<size_t> order(group_first.size() - 1);
  for (size_t g = 0; g < order.size(); ++g) order[g] = g;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  auto next_random = [&seed] {  // splitmix64
    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  // Each stream's L1 and L2, looked up once (not per access).
  std::vector<std::pair<Cache*, Cache*>> caches(streams.size());
  for (size_t si = 0; si < streams.size(); ++si) {
    const uint64_t g = streams[si].workgroup;
    const uint64_t xcd = g % uint64_t(xcds);
    const uint64_t cu = xcd * uint64_t(per_xcd) + (g / uint64_t(xcds)) % uint64_t(per_xcd);
    caches[si] = {&l1.try_emplace(cu, hw.l1_bytes, line, hw.l1_ways).first->second,
                  &l2.try_emplace(xcd, hw.l2_bytes, line, hw.l2_ways).first->second};
  }
  std::vector<size_t> pos(streams.size(), 0);  // next access of each stream
  std::vector<size_t> visit;                   // this round's streams, workgroup by workgroup
  for (size_t any = 1; any;) {
    any = 0;
    for (size_t g = order.size(); g > 1; --g) std::swap(order[g - 1], order[size_t(next_random() % g)]);
    visit.clear();
    for (size_t g : order)
      for (size_t si = group_first[g]; si < group_first[g + 1]; ++si) visit.push_back(si);
    for (size_t si : visit) {
      const Stream& s = streams[si];
      const sim::LineWave& lw = *s.lines;
      const size_t k = pos[si];
      if (k >= lw.access_end.size()) continue;
      any = 1;
      ++pos[si];
      Cache& c1 = *caches[si].first;
      Cache& c2 = *caches[si].second;
      std::vector<MemLevel>* out = s.recorded >= 0 ? &m.levels[size_t(s.recorded)] : nullptr;
      const uint8_t bits = lw.access_bits[k];
      if ((bits & sim::kCacheInvalidate) && l1_invalidated_by(hw, bits)) c1.invalidate();
      const bool past_l1 = load_misses_l1(hw, bits);
      for (uint32_t i = k ? lw.access_end[k - 1] : 0; i < lw.access_end[k]; ++i) {
        const uint64_t ln = lw.lines[i] >> 1;
        const bool written = lw.lines[i] & 1;
        ++t.line_accesses;
        MemLevel lv;
        if (written) {
          t.l2_write_bytes += L;
          const Cache::Result r = c2.access(ln, true);
          if (r.evicted_dirty) write_back_to_mall(r.evicted);
          lv = r.hit && r.was_dirty ? MemLevel::L2 : MemLevel::Hbm;
        } else if (!past_l1 && c1.access(ln, false).hit) {
          t.l1_hit_bytes += L;
          lv = MemLevel::L1;
        } else {
          t.l2_read_bytes += L;
          const Cache::Result r = c2.access(ln, false);
          if (r.evicted_dirty) write_back_to_mall(r.evicted);
          if (r.hit) {
            lv = MemLevel::L2;
          } else {
            t.mall_read_bytes += L;
            const Cache::Result r3 = mall.access(ln, false);
            if (r3.evicted_dirty) t.hbm_write_bytes += L;
            if (r3.hit) {
              lv = MemLevel::Mall;
            } else {
              t.hbm_read_bytes += L;
              lv = MemLevel::Hbm;
            }
          }
        }
        if (out) out->push_back(lv);
      }
    }
  }
  // Dirty lines still cached at the end are written back: L2s into the Infinity Cache, then it to HBM.
  for (auto& [x, c2] : l2) c2.for_each_dirty(write_back_to_mall);
  mall.for_each_dirty([&](uint64_t) { t.hbm_write_bytes += L; });
  return m;
}

}  // namespace cdnajit::model
