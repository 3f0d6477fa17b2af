#include "runtime/model/lds_banks.hpp"

#include <algorithm>
#include <vector>

#include "runtime/sim/record.hpp"

namespace cdnajit::model {

int lds_passes(std::span<const uint64_t> addrs, int lane_bytes, int banks, int misaligned_passes_per_byte) {
  const int bytes = std::max(4, lane_bytes);  // sub-dword accesses occupy their dword's bank
  const int dwords = (bytes + 3) / 4;
  // Lanes per group: the largest power of two whose dwords fit the banks once.
  int group = 1;
  while (group * 2 * dwords <= banks) group *= 2;
  const uint64_t natural = (bytes == 8 || bytes == 16) ? uint64_t(bytes) : 4;
  int passes = 0;
  std::vector<uint64_t> seen;  // distinct dword addresses of the group, per bank
  std::vector<int> count(size_t(banks), 0);
  for (size_t slot = 0; slot < addrs.size(); slot += 64) {
    for (int g0 = 0; g0 < 64; g0 += group) {
      seen.clear();
      for (int l = g0; l < g0 + group; ++l) {
        const uint64_t a = addrs[slot + size_t(l)];
        if (a == sim::kNoAddress) continue;
        if (misaligned_passes_per_byte > 0 && natural > 4 && a % natural != 0) {
          passes += misaligned_passes_per_byte * bytes;  // served alone
          continue;
        }
        for (int d = 0; d < dwords; ++d) seen.push_back((a & ~3ull) / 4 + uint64_t(d));
      }
      if (seen.empty()) continue;
      std::sort(seen.begin(), seen.end());
      seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
      std::fill(count.begin(), count.end(), 0);
      int worst = 0;
      for (uint64_t dw : seen) worst = std::max(worst, ++count[size_t(dw % uint64_t(banks))]);
      passes += worst;
    }
  }
  return passes;
}

uint64_t lds_bytes(std::span<const uint64_t> addrs, int lane_bytes) {
  uint64_t n = 0;
  for (uint64_t a : addrs) n += a != sim::kNoAddress;
  return n * uint64_t(std::max(4, lane_bytes));
}

int lds_cycles(std::span<const uint64_t> addrs, int lane_bytes, const Hardware& hw) {
  const int passes = lds_passes(addrs, lane_bytes, hw.lds_banks, hw.lds_misaligned_passes_per_byte) * hw.lds_bank_cycles;
  const uint64_t bytes = lds_bytes(addrs, lane_bytes);
  const int bandwidth = int((bytes + uint64_t(hw.lds_bytes_per_clk) - 1) / uint64_t(hw.lds_bytes_per_clk));
  return std::max(passes, bandwidth);
}

}  // namespace cdnajit::model
