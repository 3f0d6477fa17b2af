// Benchmark: simulator throughput in lane-operations per second on a VALU-heavy
// and an LDS-heavy JIT kernel, with 1 host thread and with all host threads.
// A lane-op is one active lane of one executed VALU/MFMA instruction (the
// simulator's own count); DS lane traffic is reported as wave-instructions.
// The MFMA-heavy kernel (bf16, CDNA3 numerics) is reported in GFLOP/s
// (2 * M * N * K per executed MFMA). The seed-dwconv row runs the seed job's JIT
// kernel on some of the seed shape's channels (wave-instructions per second, and the
// CPU time all 512 channels would take at that rate).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

#include "codegen/dwconv3d.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "jit/kernel.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"

using namespace cdnajit;

namespace {

// Every kernel's head: 256 threads per workgroup and the arguments run() packs, (float* out,
// u32 iters).
struct BenchArgs {
  Reg out, iters;
};
BenchArgs begin_kernel(Kernel& k) {
  k.set_workgroup_size(256);
  Reg out = k.load_arg(k.arg_ptr("out", ElemType::f32, false));
  Reg iters = k.load_arg(k.arg_value("iters", ArgType::u32));
  return {out, iters};
}

// Every kernel's epilogue: each thread stores its result to out[global id], which keeps the
// timed loop's work live (256 threads per workgroup).
void store_per_thread(Kernel& k, Reg value, Reg out) {
  Reg off = k.vgpr("off"), gid = k.vgpr("gid"), base = k.sgpr("base");
  k.s_lshl_b32(base, k.workgroup_id(0), 8);
  k.v_add_u32(gid, base, k.workitem_id(0));
  k.v_lshlrev_b32(off, 2, gid);
  k.global_store_dword(off, value, out);
}

// Each thread runs `iters` loop trips of 32 dependent-free FMAs on 8 accumulators.
BuildResult valu_kernel(Arch arch) {
  Kernel k("valu_heavy", arch);
  const auto [out, iters] = begin_kernel(k);
  RegArray acc = k.vgprs("acc", {8});
  Reg x = k.vgpr("x");
  k.v_cvt_f32_u32(x, k.workitem_id(0));
  for (int i = 0; i < 8; ++i) k.v_mov_b32(acc[i], float(i));
  Reg i = k.sgpr("i");
  k.s_mov_b32(i, 0);
  k.s_waitcnt(lgkmcnt(0));
  k.do_while_scc(
      [&] {
        for (int r = 0; r < 4; ++r)
          for (int a = 0; a < 8; ++a) k.v_fma_f32(acc[a], x, 0.5f, acc[a]);
        k.s_add_u32(i, i, 1);
      },
      [&] { k.s_cmp_lt_u32(i, iters); });
  for (int a = 1; a < 8; ++a) k.v_add_f32(acc[0], acc[0], acc[a]);
  store_per_thread(k, acc[0], out);
  return k.build();
}

// Each thread writes then reads back LDS words: 8 ds_write_b32 + 8 ds_read_b32 + adds per trip.
BuildResult lds_kernel(Arch arch) {
  Kernel k("lds_heavy", arch);
  const auto [out, iters] = begin_kernel(k);
  k.lds_alloc("scratch", 256 * 4 * 8);
  Reg addr = k.vgpr("addr"), v = k.vgpr("v");
  RegArray r = k.vgprs("r", {8});
  k.v_lshlrev_b32(addr, 2, k.workitem_id(0));
  k.v_mov_b32(v, 1);
  Reg i = k.sgpr("i");
  k.s_mov_b32(i, 0);
  k.s_waitcnt(lgkmcnt(0));
  k.do_while_scc(
      [&] {
        for (int j = 0; j < 8; ++j) k.ds_write_b32(addr, v, Offset(j * 1024));
        for (int j = 0; j < 8; ++j) k.ds_read_b32(r[j], addr, Offset(j * 1024));
        k.s_waitcnt(lgkmcnt(0));
        for (int j = 0; j < 8; ++j) k.v_add_u32(v, v, r[j]);
        k.s_add_u32(i, i, 1);
      },
      [&] { k.s_cmp_lt_u32(i, iters); });
  store_per_thread(k, v, out);
  return k.build();
}

// Each wave runs `iters` loop trips of 4 independent bf16 MFMAs (16x16x16 on gfx942, 16x16x32 on
// gfx950) on operands made per lane from the workitem id (finite, mixed exponents and signs).
BuildResult mfma_kernel(Arch arch) {
  Kernel k("mfma_heavy", arch);
  const auto [out, iters] = begin_kernel(k);
  const int frag = arch == Arch::gfx950 ? 4 : 2;
  Reg a = k.vgpr("a", frag, 2), b = k.vgpr("b", frag, 2), t = k.vgpr("t");
  Reg mul = k.sgpr("mul"), mask = k.sgpr("mask"), flip = k.sgpr("flip");
  k.s_mov_b32(mask, 0xbf7fbf7fu);
  k.s_mov_b32(flip, 0x5bd1e995u);
  for (int d = 0; d < frag; ++d) {
    // bf16 pairs: a hash of the lane id, exponent field kept below 0x7f (values within (-2, 2)).
    k.s_mov_b32(mul, 0x9e3779b1u + 0x1000193u * uint32_t(d));
    k.v_mul_lo_u32(t, k.workitem_id(0), mul);
    k.v_and_b32(a[d], mask, t);
    k.v_xor_b32(t, flip, t);
    k.v_and_b32(b[d], mask, t);
  }
  std::vector<Reg> acc;
  for (int j = 0; j < 4; ++j) {
    acc.push_back(k.vgpr("acc", 4, 4));
    for (int r = 0; r < 4; ++r) k.v_mov_b32(acc.back()[r], 0.0f);
  }
  Reg i = k.sgpr("i");
  k.s_mov_b32(i, 0);
  k.s_waitcnt(lgkmcnt(0));
  k.do_while_scc(
      [&] {
        for (int j = 0; j < 4; ++j) {
          if (arch == Arch::gfx950) k.v_mfma_f32_16x16x32_bf16(acc[size_t(j)], a, b, acc[size_t(j)]);
          else k.v_mfma_f32_16x16x16_bf16(acc[size_t(j)], a, b, acc[size_t(j)]);
        }
        k.s_add_u32(i, i, 1);
      },
      [&] { k.s_cmp_lt_u32(i, iters); });
  for (int j = 1; j < 4; ++j)
    for (int r = 0; r < 4; ++r) k.v_add_f32(acc[0][r], acc[0][r], acc[size_t(j)][r]);
  for (int r = 1; r < 4; ++r) k.v_add_f32(acc[0][0], acc[0][0], acc[0][r]);
  store_per_thread(k, acc[0][0], out);
  return k.build();
}

// CPU time of the whole process (all host threads): on a loaded machine the wall time also counts
// the time other processes held the cores, the CPU time does not.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// The 1-minute load average (printed with every table: per-CPU-second rates on a shared machine
// mean little without it). -1 when /proc/loadavg is not readable.
double load_average() {
  double l = -1;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &l) != 1) l = -1;
    std::fclose(f);
  }
  return l;
}

// The whole machine's CPU time from /proc/stat (all CPUs, in seconds): busy (user, nice, system,
// irq, softirq) and steal (time the hypervisor ran something else on this guest's CPUs). Over a
// launch, busy less this process's CPU time is what other processes used, and steal what the
// host took: the two reasons a launch's wall time moves while its CPU time does not. Zeros when
// /proc/stat is not readable.
struct MachineCpu {
  double busy = 0, steal = 0;
};
MachineCpu machine_cpu() {
  MachineCpu m;
  if (FILE* f = std::fopen("/proc/stat", "r")) {
    unsigned long long user = 0, nice = 0, sys = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idle, &iowait, &irq, &softirq,
                    &steal) == 8) {
      const double tick = 1.0 / double(sysconf(_SC_CLK_TCK));
      m.busy = double(user + nice + sys + irq + softirq) * tick;
      m.steal = double(steal) * tick;
    }
    std::fclose(f);
  }
  return m;
}

struct Sizing {
  int repeat = 1;                // pairs of (1-thread, all-thread) launches, alternated
  double min_cpu_seconds = 1.0;  // each row's launch does at least this much work (CPU time), if
  uint32_t max_scale = 256;      // the loop count needs no more than max_scale times the base one
  bool quick = false;            // base loop counts only (a fraction of a second per row)
};

// A benchmark kernel and how to launch it at a given size: the size is the loop count of the
// synthetic kernels and the channel count of the seed kernel; `setup` allocates (once per size)
// and returns the kernel arguments, the grid and the output range.
struct Launchable {
  std::vector<uint8_t> kernarg;
  uint32_t groups = 0;
  uint64_t out = 0;
  size_t out_bytes = 0;
};
struct Workload {
  const char* label;
  BuildResult build;
  uint32_t base_size;  // the --quick size, and the probe that sizes the timed launches
  const char* size_name;
  uint32_t max_size;
  std::function<Launchable(sim::Simulator&, uint32_t size)> setup;
};

// The synthetic kernels: `groups` workgroups of 256 threads, arguments (float* out, u32 iters).
Workload synthetic(const char* label, BuildResult b, uint32_t groups, uint32_t base_iters) {
  return {label, std::move(b), base_iters, "iters", base_iters * 256, [groups, out = uint64_t(0)](sim::Simulator& s, uint32_t iters) mutable {
            Launchable l;
            l.groups = groups;
            l.out_bytes = size_t(groups) * 256 * 4;
            if (!out) out = s.memory().alloc(l.out_bytes, "out");
            l.out = out;
            l.kernarg.assign(16, 0);
            std::memcpy(l.kernarg.data(), &out, 8);
            std::memcpy(l.kernarg.data() + 8, &iters, 4);
            return l;
          }};
}

// The seed-shape depthwise conv3d kernel (lds_dot2 on gfx950, lds_fmac on gfx942: the seed job's
// defaults) on the first `size` channels of the seed shape, with the seed job's data (random_bf16,
// seeds 1 and 1001).
Workload seed_kernel(Arch arch) {
  codegen::DwConvShape shape = codegen::seed_shape();
  const codegen::DwVariant v = codegen::default_variant(arch);
  BuildResult b = codegen::build_dwconv3d(shape, v, arch);
  return {"seed-dwconv", std::move(b), 2, "channels", uint32_t(shape.C), [shape](sim::Simulator& s, uint32_t channels) mutable {
            shape.C = int(channels);
            const size_t in_n = size_t(shape.input_elems()), wt_n = size_t(shape.weight_elems()),
                         out_n = size_t(shape.output_elems());
            const std::vector<uint16_t> in = codegen::random_bf16(in_n, 1), wt = codegen::random_bf16(wt_n, 1001);
            Launchable l;
            const uint64_t din = s.memory().alloc(in_n * 2, "input"), dwt = s.memory().alloc(wt_n * 2, "weight");
            l.out = s.memory().alloc(out_n * 2, "output");
            l.out_bytes = out_n * 2;
            s.memory().write(din, in.data(), in_n * 2);
            s.memory().write(dwt, wt.data(), wt_n * 2);
            l.groups = uint32_t(codegen::dwconv_geometry(shape, s.arch(), codegen::default_variant(s.arch())).grid_x);
            l.kernarg.assign(24, 0);
            std::memcpy(l.kernarg.data(), &din, 8);
            std::memcpy(l.kernarg.data() + 8, &dwt, 8);
            std::memcpy(l.kernarg.data() + 16, &l.out, 8);
            return l;
          }};
}

// One launch with `threads` host threads.
struct Run {
  sim::Stats st;
  double cpu = 0;
  double others = 0, steal = 0;  // CPU-seconds other processes used and the host took during the launch
  std::vector<uint8_t> out;
};
Run launch(sim::Simulator& s, const CodeObject& co, const Workload& wl, const Launchable& l, int threads) {
  s.memory().write(l.out, std::vector<uint8_t>(l.out_bytes, 0).data(), l.out_bytes);
  sim::LaunchDims d;
  d.grid[0] = l.groups;
  d.block[0] = 256;
  sim::Options o;
  o.threads = threads;
  Run r;
  const MachineCpu m0 = machine_cpu();
  const double cpu0 = cpu_seconds();
  r.st = s.launch(co, wl.build.name, l.kernarg, d, o);
  r.cpu = cpu_seconds() - cpu0;
  const MachineCpu m1 = machine_cpu();
  r.others = std::max(0.0, m1.busy - m0.busy - r.cpu);
  r.steal = m1.steal - m0.steal;
  r.out.resize(l.out_bytes);
  s.memory().read(l.out, r.out.data(), l.out_bytes);
  return r;
}

// Runs the workload with 1 host thread and with all of them on the same work: the size is the
// base one scaled so that the 1-thread launch takes about Sizing::min_cpu_seconds of CPU time
// (measured on a launch of the base size, which also decodes the kernel). Prints one line per
// thread count and the all-thread / 1-thread wall ratio; the outputs of both must be identical.
// With --repeat N the pair of launches runs N times, alternately, and a last line gives the
// medians of the 1-thread wall rate and of the wall ratio: one pair's ratio moves with whatever
// else the machine ran during either launch (its lines say how much: others, steal).
bool run(const Workload& wl, const Sizing& z) {
  const BuildResult& b = wl.build;
  const char* label = wl.label;
  CodeObject co = read_code_object(b.code_object);
  sim::Simulator s(b.arch);
  const Run probe = launch(s, co, wl, wl.setup(s, wl.base_size), 1);
  uint32_t size = wl.base_size;
  if (!z.quick) {
    const double want = z.min_cpu_seconds / std::max(probe.cpu, 1e-6);
    size = uint32_t(std::min(double(wl.max_size), double(wl.base_size) * std::clamp(std::ceil(want), 1.0, double(z.max_scale))));
  }
  const Launchable l = wl.setup(s, size);
  const int all = int(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<uint8_t> out1;
  std::vector<double> wall_ratios, rates1;
  bool same = true;
  for (int rep = 0; rep < z.repeat; ++rep) {
    double wall1 = 0, wall_all = 0, cpu1 = 0, cpu_all = 0;
    for (int threads : {1, all}) {
      const Run r = launch(s, co, wl, l, threads);
      const sim::Stats& st = r.st;
      if (threads == 1) wall1 = st.seconds, cpu1 = r.cpu;
      else wall_all = st.seconds, cpu_all = r.cpu;
      if (out1.empty()) out1 = r.out;
      else same &= r.out == out1;
      const uint64_t ds = st.by_unit[int(isa::Unit::DS)];
      const std::string head = fmt::format("{:<11} {:<7} threads={} {}={:<5} {:>7.3f} s wall {:>7.3f} s CPU ", label,
                                           arch_name(b.arch), threads, wl.size_name, size, st.seconds, r.cpu);
      // Cores this process used during the launch (its CPU time over the wall time), those other
      // processes used and those the host took (steal): a launch on n threads that used fewer than
      // n cores while the others used none waited inside the simulator (a serial part, a tail).
      const std::string busy = fmt::format("  cores: this {:.2f} others {:.2f} steal {:.2f}", r.cpu / st.seconds,
                                           r.others / st.seconds, r.steal / st.seconds);
      double rate = 0;
      if (uint64_t mfma = st.by_unit[int(isa::Unit::MFMA)]; mfma > 0) {
        const double flops = 2.0 * 16 * 16 * (b.arch == Arch::gfx950 ? 32 : 16) * double(mfma);
        rate = flops / st.seconds / 1e9;
        fmt::print("{} {:>7.3f} GFLOP/s  per CPU-s {:>7.3f}  bf16 MFMA, CDNA3 numerics  ({} MFMA wave-instr){}\n", head,
                   rate, flops / r.cpu / 1e9, mfma, busy);
      } else {
        rate = double(st.lane_ops) / st.seconds / 1e9;
        fmt::print("{} {:>7.3f} G lane-ops/s  per CPU-s {:>7.3f}  {:>6.1f} M wave-instr/s  per CPU-s {:>6.1f}  ({} DS wave-instr){}\n",
                   head, rate, double(st.lane_ops) / r.cpu / 1e9, double(st.wave_instructions) / st.seconds / 1e6,
                   double(st.wave_instructions) / r.cpu / 1e6, ds, busy);
      }
      if (threads == 1) rates1.push_back(rate);
      if (wl.size_name == std::string_view("channels") && threads == 1)
        fmt::print("{:<11} {:<7} the seed shape's 512 channels at this rate: {:.1f} CPU-s\n", label, arch_name(b.arch),
                   r.cpu * 512.0 / size);
      if (all == 1) break;
    }
    if (all > 1) {
      // The CPU ratio is the cost of threading (1.00: none); the wall ratio is the speed-up, which on a
      // loaded machine also depends on how much of the cores the scheduler gives this process.
      wall_ratios.push_back(wall1 / std::max(wall_all, 1e-9));
      fmt::print("{:<11} {:<7} {}-thread / 1-thread wall ratio {:.2f}x, CPU-time ratio {:.2f}  (load average {:.2f})\n", label,
                 arch_name(b.arch), all, wall_ratios.back(), cpu_all / std::max(cpu1, 1e-9), load_average());
    }
  }
  if (z.repeat > 1) {
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v.empty() ? 0.0 : v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
    };
    fmt::print("{:<11} {:<7} median of {} pairs: 1-thread {:.3f} {} per wall-s", label, arch_name(b.arch), z.repeat,
               median(rates1), std::string_view(label) == "MFMA-heavy" ? "GFLOP" : "G lane-ops");
    if (all > 1) fmt::print(", {}-thread / 1-thread wall ratio {:.2f}x", all, median(wall_ratios));
    fmt::print("\n");
  }
  if (!same)
    fmt::print(stderr, "bench_sim: {} {}: the output with {} threads differs from the 1-thread output\n", label,
               arch_name(b.arch), all);
  return same;
}

}  // namespace

int main(int argc, char** argv) {
  // Arguments: the kernels to run (VALU-heavy, LDS-heavy, MFMA-heavy, seed-dwconv; default all),
  // --arch gfx942|gfx950 (default both), --quick (the base sizes, a fraction of a second per row)
  // or --seconds S (the 1-thread CPU time a row aims at; default 1), --repeat N (pairs of 1-thread and
  // all-thread launches per row, alternated, with their medians; default 1).
  Sizing z;
  std::vector<std::string_view> kernels;
  std::string_view arch_filter = "all";
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--quick") {
      z.quick = true;
    } else if (a == "--seconds" && i + 1 < argc) {
      char* end = nullptr;
      z.min_cpu_seconds = std::strtod(argv[++i], &end);
      if (end == argv[i] || *end || !(z.min_cpu_seconds > 0 && z.min_cpu_seconds <= 600)) {
        fmt::print(stderr, "bench_sim: --seconds '{}' is not a number of seconds in (0, 600]\n", argv[i]);
        return 2;
      }
    } else if (a == "--repeat" && i + 1 < argc) {
      char* end = nullptr;
      const long n = std::strtol(argv[++i], &end, 10);
      if (end == argv[i] || *end || n < 1 || n > 100) {
        fmt::print(stderr, "bench_sim: --repeat '{}' is not a count of launch pairs in 1..100\n", argv[i]);
        return 2;
      }
      z.repeat = int(n);
    } else if (a == "--arch" && i + 1 < argc) {
      const std::string_view n = argv[++i];
      if (n != "gfx942" && n != "gfx950" && n != "all") {
        fmt::print(stderr, "bench_sim: --arch '{}' is not gfx942, gfx950 or all\n", n);
        return 2;
      }
      arch_filter = n;
    } else if (a == "VALU-heavy" || a == "LDS-heavy" || a == "MFMA-heavy" || a == "seed-dwconv") {
      kernels.push_back(a);
    } else {
      fmt::print(stderr, "bench_sim: unknown argument '{}' (valid: VALU-heavy, LDS-heavy, MFMA-heavy, seed-dwconv, --arch gfx942|gfx950|all, --quick, --seconds S, --repeat N)\n", a);
      return 2;
    }
  }
  auto wanted = [&](std::string_view label) {
    return kernels.empty() || std::find(kernels.begin(), kernels.end(), label) != kernels.end();
  };
  fmt::print("cdnajit simulator throughput (simulated on this host CPU; no GPU); load average {:.2f}\n", load_average());
  bool same = true;
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    if (arch_filter != "all" && arch_filter != arch_name(arch)) continue;
    if (wanted("VALU-heavy")) same &= run(synthetic("VALU-heavy", valu_kernel(arch), 256, 400), z);
    if (wanted("LDS-heavy")) same &= run(synthetic("LDS-heavy", lds_kernel(arch), 256, 200), z);
    if (wanted("MFMA-heavy")) same &= run(synthetic("MFMA-heavy", mfma_kernel(arch), 16, 40), z);
    if (wanted("seed-dwconv")) same &= run(seed_kernel(arch), z);
  }
  fmt::print("load average at the end {:.2f}\n", load_average());
  return same ? 0 : 1;
}
