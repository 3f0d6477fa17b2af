// Modelled GPU time of one kernel launch: the functional simulator runs the
// whole grid (results stay bit-exact) and records the workgroups one CU would
// hold at once; the CU model (cu_model.hpp) replays them, and the kernel time
// is the busiest CU's time for its share of the grid (tail included).
//
// snippet-context: cdnajit::sim::Simulator sim(cdnajit::Arch::gfx950); cdnajit::CodeObject co; std::vector<uint8_t> kernarg; cdnajit::sim::LaunchDims dims;
//   auto r = cdnajit::model::model_launch(sim, co, "k", kernarg, dims, {}, cdnajit::model::product("mi355x"));
//   std::cout << cdnajit::model::format_report(r);   // "modelled (model mi355x): ..."
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/model/clock_reads.hpp"
#include "runtime/model/cu_model.hpp"
#include "runtime/model/grid_lines.hpp"
#include "runtime/model/hardware.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit::model {

// Which workgroups to record and how many a CU runs.
struct LaunchPlan {
  uint64_t workgroups = 0;       // whole grid
  int waves_per_workgroup = 0;
  int waves_per_simd = 0;        // occupancy (isa::target::occupancy: registers and LDS)
  int workgroup_slots = 0;       // workgroups resident per CU when all run (registers, LDS)
  int max_workgroups = 0;        // workgroups resident per CU at most (LDS, workgroup limit) with partly ended ones
  int active_cus = 0;            // min(CUs, workgroups)
  uint64_t per_cu = 0;           // workgroups on the busiest CU (ceil(workgroups / CUs))
  std::vector<uint64_t> record;  // the workgroups CU 0 receives first (round-robin dispatch: i * CUs)
  // The first round of the grid (every CU's first workgroups, at most kMaxTracedWorkgroups): their
  // global cache lines are recorded for the memory hierarchy (memory_hierarchy.hpp).
  uint64_t traced_workgroups = 0;
};
inline constexpr uint64_t kMaxTracedWorkgroups = 4096;
// Throws cdnajit::Error when the product's arch differs from the kernel's or the occupancy inputs are invalid.
LaunchPlan plan_launch(const KernelInfo& k, Arch arch, const sim::LaunchDims& dims, const Hardware& hw);
// The recording a launch fills for the model: the planned workgroups in full and the cache lines
// of the first `max_traced` traced workgroups (Options::only_recorded_workgroups runs exactly
// these). A caller that simulates only the recorded workgroups to save time traces fewer
// (kSampledTracedWorkgroups: two workgroups per XCD of MI300X/MI355X, so both a same-XCD and a
// cross-XCD neighbour of workgroup 0 are seen); 0 traces none (the recorded workgroups alone).
inline constexpr uint64_t kSampledTracedWorkgroups = 16;
sim::Recording recording_for(const LaunchPlan& plan, const Hardware& hw, uint64_t max_traced = kMaxTracedWorkgroups);

struct ModelOptions {
  double flops = 0;           // FLOPs of the launch for TFLOP/s (0: not reported)
  int steady_rounds = 6;      // CU rounds replayed before extrapolating at the rate of the last two (>= 3)
  bool trace = false;         // keep the CU trace (write it with write_chrome_trace)
  // In-kernel clocks (clock_reads.hpp), for kernels that read s_memtime / s_memrealtime:
  int clock_runs = 4;                     // functional runs at most to reach a fixed point of the clock values (>= 2)
  uint64_t clock_workgroups_limit = 4096; // workgroups replayed at most to give every clock read its value
  // CUs whose shares replay alike (same streams and LDS addresses, global accesses covering the same
  // lines up to their names; clock_reads.cpp) take one replay's cycles. Off for a CU model whose
  // timing depends on absolute global addresses or on offsets in a line.
  bool clock_share_equal_cus = true;
  // Run 1 is fed values predicted from a first run of the first CUs' shares alone, and is the fixed
  // point when every CU holding a clock reader replays alike one of them (clock_reads.hpp). Off (or
  // the prediction not holding): run 1 records with the fake clock, as below.
  bool clock_predict = true;
  // Run 1 follows which values derive from a clock (runtime/sim/clock_taint.hpp); when none reaches a
  // branch, EXEC or an address, the fed run is not recorded. Off: every run is recorded and compared.
  bool clock_taint = true;
  // With the proof above, run 1 also keeps the clock-derived slice (runtime/sim/clock_slice.hpp), and
  // its replay with the model's values replaces the fed run when no other store touches what the
  // slice stores. Off: the fed run always runs.
  bool clock_slice = true;
  // SimulatedGrid::sampled: the first round's workgroups (at most this many) are traced once more
  // address-only so that the memory hierarchy sees the whole round's sharing (grid_lines.hpp);
  // 0 keeps only the kSampledTracedWorkgroups traced in full.
  uint64_t sampled_round_lines = kMaxTracedWorkgroups;
};

struct ModelReport {
  std::string model;          // product name, e.g. "mi355x"
  std::string kernel;
  LaunchPlan plan;
  double cycles = 0;          // modelled kernel cycles (busiest CU)
  double ms = 0;              // modelled time: the CU replay, or a level's bandwidth floor when slower
  double clock_ghz = 0;       // modelled clock of this kernel (Hardware::sustained_clock_ghz of its MFMA busy share)
  double mfma_busy = 0;       // MFMA pipes' busy share the clock was chosen for
  double replay_ms = 0;       // the busiest CU's replayed time alone
  // Whole-launch traffic per level (the traced workgroups' bytes scaled to the grid) and the time
  // each level needs at its achievable bandwidth for the active CUs.
  LevelTraffic traffic;
  // The workgroups the memory hierarchy saw (their bytes are scaled to the grid), and whether a
  // first-round line trace gave them (else only the recorded workgroups' addresses: a recording made
  // without one, e.g. model_recording's callers).
  uint64_t memory_workgroups = 0;
  bool memory_from_line_trace = false;
  double hbm_floor_ms = 0, mall_floor_ms = 0, l2_floor_ms = 0;
  double tflops = 0;          // flops / time (0 if flops unknown)
  double gbps = 0;            // HBM traffic / time
  double global_bytes = 0;    // HBM bytes (reads and write-backs) of the launch
  uint64_t replayed_workgroups = 0;
  std::vector<std::pair<std::string, double>> busy;    // unit, share of time busy (0..1), descending
  std::vector<std::pair<std::string, double>> stalls;  // reason, share of resident wave time, descending
  double vector_issue_share = 0;  // share of the SIMDs' issue turns that issued a VALU, MFMA or DS instruction
  std::vector<std::pair<std::string, double>> vector_idle;  // the other turns by reason (share of all turns), descending
  double mean_resident_waves = 0;  // waves resident per SIMD, averaged over issue turns (plan.waves_per_simd at most)
  double full_residency_share = 0; // share of issue turns with all plan.waves_per_simd slots of the SIMD filled
  double idle_when_full = 0;       // share of those turns that issued no vector instruction
  double idle_when_not_full = 0;   // the same for the turns with a slot empty
  std::string limiter;
  std::vector<std::pair<std::string, double>> per_wave;  // dynamic instructions per wave by kind (VALU, LDS, ...)
  double sim_seconds = 0;     // functional simulation (host)
  double model_seconds = 0;   // CU replay (host)
  ClockSummary clocks;        // in-kernel clock reads and the runs they took
  GridLinesSummary grid_lines;  // a sampled launch's address-only trace of its first round (grid_lines.hpp)
  CuResult cu;                // the replayed CU (trace inside when requested)
};

// The CU model's configuration for the plan (slots, occupancy, active CUs); workgroups = 1.
CuRunConfig cu_config(const LaunchPlan& plan, const Hardware& hw);

// Dynamic instructions per recorded wave by kind: VALU, MFMA, SALU, LDS, VMEM, SMEM, branch,
// s_waitcnt, s_nop, s_barrier, other (kinds that never occur are left out).
std::vector<std::pair<std::string, double>> instructions_per_wave(const sim::Recording& rec);

// From a finished recording (tests and tools that run the simulator themselves).
ModelReport model_recording(const sim::Recording& rec, const LaunchPlan& plan, const Hardware& hw,
                            const ModelOptions& opt = {});

// What the simulator runs for the model.
//   full:    every workgroup (the device's memory holds the whole result); the cache lines of the
//            grid's first round are traced for the memory hierarchy.
//   sampled: only the workgroups the model records (each computes what it computes in the full
//            grid, the others' outputs are not written) and kSampledTracedWorkgroups traced, so a
//            launch of any size costs a few workgroups of simulation; before them the first round
//            runs address-only for its cache lines (grid_lines.hpp: no MFMA math, no global writes),
//            which the memory hierarchy takes when they match the traced workgroups' own. For timing
//            launches whose results are checked elsewhere (the tuner, the codegen families' model drivers).
//   sampled_first_round: as sampled, but the whole first round runs and is traced (the cache lines
//            a full launch traces, so the kernel time equals a full launch's; the drop-in HIP
//            runtime's CDNAJIT_HIP_MODEL_ONLY=round).
// The sampled kinds run some workgroups only: a kernel's clock reads keep the functional count
// there (no fixed point over a grid that is not run).
enum class SimulatedGrid { full, sampled, sampled_first_round };

// One functional run of the launch with the given simulator options (recording, clock feed, ...):
// Simulator::launch of the caller's code object, or a device's launcher (model_device.cpp).
using RunLaunch = std::function<sim::Stats(const sim::Options&)>;

// The model's driver, for one launch: plans it, runs it through `run` with recording (a kernel that
// reads in-kernel clocks runs until its clock values are the model's own, clock_reads.hpp;
// ModelReport::clocks says how) and replays the recording. `memory` is the memory the runs use
// (saved and restored between the runs of a clock-reading kernel); `stats_out` gets the simulator's
// statistics of the final run. Every entry below and model_device.hpp's come here.
ModelReport model_run(const RunLaunch& run, sim::Memory& memory, const KernelInfo& kernel, Arch arch,
                      const sim::LaunchDims& dims, sim::Options sim_opt, const Hardware& hw, const ModelOptions& opt,
                      SimulatedGrid simulated, sim::Stats* stats_out = nullptr);

// Runs the launch on `sim` with recording and models it (model_run with Simulator::launch of `co`).
// For callers that own a simulator and a code object without a device (the drop-in HIP runtime).
ModelReport model_launch(sim::Simulator& sim, const CodeObject& co, std::string_view kernel,
                         std::span<const uint8_t> kernarg, const sim::LaunchDims& dims, sim::Options sim_opt,
                         const Hardware& hw, const ModelOptions& opt = {}, sim::Stats* stats_out = nullptr,
                         SimulatedGrid simulated = SimulatedGrid::full);

// Multi-line text, every line labelled "modelled (model <name>)".
std::string format_report(const ModelReport& r);

// Chrome/Perfetto trace JSON of the replayed CU: one track per wave slot (issue, stalls, barriers).
// Throws cdnajit::Error when the file cannot be written or the report holds no trace.
void write_chrome_trace(const ModelReport& r, const Hardware& hw, const std::string& path);

}  // namespace cdnajit::model
