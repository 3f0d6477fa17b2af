// calibrate: time the timing model's microbenchmarks on a HIP device with hipEvents, fit the
// parameters each one isolates, and write a product description (runtime/model/product_file.hpp)
// plus a Markdown report of modelled vs measured before and after.
//
//   cdnajit calibrate --device hip:0 --out mi300x-lab.json [--base mi300x] [--report FILE.md]
//
// Every kernel runs at two sizes and the fits use the difference of the two times, so what both
// sizes share (launch, first loads, ramp-up and drain) cancels. "Modelled" below is the base
// product's timing model of the same kernel and launch (simulator, the workgroups the model
// records); each parameter is fitted so that the model reproduces the measured difference:
//
//   parameter                   kernel                          the model's time for the difference
//   clock_ghz                   VALU loop (v_fmac_f32)          issue cycles / clock
//   mfma_dense_clock_ghz        MFMA loop (32x32x8 bf16)        MFMA cycles / the MFMA-load clock
//   hbm_achievable_share        stream copy (1 read, 1 write)   bytes / (hbm_tbps x share)
//   lds_latency                 dependent ds_read_b32 chain     accesses x (lds_latency + service)
//   lds_bytes_per_clk           conflict-free ds_read_b128      bytes / (CUs x halves x bytes_per_clk)
//
// The model has no kernel-launch overhead parameter (a launch's modelled time starts at its first
// workgroup), so none is fitted; the difference of two sizes keeps the launch cost out of the fits.
// Known limit on a GPU: the MFMA loop multiplies constant operands (B = 0), and AMD measured the
// clock of a dense GEMM on zero inputs well above the clock on real data ([MAF] in
// runtime/model/hardware.cpp: 1792 vs 1207 MHz on MI300X), so its fitted dense-MFMA clock is an
// upper bound of the clock under a real GEMM.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>

#include "tools/jobs/model_launch.hpp"
#include "jit/isa/error.hpp"
#include "runtime/backends.hpp"
#include "runtime/device.hpp"
#include "runtime/model/product_file.hpp"
#include "runtime/utc_time.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/values.hpp"
#include "tools/model_micro_kernels.hpp"

namespace cdnajit::cli {

namespace {

struct CalibrateOptions {
  std::string device, out, base, report, name;
  int repeat = 5;
  bool small = false;
};

// One microbenchmark launch: the kernel, its grid and the bytes of each pointer argument.
struct Launch {
  BuildResult kernel;
  uint32_t workgroups = 0, threads = model_micro::kMicroThreads;
  std::vector<size_t> buffers;
  double size = 0;  // the amount the kernel scales with (bytes moved, accesses, iterations)
};

// A kernel at two sizes and the parameter its difference fits.
struct Bench {
  std::string id, what, parameter, unit;  // unit of `size`
  Launch small, large;
  double measured_ms[2] = {}, before_ms[2] = {}, after_ms[2] = {};
  double before_clock_ghz = 0, before_mfma_busy = 0;  // the base model's, large size
  double base_value = 0, fitted_value = 0;
  std::string arithmetic;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

std::vector<Buffer> alloc_buffers(Device& dev, const Launch& l) {
  std::vector<Buffer> b;
  for (size_t bytes : l.buffers) b.push_back(dev.alloc(bytes, "calibrate"));
  return b;
}

KernelArgs args_of(const std::vector<Buffer>& b) {
  KernelArgs a;
  for (const Buffer& x : b) a.ptr(x);
  return a;
}

// hipEvent time of the launch: one warm-up launch, then the median of `repeat`.
double measure(Device& dev, const Launch& l, int repeat) {
  std::vector<Buffer> bufs = alloc_buffers(dev, l);
  Module m = dev.load(l.kernel.code_object);
  DeviceKernel k = m.kernel(l.kernel.name);
  const KernelArgs args = args_of(bufs);
  std::vector<double> ms;
  for (int i = 0; i <= repeat; ++i) {
    LaunchResult r = dev.launch(k, {l.workgroups}, {l.threads}, 0, args);
    if (!r.gpu_ms) throw Error(dev.name() + ": the launch returned no hipEvent time");
    if (i > 0) ms.push_back(*r.gpu_ms);
  }
  for (const Buffer& b : bufs) dev.free(b);
  return median(ms);
}

model::ModelReport modelled(Device& sim, const model::Hardware& hw, const Launch& l) {
  std::vector<Buffer> bufs = alloc_buffers(sim, l);
  model::ModelReport r = codegen::model_launch_of(sim, hw, l.kernel, {l.workgroups}, l.threads, args_of(bufs), 0);
  for (const Buffer& b : bufs) sim.free(b);
  return r;
}

// The microbenchmarks for `hw`'s CU count. `small`: the reduced sizes of the test (a few seconds
// on the simulator); otherwise sizes for a GPU, where each difference runs for milliseconds and the
// stream's arrays are several times the Infinity Cache.
std::vector<Bench> benches(Arch arch, const model::Hardware& hw, bool small) {
  namespace mm = model_micro;
  const uint32_t full_cus = uint32_t(hw.cus) * 8;  // 8 workgroups of 4 waves per CU: 8 waves per SIMD
  auto loop = [&](BuildResult (*build)(Arch, int), int iterations, uint32_t workgroups, uint32_t threads) {
    Launch l{build(arch, iterations), workgroups, threads, {size_t(workgroups) * threads * 4}, double(iterations)};
    return l;
  };
  std::vector<Bench> v;
  {
    Bench b{"valu", "VALU loop (8 independent v_fmac_f32 per iteration)", "clock_ghz", "iterations", {}, {}};
    const int i0 = small ? 100 : 20000, i1 = small ? 400 : 80000;
    b.small = loop(mm::valu_loop_kernel, i0, full_cus, mm::kMicroThreads);
    b.large = loop(mm::valu_loop_kernel, i1, full_cus, mm::kMicroThreads);
    v.push_back(std::move(b));
  }
  {
    Bench b{"mfma", "MFMA loop (4 independent v_mfma_f32_32x32x8_bf16 per iteration)", "mfma_dense_clock_ghz", "iterations",
            {}, {}};
    const int i0 = small ? 16 : 2000, i1 = small ? 64 : 8000;
    b.small = loop(mm::mfma_loop_kernel, i0, full_cus, mm::kMicroThreads);
    b.large = loop(mm::mfma_loop_kernel, i1, full_cus, mm::kMicroThreads);
    v.push_back(std::move(b));
  }
  {
    Bench b{"stream", "stream copy (1 read, 1 write of 16 bytes per work-item)", "hbm_achievable_share", "bytes", {}, {}};
    auto copy = [&](uint32_t workgroups) {
      const size_t bytes = size_t(workgroups) * mm::kMicroThreads * 16;
      return Launch{mm::stream_kernel(arch, 1, 1), workgroups, mm::kMicroThreads, {bytes, bytes}, 2.0 * double(bytes)};
    };
    b.small = copy(small ? full_cus : 65536);       // small: 8 workgroups per CU (4 KiB each); else 256 MiB per array
    b.large = copy(small ? full_cus * 4 : 262144);  // 4x that (1 GiB per array)
    v.push_back(std::move(b));
  }
  {
    Bench b{"lds_latency", "LDS chase (one wave, dependent ds_read_b32, each waited for)", "lds_latency", "accesses", {}, {}};
    const int i0 = small ? 20 : 2000, i1 = small ? 80 : 8000;
    b.small = loop(mm::lds_chase_kernel, i0, 1, 64);
    b.large = loop(mm::lds_chase_kernel, i1, 1, 64);
    b.small.size *= mm::kChaseReadsPerIteration;
    b.large.size *= mm::kChaseReadsPerIteration;
    v.push_back(std::move(b));
  }
  {
    Bench b{"lds_bandwidth", "LDS read (conflict-free ds_read_b128, 8 per wait)", "lds_bytes_per_clk", "bytes", {}, {}};
    const int i0 = small ? 20 : 2000, i1 = small ? 80 : 8000;
    b.small = loop(mm::lds_read_b128_kernel, i0, full_cus, mm::kMicroThreads);
    b.large = loop(mm::lds_read_b128_kernel, i1, full_cus, mm::kMicroThreads);
    for (Launch* l : {&b.small, &b.large}) l->size *= double(l->workgroups) * (l->threads / 64) * mm::kB128ReadsPerIteration * 1024;
    v.push_back(std::move(b));
  }
  return v;
}

using ModelMs = std::function<double(const model::Hardware&, const Launch&)>;

// Fits each parameter from its kernel's measured and modelled differences (ms). The model's
// time of each difference is its arithmetic in the table at the top of this file; the fitted
// value is the one for which that arithmetic gives the measured difference. `model_ms` models a
// launch with a product (the LDS latency is fitted last, against the product fitted so far: the
// chain's service time per access depends on the LDS bandwidth too).
model::Hardware fit(const model::Hardware& base, std::vector<Bench>& bs, const ModelMs& model_ms) {
  model::Hardware hw = base;
  auto delta = [](const double (&t)[2]) { return t[1] - t[0]; };
  auto find = [&](const std::string& id) -> Bench& {
    for (Bench& b : bs)
      if (b.id == id) return b;
    throw Error("calibrate: internal: no benchmark " + id);
  };
  for (Bench& b : bs)
    if (!(delta(b.measured_ms) > 0))
      throw Error(fmt::format("calibrate: {}: the larger launch was not slower ({:.6f} ms vs {:.6f} ms); the timings "
                              "cannot be fitted (is the device busy?)",
                              b.what, b.measured_ms[1], b.measured_ms[0]));
  // Clock of non-MFMA work. The model's cycles of the difference do not depend on the clock
  // (issue cycles: 8 waves per SIMD x iterations x 8 FMAs x valu_cycles, plus the loop's scalar
  // turns), so cycles = delta_modelled x clock_base and clock = cycles / delta_measured.
  Bench& valu = find("valu");
  hw.clock_ghz = base.clock_ghz * delta(valu.before_ms) / delta(valu.measured_ms);
  valu.base_value = base.clock_ghz, valu.fitted_value = hw.clock_ghz;
  valu.arithmetic = fmt::format("modelled cycles {:.0f} / measured {:.6f} ms", delta(valu.before_ms) * 1e6 * base.clock_ghz,
                                delta(valu.measured_ms));
  // Clock under dense MFMA load. cycles = delta_modelled x the base model's clock for this kernel;
  // c = cycles / delta_measured is the clock at the kernel's MFMA busy share b. The model's clock
  // is clock + (dense - clock) x min(b / mfma_dense_busy, 1), so dense = clock + (c - clock) / min(..).
  Bench& mfma = find("mfma");
  const double c = mfma.before_clock_ghz * delta(mfma.before_ms) / delta(mfma.measured_ms);
  const double share = std::min(mfma.before_mfma_busy / std::max(base.mfma_dense_busy, 1e-9), 1.0);
  if (share < 0.5)
    throw Error(fmt::format("calibrate: the MFMA loop keeps the MFMA pipes busy only {:.0f}% of the time in the model; "
                            "the dense-MFMA clock cannot be fitted from it",
                            100 * mfma.before_mfma_busy));
  hw.mfma_dense_clock_ghz = hw.clock_ghz + (c - hw.clock_ghz) / share;
  mfma.base_value = base.mfma_dense_clock_ghz, mfma.fitted_value = hw.mfma_dense_clock_ghz;
  mfma.arithmetic = fmt::format("modelled cycles {:.0f} / measured {:.6f} ms = {:.4f} GHz at MFMA busy {:.0f}%",
                                delta(mfma.before_ms) * 1e6 * mfma.before_clock_ghz, delta(mfma.measured_ms), c,
                                100 * mfma.before_mfma_busy);
  // Achievable HBM bandwidth: the difference is bandwidth-bound (bytes / achievable HBM
  // bandwidth in the model), so share = delta_bytes / delta_measured / hbm_tbps.
  Bench& st = find("stream");
  const double dbytes = st.large.size - st.small.size;
  hw.hbm_achievable_share = base.hbm_achievable_share * delta(st.before_ms) / delta(st.measured_ms);
  st.base_value = base.hbm_achievable_share, st.fitted_value = hw.hbm_achievable_share;
  st.arithmetic = fmt::format("{:.0f} bytes / {:.6f} ms = {:.3f} TB/s of {} TB/s peak", dbytes, delta(st.measured_ms),
                              dbytes / (delta(st.measured_ms) * 1e9), base.hbm_tbps);
  // LDS read bandwidth: the difference is LDS-bound (each ds_read_b128 holds its half for
  // 1024 bytes / lds_bytes_per_clk cycles), so bytes_per_clk scales with modelled / measured cycles.
  Bench& bw = find("lds_bandwidth");
  const double lds_bytes = bw.large.size - bw.small.size;
  const double meas_cycles = delta(bw.measured_ms) * 1e6 * hw.clock_ghz, model_cycles = delta(bw.before_ms) * 1e6 * base.clock_ghz;
  hw.lds_bytes_per_clk = int(std::lround(base.lds_bytes_per_clk * model_cycles / meas_cycles));
  bw.base_value = base.lds_bytes_per_clk, bw.fitted_value = hw.lds_bytes_per_clk;
  bw.arithmetic = fmt::format("{:.0f} bytes / ({} CUs x {} halves x {:.0f} cycles) = {:.1f} B/clk per half", lds_bytes,
                              base.cus, base.lds_halves, meas_cycles, lds_bytes / (base.cus * base.lds_halves * meas_cycles));
  // LDS latency: each access of the chain costs lds_latency + its service time (bytes / LDS
  // bandwidth) + its loop share in the model, so the latency moves by the measured minus the
  // modelled cycles per access, modelled with the clock and LDS bandwidth fitted above (the chain
  // runs no MFMA, so both run at clock_ghz). A waiting wave issues again only at its SIMD's next
  // issue turn, so the time per access moves in whole turns (4 cycles): the latency is found to
  // within one turn.
  Bench& lat = find("lds_latency");
  const double accesses = lat.large.size - lat.small.size;
  const double measured_cycles = delta(lat.measured_ms) * 1e6 * hw.clock_ghz / accesses;
  const double modelled_cycles = (model_ms(hw, lat.large) - model_ms(hw, lat.small)) * 1e6 * hw.clock_ghz / accesses;
  hw.lds_latency = int(std::lround(base.lds_latency + measured_cycles - modelled_cycles));
  lat.base_value = base.lds_latency, lat.fitted_value = hw.lds_latency;
  lat.arithmetic = fmt::format("{:.2f} cycles per access measured, {:.2f} modelled (with the fitted clock and LDS bandwidth)", measured_cycles, modelled_cycles);
  return hw;
}

std::string report_markdown(const std::vector<Bench>& bs, const model::Hardware& base, const model::Hardware& fitted,
                            const model::CalibrationNote& note) {
  std::string md = fmt::format("# Calibration of {} on {}\n\n", fitted.name, note.device);
  md += fmt::format("Date {}. Device times: **{}**. Modelled times: the timing model of the base product {} "
                    "(before) and of the fitted product {} (after), labelled \"modelled (model NAME)\".\n\n",
                    note.date, note.time_source, base.name, fitted.name);
  if (note.time_source.rfind("modelled", 0) == 0)
    md += "The device is cdnajit's drop-in HIP runtime: its hipEvent times are themselves modelled, not measured on a "
          "GPU, so the fitted figures are that model's parameters, not a GPU's.\n\n";
  md += "## Parameters\n\n| parameter | base | fitted | kernel | arithmetic |\n|---|---|---|---|---|\n";
  for (const Bench& b : bs)
    md += fmt::format("| {} | {:.6g} | {:.6g} | {} | {} |\n", b.parameter, b.base_value, b.fitted_value, b.what, b.arithmetic);
  md += "\nThe MFMA loop multiplies constant operands (B = 0); on a GPU the clock under zero inputs is higher than "
        "under a real GEMM (AMD measured 1792 vs 1207 MHz on MI300X), so the fitted dense-MFMA clock is an upper bound "
        "there.\n";
  md += "\nKernel-launch overhead: the model has no such parameter (a modelled launch starts at its first workgroup); "
        "each fit uses the difference of two sizes, so the launch cost cancels.\n\n";
  md += fmt::format("## Per microbenchmark (ms)\n\n| kernel | size | device ({}) | modelled before (model {}) | before / "
                    "device | modelled after (model {}) | after / device |\n|---|---|---|---|---|---|---|\n",
                    note.time_source, base.name, fitted.name);
  for (const Bench& b : bs)
    for (int i = 0; i < 2; ++i)
      md += fmt::format("| {} | {:.4g} {} | {:.6f} | {:.6f} | {:.3f} | {:.6f} | {:.3f} |\n", b.what,
                        (i ? b.large : b.small).size, b.unit, b.measured_ms[i], b.before_ms[i], b.before_ms[i] / b.measured_ms[i],
                        b.after_ms[i], b.after_ms[i] / b.measured_ms[i]);
  return md;
}

int calibrate(const CalibrateOptions& o) {
  auto dev = open_device(o.device);
  const std::string source = detail::hip_event_time_source(*dev);
  if (!source.empty() && source.rfind("modelled", 0) != 0)
    throw Error(fmt::format("{}: its hipEvent times are {}, neither measured nor modelled; set CDNAJIT_HIP_MODEL to a "
                            "product (or product file) for modelled times",
                            dev->name(), source));
  const std::string time_source = source.empty() ? "measured (hipEvent)" : source;
  if (!source.empty())
    fmt::print("note: {} is cdnajit's drop-in HIP runtime; its event times are {}, not measured on a GPU: the fit "
               "recovers that model's parameters\n",
               dev->name(), source);
  const model::Hardware& base = model::resolve_product_or_default(o.base, dev->arch());
  if (base.arch != dev->arch())
    throw Error(fmt::format("--base {} is a {} product but {} is {}", base.name, arch_name(base.arch), dev->name(),
                            arch_name(dev->arch())));
  auto sim = open_sim_device(dev->arch());
  std::vector<Bench> bs = benches(dev->arch(), base, o.small);
  for (Bench& b : bs) {
    const Launch* ls[2] = {&b.small, &b.large};
    for (int i = 0; i < 2; ++i) {
      b.measured_ms[i] = measure(*dev, *ls[i], o.repeat);
      model::ModelReport r = modelled(*sim, base, *ls[i]);
      b.before_ms[i] = r.ms;
      if (i == 1) b.before_clock_ghz = r.clock_ghz, b.before_mfma_busy = r.mfma_busy;
    }
    fmt::print("{}: {:.6f} / {:.6f} ms on the device ({}), modelled (model {}) {:.6f} / {:.6f} ms\n", b.what,
               b.measured_ms[0], b.measured_ms[1], time_source, base.name, b.before_ms[0], b.before_ms[1]);
  }
  model::Hardware hw = fit(base, bs, [&](const model::Hardware& h, const Launch& l) { return modelled(*sim, h, l).ms; });
  hw.name = o.name.empty() ? base.name + "-calibrated" : o.name;
  hw.product = base.product + ", calibrated on " + dev->name();
  model::CalibrationNote note{dev->name(), utc_now("%Y-%m-%dT%H:%M:%SZ"), time_source, base.name, {}};
  for (const Bench& b : bs) note.kernels.push_back(b.what + " -> " + b.parameter);
  model::save_product_file(o.out, hw, note);  // checks every fitted figure against its valid range
  for (Bench& b : bs) {
    b.after_ms[0] = modelled(*sim, hw, b.small).ms;
    b.after_ms[1] = modelled(*sim, hw, b.large).ms;
  }
  const std::string report_path = o.report.empty() ? o.out.substr(0, o.out.rfind(".json")) + ".md" : o.report;
  std::ofstream(report_path) << report_markdown(bs, base, hw, note);
  for (const Bench& b : bs) fmt::print("{} = {:.6g} (base {:.6g}): {}\n", b.parameter, b.fitted_value, b.base_value, b.arithmetic);
  fmt::print("wrote {} (product {}, other figures from {}) and {}\n", o.out, hw.name, base.name, report_path);
  return 0;
}

}  // namespace

void add_calibrate_command(CommandLine& cl) {
  auto o = std::make_shared<CalibrateOptions>();
  CLI::App* c = cl.add("calibrate",
                       "time the timing model's microbenchmarks on a HIP device (hipEvents), fit the parameters they "
                       "isolate (clock under VALU and MFMA load, achievable HBM bandwidth, LDS latency and read "
                       "bandwidth) and write a product file (--model FILE.json) and a Markdown report",
                       [o] { return calibrate(*o); });
  c->add_option("--device", o->device, "the HIP device to measure: hip:N")->required();
  c->add_option("--out", o->out, "the product description to write (FILE.json)")->required();
  c->add_option("--base", o->base,
                "the product (or product file) whose other figures are kept and whose model is 'before' "
                "(default: the device arch's default product)");
  c->add_option("--name", o->name, "the fitted product's name (default: BASE-calibrated)");
  c->add_option("--report", o->report, "the Markdown report (default: --out with .md for .json)");
  add_typed_option(c, "--repeat", o->repeat,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 1000)); },
                   "timed launches per kernel and size after one warm-up; the median is used (1..1000, default 5)");
  c->add_flag("--small", o->small, "reduced sizes (seconds on the simulator; too short to time a GPU well)");
  c->parse_complete_callback([o] {
    std::string problem;
    auto spec = parse_device_spec(o->device, &problem);
    if (!spec) throw Error("--device '" + o->device + "': " + problem);
    if (spec->simulator)
      throw Error("--device " + o->device + ": calibrate measures a HIP device (hip:N); the simulator has no GPU clock "
                  "(cdnajit's drop-in HIP runtime gives hip:N modelled event times)");
    if (o->out.size() < 6 || o->out.substr(o->out.size() - 5) != ".json") throw Error("--out '" + o->out + "': give a FILE.json");
    check_writable(o->out, "--out");
    if (!o->report.empty()) check_writable(o->report, "--report");
    if (!o->base.empty()) model::resolve_product(o->base);
    if (!o->name.empty())
      if (std::string why = model::product_name_problem(o->name); !why.empty())
        throw Error("--name '" + o->name + "': " + why);
  });
}

}  // namespace cdnajit::cli
