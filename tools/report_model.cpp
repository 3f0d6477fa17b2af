// report_model: validation report of the timing model (tools/report_model.md).
//
//   build/tools/report_model [--model mi350x] [--channels K] [--out FILE.md] [--micro-only] [--trace-dir DIR]
//                            [--validation DIR] [--published-only]
//
// For every depthwise conv3d kernel the project can build (every JIT variant the codegen
// offers on the model's arch, and the HIP V97 reference compiled by clang), the functional
// simulator runs the seed shape (all channels unless --channels limits the simulated part;
// the model always times the full seed grid) with recording on, and the CU model gives the
// modelled time, beside the seed's measured MI350X time. Then micro-kernels with known
// physical limits. Then the published measurements of tools/validation (tools/published_points).
// Every time printed by this tool is modelled or host wall time; the only GPU figures are the
// seed's measurements and the published ones, quoted.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "codegen/dwconv3d.hpp"
#include "codegen/hip_sources.hpp"
#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"
#include "runtime/hip_source.hpp"
#include "runtime/model/launch_model.hpp"
#include "runtime/model/product_file.hpp"
#include "jit/codeobject/code_object.hpp"
#include "tools/model_dwconv.hpp"
#include "tools/model_micro_kernels.hpp"
#include "tools/published_points.hpp"
#include "tools/rank_stats.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;
using cdnajit::report::median_abs_error;
using cdnajit::report::ordered_pairs;
using cdnajit::report::ranks;
using cdnajit::report::spearman;

namespace {

// The seed's measured MI350X times (docs: depthwise-conv3d trajectory), by the seed's kernel
// name, which the codegen family registry (dw_variants(), kHipReferences) gives each kernel.
// Where the seed published per-wave PMC counters (rocprofv3 on MI350X: SQ_INSTS_VALU, _SALU,
// _LDS, _VMEM divided by SQ_WAVES), they are kept beside the time; 0 = not published.
struct SeedTime {
  const char* seed_name;
  double ms;
  double valu = 0, salu = 0, lds = 0, vmem = 0;
  int vgprs = 0, occupancy = 0;
};
constexpr SeedTime kSeed[] = {
    {"V97-origin", 0.614, 2165, 493, 374, 60, 155, 3},
    {"JIT-dot2", 0.629, 2020, 0, 558, 0, 98, 4},
    {"JIT-dot2-ilv", 0.638, 0, 0, 0, 0, 57, 8},
    {"JIT-dot2-b64", 2.631, 0, 0, 0, 0, 98, 4},
    {"JIT-dot2-pipe", 0.625, 0, 0, 0, 0, 99, 4},
    {"JIT-dot2-kwp4", 1.021, 0, 0, 0, 0, 115, 4},
    {"JIT-dot2-ilv2", 0.629, 0, 0, 0, 0, 60, 8},
    {"V97-sgb", 0.537, 0, 0, 0, 0, 86, 5},
};
const SeedTime* seed_time(std::string_view name) {
  for (const SeedTime& t : kSeed)
    if (name == t.seed_name) return &t;
  return nullptr;
}

struct Options {
  std::string model = "mi350x";
  int channels = 512;
  std::string out;
  bool micro_only = false;
  int cost_runs = 3;  // alternating runs without / with recording timed for the model's host overhead (0: none)
  std::string trace_dir;  // write each seed kernel's CU trace there as KERNEL.json
  std::string validation = "tools/validation";  // folders of published points (points.json + modelled.tsv)
  bool published_only = false;                  // only the published-measurements section and the parameters
  std::string command;
  bool help = false;
};

constexpr const char* kUsage =
    "--model NAME|FILE.json (mi300x, mi325x, mi350x, mi355x, or a product file), --channels K (1..512), --out FILE.md, --micro-only, "
    "--no-plain-run, --cost-runs N (0..20, default 3), --trace-dir DIR, --validation DIR (default tools/validation), "
    "--published-only, --help";

int whole_number(const std::string& option, const std::string& text, int lo, int hi) {
  size_t used = 0;
  long v = 0;
  try {
    v = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || v < lo || v > hi)
    throw Error(option + " '" + text + "': expected a whole number in " + std::to_string(lo) + ".." + std::to_string(hi));
  return int(v);
}

Options parse(int argc, char** argv) {
  Options o;
  o.command = "build/tools/report_model";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error("" + a + " needs a value");
      return argv[++i];
    };
    if (a == "--model") o.model = value();
    else if (a == "--channels") o.channels = whole_number(a, value(), 1, 512);
    else if (a == "--out") { o.out = value(); continue; }
    else if (a == "--micro-only") o.micro_only = true;
    else if (a == "--no-plain-run") o.cost_runs = 0;
    else if (a == "--cost-runs") o.cost_runs = whole_number(a, value(), 0, 20);
    else if (a == "--trace-dir") { o.trace_dir = value(); continue; }
    else if (a == "--validation") o.validation = value();
    else if (a == "--published-only") o.published_only = true;
    else if (a == "--help" || a == "-h") { o.help = true; return o; }
    else throw Error("unknown argument '" + a + "'; valid: " + kUsage);
    o.command += ' ';
    o.command += a;
    if (a != "--micro-only" && a != "--no-plain-run" && a != "--published-only") {
      o.command += ' ';
      o.command += argv[i];
    }
    continue;
  }
  if (o.channels < 1 || o.channels > 512) throw Error("--channels must be 1..512");
  if (o.cost_runs < 0 || o.cost_runs > 20) throw Error("--cost-runs must be 0..20");
  return o;
}

struct Row {
  std::string seed_name, kernel;
  double seed_ms = 0, model_ms = 0;
  const SeedTime* seed = nullptr;
  model::ModelReport rep;
  double sim_plain_s = 0, sim_rec_s = 0;
  sim::Recording rec;  // for re-modelling under other parameters
  model::LaunchPlan plan;
};

Row run_kernel(const Options& o, const model::Hardware& hw, const std::vector<uint8_t>& code, const std::string& kname,
               const SeedTime& seed, const char* kind) {
  std::cerr << fmt::format("{}: functional runs of {} channels, without and with recording, then the model\n", kname, o.channels)
            << std::flush;
  model::ModelOptions mo;
  mo.trace = !o.trace_dir.empty();
  auto m = model_dwconv::model_seed_kernel(hw, code, kname, o.channels, mo, o.cost_runs);
  if (mo.trace) model::write_chrome_trace(m.report, hw, o.trace_dir + "/" + kname + ".json");
  Row r;
  r.seed_name = seed.seed_name;
  r.kernel = std::string(kind) + " `" + kname + "`";
  r.seed_ms = seed.ms;
  r.seed = &seed;
  r.rep = m.report;
  r.model_ms = m.report.ms;
  r.sim_plain_s = m.sim_plain_seconds;
  r.sim_rec_s = m.sim_seconds;
  r.rec = std::move(m.recording);
  r.plan = m.plan;
  return r;
}

std::string pct(double x) { return fmt::format("{:.0f}%", 100 * x); }

// Dynamic instructions per recorded wave of one kind ("VALU", "LDS", ...); 0 when none ran.
double per_wave_count(const model::ModelReport& r, std::string_view kind) {
  for (const auto& [n, c] : r.per_wave)
    if (n == kind) return c;
  return 0;
}

// The same recordings re-modelled with one parameter choice changed: what each
// documented assumption contributes to the result.
struct Variant {
  std::string what;
  model::Hardware hw;
};
std::vector<Variant> sensitivity_variants(const model::Hardware& base) {
  std::vector<Variant> v;
  // One variant: `base` with `change` applied.
  auto add = [&](std::string what, const std::function<void(model::Hardware&)>& change) {
    model::Hardware hw = base;
    change(hw);
    v.push_back({std::move(what), hw});
  };
  using Hw = model::Hardware;
  add("this model (as in the table above)", [](Hw&) {});
  add("time at the peak engine clock instead of the sustained one", [&](Hw& h) { h.clock_ghz = base.peak_clock_ghz; });
  add("one CU-wide LDS pipe, 2 cycles per bank pass, no bandwidth floor (earlier version of this model)", [](Hw& h) {
    h.lds_halves = 1;
    h.lds_bank_cycles = 2;
    h.lds_bytes_per_clk = 1 << 20;
  });
  add("first-touch loads at the L2 latency (the seed saw a 73% L2 hit rate on V97)",
      [&](Hw& h) { h.hbm_latency = base.l2_latency; });
  add("misaligned wide LDS lanes served like aligned ones", [](Hw& h) { h.lds_misaligned_passes_per_byte = 0; });
  add("the shared LDS banks give each instruction its passes in one stretch, in issue order (earlier version of "
      "this model)",
      [](Hw& h) { h.lds_bank_passes_by_age = false; });
  add("DS instructions co-issue with VALU freely (the GCN description; earlier version of this model)",
      [](Hw& h) { h.lds_valu_issue_cycles = 0; });
  add("a workgroup's wave slots freed only when all its waves have ended (earlier version of this model)",
      [](Hw& h) { h.free_wave_slots_at_wave_end = false; });
  add("one SIMD round-robin pointer over all waves: wave k of every 4-wave workgroup on the same SIMD (earlier "
      "version of this model)",
      [](Hw& h) { h.rotate_first_simd_per_workgroup = false; });
  return v;
}


// The same recordings with each kernel at the occupancy the seed reported for its kernel (its
// compiler's or JIT's register counts), capped by this kernel's LDS: how much of the gap is
// occupancy, one of the ways this project's kernels differ from the seed's.
void write_seed_occupancy_rows(std::ostream& md, const std::vector<Row>& rows, const std::vector<double>& meas,
                               const model::Hardware& hw) {
  md << "\n### The same recordings at the seed's occupancies\n\n"
     << "The seed reported each kernel's register count and occupancy; several differ from this project's "
        "builds of the same designs (clang 22 gives V97 124 VGPRs where the seed's compiler gave 155). "
        "Each recording re-modelled with the seed's waves per SIMD (capped by the kernel's LDS), all else "
        "unchanged:\n\n"
     << "| seed kernel | this project's kernel | occupancy here | seed's occupancy | modelled " << hw.name
     << " at the seed's (ms) | modelled here (ms) | seed measured (ms) |\n|---|---|---|---|---|---|---|\n";
  std::vector<double> at_seed;
  for (const Row& r : rows) {
    model::LaunchPlan p = r.plan;
    if (r.seed->occupancy > 0) {
      p.waves_per_simd = r.seed->occupancy;
      const int by_registers = std::max(1, r.seed->occupancy * hw.simds / std::max(1, p.waves_per_workgroup));
      p.workgroup_slots = std::min(by_registers, r.plan.max_workgroups);
      p.waves_per_simd = std::min(p.waves_per_simd, p.workgroup_slots * p.waves_per_workgroup / hw.simds);
      p.max_workgroups = std::max(p.workgroup_slots, r.plan.max_workgroups);
    }
    model::ModelOptions mo;
    mo.flops = seed_shape().gflop() * 1e9;
    at_seed.push_back(model::model_recording(r.rec, p, hw, mo).ms);
    md << fmt::format("| {} | {} | {} | {}{} | {:.3f} | {:.3f} | {:.3f} |\n", r.seed_name, r.kernel, r.plan.waves_per_simd,
                      r.seed->occupancy, p.waves_per_simd < r.seed->occupancy ? fmt::format(" (LDS allows {})", p.waves_per_simd) : "",
                      at_seed.back(), r.model_ms, r.seed_ms);
  }
  md << fmt::format("\nSpearman at the seed's occupancies: {:.3f}; median absolute error {:.1f}% (modelled times).\n",
                    spearman(meas, at_seed), 100 * median_abs_error(meas, at_seed));
}

// What the rank target (Spearman >= 0.9) asks of a model, from the measured table and the
// kernels' own instruction counts: read apart from the model's issue rules.
template <class FloorMs>
void write_rank_target_analysis(std::ostream& md, const std::vector<Row>& rows, const std::vector<double>& meas,
                                const std::vector<double>& mod, const FloorMs& floor_ms) {
  md << "\n### What the former rank target asked of the model\n\n"
     << "The seed's Spearman target (>= 0.9 over the nine kernels) is dropped in favour of the pair rule above; this "
        "section, kept for the record, shows why it could not be met from these measurements.\n\n";
  // 1. The model's own error, apart from kernel differences: time above each kernel's issue floor.
  md << "Time above the issue floor (VALU + LDS instructions x 4 cycles): the measured kernel over the seed's floor "
        "(its counters) beside the modelled kernel over this project's kernel's floor. This separates the "
        "model's issue and stall rules from the differences between this project's kernels and the seed's.\n\n"
     << "The last columns say where the model's idle turns fall: a SIMD whose wave slots are all filled "
        "rarely idles; one with a slot empty (its workgroup's waves ended at different times and the next "
        "workgroup starts only when it fits whole) idles several times as often.\n\n"
     << "| seed kernel | this project's kernel | measured / seed's issue floor | modelled / own issue floor | "
        "modelled: turns with all slots filled | no vector issue then | no vector issue with a slot empty |\n"
        "|---|---|---|---|---|---|---|\n";
  std::vector<size_t> counted;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    if (r.seed->valu <= 0 || r.seed->lds <= 0) continue;
    counted.push_back(i);
    const double own = floor_ms(per_wave_count(r.rep, "VALU") + per_wave_count(r.rep, "LDS"));
    md << fmt::format("| {} | {} | {:.2f} | {:.2f} | {} | {} | {} |\n", r.seed_name, r.kernel,
                      r.seed_ms / floor_ms(r.seed->valu + r.seed->lds), r.model_ms / own, pct(r.rep.full_residency_share),
                      pct(r.rep.idle_when_full), pct(r.rep.idle_when_not_full));
  }
  // 2. Pairs whose own floors order them opposite to the seed's floors: no issue rule can fix those.
  std::vector<std::pair<size_t, size_t>> flipped;  // (a, b): a's own floor is above b's, the seed's is below
  md << "\n";
  for (size_t x = 0; x < counted.size(); ++x)
    for (size_t y = 0; y < counted.size(); ++y) {
      const Row& a = rows[counted[x]];
      const Row& b = rows[counted[y]];
      const double seed_a = a.seed->valu + a.seed->lds, seed_b = b.seed->valu + b.seed->lds;
      const double own_a = per_wave_count(a.rep, "VALU") + per_wave_count(a.rep, "LDS");
      const double own_b = per_wave_count(b.rep, "VALU") + per_wave_count(b.rep, "LDS");
      if (seed_a < seed_b && own_a > own_b) {
        flipped.push_back({counted[x], counted[y]});
        md << fmt::format("- {} vs {}: the seed's counters put {}'s issue floor {:.1f}% below {}'s; this project's "
                          "kernels put it {:.1f}% above. The kernels alone order this pair against the measurement, "
                          "before any timing rule.\n",
                          a.kernel, b.kernel, a.seed_name, 100 * (1 - floor_ms(seed_a) / floor_ms(seed_b)), b.seed_name,
                          100 * (floor_ms(own_a) / floor_ms(own_b) - 1));
      }
    }
  // 3. How close the measured times are: the cluster within 5% of V97-origin's measured time.
  double v97 = 0;
  for (const Row& r : rows)
    if (r.seed_name == std::string("V97-origin")) v97 = r.seed_ms;
  std::vector<size_t> cluster;
  for (size_t i = 0; i < rows.size(); ++i)
    if (v97 > 0 && std::fabs(meas[i] / v97 - 1) <= 0.05) cluster.push_back(i);
  if (cluster.size() >= 2 && cluster.size() <= 9) {
    double lo = meas[cluster[0]], hi = lo;
    for (size_t c : cluster) lo = std::min(lo, meas[c]), hi = std::max(hi, meas[c]);
    const auto all = report::cluster_orders(meas, cluster, 0.9);
    md << fmt::format("- {} of the {} kernels were measured within 5% of V97-origin ({:.3f}-{:.3f} ms, {:.1f}% apart "
                      "end to end). A model that ranks every other kernel right and these {} in an arbitrary order "
                      "reaches Spearman >= 0.9 in {} of their {} orders ({:.1f}%; mean {:.3f}, best {:.3f}).\n",
                      cluster.size(), rows.size(), lo, hi, 100 * (hi / lo - 1), cluster.size(), all.reaching, all.orders,
                      100.0 * double(all.reaching) / double(all.orders), all.mean_spearman, all.best_spearman);
    std::vector<std::pair<size_t, size_t>> keep;
    for (auto [a, b] : flipped)
      if (std::find(cluster.begin(), cluster.end(), a) != cluster.end() &&
          std::find(cluster.begin(), cluster.end(), b) != cluster.end())
        keep.push_back({a, b});
    if (!keep.empty()) {
      const auto kept = report::cluster_orders(meas, cluster, 0.9, keep);
      md << fmt::format("- Keeping the pair(s) above in the order their own floors give: {} of {} orders reach 0.9.\n",
                        kept.reaching, kept.orders);
    }
  }
  // 4. The measurement's own spread: the seed measured some kernels more than once.
  //    JIT-dot2: 0.619 and 0.629 ms in different phases. Phase 12c ran V97-origin and V97-sgb side by side
  //    and measured 0.638 and 0.563 ms (the trajectory's headline values are 0.614 and 0.537).
  auto with_values = [&](std::initializer_list<std::pair<const char*, double>> values) {
    std::vector<double> alt = meas;
    bool changed = false;
    for (size_t i = 0; i < rows.size(); ++i)
      for (const auto& [name, value] : values)
        if (rows[i].seed_name == std::string(name)) alt[i] = value, changed = true;
    return std::make_pair(alt, changed);
  };
  if (auto [alt, changed] = with_values({{"JIT-dot2", 0.619}}); changed)
    md << fmt::format("- The seed measured JIT-dot2 at 0.619 ms in another phase: with that value the measured ranks "
                      "correlate {:.3f} with the table's, and the model's correlation is {:.3f} (instead of {:.3f}).\n",
                      spearman(meas, alt), spearman(alt, mod), spearman(meas, mod));
  if (auto [alt, changed] = with_values({{"V97-origin", 0.638}, {"V97-sgb", 0.563}}); changed)
    md << fmt::format("- The seed's Phase 12c measured V97-origin at 0.638 ms and V97-sgb at 0.563 ms side by side "
                      "(headline values 0.614 and 0.537, so one kernel's repeated measurements differ by 3.9% and 4.8%, "
                      "as much as the six clustered kernels differ from each other): with those two values the measured "
                      "ranks correlate {:.3f} with the table's, and the model's correlation is {:.3f}.\n",
                      spearman(meas, alt), spearman(alt, mod));
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "report_model: " << e.what() << "\n";
    return 2;
  }
  try {
    if (o.help) {
      std::cout << "report_model: regenerate the timing-model validation report (modelled times)\nOptions: " << kUsage << "\n";
      return 0;
    }
    const model::Hardware& hw = model::resolve_product(o.model);
    // Read before any simulation, so a malformed points file fails at once.
    const std::vector<report::PublishedPoint> published = report::load_published_points(o.validation);
    std::ostringstream md;
    md << "# Timing model validation (modelled times, model " << hw.name << ")\n\n"
       << "Regenerate: `" << o.command << " --out tools/report_model.md` (after `ninja -C build report_model`).\n\n"
       << "Every time in the \"modelled\" columns comes from the project's CU timing model (runtime/model, model "
       << hw.name << ", " << hw.product << ", sustained non-MFMA clock " << hw.clock_ghz << " GHz), not from a GPU. The \"seed measured\" "
       << "column quotes the depthwise-conv3d seed's MI350X measurements. Each modelled time is at the kernel's modelled clock "
       << "(printed with it: the non-MFMA sustained clock, lower for MFMA-heavy kernels). Host times are wall-clock seconds of this run "
       << "on the development machine.\n\n";
    std::vector<Row> rows;
    if (!o.micro_only && !o.published_only) {
      const DwConvShape s = seed_shape();
      md << "## Seed depthwise kernels (shape " << s.str() << ", " << fmt::format("{:.2f}", s.gflop()) << " GFLOP)\n\n";
      if (o.channels < 512)
        md << "Functional run limited to the first " << o.channels << " channels (`--channels`); the model times the full grid.\n\n";
      // Every kernel the codegen offers on this arch that reproduces a measured seed kernel.
      for (const HipReference ref : kHipReferences) {
        const SeedTime* st = seed_time(dwconv3d_hip_seed_kernel(ref));
        if (!st) continue;
        std::vector<uint8_t> code = compile_hip_with(HipSourceBackend::Kind::clang, dwconv3d_hip_source(ref), hw.arch,
                                                     dwconv3d_hip_flags(s, ref));
        rows.push_back(run_kernel(o, hw, code, dwconv3d_hip_kernel_name(ref), *st, "HIP (clang)"));
      }
      for (const DwVariantInfo& v : dw_variants()) {
        const SeedTime* st = seed_time(v.seed_kernel);
        if (!st || !variant_available(v.id, hw.arch)) continue;
        // The seed kernel's own work mapping (its JIT kernels map one output row per wave).
        BuildResult b = build_dwconv3d(s, v.id, hw.arch, v.seed_mapping);
        rows.push_back(run_kernel(o, hw, b.code_object, b.name, *st, "JIT"));
      }
      md << "| seed kernel | this project's kernel | seed measured MI350X (ms) | modelled " << hw.name
         << " (ms) | modelled / measured | rank measured | rank modelled | occupancy (waves/SIMD) | limiter (modelled) |\n"
         << "|---|---|---|---|---|---|---|---|---|\n";
      std::vector<double> meas, mod;
      for (auto& r : rows) meas.push_back(r.seed_ms), mod.push_back(r.model_ms);
      auto rm = ranks(meas), rd = ranks(mod);
      for (size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        md << fmt::format("| {} | {} | {:.3f} | {:.3f} | {:.2f} | {:g} | {:g} | {} | {} |\n", r.seed_name, r.kernel, r.seed_ms,
                          r.model_ms, r.model_ms / r.seed_ms, rm[i], rd[i], r.rep.plan.waves_per_simd, r.rep.limiter);
      }
      const double med = median_abs_error(meas, mod);
      md << "\n";
      md << "Seed times: the trajectory's headline tables (JIT-dot2 was measured at 0.619-0.629 ms in different phases; 0.629 "
            "is used; V97-origin and V97-sgb at 0.614 and 0.537 ms, and at 0.638 and 0.563 ms side by side in Phase "
            "12c). Both V97 designs here load the input tile with global_load_lds_dword as the seed's V97 does. The "
            "seed's JIT kernels were built from pyhip's conv_depthwise_3d_jit, which gives each wave whole output rows "
            "(rows w, w+4, ...) and each lane KW_PACK adjacent outputs of the row, so at W_out = 80 a wave uses 40 of "
            "its 64 lanes (20 at KW_PACK 4); the JIT rows here are built with that mapping (DwMapping::wave_rows, "
            "`cdnajit seed --mapping wave_rows`), which brings their VALU and LDS instructions per wave within 10% "
            "of the seed's counters (table below). The seed's JIT-dot2-kwp4 computed wrong results (an indexing bug) "
            "and its instruction stream is not published; this project's kwp4 is a correct kernel of the same design.\n\n";
      // The seed's rank target, restated (issue 26 item 8): its repeated measurements of one kernel
      // differ by up to 4.8%, so only pairs measured 10% or more apart must keep their order.
      const auto po = ordered_pairs(meas, mod, 1.10);
      md << fmt::format("- Pairs of seed kernels measured 10% or more apart, ordered the same way by the model: {} of {} "
                        "(target: all)\n", po.right, po.pairs);
      for (const auto& [fast, slow] : po.wrong)
        md << fmt::format("  - ordered wrongly: {} (measured {:.3f} ms, modelled {:.3f}) vs {} (measured {:.3f} ms, "
                          "modelled {:.3f})\n", rows[fast].seed_name, meas[fast], mod[fast], rows[slow].seed_name,
                          meas[slow], mod[slow]);
      md << fmt::format("- Median absolute error: {:.1f}% (target <= 10%)\n", 100 * med);
      md << fmt::format("- Spearman rank correlation (information only; the target on it was dropped because six kernels "
                        "were measured within 4% of each other): {:.3f}\n", spearman(meas, mod));
      double v97 = 0;
      for (auto& r : rows) if (r.kernel == "JIT `dwconv3d_lds_fmac`") v97 = r.model_ms;
      for (auto& r : rows)
        if (r.seed_ms >= 1.5 * 0.614)
          md << fmt::format("- {}: measured {:.2f}x V97, modelled {:.2f}x the V97 design (JIT lds_fmac) (target >= 1.3x)\n", r.seed_name, r.seed_ms / 0.614,
                            v97 > 0 ? r.model_ms / v97 : std::nan(""));
      // The project's default (dense) mapping of the same JIT designs: not measured by the seed.
      std::vector<Row> dense;
      for (const DwVariantInfo& v : dw_variants()) {
        const SeedTime* st = seed_time(v.seed_kernel);
        if (!st || v.seed_mapping == DwMapping::dense || !variant_available(v.id, hw.arch)) continue;
        BuildResult b = build_dwconv3d(s, v.id, hw.arch, DwMapping::dense);
        dense.push_back(run_kernel(o, hw, b.code_object, b.name, *st, "JIT"));
      }
      if (!dense.empty()) {
        md << "\n### The same JIT designs in this project's dense mapping (not measured by the seed)\n\n"
           << "DwMapping::dense (the default of `build_dwconv3d`) spreads the work items over all 256 threads as V97 "
              "does, so no lane idles. Same arithmetic and bits as the rows above; modelled times only.\n\n"
           << "| seed design | kernel (dense mapping) | modelled " << hw.name << " (ms) | vs the wave_rows kernel above | "
              "VALU per wave | limiter (modelled) |\n|---|---|---|---|---|---|\n";
        for (const Row& d : dense) {
          double twin = 0;
          for (const Row& r : rows)
            if (r.seed_name == d.seed_name && r.kernel != d.kernel) twin = r.model_ms;
          md << fmt::format("| {} | {} | {:.3f} | {:.2f}x | {:.0f} | {} |\n", d.seed_name, d.kernel, d.model_ms,
                            twin > 0 ? d.model_ms / twin : std::nan(""), per_wave_count(d.rep, "VALU"), d.rep.limiter);
        }
      }
      md << "\n### What the model was given: this project's kernels beside the seed's\n\n"
         << "Instructions per wave are the simulator's dynamic counts over the recorded waves ("
         << isa::info(isa::Opcode::s_waitcnt).mnemonic << ", " << isa::info(isa::Opcode::s_nop).mnemonic << " and "
         << isa::info(isa::Opcode::s_barrier).mnemonic << " apart from SALU); the seed's are its rocprofv3 counters per wave and its compiler/JIT register "
            "reports. The model can only be as close to the seed's times as these kernels are to the seed's.\n\n"
         << "VALU floor = VALU instructions per wave x 4 cycles x waves per SIMD over the grid, at the modelled clock: "
            "the time the SIMDs need for the VALU work alone (the seed's from its counters and the same clock). "
            "Issue floor = (VALU + LDS instructions) x 4 cycles x waves per SIMD: the floor when a DS instruction takes "
            "its SIMD's VALU turn (Hardware::lds_valu_issue_cycles = 4). The seed's two profiled kernels ran at "
            "its measured time within a few percent of their issue floor, far above their VALU floor.\n\n"
         << "| seed kernel | this project's kernel | VALU | SALU | LDS | VMEM | VGPRs | occupancy | VALU floor (ms) | issue floor (ms) | seed: VALU | SALU | LDS | VMEM | VGPRs | occupancy | VALU floor (ms) | issue floor (ms) | seed measured (ms) |\n"
         << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
      const double waves_per_simd_total =
          double(rows.empty() ? 0 : rows[0].plan.workgroups) * 4.0 / double(hw.cus * hw.simds);
      auto valu_floor_ms = [&](double valu) {
        return valu * hw.valu_cycles * waves_per_simd_total / (hw.clock_ghz * 1e9) * 1e3;
      };
      for (auto& r : rows) {
        auto count = [&](const char* kind) { return fmt::format("{:.0f}", per_wave_count(r.rep, kind)); };
        auto seed_count = [](double v) { return v > 0 ? fmt::format("{:.0f}", v) : std::string("-"); };
        const KernelInfo& ki = r.rec.kernel;
        const double valu = per_wave_count(r.rep, "VALU");
        const double lds = per_wave_count(r.rep, "LDS");
        auto seed_floor = [&](double v) { return r.seed->valu > 0 ? fmt::format("{:.3f}", valu_floor_ms(v)) : std::string("-"); };
        md << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {:.3f} | {:.3f} | {} | {} | {} | {} | {} | {} | {} | {} | {:.3f} |\n",
                          r.seed_name, r.kernel, count("VALU"), count("SALU"), count("LDS"), count("VMEM"), ki.vgpr_count,
                          r.rep.plan.waves_per_simd, valu_floor_ms(valu), valu_floor_ms(valu + lds), seed_count(r.seed->valu),
                          seed_count(r.seed->salu), seed_count(r.seed->lds), seed_count(r.seed->vmem),
                          seed_count(r.seed->vgprs), seed_count(r.seed->occupancy), seed_floor(r.seed->valu),
                          r.seed->lds > 0 ? seed_floor(r.seed->valu + r.seed->lds) : std::string("-"), r.seed_ms);
      }
      write_rank_target_analysis(md, rows, meas, mod, valu_floor_ms);
      write_seed_occupancy_rows(md, rows, meas, hw);
      md << "\n### Sensitivity: the same recordings under other parameter choices\n\n"
         << "| variant |";
      for (auto& r : rows) md << " " << r.seed_name << " |";
      md << " pairs >= 10% apart ordered right | median abs error |\n|---|";
      for (size_t i = 0; i < rows.size(); ++i) md << "---|";
      md << "---|---|\n";
      for (const Variant& v : sensitivity_variants(hw)) {
        std::vector<double> t;
        md << "| " << v.what << " |";
        for (auto& r : rows) {
          model::ModelOptions mo;
          mo.flops = seed_shape().gflop() * 1e9;
          t.push_back(model::model_recording(r.rec, r.plan, v.hw, mo).ms);
          md << fmt::format(" {:.3f} |", t.back());
        }
        const auto pv = ordered_pairs(meas, t, 1.10);
        md << fmt::format(" {} of {} | {:.1f}% |\n", pv.right, pv.pairs, 100 * median_abs_error(meas, t));
      }
      md << "\nTimes in ms, modelled (model " << hw.name << " with the one change named).\n";
      md << "\n### Model detail per kernel\n\n";
      for (auto& r : rows) {
        md << "**" << r.seed_name << "** (" << r.kernel << ")\n\n```\n" << model::format_report(r.rep) << "```\n\n";
      }
      md << "### Cost of the model (host)\n\n| kernel | functional run (s) | functional run with recording (s) | CU replay (s) | "
            "overhead / functional run |\n|---|---|---|---|---|\n";
      for (auto& r : rows) {
        if (r.sim_plain_s > 0)
          md << fmt::format("| {} | {:.2f} | {:.2f} | {:.3f} | {:.2f} |\n", r.kernel, r.sim_plain_s, r.sim_rec_s,
                            r.rep.model_seconds, (r.sim_rec_s + r.rep.model_seconds - r.sim_plain_s) / r.sim_plain_s);
        else
          md << fmt::format("| {} | not run (--cost-runs 0) | {:.2f} | {:.3f} | - |\n", r.kernel, r.sim_rec_s, r.rep.model_seconds);
      }
      double load[1] = {0};
      getloadavg(load, 1);
      const std::string runs = o.cost_runs == 1 ? std::string("one run without and one with recording (the report's own), "
                                                             "one after the other")
                                                 : fmt::format("medians of {} runs without and {} with recording, alternating, "
                                                               "so a change of load hits both alike", o.cost_runs, o.cost_runs);
      md << fmt::format("\nOverhead / functional run = (run with recording + replay - plain run) / plain run; the target "
                        "(issue 26) is at most 2, i.e. modelling costs at most 2x the functional simulation time on top of "
                        "it, as `tools/model_clock_overhead.sh` computes it for a kernel that reads in-kernel clocks. Run times are "
                        "{}; host load average {:.1f} when the report was written. Runs this short (about a second) "
                        "still vary by 10-20% from run to run.\n\n",
                        runs, load[0]);
    }
    // Micro-kernels.
    if (!o.published_only) {
      md << "## Micro-kernels with known physical limits (" << hw.name << ")\n\n"
         << "| kernel | modelled (ms) | modelled rate | physical peak | share of peak | limiter (modelled) |\n|---|---|---|---|---|---|\n";
      {
        auto copy = model_micro::stream_copy(hw.arch, hw, 8192);
        double gbps = copy.bytes / (copy.report.ms * 1e-3) / 1e9;
        md << fmt::format("| {} ({:.0f} MB moved) | {:.4f} | {:.0f} GB/s | {:.0f} GB/s HBM | {} | {} |\n", copy.name, copy.bytes / 1e6,
                          copy.report.ms, gbps, hw.hbm_tbps * 1e3, pct(gbps / (hw.hbm_tbps * 1e3)), copy.report.limiter);
        auto mf = model_micro::mfma_loop(hw.arch, hw, 2048, 64);
        const isa::InstrInfo* mi = &isa::info(isa::Opcode::v_mfma_f32_32x32x8_bf16);
        double peak = hw.peak_mfma_flops(32 * 32 * 8 * 2, isa::mfma_passes(*mi, hw.arch));
        md << fmt::format("| {} | {:.4f} | {:.1f} TFLOP/s | {:.1f} TFLOP/s | {} | {} |\n", mf.name, mf.report.ms, mf.report.tflops,
                          peak / 1e12, pct(mf.report.tflops * 1e12 / peak), mf.report.limiter);
        auto va = model_micro::valu_loop(hw.arch, hw, 2048, 64);
        double vpeak = hw.peak_valu_flops_f32();
        md << fmt::format("| {} | {:.4f} | {:.1f} TFLOP/s | {:.1f} TFLOP/s (non-packed FP32 FMA) | {} | {} |\n", va.name, va.report.ms,
                          va.report.tflops, vpeak / 1e12, pct(va.report.tflops * 1e12 / vpeak), va.report.limiter);
        double base = 0;
        for (int stride : {1, 2, 4, 8, 16, 32}) {
          auto l = model_micro::lds_stride(hw.arch, hw, 2048, stride, 16);
          if (stride == 1) base = l.report.ms;
          // N-way: lanes per bank among the 16 (64 bytes) an LDS half serves per cycle.
          md << fmt::format("| {} | {:.4f} | {:.2f}x stride 1 | {}-way bank conflict (per 16 lanes) | - | {} |\n", l.name,
                            l.report.ms, l.report.ms / base, std::clamp(stride / 2, 1, 16), l.report.limiter);
        }
      }
      md << "\n";
    }
    report::write_published_section(md, published, "tools/validation/run_all.sh EXT_DIR build");
    md << "## Hardware parameters\n\n" << model::parameter_table_markdown() << "\nSources: see runtime/model/README.md.\n";
    if (o.out.empty()) std::cout << md.str();
    else {
      std::ofstream f(o.out);
      f << md.str();
      if (!f) throw Error("cannot write " + o.out);
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "report_model: " << e.what() << "\n";
    return 1;
  }
}
