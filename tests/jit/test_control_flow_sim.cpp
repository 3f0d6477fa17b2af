// The builder's structured control flow (uniform do-while and if/else on SCC,
// divergent if/else on an exec mask) executed by the simulator and checked
// against the same logic on the CPU, on both archs.
#include <catch2/catch.hpp>

#include "jit/kernel.hpp"
#include "runtime/device.hpp"

using namespace cdnajit;

namespace {

// out[tid] for a 128-thread workgroup, given the uniform argument `count`:
//   acc = 0; i = 0; do { acc += 3; ++i; } while (i < count);
//   if (count == 0) acc = 1; else acc += 7;
//   if (tid < 37) v = acc * 2; else { v = acc + tid; if (tid >= 100) v *= 2; }   (nested divergent if)
BuildResult control_flow_kernel(Arch arch) {
  Kernel k("control_flow", arch);
  k.set_workgroup_size(128);
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg count = k.load_arg(k.arg<uint32_t>("count"));
  Reg tid = k.workitem_id(0);
  Reg i = k.sgpr("i"), acc = k.sgpr("acc");
  k.s_mov_b32(i, 0);
  k.s_mov_b32(acc, 0);
  k.s_waitcnt(lgkmcnt(0));
  k.do_while_scc([&] { k.s_add_u32(acc, acc, 3); k.s_add_u32(i, i, 1); },
                 [&] { k.s_cmp_lt_u32(i, count); });
  k.if_scc([&] { k.s_cmp_eq_u32(count, 0); }, [&] { k.s_mov_b32(acc, 1); }, [&] { k.s_add_u32(acc, acc, 7); });
  Reg v = k.vgpr("v");
  k.if_vcc([&] { k.v_cmp_gt_u32(vcc, 37, tid); },
           [&] { k.v_lshlrev_b32(v, 1, acc); },
           [&] {
             k.v_add_u32(v, acc, tid);
             k.if_vcc([&] { k.v_cmp_le_u32(vcc, 100, tid); }, [&] { k.v_lshlrev_b32(v, 1, v); });
           });
  Reg off = k.vgpr("off");
  k.v_lshlrev_b32(off, 2, tid);
  k.global_store_dword(off, v, out);
  k.s_endpgm();
  return k.build();
}

}  // namespace

uint32_t expected(uint32_t tid, uint32_t count) {
  uint32_t acc = 0, i = 0;
  do {
    acc += 3;
    ++i;
  } while (i < count);
  if (count == 0) acc = 1;
  else acc += 7;
  if (tid < 37) return acc * 2;
  uint32_t v = acc + tid;
  if (tid >= 100) v *= 2;
  return v;
}

TEST_CASE("structured control flow runs on the simulator as written", "[builder][cfg][sim]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    BuildResult r = control_flow_kernel(arch);
    auto dev = open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
    Module m = dev->load(r.code_object);
    for (uint32_t count : {0u, 1u, 5u}) {
      INFO(arch_name(arch) << " count=" << count);
      Buffer out = dev->alloc(128 * 4, "out");
      KernelArgs args;
      args.ptr(out).u32(count);
      dev->launch(m.kernel("control_flow"), Dim3{1, 1, 1}, Dim3{128, 1, 1}, 0, args);
      std::vector<uint32_t> got = dev->download<uint32_t>(out);
      int bad = 0;
      for (uint32_t t = 0; t < 128; ++t)
        if (got[t] != expected(t, count)) {
          if (bad++ == 0) FAIL_CHECK("thread " << t << ": got " << got[t] << ", want " << expected(t, count));
        }
      CHECK(bad == 0);
    }
  }
}
