// The memory hierarchy (runtime/model/memory_hierarchy.hpp) on hand-made line traces:
// reuse by other workgroups of an XCD hits its L2, by other XCDs the Infinity Cache,
// a written line costs one HBM write, and LRU capacity evicts.
#include <catch2/catch.hpp>

#include "runtime/model/memory_hierarchy.hpp"

using namespace cdnajit;

namespace {

// `workgroups` one-wave workgroups; wave of workgroup g makes the accesses lines(g) (one access
// per entry: a list of (line, written)).
using Access = std::vector<std::pair<uint64_t, bool>>;
sim::Recording traced(int workgroups, const std::function<std::vector<Access>(int)>& lines) {
  sim::Recording r;
  r.arch = Arch::gfx942;
  r.waves_per_workgroup = 1;
  r.line_workgroups = uint64_t(workgroups);
  r.workgroups = {0};
  r.waves.push_back(sim::RecordedWave{});  // workgroup 0, wave 0 (its levels are reported)
  for (int g = 0; g < workgroups; ++g) {
    sim::LineWave lw;
    for (const Access& a : lines(g)) {
      for (auto [l, w] : a) lw.lines.push_back(l << 1 | uint64_t(w));
      lw.end_access(0);
    }
    r.line_waves.push_back(lw);
  }
  return r;
}

Access range(uint64_t first, uint64_t n, bool written = false) {
  Access a;
  for (uint64_t i = 0; i < n; ++i) a.emplace_back(first + i, written);
  return a;
}

}  // namespace

TEST_CASE("Memory hierarchy: a panel read by every workgroup is fetched once from HBM, once per XCD from the Infinity Cache",
          "[model][memory]") {
  const model::Hardware& hw = model::product("mi300x");  // 8 XCDs, 38 CUs each
  // 16 workgroups (XCD g mod 8; workgroups g and g+8 on different CUs of one XCD) read the same 64 lines.
  const auto m = model::simulate_memory(traced(16, [](int) { return std::vector<Access>{range(1000, 64)}; }), hw);
  const double L = 128;
  CHECK(m.traced.workgroups == 16);
  CHECK(m.traced.hbm_read_bytes == 64 * L);            // once for the whole GPU
  CHECK(m.traced.mall_read_bytes == 8 * 64 * L);       // once per XCD
  CHECK(m.traced.l2_read_bytes == 16 * 64 * L);        // every CU misses its own L1
  CHECK(m.traced.l1_hit_bytes == 0);
  CHECK(m.traced.hbm_write_bytes == 0);
  REQUIRE(m.levels[0].size() == 64);
  // Workgroup 0's first line came from HBM if it went first in that round, else from the Infinity
  // Cache or its L2 (which workgroup goes first is the interleaving's, tested below).
  CHECK(m.levels[0][0] != model::MemLevel::L1);
}

TEST_CASE("Memory hierarchy: repeated reads hit the L1, L1 capacity evicts (LRU)", "[model][memory]") {
  const model::Hardware& hw = model::product("mi300x");  // 32 KiB L1 = 256 lines
  const auto small = model::simulate_memory(traced(1, [](int) { return std::vector<Access>{range(0, 200), range(0, 200)}; }), hw);
  CHECK(small.traced.l1_hit_bytes == 200 * 128);
  CHECK(small.traced.hbm_read_bytes == 200 * 128);
  // 600 lines do not fit: the second pass finds none of them in the L1 (LRU, streaming order), all in the L2.
  const auto big = model::simulate_memory(traced(1, [](int) { return std::vector<Access>{range(0, 600), range(0, 600)}; }), hw);
  CHECK(big.traced.l1_hit_bytes == 0);
  CHECK(big.traced.hbm_read_bytes == 600 * 128);
  CHECK(big.traced.mall_read_bytes == 600 * 128);
  CHECK(big.levels[0][600] == model::MemLevel::L2);
}

TEST_CASE("Memory hierarchy: every written line costs one HBM write, rewrites in the L2 none", "[model][memory]") {
  const model::Hardware& hw = model::product("mi355x");
  // Workgroups 0 and 8 (same XCD) both write lines 0..99 twice; workgroup 1 (another XCD) writes 100..149.
  const auto m = model::simulate_memory(traced(9, [](int g) {
                                           if (g == 0 || g == 8) return std::vector<Access>{range(0, 100, true), range(0, 100, true)};
                                           if (g == 1) return std::vector<Access>{range(100, 50, true)};
                                           return std::vector<Access>{};
                                         }),
                                         hw);
  CHECK(m.traced.l2_write_bytes == (400 + 50) * 128);
  CHECK(m.traced.hbm_write_bytes == 150 * 128);
  CHECK(m.traced.hbm_read_bytes == 0);
  REQUIRE(m.levels[0].size() == 200);
  // Made the line dirty (one write-back later: Hbm), or workgroup 8 did before it in that round (L2).
  CHECK((m.levels[0][0] == model::MemLevel::Hbm || m.levels[0][0] == model::MemLevel::L2));
  CHECK(m.levels[0][100] == model::MemLevel::L2);  // rewritten while dirty in the L2
}

TEST_CASE("Memory hierarchy: the workgroup that first touches a line shared in its XCD changes over the rounds",
          "[model][memory]") {
  const model::Hardware& hw = model::product("mi300x");  // 8 XCDs: workgroups 0 and 8 share XCD 0's L2
  // 16 workgroups make the same 256 one-line accesses (access k reads line 1000 + k).
  const auto m = model::simulate_memory(traced(16, [](int) {
                                           std::vector<Access> a;
                                           for (uint64_t k = 0; k < 256; ++k) a.push_back(range(1000 + k, 1));
                                           return a;
                                         }),
                                         hw);
  CHECK(m.traced.hbm_read_bytes == 256 * 128);  // the order does not change what the launch moves
  CHECK(m.traced.mall_read_bytes == 8 * 256 * 128);
  REQUIRE(m.levels[0].size() == 256);
  // Workgroup 0 precedes workgroup 8 in about half the rounds, so it misses its L2 in about half
  // (its CU's replay pays an equal share), and leads all 16 in about 1/16 (HBM).
  int l2_hits = 0, hbm = 0;
  for (model::MemLevel l : m.levels[0]) l2_hits += l == model::MemLevel::L2, hbm += l == model::MemLevel::Hbm;
  CHECK(l2_hits >= 128 - 32);
  CHECK(l2_hits <= 128 + 32);
  CHECK(hbm >= 16 - 12);
  CHECK(hbm <= 16 + 12);
}

TEST_CASE("Memory hierarchy: a line's sharers pay its miss in equal shares also when their ids are clustered",
          "[model][memory]") {
  const model::Hardware& hw = model::product("mi355x");  // 8 XCDs
  // 256 workgroups; those of ids 0, 8, ..., 120 (all on XCD 0, as the tile row of a GEMM that groups
  // 8 tile rows per XCD) read the same 512 lines, the others other lines. Workgroup 0 should miss
  // the L2 for about 1/16 of them. A rotation of the first workgroup over the rounds (round r led by
  // workgroup r mod 256) made it lead in 136 of 256 rounds: more than half of its lines from HBM.
  const auto m = model::simulate_memory(traced(256, [](int g) {
                                           std::vector<Access> a;
                                           const bool sharer = g % 8 == 0 && g <= 120;
                                           for (uint64_t k = 0; k < 512; ++k)
                                             a.push_back(range(sharer ? 1000 + k : 100000 + uint64_t(g) * 512 + k, 1));
                                           return a;
                                         }),
                                         hw);
  REQUIRE(m.levels[0].size() == 512);
  int hbm = 0;
  for (model::MemLevel l : m.levels[0]) hbm += l == model::MemLevel::Hbm;
  CHECK(hbm >= 32 - 20);
  CHECK(hbm <= 32 + 20);
  CHECK(m.traced.hbm_read_bytes == (512 + 240 * 512) * 128.0);
}
