#include "runtime/model/launch_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <future>

#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/codeobject/kernel_occupancy.hpp"

namespace cdnajit::model {

LaunchPlan plan_launch(const KernelInfo& k, Arch arch, const sim::LaunchDims& dims, const Hardware& hw) {
  if (hw.arch != arch)
    throw Error("model: product " + hw.name + " is " + std::string(arch_name(hw.arch)) + " but the kernel is " +
                std::string(arch_name(arch)) + "; pick a " + std::string(arch_name(arch)) + " product");
  LaunchPlan p;
  const uint32_t threads = dims.block[0] * dims.block[1] * dims.block[2];
  p.workgroups = uint64_t(dims.grid[0]) * dims.grid[1] * dims.grid[2];
  p.waves_per_workgroup = int((threads + 63) / 64);
  const isa::target::Occupancy occ = isa::target::occupancy(arch, int(architectural_vgprs(k)), int(k.agpr_count),
                                                            allocated_sgprs(k), k.group_segment_size + dims.dynamic_lds,
                                                            threads);
  p.waves_per_simd = occ.waves_per_simd;
  p.workgroup_slots = std::max(1, std::min(occ.waves_per_simd * hw.simds / p.waves_per_workgroup, occ.workgroups_per_cu_lds));
  p.max_workgroups = std::max(p.workgroup_slots, std::min(occ.workgroups_per_cu_lds, hw.max_workgroups_per_cu));
  p.active_cus = int(std::min<uint64_t>(uint64_t(hw.cus), p.workgroups));
  p.per_cu = (p.workgroups + uint64_t(hw.cus) - 1) / uint64_t(hw.cus);
  const uint64_t n = std::min<uint64_t>(uint64_t(p.workgroup_slots), p.per_cu);
  for (uint64_t i = 0; i < n; ++i) p.record.push_back(i * uint64_t(hw.cus));
  p.traced_workgroups = std::min({p.workgroups, uint64_t(hw.cus) * uint64_t(p.workgroup_slots), kMaxTracedWorkgroups});
  return p;
}

sim::Recording recording_for(const LaunchPlan& plan, const Hardware& hw, uint64_t max_traced) {
  sim::Recording rec;
  rec.workgroups = plan.record;
  rec.line_workgroups = std::min(plan.traced_workgroups, max_traced);
  rec.line_bytes = uint32_t(hw.cache_line);
  return rec;
}

std::vector<std::pair<std::string, double>> instructions_per_wave(const sim::Recording& rec) {
  using isa::Unit;
  // Grouped as the hardware's SQ_INSTS_* counters group them, so the figures compare with
  // profiler counts (s_waitcnt, s_nop and s_barrier are SALU-issued there; here they are listed apart).
  // The three one-instruction units are labelled by the instruction, spelt as the table spells it.
  auto named = [](isa::Opcode op) { return isa::info(op).mnemonic; };
  static const std::pair<Unit, std::string_view> kOrder[] = {
      {Unit::VALU, "VALU"}, {Unit::MFMA, "MFMA"},   {Unit::SALU, "SALU"},       {Unit::DS, "LDS"},
      {Unit::VMEM, "VMEM"}, {Unit::SMEM, "SMEM"},   {Unit::Branch, "branch"},   {Unit::Waitcnt, named(isa::Opcode::s_waitcnt)},
      {Unit::Nop, named(isa::Opcode::s_nop)}, {Unit::Barrier, named(isa::Opcode::s_barrier)}, {Unit::Misc, "other"}};
  std::vector<double> n(std::size(kOrder), 0.0);
  for (const sim::RecordedWave& w : rec.waves)
    for (const sim::RecordedStep& st : w.steps)
      for (size_t i = 0; i < std::size(kOrder); ++i)
        if (rec.ops[st.op].unit == kOrder[i].first) n[i] += 1;
  std::vector<std::pair<std::string, double>> out;
  const double waves = double(std::max<size_t>(1, rec.waves.size()));
  for (size_t i = 0; i < std::size(kOrder); ++i)
    if (n[i] > 0) out.emplace_back(std::string(kOrder[i].second), n[i] / waves);
  return out;
}

CuRunConfig cu_config(const LaunchPlan& plan, const Hardware& hw) {
  CuRunConfig cfg;
  cfg.workgroup_slots = plan.workgroup_slots;
  if (hw.free_wave_slots_at_wave_end) {
    cfg.waves_per_simd = plan.waves_per_simd;
    cfg.max_workgroups = plan.max_workgroups;
  }
  cfg.active_cus = plan.active_cus;
  return cfg;
}

namespace {

// The busiest CU's cycles for the plan at `clock` GHz: replayed whole, or a first round and the
// steady rate of a staggered replay (see the README, "Kernel time").
double replay(const sim::Recording& rec, const LaunchPlan& plan, const Hardware& hw, const ModelOptions& opt,
              const MemoryModel& mem, double clock, ModelReport& r, CuRunConfig& cfg) {
  const uint64_t k = uint64_t(plan.workgroup_slots);
  const uint64_t cap = k * uint64_t(opt.steady_rounds);
  cfg = cu_config(plan, hw);
  cfg.clock_ghz = clock;
  cfg.memory = &mem;
  cfg.trace = opt.trace;
  if (plan.per_cu <= cap) {
    // The busiest CU's whole share, replayed; all slots start together as at a kernel's start.
    cfg.workgroups = int(plan.per_cu);
    r.cu = run_cu(rec, hw, cfg);
    r.replayed_workgroups = plan.per_cu;
    return double(r.cu.cycles);
  }
  // First round as at the kernel's start (all slots together), then the remaining workgroups at
  // the steady rate of a replay whose slots start spread over one round (a long grid's slots
  // free at different times), averaged over its last two rounds.
  cfg.workgroups = int(k);
  const CuResult first = run_cu(rec, hw, cfg);
  cfg.workgroups = int(cap);
  cfg.stagger = first.cycles / k;
  cfg.trace = false;
  r.cu = run_cu(rec, hw, cfg);
  if (opt.trace) r.cu.trace = first.trace;
  r.replayed_workgroups = k + cap;
  const auto& e = r.cu.workgroup_end;
  const uint64_t span = 2 * k;
  // The rate of the last two rounds, or of every round after the first when that is slower: a
  // bandwidth-bound replay returns its last workgroups' stores in a burst at the end (the shared
  // queues serve in order of issue), which makes the last two rounds look faster than the steady rate.
  const double per_wg = std::max(double(e[cap - 1] - e[cap - span - 1]) / double(span),
                                 double(e[cap - 1] - e[k - 1]) / double(cap - k));
  return double(first.cycles) + double(plan.per_cu - k) * per_wg;
}

}  // namespace

ModelReport model_recording(const sim::Recording& rec, const LaunchPlan& plan, const Hardware& hw, const ModelOptions& opt) {
  auto t0 = std::chrono::steady_clock::now();
  if (opt.steady_rounds < 3) throw Error("model: steady_rounds must be at least 3");
  ModelReport r;
  r.model = hw.name;
  r.kernel = rec.kernel.name;
  r.plan = plan;
  const MemoryModel mem = simulate_memory(rec, hw);
  // The clock depends on the kernel's MFMA activity, the replay (through the bandwidths per cycle)
  // on the clock: replay at the non-MFMA sustained clock, then once more at the clock the MFMA
  // busy share gives when that differs.
  CuRunConfig cfg;
  double clock = hw.clock_ghz;
  double cycles = replay(rec, plan, hw, opt, mem, clock, r, cfg);
  auto mfma_share = [&] { return r.cu.busy[size_t(Pipe::Mfma)] / std::max(1.0, double(r.cu.cycles)) / hw.simds; };
  r.mfma_busy = mfma_share();
  const double loaded = hw.sustained_clock_ghz(r.mfma_busy);
  if (std::abs(loaded - clock) > 0.005 * clock) {
    clock = loaded;
    cycles = replay(rec, plan, hw, opt, mem, clock, r, cfg);
    r.mfma_busy = mfma_share();
  }
  r.clock_ghz = clock;
  r.cycles = cycles;
  r.replay_ms = cycles / (clock * 1e9) * 1e3;
  // Whole-launch traffic: the traced workgroups' bytes per workgroup times the grid. Each level's
  // achievable bandwidth for the active CUs bounds the time from below (no level faster than it).
  const double scale = double(plan.workgroups) / double(std::max<uint64_t>(1, mem.traced.workgroups));
  r.traffic = mem.traced;
  r.memory_workgroups = mem.traced.workgroups;
  r.memory_from_line_trace = mem.from_line_trace;
  for (double* b : {&r.traffic.l1_hit_bytes, &r.traffic.l2_read_bytes, &r.traffic.l2_write_bytes, &r.traffic.mall_read_bytes,
                    &r.traffic.mall_write_bytes, &r.traffic.hbm_read_bytes, &r.traffic.hbm_write_bytes})
    *b *= scale;
  r.traffic.workgroups = plan.workgroups;
  r.hbm_floor_ms = r.traffic.hbm_bytes() / hw.hbm_achievable_bytes_per_s(plan.active_cus, clock) * 1e3;
  r.mall_floor_ms = r.traffic.mall_bytes() / hw.mall_achievable_bytes_per_s(plan.active_cus, clock) * 1e3;
  r.l2_floor_ms = r.traffic.l2_bytes() / hw.l2_achievable_bytes_per_s(plan.active_cus, clock) * 1e3;
  r.ms = std::max({r.replay_ms, r.hbm_floor_ms, r.mall_floor_ms, r.l2_floor_ms});
  r.global_bytes = r.traffic.hbm_bytes();
  r.gbps = r.global_bytes / (r.ms * 1e-3) / 1e9;
  if (opt.flops > 0) r.tflops = opt.flops / (r.ms * 1e-3) / 1e12;
  // Shares over the replayed time.
  const double T = std::max(1.0, double(r.cu.cycles));
  for (int p = 0; p < int(Pipe::Count); ++p) {
    double share = r.cu.busy[size_t(p)] / T;
    if (Pipe(p) == Pipe::Valu || Pipe(p) == Pipe::Mfma) share /= hw.simds;
    if (Pipe(p) == Pipe::Lds) share /= std::max(1, hw.lds_halves);
    r.busy.emplace_back(pipe_name(Pipe(p)), share);
  }
  std::stable_sort(r.busy.begin(), r.busy.end(), [](auto& a, auto& b) { return a.second > b.second; });
  const double W = std::max<double>(1.0, double(r.cu.wave_cycles));
  for (int s = 0; s < int(Stall::Count); ++s)
    if (r.cu.stall[size_t(s)]) r.stalls.emplace_back(stall_name(Stall(s)), double(r.cu.stall[size_t(s)]) / W);
  std::stable_sort(r.stalls.begin(), r.stalls.end(), [](auto& a, auto& b) { return a.second > b.second; });
  const double turns = std::max<double>(1.0, double(r.cu.simd_turns));
  r.vector_issue_share = double(r.cu.vector_turns) / turns;
  for (int v = 0; v < int(VectorIdle::Count); ++v)
    if (r.cu.vector_idle[size_t(v)])
      r.vector_idle.emplace_back(vector_idle_name(VectorIdle(v)), double(r.cu.vector_idle[size_t(v)]) / turns);
  std::stable_sort(r.vector_idle.begin(), r.vector_idle.end(), [](auto& a, auto& b) { return a.second > b.second; });
  uint64_t full = 0, full_idle = 0, part = 0, part_idle = 0;
  for (size_t n = 0; n < r.cu.turns_by_resident_waves.size(); ++n) {
    const uint64_t t = r.cu.turns_by_resident_waves[n], idle = r.cu.idle_turns_by_resident_waves[n];
    r.mean_resident_waves += double(n) * double(t) / turns;
    (int(n) >= plan.waves_per_simd ? full : part) += t;
    (int(n) >= plan.waves_per_simd ? full_idle : part_idle) += idle;
  }
  r.full_residency_share = double(full) / turns;
  r.idle_when_full = full ? double(full_idle) / double(full) : 0;
  r.idle_when_not_full = part ? double(part_idle) / double(part) : 0;
  // Limiter: a unit busy most of the time, else the main reason waves wait.
  char buf[200];
  const double floor_ms = std::max({r.hbm_floor_ms, r.mall_floor_ms, r.l2_floor_ms});
  if (floor_ms > r.replay_ms) {
    const char* level = floor_ms == r.hbm_floor_ms ? "HBM" : floor_ms == r.mall_floor_ms ? "Infinity Cache" : "L2";
    std::snprintf(buf, sizeof buf, "%s bandwidth of the whole launch (%.4f ms at its achievable bandwidth; the busiest CU alone %.4f ms)",
                  level, floor_ms, r.replay_ms);
  } else if (!r.busy.empty() && r.busy[0].second >= 0.6) {
    std::snprintf(buf, sizeof buf, "%s (busy %.0f%% of the time)", r.busy[0].first.c_str(), 100 * r.busy[0].second);
  } else if (!r.stalls.empty()) {
    std::snprintf(buf, sizeof buf, "latency: %s (%.0f%% of wave time); busiest unit %s at %.0f%%", r.stalls[0].first.c_str(),
                  100 * r.stalls[0].second, r.busy[0].first.c_str(), 100 * r.busy[0].second);
  } else {
    std::snprintf(buf, sizeof buf, "issue (no unit saturated, no stalls)");
  }
  r.limiter = buf;
  r.per_wave = instructions_per_wave(rec);
  r.model_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

ModelReport model_run(const RunLaunch& run, sim::Memory& memory, const KernelInfo& kernel, Arch arch,
                      const sim::LaunchDims& dims, sim::Options sim_opt, const Hardware& hw, const ModelOptions& opt,
                      SimulatedGrid simulated, sim::Stats* stats_out) {
  const LaunchPlan plan = plan_launch(kernel, arch, dims, hw);
  if (simulated == SimulatedGrid::full && kernel_reads_clock(run, sim_opt)) {
    ClockedRun cr = run_with_clocks(run, memory, dims, sim_opt, hw, plan, opt);
    if (stats_out) *stats_out = cr.stats;
    sim::Recording sampled = take_workgroups(cr.rec, plan.record);
    sampled.line_workgroups = cr.rec.line_workgroups;  // the first round's lines, for the memory hierarchy
    sampled.line_bytes = cr.rec.line_bytes;
    sampled.line_waves = std::move(cr.rec.line_waves);
    // The rest of the grid's recording (every wave's steps, unless the prediction held) is freed on
    // another thread while the kernel time is modelled from the sampled workgroups: each alone runs on
    // one host thread.
    auto freed = std::async(std::launch::async, [rest = std::move(cr.rec)]() mutable { sim::Recording gone = std::move(rest); });
    ModelReport r = model_recording(sampled, plan, hw, opt);
    freed.get();
    r.sim_seconds = cr.clocks.first_run_seconds;
    r.clocks = cr.clocks;
    return r;
  }
  sim::Recording rec =
      recording_for(plan, hw, simulated == SimulatedGrid::sampled ? kSampledTracedWorkgroups : kMaxTracedWorkgroups);
  // A sampled launch's first round, address-only (grid_lines.hpp), before the sampled run so that
  // both read global memory as the launch finds it.
  RoundLines round;
  if (simulated == SimulatedGrid::sampled && opt.sampled_round_lines > 0)
    round = trace_round_address_only(run, sim_opt, plan, hw, opt.sampled_round_lines, rec.line_workgroups);
  sim_opt.recording = &rec;
  sim_opt.only_recorded_workgroups = simulated != SimulatedGrid::full;
  sim::Stats st = run(sim_opt);
  if (stats_out) *stats_out = st;
  adopt_round_lines(rec, round);
  ModelReport r = model_recording(rec, plan, hw, opt);
  r.grid_lines = round.summary;
  r.sim_seconds = st.seconds;
  r.clocks.sim_seconds = r.clocks.first_run_seconds = st.seconds;
  return r;
}

ModelReport model_launch(sim::Simulator& sim, const CodeObject& co, std::string_view kernel, std::span<const uint8_t> kernarg,
                         const sim::LaunchDims& dims, sim::Options sim_opt, const Hardware& hw, const ModelOptions& opt,
                         sim::Stats* stats_out, SimulatedGrid simulated) {
  const KernelInfo* k = co.find(kernel);
  if (!k) throw Error("model: no kernel '" + std::string(kernel) + "' in the code object");
  const RunLaunch run = [&](const sim::Options& o) { return sim.launch(co, kernel, kernarg, dims, o); };
  return model_run(run, sim.memory(), *k, co.arch, dims, sim_opt, hw, opt, simulated, stats_out);
}

std::string format_report(const ModelReport& r) {
  const std::string p = "modelled (model " + r.model + "): ";
  char b[1024];
  std::string out;
  std::snprintf(b, sizeof b, "%s%s  %.4f ms at a modelled clock of %.3f GHz (MFMA busy %.0f%%)  (%.0f cycles on the busiest CU)\n",
                p.c_str(), r.kernel.c_str(), r.ms, r.clock_ghz, 100 * r.mfma_busy, r.cycles);
  out += b;
  const double mb = 1e6;
  const double reads = r.traffic.l1_hit_bytes + r.traffic.l2_read_bytes;
  std::snprintf(b, sizeof b,
                "%smemory: HBM %.2f MB (read %.2f, write %.2f), Infinity Cache %.2f MB, L2 %.2f MB, L1 hits %.0f%% of read "
                "lines; at achievable bandwidth HBM %.4f ms, Infinity Cache %.4f ms, L2 %.4f ms; busiest CU %.4f ms; "
                "caches fed by %llu workgroups%s\n",
                p.c_str(), r.traffic.hbm_bytes() / mb, r.traffic.hbm_read_bytes / mb, r.traffic.hbm_write_bytes / mb,
                r.traffic.mall_bytes() / mb, r.traffic.l2_bytes() / mb, reads > 0 ? 100 * r.traffic.l1_hit_bytes / reads : 0.0,
                r.hbm_floor_ms, r.mall_floor_ms, r.l2_floor_ms, r.replay_ms, (unsigned long long)r.memory_workgroups,
                r.memory_from_line_trace ? " (the first round's line trace)"
                                         : " (the recorded ones' addresses only, no first-round line trace: lines other "
                                           "CUs' workgroups share are not seen)");
  out += b;
  std::snprintf(b, sizeof b, "%soccupancy %d waves/SIMD, %d workgroups/CU; %llu workgroups on %d CUs, %llu on the busiest; replayed %llu\n",
                p.c_str(), r.plan.waves_per_simd, r.plan.workgroup_slots, (unsigned long long)r.plan.workgroups,
                r.plan.active_cus, (unsigned long long)r.plan.per_cu, (unsigned long long)r.replayed_workgroups);
  out += b;
  if (r.tflops > 0) {
    std::snprintf(b, sizeof b, "%s%.2f TFLOP/s, %.1f GB/s HBM traffic\n", p.c_str(), r.tflops, r.gbps);
  } else {
    std::snprintf(b, sizeof b, "%s%.1f GB/s HBM traffic (FLOPs not given: --flops N prints TFLOP/s)\n", p.c_str(), r.gbps);
  }
  out += b;
  out += p + "busy:";
  for (auto& [n, s] : r.busy) {
    if (s < 0.005) continue;
    std::snprintf(b, sizeof b, " %s %.0f%%;", n.c_str(), 100 * s);
    out += b;
  }
  out += "\n" + p + "top stalls (share of wave time):";
  for (size_t i = 0; i < r.stalls.size() && i < 4; ++i) {
    std::snprintf(b, sizeof b, " %s %.0f%%;", r.stalls[i].first.c_str(), 100 * r.stalls[i].second);
    out += b;
  }
  std::snprintf(b, sizeof b, "\n%sSIMD vector issue (VALU, MFMA, DS): %.0f%% of issue turns; idle turns:", p.c_str(),
                100 * r.vector_issue_share);
  out += b;
  for (auto& [n, s] : r.vector_idle) {
    if (s < 0.005) continue;
    std::snprintf(b, sizeof b, " %s %.0f%%;", n.c_str(), 100 * s);
    out += b;
  }
  std::snprintf(b, sizeof b,
                "\n%swaves resident per SIMD: mean %.1f of %d slots; all filled in %.0f%% of issue turns (no vector "
                "issue in %.0f%% of those, %.0f%% of the others)",
                p.c_str(), r.mean_resident_waves, r.plan.waves_per_simd, 100 * r.full_residency_share,
                100 * r.idle_when_full, 100 * r.idle_when_not_full);
  out += b;
  out += "\n" + p + "limiter: " + r.limiter + "\n";
  if (r.clocks.reads_clock) {
    std::snprintf(b, sizeof b,
                  "%sin-kernel clocks: %llu reads in %llu workgroups, each the modelled cycle it issues at (s_memtime: "
                  "cycles at %.4g GHz from the kernel's start; s_memrealtime: %g MHz); their %d CUs modelled, %d "
                  "replayed (%llu workgroups; the others alike); %d simulator runs (%d recorded) to a fixed point "
                  "(%.3f s, the first %.3f s) + replays %.3f s",
                  p.c_str(), (unsigned long long)r.clocks.reads, (unsigned long long)r.clocks.workgroups_reading,
                  r.clocks.clock_ghz, r.clocks.realtime_mhz, r.clocks.cus_reading, r.clocks.cus_replayed,
                  (unsigned long long)r.clocks.workgroups_replayed,
                  r.clocks.runs, r.clocks.recorded_runs, r.clocks.sim_seconds, r.clocks.first_run_seconds,
                  r.clocks.replay_seconds);
    out += b;
    if (r.clocks.predicted_from && r.clocks.prediction.empty()) {
      std::snprintf(b, sizeof b, "; run 1 fed the values of a first run of the first CUs' shares (%llu workgroups, %.3f s with their replay), which held",
                    (unsigned long long)r.clocks.predicted_from, r.clocks.predict_seconds);
      out += b;
    } else if (r.clocks.predicted_from) {
      std::snprintf(b, sizeof b, "; the values predicted from the first CUs' shares (%llu workgroups, %.3f s) %s",
                    (unsigned long long)r.clocks.predicted_from, r.clocks.predict_seconds, r.clocks.prediction.c_str());
      out += b;
    }
    if (r.clocks.slice_replayed) {
      std::snprintf(b, sizeof b, " + the clock-derived slice re-executed instead of a fed run (%llu wave-instructions) %.3f s",
                    (unsigned long long)r.clocks.slice_steps, r.clocks.slice_seconds);
      out += b;
    }
    out += "\n";
  }
  if (r.grid_lines.attempted) {
    const GridLinesSummary& g = r.grid_lines;
    if (g.used)
      std::snprintf(b, sizeof b,
                    "%smemory hierarchy: cache lines of the first round's %llu workgroups, traced address-only (no MFMA "
                    "math, no global writes; %.3f s), equal to the full simulation's on the %llu workgroups run in full\n",
                    p.c_str(), (unsigned long long)g.round_workgroups, g.seconds, (unsigned long long)g.checked_workgroups);
    else
      std::snprintf(b, sizeof b,
                    "%smemory hierarchy: cache lines of the %llu workgroups run in full only (sharing with the rest of the "
                    "round not seen): the address-only trace of the round differs from the full simulation at %s\n",
                    p.c_str(), (unsigned long long)g.checked_workgroups, g.mismatch.c_str());
    out += b;
  }
  out += "instructions per wave (recorded waves, simulator counts):";
  for (auto& [n, c] : r.per_wave) {
    std::snprintf(b, sizeof b, " %s %.0f;", n.c_str(), c);
    out += b;
  }
  out += "\n";
  return out;
}

namespace {
std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (uint8_t(c) < 0x20) o += ' ';
    else o += c;
  }
  return o;
}
}  // namespace

void write_chrome_trace(const ModelReport& r, const Hardware& hw, const std::string& path) {
  if (r.cu.trace.empty()) throw Error("model: no trace was collected (ModelOptions::trace)");
  std::ofstream f(path);
  if (!f) throw Error("model: cannot write trace file '" + path + "'");
  const double us_per_cycle = 1e-3 / (r.clock_ghz > 0 ? r.clock_ghz : hw.clock_ghz);
  f << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"note\":\"modelled (model " << hw.name << "), not measured\"},\"traceEvents\":[\n";
  int max_slot = 0;
  for (const TraceEvent& e : r.cu.trace) max_slot = std::max(max_slot, e.wave);
  bool first = true;
  char b[128];
  for (int s = 0; s <= max_slot; ++s) {
    f << (first ? "" : ",\n") << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":" << s
      << ",\"args\":{\"name\":\"wave slot " << s << "\"}}";
    first = false;
  }
  f << ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"" << json_escape(r.kernel)
    << " on one CU, modelled (model " << hw.name << ")\"}}";
  for (const TraceEvent& e : r.cu.trace) {
    std::snprintf(b, sizeof b, "%.6f,\"dur\":%.6f", double(e.start) * us_per_cycle, double(std::max<uint64_t>(e.dur, 1)) * us_per_cycle);
    f << ",\n{\"ph\":\"X\",\"pid\":0,\"tid\":" << e.wave << ",\"ts\":" << b << ",\"cat\":\""
      << (e.kind == 'i' ? "issue" : e.kind == 'b' ? "barrier" : "stall") << "\",\"name\":\"" << json_escape(e.name) << "\"}";
  }
  f << "\n]}\n";
  if (!f) throw Error("model: writing trace file '" + path + "' failed");
}

}  // namespace cdnajit::model
