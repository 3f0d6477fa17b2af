// The read-ahead main loop (read_ahead_schedule.hpp has the schedule and why).
#include "codegen/read_ahead_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
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
        h_.mfma(ks, bi, bj);
        ++i;
      }
  while (r < rd.size()) rd[r++]();
}

// Two quadrants with the reads `rd` split between them; `first_min` reads go to the first. The
// `loads` (load_pieces) are split evenly and follow each quadrant's reads: the reads, which the
// next quadrant or the next lgkmcnt(0) waits for, issue first.
void ReadAheadSchedule::two(int qa, std::vector<Read> rd, size_t first_min, std::vector<Read> loads) {
  const size_t n = std::max(first_min, rd.size() / 2), l = (loads.size() + 1) / 2;
  std::vector<Read> q0(rd.begin(), rd.begin() + long(n)), q1(rd.begin() + long(n), rd.end());
  q0.insert(q0.end(), loads.begin(), loads.begin() + long(l));
  q1.insert(q1.end(), loads.begin() + long(l), loads.end());
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
  two(0, front, b1, std::exchange(pending_, {}));
  pending_stage_ = pending_half_ = -1;
  if (t + 1 >= T) return two(1, {}, 0);
  sync(t + 2 < T ? 2 : 1);  // half 0 of t + 1 landed (half 1 of t + 1, half 0 of t + 2 may fly)
  std::vector<Read> mid;
  if (t + 2 < T) mid = loads(t % 2, 1);
  group(true, 0, t + 1, back);  // A0 first: free since A0xB1; B0 only after A1xB0
  const size_t a0 = back.size();
  group(false, 0, t + 1, back);
  two(1, back, std::min(a0, back.size()), std::move(mid));
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

BuildResult build_with_scheduled_waits(Kernel& k, const BuildOptions& opts, const std::string& what) {
  if (opts.waitcnt != PassMode::Auto) return k.build(opts);
  BuildOptions o = opts;
  o.waitcnt = PassMode::Verify;
  BuildResult r = k.build(o);
  std::vector<std::string> kept;
  for (const std::string& f : r.stats.pass_findings) {
    const bool lds_dma_only = (f.find(") accesses LDS (global_load_lds") != std::string::npos ||
                               f.find(") releases LDS (global_load_lds") != std::string::npos) &&
                              f.find(" overwrites ") == std::string::npos && f.find(" reads ") == std::string::npos;
    if (f.rfind("[waitcnt]", 0) == 0 && lds_dma_only) continue;
    if (f.rfind("[waitcnt]", 0) == 0)
      throw Error(fmt::format("{}: internal error, the read-ahead schedule misses a wait: {}", what, f));
    kept.push_back(f);
  }
  r.stats.pass_findings = std::move(kept);
  return r;
}

}  // namespace cdnajit::codegen
