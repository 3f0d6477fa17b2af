// Bank-conflict counting against hand-computed pass counts (32 banks of 4 bytes).
#include <catch2/catch.hpp>

#include "runtime/model/lds_banks.hpp"
#include "runtime/sim/record.hpp"
#include "tests/model/synthetic.hpp"

using namespace cdnajit;
using model_test::lane_addrs;

TEST_CASE("lds_passes: dword reads at stride s dwords cost s passes per 32-lane group", "[model][lds]") {
  // Stride 1: lanes 0..31 hit banks 0..31 once -> 1 pass per half-wave, 2 per wave.
  CHECK(model::lds_passes(lane_addrs(0, 4), 4, 32) == 2);
  CHECK(model::lds_passes(lane_addrs(0, 8), 4, 32) == 4);     // 2-way
  CHECK(model::lds_passes(lane_addrs(0, 16), 4, 32) == 8);    // 4-way
  CHECK(model::lds_passes(lane_addrs(0, 128), 4, 32) == 64);  // 32-way: every lane in bank 0
  CHECK(model::lds_passes(lane_addrs(4, 12), 4, 32) == 2);    // odd stride 3: a permutation of the banks
}

TEST_CASE("lds_passes: lanes reading the same dword are one access (broadcast)", "[model][lds]") {
  CHECK(model::lds_passes(lane_addrs(64, 0), 4, 32) == 2);
  // Two distinct dwords in the same bank (0 and 128) shared by all lanes: 2 passes per group.
  std::vector<uint64_t> a(64);
  for (int l = 0; l < 64; ++l) a[size_t(l)] = (l % 2) ? 128 : 0;
  CHECK(model::lds_passes(a, 4, 32) == 4);
}

TEST_CASE("lds_passes: wide accesses group fewer lanes per pass", "[model][lds]") {
  // ds_read_b64 contiguous: 16 lanes x 2 dwords fill the 32 banks -> 4 groups, conflict-free.
  CHECK(model::lds_passes(lane_addrs(0, 8), 8, 32) == 4);
  // 4-byte aligned but not 8-byte aligned: still 32 consecutive dwords per group by bank arithmetic...
  CHECK(model::lds_passes(lane_addrs(4, 8), 8, 32, 0) == 4);
  // ...but with the misaligned-serial rule every lane is served alone, byte by byte: 64 x 8
  // passes at one pass per byte, 64 x 16 at two.
  CHECK(model::lds_passes(lane_addrs(4, 8), 8, 32, 1) == 64 * 8);
  CHECK(model::lds_passes(lane_addrs(4, 8), 8, 32, 2) == 64 * 16);
  // Half the lanes misaligned (8-byte stride from 0, odd lanes shifted by 4): 32 alone + 4 groups of 8 aligned lanes.
  std::vector<uint64_t> half = lane_addrs(0, 8);
  for (int l = 1; l < 64; l += 2) half[size_t(l)] = uint64_t(l) * 8 + 4;
  CHECK(model::lds_passes(half, 8, 32, 1) == 32 * 8 + 4);
  // b128 misaligned lanes: 16 passes each.
  CHECK(model::lds_passes(lane_addrs(4, 16), 16, 32, 1) == 64 * 16);
  // Aligned accesses are unaffected by the rule.
  CHECK(model::lds_passes(lane_addrs(0, 8), 8, 32, 5) == 4);
  // b64 at 16-byte stride: lane l uses banks 4l, 4l+1 (mod 32): lanes l and l+8 collide -> 2 passes x 4 groups.
  CHECK(model::lds_passes(lane_addrs(0, 16), 8, 32) == 8);
  // b128 contiguous: 8 lanes x 4 dwords per group -> 8 groups.
  CHECK(model::lds_passes(lane_addrs(0, 16), 16, 32) == 8);
}

TEST_CASE("lds_passes: inactive lanes cost nothing; read2 counts both accesses", "[model][lds]") {
  std::vector<uint64_t> a = lane_addrs(0, 4);
  for (int l = 32; l < 64; ++l) a[size_t(l)] = sim::kNoAddress;
  CHECK(model::lds_passes(a, 4, 32) == 1);
  std::vector<uint64_t> none(64, sim::kNoAddress);
  CHECK(model::lds_passes(none, 4, 32) == 0);
  std::vector<uint64_t> two = lane_addrs(0, 4);
  auto second = lane_addrs(0, 8);  // second access of ds_read2: 2-way
  two.insert(two.end(), second.begin(), second.end());
  CHECK(model::lds_passes(two, 4, 32) == 2 + 4);
  // Sub-dword accesses use their dword's bank: 64 lanes x 2 bytes contiguous = 32 dwords, 1 per bank... per group
  CHECK(model::lds_passes(lane_addrs(0, 2), 2, 32) == 2);
}

TEST_CASE("lds_cycles: the published LDS microbenchmark's four figures", "[model][lds]") {
  // pyhip docs/mem_latency.md (MI308X, one wave): ds_read_b32 conflict-free 4 cycles per
  // instruction, ds_read_b128 16, b32 at a dword stride of 8 16, every lane in one bank 64.
  const model::Hardware& hw = model::product("mi300x");
  CHECK(model::lds_cycles(lane_addrs(0, 4), 4, hw) == 4);
  CHECK(model::lds_cycles(lane_addrs(0, 16), 16, hw) == 16);
  CHECK(model::lds_cycles(lane_addrs(0, 32), 4, hw) == 16);
  CHECK(model::lds_cycles(lane_addrs(0, 128), 4, hw) == 64);
  // Below the bandwidth floor a 2-way conflict per half-wave costs nothing extra...
  CHECK(model::lds_cycles(lane_addrs(0, 8), 4, hw) == 4);
  // ...and a half-active wave moves half the bytes.
  std::vector<uint64_t> half = lane_addrs(0, 4);
  for (int l = 32; l < 64; ++l) half[size_t(l)] = sim::kNoAddress;
  CHECK(model::lds_bytes(half, 4) == 128);
  CHECK(model::lds_cycles(half, 4, hw) == 2);
}

TEST_CASE("lds_passes: CDNA4's 64 banks serve a dword wave in one phase, b64 in two, b128 in four", "[model][lds]") {
  CHECK(model::lds_passes(lane_addrs(0, 4), 4, 64) == 1);
  CHECK(model::lds_passes(lane_addrs(0, 8), 8, 64) == 2);
  CHECK(model::lds_passes(lane_addrs(0, 16), 16, 64, 0, true) == 4);
  CHECK(model::lds_passes(lane_addrs(0, 256), 4, 64) == 64);  // every lane in bank 0
  CHECK(model::lds_passes(lane_addrs(0, 128), 4, 64) == 32);  // banks 0 and 32, 32 lanes each
}

TEST_CASE("lds_passes: a b128 read takes its lanes in the measured order, a write in lane order", "[model][lds]") {
  // Lanes 4q..4q+3 read 16 bytes each, the quad in banks 0-15 (g = 0) or 16-31 (g = 1) of 32.
  // Adjacent quads always differ, so the lane-order groups of 8 lanes are conflict-free (8 passes);
  // the measured MI300X groups pair quads 0 and 5, 1 and 4 (same g): two of them conflict (10).
  const int g[16] = {0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
  std::vector<uint64_t> a(64);
  for (int l = 0; l < 64; ++l) a[size_t(l)] = uint64_t(16 * (l % 4) + 64 * g[l / 4] + 512 * (l / 4));
  CHECK(model::lds_passes(a, 16, 32, 0, false) == 8);
  CHECK(model::lds_passes(a, 16, 32, 0, true) == 10);
}

TEST_CASE("lds_cost: misaligned lanes served alone hold the half, aligned passes go to the shared banks", "[model][lds]") {
  const model::Hardware& hw = model::product("mi300x");
  REQUIRE(hw.lds_misaligned_passes_per_byte == 1);
  // ds_read_b64 at an 8-byte stride from 4: every lane misaligned, 64 x 8 passes, all on the half.
  const auto all = model::lds_cost(lane_addrs(4, 8), 8, hw);
  CHECK(all.bank_cycles == 0);
  CHECK(all.port_cycles == 64 * 8);
  // Aligned: 4 passes on the banks, 8 port cycles (512 bytes at 64 B/clk); lds_cycles is the larger.
  const auto aligned = model::lds_cost(lane_addrs(0, 8), 8, hw);
  CHECK(aligned.bank_cycles == 4);
  CHECK(aligned.port_cycles == 8);
  CHECK(model::lds_cycles(lane_addrs(0, 8), 8, hw) == 8);
  CHECK(model::lds_cycles(lane_addrs(4, 8), 8, hw) == 64 * 8);
}

TEST_CASE("lds_cost: a write sends its addresses and its data over one port", "[model][lds]") {
  // ROCm Compute Profiler's LDS description: the SIMD pair's input port carries address and data,
  // so a wave64 store of 4 bytes per lane takes 8 cycles and one of 16 bytes 20 (64 B/clk); a read's
  // data returns on the other direction and moves at the read rate alone.
  const model::Hardware& hw = model::product("mi300x");
  CHECK(model::lds_cost(lane_addrs(0, 4), 4, hw, true).port_cycles == 8);
  CHECK(model::lds_cost(lane_addrs(0, 8), 8, hw, true).port_cycles == 12);
  CHECK(model::lds_cost(lane_addrs(0, 16), 16, hw, true).port_cycles == 20);
  CHECK(model::lds_cost(lane_addrs(0, 4), 4, hw, false).port_cycles == 4);
  CHECK(model::lds_cost(lane_addrs(0, 16), 16, hw, false).port_cycles == 16);
  // ds_write2_b32: one address per lane, two dwords of data: (256 + 512) / 64.
  std::vector<uint64_t> two = lane_addrs(0, 4);
  auto second = lane_addrs(256, 4);
  two.insert(two.end(), second.begin(), second.end());
  CHECK(model::active_lanes(two) == 64);
  CHECK(model::lds_cost(two, 4, hw, true).port_cycles == 12);
  // Half the lanes active: half the addresses and half the data.
  std::vector<uint64_t> half = lane_addrs(0, 4);
  for (int l = 32; l < 64; ++l) half[size_t(l)] = sim::kNoAddress;
  CHECK(model::lds_cost(half, 4, hw, true).port_cycles == 4);
}
