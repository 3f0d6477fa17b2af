// The cache lines of a sampled launch's whole first round, for the memory hierarchy.
//
// A sampled launch (launch_model.hpp, SimulatedGrid::sampled) simulates only the workgroups the
// model replays and kSampledTracedWorkgroups traced ones; with that few, the L2s and the Infinity
// Cache see almost none of the reuse between workgroups that a GEMM's shared A and B panels give
// (a 4096^3 GEMM's HBM traffic modelled at several times its unique footprint). This runs the
// first round (LaunchPlan::traced_workgroups, what a full launch traces) once more in the
// simulator's address-only mode (sim::Options::trace_lines_address_only: no MFMA math, no global
// writes) and keeps its cache lines when, for every workgroup the sampled run traced in full, the
// address-only lines equal the full simulation's line for line. Otherwise the sampled lines stay
// (today's behaviour) and the summary says where the two differed.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "runtime/model/hardware.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit::model {

struct LaunchPlan;

struct GridLinesSummary {
  bool attempted = false;           // the address-only trace of the first round ran
  bool used = false;                // its lines replaced the sampled ones (the check passed)
  uint64_t round_workgroups = 0;    // workgroups traced address-only
  uint64_t checked_workgroups = 0;  // workgroups traced both in full and address-only, compared
  std::string mismatch;             // the first difference when the check failed ("" otherwise)
  double seconds = 0;               // host time of the address-only run
};

// "" when `full` and `address_only` hold the same lines for workgroups 0 .. workgroups-1, else the
// first difference (workgroup, wave, access).
std::string compare_line_waves(const sim::Recording& full, const sim::Recording& address_only, uint64_t workgroups);

// The first round traced address-only, before the sampled run (so it reads global memory as the
// launch finds it; it writes none).
struct RoundLines {
  GridLinesSummary summary;
  sim::Recording lines;  // line_waves of workgroups 0 .. summary.round_workgroups-1
};

// Traces workgroups 0 .. min(plan.traced_workgroups, max_workgroups)-1 address-only through `run`
// (one functional run; launch_model.hpp's RunLaunch). Nothing is run (summary.attempted false)
// when the sampled run will trace `sampled_traced` workgroups in full and the round is no larger.
RoundLines trace_round_address_only(const std::function<sim::Stats(const sim::Options&)>& run, sim::Options sim_opt,
                                    const LaunchPlan& plan, const Hardware& hw, uint64_t max_workgroups,
                                    uint64_t sampled_traced);

// After the sampled run `rec`: when every workgroup it traced in full has the same lines in the
// address-only round, the round's lines replace rec.line_waves (summary.used); else rec is left as it
// is and summary.mismatch names the first difference.
void adopt_round_lines(sim::Recording& rec, RoundLines& round);

}  // namespace cdnajit::model
