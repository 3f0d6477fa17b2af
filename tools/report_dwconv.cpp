// report_dwconv: the Markdown report of the depthwise conv3d kernels on the
// seed shape, per arch: registers, LDS, occupancy, dynamic instructions per
// output from the simulator, JIT build time vs clang compile time, simulator
// wall time and a correctness check of every run.
//
//   build/tools/report_dwconv [--channels K] [--arch gfx942|gfx950|all] [--chunk N] [--out FILE.md]
//
// Progress goes to stderr; the report to stdout or --out. Everything runs on
// the host CPU (the simulator); no time in the report is a GPU time.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "codegen/dwconv3d.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "codegen/dwconv_mfma.hpp"
#include "codegen/hip_sources.hpp"
#include "tools/jobs/seed_run.hpp"
#include "jit/isa/error.hpp"
#include "runtime/tune/checked_number.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"
#include "runtime/utc_time.hpp"
#include "tools/wall_clock.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {

constexpr int kJitBuilds = 11;    // uncached JIT builds per kernel (after one warm-up build), median reported
constexpr int kClangCompiles = 3; // clang compiles per reference, median reported
constexpr uint64_t kDataSeed = 1; // same data as the seed job (input seed, weight seed + 1000)

using wall_clock::Clock;
using wall_clock::median;
using wall_clock::ms_since;

struct Options {
  int channels = 512;
  std::vector<Arch> arches{Arch::gfx942, Arch::gfx950};
  int chunk = 32;
  std::string out;
  std::string command;  // how to regenerate, for the header
};

Options parse_options(int argc, char** argv) {
  Options o;
  std::string arch = "all";
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw Error(fmt::format("report_dwconv: {} needs a value", argv[i]));
    return argv[++i];
  };
  auto integer = [](const std::string& flag, const std::string& v) {
    return int(parse_int(v, "report_dwconv: " + flag, INT32_MIN, INT32_MAX));  // ranges are checked below
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help") {
      std::cout << "report_dwconv: the depthwise conv3d report on the seed shape (tools/report_dwconv.md)\n"
                   "Usage: build/tools/report_dwconv [--channels K] [--arch gfx942|gfx950|all] [--chunk N] [--out FILE.md]\n"
                   "Options: --channels K (1..512, default 512; the committed report uses 64), --arch gfx942|gfx950|all, "
                   "--chunk N (channels per launch), --out FILE.md, --help\n";
      std::exit(0);
    }
    if (a == "--channels") o.channels = integer(a, value(i));
    else if (a == "--arch") arch = value(i);
    else if (a == "--chunk") o.chunk = integer(a, value(i));
    else if (a == "--out") o.out = value(i);
    else
      throw Error(fmt::format("report_dwconv: unknown argument '{}'; valid: --channels K (1..512), "
                              "--arch gfx942|gfx950|all, --chunk N (channels per launch), --out FILE.md",
                              a));
  }
  const int full = seed_shape().C;
  if (o.channels < 1 || o.channels > full)
    throw Error(fmt::format("report_dwconv: --channels {} is out of range; valid is 1..{}", o.channels, full));
  if (o.chunk < 1) throw Error(fmt::format("report_dwconv: --chunk {} must be at least 1", o.chunk));
  if (arch == "all") {
    o.arches = {Arch::gfx942, Arch::gfx950};
  } else if (auto p = parse_arch(arch)) {
    o.arches = {*p};
  } else {
    throw Error(fmt::format("report_dwconv: --arch '{}' is not gfx942, gfx950 or all", arch));
  }
  o.command = fmt::format("build/tools/report_dwconv --channels {} --arch {}", o.channels, arch);
  if (o.chunk != 32) o.command += fmt::format(" --chunk {}", o.chunk);
  if (!o.out.empty()) o.command += fmt::format(" --out {}", o.out);
  return o;
}

// One column of a per-arch table.
struct Column {
  std::string title;       // "JIT lds_fmac", "HIP V97 (clang)"
  std::string arithmetic;  // "fmac" / "dot2"
  std::string seed_kernel; // the seed kernel it reproduces
  bool jit = false;
  int vgprs = 0, agprs = 0, sgprs = 0;
  uint32_t lds = 0;
  int occupancy = 0;
  std::vector<double> build_ms;  // one sample per build / compile
  bool compile_cached = false;   // a clang compile was answered from a cache (should never happen)
  RunTotals run;
  std::string check;       // "bit-exact vs HIP V97" or "MISMATCH ..."
  bool ok = true;
  double calc_diff = 0, max_abs = 0;
};

// Host data and the CPU results every arch compares against (arch-independent
// except the dot2 model, which is the same for every dot2 variant).
struct HostData {
  DwConvShape shape;
  std::vector<uint16_t> x, w;
  std::vector<double> fp64;
  std::vector<uint16_t> fmac_model;
  std::optional<std::vector<uint16_t>> dot2_model;
};

std::string check_text(const BitCompare& c, const char* against) {
  if (c.equal()) return fmt::format("bit-exact vs {}", against);
  return fmt::format("**MISMATCH** vs {}: {} of {} differ", against, c.mismatches, c.count);
}

void finish_check(Column& col, const std::vector<uint16_t>& got, const std::vector<uint16_t>& want,
                  const char* against, const HostData& h) {
  BitCompare c = compare_bits(got, want);
  col.check = check_text(c, against);
  col.calc_diff = calc_diff(got, h.fp64);
  col.max_abs = max_abs_error(got, h.fp64);
  col.ok = c.equal() && col.calc_diff < 1e-5;
}

// Runs one loaded kernel into `out` (pre-filled with 0xFFFF, a NaN pattern, so
// a kernel that skips outputs cannot inherit the previous kernel's results).
std::vector<uint16_t> run_kernel(Device& dev, const DeviceKernel& k, const HostData& h, const Buffer& in,
                                 const Buffer& wt, const Buffer& out, int chunk, const GridForChannels& grid,
                                 const std::string& what, Column& col) {
  std::vector<uint16_t> poison(size_t(h.shape.output_elems()), 0xFFFF);
  dev.copy_to_device(out, poison.data(), poison.size() * 2);
  std::cerr << fmt::format("running {} on {}\n", what, dev.name()) << std::flush;
  col.run = run_chunked(std::cerr, dev, k, h.shape, in, wt, out, chunk, what, grid);
  if (!col.run.has_sim) throw Error(fmt::format("report_dwconv: {} did not run on the simulator", what));
  return dev.download<uint16_t>(out);
}

Column jit_column(Arch arch, DwVariant v, const HostData& h, Device& dev, const Buffer& in, const Buffer& wt,
                  const Buffer& out, int chunk, const std::vector<uint16_t>& v97_out) {
  Column col;
  col.title = fmt::format("JIT {}", variant_name(v));
  col.jit = true;
  const bool mfma = variant_info(v).arithmetic == DwArithmetic::mfma;
  col.arithmetic = mfma ? "mfma" : uses_dot2(v, arch) ? "dot2" : "fmac";
  col.seed_kernel = std::string(variant_info(v).seed_kernel);
  std::cerr << fmt::format("{} {}: {} uncached JIT builds\n", arch_name(arch), col.title, kJitBuilds) << std::flush;
  BuildOptions bo;
  bo.use_cache = false;  // no disk/memory code-object cache, no build memo: every build runs every stage
  // Warm-up: the first build in a process pays one-time LLVM target set-up and lld's first run.
  BuildResult r = build_dwconv3d(h.shape, v, arch, bo);
  for (int i = 0; i < kJitBuilds; ++i) {
    auto t0 = Clock::now();
    r = build_dwconv3d(h.shape, v, arch, bo);
    col.build_ms.push_back(ms_since(t0));
  }
  col.vgprs = r.stats.vgprs;
  col.agprs = r.stats.agprs;
  col.sgprs = r.stats.sgprs;
  col.lds = r.stats.lds_bytes;
  col.occupancy = r.stats.occupancy.waves_per_simd;

  Module m = dev.load(r.code_object);
  std::vector<uint16_t> got = run_kernel(dev, m.kernel(r.name), h, in, wt, out, chunk, per_channel_grid(h.shape),
                                         std::string(variant_name(v)), col);
  if (mfma) {
    // Its same-order reference: clang's code with the same MFMA builtin and operands, compiled for
    // all channels (workgroups address channels relative to the pointers, as V97's do).
    std::cerr << "running the HIP mfma_band reference\n" << std::flush;
    std::vector<uint8_t> co = compile_hip(dwconv_mfma_hip_source(), arch, dwconv_mfma_hip_flags(seed_shape(), arch));
    Module rm = dev.load(co);
    Column scratch;
    std::vector<uint16_t> ref = run_kernel(dev, rm.kernel(kDwconvMfmaHipKernel), h, in, wt, out, chunk,
                                           per_channel_grid(h.shape), "mfma_band reference", scratch);
    finish_check(col, got, ref, "HIP mfma_band reference (clang, same MFMA order, same simulator)", h);
  } else if (uses_dot2(v, arch))
    finish_check(col, got, *h.dot2_model, "CPU dot2 model (fused, MPFR; independent of the simulator)", h);
  else
    finish_check(col, got, v97_out, "HIP V97 (clang, same simulator)", h);
  return col;
}

Column hip_column(Arch arch, HipReference ref, const HostData& h, Device& dev, const Buffer& in, const Buffer& wt,
                  const Buffer& out, int chunk, std::vector<uint16_t>* out_bits) {
  Column col;
  col.title = ref == HipReference::v97       ? "HIP V97 (clang)"
              : ref == HipReference::v97_sgb ? "HIP V97-sgb (clang)"
                                             : "HIP naive (clang)";
  col.arithmetic = "fmac";
  col.seed_kernel = dwconv3d_hip_seed_kernel(ref);
  std::cerr << fmt::format("{} {}: {} clang compiles\n", arch_name(arch), col.title, kClangCompiles) << std::flush;
  const std::string source = dwconv3d_hip_source(ref);
  // The shape is compiled in (-DDW_*). V97 is compiled for the full seed shape
  // whatever the channel count simulated: its workgroups address channels
  // relative to the pointers, so this is the very code object of a full run.
  // The naive kernel's bounds check uses the compiled channel count, so it is
  // compiled for the simulated channels (its code differs slightly from the
  // 512-channel code when fewer are simulated: `% C` folds differently).
  const DwConvShape compile_shape = dwconv3d_hip_is_v97_family(ref) ? seed_shape() : h.shape;
  const std::vector<std::string> flags = dwconv3d_hip_flags(compile_shape, ref);
  std::vector<uint8_t> co;
  for (int i = 0; i < kClangCompiles; ++i) {
    // A unique trailing comment makes the source text new, so compile_hip_with's
    // in-memory cache cannot answer and clang really runs.
    std::string unique = source + fmt::format("\n// report_dwconv timing compile {} at {}\n", i,
                                              Clock::now().time_since_epoch().count());
    size_t runs_before = hip_compiler_runs();
    auto t0 = Clock::now();
    co = compile_hip_with(HipSourceBackend::Kind::clang, unique, arch, flags);
    col.build_ms.push_back(ms_since(t0));
    if (hip_compiler_runs() == runs_before) col.compile_cached = true;
  }
  Module m = dev.load(co);
  DeviceKernel k = m.kernel(dwconv3d_hip_kernel_name(ref));
  const KernelInfo& ki = k.info();
  col.vgprs = int(ki.vgpr_count);
  col.agprs = int(ki.agpr_count);
  col.sgprs = allocated_sgprs(ki);
  col.lds = ki.group_segment_size;
  col.occupancy = code_object_occupancy(ki, arch, DwConvGeometry::kThreads).waves_per_simd;

  std::vector<uint16_t> got;
  if (dwconv3d_hip_is_v97_family(ref)) {
    got = run_kernel(dev, k, h, in, wt, out, chunk, per_channel_grid(h.shape), dwconv3d_hip_kernel_name(ref), col);
  } else {
    // The naive kernel bakes the channel count into its bounds check: one launch over all channels.
    const DwConvShape s = h.shape;
    GridForChannels grid = [s](int channels) {
      DwConvShape c = s;
      c.C = channels;
      return dwconv3d_hip_grid(c, HipReference::naive);
    };
    got = run_kernel(dev, k, h, in, wt, out, s.C, grid, "naive", col);
  }
  finish_check(col, got, h.fmac_model, "CPU fmac model (std::fma; independent of the simulator)", h);
  if (out_bits) *out_bits = std::move(got);
  return col;
}

std::vector<Column> report_arch(Arch arch, HostData& h, int chunk) {
  auto dev = open_sim_device(arch);
  Buffer in = dev->upload(h.x, "input");
  Buffer wt = dev->upload(h.w, "weight");
  Buffer out = dev->alloc(size_t(h.shape.output_elems()) * 2, "output");

  std::vector<DwVariant> variants;
  for (const DwVariantInfo& v : dw_variants())
    if (variant_available(v.id, arch)) variants.push_back(v.id);
  if (!h.dot2_model && std::any_of(variants.begin(), variants.end(), [&](DwVariant v) { return uses_dot2(v, arch); })) {
    std::cerr << "computing the CPU dot2 model (fused single rounding, the simulator's default)\n" << std::flush;
    h.dot2_model = dwconv3d_model_dot2(h.shape, h.x, h.w, Dot2Rounding::fused_single_rounding);
  }

  std::vector<uint16_t> v97_out;
  std::vector<Column> hip;
  for (HipReference r : kHipReferences) {
    std::vector<uint16_t> bits;
    hip.push_back(hip_column(arch, r, h, *dev, in, wt, out, chunk, &bits));
    if (r == HipReference::v97) v97_out = bits;
    if (r == HipReference::v97_sgb && !v97_out.empty()) {
      // The seed's claim for V97-sgb: bitwise identical to V97 (same arithmetic, another schedule).
      BitCompare c = compare_bits(bits, v97_out);
      hip.back().check += c.equal() ? ", bit-exact vs HIP V97" : ", **MISMATCH** vs HIP V97";
      hip.back().ok &= c.equal();
    }
  }
  std::vector<Column> cols;
  for (DwVariant v : variants) cols.push_back(jit_column(arch, v, h, *dev, in, wt, out, chunk, v97_out));
  for (Column& c : hip) cols.push_back(std::move(c));
  return cols;
}

std::string render_table(Arch arch, const std::vector<Column>& cols, const DwConvShape& s) {
  std::ostringstream o;
  auto row = [&](const std::string& name, auto cell) {
    o << "| " << name;
    for (const Column& c : cols) o << " | " << cell(c);
    o << " |\n";
  };
  o << fmt::format("### {}\n\n", arch_name(arch));
  o << "| |";
  for (const Column& c : cols) o << " " << c.title << " |";
  o << "\n|---|";
  for (size_t i = 0; i < cols.size(); ++i) o << "---:|";
  o << "\n";
  row("seed kernel", [](const Column& c) { return c.seed_kernel; });
  row("arithmetic", [](const Column& c) { return c.arithmetic; });
  row("VGPRs", [](const Column& c) { return fmt::format("{}", c.vgprs); });
  row("AGPRs", [](const Column& c) { return fmt::format("{}", c.agprs); });
  row("SGPRs (allocated, without the 6 reserved)", [](const Column& c) { return fmt::format("{}", c.sgprs); });
  row("LDS bytes", [](const Column& c) { return fmt::format("{}", c.lds); });
  row("occupancy (waves/SIMD)", [](const Column& c) { return fmt::format("{}", c.occupancy); });
  for (isa::Unit u : {isa::Unit::VALU, isa::Unit::DS, isa::Unit::VMEM, isa::Unit::SALU, isa::Unit::SMEM,
                      isa::Unit::Waitcnt, isa::Unit::Nop}) {
    row(fmt::format("{} / output", isa::unit_name(u)),
        [&](const Column& c) { return fmt::format("{:.2f}", per_output(c.run.stats.by_unit[int(u)], s)); });
  }
  row("all instructions / output", [&](const Column& c) {
    return fmt::format("{:.2f}", per_output(c.run.stats.wave_instructions, s));
  });
  row(fmt::format("JIT build / clang compile ms (median of {} / {})", kJitBuilds, kClangCompiles),
      [](const Column& c) { return fmt::format("{:.1f}{}", median(c.build_ms), c.compile_cached ? " (cached!)" : ""); });
  row("simulator wall time s", [](const Column& c) { return fmt::format("{:.2f}", c.run.stats.seconds); });
  row("result", [](const Column& c) { return c.check; });
  row("calc_diff vs fp64", [](const Column& c) { return fmt::format("{:.3g}", c.calc_diff); });
  row("max abs error vs fp64", [](const Column& c) { return fmt::format("{:.4g}", c.max_abs); });
  o << "\n";
  return o.str();
}

// The heading of the hand-kept section run() carries over from the previous report.
constexpr const char* kJourneyHeading = "## Journey";

std::string render_header(const Options& o, const DwConvShape& full, const DwConvShape& s) {
  std::ostringstream h;
  h << "# Depthwise conv3d kernels: JIT variants vs clang-compiled HIP references\n\n";
  h << "**Everything below was simulated on the host CPU by cdnajit's ISA simulator; no GPU was used.** "
       "Every time is a host time (JIT build, clang compile, simulator wall time), not a GPU kernel time; "
       "the simulator does not model timing.\n\n";
  h << fmt::format("- Generated {} by: `{}` (from the repository root, after building the `report_dwconv` target).\n",
                   utc_now("%Y-%m-%d %H:%M UTC"), o.command);
  h << fmt::format("- Shape: input [{},{},{},{},{}] bf16, weight [{},1,{},{},{}], pad ({},{},{}), stride 1, "
                   "groups = C ({:.2f} GFLOP for all {} channels).\n",
                   full.N, full.C, full.D, full.H, full.W, full.C, full.KD, full.KH, full.KW, full.padD, full.padH,
                   full.padW, full.gflop(), full.C);
  if (s.C == full.C)
    h << fmt::format("- Channels simulated: all {} (the full seed shape).\n", s.C);
  else
    h << fmt::format("- Channels simulated: {} of {} (channels 0..{}). Every channel does the same work, so the "
                     "per-output counts of the JIT kernels and of HIP V97 (compiled for all {} channels; each "
                     "workgroup covers one (channel, depth) slice) are exactly those of the full shape. HIP naive "
                     "is only approximate here: it must be compiled for the {} simulated channels (its bounds "
                     "check uses the compiled channel count), which changes clang's code slightly, and its waves "
                     "straddle channel boundaries. Simulator wall times are for the {} channels only.\n",
                     s.C, full.C, s.C - 1, full.C, s.C, s.C);
  h << fmt::format("- Host: {} hardware threads (the simulator runs workgroups on all of them); clang: {}.\n",
                   std::thread::hardware_concurrency(), hip_source_backend().compiler);
  h << "- Per output = dynamic wave instructions x 64 lanes / output elements (thread-instructions per output), "
       "as the seed job prints them. \"all instructions\" also counts branches, barriers and the rest.\n";
  h << fmt::format("- JIT build time: median of {} builds (after one untimed warm-up build) with `BuildOptions.use_cache = false` (no code-object "
                   "cache, no build memo: register allocation, passes, in-process MC assembly and lld link every "
                   "time). clang compile time: median of {} compiles of the HIP source through "
                   "`compile_hip_with(clang, ...)`, each with a unique trailing comment so the in-memory compile "
                   "cache cannot answer (clang++ runs as a subprocess, -O3).\n",
                   kJitBuilds, kClangCompiles);
  h << "- Occupancy: waves per SIMD of a 256-thread workgroup from registers and LDS "
       "(`regalloc::occupancy`); JIT kernels from `BuildResult.stats`, clang kernels from the code object's "
       "metadata. SGPRs are the allocated ones; the 6 that every wave also holds for VCC, FLAT_SCRATCH and "
       "XNACK_MASK (included in the metadata's `.sgpr_count`) are not counted for either.\n";
  h << "- Result: fmac-arithmetic JIT kernels must match the HIP V97 reference bit for bit; dot2-arithmetic "
       "JIT kernels must match the CPU model `dwconv3d_model` (v_dot2_f32_bf16 as one rounding of the exact "
       "sum, the simulator's default, computed by the MPFR reference `codegen/reference/exact_dot`, which "
       "shares no code with the simulator); the HIP references are compared with the CPU fmac model "
       "(host `std::fma` in tap order, also independent of the simulator). HIP V97 runs on the same simulator "
       "as the JIT kernels, so that comparison checks the JIT code against clang's code, not the simulator's "
       "arithmetic. The MFMA kernel (mfma_band) must match its own same-order HIP reference "
       "(`codegen/hip/dwconv_mfma_band.hip`: the same MFMA builtin, operands and order), run on the same simulator. "
       "calc_diff = 1 - 2 sum(xy) / sum(x^2 + y^2) against an fp64 reference (required < 1e-5).\n\n";
  return h.str();
}

int run(const Options& o) {
  HostData h;
  const DwConvShape full = seed_shape();
  h.shape = full;
  h.shape.C = o.channels;
  std::cerr << fmt::format("report_dwconv: {} ({} of {} channels)\n", h.shape.str(), o.channels, full.C);
  h.x = random_bf16(size_t(h.shape.input_elems()), kDataSeed);
  h.w = random_bf16(size_t(h.shape.weight_elems()), kDataSeed + 1000);
  std::cerr << "computing the fp64 reference and the CPU fmac model\n" << std::flush;
  h.fp64 = dwconv3d_reference_fp64(h.shape, h.x, h.w);
  h.fmac_model = dwconv3d_model_fmac(h.shape, h.x, h.w);

  std::string report = render_header(o, full, h.shape);
  bool all_ok = true;
  for (Arch a : o.arches) {
    std::vector<Column> cols = report_arch(a, h, o.chunk);
    for (const Column& c : cols) all_ok &= c.ok;
    report += render_table(a, cols, h.shape);
  }
  report += all_ok ? "All runs passed their checks.\n" : "**Some runs FAILED their checks (see the result rows).**\n";
  // The journey section records designs that no longer exist in the code (dead ends, earlier
  // versions) with the commands and commits that measured them: it is kept, not regenerated.
  if (!o.out.empty()) {
    std::ifstream old(o.out);
    std::stringstream text;
    text << old.rdbuf();
    const std::string prev = text.str();
    if (size_t at = prev.find(kJourneyHeading); at != std::string::npos) report += "\n" + prev.substr(at);
  }

  if (o.out.empty()) {
    std::cout << report;
  } else {
    std::ofstream f(o.out);
    if (!f) throw Error(fmt::format("report_dwconv: cannot open '{}' for writing", o.out));
    f << report;
    if (!f) throw Error(fmt::format("report_dwconv: writing '{}' failed", o.out));
    std::cerr << fmt::format("wrote {}\n", o.out);
  }
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_options(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "report_dwconv: error: " << e.what() << "\n";
    return 2;
  }
}
