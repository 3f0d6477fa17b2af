// Issue rules, waits, barriers, memory and the tail effect of the CU model on
// hand-written instruction streams, against hand-computed cycle counts.
#include <catch2/catch.hpp>

#include <map>

#include "jit/isa/target.hpp"
#include "runtime/model/cu_model.hpp"
#include "runtime/model/hardware.hpp"
#include "runtime/model/launch_model.hpp"
#include "tests/model/synthetic.hpp"

using namespace cdnajit;
using model_test::Inst;
using model_test::lane_addrs;
using model_test::recording;

namespace {

std::vector<Inst> repeat(const std::string& m, int n, uint32_t imm = 0) { return std::vector<Inst>(size_t(n), Inst{m, imm}); }

model::CuResult run_on(const sim::Recording& r, const model::Hardware& hw, int slots = 1, int workgroups = 1) {
  model::CuRunConfig c;
  c.workgroup_slots = slots;
  c.workgroups = workgroups;
  c.active_cus = hw.cus;
  return model::run_cu(r, hw, c);
}
model::CuResult run(const sim::Recording& r, int slots = 1, int workgroups = 1) {
  return run_on(r, model::product("mi350x"), slots, workgroups);
}

// Every wave's stream ends with s_endpgm: one more issue turn (4 cycles) after the last instruction.
constexpr uint64_t kEnd = 4;

// One workgroup on one CU, with the trace of every wave's issue and stalls.
model::CuResult run_traced(const sim::Recording& rec, const model::Hardware& hw) {
  model::CuRunConfig c;
  c.workgroups = 1;
  c.active_cus = hw.cus;
  c.trace = true;
  return model::run_cu(rec, hw, c);
}

// The cycle at which the wave's last s_waitcnt stall ended (its last awaited result returned).
uint64_t wait_end(const model::CuResult& r, int wave) {
  uint64_t end = 0;
  for (const model::TraceEvent& e : r.trace)
    if (e.wave == wave && e.kind == 's') end = std::max(end, e.start + e.dur);
  return end;
}

}  // namespace

TEST_CASE("CU model: a wave issues one VALU instruction per 4-cycle turn", "[model][issue]") {
  auto r = run(recording(Arch::gfx950, {repeat("v_add_f32", 10)}));
  CHECK(r.cycles >= 40);
  CHECK(r.cycles <= 40 + kEnd + 1);
  CHECK(r.busy[size_t(model::Pipe::Valu)] == 40);
}

TEST_CASE("CU model: waves on different SIMDs run in parallel, on one SIMD they share its VALU", "[model][issue]") {
  // 4 waves -> SIMDs 0..3: as fast as one wave.
  auto four = run(recording(Arch::gfx950, std::vector<std::vector<Inst>>(4, repeat("v_add_f32", 10))));
  CHECK(four.cycles <= 40 + kEnd + 4);
  // 8 waves -> 2 per SIMD: twice the VALU time.
  auto eight = run(recording(Arch::gfx950, std::vector<std::vector<Inst>>(8, repeat("v_add_f32", 10))));
  CHECK(eight.cycles >= 80);
  CHECK(eight.cycles <= 80 + kEnd + 4);
  CHECK(eight.stall[size_t(model::Stall::IssuePort)] + eight.stall[size_t(model::Stall::ValuBusy)] > 0);
}

TEST_CASE("CU model: a SALU and a VALU instruction of two waves issue in the same turn", "[model][issue]") {
  // Waves 0 and 4 share SIMD 0 (8 waves, round-robin placement); the others are empty.
  std::vector<std::vector<Inst>> w(8);
  w[0] = repeat("v_add_f32", 10);
  w[4] = repeat("s_add_u32", 10);
  auto r = run(recording(Arch::gfx950, w));
  CHECK(r.cycles <= 40 + kEnd + 4);
}

TEST_CASE("CU model: a DS instruction takes its SIMD's vector issue turn (switchable)", "[model][issue]") {
  // Waves 0 and 4 share SIMD 0: ten VALU instructions and ten conflict-free ds_read_b32.
  std::vector<std::vector<Inst>> w(8);
  w[0] = repeat("v_add_f32", 10);
  for (int i = 0; i < 10; ++i) w[4].push_back({"ds_read_b32", 0, lane_addrs(0, 4)});
  const sim::Recording rec = recording(Arch::gfx950, w);
  model::Hardware shared = model::product("mi350x"), free = shared;
  REQUIRE(shared.lds_valu_issue_cycles == 4);
  free.lds_valu_issue_cycles = 0;
  auto with = run_on(rec, shared), without = run_on(rec, free);
  // Free co-issue: both streams issue in turns 0..36; the last read returns after the LDS latency.
  CHECK(without.cycles <= 40 + uint64_t(free.lds_latency) + 4 + kEnd + 4);
  // Shared turn: the reads wait for the ten VALU turns (the older wave goes first): 40 cycles later.
  CHECK(with.cycles >= without.cycles + 36);
  CHECK(with.cycles <= without.cycles + 44);
  CHECK(with.stall[size_t(model::Stall::IssuePort)] > 0);
}

TEST_CASE("CU model: a wave's slot is free when it ends, so a workgroup starts beside an unfinished one", "[model][issue]") {
  // Two-wave workgroups, one long wave and one short; one wave per SIMD: two workgroups fit.
  const sim::Recording rec = recording(Arch::gfx950, {repeat("v_add_f32", 40), repeat("v_add_f32", 1)});
  const model::Hardware& hw = model::product("mi350x");
  model::CuRunConfig c;
  c.workgroup_slots = 2;
  c.workgroups = 3;
  c.active_cus = hw.cus;
  // Workgroup-granular: the third starts when the first has ended: two long waves in a row.
  const auto whole = model::run_cu(rec, hw, c);
  CHECK(whole.cycles >= 2 * 160);
  // Wave-granular: the third starts in the short waves' slots a few cycles in.
  c.waves_per_simd = 1;
  c.max_workgroups = 3;
  const auto granular = model::run_cu(rec, hw, c);
  CHECK(granular.cycles >= 160);
  CHECK(granular.cycles <= 160 + 4 * 4 + kEnd + 8);
  // At most one wave per SIMD: with max_workgroups 2 the third waits as before.
  c.max_workgroups = 2;
  CHECK(model::run_cu(rec, hw, c).cycles >= 2 * 160);
}

TEST_CASE("CU model: MFMA occupies the matrix pipe for passes x 4 cycles (pass count from the ISA table)", "[model][issue]") {
  // v_mfma_f32_32x32x8_bf16: 8 passes on gfx942 and gfx950 -> 32 cycles each.
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    auto rec = recording(a, {repeat("v_mfma_f32_32x32x8_bf16", 4)});
    model::CuRunConfig c;
    const model::Hardware& hw = model::default_product(a);
    c.active_cus = hw.cus;
    auto r = model::run_cu(rec, hw, c);
    CHECK(r.busy[size_t(model::Pipe::Mfma)] == 128);
    CHECK(r.cycles >= 96 + 4);  // the 4th MFMA issues at 96 at the earliest
    CHECK(r.cycles <= 128 + kEnd + 4);
  }
}

TEST_CASE("CU model: gfx950 f8f6f4 MFMAs with no 8-bit operand take half the passes (formats from cbsz/blgp)",
          "[model][issue]") {
  // Matrix-pipe busy cycles of 8 back-to-back MFMAs issued with formats (cbsz, blgp):
  // 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4 (rule and evidence: jit/isa/mfma_rate.hpp).
  const model::Hardware& hw = model::default_product(Arch::gfx950);
  auto busy = [&](const char* mnemonic, uint8_t cbsz, uint8_t blgp) {
    Inst in{mnemonic};
    in.cbsz = cbsz;
    in.blgp = blgp;
    auto rec = recording(Arch::gfx950, {std::vector<Inst>(8, in)});
    model::CuRunConfig c;
    c.active_cus = hw.cus;
    auto r = model::run_cu(rec, hw, c);
    return std::pair{r.busy[size_t(model::Pipe::Mfma)], r.cycles};
  };
  for (const char* m : {"v_mfma_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_16x16x128_f8f6f4"}) {
    INFO(m);
    auto fp8 = busy(m, 0, 0), fp4 = busy(m, 4, 4);
    CHECK(fp8.first == 8 * 8 * 4);  // 8 passes each
    CHECK(fp4.first == 8 * 4 * 4);  // 4 passes each: half
    CHECK(fp4.second < fp8.second);
    CHECK(busy(m, 2, 4).first == fp4.first);  // fp6 x fp4
    CHECK(busy(m, 3, 2).first == fp4.first);  // bf6 x fp6
    CHECK(busy(m, 0, 4).first == fp8.first);  // fp8 x fp4: an 8-bit operand keeps the fp8 rate
    CHECK(busy(m, 4, 1).first == fp8.first);  // fp4 x bf8
  }
  for (const char* m : {"v_mfma_f32_32x32x64_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4"}) {
    INFO(m);
    CHECK(busy(m, 0, 0).first == 8 * 16 * 4);
    CHECK(busy(m, 4, 4).first == 8 * 8 * 4);
    CHECK(busy(m, 2, 0).first == 8 * 16 * 4);
  }
  // Other MFMAs read cbsz/blgp as broadcast controls, not formats: no change.
  CHECK(busy("v_mfma_f32_32x32x16_bf16", 4, 4).first == busy("v_mfma_f32_32x32x16_bf16", 0, 0).first);
}

TEST_CASE("CU model: transcendentals at quarter rate, s_nop and s_sleep wait their cycles", "[model][issue]") {
  auto t = run(recording(Arch::gfx950, {repeat("v_exp_f32", 10)}));
  CHECK(t.cycles >= 144);  // the 10th issues at 9 x 16 cycles
  CHECK(t.cycles <= 160 + kEnd + 4);
  auto n = run(recording(Arch::gfx950, {repeat("s_nop", 4, 15)}));  // 16 cycles each
  CHECK(n.cycles >= 64);
  CHECK(n.cycles <= 64 + kEnd + 4);
  auto s = run(recording(Arch::gfx950, {repeat("s_sleep", 1, 2)}));  // 2 x 64 cycles
  CHECK(s.cycles >= 128);
  CHECK(s.cycles <= 128 + kEnd + 4);
}

TEST_CASE("CU model: s_waitcnt waits for LDS latency plus the conflict passes", "[model][wait]") {
  const uint32_t wait_lgkm0 = 0xc07f;  // vmcnt 63, expcnt 7, lgkmcnt 0
  auto free_ = run(recording(Arch::gfx950, {{{"ds_read_b32", 0, lane_addrs(0, 4)}, {"s_waitcnt", wait_lgkm0}, {"v_add_f32"}}}));
  // issue at 0, the LDS half busy 2 cycles (256 bytes at CDNA4's 128 B/clk per half), data after
  // 52 more cycles, then the VALU and s_endpgm.
  CHECK(free_.cycles >= 2 + 52);
  CHECK(free_.cycles <= 4 + 52 + 8 + kEnd);
  CHECK(free_.stall[size_t(model::Stall::WaitLgkm)] > 0);
  auto conflict = run(recording(Arch::gfx950, {{{"ds_read_b32", 0, lane_addrs(0, 256)}, {"s_waitcnt", wait_lgkm0}, {"v_add_f32"}}}));
  // Every lane in bank 0 (a stride of 64 dwords on 64 banks): 64 passes x 1 cycle.
  CHECK(conflict.cycles >= 64 + 52);
  CHECK(conflict.cycles <= 64 + 52 + 8 + kEnd);
  CHECK(conflict.lds_passes == 64);
}

TEST_CASE("CU model: an LDS-DMA load writes LDS when its data arrives; DS reads issued meanwhile go first",
          "[model][wait][lds]") {
  const uint32_t wait_lgkm0 = 0xc07f;  // vmcnt 63, expcnt 7, lgkmcnt 0
  const uint32_t wait_vm0 = 0x0f70;    // vmcnt 0, lgkmcnt 15, expcnt 7
  const model::Hardware& hw = model::product("mi350x");
  Inst dma{"buffer_load_dword", 0, lane_addrs(0x10000, 4)};
  dma.lds_dma = true;
  auto r = run(recording(Arch::gfx950, {{dma, {"ds_read_b32", 0, lane_addrs(0, 4)}, {"s_waitcnt", wait_lgkm0}, {"v_add_f32"},
                                         {"s_waitcnt", wait_vm0}}}));
  // The DMA's lines come from HBM (cold caches): its LDS write happens after hbm_latency. The
  // ds_read behind it is served at once and returns after the LDS latency, not after the load.
  CHECK(r.stall[size_t(model::Stall::WaitLgkm)] <= uint64_t(hw.lds_latency + 16));
  CHECK(r.stall[size_t(model::Stall::WaitVm)] > 0);
  CHECK(r.cycles >= uint64_t(hw.hbm_latency));
  // The DMA's 256 bytes still take the half's write rate after they arrive: at least 256 / 64 cycles
  // after the HBM latency (lds_write_bytes_per_clk per half).
  CHECK(r.cycles >= uint64_t(hw.hbm_latency + 256 / hw.lds_write_bytes_per_clk));
}

TEST_CASE("CU model: a barrier holds the early wave until the last arrives", "[model][barrier]") {
  std::vector<Inst> slow = repeat("v_add_f32", 20);
  slow.push_back({"s_barrier"});
  std::vector<Inst> fast = {{"s_barrier"}, {"v_add_f32"}};
  auto r = run(recording(Arch::gfx950, {slow, fast}));
  CHECK(r.cycles >= 80);
  CHECK(r.stall[size_t(model::Stall::Barrier)] >= 70);
}

TEST_CASE("CU model: a barrier waits only for the waves that have not ended", "[model][barrier]") {
  // Wave 1 stands at the barrier while wave 0 runs 20 VALU instructions and ends without one (the ISA
  // guides' S_BARRIER: it then waits only for the surviving waves): released when wave 0 ends.
  auto r = run(recording(Arch::gfx950, {repeat("v_add_f32", 20), {{"s_barrier"}, {"v_add_f32"}}}));
  CHECK(r.cycles >= 80);
  CHECK(r.cycles <= 80 + 3 * kEnd + 8);
  CHECK(r.stall[size_t(model::Stall::Barrier)] >= 70);
}

TEST_CASE("the simulator's CU bound per arch is the largest product of the arch", "[model][hardware]") {
  // jit/isa/target.hpp max_compute_units bounds the simulator's resident workgroups; it must stay
  // the largest CU count of the product table.
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    int most = 0;
    for (const model::Hardware& h : model::products())
      if (h.arch == a) most = std::max(most, h.cus);
    CHECK(most == isa::target::max_compute_units(a));
  }
}

TEST_CASE("CU model: issue turns without a vector instruction are counted by reason", "[model][issue]") {
  using model::VectorIdle;
  auto idle = [](const model::CuResult& r, VectorIdle v) { return r.vector_idle[size_t(v)]; };
  // One wave on SIMD 0 alternating VALU and SALU: every other SIMD-0 turn issues no vector
  // instruction because the wave's next instruction is scalar; SIMDs 1..3 hold no wave.
  std::vector<Inst> mixed;
  for (int i = 0; i < 10; ++i) {
    mixed.push_back({"v_add_f32"});
    mixed.push_back({"s_add_u32"});
  }
  auto m = run(recording(Arch::gfx950, {mixed}));
  CHECK(m.vector_turns == 10);
  CHECK(idle(m, VectorIdle::ScalarOnly) >= 10);
  CHECK(idle(m, VectorIdle::ScalarOnly) <= 12);  // + s_endpgm and the SALU latency at the end
  CHECK(idle(m, VectorIdle::NoWave) >= 3 * 20);
  CHECK(m.simd_turns == m.vector_turns + idle(m, VectorIdle::NoWave) + idle(m, VectorIdle::ScalarOnly) +
                            idle(m, VectorIdle::MemoryWait) + idle(m, VectorIdle::Barrier) + idle(m, VectorIdle::PipeBusy));
  // A wave waiting for an LDS read: about (4 + 52) / 4 idle SIMD-0 turns for memory.
  const uint32_t wait_lgkm0 = 0xc07f;
  auto w = run(recording(Arch::gfx950, {{{"ds_read_b32", 0, lane_addrs(0, 4)}, {"s_waitcnt", wait_lgkm0}, {"v_add_f32"}}}));
  CHECK(idle(w, VectorIdle::MemoryWait) >= 52 / 4);
  CHECK(idle(w, VectorIdle::MemoryWait) <= (4 + 52) / 4 + 2);
  // The early wave (SIMD 1) at a barrier while the slow one (SIMD 0) runs 20 VALU instructions.
  std::vector<Inst> slow = repeat("v_add_f32", 20);
  slow.push_back({"s_barrier"});
  auto b = run(recording(Arch::gfx950, {slow, {{"s_barrier"}, {"v_add_f32"}}}));
  CHECK(idle(b, VectorIdle::Barrier) >= 18);
  // A transcendental holds the VALU 16 cycles: the next VALU of the wave waits about 3 turns.
  auto t = run(recording(Arch::gfx950, {repeat("v_exp_f32", 4)}));
  CHECK(idle(t, VectorIdle::PipeBusy) >= 3 * 3);
}

TEST_CASE("CU model: global loads take each line from the level the hierarchy served it", "[model][memory]") {
  const uint32_t wait_vm0 = 0x0f70;  // vmcnt 0, lgkmcnt 15, expcnt 7
  auto r = run(recording(Arch::gfx950, {{{"global_load_dword", 0, lane_addrs(0x10000, 4)},
                                         {"global_load_dword", 0, lane_addrs(0x10000, 4)},
                                         {"global_load_dword", 0, lane_addrs(0x20000, 128)},
                                         {"s_waitcnt", wait_vm0}}}));
  // Cold caches: the first 2 lines and the 64 strided ones come from HBM (through the L2 and the
  // Infinity Cache); the repeated 2 lines hit the CU's L1.
  CHECK(r.hbm_bytes == (2 + 64) * 128);
  CHECK(r.mall_bytes == (2 + 64) * 128);
  CHECK(r.l2_bytes == (2 + 64) * 128);
  CHECK(r.l1_bytes == 2 * 128);
  const model::Hardware& hw = model::product("mi350x");
  CHECK(r.cycles >= uint64_t(hw.hbm_latency));
  CHECK(r.stall[size_t(model::Stall::WaitVm)] > 0);
}

TEST_CASE("Kernel time: the tail round and the steady-state extrapolation", "[model][tail]") {
  const model::Hardware& hw = model::product("mi350x");
  auto rec = recording(Arch::gfx950, {repeat("v_add_f32", 10)});
  model::LaunchPlan p;
  p.waves_per_workgroup = 1;
  p.workgroup_slots = 2;
  p.active_cus = hw.cus;
  p.waves_per_simd = 1;
  // 2 workgroups on the CU: one round, in parallel on two SIMDs.
  p.per_cu = 2;
  p.workgroups = 2 * uint64_t(hw.cus);
  auto one = model::model_recording(rec, p, hw);
  // One more: a tail round after the first two.
  p.per_cu = 3;
  p.workgroups = 3 * uint64_t(hw.cus);
  auto tail = model::model_recording(rec, p, hw);
  CHECK(tail.cycles >= 1.8 * one.cycles);
  CHECK(tail.cycles <= 2.2 * one.cycles);
  // 100 per CU: a first round (2), a staggered replay of 6 rounds (12), then the steady rate
  // (2 workgroups per ~44 cycles) for the rest.
  p.per_cu = 100;
  p.workgroups = 100 * uint64_t(hw.cus);
  auto many = model::model_recording(rec, p, hw);
  CHECK(many.replayed_workgroups == 2 + 12);
  CHECK(many.cycles >= 50 * 40);
  CHECK(many.cycles <= 50 * (40 + kEnd + 4));
  CHECK(many.ms == Approx(many.cycles / (hw.clock_ghz * 1e6)));
}

TEST_CASE("plan_launch: occupancy from the descriptor, busiest CU, recorded workgroups", "[model][tail]") {
  const model::Hardware& hw = model::product("mi300x");
  KernelInfo k;
  k.name = "k";
  k.vgpr_count = 128;  // 512 / 128 = 4 waves per SIMD
  k.sgpr_count = 32;
  sim::LaunchDims d;
  d.block[0] = 256;  // 4 waves per workgroup -> 4 workgroups per CU
  d.grid[0] = uint32_t(hw.cus * 4 + 1);
  auto p = model::plan_launch(k, Arch::gfx942, d, hw);
  CHECK(p.waves_per_simd == 4);
  CHECK(p.workgroup_slots == 4);
  CHECK(p.per_cu == 5);
  CHECK(p.record == std::vector<uint64_t>{0, 304, 608, 912});
  CHECK_THROWS_WITH(model::plan_launch(k, Arch::gfx950, d, hw), Catch::Contains("mi300x is gfx942"));
  CHECK_THROWS_WITH(model::product("mi400"), Catch::Contains("mi300x, mi325x, mi350x, mi355x"));
}

TEST_CASE("instructions_per_wave counts each recorded wave's dynamic instructions by kind", "[model][mix]") {
  std::vector<Inst> a = repeat("v_add_f32", 6);
  a.push_back({"s_waitcnt", 0xc07f});
  std::vector<Inst> b = repeat("v_add_f32", 2);
  for (const Inst& i : repeat("s_add_u32", 4)) b.push_back(i);
  auto rec = recording(Arch::gfx942, {a, b});
  // Per wave: (6 + 2) / 2 VALU, 4 / 2 SALU, 1 / 2 s_waitcnt (the appended s_endpgm is not asserted).
  std::map<std::string, double> got;
  for (auto& [kind, n] : model::instructions_per_wave(rec)) got[kind] = n;
  CHECK(got["VALU"] == 4.0);
  CHECK(got["SALU"] == 2.0);
  CHECK(got["s_waitcnt"] == 0.5);
  CHECK(got.count("LDS") == 0);  // kinds that never occur are left out
}

TEST_CASE("CU model: issue turns are counted by the waves resident on the SIMD", "[model][issue]") {
  // One workgroup: a 40-VALU wave on SIMD 0 and a 1-VALU wave on SIMD 1; SIMDs 2 and 3 stay empty.
  const sim::Recording rec = recording(Arch::gfx950, {repeat("v_add_f32", 40), repeat("v_add_f32", 1)});
  const model::Hardware& hw = model::product("mi350x");
  model::CuRunConfig c;
  c.workgroups = 1;
  c.active_cus = hw.cus;
  c.waves_per_simd = 1;
  c.max_workgroups = 1;
  const auto r = model::run_cu(rec, hw, c);
  REQUIRE(r.turns_by_resident_waves.size() == 2);
  uint64_t sum = 0;
  for (uint64_t t : r.turns_by_resident_waves) sum += t;
  CHECK(sum == r.simd_turns);
  // SIMD 0 holds its wave for its 40 VALU + s_endpgm turns; SIMD 1 for 1 VALU + s_endpgm (+ a
  // turn or two until the slot is freed): 43..46 turns with one wave resident.
  CHECK(r.turns_by_resident_waves[1] >= 43);
  CHECK(r.turns_by_resident_waves[1] <= 46);
  // A SIMD without a wave never issues; with one, only the s_endpgm turns issue no vector instruction.
  CHECK(r.idle_turns_by_resident_waves[0] == r.turns_by_resident_waves[0]);
  CHECK(r.idle_turns_by_resident_waves[1] >= 2);
  CHECK(r.idle_turns_by_resident_waves[1] <= 5);
}

TEST_CASE("CU model: successive workgroups start their first wave on successive SIMDs (switchable)", "[model][issue]") {
  // Four-wave workgroups whose wave 0 runs 40 VALU instructions and waves 1-3 one each; two
  // workgroups resident, two wave slots per SIMD.
  std::vector<std::vector<Inst>> wg{repeat("v_add_f32", 40), repeat("v_add_f32", 1), repeat("v_add_f32", 1),
                                    repeat("v_add_f32", 1)};
  const sim::Recording rec = recording(Arch::gfx950, wg);
  model::Hardware hw = model::product("mi350x");
  model::CuRunConfig c;
  c.workgroup_slots = 2;
  c.workgroups = 2;
  c.active_cus = hw.cus;
  c.waves_per_simd = 2;
  c.max_workgroups = 2;
  // Rotating: the second workgroup's wave 0 is on SIMD 1, beside the first's on SIMD 0: 40 turns.
  const auto rotated = model::run_cu(rec, hw, c);
  CHECK(rotated.cycles >= 160);
  CHECK(rotated.cycles <= 160 + 4 * 4 + kEnd + 8);
  // One pointer over all waves: both wave 0s on SIMD 0 share its VALU: 80 turns.
  hw.rotate_first_simd_per_workgroup = false;
  CHECK(model::run_cu(rec, hw, c).cycles >= 2 * 160);
}

TEST_CASE("CU model: the two LDS halves share the CU's banks (switchable)", "[model][lds]") {
  const uint32_t wait_lgkm0 = 0xc07f;  // vmcnt 63, expcnt 7, lgkmcnt 0
  // One workgroup of 4 waves on SIMDs 0-3: waves 0 and 2 sit on different halves (SIMDs 0-1, 2-3).
  auto two_reads = [&](int stride_bytes) {
    std::vector<Inst> reader = {{"ds_read_b32", 0, lane_addrs(0, stride_bytes)}, {"s_waitcnt", wait_lgkm0}};
    std::vector<Inst> idle = {{"v_add_f32"}};
    return recording(Arch::gfx942, {reader, idle, reader, idle});
  };
  model::Hardware shared = model::product("mi300x");
  shared.lds_banks_shared_by_halves = true;
  model::Hardware apart = shared;
  apart.lds_banks_shared_by_halves = false;
  // Every lane in bank 0 (stride 128 bytes on 32 banks): 64 passes per read. On shared banks the
  // second half's read waits for the first's passes; with banks per half both run at once.
  const auto conflicted = two_reads(128);
  const auto s = run_on(conflicted, shared), a = run_on(conflicted, apart);
  CHECK(s.cycles >= 2 * 64 + 52);
  CHECK(s.cycles <= 2 * 64 + 52 + 8 + kEnd);
  CHECK(a.cycles >= 64 + 52);
  CHECK(a.cycles <= 64 + 52 + 8 + kEnd);
  // Conflict-free: 2 passes and 4 port cycles per read; the halves' passes fit side by side.
  const auto free_ = two_reads(4);
  CHECK(run_on(free_, shared).cycles == run_on(free_, apart).cycles);
}

TEST_CASE("CU model: shared LDS banks serve each half's passes by time, not by issue order", "[model][lds]") {
  // Wave 0 (SIMD 0, LDS half 0) issues a ds_read_b64 whose lanes are all misaligned (served alone on
  // its half, 8 passes per lane: 512 cycles) and then a conflicted ds_read_b32 (64 bank passes), which
  // can only start on its half after the 512 cycles. Wave 2 (SIMD 2, half 1) then issues one conflicted
  // read. The banks are free meanwhile, so wave 2's read is served at once; it must not wait behind
  // the bank passes wave 0's queued read reserved for cycle 512 on.
  const uint32_t wait_lgkm0 = 0xc07f;
  std::vector<Inst> queued = {{"ds_read_b64", 0, lane_addrs(4, 8), 8}, {"ds_read_b32", 0, lane_addrs(0, 128)},
                              {"s_waitcnt", wait_lgkm0}};
  std::vector<Inst> late = {{"v_add_f32"}, {"v_add_f32"}, {"ds_read_b32", 0, lane_addrs(0, 128)}, {"s_waitcnt", wait_lgkm0}};
  std::vector<Inst> idle = {{"v_add_f32"}};
  model::Hardware hw = model::product("mi300x");
  hw.lds_banks_shared_by_halves = true;
  const sim::Recording rec = recording(Arch::gfx942, {queued, idle, late, idle});
  model::CuRunConfig c;
  c.workgroups = 1;
  c.active_cus = hw.cus;
  c.clock_reads = false;
  c.trace = true;
  const auto r = model::run_cu(rec, hw, c);
  // Wave 2's wait ends when its read returns: issue (within its first few turns) + 64 passes + latency.
  uint64_t wave2_wait_end = 0;
  for (const model::TraceEvent& e : r.trace)
    if (e.wave == 2 && e.kind == 's') wave2_wait_end = std::max(wave2_wait_end, e.start + e.dur);
  CHECK(wave2_wait_end >= 64 + 52);
  CHECK(wave2_wait_end <= 16 + 64 + 52 + 8);
  // Wave 0's second read still follows its misaligned one on half 0: 512 + 64 + latency.
  CHECK(r.cycles >= 512 + 64 + 52);
}

TEST_CASE("CU model: waiting DS instructions served in issue order, or the oldest wave's first (switchable)",
          "[model][lds]") {
  // Waves 0 and 2 (SIMDs 0 and 2, one per LDS half) each issue four ds_read_b32 with every lane in
  // bank 0 (64 passes each on the shared banks), then wait for them. In issue order the two waves'
  // reads alternate on the banks and both finish late; oldest first, wave 0 is served alone and
  // wave 2 after it. The banks do the same 512 cycles of passes either way.
  const uint32_t wait_lgkm0 = 0xc07f;
  auto reads = [&](std::vector<Inst> head) {
    for (int i = 0; i < 4; ++i) head.push_back({"ds_read_b32", 0, lane_addrs(0, 128)});
    head.push_back({"s_waitcnt", wait_lgkm0});
    return head;
  };
  std::vector<Inst> idle = {{"v_add_f32"}};
  model::Hardware in_order = model::product("mi300x");
  in_order.lds_banks_shared_by_halves = true;
  in_order.lds_serves_oldest_wave_first = false;
  in_order.lds_bank_passes_by_age = false;  // the earlier rule: each instruction's passes in one stretch, in issue order
  model::Hardware oldest = in_order;
  oldest.lds_serves_oldest_wave_first = true;
  const sim::Recording rec = recording(Arch::gfx942, {reads({}), idle, reads({}), idle});
  const auto a = run_traced(rec, in_order), b = run_traced(rec, oldest);
  // In issue order wave 0's last read is the 7th of 8 on the banks; oldest first it is the 4th.
  CHECK(wait_end(a, 0) >= 7 * 64 + 52);
  CHECK(wait_end(b, 0) >= 4 * 64 + 52);
  CHECK(wait_end(b, 0) <= 4 * 64 + 52 + 8);
  CHECK(wait_end(b, 2) >= 8 * 64 + 52);
  CHECK(wait_end(b, 2) <= 8 * 64 + 52 + 8);
  CHECK(b.cycles >= a.cycles - 8);
  CHECK(b.cycles <= a.cycles + 8);
  // A higher s_setprio outranks age: wave 2 raised to priority 3 is served as soon as wave 0's first
  // read (started at cycle 0, before wave 2's first turn) is done, ahead of wave 0's other three.
  const sim::Recording raised = recording(Arch::gfx942, {reads({}), idle, reads({{"s_setprio", 3}}), idle});
  const auto c = run_traced(raised, oldest);
  CHECK(wait_end(c, 2) >= 5 * 64 + 52);
  CHECK(wait_end(c, 2) <= 5 * 64 + 52 + 8);
  CHECK(wait_end(c, 0) >= 8 * 64 + 52);
}

TEST_CASE("CU model: the shared LDS banks go pass by pass to the older wave's half, each half in issue order (switchable)",
          "[model][lds]") {
  // ds_read_b32 with every lane in bank 0: 64 passes on MI300X's shared banks (4 port cycles).
  const uint32_t wait_lgkm0 = 0xc07f;
  const Inst conflicted = {"ds_read_b32", 0, lane_addrs(0, 128)};
  model::Hardware by_age = model::product("mi300x");
  REQUIRE(by_age.lds_banks_shared_by_halves);
  REQUIRE_FALSE(by_age.lds_serves_oldest_wave_first);
  by_age.lds_bank_passes_by_age = true;
  model::Hardware in_order = by_age;
  in_order.lds_bank_passes_by_age = false;
  std::vector<Inst> late = repeat("v_add_f32", 8);  // 8 VALU turns (32 cycles), then one conflicted read
  late.push_back(conflicted);
  late.push_back({"s_waitcnt", wait_lgkm0});
  const std::vector<Inst> early = {conflicted, conflicted, {"s_waitcnt", wait_lgkm0}};
  const std::vector<Inst> idle = {{"v_add_f32"}};

  // Wave 0 (SIMD 0, the older) reads on half 0 from cycle 32; wave 2 (SIMD 2, half 1) has queued two
  // reads from cycle 2. By age, wave 0's passes go first as soon as it reads (cycles 32-95, data at
  // 96 + 52) and wave 2's first read resumes after them; in issue order wave 0's read takes the
  // banks' first free 64 cycles after wave 2's two reads (130-193, data at 194 + 52).
  const sim::Recording across = recording(Arch::gfx942, {late, idle, early, idle});
  const auto a = run_traced(across, by_age), b = run_traced(across, in_order);
  CHECK(wait_end(a, 0) >= 96 + 52);
  CHECK(wait_end(a, 0) <= 96 + 52 + 8);
  CHECK(wait_end(a, 2) >= 194 + 52);
  CHECK(wait_end(b, 0) >= 194 + 52);
  CHECK(wait_end(b, 2) <= 130 + 52 + 8);
  CHECK(a.cycles >= b.cycles - 8);  // the banks do the same 192 passes either way
  CHECK(a.cycles <= b.cycles + 8);

  // Waves 0 and 1 share half 0 (SIMDs 0 and 1): there the older wave's read waits behind the two
  // reads wave 1 issued before it, by age as in issue order (data at 193 + 52).
  const sim::Recording within = recording(Arch::gfx942, {late, early, idle, idle});
  CHECK(wait_end(run_traced(within, by_age), 0) >= 193 + 52);
  CHECK(wait_end(run_traced(within, in_order), 0) >= 193 + 52);

  // A higher s_setprio outranks age: wave 2 at priority 3 keeps the banks for both its reads.
  std::vector<Inst> raised = {{"s_setprio", 3}};
  raised.insert(raised.end(), early.begin(), early.end());
  const auto c = run_traced(recording(Arch::gfx942, {late, idle, raised, idle}), by_age);
  CHECK(wait_end(c, 2) <= 134 + 52 + 8);
  CHECK(wait_end(c, 0) >= 194 + 52);
}
