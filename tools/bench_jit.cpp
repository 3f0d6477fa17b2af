// Benchmark: JIT build time of the example kernels and of the seed depthwise
// conv3d kernel in three configurations, per stage: "fast" (direct MCInst
// encoder, direct ELF writer, no .s text), "direct+lld" (direct encoder, lld, .s
// text) and "text" (LLVM's assembly parser, lld, .s text: the reference path);
// the memo hit; and, in the same run, the same .s through llvm-mc-22 + ld.lld-22
// subprocesses and the same kernels written in HIP C++ compiled by clang++-22.
// Prints medians and ratios.
//
//   bench_jit [--keep-heap] [--quick]
//   bench_jit [--keep-heap] --profile N [lld]  only N fast (or direct+lld) builds of the gfx950 seed kernel (to run under perf;
//                                              also the median CPU time with the definition, and the load before and after)
//   bench_jit [--keep-heap] --profile-hit N    only N memo hits of one defined gfx950 seed kernel
//   bench_jit [--keep-heap] --gemm N [CONFIG]  N uncached builds (cdnajit gemm's options) of the GEMM
//                                              configurations below (or only the one named), per-stage medians
//                                              against the 5 ms target
//   bench_jit --dump DIR                       write each GEMM configuration's .s and code object (cdnajit gemm's
//                                              options, cache off) to DIR/NAME.ARCH.s / .co, to compare builds
//                                              byte for byte before and after a change to the JIT
//
// --keep-heap: glibc keeps freed memory in the process (trim and mmap thresholds raised to
// 256 MiB) instead of returning it to the system between builds. Each measured build here
// defines a kernel, builds it and frees everything; with glibc's defaults the freed heap
// may be returned to the system after a build and page-faulted back in by the next one,
// and on this virtual machine those faults cost more than the build itself. A long-running
// host (a tuner, a framework) sets these thresholds or uses a caching allocator; compare
// both runs to see the difference.
#include <fmt/format.h>

#include <malloc.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <functional>
#include <vector>

#include "codegen/dwconv3d.hpp"
#include "codegen/gemm.hpp"
#include "codegen/gemm_mx.hpp"
#include "codegen/examples/examples.hpp"
#include "codegen/hip_sources.hpp"
#include "jit/asm/subprocess_toolchain.hpp"
#include "jit/kernel.hpp"
#include "runtime/hip_source.hpp"
#include "jit/isa/error.hpp"
#include "runtime/tune/checked_number.hpp"

using namespace cdnajit;

namespace {

using Clock = std::chrono::steady_clock;

// CPU time of this thread, ms: on a shared machine the wall time of a millisecond build
// mostly measures the other processes; the CPU time does not.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

// CPU time (user + system) of finished child processes (clang), ms.
double children_cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  auto ms = [](const timeval& t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) * 1e-3; };
  return ms(u.ru_utime) + ms(u.ru_stime);
}

// The host's load average (1, 5, 15 minutes) from /proc/loadavg, as printed beside every figure:
// on a shared machine a build's wall time depends on it.
std::string host_load() {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return "load unknown";
  double a = 0, b = 0, c = 0;
  const int n = std::fscanf(f, "%lf %lf %lf", &a, &b, &c);
  std::fclose(f);
  return n == 3 ? fmt::format("load {:.2f} {:.2f} {:.2f}", a, b, c) : "load unknown";
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double median_ms(int reps, const std::function<void(int)>& fn) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    fn(i);
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return median(t);
}

// The same computations as codegen/examples, written as HIP C++.
const char* kHipVectorAdd = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* out, unsigned n) {
  unsigned i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
)";
const char* kHipBf16Dot = R"(
extern "C" __global__ void bf16_dot(const unsigned* a, const unsigned* b, float* out, unsigned n) {
  unsigned i = blockIdx.x * 256 + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int p = 0; p < 4; ++p) {
    unsigned x = a[i * 4 + p], y = b[i * 4 + p];
    acc = __builtin_fmaf(__uint_as_float(x << 16), __uint_as_float(y << 16), acc);
    acc = __builtin_fmaf(__uint_as_float(x & 0xffff0000u), __uint_as_float(y & 0xffff0000u), acc);
  }
  out[i] = acc;
}
)";

struct Case {
  std::string name;
  Arch arch;
  std::function<BuildResult(const BuildOptions&)> build;  // defines the kernel with the DSL, then builds it
  std::string hip_source;                                 // the clang comparison
  std::vector<std::string> hip_flags;
  std::string hip_what;
};

// Medians of each stage over `reps` uncached builds with `encoder`.
struct StageMedians {
  double total = 0, end_to_end = 0, cpu = 0, regalloc = 0, lower = 0, passes = 0, print = 0, encode = 0, link = 0;
  int direct_insts = 0, text_insts = 0, instructions = 0;
  bool lld_fallback = false;
};

// The configurations compared.
enum class Config { fast, direct_lld, text };

BuildOptions options(Config c) {
  BuildOptions o;
  o.use_cache = false;
  o.encoder = c == Config::text ? Encoder::Text : Encoder::Direct;
  o.linker = c == Config::fast ? Linker::Direct : Linker::Lld;
  o.keep_assembly = c != Config::fast;
  return o;
}

StageMedians measure(const Case& c, Config config, int reps) {
  BuildOptions o = options(config);
  c.build(o);  // warm-up: LLVM target, templates, lld first run
  std::vector<double> total, e2e, cpu, ra, lo, pa, pr, en, li;
  StageMedians m;
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    double c0 = thread_cpu_ms();
    BuildResult r = c.build(o);
    cpu.push_back(thread_cpu_ms() - c0);
    e2e.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    const KernelStats& s = r.stats;
    total.push_back(s.ms_build), ra.push_back(s.ms_regalloc), lo.push_back(s.ms_lower), pa.push_back(s.ms_passes);
    pr.push_back(s.ms_print);
    en.push_back(s.ms_assemble), li.push_back(s.ms_link);
    m.direct_insts = s.direct_insts, m.text_insts = s.text_insts, m.instructions = s.instructions;
    m.lld_fallback |= s.lld_fallback;
  }
  m.total = median(total), m.end_to_end = median(e2e), m.cpu = median(cpu), m.regalloc = median(ra), m.lower = median(lo);
  m.passes = median(pa);
  m.print = median(pr), m.encode = median(en), m.link = median(li);
  return m;
}

// GEMM configurations of `cdnajit gemm --m 512 --n 512 --k 512` (issue 31's target: every JIT
// build <= 5 ms): the default and the largest kernels tools/report_gemm models (256x256 tiles,
// 8 waves, ~1500-2900 instructions): bf16 and fp8 with LDS DMA and read-ahead or ping-pong on
// gfx950, the one-stage read-ahead kernels on gfx942 (padded 64-byte rows; XOR rows read in two K
// sub-tiles), and the MX-scaled read-ahead kernels (`cdnajit gemm-mx`, scales km, bf16 output).
struct GemmCase {
  std::string name;
  Arch arch;
  std::function<BuildResult(const BuildOptions&)> build;
};

std::vector<GemmCase> gemm_cases() {
  auto big = [](int tile_k) {
    codegen::GemmConfig c;
    c.tile_m = c.tile_n = 256, c.waves_m = 2, c.waves_n = 4, c.tile_k = tile_k;
    return c;
  };
  auto gemm = [](Arch a, codegen::GemmConfig c, codegen::GemmDType t = codegen::GemmDType::bf16) {
    codegen::GemmShape s;
    s.M = s.N = s.K = 512;
    s.dtype = t;
    const codegen::GemmPlan p = codegen::make_gemm_plan(s, a, c);
    return [p](const BuildOptions& o) { return codegen::build_gemm(p, o); };
  };
  // persistent: 2 output tiles per workgroup and 8 K tiles (the straight tiles and the loop of tile
  // pairs, in the two copies of an output tile the persistent schedule emits)
  auto mx = [](codegen::MxFormat f, int tile_k, int waves_n, int persistent = 0) {
    codegen::GemmMxShape s;
    s.M = s.N = s.K = 512, s.format = f, s.output = codegen::GemmMxOutput::bf16, s.scales = codegen::GemmMxScaleLayout::km;
    if (persistent) s.K = 8 * tile_k;
    codegen::GemmMxConfig c;
    c.tile_m = c.tile_n = 256, c.tile_k = tile_k, c.waves_m = 2, c.waves_n = waves_n, c.group_m = 8, c.read_ahead = true;
    c.persistent = persistent;
    const codegen::GemmMxPlan p = codegen::make_gemm_mx_plan(s, Arch::gfx950, c);
    return [p](const BuildOptions& o) { return codegen::build_gemm_mx(p, o); };
  };
  codegen::GemmConfig dma_ra = big(64), dma_pp = big(64), st1_ra = big(32), xor_ra2 = big(64);
  dma_ra.lds_dma = dma_ra.read_ahead = true, dma_ra.group_m = 8;
  dma_pp.lds_dma = dma_pp.pingpong = true;
  st1_ra.stages = 1, st1_ra.read_ahead = true;
  xor_ra2.stages = 1, xor_ra2.read_ahead = xor_ra2.lds_xor = true, xor_ra2.ra_split = 2, xor_ra2.group_m = 8;
  codegen::GemmConfig f8_ra = dma_ra, f8_pp = dma_pp;
  f8_ra.tile_k = f8_pp.tile_k = 128, f8_pp.group_m = 8;
  return {{"default", Arch::gfx950, gemm(Arch::gfx950, {})},
          {"default", Arch::gfx942, gemm(Arch::gfx942, {})},
          {"256x256.w2x4.dma.ra.g8", Arch::gfx950, gemm(Arch::gfx950, dma_ra)},
          {"256x256.w2x4.dma.pp", Arch::gfx950, gemm(Arch::gfx950, dma_pp)},
          {"256x256.w2x4.st1.ra", Arch::gfx942, gemm(Arch::gfx942, st1_ra)},
          {"256x256x64.xor.ra2.g8", Arch::gfx942, gemm(Arch::gfx942, xor_ra2)},
          {"fp8.256x256x128.dma.ra", Arch::gfx950, gemm(Arch::gfx950, f8_ra, codegen::GemmDType::e4m3)},
          {"fp8.256x256x128.dma.pp", Arch::gfx950, gemm(Arch::gfx950, f8_pp, codegen::GemmDType::e4m3)},
          {"mxfp4.256x256x128.w2x4", Arch::gfx950, mx(codegen::MxFormat::fp4, 128, 4)},
          {"mxfp4.256x256x256.w2x2", Arch::gfx950, mx(codegen::MxFormat::fp4, 256, 2)},
          {"mxfp4.256x256x256.w2x2.p2", Arch::gfx950, mx(codegen::MxFormat::fp4, 256, 2, 2)},
          {"mxfp8.256x256x128.w2x4", Arch::gfx950, mx(codegen::MxFormat::fp8, 128, 4)}};
}

// N uncached builds of each GEMM case with the options `cdnajit gemm` uses (default BuildOptions:
// direct encoder, direct ELF writer, .s text kept) but the code-object cache off, so every build
// runs the whole pipeline. "build" is build_gemm() end to end: the generator's definition through
// the DSL plus Kernel::build(): wall time ("build", "min") and this thread's CPU time ("CPU": on
// a shared machine a wall-time median also counts the time slices other processes took); the
// stage columns are medians of Kernel::build()'s own wall-time stages; "other" is Kernel::build() outside the timed stages (the
// legality check of the machine program, the descriptor, statistics).
int bench_gemm(int reps, const std::string& only, const char* heap_note) {
  const double kTargetMs = 5.0;
  BuildOptions o;
  o.use_cache = false;
  fmt::print("GEMM JIT builds, M = N = K = 512: medians of {} uncached builds in ms ({}; {} at the start); target <= {} ms\n",
             reps, heap_note, host_load(), kTargetMs);
  fmt::print("{:<24} {:<6} {:>5} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}  {}\n", "config", "arch", "insts",
             "build", "CPU", "min", "define", "regalloc", "lower", "passes", "print", "encode", "link", "other", "target");
  bool any = false, any_built = false;
  for (const GemmCase& c : gemm_cases()) {
    if (!only.empty() && c.name != only) continue;
    any = true;
    const auto w0 = Clock::now();
    c.build(o);  // warm-up
    if (!any_built)  // the process's first build pays its one-time set-up (tables, encoder templates, page faults)
      fmt::print("  first build in this process ({} {}): {:.3f} ms\n", c.name, arch_name(c.arch),
                 std::chrono::duration<double, std::milli>(Clock::now() - w0).count());
    any_built = true;
    std::vector<double> t, cpu, def, ra, lo, pa, pr, en, li, other;
    int insts = 0;
    for (int i = 0; i < reps; ++i) {
      const auto t0 = Clock::now();
      const double c0 = thread_cpu_ms();
      const KernelStats s = c.build(o).stats;
      cpu.push_back(thread_cpu_ms() - c0);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      t.push_back(ms), def.push_back(ms - s.ms_build), ra.push_back(s.ms_regalloc), lo.push_back(s.ms_lower);
      pa.push_back(s.ms_passes), pr.push_back(s.ms_print), en.push_back(s.ms_assemble), li.push_back(s.ms_link);
      other.push_back(s.ms_build - s.ms_regalloc - s.ms_lower - s.ms_passes - s.ms_print - s.ms_assemble - s.ms_link);
      insts = s.instructions;
    }
    const double m = median(t);
    fmt::print("{:<24} {:<6} {:>5} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f}  {}\n",
               c.name, arch_name(c.arch), insts, m, median(cpu), *std::min_element(t.begin(), t.end()), median(def), median(ra),
               median(lo), median(pa), median(pr), median(en), median(li), median(other), m <= kTargetMs ? "yes" : "NO");
    std::fflush(stdout);
  }
  if (!any) {
    std::string names;
    for (const GemmCase& c : gemm_cases())
      if (names.find(c.name) == std::string::npos) names += (names.empty() ? "" : ", ") + c.name;
    fmt::print(stderr, "bench_jit: no GEMM configuration named '{}' (valid: {})\n", only, names);
    return 2;
  }
  fmt::print("({} at the end)\n", host_load());
  return 0;
}

// Each GEMM configuration's .s and code object, built as bench_gemm builds them, written to
// DIR/NAME.ARCH.{s,co}: a change meant to speed the build up must leave both byte-identical.
int dump_gemm(const std::string& dir) {
  BuildOptions o;
  o.use_cache = false;
  for (const GemmCase& c : gemm_cases()) {
    const BuildResult r = c.build(o);
    const std::string base = fmt::format("{}/{}.{}", dir, c.name, arch_name(c.arch));
    auto write = [](const std::string& path, const void* data, size_t n) {
      std::FILE* f = std::fopen(path.c_str(), "wb");
      const bool ok = f && std::fwrite(data, 1, n, f) == n;
      if (f) std::fclose(f);
      if (!ok) fmt::print(stderr, "bench_jit: cannot write '{}' (does the folder exist?)\n", path);
      return ok;
    };
    if (!write(base + ".s", r.assembly.data(), r.assembly.size()) ||
        !write(base + ".co", r.code_object.data(), r.code_object.size()))
      return 1;
    fmt::print("{}.s ({} bytes), {}.co ({} bytes)\n", base, r.assembly.size(), base, r.code_object.size());
  }
  return 0;
}

}  // namespace

// A repeat count from the command line, with the project's checked parser; a bad one is a
// usage error (status 2), not a silent 0 or 1.
int count_argument(const char* text, const char* what) {
  try {
    return int(parse_uint(text, what, 1, 1000000));
  } catch (const Error& e) {
    fmt::print(stderr, "bench_jit: {}\n", e.what());
    std::exit(2);
  }
}

int main(int argc, char** argv) {
  bool keep_heap = false;
  if (argc > 1 && std::string(argv[1]) == "--keep-heap") {
    keep_heap = true;
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    --argc, ++argv;
  }
  const std::string first = argc > 1 ? argv[1] : "";
  constexpr const char* kUsage =
      "usage: bench_jit [--keep-heap] [--quick]\n"
      "       bench_jit [--keep-heap] --profile N [lld]   N builds of the gfx950 seed kernel, per-stage medians\n"
      "       bench_jit [--keep-heap] --profile-hit N     N memo hits of the gfx950 seed kernel\n"
      "       bench_jit [--keep-heap] --gemm N [CONFIG]   N uncached builds of each GEMM configuration (or of CONFIG)\n"
      "       bench_jit --dump DIR                        each GEMM configuration's .s and code object into DIR\n"
      "--keep-heap keeps freed memory in the process between builds (glibc trim/mmap thresholds 256 MiB)\n";
  if (first == "--help" || first == "-h") {
    fmt::print("{}", kUsage);
    return 0;
  }
  const bool known = first.empty() || first == "--quick" || ((first == "--profile" || first == "--profile-hit" || first == "--gemm" || first == "--dump") && argc > 2);
  if (!known) {
    fmt::print(stderr, "bench_jit: unexpected argument '{}' (or a missing N)\n{}", first, kUsage);
    return 2;
  }
  const char* heap_note = keep_heap ? "heap kept in the process (--keep-heap)" : "glibc's default heap trimming";
  int jit_reps = 51, sub_reps = 5, clang_reps = 3;
  if (argc > 1 && std::string(argv[1]) == "--quick") jit_reps = 11, sub_reps = 3, clang_reps = 1;
  if (first == "--dump") return dump_gemm(argv[2]);
  if (first == "--gemm")
    return bench_gemm(count_argument(argv[2], "--gemm N"), argc > 3 ? argv[3] : "", heap_note);
  if (argc > 2 && std::string(argv[1]) == "--profile-hit") {
    std::vector<double> t, cpu;
    const std::string load_before = host_load();
    codegen::build_dwconv3d(codegen::seed_shape(), codegen::DwVariant::lds_fmac, Arch::gfx950);
    int misses = 0;
    for (int i = 0, n = count_argument(argv[2], "--profile-hit N"); i < n; ++i) {
      const double c0 = thread_cpu_ms();
      const KernelStats s = codegen::build_dwconv3d(codegen::seed_shape(), codegen::DwVariant::lds_fmac, Arch::gfx950).stats;
      cpu.push_back(thread_cpu_ms() - c0);
      t.push_back(s.ms_build);
      misses += !s.memo_hit;
    }
    fmt::print("dwconv3d_seed.lds_fmac gfx950: median memo hit {:.1f} us over {} builds ({} not memo hits); "
               "+DSL CPU {:.3f} ms (definition through the builder + the hit); {}; {} before, {} after\n",
               median(t) * 1000, t.size(), misses, median(cpu), heap_note, load_before, host_load());
    return 0;
  }
  if (argc > 2 && std::string(argv[1]) == "--profile") {
    const bool lld = argc > 3 && std::string(argv[3]) == "lld";
    BuildOptions o = options(lld ? Config::direct_lld : Config::fast);
    std::vector<double> t, ra, lo, pa, pr, en, li, cpu;
    const std::string load_before = host_load();
    for (int i = 0, n = count_argument(argv[2], "--profile N"); i < n; ++i) {
      const double c0 = thread_cpu_ms();
      KernelStats s = codegen::build_dwconv3d(codegen::seed_shape(), codegen::DwVariant::lds_fmac, Arch::gfx950, o).stats;
      cpu.push_back(thread_cpu_ms() - c0);
      t.push_back(s.ms_build), ra.push_back(s.ms_regalloc), lo.push_back(s.ms_lower), pa.push_back(s.ms_passes);
      pr.push_back(s.ms_print), en.push_back(s.ms_assemble), li.push_back(s.ms_link);
    }
    fmt::print("dwconv3d_seed.lds_fmac gfx950 ({}): median Kernel::build() {:.3f} ms over {} builds (regalloc {:.3f}, "
               "lower {:.3f}, passes {:.3f}, print {:.3f}, encode {:.3f}, link {:.3f}); +DSL CPU {:.3f} ms; {}; {} "
               "before, {} after\n",
               lld ? "direct encoder, lld, .s text" : "fast: direct encoder, direct ELF writer, no .s", median(t),
               t.size(), median(ra), median(lo), median(pa), median(pr), median(en), median(li), median(cpu), heap_note,
               load_before, host_load());
    return 0;
  }
  SubprocessToolchain sub = SubprocessToolchain::find();

  std::vector<Case> cases;
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    for (const char* name : examples::kBuiltinNames) {
      cases.push_back({name, arch,
                       [name, arch](const BuildOptions& o) {
                         Kernel k(name, arch);
                         examples::define_builtin(k, name);
                         return k.build(o);
                       },
                       std::string(name) == "vector_add" ? kHipVectorAdd : kHipBf16Dot, {}, "same kernel in HIP"});
    }
    // The seed's depthwise kernel (V97 design) against clang compiling the HIP V97 reference.
    const codegen::DwVariant v = codegen::DwVariant::lds_fmac;
    cases.push_back({"dwconv3d_seed.lds_fmac", arch,
                     [arch](const BuildOptions& o) { return codegen::build_dwconv3d(codegen::seed_shape(), v, arch, o); },
                     codegen::dwconv3d_hip_source(codegen::HipReference::v97),
                     codegen::dwconv3d_hip_flags(codegen::seed_shape(), codegen::HipReference::v97), "HIP V97"});
    if (arch == Arch::gfx950) {
      const codegen::DwVariant d = codegen::DwVariant::lds_dot2;
      cases.push_back({"dwconv3d_seed.lds_dot2", arch,
                       [arch](const BuildOptions& o) { return codegen::build_dwconv3d(codegen::seed_shape(), d, arch, o); },
                       codegen::dwconv3d_hip_source(codegen::HipReference::v97),
                       codegen::dwconv3d_hip_flags(codegen::seed_shape(), codegen::HipReference::v97), "HIP V97"});
    }
  }

  fmt::print("cdnajit JIT benchmark: medians of {} builds in ms (this machine, no GPU involved; {}; {} at the start)\n",
             jit_reps, heap_note, host_load());
  fmt::print("fast = Kernel::build() wall time with the direct MCInst encoder, the direct ELF writer and no .s text;\n"
             "direct+lld = direct encoder, lld link, .s text; text = LLVM's assembly parser, lld, .s text (no cache in\n"
             "any); +DSL CPU = this thread's CPU time for the kernel's definition through the builder plus the build;\n"
             "hit = Kernel::build() answered by the in-process build memo (default options); clang CPU = user+system\n"
             "time of the clang processes; clang/fast = clang CPU / fast +DSL CPU.\n\n");
  fmt::print("{:<23} {:<6} {:>5} {:>8} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8} {:>8} {:>7} {:>8} {:>9} {:>8} {:>8} {:>10}\n",
             "kernel", "arch", "insts", "fast", "dir+lld", "text", "dir+lld", "text/", "fast", "dir+lld", "text", "hit",
             "mc+lld", "clang", "clang", "clang/", "clang HIP");
  fmt::print("{:<23} {:<6} {:>5} {:>8} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8} {:>8} {:>7} {:>8} {:>9} {:>8} {:>8} {:>10}\n", "",
             "", "", "build", "build", "build", "/fast", "fast", "+DSL CPU", "+DSL CPU", "+DSL CPU", "(us)", "subproc",
             "wall", "CPU", "fast", "source");
  struct Stages {
    std::string name;
    Arch arch;
    StageMedians fast, direct_lld, text;
  };
  std::vector<Stages> stages;
  for (const Case& c : cases) {
    StageMedians f = measure(c, Config::fast, jit_reps);
    StageMedians d = measure(c, Config::direct_lld, jit_reps);
    StageMedians t = measure(c, Config::text, jit_reps);
    BuildOptions cached;
    c.build(cached);  // fill the memo
    std::vector<double> hits;
    for (int i = 0; i < jit_reps; ++i) hits.push_back(c.build(cached).stats.ms_build * 1000.0);
    double hit_us = median(hits);
    BuildOptions text_only;
    text_only.link = false;
    std::string s = c.build(text_only).assembly;
    double subp = median_ms(sub_reps, [&](int) { sub.assemble_and_link(s, c.arch); });
    // A distinct comment per repetition defeats the HIP-source compile cache: clang really runs each time.
    std::vector<double> clang_cpu;
    double clang = median_ms(clang_reps, [&](int i) {
      std::string unique = c.hip_source + fmt::format("\n// bench_jit rep {} at {}\n", i, Clock::now().time_since_epoch().count());
      double c0 = children_cpu_ms();
      compile_hip_with(HipSourceBackend::Kind::clang, unique, c.arch, c.hip_flags);
      clang_cpu.push_back(children_cpu_ms() - c0);
    });
    double clang_cpu_ms = median(clang_cpu);
    fmt::print("{:<23} {:<6} {:>5} {:>8.3f} {:>8.3f} {:>8.3f} {:>6.1f}x {:>6.1f}x {:>8.3f} {:>8.3f} {:>8.3f} {:>7.1f} {:>8.1f} "
               "{:>9.1f} {:>8.1f} {:>7.0f}x {:>10}\n",
               c.name, arch_name(c.arch), f.instructions, f.total, d.total, t.total, d.total / f.total, t.total / f.total,
               f.cpu, d.cpu, t.cpu, hit_us, subp, clang, clang_cpu_ms, clang_cpu_ms / f.cpu, c.hip_what);
    if (f.direct_insts != f.instructions || f.lld_fallback)
      fmt::print("  note: {} of {} instructions encoded directly{}\n", f.direct_insts, f.instructions,
                 f.lld_fallback ? "; the direct ELF writer handed this object to lld" : "");
    fmt::print("  ({})\n", host_load());
    std::fflush(stdout);
    stages.push_back({c.name, c.arch, f, d, t});
  }

  fmt::print("\n{} at the end\n", host_load());
  fmt::print("\nStages of Kernel::build() (medians, ms): fast / direct+lld / text\n");
  fmt::print("{:<23} {:<6} {:>20} {:>20} {:>20} {:>20} {:>20} {:>20}\n", "kernel", "arch", "regalloc", "lower", "passes",
             "print .s", "encode", "link");
  auto cell = [](double a, double b, double c) { return fmt::format("{:.3f}/{:.3f}/{:.3f}", a, b, c); };
  for (const Stages& s : stages)
    fmt::print("{:<23} {:<6} {:>20} {:>20} {:>20} {:>20} {:>20} {:>20}\n", s.name, arch_name(s.arch),
               cell(s.fast.regalloc, s.direct_lld.regalloc, s.text.regalloc),
               cell(s.fast.lower, s.direct_lld.lower, s.text.lower), cell(s.fast.passes, s.direct_lld.passes, s.text.passes),
               cell(s.fast.print, s.direct_lld.print, s.text.print), cell(s.fast.encode, s.direct_lld.encode, s.text.encode),
               cell(s.fast.link, s.direct_lld.link, s.text.link));
  return 0;
}
