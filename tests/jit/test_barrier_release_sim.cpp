// A DSL kernel that hands data to another wave through s_barrier: the wait-count pass puts the
// workgroup release before the barrier (BuildOptions::barrier_release), and the simulator's
// store-visibility check (sim::Options::store_release) fails the kernel built without it,
// naming both waves. LDS, LDS DMA and global memory, on both archs.
#include <catch2/catch.hpp>

#include "jit/kernel.hpp"
#include "runtime/device.hpp"

using namespace cdnajit;
using Catch::Matchers::Contains;

namespace {

constexpr uint32_t kThreads = 128;  // two waves

enum class Via { Lds, LdsDma, Global };

// Thread t writes 3t+1 to slot t (LDS, or LDS through an LDS DMA from `in`, or the global buffer
// `tmp`), passes one s_barrier, then reads slot t ^ 64 (a thread of the other wave) into out[t].
// No s_waitcnt before the barrier is written by hand: it is the pass's to insert.
BuildResult handoff_kernel(Arch arch, Via via, BarrierRelease release) {
  Kernel k("handoff", arch);
  k.set_workgroup_size(kThreads);
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg tmp = k.load_arg(k.arg<uint32_t*>("tmp"));
  Reg in = k.load_arg(k.arg<const uint32_t*>("in"));
  const uint32_t lds = k.lds_alloc("slots", kThreads * 4);
  Reg tid = k.workitem_id(0);
  Reg addr = k.vgpr("addr"), other = k.vgpr("other"), v = k.vgpr("v"), got = k.vgpr("got");
  k.v_lshlrev_b32(addr, 2, tid);
  k.v_xor_b32(other, 256, addr);  // the same lane of the other wave
  k.v_mad_u32_u24(v, tid, 3, 1);
  switch (via) {
    case Via::Lds: k.ds_write_b32(addr, v, Offset(int32_t(lds))); break;
    case Via::Global: k.global_store_dword(addr, v, tmp); break;
    case Via::LdsDma: {
      // M0 = the wave's first LDS slot; the DMA writes lane l's dword at M0 + 4l.
      Reg base = k.vgpr("base");
      Reg m0v = k.sgpr("m0v");
      k.v_and_b32(base, 0x100, addr);
      k.v_readfirstlane_b32(m0v, base);
      k.s_mov_b32(m0, m0v);
      k.global_load_lds_dword(addr, in);
      break;
    }
  }
  k.s_barrier();
  if (via == Via::Global) k.global_load_dword(got, other, tmp);
  else k.ds_read_b32(got, other, Offset(int32_t(lds)));
  k.global_store_dword(addr, got, out);
  k.s_endpgm();
  BuildOptions o;
  o.barrier_release = release;
  o.use_cache = false;
  return k.build(o);
}

// The instruction right before the (only) s_barrier in the kernel's assembly.
std::string before_barrier(const BuildResult& b) {
  const std::string& s = b.assembly;
  size_t at = s.find("s_barrier");
  REQUIRE(at != std::string::npos);
  size_t end = s.rfind('\n', at);
  size_t begin = s.rfind('\n', end - 1);
  std::string line = s.substr(begin + 1, end - begin - 1);
  line.erase(0, line.find_first_not_of(" \t"));
  return line.substr(0, line.find(" ;"));
}

// Runs the kernel; returns "" and checks out[t] == 3 (t ^ 64) + 1, or returns the simulator's Error.
std::string run(Arch arch, const BuildResult& b, sim::Options::StoreRelease mode) {
  sim::Options o;
  o.store_release = mode;
  auto dev = open_sim_device(arch, o);
  Module m = dev->load(b.code_object);
  std::vector<uint32_t> in(kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) in[t] = 3 * t + 1;
  Buffer out = dev->alloc(kThreads * 4, "out"), tmp = dev->alloc(kThreads * 4, "tmp");
  Buffer src = dev->upload(in, "in");
  KernelArgs args;
  args.ptr(out).ptr(tmp).ptr(src);
  try {
    dev->launch(m.kernel("handoff"), Dim3{1, 1, 1}, Dim3{kThreads, 1, 1}, 0, args);
  } catch (const Error& e) {
    return e.what();
  }
  std::vector<uint32_t> got = dev->download<uint32_t>(out);
  int bad = 0;
  for (uint32_t t = 0; t < kThreads; ++t)
    if (got[t] != 3 * (t ^ 64) + 1 && bad++ == 0) FAIL_CHECK("thread " << t << ": got " << got[t]);
  CHECK(bad == 0);
  return "";
}

using SR = sim::Options::StoreRelease;

}  // namespace

TEST_CASE("barrier release: the pass waits for LDS stores before s_barrier; without it the simulator names both waves",
          "[barrier][sim]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    BuildResult b = handoff_kernel(arch, Via::Lds, BarrierRelease::Lds);
    CHECK(before_barrier(b) == "s_waitcnt lgkmcnt(0)");
    CHECK(run(arch, b, SR::Lds) == "");
    BuildResult none = handoff_kernel(arch, Via::Lds, BarrierRelease::None);
    CHECK(before_barrier(none).rfind("ds_write_b32", 0) == 0);
    std::string msg = run(arch, none, SR::Lds);
    INFO(msg);
    // Wave 0 runs past the barrier first and reads what wave 1 stored.
    CHECK_THAT(msg, Contains("ds_read_b32") && Contains("workgroup (0,0,0) wave 0, lane 0"));
    CHECK_THAT(msg, Contains("reads LDS bytes [0x100, 0x104) that wave 1 of this workgroup stored with 'ds_write_b32"));
    CHECK_THAT(msg, Contains("passed the s_barrier at pc") && Contains("needs s_waitcnt lgkmcnt(0) before that s_barrier"));
    CHECK(run(arch, none, SR::None) == "");  // the check switched off: the simulator's memory is coherent at issue
  }
}

TEST_CASE("barrier release: LDS DMA is waited for before s_barrier in every mode", "[barrier][sim]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950})
    for (BarrierRelease r : {BarrierRelease::None, BarrierRelease::Lds}) {
      BuildResult b = handoff_kernel(arch, Via::LdsDma, r);
      CHECK(before_barrier(b) == "s_waitcnt vmcnt(0)");
      CHECK(run(arch, b, SR::Lds) == "");
    }
}

TEST_CASE("barrier release: global stores are waited for under All, and checked when the simulator is told to",
          "[barrier][sim]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    BuildResult all = handoff_kernel(arch, Via::Global, BarrierRelease::All);
    CHECK(before_barrier(all) == "s_waitcnt vmcnt(0)");
    CHECK(run(arch, all, SR::All) == "");
    BuildResult lds = handoff_kernel(arch, Via::Global, BarrierRelease::Lds);
    CHECK(before_barrier(lds).rfind("global_store_dword", 0) == 0);
    // Not threadgroup-split: LLVM's memory model needs no wait, and the simulator's default agrees.
    CHECK(run(arch, lds, SR::Lds) == "");
    std::string msg = run(arch, lds, SR::All);
    INFO(msg);
    CHECK_THAT(msg, Contains("global_load_dword") && Contains("wave 0, lane 0"));
    CHECK_THAT(msg, Contains("reads global bytes") && Contains("that wave 1 of this workgroup stored with 'global_store_dword"));
    CHECK_THAT(msg, Contains("needs s_waitcnt vmcnt(0) before that s_barrier"));
  }
}
