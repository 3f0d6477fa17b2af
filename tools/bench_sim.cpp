// Benchmark: simulator throughput in lane-operations per second on a VALU-heavy
// and an LDS-heavy JIT kernel, with 1 host thread and with all host threads.
// A lane-op is one active lane of one executed VALU/MFMA instruction (the
// simulator's own count); DS lane traffic is reported as wave-instructions.
// The MFMA-heavy kernel (bf16, CDNA3 numerics) is reported in GFLOP/s
// (2 * M * N * K per executed MFMA).
#include <fmt/format.h>

#include <ctime>
#include <thread>
#include <vector>

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

void run(const char* label, const BuildResult& b, uint32_t groups, uint32_t iters) {
  CodeObject co = read_code_object(b.code_object);
  for (int threads : {1, int(std::max(1u, std::thread::hardware_concurrency()))}) {
    sim::Simulator s(b.arch);
    uint64_t out = s.memory().alloc(size_t(groups) * 256 * 4, "out");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &out, 8);
    std::memcpy(ka.data() + 8, &iters, 4);
    sim::LaunchDims d;
    d.grid[0] = groups;
    d.block[0] = 256;
    sim::Options o;
    o.threads = threads;
    s.launch(co, b.name, ka, d, o);  // warm-up: decode
    const double cpu0 = cpu_seconds();
    sim::Stats st = s.launch(co, b.name, ka, d, o);
    const double cpu = cpu_seconds() - cpu0;
    uint64_t ds = st.by_unit[int(isa::Unit::DS)];
    if (uint64_t mfma = st.by_unit[int(isa::Unit::MFMA)]; mfma > 0) {
      const double flops = 2.0 * 16 * 16 * (b.arch == Arch::gfx950 ? 32 : 16) * double(mfma);
      fmt::print("{:<11} {:<7} threads={} {:>8.3f} s  {:>7.3f} GFLOP/s  per CPU-s {:>7.3f}  bf16 MFMA, CDNA3 numerics  ({} MFMA wave-instr)\n",
                 label, arch_name(b.arch), threads, st.seconds, flops / st.seconds / 1e9, flops / cpu / 1e9, mfma);
      continue;
    }
    fmt::print("{:<11} {:<7} threads={} {:>8.3f} s  {:>7.3f} G lane-ops/s  per CPU-s {:>7.3f}  {:>8.1f} M wave-instr/s  ({} DS wave-instr)\n",
               label, arch_name(b.arch), threads, st.seconds, double(st.lane_ops) / st.seconds / 1e9,
               double(st.lane_ops) / cpu / 1e9, double(st.wave_instructions) / st.seconds / 1e6, ds);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Optional arguments: the kernels to run (VALU-heavy, LDS-heavy, MFMA-heavy); default all.
  auto wanted = [&](std::string_view label) {
    if (argc < 2) return true;
    for (int i = 1; i < argc; ++i)
      if (label == argv[i]) return true;
    return false;
  };
  for (int i = 1; i < argc; ++i)
    if (std::string_view a = argv[i]; a != "VALU-heavy" && a != "LDS-heavy" && a != "MFMA-heavy") {
      fmt::print(stderr, "bench_sim: unknown kernel '{}' (valid: VALU-heavy, LDS-heavy, MFMA-heavy)\n", a);
      return 2;
    }
  fmt::print("cdnajit simulator throughput (simulated on this host CPU; no GPU)\n");
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    if (wanted("VALU-heavy")) run("VALU-heavy", valu_kernel(arch), 256, 400);
    if (wanted("LDS-heavy")) run("LDS-heavy", lds_kernel(arch), 256, 200);
    if (wanted("MFMA-heavy")) run("MFMA-heavy", mfma_kernel(arch), 16, 40);
  }
  return 0;
}
