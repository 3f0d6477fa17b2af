// The wait-count pass at s_barrier: the workgroup release of LLVM's memory model
// (passes::BarrierRelease). Before a barrier, this wave's LDS stores must be complete
// (lgkmcnt) so that the waves passing the barrier see them; under All its global stores
// too (vmcnt); LDS DMA always. Stores never wait for each other.
#include <catch2/catch.hpp>

#include "program_text.hpp"

using namespace cdnajit;
using passes::BarrierRelease;
using passes::Mode;
using passes_test::findings_text;
using passes_test::program;
using passes_test::text;
using Lines = std::vector<std::string>;

namespace {

Lines auto_text(const Lines& in, BarrierRelease release, Arch arch = Arch::gfx942) {
  auto p = program(in);
  passes::run_waitcnt(p, arch, Mode::Auto, release);
  CHECK(findings_text(passes::run_waitcnt(p, arch, Mode::Verify, release).findings) == "");
  return text(p);
}

std::vector<passes::Finding> verify(const Lines& in, BarrierRelease release, Arch arch = Arch::gfx942) {
  auto p = program(in);
  return passes::run_waitcnt(p, arch, Mode::Verify, release).findings;
}

const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};

}  // namespace

TEST_CASE("barrier release: ds_write -> s_barrier -> ds_read gets lgkmcnt(0) before the barrier", "[waitcnt][barrier]") {
  const Lines in = {"ds_write_b32 v1, v2", "s_barrier", "ds_read_b32 v3, v4", "s_waitcnt lgkmcnt(0)",
                    "v_mov_b32_e32 v5, v3", "s_endpgm"};
  for (Arch arch : kArchs) {
    for (BarrierRelease r : {BarrierRelease::Lds, BarrierRelease::All})
      CHECK(auto_text(in, r, arch) == Lines{"ds_write_b32 v1, v2", "s_waitcnt lgkmcnt(0)", "s_barrier", "ds_read_b32 v3, v4",
                                            "s_waitcnt lgkmcnt(0)", "v_mov_b32_e32 v5, v3", "s_endpgm"});
    CHECK(auto_text(in, BarrierRelease::None, arch) == in);
    // The default overload is Lds.
    auto p = program(in);
    passes::run_waitcnt(p, arch, Mode::Auto);
    CHECK(text(p)[1] == "s_waitcnt lgkmcnt(0)");
    CHECK(p[1].comment.find("LDS stores") != std::string::npos);
    CHECK(p[1].comment.find("ds_write_b32 #0") != std::string::npos);
    // Verify names the barrier, the store and the wait.
    auto f = verify(in, BarrierRelease::Lds, arch);
    REQUIRE(f.size() == 1);
    CHECK(f[0].index == 1);
    CHECK(f[0].rule == "waitcnt");
    INFO(f[0].message);
    CHECK(f[0].message.find("'s_barrier' (instruction #1) releases LDS stores (ds_write_b32 #0) to the other waves") !=
          std::string::npos);
    CHECK(f[0].message.find("needs 's_waitcnt lgkmcnt(0)' before it") != std::string::npos);
    CHECK(verify(in, BarrierRelease::None, arch).empty());
  }
}

TEST_CASE("barrier release: the weakest wait, atomics, FLAT, and stores never wait for each other", "[waitcnt][barrier]") {
  // Two DS stores in a row: no wait between them (the pseudo-register is only read by s_barrier).
  CHECK(auto_text({"ds_write_b32 v1, v2", "ds_write_b32 v1, v2 offset:4", "ds_add_u32 v1, v2", "s_barrier", "s_endpgm"},
                  BarrierRelease::Lds) ==
        Lines{"ds_write_b32 v1, v2", "ds_write_b32 v1, v2 offset:4", "ds_add_u32 v1, v2", "s_waitcnt lgkmcnt(0)",
              "s_barrier", "s_endpgm"});
  // A DS read issued after the store still lets the store be waited for with lgkmcnt(1).
  CHECK(auto_text({"ds_write_b32 v1, v2", "ds_read_b32 v3, v4", "s_barrier", "s_waitcnt lgkmcnt(0)", "v_mov_b32_e32 v5, v3",
                   "s_endpgm"},
                  BarrierRelease::Lds) == Lines{"ds_write_b32 v1, v2", "ds_read_b32 v3, v4", "s_waitcnt lgkmcnt(1)",
                                                "s_barrier", "s_waitcnt lgkmcnt(0)", "v_mov_b32_e32 v5, v3", "s_endpgm"});
  // An author wait before the barrier is enough: nothing inserted, nothing reported.
  const Lines waited = {"ds_write_b32 v1, v2", "s_waitcnt lgkmcnt(0)", "s_barrier", "s_endpgm"};
  CHECK(auto_text(waited, BarrierRelease::Lds) == waited);
  CHECK(verify(waited, BarrierRelease::All).empty());
  // A DS read alone needs nothing at the barrier (its result is waited for where it is used).
  CHECK(auto_text({"ds_read_b32 v3, v4", "s_barrier", "s_endpgm"}, BarrierRelease::Lds) ==
        Lines{"ds_read_b32 v3, v4", "s_barrier", "s_endpgm"});
  // A FLAT store may write LDS or global memory: Lds waits for it on both counters (FLAT forces 0).
  CHECK(auto_text({"flat_store_dword v[1:2], v3", "s_barrier", "s_endpgm"}, BarrierRelease::Lds) ==
        Lines{"flat_store_dword v[1:2], v3", "s_waitcnt vmcnt(0) lgkmcnt(0)", "s_barrier", "s_endpgm"});
}

TEST_CASE("barrier release: global stores are waited for under All only (threadgroup-split mode)", "[waitcnt][barrier]") {
  const Lines in = {"global_store_dword v[1:2], v3, off", "global_atomic_add v[1:2], v3, off", "s_barrier",
                    "global_load_dword v4, v[1:2], off", "s_waitcnt vmcnt(0)", "v_mov_b32_e32 v5, v4", "s_endpgm"};
  for (Arch arch : kArchs) {
    CHECK(auto_text(in, BarrierRelease::Lds, arch) == in);  // clang-22 without tgsplit emits no wait here
    CHECK(verify(in, BarrierRelease::Lds, arch).empty());
    Lines all = in;
    all.insert(all.begin() + 2, "s_waitcnt vmcnt(0)");
    CHECK(auto_text(in, BarrierRelease::All, arch) == all);
    auto f = verify(in, BarrierRelease::All, arch);
    REQUIRE(f.size() == 1);
    CHECK(f[0].index == 2);
    INFO(f[0].message);
    CHECK(f[0].message.find("releases global stores (global_atomic_add #1)") != std::string::npos);
    CHECK(f[0].message.find("'s_waitcnt vmcnt(0)'") != std::string::npos);
  }
  // Scratch stores are private to the lane: never released.
  CHECK(auto_text({"scratch_store_dword v1, v2, off", "s_barrier", "s_endpgm"}, BarrierRelease::All) ==
        Lines{"scratch_store_dword v1, v2, off", "s_barrier", "s_endpgm"});
  // Two global stores in a row never wait for each other, in any mode.
  const Lines two = {"global_store_dword v[1:2], v3, off", "global_store_dword v[1:2], v3, off offset:4", "s_endpgm"};
  CHECK(auto_text(two, BarrierRelease::All) == two);
}

TEST_CASE("barrier release: LDS DMA is waited for before a barrier in every mode", "[waitcnt][barrier]") {
  const Lines in = {"s_mov_b32 m0, s2", "global_load_lds_dword v[0:1], off", "s_barrier", "s_endpgm"};
  const Lines out = {"s_mov_b32 m0, s2", "global_load_lds_dword v[0:1], off", "s_waitcnt vmcnt(0)", "s_barrier",
                     "s_endpgm"};
  for (BarrierRelease r : {BarrierRelease::None, BarrierRelease::Lds, BarrierRelease::All}) {
    CHECK(auto_text(in, r) == out);
    auto f = verify(in, r);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("releases LDS (global_load_lds_dword #1)") != std::string::npos);
  }
}

TEST_CASE("barrier release: a store in a loop is waited for at the barrier on every iteration", "[waitcnt][barrier]") {
  const Lines in = {"loop:", "ds_write_b32 v1, v2", "s_barrier", "ds_read_b32 v3, v4", "s_waitcnt lgkmcnt(0)",
                    "v_add_u32_e32 v2, v3, v2", "s_sub_u32 s4, s4, 1", "s_cbranch_scc1 loop", "s_endpgm"};
  CHECK(auto_text(in, BarrierRelease::Lds) ==
        Lines{"loop:", "ds_write_b32 v1, v2", "s_waitcnt lgkmcnt(0)", "s_barrier", "ds_read_b32 v3, v4",
              "s_waitcnt lgkmcnt(0)", "v_add_u32_e32 v2, v3, v2", "s_sub_u32 s4, s4, 1", "s_cbranch_scc1 loop",
              "s_endpgm"});
}
