// Benchmark: simulator throughput in lane-operations per second on a VALU-heavy
// and an LDS-heavy JIT kernel, with 1 host thread and with all host threads.
// A lane-op is one active lane of one executed VALU/MFMA instruction (the
// simulator's own count); DS lane traffic is reported as wave-instructions.
#include <fmt/format.h>

#include <thread>
#include <vector>

#include "jit/kernel.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"

using namespace cdnajit;

namespace {

// Each thread runs `iters` loop trips of 32 dependent-free FMAs on 8 accumulators.
BuildResult valu_kernel(Arch arch) {
  Kernel k("valu_heavy", arch);
  k.set_workgroup_size(256);
  Reg out = k.load_arg(k.arg_ptr("out", ElemType::f32, false));
  Reg iters = k.load_arg(k.arg_value("iters", ArgType::u32));
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
  Reg off = k.vgpr("off"), gid = k.vgpr("gid"), base = k.sgpr("base");
  k.s_lshl_b32(base, k.workgroup_id(0), 8);
  k.v_add_u32(gid, base, k.workitem_id(0));
  k.v_lshlrev_b32(off, 2, gid);
  k.global_store_dword(off, acc[0], out);
  return k.build();
}

// Each thread writes then reads back LDS words: 8 ds_write_b32 + 8 ds_read_b32 + adds per trip.
BuildResult lds_kernel(Arch arch) {
  Kernel k("lds_heavy", arch);
  k.set_workgroup_size(256);
  Reg out = k.load_arg(k.arg_ptr("out", ElemType::f32, false));
  Reg iters = k.load_arg(k.arg_value("iters", ArgType::u32));
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
  Reg off = k.vgpr("off"), gid = k.vgpr("gid"), base = k.sgpr("base");
  k.s_lshl_b32(base, k.workgroup_id(0), 8);
  k.v_add_u32(gid, base, k.workitem_id(0));
  k.v_lshlrev_b32(off, 2, gid);
  k.global_store_dword(off, v, out);
  return k.build();
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
    sim::Stats st = s.launch(co, b.name, ka, d, o);
    uint64_t ds = st.by_unit[int(isa::Unit::DS)];
    fmt::print("{:<11} {:<7} threads={} {:>8.3f} s  {:>7.3f} G lane-ops/s  {:>8.1f} M wave-instr/s  ({} DS wave-instr)\n",
               label, arch_name(b.arch), threads, st.seconds, double(st.lane_ops) / st.seconds / 1e9,
               double(st.wave_instructions) / st.seconds / 1e6, ds);
  }
}

}  // namespace

int main() {
  fmt::print("cdnajit simulator throughput (simulated on this host CPU; no GPU)\n");
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    run("VALU-heavy", valu_kernel(arch), 256, 400);
    run("LDS-heavy", lds_kernel(arch), 256, 200);
  }
  return 0;
}
