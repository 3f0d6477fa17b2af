// The 8-wave ping-pong main loop (pingpong_schedule.hpp has the schedule and why).
#include "codegen/pingpong_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

PingPongSchedule::PingPongSchedule(Kernel& k, const PingPongShape& s, PingPongHooks h)
    : k_(k), s_(s), h_(std::move(h)), hm_(s.blocks_m / 2), hn_(s.blocks_n / 2) {
  plan_reads();
}

// Tile t's fragments in the order its MFMAs need them: B0(t) and B1(t) by M_0(t), A1(t) by M_1(t),
// then A0(t + 1), whose registers are free once M_0(t) has issued, so from R_1(t). Each goes to the
// earliest read phase it may, at most half a tile's fragments per phase unless it is needed there:
// the two read phases take about equal time (a read phase longer than the other group's MFMA
// phase leaves the MFMA pipe idle). Tile 0's R_0 first reads A0(0).
void PingPongSchedule::plan_reads() {
  const int T = s_.tiles, KS = s_.k_steps;
  plan_.assign(size_t(2 * T), {});
  struct Item {
    int earliest, latest;  // read phase of the tile, 0 or 1
    Fragment f;
  };
  auto add = [&](std::vector<Item>& seq, Quarter q, int earliest, int latest) {
    if (q.tile >= T) return;
    const int half = q.is_a ? hm_ : hn_;
    for (int ks = 0; ks < KS; ++ks)
      for (int blk = q.half * half; blk < (q.half + 1) * half; ++blk) seq.push_back({earliest, latest, {q, ks, blk}});
  };
  const int cap = (hm_ + hn_) * KS;  // half of a tile's fragments
  for (int t = 0; t < T; ++t) {
    std::vector<Item> seq;
    if (t == 0) add(seq, {0, true, 0}, 0, 0);
    add(seq, {t, false, 0}, 0, 0);
    add(seq, {t, false, 1}, 0, 0);
    add(seq, {t, true, 1}, 0, 1);
    add(seq, {t + 1, true, 0}, 1, 1);
    int k = 0, used = 0;
    for (const Item& it : seq) {
      if (it.earliest > k || (used >= cap && k < it.latest)) k = std::max(k + 1, it.earliest), used = 0;
      plan_[size_t(2 * t + k)].push_back(it.f);
      ++used;
    }
  }
  for (int j = 0; j < 2 * T; ++j)
    for (const Fragment& f : plan_[size_t(j)]) last_read_[key(f.q)] = j;
}

std::vector<PingPongSchedule::Quarter> PingPongSchedule::reads_of(int phase) const {
  std::vector<Quarter> out;
  if (phase < 0 || phase >= int(plan_.size())) return out;
  for (const Fragment& f : plan_[size_t(phase)])
    if (std::find(out.begin(), out.end(), f.q) == out.end()) out.push_back(f.q);
  return out;
}

// The quarters whose last fragments were read in R_{phase-1}, two tiles on (their stage's quarter
// is free once both groups have read it).
std::vector<PingPongSchedule::Quarter> PingPongSchedule::refills_of(int phase) const {
  std::vector<Quarter> out;
  for (Quarter q : reads_of(phase - 1)) {
    if (last_read_.at(key(q)) != phase - 1) continue;
    q.tile += 2;
    if (q.tile < s_.tiles) out.push_back(q);
  }
  return out;
}

int PingPongSchedule::vmcnt_before(int phase) const {
  const std::vector<Quarter> need = reads_of(phase);
  if (need.empty()) return -1;
  size_t newest = 0;
  for (const Quarter& q : need) {
    const auto it = std::find(issued_.begin(), issued_.end(), q);
    if (it == issued_.end())
      throw Error(fmt::format("ping-pong schedule: internal error, tile {} {}{} is read in phase {} before it is loaded",
                              q.tile, q.is_a ? 'A' : 'B', q.half, phase));
    newest = std::max(newest, size_t(it - issued_.begin()));
  }
  int after = 0;
  for (size_t i = newest + 1; i < issued_.size(); ++i) after += loads_of(issued_[i]);
  return std::min(after, 63);  // vmcnt holds at most 63 on gfx9 (a smaller count is a stronger wait)
}

void PingPongSchedule::wait_vm(int count) {
  if (dry_) {
    if (replayed_ >= body_waits_.size() || body_waits_[replayed_] != count)
      throw Error("ping-pong schedule: internal error, the loop's iterations need different waits");
    ++replayed_;
    return;
  }
  if (recording_) body_waits_.push_back(count);
  if (count >= 0) k_.s_waitcnt(vmcnt(count));
}

void PingPongSchedule::barrier() {
  if (!dry_) k_.s_barrier();
}

void PingPongSchedule::issue(const Quarter& q) {
  if (!dry_) h_.load(q.tile % 2, q.is_a, q.half);
  issued_.push_back(q);
}

// Group 1 waits for its share of R_{phase+1}'s quarters here (its next barrier opens group 0's
// R_{phase+1}); the LDS reads are waited for before the barrier: the MFMAs of the next phase need
// them, and the other group reloads a quarter once this barrier has passed.
void PingPongSchedule::read_phase(int group, int phase) {
  if (!dry_)
    for (const Fragment& f : plan_[size_t(phase)]) h_.fragment_reads(f.q.is_a, f.ks, f.blk, f.q.tile);
  for (const Quarter& q : refills_of(phase)) issue(q);
  if (!dry_) k_.s_waitcnt(lgkmcnt(0));
  if (group == 1) wait_vm(vmcnt_before(phase + 1));
  barrier();
}

// A half `phase % 2` of the wave's blocks times all its B blocks (quadrants AhxB0, AhxB1, each
// k-step by k-step) at raised priority; group 0 waits here for its share of R_{phase+1}'s quarters
// (its next barrier opens R_{phase+1}).
void PingPongSchedule::mfma_phase(int group, int phase) {
  if (!dry_) {
    const int qa = phase % 2;
    k_.s_setprio(1);
    for (int qb = 0; qb < 2; ++qb)
      for (int ks = 0; ks < s_.k_steps; ++ks)
        for (int bi = qa * hm_; bi < (qa + 1) * hm_; ++bi)
          for (int bj = qb * hn_; bj < (qb + 1) * hn_; ++bj) h_.mfma(ks, bi, bj);
    k_.s_setprio(0);
  }
  if (group == 0) wait_vm(vmcnt_before(phase + 1));
  barrier();
}

void PingPongSchedule::phases(int group, int first, int count) {
  for (int j = first; j < first + count; ++j) {
    read_phase(group, j);
    mfma_phase(group, j);
  }
}

// Tiles 2 .. T - 3 reload quarters two tiles on, read the next tile's A0 and read quarters loaded
// in the steady order (tile 1's came from the prologue): those are a loop of tile pairs (static
// stage parity), checked to need the same waits in every iteration; tiles 0 and 1 and the last
// tiles are emitted straight.
void PingPongSchedule::emit_group(int group) {
  const int T = s_.tiles, P = 2;  // read/MFMA phase pairs per tile
  issued_.clear();
  for (int j = 0; j < 2 * P; ++j)  // tiles 0 and 1 in the order of their first reads
    for (const Quarter& q : reads_of(j))
      if (q.tile < 2 && std::find(issued_.begin(), issued_.end(), q) == issued_.end()) issue(q);
  wait_vm(vmcnt_before(0));
  barrier();
  if (group == 1) barrier();  // group 1 runs one barrier behind
  phases(group, 0, std::min(T, 2) * P);
  const int pairs = std::max(0, T - 4) / 2;
  if (pairs > 0) {
    Reg left = k_.sgpr("pairs_left");
    k_.s_mov_b32(left, int64_t(pairs));
    body_waits_.clear();
    k_.do_while_scc(
        [&] {
          recording_ = true;
          phases(group, 2 * P, 2 * P);
          recording_ = false;
        },
        [&] {
          k_.s_sub_u32(left, left, 1);
          k_.s_cmp_lg_u32(left, 0);
        });
    dry_ = true;
    for (int p = 1; p < pairs; ++p) {
      replayed_ = 0;
      phases(group, 2 * P + 2 * P * p, 2 * P);
    }
    dry_ = false;
  }
  if (T > 2) phases(group, 2 * P + 2 * P * pairs, P * (T - 2 - 2 * pairs));
  if (group == 0) barrier();  // both groups execute the same number of barriers
}

}  // namespace cdnajit::codegen
