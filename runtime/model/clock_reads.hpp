// In-kernel clocks under the timing model. s_memtime (what clang-22 emits on gfx942/gfx950 for
// HIP's clock64(), __builtin_readcyclecounter() and __builtin_amdgcn_s_memtime()) returns the
// modelled shader-clock cycle at which it issues on its wave, counted from the kernel's start;
// s_memrealtime (wall_clock64(), __builtin_readsteadycounter(), __builtin_amdgcn_s_memrealtime())
// returns the product's constant-rate counter (Hardware::realtime_counter_mhz) at that cycle.
//
// Trace-driven, in runs of the functional simulator (runtime/sim/clock_feed.hpp):
//  1. run with recording; note which workgroups executed a clock read;
//  2. replay, on the CU model, every CU that holds such a workgroup (its whole share of the grid
//     in dispatch order, from the kernel's start: workgroups cu, cu + CUs, ... as plan_launch
//     assumes), giving each recorded clock read its issue cycle;
//  3. run again from the launch's initial memory, each wave's clock reads fed those cycles, and
//     compare the recorded instruction streams (instructions, EXEC populations, branches, addresses)
//     with the previous run's. Equal: the values are the model's own (a fixed point). Different:
//     repeat from 2 with the new streams, at most ModelOptions::clock_runs runs, then an Error
//     naming the first wave and instruction whose control flow or address still changes.
//     When run 1 recorded every workgroup and followed the clock-derived values
//     (runtime/sim/clock_taint.hpp) without finding one that reaches a branch, EXEC, M0, MODE, an
//     address or memory some wave loads, the streams cannot change: run 2 then runs without
//     recording (its instruction counts checked against run 1's) and is the fixed point. Before
//     that, run 1's clock-derived slice (runtime/sim/clock_slice.hpp) is re-executed with the model's
//     values on run 1's memory instead, when no other store of the run writes where it stores (and
//     nothing in it needs more than the slice keeps); then there is no run 2.
// Before all that, when every workgroup can be recorded, the values are first predicted
// (ModelOptions::clock_predict): the shares of the first CUs (the first CU of each share size, CU
// 0's and the last CU's when shares come in two sizes, and of each first SIMD,
// Hardware::first_simd_by_cu) run alone, their CUs are replayed, every CU's waves are fed the cycles
// of the first CU whose share has its size and whose first SIMD is its own, and the grid runs once. Each workgroup is digested as it ends
// (the digests that group shares, workgroup_digest.hpp; only the kernel time's workgroups keep their
// streams). That run is the fixed point when every clock read had a value and every CU holding a
// clock reader has a share whose digests equal its first CU's share's run alone: each CU's replay is
// then that one's, so each value fed is the model's for the stream that read it. Otherwise the launch
// starts over at run 1 above (the same values as a launch without the prediction). The first run stops
// at a deadlock or after 2 s of host time (clock_reads.cpp, kPredictionSeconds: a workgroup waiting on
// others it leaves out); the prediction is then not made.
// Every recorded run of the grid also traces the first round's cache lines, so the kernel time's
// memory hierarchy sees what a launch without clock reads sees.
// Every workgroup that reads a clock is replayed, not only the workgroups the kernel time samples;
// when that needs more than ModelOptions::clock_workgroups_limit workgroups the launch is refused
// with an Error saying so (no clock value is left unmodelled silently). A kernel without
// s_memtime / s_memrealtime runs once, as before.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/model/hardware.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit::model {

struct LaunchPlan;
struct ModelOptions;

struct ClockSummary {
  bool reads_clock = false;         // the kernel's code contains s_memtime / s_memrealtime
  uint64_t workgroups_reading = 0;  // workgroups that executed a clock read (final run)
  uint64_t reads = 0;               // clock reads given modelled values (final run)
  int cus_replayed = 0;             // CUs replayed for the values (the others replay alike one of them)
  uint64_t workgroups_replayed = 0;
  int cus_reading = 0;              // CUs holding a clock-reading workgroup
  int runs = 1;                     // functional runs of the launch
  int recorded_runs = 1;            // of which recorded (the others: the fed run after the proof below)
  // Why run 1 could not prove that no clock-derived value reaches a branch, EXEC or an address
  // (sim/clock_taint.hpp); "" when it did, and the fed run then ran without recording.
  std::string taint;
  // The prediction (header): the workgroups of its first run (0: not made), its host time (that run and
  // the replay of its shares), and "" when the values held, else why it was not made or did not hold.
  uint64_t predicted_from = 0;
  double predict_seconds = 0;
  std::string prediction;
  // With the proof: the fed run replaced by the replay of the clock-derived slice (sim/clock_slice.hpp)
  // of `slice_steps` wave-instructions; else why not ("" when the proof failed or it was replayed).
  bool slice_replayed = false;
  uint64_t slice_steps = 0;
  std::string slice;
  double slice_seconds = 0;         // host time of the slice replay
  double sim_seconds = 0;           // host time of all runs
  double first_run_seconds = 0;     // of the first run (the plain functional simulation)
  double replay_seconds = 0;        // host time of the clock replays
  double clock_ghz = 0, realtime_mhz = 0;  // the rates the values count at (Hardware)
};

// True when the kernel's code holds a clock-reading instruction (a launch that runs no workgroup).
bool kernel_reads_clock(const std::function<sim::Stats(const sim::Options&)>& run, sim::Options sim_opt);

// The workgroups to replay for the given clock-reading workgroups: the whole share of every CU
// that holds one, in dispatch order (sorted ascending, i.e. by CU share then round).
std::vector<uint64_t> clock_workgroups(const LaunchPlan& plan, const Hardware& hw, std::span<const uint64_t> readers);

// "" when the two recordings (of the same workgroups) executed the same instruction streams,
// else the first difference (workgroup, wave, instruction, what differs).
std::string first_difference(const sim::Recording& a, const sim::Recording& b);

// A recording of the listed workgroups (each must be in rec.workgroups), their waves moved out of `rec`.
sim::Recording take_workgroups(sim::Recording& rec, std::span<const uint64_t> workgroups);

struct ClockedRun {
  sim::Recording rec;  // the final run's recording (its `workgroups` include plan.record)
  sim::Stats stats;    // the final run's
  ClockSummary clocks;
};

// Runs the launch (`run`, one functional run each; launch_model.hpp's RunLaunch) to a fixed point of
// its clock values (header comment); `memory`, the memory the runs use, ends as the final run left
// it. Throws cdnajit::Error when the fixed point is not reached or the replay would exceed the limit.
ClockedRun run_with_clocks(const std::function<sim::Stats(const sim::Options&)>& run, sim::Memory& memory,
                           const sim::LaunchDims& dims, sim::Options sim_opt, const Hardware& hw, const LaunchPlan& plan,
                           const ModelOptions& opt);

}  // namespace cdnajit::model
