// selftest: the first hour on a GPU. Every registered family's kernel (its default configuration
// on its example problem, as `cdnajit job`) and the clang-compiled HIP references
// (tools/cli/selftest_kernels.hpp) run on the device under test (hip:N) and on the
// simulator of its arch with the same inputs; every allocation's bytes after every launch are
// compared; each kernel is timed on the device (warm-up, then the median of >= 20 hipEvent
// timings) beside its modelled time, and the in-kernel clock values of a clock-reading kernel
// beside the model's. A Markdown and a JSON report; exit status 1 on any bit difference or
// failed run.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "jit/isa/error.hpp"
#include "runtime/backends.hpp"
#include "runtime/model/hardware.hpp"
#include "runtime/model/model_device.hpp"
#include "runtime/model/product_file.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/selftest_kernels.hpp"
#include "tools/cli/values.hpp"

namespace cdnajit::cli {

namespace {

// Test-only: set to 1, the device side's first launch gets one bit of its output flipped, so a
// test can show that a bit difference is found and gives exit status 1 (tests/tools).
constexpr const char* kCorruptHook = "CDNAJIT_SELFTEST_CORRUPT_DEVICE_BYTE";

struct SelftestOptions {
  std::string device, out, model;
  std::vector<std::string> families;
  SelftestDevice::Timing timing;
};

struct Comparison {
  bool equal = false;
  std::string what;  // "equal (3 allocations, 12345 bytes)" or the first difference
};

Comparison compare(const SelftestLaunch& d, const SelftestLaunch& s) {
  if (d.kernel != s.kernel)
    return {false, fmt::format("the device ran {} where the simulator ran {}", d.kernel, s.kernel)};
  if (d.memory.size() != s.memory.size())
    return {false, fmt::format("{} live allocations on the device, {} on the simulator", d.memory.size(), s.memory.size())};
  size_t bytes = 0;
  for (size_t i = 0; i < d.memory.size(); ++i) {
    if (d.memory[i].name == kSelftestClockBuffer) continue;  // clock values: reported, not compared
    const auto& a = d.memory[i].bytes;
    const auto& b = s.memory[i].bytes;
    bytes += a.size();
    if (a == b) continue;
    if (a.size() != b.size())
      return {false, fmt::format("allocation '{}' has {} bytes on the device, {} on the simulator", d.memory[i].name,
                                 a.size(), b.size())};
    size_t first = 0, count = 0;
    for (size_t j = 0; j < a.size(); ++j)
      if (a[j] != b[j] && count++ == 0) first = j;
    return {false, fmt::format("'{}': {} of {} bytes differ, first at byte {} (device 0x{:02x}, simulator 0x{:02x})",
                               d.memory[i].name, count, a.size(), first, a[first], b[first])};
  }
  return {true, fmt::format("equal ({} allocations, {} bytes)", d.memory.size(), bytes)};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The median of the in-kernel clock values (int64 per wave) a launch left in its clock allocation.
std::optional<double> clock_cycles(const SelftestLaunch& l) {
  for (const SelftestBuffer& b : l.memory) {
    if (b.name != kSelftestClockBuffer || b.bytes.size() < 8) continue;
    std::vector<double> v(b.bytes.size() / 8);
    for (size_t i = 0; i < v.size(); ++i) {
      int64_t c;
      std::memcpy(&c, b.bytes.data() + 8 * i, 8);
      v[i] = double(c);
    }
    return median(v);
  }
  return std::nullopt;
}

std::string dims(Dim3 d) { return d.y == 1 && d.z == 1 ? std::to_string(d.x) : fmt::format("{}x{}x{}", d.x, d.y, d.z); }

struct Row {
  std::string family, problem, label, kernel, grid, block, compare;
  bool equal = false;
  std::vector<double> times_ms;
  std::optional<double> modelled_ms;
  bool reads_clock = false;
  uint64_t clock_reads = 0;
  std::optional<double> device_cycles, modelled_cycles;  // in-kernel clock values (median over waves)
};

int run_selftest(const SelftestOptions& o) {
  std::unique_ptr<Device> dev = open_device(o.device);
  if (dev->is_simulator()) throw Error("selftest compares a HIP device with the simulator; " + o.device + " is a simulator");
  const Arch arch = dev->arch();
  const model::Hardware& hw = model::resolve_product_or_default(o.model, arch);
  if (hw.arch != arch)
    throw Error(fmt::format("--model {} is a {} product; {} is {}", hw.name, arch_name(hw.arch), dev->name(),
                            arch_name(arch)));
  const std::string event_source = detail::hip_event_time_source(*dev);
  const bool drop_in = !event_source.empty();
  const std::string modelled_label = "modelled (model " + hw.name + ")";
  const std::string device_time_label =
      drop_in ? event_source + ", from the drop-in's hipEvents (not a GPU time)" : "hipEvent time, measured on the GPU";
  std::vector<std::string> notes;
  notes.push_back(fmt::format("device {} against the simulator sim:{}, {} warm-up and {} timed launches per kernel",
                              dev->name(), arch_name(arch), o.timing.warmups, o.timing.timings));
  if (drop_in)
    notes.push_back(fmt::format(
        "{} is cdnajit's drop-in HIP runtime (runtime/hip_sim), not a GPU: this compares the simulator with itself "
        "through two paths (the HIP API of the drop-in, and the simulator device directly), and the device times "
        "are {} through the drop-in's hipEvents, not GPU measurements",
        dev->name(), event_source));
  const bool corrupt = std::getenv(kCorruptHook) && std::string(std::getenv(kCorruptHook)) == "1";
  if (corrupt)
    notes.push_back(fmt::format("test hook {}=1: one bit of the device's first output is flipped on purpose", kCorruptHook));
  for (const std::string& n : notes) fmt::print("selftest: {}\n", n);

  // The simulator models every launch as `cdnajit run --model` does (the whole grid runs; clock
  // reads get modelled values).
  std::unique_ptr<Device> sim = open_sim_device(arch);
  auto report = std::make_shared<std::optional<model::ModelReport>>();
  auto modelled_launch = [&hw, report](Device& d, const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t lds,
                                       const KernelArgs& args) {
    model::ModelledLaunch m = model::model_launch(d, k, grid, block, lds, args, hw);
    *report = std::move(m.report);
    return std::move(m.launch);
  };
  // Event-timed launches also pay the product's launch overhead (Hardware::launch_overhead_us):
  // the modelled figure beside a device's hipEvent time is the kernel's modelled time plus it.
  auto after_sim_launch = [report, overhead_ms = hw.launch_overhead_us * 1e-3](SelftestLaunch& l) {
    if (!*report) return;
    l.modelled_ms = (*report)->ms + overhead_ms;
    l.reads_clock = (*report)->clocks.reads_clock;
    l.clock_reads = (*report)->clocks.reads;
    report->reset();
  };

  std::vector<Row> rows;
  std::vector<std::string> failures, skipped;
  const std::vector<SelftestKernelSet> sets = selftest_kernel_sets(arch, &skipped);
  for (const std::string& s : skipped) {
    const std::string family = s.substr(0, s.find(':'));
    if (o.families.empty() || std::find(o.families.begin(), o.families.end(), family) != o.families.end())
    {
      notes.push_back(fmt::format("not on {}: {}", arch_name(arch), s));
      fmt::print("selftest: {}\n", notes.back());
    }
  }
  for (const SelftestKernelSet& set : sets) {
    if (!o.families.empty() && std::find(o.families.begin(), o.families.end(), set.family) == o.families.end()) continue;
    fmt::print("selftest: {} ({})\n", set.family, set.problem);
    std::cout.flush();
    SelftestDevice on_dev(*dev, o.timing, {}, corrupt);
    SelftestDevice on_sim(*sim, std::nullopt, after_sim_launch, false, modelled_launch);
    std::string error;
    for (auto [d, side] : {std::pair<SelftestDevice*, const char*>{&on_dev, "the device"}, {&on_sim, "the simulator"}}) {
      try {
        set.run(*d);
      } catch (const std::exception& e) {
        error += fmt::format("{}{} on {}: {}", error.empty() ? "" : "; ", set.family, side, e.what());
      }
    }
    if (!error.empty()) failures.push_back(error);
    const auto& dl = on_dev.launches();
    const auto& sl = on_sim.launches();
    if (dl.size() != sl.size())
      failures.push_back(fmt::format("{}: {} launches on the device, {} on the simulator", set.family, dl.size(), sl.size()));
    for (size_t i = 0; i < std::min(dl.size(), sl.size()); ++i) {
      Comparison c = compare(dl[i], sl[i]);
      Row r{set.family, set.problem, dl[i].label, dl[i].kernel, dims(dl[i].grid), dims(dl[i].block), c.what, c.equal,
            dl[i].times_ms, sl[i].modelled_ms, sl[i].reads_clock, sl[i].clock_reads, clock_cycles(dl[i]),
            clock_cycles(sl[i])};
      if (!c.equal) failures.push_back(fmt::format("{} ({}): {}", r.label, r.kernel, c.what));
      fmt::print("  {:<56} {:<28} {}{}{}\n", r.label, r.kernel, c.equal ? "bits equal" : "BITS DIFFER: " + c.what,
                 r.times_ms.empty() ? "" : fmt::format(", device {:.4f} ms, {} {:.4f} ms", median(r.times_ms),
                                                        modelled_label, r.modelled_ms.value_or(0)),
                 r.device_cycles && r.modelled_cycles
                     ? fmt::format("; in-kernel clock: device {:.0f} cycles, modelled {:.0f}", *r.device_cycles,
                                   *r.modelled_cycles)
                     : "");
      rows.push_back(std::move(r));
    }
  }

  // The reports.
  const size_t differing = size_t(std::count_if(rows.begin(), rows.end(), [](const Row& r) { return !r.equal; }));
  const std::string verdict =
      failures.empty() ? fmt::format("PASS: {} launches, every compared allocation bit-identical on {} and the simulator", rows.size(), dev->name())
                       : fmt::format("FAIL: {} problem(s), {} of {} launches differ", failures.size(), differing, rows.size());
  fmt::print("selftest: {}\n", verdict);
  for (const std::string& f : failures) fmt::print("selftest:   {}\n", f);
  if (o.out.empty()) return failures.empty() ? 0 : 1;

  std::string md = fmt::format("# cdnajit selftest: {}\n\n", dev->name());
  for (const std::string& n : notes) md += "- " + n + "\n";
  md += fmt::format("- device time: {}; median of {} launches (min .. max)\n", device_time_label, o.timing.timings);
  md += fmt::format("- modelled time: {}, the simulator's timing model of each launch (the whole grid) plus the "
                    "model's launch overhead of {} us (what a hipEvent pair around the launch also measures)\n",
                    modelled_label, hw.launch_overhead_us);
  md += "- bits: every live allocation after each launch, device vs simulator (except the in-kernel clock values of the "
        "clock kernel, reported in the last column)\n\n";
  md += fmt::format("**{}**\n\n", verdict);
  md += fmt::format("| kernel set | launch | kernel | grid x block | bits | device time ms | {} ms | in-kernel clock reads |\n",
                    modelled_label);
  md += "|---|---|---|---|---|---|---|---|\n";
  nlohmann::json launches = nlohmann::json::array();
  for (const Row& r : rows) {
    const auto [lo, hi] = r.times_ms.empty() ? std::pair{0.0, 0.0}
                                             : std::pair{*std::min_element(r.times_ms.begin(), r.times_ms.end()),
                                                         *std::max_element(r.times_ms.begin(), r.times_ms.end())};
    std::string clocks = r.reads_clock ? fmt::format("{} reads (their values are part of the compared bits)", r.clock_reads) : "none";
    if (r.device_cycles && r.modelled_cycles)
      clocks = fmt::format("{} reads; cycles between two reads, median over waves: device {:.0f}{}, {} {:.0f}",
                           r.clock_reads, *r.device_cycles, drop_in ? " (the drop-in's: modelled)" : " (measured)",
                           modelled_label, *r.modelled_cycles);
    md += fmt::format("| {} ({}) | {} | `{}` | {} x {} | {} | {} | {} | {} |\n", r.family, r.problem, r.label, r.kernel,
                      r.grid, r.block, r.equal ? "equal" : "**differ**: " + r.compare,
                      r.times_ms.empty() ? "-" : fmt::format("{:.4f} ({:.4f} .. {:.4f})", median(r.times_ms), lo, hi),
                      r.modelled_ms ? fmt::format("{:.4f}", *r.modelled_ms) : "-", clocks);
    nlohmann::json j = {{"family", r.family}, {"problem", r.problem}, {"launch", r.label}, {"kernel", r.kernel},
                        {"grid", r.grid}, {"block", r.block}, {"bits_equal", r.equal}, {"compare", r.compare},
                        {"device_times_ms", r.times_ms}, {"reads_clock", r.reads_clock}, {"clock_reads", r.clock_reads}};
    j["device_median_ms"] = r.times_ms.empty() ? nlohmann::json() : nlohmann::json(median(r.times_ms));
    j["modelled_ms"] = r.modelled_ms ? nlohmann::json(*r.modelled_ms) : nlohmann::json();
    j["device_clock_cycles"] = r.device_cycles ? nlohmann::json(*r.device_cycles) : nlohmann::json();
    j["modelled_clock_cycles"] = r.modelled_cycles ? nlohmann::json(*r.modelled_cycles) : nlohmann::json();
    launches.push_back(std::move(j));
  }
  if (!failures.empty()) {
    md += "\n## Problems\n\n";
    for (const std::string& f : failures) md += "- " + f + "\n";
  }
  nlohmann::json doc = {{"device", dev->name()},
                        {"arch", std::string(arch_name(arch))},
                        {"drop_in", drop_in},
                        {"device_time", device_time_label},
                        {"modelled_time", modelled_label},
                        {"warmups", o.timing.warmups},
                        {"timings", o.timing.timings},
                        {"notes", notes},
                        {"pass", failures.empty()},
                        {"failures", failures},
                        {"launches", launches}};
  for (const auto& [path, text] : {std::pair{o.out + ".md", md}, std::pair{o.out + ".json", doc.dump(2) + "\n"}}) {
    std::ofstream f(path);
    f << text;
    if (!f.flush()) throw Error("cannot write " + path);
    fmt::print("selftest: wrote {}\n", path);
  }
  return failures.empty() ? 0 : 1;
}

}  // namespace

void add_selftest_command(CommandLine& cl) {
  auto o = std::make_shared<SelftestOptions>();
  CLI::App* c = cl.add("selftest",
                       "run every registered family's default kernel and the clang HIP references on a HIP device and on the "
                       "simulator with the same inputs: compare every output bit, time each kernel with hipEvents "
                       "beside its modelled time; Markdown + JSON report; exit 1 on any difference",
                       [o] { return run_selftest(*o); });
  c->add_option("--device", o->device, "the HIP device under test: hip:N")
      ->required()
      ->check([](const std::string& t) -> std::string {
        std::string why;
        auto spec = parse_device_spec(t, &why);
        if (!spec) return why;
        return spec->simulator ? "selftest compares a HIP device (hip:N) with the simulator; '" + t + "' is the simulator"
                               : "";
      });
  c->add_option("--out", o->out, "write the report to PREFIX.md and PREFIX.json");
  c->add_option("--model", o->model, "timing-model product for the modelled times (default: mi300x on gfx942, "
                                     "mi350x on gfx950, as the drop-in runtime)");
  add_typed_option(c, "--timings", o->timing.timings,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 20, 100000)); },
                   "timed launches per kernel, at least 20 (default 20); the median is reported");
  add_typed_option(c, "--warmups", o->timing.warmups,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 0, 1000)); },
                   "untimed launches before the timed ones (default 3)");
  c->add_option("--family", o->families,
                fmt::format("only these kernel sets (repeatable): {}", fmt::join(selftest_set_names(), ", ")))
      ->check(CLI::IsMember(selftest_set_names()));
  c->parse_complete_callback([o] {
    if (!o->model.empty()) model::resolve_product(o->model);  // unknown product: a usage error naming the valid ones
    if (!o->out.empty()) {
      check_writable(o->out + ".md", "--out");
      check_writable(o->out + ".json", "--out");
    }
  });
}

}  // namespace cdnajit::cli
