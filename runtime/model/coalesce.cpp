#include "runtime/model/coalesce.hpp"

#include <algorithm>

#include "runtime/sim/record.hpp"

namespace cdnajit::model {

std::vector<uint64_t> cache_lines(std::span<const uint64_t> addrs, int lane_bytes, int line) {
  std::vector<uint64_t> out;
  const uint64_t n = uint64_t(std::max(1, lane_bytes));
  for (uint64_t a : addrs) {
    if (a == sim::kNoAddress) continue;
    for (uint64_t l = a / uint64_t(line); l <= (a + n - 1) / uint64_t(line); ++l) out.push_back(l);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace cdnajit::model
