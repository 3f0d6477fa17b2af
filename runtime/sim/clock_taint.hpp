// Which values of a recorded wave may derive from an in-kernel clock read (s_memtime /
// s_memrealtime), followed during a recorded run when Recording::track_clock_taint is set.
//
// The timing model (runtime/model/clock_reads.hpp) runs a clock-reading kernel once more with the
// modelled clock values. When no value derived from a clock can reach a branch condition or target,
// EXEC, M0, MODE, a memory address (or LDS lane index), or memory that some wave loads, the second
// run executes the same instruction streams whatever the values are, so it needs no recording and
// no comparison. This file follows that dataflow, conservatively (a "may derive" over-approximation):
//  - registers: one bit per SGPR and SCC, one lane mask per VGPR/AGPR row; an instruction's results
//    derive from a clock when any register it reads does (named operands, and the SCC / VCC / M0
//    reads the ISA table declares, jit/isa/implicit_regs.hpp). A VALU result is lane-uniform: any
//    source lane counts for every lane it writes (cross-lane operations need nothing apart); lanes
//    outside EXEC keep their state. Loads return memory's values, which do not derive from a clock
//    unless memory does (checked below).
//  - memory: the byte ranges of the global and LDS stores whose data derives from a clock; after the
//    run every load's addresses (recorded, plus the scalar loads noted here) must miss them. Stores
//    whose addresses the recording lacks (scalar, scratch, flat, global atomics) end the proof when
//    their data derives from a clock.
// Anything else an instruction does with such a value (VGPR indexing, a relative move, an
// instruction outside the table) ends the proof too: the model then runs and compares as before.
#pragma once
#include <bitset>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "jit/isa/target.hpp"
#include "runtime/sim/clock_slice.hpp"

namespace cdnajit::sim {

struct Wave;
struct Op;
struct Recording;

struct ClockTaint {
  bool active = false;  // the wave read a clock: the shadow registers below are in use
  // The first place a clock-derived value reached what can change the streams, or what the check
  // cannot follow: "pc 0x.. 'text': why" ("" none).
  std::string reached;
  bool scc = false;
  std::bitset<isa::target::kScalarOperandRegs> sgpr;
  std::vector<uint64_t> vgpr;  // per unified VGPR/AGPR row: lanes that may hold a clock-derived value (grown on demand)
  // [lo, hi) byte ranges of stores of clock-derived data: global (device addresses), LDS (the workgroup's).
  std::vector<std::pair<uint64_t, uint64_t>> global_stores, lds_stores;
  // [lo, hi) of every scalar-memory read of the wave (the recording holds no SMEM addresses).
  std::vector<std::pair<uint64_t, uint64_t>> scalar_reads;
  bool unrecorded_global_reads = false;  // global/buffer atomics: memory read at addresses not recorded
  bool flat_reads = false;               // flat loads (they may read LDS through its aperture)
  // The wave-instructions that compute with clock-derived values, with the other values they read
  // (clock_slice.hpp), when Recording::track_clock_slice is set.
  ClockSlice slice;
};

// record_step's part (record.cpp): follows one wave-instruction before it executes; `addrs` / `n`
// are its recorded per-lane addresses (memory_addresses), `step` its index in the wave's steps.
void taint_step(ClockTaint& t, Wave& w, const Op& op, const uint64_t* addrs, int n, uint32_t step);

// After a run that tracked every workgroup of the grid: "" when no clock-derived value can change
// the instruction streams (above), else where one can (workgroup, wave, instruction, why).
std::string clock_taint_verdict(const Recording& r);

struct RecordedWave;
struct RecordedStep;
// [lowest address, highest address + bytes) of a recorded step's active lanes, without writing out
// an affine step's addresses; empty (first >= second) when no lane is active.
std::pair<uint64_t, uint64_t> recorded_step_hull(const RecordedWave& w, const RecordedStep& st, uint64_t bytes);
// "workgroup W wave K", for messages about a recorded wave.
std::string recorded_wave_name(const RecordedWave& w);

}  // namespace cdnajit::sim
