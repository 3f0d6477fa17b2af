// In-kernel clocks under the timing model (clock_reads.hpp).
#include "runtime/model/clock_reads.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <map>
#include <unordered_map>

#include "jit/isa/error.hpp"
#include "runtime/model/cu_model.hpp"
#include "runtime/model/launch_model.hpp"
#include "runtime/model/parallel_for.hpp"
#include "runtime/model/workgroup_digest.hpp"
#include "runtime/sim/clock_slice.hpp"
#include "runtime/sim/clock_taint.hpp"
#include "runtime/sim/write_journal.hpp"

namespace cdnajit::model {

namespace {

std::string wave_where(const sim::RecordedWave& w) {
  return "workgroup " + std::to_string(w.workgroup) + " wave " + std::to_string(w.wave_in_wg);
}

std::string step_text(const sim::Recording& r, const sim::RecordedWave& w, size_t i) {
  if (i >= w.steps.size()) return "(the wave had ended)";
  const sim::RecordedOp& op = r.ops[w.steps[i].op];
  char pc[32];
  std::snprintf(pc, sizeof pc, "pc 0x%x", op.pc);
  return std::string(pc) + " '" + op.text + "'";
}

// The CUs (ascending, each once) that hold the given workgroups under round-robin dispatch.
std::vector<uint64_t> reader_cus(std::span<const uint64_t> workgroups, uint64_t cus) {
  std::vector<uint64_t> cu_list;
  for (uint64_t w : workgroups) cu_list.push_back(w % cus);
  std::sort(cu_list.begin(), cu_list.end());
  cu_list.erase(std::unique(cu_list.begin(), cu_list.end()), cu_list.end());
  return cu_list;
}

bool is_subset(std::span<const uint64_t> sorted_small, std::span<const uint64_t> sorted_big) {
  return std::includes(sorted_big.begin(), sorted_big.end(), sorted_small.begin(), sorted_small.end());
}

}  // namespace

bool kernel_reads_clock(const std::function<sim::Stats(const sim::Options&)>& run, sim::Options sim_opt) {
  sim::Recording probe;  // no workgroups: the launch only decodes and fills the static facts
  sim_opt.recording = &probe;
  sim_opt.only_recorded_workgroups = true;
  sim_opt.clock_feed = nullptr;
  run(sim_opt);
  return std::any_of(probe.ops.begin(), probe.ops.end(), [](const sim::RecordedOp& o) { return o.clock != sim::ClockKind::None; });
}

std::vector<uint64_t> clock_workgroups(const LaunchPlan& plan, const Hardware& hw, std::span<const uint64_t> readers) {
  const uint64_t cus = uint64_t(hw.cus);
  const std::vector<uint64_t> cu_list = reader_cus(readers, cus);
  std::vector<uint64_t> out;
  for (uint64_t cu : cu_list)
    for (uint64_t w = cu; w < plan.workgroups; w += cus) out.push_back(w);
  std::sort(out.begin(), out.end());
  return out;
}

std::string first_difference(const sim::Recording& a, const sim::Recording& b) {
  if (a.workgroups != b.workgroups || a.waves.size() != b.waves.size())
    return "the runs recorded different workgroups (internal error)";
  for (size_t wi = 0; wi < a.waves.size(); ++wi) {
    const sim::RecordedWave &x = a.waves[wi], &y = b.waves[wi];
    const size_t n = std::max(x.steps.size(), y.steps.size());
    for (size_t i = 0; i < n; ++i) {
      std::string what;
      if (i >= x.steps.size() || i >= y.steps.size() || x.steps[i].op != y.steps[i].op) {
        what = "it executed " + step_text(b, y, i) + " where the previous run executed " + step_text(a, x, i);
      } else {
        const sim::RecordedStep &s = x.steps[i], &t = y.steps[i];
        if (s.active != t.active) what = "its EXEC population changed";
        else if (s.taken != t.taken) what = std::string("the branch was ") + (t.taken ? "taken" : "not taken") + " (in the previous run " + (s.taken ? "taken" : "not taken") + ")";
        else if (s.addr_count != t.addr_count || s.affine != t.affine ||  // the stored form is unique (sim::affine_addresses)
                 !std::equal(x.addrs.begin() + s.addr_first, x.addrs.begin() + s.addr_first + (s.affine ? sim::kAffineWords : s.addr_count),
                             y.addrs.begin() + t.addr_first))
          what = "its memory addresses changed";
        if (what.empty()) continue;
        what = step_text(b, y, i) + ": " + what;
      }
      return wave_where(y) + ", its dynamic instruction #" + std::to_string(i) + " " + what;
    }
  }
  return "";
}

sim::Recording take_workgroups(sim::Recording& rec, std::span<const uint64_t> workgroups) {
  sim::Recording out;
  out.workgroups.assign(workgroups.begin(), workgroups.end());
  out.arch = rec.arch;
  out.kernel = rec.kernel;
  out.waves_per_workgroup = rec.waves_per_workgroup;
  out.ops = rec.ops;
  std::unordered_map<uint64_t, size_t> pos;
  for (size_t i = 0; i < rec.workgroups.size(); ++i) pos[rec.workgroups[i]] = i;
  const size_t wpw = rec.waves_per_workgroup;
  for (uint64_t w : workgroups) {
    auto it = pos.find(w);
    if (it == pos.end()) throw Error("model: workgroup " + std::to_string(w) + " was not recorded (internal error)");
    for (size_t k = 0; k < wpw; ++k) out.waves.push_back(std::move(rec.waves[it->second * wpw + k]));
  }
  return out;
}

namespace {

// Step 2 of the header: the issue cycle of every clock read of the CUs holding a reader.
// `grouped` runs once the shares are grouped, before any wave is moved out of `rec` (until then the
// replay only reads `rec`, so another thread may read it too).
void replay_for_clocks(sim::Recording& rec, const LaunchPlan& plan, const Hardware& hw, std::span<const uint64_t> readers,
                       bool share_equal_cus, sim::ClockFeed& feed, ClockSummary& sum, const std::function<void()>& grouped) {
  const auto t0 = std::chrono::steady_clock::now();
  feed.cycles.clear();
  const uint64_t cus = uint64_t(hw.cus);
  const std::vector<uint64_t> cu_list = reader_cus(readers, cus);
  std::unordered_map<uint64_t, size_t> pos;  // workgroup id -> position in rec.workgroups
  for (size_t i = 0; i < rec.workgroups.size(); ++i) pos[rec.workgroups[i]] = i;
  sum.cus_reading = int(cu_list.size());
  sum.cus_replayed = 0;
  sum.workgroups_replayed = 0;
  const size_t wpw = rec.waves_per_workgroup;
  std::vector<std::vector<uint64_t>> shares(cu_list.size());
  for (size_t c = 0; c < cu_list.size(); ++c)
    for (uint64_t w = cu_list[c]; w < plan.workgroups; w += cus) shares[c].push_back(w);
  // Each share's workgroup digests, on the host's threads.
  std::vector<std::vector<WorkgroupDigest>> digests;
  if (share_equal_cus) digests = share_digests(rec, shares, pos, uint64_t(hw.cache_line));
  struct Job {
    std::vector<uint64_t> share;
    int first_simd = 0;  // of the share's CU (Hardware::first_simd_of_cu)
    sim::Recording one;  // the share's waves, moved out of `rec`
    std::vector<ClockIssue> reads;
  };
  std::vector<Job> jobs;                          // the shares to replay
  std::vector<std::pair<size_t, size_t>> copies;  // (replayed share, alike share), indices into shares
  // (first SIMD, digests) -> replayed share: alike shares replay alike only from the same first SIMD.
  std::map<std::pair<int, std::vector<WorkgroupDigest>>, size_t> replayed;
  for (size_t c = 0; c < cu_list.size(); ++c) {
    const int first_simd = hw.first_simd_of_cu(cu_list[c]);
    if (share_equal_cus) {
      auto [it, fresh] = replayed.emplace(std::pair{first_simd, digests[c]}, c);
      if (!fresh) {  // the same replay: its cycles are copied wave by wave once it has run
        copies.emplace_back(it->second, c);
        continue;
      }
    }
    ++sum.cus_replayed;
    sum.workgroups_replayed += shares[c].size();
    jobs.push_back({shares[c], first_simd, {}, {}});
  }
  grouped();
  for (Job& job : jobs) job.one = take_workgroups(rec, job.share);
  // The CU replays are independent: run them on the host's threads (each its own CU model).
  CuRunConfig cfg = cu_config(plan, hw);
  cfg.clock_reads = true;
  cfg.skip_idle_cycles = true;
  parallel_for(jobs.size(), [&](size_t i) {
    CuRunConfig c = cfg;
    c.workgroups = int(jobs[i].share.size());
    c.first_simd = jobs[i].first_simd;
    jobs[i].reads = run_cu(jobs[i].one, hw, c).clock_reads;
  });
  for (Job& job : jobs) {
    for (const ClockIssue& c : job.reads)
      feed.cycles[c.workgroup * feed.waves_per_workgroup + uint64_t(c.wave_in_wg)].push_back(c.cycle);
    // Give the waves back: the recording is compared with the next run's.
    for (size_t j = 0; j < job.share.size(); ++j)
      for (size_t k = 0; k < wpw; ++k) rec.waves[pos[job.share[j]] * wpw + k] = std::move(job.one.waves[j * wpw + k]);
  }
  for (const auto& [from, to] : copies)
    for (size_t j = 0; j < shares[to].size(); ++j)
      for (size_t k = 0; k < wpw; ++k) {
        auto it = feed.cycles.find(shares[from][j] * wpw + k);
        if (it != feed.cycles.end()) feed.cycles[shares[to][j] * wpw + k] = it->second;
      }
  sum.replay_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<uint64_t> merged(std::vector<uint64_t> a, std::span<const uint64_t> b) {
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  return a;
}

// The prediction's first run stops at this host time at most (or the launch's own limit when lower): a
// workgroup that waits on others the run leaves out either ends as the simulator's deadlock or spins
// to this limit; the launch then takes run 1 without a prediction (same values, more host time).
constexpr double kPredictionSeconds = 2;

// The prediction (clock_reads.hpp): the CUs whose shares run first. Under the round-robin dispatch
// plan_launch assumes, shares come in at most two sizes: CU 0's, ceil(workgroups / CUs), and the last
// CU's, one fewer when the grid does not fill the last round; and a CU replays like another only from
// the same first SIMD (Hardware::first_simd_of_cu). Each CU's template: the first CU with its share
// size and first SIMD (indexed by CU, for the CUs that hold a workgroup).
uint64_t share_size(uint64_t nwg, uint64_t cus, uint64_t cu) { return cu < nwg ? (nwg - cu + cus - 1) / cus : 0; }
std::vector<uint64_t> share_templates(uint64_t nwg, const Hardware& hw) {
  const uint64_t cus = uint64_t(hw.cus);
  std::vector<uint64_t> t(size_t(std::min(cus, nwg)));
  std::map<std::pair<uint64_t, int>, uint64_t> first;  // (share size, first SIMD) -> first CU
  for (uint64_t c = 0; c < t.size(); ++c) t[c] = first.emplace(std::pair{share_size(nwg, cus, c), hw.first_simd_of_cu(c)}, c).first->second;
  return t;
}
std::vector<uint64_t> template_cus(const std::vector<uint64_t>& templates) {
  std::vector<uint64_t> t;
  for (uint64_t c = 0; c < templates.size(); ++c)
    if (templates[c] == c) t.push_back(c);
  return t;
}

// "" when the run fed the predicted values left every clock read a value and every CU holding a
// clock reader has a share whose workgroup digests (`full`, by workgroup id) equal those its first CU's
// share had when it ran alone (`first`, by CU: template_cus): each CU's replay is then that one's,
// whose cycles it was fed. Else why not.
std::string prediction_mismatch(const std::vector<WorkgroupDigest>& full, const std::map<uint64_t, std::vector<WorkgroupDigest>>& first,
                                std::span<const uint64_t> readers, const sim::ClockFeed& feed, uint64_t nwg, uint64_t cus,
                                const std::vector<uint64_t>& templates) {
  for (uint64_t w = 0; w < nwg; ++w)
    if (feed.unfed[w]) return "workgroup " + std::to_string(w) + " read a clock the prediction had no value for";
  const std::vector<uint64_t> cu_list = reader_cus(readers, cus);
  for (uint64_t c : cu_list) {
    const uint64_t t = templates[c];
    const std::vector<WorkgroupDigest>& want = first.at(t);
    for (uint64_t j = 0; c + j * cus < nwg; ++j)
      if (j >= want.size() || full[c + j * cus] != want[j])
        return "workgroup " + std::to_string(c + j * cus) + " (CU " + std::to_string(c) + ") does not replay alike workgroup " +
               std::to_string(t + j * cus) + " of CU " + std::to_string(t) + "'s share run alone";
  }
  return "";
}

// The launch's runs, as run_with_clocks and the prediction share them.
struct ClockRuns {
  const std::function<sim::Stats(const sim::Options&)>& run;
  sim::Memory& memory;
  const sim::WriteJournal& initial;  // the launch's memory before its first run
  sim::ClockFeed& feed;
  const Hardware& hw;
  const LaunchPlan& plan;
  const std::vector<uint64_t>& record;  // the workgroups a run of the grid records
  // The workgroups that executed a clock read in the last run.
  std::vector<uint64_t> readers() const {
    std::vector<uint64_t> r;
    for (uint64_t w = 0; w < feed.read_clock.size(); ++w)
      if (feed.read_clock[w]) r.push_back(w);
    return r;
  }
  // A run of the grid records `record` and the first round's cache lines, which the kernel time's
  // memory hierarchy reads as it does for a kernel without clock reads (launch_model.cpp).
  sim::Recording grid_recording() const {
    sim::Recording rec = recording_for(plan, hw);
    rec.workgroups = record;
    return rec;
  }
};

// The prediction (header): run the first CUs' shares alone, replay them, feed every CU the cycles of
// the first CU with a share of its size, and run the grid once. True when that run is the fixed point
// (`out` then holds it); else false, with out.clocks.prediction saying why (the launch's memory may
// have been written: the next run restores it).
bool predicted_fixed_point(const ClockRuns& L, sim::Options sim_opt, const ModelOptions& opt, ClockedRun& out) {
  const uint64_t nwg = L.plan.workgroups, limit = opt.clock_workgroups_limit;
  const Hardware& hw = L.hw;
  const LaunchPlan& plan = L.plan;
  const uint64_t cus = uint64_t(hw.cus);
  const std::vector<uint64_t> templates = share_templates(nwg, hw);
  std::vector<uint64_t> first_wgs;
  for (uint64_t c : template_cus(templates))
    for (uint64_t w = c; w < nwg; w += cus) first_wgs.push_back(w);
  std::sort(first_wgs.begin(), first_wgs.end());
  auto not_made = [&](const std::string& why) {
    out.clocks.prediction = "not made" + why;
    return false;
  };
  if (!opt.clock_predict) return not_made(" (ModelOptions::clock_predict is off)");
  if (!opt.clock_share_equal_cus) return not_made(": it needs ModelOptions::clock_share_equal_cus");
  if (nwg > limit) return not_made(": the grid has more workgroups than ModelOptions::clock_workgroups_limit");
  if (2 * first_wgs.size() > nwg) return not_made(": the first CUs' shares are most of the grid");
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t line = uint64_t(hw.cache_line), wpw = uint64_t(plan.waves_per_workgroup);
  sim::Recording first;
  first.workgroups = first_wgs;
  sim::Options o = sim_opt;
  o.recording = &first;
  o.only_recorded_workgroups = true;
  // A workgroup waiting on others that this run leaves out ends as a deadlock, or at this limit.
  if (!(o.time_limit_seconds > 0 && o.time_limit_seconds < kPredictionSeconds)) o.time_limit_seconds = kPredictionSeconds;
  L.feed.read_clock.assign(nwg, 0);
  L.feed.unfed.assign(nwg, 0);
  try {
    L.run(o);
  } catch (const Error& e) {
    return not_made(std::string(": the first CUs' workgroups did not run alone (") + e.what() + ")");
  }
  const std::vector<uint64_t> first_readers = L.readers();
  if (first_readers.empty()) return not_made(": the first CUs' workgroups read no clock");
  std::map<uint64_t, std::vector<WorkgroupDigest>> first_digests;  // by first CU
  for (uint64_t c : template_cus(templates))
    for (uint64_t w = c; w < nwg; w += cus) {
      const size_t at = size_t(std::lower_bound(first_wgs.begin(), first_wgs.end(), w) - first_wgs.begin());
      first_digests[c].push_back(digest_workgroup(first, at * wpw, line));
    }
  replay_for_clocks(first, plan, hw, first_readers, true, L.feed, out.clocks, [] {});
  for (uint64_t c = 0; c < std::min(cus, nwg); ++c) {
    const uint64_t t = templates[c];
    if (c == t) continue;
    for (uint64_t j = 0; c + j * cus < nwg; ++j)
      for (uint64_t k = 0; k < wpw; ++k) {
        auto it = L.feed.cycles.find((t + j * cus) * wpw + k);
        if (it != L.feed.cycles.end()) L.feed.cycles[(c + j * cus) * wpw + k] = it->second;
      }
  }
  out.clocks.predicted_from = first_wgs.size();
  out.clocks.predict_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  L.initial.restore(L.memory);
  L.feed.read_clock.assign(nwg, 0);
  L.feed.unfed.assign(nwg, 0);
  // Every workgroup is digested as it ends, on the thread that ran it, and only the kernel time's
  // workgroups keep their streams (the others' memory is reused by the next workgroups).
  sim::Recording rec = L.grid_recording();
  std::vector<WorkgroupDigest> digests(nwg);
  std::vector<uint32_t> reads(nwg, 0);
  std::vector<uint8_t> keep(nwg, 0);
  for (uint64_t w : plan.record) keep[w] = 1;
  rec.workgroup_done = [&](sim::Recording& r, size_t first_wave) {
    const uint64_t w = r.waves[first_wave].workgroup;
    digests[w] = digest_workgroup(r, first_wave, line);
    for (size_t k = 0; k < wpw; ++k) {
      sim::RecordedWave& rw = r.waves[first_wave + k];
      for (const sim::RecordedStep& st : rw.steps) reads[w] += r.ops[st.op].clock != sim::ClockKind::None;
      if (!keep[w]) {
        std::vector<sim::RecordedStep>().swap(rw.steps);
        std::vector<uint64_t>().swap(rw.addrs);
      }
    }
  };
  sim_opt.recording = &rec;
  const sim::Stats st = L.run(sim_opt);
  const std::vector<uint64_t> readers = L.readers();
  const std::string why = prediction_mismatch(digests, first_digests, readers, L.feed, nwg, cus, templates);
  if (why.empty()) {
    out.stats = st;
    out.clocks.runs = out.clocks.recorded_runs = 1;
    out.clocks.sim_seconds = out.clocks.first_run_seconds = st.seconds;
    out.clocks.workgroups_reading = readers.size();
    out.clocks.cus_reading = int(reader_cus(readers, cus).size());
    out.clocks.taint = "not needed (the predicted values held)";
    out.clocks.reads = 0;
    for (uint32_t n : reads) out.clocks.reads += n;
    rec.workgroup_done = nullptr;
    out.rec = std::move(rec);
    return true;
  }
  out.clocks.prediction = "did not hold: " + why;
  L.feed.cycles.clear();
  return false;
}

}  // namespace

ClockedRun run_with_clocks(const std::function<sim::Stats(const sim::Options&)>& run, sim::Memory& memory,
                           const sim::LaunchDims& dims, sim::Options sim_opt, const Hardware& hw, const LaunchPlan& plan,
                           const ModelOptions& opt) {
  if (opt.clock_runs < 2) throw Error("model: clock_runs must be at least 2 (one run to record, one fed with the model's values)");
  const uint64_t nwg = plan.workgroups;
  const uint64_t limit = opt.clock_workgroups_limit;
  ClockedRun out;
  out.clocks.reads_clock = true;
  out.clocks.recorded_runs = 0;
  out.clocks.clock_ghz = hw.clock_ghz;
  out.clocks.realtime_mhz = hw.realtime_counter_mhz;
  sim::ClockFeed feed;
  for (int i = 0; i < 3; ++i) feed.grid[i] = dims.grid[i];
  feed.waves_per_workgroup = uint32_t(plan.waves_per_workgroup);
  feed.realtime_ticks_per_cycle = hw.realtime_counter_mhz * 1e-3 / hw.clock_ghz;
  // Record every workgroup when the grid is within the limit (then one run finds them all); else the
  // kernel time's workgroups and the whole shares of the first CUs that fit the limit (clock reads
  // confined to the first workgroups, e.g. workgroup 0, are then found in one run), and the clock
  // readers' CUs in a further run once they are known.
  std::vector<uint64_t> record = merged({}, plan.record);
  if (nwg <= limit) {
    record.resize(nwg);
    for (uint64_t i = 0; i < nwg; ++i) record[i] = i;
  } else {
    std::vector<uint64_t> first_cus;
    for (uint64_t cu = 0; cu < uint64_t(hw.cus); ++cu) {
      const uint64_t n = share_size(nwg, uint64_t(hw.cus), cu);
      if (first_cus.size() + n > limit) break;
      for (uint64_t w = cu; w < nwg; w += uint64_t(hw.cus)) first_cus.push_back(w);
    }
    record = merged(record, first_cus);
  }
  // Run 1 follows the clock-derived values (sim/clock_taint.hpp) when it records every workgroup.
  const bool track_all = nwg <= limit && opt.clock_taint;
  if (!opt.clock_taint) out.clocks.taint = "not followed (ModelOptions::clock_taint is off)";
  else if (!track_all) out.clocks.taint = "not followed: the grid has more workgroups than ModelOptions::clock_workgroups_limit";
  // The launch's device memory before its first run, given back before every further run so each run
  // starts from the same inputs (a kernel that updates a buffer in place must not see its own output):
  // the pages the runs write, saved before their first write (a copy of all of the launch's memory
  // was most of the overhead's serial part, and a run whose clock-derived slice is replayed is the
  // last one).
  sim::WriteJournal initial(memory);
  sim_opt.write_journal = &initial;
  sim::Recording prev;
  bool have_prev = false;
  std::vector<uint64_t> prev_readers;
  auto finish = [&](sim::Recording&& rec) {
    out.clocks.reads = 0;
    std::vector<uint8_t> is_clock(rec.ops.size());  // a byte per instruction: the loop below visits every step
    for (size_t i = 0; i < rec.ops.size(); ++i) is_clock[i] = rec.ops[i].clock != sim::ClockKind::None;
    for (const sim::RecordedWave& w : rec.waves)
      for (const sim::RecordedStep& s : w.steps) out.clocks.reads += is_clock[s.op];
    out.rec = std::move(rec);
    return std::move(out);
  };
  sim_opt.clock_feed = &feed;
  // The prediction first (header); when it holds, its run is the fixed point.
  const ClockRuns runs{run, memory, initial, feed, hw, plan, record};
  if (predicted_fixed_point(runs, sim_opt, opt, out)) return out;
  for (int run_no = 1;; ++run_no) {
    initial.restore(memory);  // (nothing to give back before the first write)
    feed.read_clock.assign(nwg, 0);
    feed.unfed.assign(nwg, 0);
    sim::Recording rec = runs.grid_recording();
    rec.track_clock_taint = run_no == 1 && track_all;
    rec.track_clock_slice = rec.track_clock_taint && opt.clock_slice;
    sim_opt.recording = &rec;
    out.stats = run(sim_opt);
    out.clocks.runs = run_no;
    ++out.clocks.recorded_runs;
    out.clocks.sim_seconds += out.stats.seconds;
    if (run_no == 1) out.clocks.first_run_seconds = out.stats.seconds;
    std::vector<uint64_t> readers = runs.readers();
    out.clocks.workgroups_reading = readers.size();
    const bool fixed_point = have_prev && readers == prev_readers && first_difference(prev, rec).empty();
    // No clock value was read, or every value read is the model's for the streams that read it.
    if (readers.empty() || fixed_point) return finish(std::move(rec));
    const std::vector<uint64_t> needed = clock_workgroups(plan, hw, readers);
    if (needed.size() > limit)
      throw Error("model: " + std::to_string(readers.size()) + " workgroups read in-kernel clocks (s_memtime / s_memrealtime); "
                  "modelling their values needs the replay of " + std::to_string(needed.size()) +
                  " workgroups (the whole share of every CU that holds one), more than the limit of " + std::to_string(limit) +
                  " (ModelOptions::clock_workgroups_limit, cdnajit run --clock-workgroups); raise it, or read clocks in fewer "
                  "workgroups (e.g. only in workgroup 0)");
    if (run_no >= opt.clock_runs) {
      const std::string diff = have_prev ? first_difference(prev, rec) : "";
      throw Error("model: in-kernel clock values did not reach a fixed point in " + std::to_string(run_no) +
                  " runs of the simulator (ModelOptions::clock_runs, cdnajit run --clock-runs): the clock values the model "
                  "gives change the kernel's control flow or memory addresses" +
                  (!have_prev ? std::string(" (or the runs so far were needed to record the CUs of the workgroups that read clocks)")
                   : diff.empty() ? std::string(" (the set of workgroups reading clocks changed)")
                                  : "; in the last run " + diff) +
                  ". A kernel whose branches or addresses depend on clock values needs more runs, or cannot be "
                  "given self-consistent modelled clocks");
    }
    if (!is_subset(needed, record)) {
      // The readers' CUs were not recorded in this run: run again recording them (same inputs,
      // same clock values, so the same readers).
      record = merged(record, needed);
      have_prev = false;
      continue;
    }
    // The verdict on run 1's clock-derived values reads the recording alongside the replay's grouping.
    std::future<std::string> verdict;
    if (rec.track_clock_taint) verdict = std::async(std::launch::async, [&rec] { return sim::clock_taint_verdict(rec); });
    replay_for_clocks(rec, plan, hw, readers, opt.clock_share_equal_cus, feed, out.clocks, [&] {
      if (verdict.valid()) out.clocks.taint = verdict.get();
    });
    const bool proven = rec.track_clock_taint && out.clocks.taint.empty();
    prev = std::move(rec);
    have_prev = true;
    prev_readers = std::move(readers);
    if (proven && prev.track_clock_slice) {
      // No clock-derived value reaches the streams: the fed run would differ from run 1 only in the
      // clock-derived values and the memory they are stored to. Re-execute just those instructions
      // with the model's values (sim/clock_slice.hpp) on run 1's memory, unless another store of the
      // run writes where they store (then the fed run below).
      const auto t0 = std::chrono::steady_clock::now();
      const sim::SliceReplay sr = sim::replay_clock_slice(prev, memory, sim_opt, feed);
      out.clocks.slice_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      out.clocks.slice = sr.not_replayed;
      if (sr.not_replayed.empty()) {
        out.clocks.slice_replayed = true;
        out.clocks.slice_steps = sr.steps;
        return finish(std::move(prev));
      }
    }
    if (proven && run_no < opt.clock_runs) {
      // No clock-derived value reaches the streams: the run fed with the model's values executes
      // run 1's streams, so it runs without recording. Its counts are checked against run 1's all the
      // same (every read fed, same readers, same instructions per unit and active lanes): a kernel
      // whose streams change for another reason (e.g. a spin-wait on other workgroups) goes the
      // recorded way below.
      ++run_no;
      initial.restore(memory);
      feed.read_clock.assign(nwg, 0);
      feed.unfed.assign(nwg, 0);
      sim_opt.recording = nullptr;
      const sim::Stats st = run(sim_opt);
      out.clocks.runs = run_no;
      out.clocks.sim_seconds += st.seconds;
      const bool same = runs.readers() == prev_readers && std::none_of(feed.unfed.begin(), feed.unfed.end(), [](uint8_t u) { return u; }) &&
                        st.wave_instructions == out.stats.wave_instructions && st.lane_ops == out.stats.lane_ops &&
                        std::equal(std::begin(st.by_unit), std::end(st.by_unit), std::begin(out.stats.by_unit));
      if (same) {
        out.stats = st;
        return finish(std::move(prev));
      }
      out.clocks.taint = "the run fed with the model's values executed other instruction counts than run 1";
      if (run_no >= opt.clock_runs)
        throw Error("model: in-kernel clock values did not reach a fixed point in " + std::to_string(run_no) +
                    " runs of the simulator (ModelOptions::clock_runs, cdnajit run --clock-runs): " + out.clocks.taint +
                    " although no clock-derived value reaches a branch, EXEC or an address (the kernel's streams "
                    "change from run to run for another reason, e.g. waves that wait on other workgroups)");
      // Then run again recording, with the same values, and compare with run 1 (prev).
    }
  }
}

}  // namespace cdnajit::model
