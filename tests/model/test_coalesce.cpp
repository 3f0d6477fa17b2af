// Coalescing by 128-byte cache line against hand-computed line counts.
#include <catch2/catch.hpp>

#include "runtime/model/coalesce.hpp"
#include "runtime/sim/record.hpp"
#include "tests/model/synthetic.hpp"

using namespace cdnajit;
using model_test::lane_addrs;

TEST_CASE("cache_lines: contiguous, strided, unaligned and inactive lanes", "[model][coalesce]") {
  CHECK(model::cache_lines(lane_addrs(0x1000, 4), 4, 128).size() == 2);     // 256 bytes
  CHECK(model::cache_lines(lane_addrs(0x1000, 16), 16, 128).size() == 8);   // dwordx4: 1 KiB
  CHECK(model::cache_lines(lane_addrs(0x1000, 128), 4, 128).size() == 64);  // one line per lane
  CHECK(model::cache_lines(lane_addrs(0x1000, 0), 4, 128).size() == 1);     // all lanes, one address
  CHECK(model::cache_lines(lane_addrs(0x1040, 4), 4, 128).size() == 3);     // 256 bytes starting mid-line
  auto a = lane_addrs(0x107e, 0);                                           // 4 bytes across a line boundary
  CHECK(model::cache_lines(a, 4, 128).size() == 2);
  std::vector<uint64_t> none(64, sim::kNoAddress);
  CHECK(model::cache_lines(none, 4, 128).empty());
}
