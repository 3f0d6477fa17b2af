// The 8-wave ping-pong main loop of the MFMA GEMM generator (gemm.cpp, GemmConfig::pingpong): the
// order of a K tile's fragment reads, MFMAs, loads, waits and barriers, independent of what a
// fragment is and how it is loaded (the generator's hooks emit those).
//
// Two wave groups (waves 0-3 and 4-7, one wave of each per SIMD) alternate, one barrier apart:
// while one group multiplies (at raised priority) the other reads LDS and issues loads, so each
// SIMD's MFMA pipe is fed by one wave while the other prepares, and a barrier costs the pipe little
// (the other group's MFMAs are queued right behind it).
//
// A wave's fragments of one K tile fall in four quarters: the first and second half of its A
// blocks (A0, A1) and of its B blocks (B0, B1), each in its own registers. Per K tile a wave has
// two phase pairs, a read phase R then an MFMA phase M, each closed by a barrier:
//   R_0(t): B0(t), B1(t), the first A1(t)     M_0(t): A0 x B0, A0 x B1
//   R_1(t): the rest of A1(t), A0(t + 1)      M_1(t): A1 x B0, A1 x B1
// (each quadrant k-step by k-step, so every accumulator still sees ascending k; plan_reads has the
// rule). Group 1 runs the same phases one barrier later. LDS holds 2 stages, each in the same four
// quarters as the read-ahead's half-major rows (A0 and B0 rows in the first half of the A and B
// tiles, A1 and B1 in the second); tile t sits in stage t % 2. A quarter whose last fragments are
// read in R_j (both groups have read them, and waited for their reads, by the barrier closing
// group 1's R_j) is reloaded with the tile two ahead by every wave in its next read phase R_{j+1}:
// each quarter is in flight for about 1.5 K tiles of MFMAs before it is read, and the CU's memory
// queue never drains (HipKittens' 8-wave kernels load quarters the same way). Before the barrier
// that opens group 0's R_{j+1} every wave waits (vmcnt) for its own share of the quarters read
// there, and no longer.
//
// Why two quadrants per phase: a barrier between phases costs the MFMA pipe the few cycles between
// the last MFMA of one group and the first of the other; one quadrant per phase (HipKittens'
// granularity) pays that twice as often, a whole tile per phase keeps each quarter in flight for
// less time (modelled on mi355x, 4096^3 bf16: 1580-1587 and 1571 TFLOP/s against 1603 for two).
// Tile 0's R_0 also reads A0(0); with fewer A than B blocks per wave R_0 reads more than R_1.
//
// Every wait is placed here (the wave's reads of another LDS quarter overlap its DMA into this one,
// which the wait-count pass, treating LDS as one location, cannot tell apart; the generator builds
// with build_with_scheduled_waits).
#pragma once
#include <functional>
#include <map>
#include <vector>

#include "jit/kernel.hpp"

namespace cdnajit::codegen {

struct PingPongShape {
  int tiles = 1;                   // K tiles
  int k_steps = 1;                 // MFMA k-steps per K tile
  int blocks_m = 2, blocks_n = 2;  // MFMA blocks per wave (even: the schedule works in quadrants)
  int loads_a = 0, loads_b = 0;    // VMEM instructions per wave for one half of the A / B tile
};

struct PingPongHooks {
  using Emit = std::function<void()>;
  // The DS reads of one fragment: operand A (`is_a`) or B, k-step `ks`, block `blk` of K tile `t`.
  std::function<void(bool is_a, int ks, int blk, int t)> fragment_reads;
  // The MFMA of accumulator block (bi, bj) at k-step ks, once its fragments have been read.
  std::function<void(int ks, int bi, int bj)> mfma;
  // The loads of half `half` of the A (`is_a`) or B tile of the next K tile of that quarter into
  // LDS stage `stage` (each quarter's tiles are loaded in order).
  std::function<void(int stage, bool is_a, int half)> load;
};

class PingPongSchedule {
 public:
  PingPongSchedule(Kernel& k, const PingPongShape& s, PingPongHooks h);
  // The code of wave group `group` (0: waves 0-3, 1: waves 4-7); the generator branches on it.
  void emit_group(int group);

 private:
  // A quarter of one K tile: operand A or B, half 0 or 1.
  struct Quarter {
    int tile;
    bool is_a;
    int half;
    bool operator==(const Quarter&) const = default;
  };
  struct Fragment {
    Quarter q;
    int ks, blk;
  };
  static int key(const Quarter& q) { return q.tile * 4 + (q.is_a ? 0 : 2) + q.half; }
  void plan_reads();
  std::vector<Quarter> reads_of(int phase) const;    // with a fragment read in R_phase
  std::vector<Quarter> refills_of(int phase) const;  // loaded in R_phase (tiles < tiles)
  int loads_of(const Quarter& q) const { return q.is_a ? s_.loads_a : s_.loads_b; }
  // The vmcnt that guarantees this wave's share of the quarters read in R_phase, given the quarters
  // it issued so far (in order); -1 if nothing is pending.
  int vmcnt_before(int phase) const;
  void issue(const Quarter& q);
  void read_phase(int group, int phase);
  void mfma_phase(int group, int phase);
  void phases(int group, int first, int count);
  void wait_vm(int count);
  void barrier();


  Kernel& k_;
  PingPongShape s_;
  PingPongHooks h_;
  int hm_, hn_;
  std::vector<std::vector<Fragment>> plan_;  // per phase, the fragments read in R_phase
  std::map<int, int> last_read_;             // per quarter (key), the phase of its last read
  std::vector<Quarter> issued_;  // this wave's quarters, in issue order (the emission's view)
  // The loop body is emitted once (its first iteration) and its later iterations are replayed
  // without emitting (`dry_`): each must need the same waits (`body_waits_`), else the schedule
  // is wrong for them (an internal error).
  bool dry_ = false, recording_ = false;
  std::vector<int> body_waits_;
  size_t replayed_ = 0;
};

}  // namespace cdnajit::codegen
