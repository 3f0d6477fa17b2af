// The wait-count dataflow state ("score brackets", the model LLVM's SIInsertWaitcnts
// uses): per counter, every issued memory operation gets the next score; `ub` is the
// newest issued, `lb` the newest known complete, so ub - lb operations may be in flight.
// Each register unit remembers the score of its pending write. In-order queues (vmcnt;
// lgkmcnt while only one kind of event is pending) allow waiting for `ub - score`;
// out-of-order ones (any SMEM pending, mixed LDS/message events, a FLAT op counting on
// both) need a wait of 0.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "jit/passes/regs.hpp"
#include "jit/passes/waitcnt_encoding.hpp"

namespace cdnajit::passes {

enum WaitCounter : int { kVm = 0, kLgkm = 1, kNumCounters = 2 };

struct PendingUse {
  int unit;
  int counter;
  int32_t writer;  // instruction index of the memory op that writes the unit
};

// Facts about one instruction the brackets need, computed once per instruction.
struct IssueInfo {
  bool counts[kNumCounters] = {false, false};  // raises vmcnt / lgkmcnt
  bool flat = false;                           // FLAT: counts on both, order unknown
  bool vmem_in_order = false;                  // VMEM but not FLAT: results land in issue order
  uint8_t lgkm_event = 0;                      // event kind on lgkmcnt
};
IssueInfo issue_info(const isa::MachineInst& mi);

// A unit with a write in flight on one counter.
struct PendingWrite {
  int unit;
  uint32_t score;
  int32_t writer;
  bool operator==(const PendingWrite& o) const = default;
};

struct Brackets {
  uint32_t ub[kNumCounters] = {0, 0};
  uint32_t lb[kNumCounters] = {0, 0};
  uint32_t last_flat[kNumCounters] = {0, 0};
  uint8_t events[kNumCounters] = {0, 0};
  // Per counter, the units whose write is still in flight (score > lb), sorted by unit.
  // Kernels have a few dozen at most, so a state is cheap to copy and compare; units
  // whose write has landed carry no information and are dropped.
  std::vector<PendingWrite> pend[kNumCounters];
  // The units of both lists as bits: most instructions touch no pending unit, and one test of
  // their ranges here answers that without searching the lists. Derived from `pend` (kept in
  // step by every change of it), so equality ignores it.
  UnitSet pending_units;

  bool operator==(const Brackets& o) const;
  // Whether any unit of `r` has a write in flight on either counter.
  bool any_pending(const UnitRange& r) const;

  const PendingWrite* find(int c, int unit) const;
  bool pending(int c, int unit) const { return find(c, unit) != nullptr; }
  bool out_of_order(int c) const;
  bool pending_flat() const;
  // Wait count that guarantees the write with `s` on counter c has landed.
  int count_for(int c, uint32_t s) const;
  bool satisfied(const WaitFields& w) const;  // the wait would change nothing
  void apply(const WaitFields& w);
  // Account for `mi` (instruction #index) issuing its memory operation, if any.
  void issue(const isa::MachineInst& mi, const Access& a, int32_t index) { issue(issue_info(mi), a, index); }
  void issue(const IssueInfo& info, const Access& a, int32_t index);

  // Claim each counter with anything in flight is full (counter_max operations):
  // the widening step of the dataflow. Scores keep their distance from the newest op.
  void saturate();

  // Pessimistic union of predecessor states at a join.
  static Brackets merge(const std::vector<const Brackets*>& ins);

 private:
  void drop_landed(int c);  // remove units whose score is no longer above lb
  void remask();            // pending_units from the lists
};

int counter_max(int c);

// The weakest wait that makes `mi` safe in state `s`, with the units and writers it
// protects; nullopt if nothing it reads or writes is pending.
struct WaitNeed {
  WaitFields wait;
  std::vector<PendingUse> reads, writes;
};
std::optional<WaitNeed> wait_needed(const Brackets& s, const isa::MachineInst& mi, const Access& a);
std::optional<WaitNeed> wait_needed(const Brackets& s, const IssueInfo& info, const Access& a);

}  // namespace cdnajit::passes
