// The read-ahead main loop (read_ahead_schedule.hpp has the schedule and why).
#include "codegen/read_ahead_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <utility>

#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

ReadAheadSchedule::ReadAheadSchedule(Kernel& k, const ReadAheadShape& s, ReadAheadHooks h)
    : k_(k), s_(s), h_(std::move(h)), hm_(s.blocks_m / 2), hn_(s.blocks_n / 2) {
  ready_a_.assign(size_t(s.k_steps), std::vector<int>(size_t(s.blocks_m), 0));
  ready_b_.assign(size_t(s.k_steps), std::vector<int>(size_t(s.blocks_n), 0));
}

// The reads of one group (A or B, half h) of tile t, k-step by k-step.
void ReadAheadSchedule::group(bool is_a, int h, int t, std::vector<Read>& out) {
  for (int ks = 0; ks < s_.k_steps; ++ks)
    for (int blk = first(is_a, h); blk < first(is_a, h + 1); ++blk) {
      int& ready = (is_a ? ready_a_ : ready_b_)[size_t(ks)][size_t(blk)];
      for (Read& r : h_.fragment_reads(is_a, ks, blk, t))
        out.push_back([this, r = std::move(r), &ready] {
          r();
          ready = ++issued_;
        });
    }
}

// Quadrant (qa, qb) of the current tile, with `rd` spread between its MFMAs (one before the first).
void ReadAheadSchedule::quadrant(int qa, int qb, const std::vector<Read>& rd, bool dense) {
  const int total = s_.k_steps * (first(true, qa + 1) - first(true, qa)) * (first(false, qb + 1) - first(false, qb));
  size_t r = 0;
  int i = 0;
  for (int ks = 0; ks < s_.k_steps; ++ks)
    for (int bi = first(true, qa); bi < first(true, qa + 1); ++bi)
      for (int bj = first(false, qb); bj < first(false, qb + 1); ++bj) {
        while (r < rd.size() && (dense ? r <= size_t(i) : r * size_t(total) <= size_t(i) * rd.size())) rd[r++]();
        const int need = std::max(ready_a_[size_t(ks)][size_t(bi)], ready_b_[size_t(ks)][size_t(bj)]);
        if (need > waited_) {  // lgkmcnt holds at most 15 on gfx9
          k_.s_waitcnt(lgkmcnt(std::min(15, issued_ - need)));
          waited_ = std::max(need, issued_ - 15);
        }
        fresh_ && ks == 0 ? h_.mfma_fresh(bi, bj) : h_.mfma(ks, bi, bj);  // fresh_: persistent K tile 0
        ++i;
      }
  while (r < rd.size()) rd[r++]();
}

// Two quadrants with the reads `rd` split between them; `first_min` reads go to the first. The
// `loads` (load_pieces) are split evenly and follow each quadrant's reads: the reads, which the
// next quadrant or the next lgkmcnt(0) waits for, issue first.
void ReadAheadSchedule::two(int qa, std::vector<Read> rd, size_t first_min, std::vector<Read> loads) {
  const size_t n = std::max(first_min, rd.size() / 2), l = (loads.size() + 1) / 2;
  // Moved, not copied: a copy of a closure is a heap allocation (thousands per kernel).
  auto mv = [](auto it) { return std::make_move_iterator(it); };
  std::vector<Read> q0(mv(rd.begin()), mv(rd.begin() + long(n))), q1(mv(rd.begin() + long(n)), mv(rd.end()));
  q0.insert(q0.end(), mv(loads.begin()), mv(loads.begin() + long(l)));
  q1.insert(q1.end(), mv(loads.begin() + long(l)), mv(loads.end()));
  quadrant(qa, 0, q0);
  quadrant(qa, 1, q1);
}

// The loads of (stage, half): issued now (`load`), or returned as pieces to spread (`load_pieces`).
std::vector<ReadAheadSchedule::Read> ReadAheadSchedule::loads(int stage, int half) {
  if (!h_.load_pieces) {
    h_.load(stage, half);
    return {};
  }
  return h_.load_pieces(stage, half);
}

// Waits for this wave's loads up to `behind` halves before the newest, then the barrier.
void ReadAheadSchedule::sync(int behind) {
  k_.s_waitcnt(lgkmcnt(0));
  waited_ = issued_;
  k_.s_waitcnt(vmcnt(s_.loads_per_half * behind));
  k_.s_barrier();
}

// A0 and B0 of tile 0, issued at once.
void ReadAheadSchedule::first_reads() {
  std::vector<Read> rd;
  group(true, 0, 0, rd);
  group(false, 0, 0, rd);
  for (auto& f : rd) f();
}

void ReadAheadSchedule::tile(int t, bool dma) {
  const int T = s_.tiles;
  std::vector<Read> front, back;
  group(false, 1, t, front);  // B1 first: the quadrant A0xB1 needs it
  const size_t b1 = front.size();
  group(true, 1, t, front);
  if (!dma) return staged_tile(t, front, b1);
  if (t + 1 >= T && h_.quadrant_stores) return last_tile(std::move(front), b1);
  two(0, std::move(front), b1, std::exchange(pending_, {}));
  pending_stage_ = pending_half_ = -1;
  if (t + 1 >= T) return two(1, {}, 0);
  sync(t + 2 < T ? 2 : 1);  // half 0 of t + 1 landed (half 1 of t + 1, half 0 of t + 2 may fly)
  std::vector<Read> mid;
  if (t + 2 < T) mid = loads(t % 2, 1);
  group(true, 0, t + 1, back);  // A0 first: free since A0xB1; B0 only after A1xB0
  const size_t a0 = back.size();
  group(false, 0, t + 1, back);
  const size_t back_first = std::min(a0, back.size());  // before `back` is moved into the call
  two(1, std::move(back), back_first, std::move(mid));
  sync(t + 2 < T ? 2 : 0);  // half 1 of t + 1 landed (half 0 and 1 of t + 2 may fly)
  if (t + 3 < T) defer_load((t + 1) % 2, 0);
}

// The last K tile with quadrant_stores: the reads of B1 (then A1) as in any tile, each quadrant's
// stores behind the next quadrant's reads, the last quadrant's after it. No loads are pending (the
// last loads went out two tiles before).
void ReadAheadSchedule::last_tile(std::vector<Read> front, size_t b1) {
  if (!pending_.empty()) throw Error("read-ahead schedule: internal error, loads pending at the last K tile");
  const size_t n = std::max(b1, front.size() / 2);
  std::vector<Read> q00(front.begin(), front.begin() + long(n)), q01(front.begin() + long(n), front.end());
  quadrant(0, 0, q00);
  for (Read& r : h_.quadrant_stores(0, 0)) q01.push_back(std::move(r));
  quadrant(0, 1, q01);
  quadrant(1, 0, h_.quadrant_stores(0, 1));
  quadrant(1, 1, h_.quadrant_stores(1, 0));
  for (Read& r : h_.quadrant_stores(1, 1)) r();
}

// The loads after a tile's last barrier: issued now, or (load_pieces) spread over the next tile's
// first two quadrants (tile t + 1's half 0 is in registers by then, its half 1 lies elsewhere).
void ReadAheadSchedule::defer_load(int stage, int half) {
  pending_ = loads(stage, half);
  if (pending_.empty()) return;
  pending_stage_ = stage;
  pending_half_ = half;
}

// One schedule tile of the register-staged path; `front` holds its B1 then A1 reads (`b1` of B1).
void ReadAheadSchedule::staged_tile(int t, const std::vector<Read>& front, size_t b1) {
  const int T = s_.tiles, S = s_.sub_tiles;
  if (t + 1 >= T) {
    two(0, front, b1);
    return two(1, {}, 0);
  }
  if ((t + 1) % S != 0) {  // the next sub-tile is in LDS already: A0 is free since A0xB1, B0 after A1xB0
    two(0, front, b1);
    std::vector<Read> a0, b0;
    group(true, 0, t + 1, a0);
    group(false, 0, t + 1, b0);
    quadrant(1, 0, a0);
    return quadrant(1, 1, b0);
  }
  // The last sub-tile of LDS tile t / S. Its reads go one per MFMA from the start of A0xB0 (B1 and
  // A1 are free since the previous tile's last quadrants), so by the end of A0xB0 every wave has
  // read the whole LDS tile: barrier, the refill (one chunk's writes and its next load per MFMA
  // from the start of A0xB1: the loads go out early, the writes do not queue as one block), A0xB1
  // and A1xB0 (operands in registers) while the writes complete, barrier (the next tile is in LDS for every wave), and A1xB1 with the next
  // tile's A0 and B0 read between its MFMAs. Two quadrants cover the refill's LDS writes.
  quadrant(0, 0, front, true);
  sync(0);
  std::vector<Read> refill = h_.staged_refill(t / S + 2 < T / S);
  quadrant(0, 1, refill, true);
  quadrant(1, 0, {});
  k_.s_waitcnt(lgkmcnt(0));
  waited_ = issued_;
  k_.s_barrier();
  std::vector<Read> rd;
  group(true, 0, t + 1, rd);
  group(false, 0, t + 1, rd);
  quadrant(1, 1, rd);
}

// Tile 0 through the staging registers into LDS, tile 1's loads, A0 and B0 of tile 0 read; then
// every tile (one LDS stage: no parity to unroll).
void ReadAheadSchedule::emit_staged() {
  const int T = s_.tiles;
  h_.staged_prologue();
  first_reads();
  const int S = s_.sub_tiles;
  const int steady = std::max(0, T / S - 2);  // LDS tiles that issue tile t + 2's loads
  if (steady > 0) {
    Reg left = k_.sgpr("tiles_left");
    k_.s_mov_b32(left, int64_t(steady));
    k_.do_while_scc(
        [&] {
          for (int j = 0; j < S; ++j) tile(j, false);
        },
        [&] {
          k_.s_sub_u32(left, left, 1);
          k_.s_cmp_lg_u32(left, 0);
        });
  }
  for (int t = steady * S; t < T; ++t) tile(t, false);
}

// Prologue: tiles 0 and 1 in flight, half 0 of tile 0 read, then half 0 of tile 2 into stage 0;
// tiles 0 .. T - 4 issue both halves: a loop of pairs (static stage parity), then the rest.
void ReadAheadSchedule::emit_dma() {
  const int T = s_.tiles, H = s_.loads_per_half;
  h_.load(0, 0);
  h_.load(0, 1);
  if (T > 1) {
    h_.load(1, 0);
    h_.load(1, 1);
  }
  k_.s_waitcnt(vmcnt(T > 1 ? 2 * H : 0));
  k_.s_barrier();
  first_reads();
  k_.s_waitcnt(lgkmcnt(0));
  waited_ = issued_;
  if (T > 2) {
    k_.s_barrier();
    defer_load(0, 0);
  }
  const int steady = std::max(0, T - 3), pairs = steady / 2;
  if (pairs > 0) {
    Reg left = k_.sgpr("pairs_left");
    k_.s_mov_b32(left, int64_t(pairs));
    const int entry_stage = pending_stage_, entry_half = pending_half_;
    k_.do_while_scc(
        [&] {
          tile(0, true);
          tile(1, true);
          // the body's first quadrants issue the loads pending at its entry: the back edge must
          // leave the same ones pending
          if (pending_stage_ != entry_stage || pending_half_ != entry_half)
            throw Error("read-ahead schedule: internal error, the loop's deferred loads differ at entry and back edge");
        },
        [&] {
          k_.s_sub_u32(left, left, 1);
          k_.s_cmp_lg_u32(left, 0);
        });
  }
  for (int t = 2 * pairs; t < T; ++t) tile(t, true);
}

// The pieces of half `half` of virtual tile v (K tile v % T of an output tile; the pointers reset at
// K tile 0), then a mark of the VMEM count after them.
std::vector<ReadAheadSchedule::Read> ReadAheadSchedule::marked_loads(int v, int half) {
  std::vector<Read> out = h_.output_load_pieces(v % 2, half, v % s_.tiles == 0);
  out.push_back([this, key = 2 * v + half] { mark_[key] = h_.vmem_issued(); });
  return out;
}

// This wave's reads done, its loads of virtual tile v's half `half` landed (everything issued after
// them, stores included, may still fly: VMEM operations retire in order), then the barrier.
void ReadAheadSchedule::wait_for(int v, int half) {
  k_.s_waitcnt(lgkmcnt(0));
  waited_ = issued_;
  const auto it = mark_.find(2 * v + half);
  if (it == mark_.end())
    throw Error(fmt::format("read-ahead schedule: internal error, tile {} half {} is waited for before it is loaded", v, half));
  k_.s_waitcnt(vmcnt(std::min(63, h_.vmem_issued() - it->second)));  // vmcnt holds at most 63 on gfx9
  k_.s_barrier();
}

// Persistent K tile t: as tile(), but the loads always go out (past the output tile's last K tile
// they are the next output tile's first), K tile 0 stores the previous output tile's last two
// quadrants behind the loads of its first two, and the last K tile stores each quadrant as soon
// as it is final: A0xB0's during A0xB1, A0xB1's during the last two quadrants (behind the loads
// there, so those loads do not retire behind the stores); the last two quadrants' are the next
// output tile's K tile 0's (or follow the loop).
void ReadAheadSchedule::output_tile(int t) {
  const int T = s_.tiles, v = vbase_ + t;
  if (t == 0) h_.before_output();
  fresh_ = t == 0;
  std::vector<Read> front, back, first = std::exchange(pending_, {});
  pending_stage_ = pending_half_ = -1;
  group(false, 1, t, front);
  const size_t b1 = front.size();
  group(true, 1, t, front);
  auto mv = [](auto it) { return std::make_move_iterator(it); };  // closures moved, not copied
  if (t == 0)
    for (int qb = 0; qb < 2; ++qb)
      for (Read& r : h_.output_stores(1, qb, true, true)) first.push_back(std::move(r));
  if (t == 1)
    for (Read& r : h_.next_output()) first.push_back(std::move(r));
  std::vector<Read> mid = marked_loads(v + 2, 1);
  if (t == T - 1) {
    // the output drains at the CU's write bandwidth share and the loads issued behind the stores
    // retire after them: the stores start as early as their quadrant is final (A0xB0's after the
    // first quadrant, behind that quadrant's loads)
    const size_t n = std::max(b1, front.size() / 2), l = (first.size() + 1) / 2;
    std::vector<Read> q0(mv(front.begin()), mv(front.begin() + long(n))), q1(mv(front.begin() + long(n)), mv(front.end()));
    q0.insert(q0.end(), mv(first.begin()), mv(first.begin() + long(l)));
    q1.insert(q1.end(), mv(first.begin() + long(l)), mv(first.end()));
    for (Read& r : h_.output_stores(0, 0, true, false)) q1.push_back(std::move(r));
    quadrant(0, 0, q0);
    quadrant(0, 1, q1);
    for (Read& r : h_.output_stores(0, 1, true, false)) mid.push_back(std::move(r));
  } else {
    two(0, std::move(front), b1, std::move(first));
  }
  wait_for(v + 1, 0);
  group(true, 0, t + 1, back);
  const size_t a0 = back.size();
  group(false, 0, t + 1, back);
  const size_t back_first = std::min(a0, back.size());  // before `back` is moved into the call
  two(1, std::move(back), back_first, std::move(mid));
  fresh_ = false;
  wait_for(v + 1, 1);
  pending_ = marked_loads(v + 3, 0);
  pending_stage_ = (v + 3) % 2;
  pending_half_ = 0;
}

// K tiles 0 .. T - 1 of one output tile: tiles 3 .. T - 4 (no stores, no pointer reset) a loop of
// pairs, the others straight. The loop body is emitted once: the marks it leaves are those of its
// first iteration, so they move on to its last before the tiles after it, and the loads it leaves
// pending are made again for the tile they fill then.
void ReadAheadSchedule::output_tiles() {
  const int T = s_.tiles, pairs = T >= 8 ? (T - 6) / 2 : 0;
  for (int t = 0; t < T; ++t) {
    if (t != 3 || pairs == 0) {
      output_tile(t);
      continue;
    }
    Reg left = k_.sgpr("pairs_left");
    k_.s_mov_b32(left, int64_t(pairs));
    const int entry_stage = pending_stage_, entry_half = pending_half_;
    const std::map<int, int> before = mark_;
    k_.do_while_scc(
        [&] {
          output_tile(3);
          output_tile(4);
          if (pending_stage_ != entry_stage || pending_half_ != entry_half)
            throw Error("read-ahead schedule: internal error, the loop's deferred loads differ at entry and back edge");
        },
        [&] {
          k_.s_sub_u32(left, left, 1);
          k_.s_cmp_lg_u32(left, 0);
        });
    const int shift = 2 * (pairs - 1);  // virtual tiles between the emitted iteration and the last
    std::map<int, int> moved;
    for (const auto& [key, count] : mark_)
      moved[before.count(key) && before.at(key) == count ? key : key + 2 * shift] = count;
    mark_ = std::move(moved);
    pending_ = marked_loads(vbase_ + 4 + shift + 3, 0);
    t = 2 + 2 * pairs;
  }
}

// The VMEM instructions issued since the loads of virtual K tile v's two halves (what the waits
// for them count).
std::vector<int> ReadAheadSchedule::marks_since(int v) const {
  std::vector<int> out;
  for (int h = 0; h < 2; ++h) {
    const auto it = mark_.find(2 * v + h);
    out.push_back(it == mark_.end() ? -1 : h_.vmem_issued() - it->second);
  }
  return out;
}

// Prologue as emit_dma's, then a loop whose body is one output tile, run 1 + outputs_left times.
// The body's K tile 0 stores the previous output tile's last two quadrants, which the first
// iteration has not: the generator makes them write nothing there (output_stores' `previous`). Its
// first waits count the VMEM instructions issued since the loads of its K tile 1, which on the back
// edge include the previous output tile's first two quadrants' stores: the prologue counts as many
// at the same places without issuing them (skipped_stores), so the marks at entry and at the back
// edge are the same (checked), and waits for every VMEM operation before the loop, so the body's
// waits, which count stand-ins never issued, hold at entry too. After the loop, the last output
// tile's last two quadrants' stores, and every VMEM operation retired before the wave ends (the
// loads issued for the tile past the last: gemm_mx_lds.cpp's re-read its last output tile).
void ReadAheadSchedule::emit_dma_persistent(Reg outputs_left) {
  const int T = s_.tiles;
  if (T < 4 || T % 2 != 0)
    throw Error(fmt::format("read-ahead schedule: the persistent path needs an even number of K tiles, at least 4 "
                            "(got {})",
                            T));
  // as the previous output tile's last K tile: A0xB0's stores behind K tile 1's first half, A0xB1's
  // behind its second half
  int stand_ins = 0;  // counted in vmem_issued, not issued
  for (int v = 0; v < 2; ++v)
    for (int h = 0; h < 2; ++h) {
      for (Read& e : marked_loads(v, h)) e();
      if (v == 1) stand_ins += h_.skipped_stores(0, h);
    }
  h_.after_prologue_loads();
  k_.s_waitcnt(vmcnt(std::min(63, h_.vmem_issued() - stand_ins - mark_.at(1))));  // the stand-ins follow mark 1
  k_.s_barrier();
  // the first K tile's LDS reads with the generator's filler spread evenly between them: the
  // reads wait for the LDS (and for room on lgkmcnt), so the filler issues in those waits
  std::vector<Read> rd;
  group(true, 0, 0, rd);
  group(false, 0, 0, rd);
  const std::vector<Read> fill = h_.prologue_fill();
  for (size_t i = 0, f = 0; i < rd.size(); ++i) {
    rd[i]();
    for (const size_t end = (i + 1) * fill.size() / rd.size(); f < end; ++f) fill[f]();
  }
  k_.s_waitcnt(vmcnt(0) + lgkmcnt(0));
  waited_ = issued_;
  k_.s_barrier();
  pending_ = marked_loads(2, 0);
  pending_stage_ = pending_half_ = 0;
  const std::vector<int> entry = marks_since(1);
  k_.s_add_u32(outputs_left, outputs_left, 1);  // the iterations
  k_.do_while_scc(
      [&] {
        output_tiles();
        if (marks_since(T + 1) != entry || pending_stage_ != 0 || pending_half_ != 0)
          throw Error("read-ahead schedule: internal error, the output tile loop's waits differ between its first "
                      "iteration and the others");
      },
      [&] {
        k_.s_sub_u32(outputs_left, outputs_left, 1);
        k_.s_cmp_lg_u32(outputs_left, 0);
      });
  pending_.clear();
  for (int qb = 0; qb < 2; ++qb)
    for (Read& r : h_.output_stores(1, qb, false, false)) r();
  k_.s_waitcnt(vmcnt(0));
}

BuildResult build_with_scheduled_waits(Kernel& k, const BuildOptions& opts, const std::string& what) {
  if (opts.waitcnt != PassMode::Auto) return k.build(opts);
  BuildOptions o = opts;
  o.waitcnt = PassMode::Verify;
  o.lds_dma_findings = false;  // dropped below anyway: not written at all
  BuildResult r = k.build(o);
  std::vector<std::string> kept;
  for (const std::string& f : r.stats.pass_findings) {
    // The pass sees LDS as one location: its LDS-DMA findings are the regions this schedule keeps
    // apart itself (the generator places those waits); any other missing wait is a bug here.
    if (f.rfind("[waitcnt-lds-dma]", 0) == 0) continue;
    if (f.rfind("[waitcnt]", 0) == 0)
      throw Error(fmt::format("{}: internal error, the read-ahead schedule misses a wait: {}", what, f));
    kept.push_back(f);
  }
  r.stats.pass_findings = std::move(kept);
  return r;
}

}  // namespace cdnajit::codegen
