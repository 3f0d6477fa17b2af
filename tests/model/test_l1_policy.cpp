// The vector L1 policy of the memory hierarchy (Hardware::l1_miss_on_sc1_load, l1_miss_on_nt_load,
// l1_invalidated_by_buffer_inv; runtime/model/memory_hierarchy.hpp) on the project's own probe: one
// wave warms a line with a plain load, optionally does something to it, then times one more load of
// it with s_memtime, as a cache-latency microbenchmark does. Under the model the timed load takes
// the L1 latency when the L1 serves it and the L2 latency when an sc1 or nt load, a preceding
// buffer_inv sc1 / sc0, or a store to a line the L1 never held sends it to the L2.
#include <catch2/catch.hpp>

#include <cstring>

#include "jit/kernel.hpp"
#include "runtime/model/launch_model.hpp"
#include "jit/codeobject/code_object.hpp"

using namespace cdnajit;

namespace {

// What the probe does before the timed load, and the timed load's cache-policy bits.
enum class Before { Nothing, InvSc1, InvSc0, InvNoScope, StoreOtherLine };
enum class Bits { None, Sc0, Sc1, Nt };

struct Built {
  CodeObject co;
  std::string name;
};

// One wave, every lane at data[0] (one line), or data[32] (the next line) for StoreOtherLine.
// Stores the timed load's s_memtime difference at out[0] (uint64).
Built probe(Arch arch, Before before, Bits bits) {
  Kernel k("l1_policy_probe", arch);
  k.set_workgroup_size(64);
  Reg data = k.load_arg(k.arg<uint32_t*>("data"));
  Reg out = k.load_arg(k.arg<int64_t*>("out"));
  Reg off = k.vgpr("off"), x = k.vgpr("x");
  k.v_mov_b32(off, before == Before::StoreOtherLine ? 128 : 0);
  k.s_waitcnt(lgkmcnt(0));
  if (before != Before::StoreOtherLine) {
    k.global_load_dword(x, off, data);  // warm: the line in the L1 (and L2)
    k.s_waitcnt(vmcnt(0));
  }
  switch (before) {
    case Before::InvSc1: k.buffer_inv(sc1); break;
    case Before::InvSc0: k.buffer_inv(sc0); break;
    case Before::InvNoScope: k.buffer_inv(); break;
    case Before::StoreOtherLine: k.global_store_dword(off, off, data); break;  // a line no load brought in
    case Before::Nothing: break;
  }
  k.s_waitcnt(vmcnt(0));
  Reg t0 = k.sgpr("t0", 2), t1 = k.sgpr("t1", 2), d = k.sgpr("d", 2);
  k.s_memtime(t0);
  switch (bits) {
    case Bits::None: k.global_load_dword(x, off, data); break;
    case Bits::Sc0: k.global_load_dword(x, off, data, sc0); break;
    case Bits::Sc1: k.global_load_dword(x, off, data, sc1); break;
    case Bits::Nt: k.global_load_dword(x, off, data, nt); break;
  }
  k.s_waitcnt(vmcnt(0));
  k.s_memtime(t1);
  k.s_waitcnt(lgkmcnt(0));
  k.s_sub_u32(d[0], t1[0], t0[0]);
  k.s_subb_u32(d[1], t1[1], t0[1]);
  Reg v = k.vgpr("v", 2), z = k.vgpr("z");
  k.v_mov_b32(v[0], d[0]);
  k.v_mov_b32(v[1], d[1]);
  k.v_mov_b32(z, 0);
  k.global_store_dwordx2(z, v, out);
  k.s_endpgm();
  BuildResult r = k.build();
  return {read_code_object(r.code_object), r.name};
}

// The probe's modelled cycles for its timed load.
int64_t timed_cycles(const model::Hardware& hw, Before before, Bits bits) {
  const Built b = probe(hw.arch, before, bits);
  sim::Simulator sim(b.co.arch);
  const uint64_t data = sim.memory().alloc(4096, "data");
  const uint64_t out = sim.memory().alloc(8, "out");
  std::vector<uint8_t> ka(16);
  std::memcpy(ka.data(), &data, 8);
  std::memcpy(ka.data() + 8, &out, 8);
  sim::LaunchDims d;
  d.grid[0] = 64;
  d.block[0] = 64;
  model::model_launch(sim, b.co, b.name, ka, d, {}, hw);
  uint64_t t = 0;
  sim.memory().read(out, &t, 8);
  return int64_t(t);
}

}  // namespace

TEST_CASE("L1 policy: sc1 and nt loads, and loads after buffer_inv sc1/sc0, are served by the L2", "[model][memory][l1policy]") {
  for (const char* name : {"mi300x", "mi355x"}) {
    const model::Hardware& hw = model::product(name);
    INFO(name);
    const int64_t hit = timed_cycles(hw, Before::Nothing, Bits::None);
    // What the model adds around the load (issue turns between the clock reads and the load) is the
    // same in every variant, so the differences are the levels' latencies.
    const int64_t l2_minus_l1 = hw.l2_latency - hw.l1_latency;
    CHECK(hit >= hw.l1_latency);
    CHECK(hit < hw.l1_latency + 16);
    CHECK(timed_cycles(hw, Before::Nothing, Bits::Sc1) - hit == l2_minus_l1);
    CHECK(timed_cycles(hw, Before::Nothing, Bits::Nt) - hit == l2_minus_l1);
    CHECK(timed_cycles(hw, Before::InvSc1, Bits::None) - hit == l2_minus_l1);
    CHECK(timed_cycles(hw, Before::InvSc0, Bits::None) - hit == l2_minus_l1);
    // Workgroup-scope loads (sc0 alone) keep using the CU's L1, which the workgroup shares; a
    // buffer_inv without scope bits (wavefront scope) leaves it: both assumed, AMDGPUUsage pairs
    // neither with an L1 invalidate.
    CHECK(timed_cycles(hw, Before::Nothing, Bits::Sc0) == hit);
    CHECK(timed_cycles(hw, Before::InvNoScope, Bits::None) == hit);
    // Write-no-allocate: a load of a line only stored to comes from the L2 (where the store left it dirty).
    CHECK(timed_cycles(hw, Before::StoreOtherLine, Bits::None) - hit == l2_minus_l1);
  }
}

TEST_CASE("L1 policy: each rule is a switch of the hardware description", "[model][memory][l1policy]") {
  model::Hardware hw = model::product("mi300x");
  hw.l1_miss_on_sc1_load = false;
  hw.l1_miss_on_nt_load = false;
  hw.l1_invalidated_by_buffer_inv = false;
  const int64_t hit = timed_cycles(hw, Before::Nothing, Bits::None);
  CHECK(timed_cycles(hw, Before::Nothing, Bits::Sc1) == hit);
  CHECK(timed_cycles(hw, Before::Nothing, Bits::Nt) == hit);
  CHECK(timed_cycles(hw, Before::InvSc1, Bits::None) == hit);
}

TEST_CASE("cache-control instructions move no data: buffer_inv and buffer_wbl2 cost no memory traffic",
          "[model][memory][l1policy]") {
  // The ISA table gives buffer_inv and buffer_wbl2 no load, store or atomic: the CU model charges
  // them no line at any level (before, a VMEM instruction without recorded addresses was charged a
  // wave's worth of contiguous HBM lines and the HBM latency).
  for (const char* name : {"mi300x", "mi355x"}) {
    const model::Hardware& hw = model::product(name);
    INFO(name);
    Kernel k("cache_control", hw.arch);
    k.set_workgroup_size(64);
    for (int i = 0; i < 4; ++i) {
      k.buffer_inv(sc1);
      k.buffer_wbl2(sc1);
    }
    k.s_waitcnt(vmcnt(0));
    k.s_endpgm();
    BuildResult r = k.build();
    const CodeObject co = read_code_object(r.code_object);
    sim::Simulator sim(co.arch);
    sim::LaunchDims d;
    d.grid[0] = 64;
    d.block[0] = 64;
    const model::ModelReport m = model::model_launch(sim, co, r.name, {}, d, {}, hw);
    CHECK(m.cu.l2_bytes == 0);
    CHECK(m.cu.mall_bytes == 0);
    CHECK(m.cu.hbm_bytes == 0);
    CHECK(m.cycles < hw.hbm_latency);  // eight round trips to the L2 in flight together, not to HBM
  }
}
