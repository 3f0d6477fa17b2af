#include "runtime/model/grid_lines.hpp"

#include <algorithm>
#include <chrono>

#include "runtime/model/launch_model.hpp"

namespace cdnajit::model {

std::string compare_line_waves(const sim::Recording& full, const sim::Recording& address_only, uint64_t workgroups) {
  const size_t wpw = full.waves_per_workgroup;
  if (wpw != address_only.waves_per_workgroup) return "the two runs have different waves per workgroup";
  const size_t n = size_t(workgroups) * wpw;
  if (full.line_waves.size() < n || address_only.line_waves.size() < n) return "a run traced fewer workgroups";
  for (size_t i = 0; i < n; ++i) {
    const sim::LineWave& a = full.line_waves[i];
    const sim::LineWave& b = address_only.line_waves[i];
    if (a.access_end == b.access_end && a.lines == b.lines && a.access_bits == b.access_bits) continue;
    // The first access whose lines (or cache-policy bits) differ.
    size_t k = 0;
    const size_t accesses = std::min(a.access_end.size(), b.access_end.size());
    while (k < accesses && a.access_end[k] == b.access_end[k] && a.access_bits[k] == b.access_bits[k] &&
           std::equal(a.lines.begin() + (k ? a.access_end[k - 1] : 0), a.lines.begin() + a.access_end[k],
                      b.lines.begin() + (k ? b.access_end[k - 1] : 0)))
      ++k;
    return "workgroup " + std::to_string(i / wpw) + " wave " + std::to_string(i % wpw) + ": global access " +
           std::to_string(k) + " touches other lines (" + std::to_string(a.access_end.size()) + " accesses in full, " +
           std::to_string(b.access_end.size()) + " address-only)";
  }
  return "";
}

RoundLines trace_round_address_only(const std::function<sim::Stats(const sim::Options&)>& run, sim::Options sim_opt,
                                    const LaunchPlan& plan, const Hardware& hw, uint64_t max_workgroups,
                                    uint64_t sampled_traced) {
  RoundLines r;
  const uint64_t round = std::min(plan.traced_workgroups, max_workgroups);
  if (round <= std::min(sampled_traced, plan.workgroups)) return r;
  auto t0 = std::chrono::steady_clock::now();
  // Lines only (no recorded steps): every listed workgroup is address-only.
  r.lines = recording_for(plan, hw, round);
  r.lines.workgroups.clear();
  if (sim_opt.recording) r.lines.max_bytes = sim_opt.recording->max_bytes;
  sim_opt.recording = &r.lines;
  sim_opt.only_recorded_workgroups = true;
  sim_opt.trace_lines_address_only = true;
  sim_opt.clock_feed = nullptr;
  run(sim_opt);
  r.summary.attempted = true;
  r.summary.round_workgroups = round;
  r.summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

void adopt_round_lines(sim::Recording& rec, RoundLines& round) {
  GridLinesSummary& s = round.summary;
  if (!s.attempted) return;
  const uint64_t wpw = rec.waves_per_workgroup;
  s.checked_workgroups = wpw ? rec.line_waves.size() / wpw : 0;
  s.mismatch = s.checked_workgroups ? compare_line_waves(rec, round.lines, s.checked_workgroups)
                                    : "no workgroup was traced in full to check the round against";
  if (!s.mismatch.empty()) return;
  rec.line_waves = std::move(round.lines.line_waves);
  rec.line_workgroups = s.round_workgroups;
  s.used = true;
}

}  // namespace cdnajit::model
