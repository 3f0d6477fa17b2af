// Interleave: places instruction streams in groups, the way LLVM's
// __builtin_amdgcn_sched_group_barrier(mask, size, sync_id) asks the AMDGPU
// machine scheduler to fill a sequence of groups ("3 DS reads, then 10 VALU,
// ..."). The conceptual anchor is pyhip's Interleave; this is written for the
// builder DSL:
//
//   Interleave il(k);
//   int reads = il.stream("reads", [&] { /* every ds_read of the item */ });
//   int math = il.stream("math", [&] { /* every multiply-add */ });
//   il.place({{reads, 3}, {math, 10}});   // 3 reads, 10 VALU, 3 reads, ... until both are placed
//
// The kernel author writes each stream in its natural order; place() rewrites
// the recorded instructions into the grouped order before register allocation
// (so live ranges follow the placed order) and before the passes (the
// wait-count pass derives the s_waitcnt of the placed order, the hazard pass
// its nops).
//
// Rules:
//  * Each stream keeps its own order.
//  * An instruction is never placed before an earlier-recorded instruction of
//    another stream it depends on: a register one writes and the other reads
//    or writes (per dword of a tuple), a special register both name (VCC, EXEC,
//    M0, ...), two scalar ALU instructions (SCC is implicit), or two memory
//    instructions of which one writes memory (stores, LDS DMA). When a group
//    asks for an instruction that is not ready, the instructions it depends on
//    are placed first (in their streams' order; they do not count against the
//    group).
//  * A group takes up to `count` instructions from its stream; a stream that
//    is used up is skipped. The prologue groups are placed once, then the
//    pattern repeats until every stream is placed.
//  * Streams are straight-line code recorded back to back: labels, branches,
//    s_waitcnt, barriers, s_nop, raw text and instructions outside the streams
//    are errors (cdnajit::Error naming the call site).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "jit/kernel.hpp"

namespace cdnajit {

class Interleave {
 public:
  struct Group {
    int stream;  // id returned by stream()
    int count;   // instructions taken from it (>= 1)
  };

  explicit Interleave(Kernel& k);

  // Records what `emit` writes as one stream; returns its id (0, 1, ...).
  int stream(std::string name, const std::function<void()>& emit);

  // Places every recorded instruction: the prologue groups once, then the
  // pattern repeated until all streams are used up. Once per Interleave.
  void place(const std::vector<Group>& pattern, const std::vector<Group>& prologue = {});

  // The stream each placed instruction came from, in placed order (for tests and tools).
  const std::vector<int>& placed_streams() const { return placed_streams_; }

 private:
  Kernel& k_;
  size_t begin_ = 0;     // program index of the first recorded instruction
  size_t end_ = 0;       // one past the last
  struct Range {
    std::string name;
    size_t begin, end;
  };
  std::vector<Range> streams_;
  bool placed_ = false;
  std::vector<int> placed_streams_;
};

}  // namespace cdnajit
