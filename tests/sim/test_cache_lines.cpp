// Coalescing by 128-byte cache line against hand-computed line counts.
#include <catch2/catch.hpp>

#include <algorithm>

#include "runtime/sim/cache_lines.hpp"
#include "runtime/sim/record.hpp"
#include "tests/model/synthetic.hpp"

using namespace cdnajit;
using model_test::lane_addrs;

TEST_CASE("cache_lines: contiguous, strided, unaligned and inactive lanes", "[sim][cache_lines]") {
  CHECK(sim::cache_lines(lane_addrs(0x1000, 4), 4, 128).size() == 2);     // 256 bytes
  CHECK(sim::cache_lines(lane_addrs(0x1000, 16), 16, 128).size() == 8);   // dwordx4: 1 KiB
  CHECK(sim::cache_lines(lane_addrs(0x1000, 128), 4, 128).size() == 64);  // one line per lane
  CHECK(sim::cache_lines(lane_addrs(0x1000, 0), 4, 128).size() == 1);     // all lanes, one address
  CHECK(sim::cache_lines(lane_addrs(0x1040, 4), 4, 128).size() == 3);     // 256 bytes starting mid-line
  auto a = lane_addrs(0x107e, 0);                                           // 4 bytes across a line boundary
  CHECK(sim::cache_lines(a, 4, 128).size() == 2);
  std::vector<uint64_t> none(64, sim::kNoAddress);
  CHECK(sim::cache_lines(none, 4, 128).empty());
}

// Test oracle, an independent re-implementation kept on purpose: every active lane's lines, sorted,
// each once. append_cache_lines takes shortcuts for coalesced accesses (one run, ascending lanes).
static std::vector<uint64_t> every_lane_lines(const std::vector<uint64_t>& addrs, int lane_bytes, int line) {
  std::vector<uint64_t> out;
  for (uint64_t a : addrs) {
    if (a == sim::kNoAddress) continue;
    for (uint64_t b = a; b < a + uint64_t(std::max(1, lane_bytes)); ++b) out.push_back(b / uint64_t(line));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

TEST_CASE("cache_lines: the coalesced shortcuts give every lane's lines", "[sim][cache_lines]") {
  uint64_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  for (int trial = 0; trial < 4000; ++trial) {
    const int lane_bytes = 1 << (next() % 5);  // 1..16
    std::vector<uint64_t> a(64);
    uint64_t at = 0x10000 + next() % 4096;
    for (int l = 0; l < 64; ++l) {
      a[size_t(l)] = at;
      switch (next() % 8) {  // steps of 0, a lane, exactly a line and a line + 1, back, or no address
        case 0: break;
        case 1: at += 128; break;
        case 2: at += 129; break;
        case 3: at -= std::min<uint64_t>(at, next() % 64); break;
        case 4: a[size_t(l)] = sim::kNoAddress; break;
        default: at += uint64_t(lane_bytes); break;
      }
    }
    if (trial % 2) {  // half the trials coalesced: every lane, ascending by its width
      for (int l = 0; l < 64; ++l) a[size_t(l)] = 0x20040 + uint64_t(l) * uint64_t(lane_bytes) * (1 + trial % 3);
    }
    if (trial % 7 == 0) {  // lane 0 without an address, the others ascending from below one line
      for (int l = 0; l < 64; ++l) a[size_t(l)] = uint64_t(l) * uint64_t(lane_bytes);
      a[0] = sim::kNoAddress;
    }
    const std::vector<uint64_t> want = every_lane_lines(a, lane_bytes, 128);
    CHECK(sim::cache_lines(a, lane_bytes, 128) == want);
    CHECK(sim::cache_line_count(a, lane_bytes, 128) == want.size());
  }
}
