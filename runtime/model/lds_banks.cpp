#include "runtime/model/lds_banks.hpp"

#include <algorithm>
#include <vector>

#include "runtime/sim/record.hpp"

namespace cdnajit::model {

namespace {
// [LDSPH]: the lanes a 16-byte read serves together, in service order (groups of 8 on 32 banks,
// 16 on 64 banks).
constexpr int kB128Read32[64] = {0,  1,  2,  3,  20, 21, 22, 23, 32, 33, 34, 35, 52, 53, 54, 55, 4,  5,  6,  7,  16, 17,
                                 18, 19, 36, 37, 38, 39, 48, 49, 50, 51, 8,  9,  10, 11, 28, 29, 30, 31, 40, 41, 42, 43,
                                 60, 61, 62, 63, 12, 13, 14, 15, 24, 25, 26, 27, 44, 45, 46, 47, 56, 57, 58, 59};
constexpr int kB128Read64[64] = {0,  1,  2,  3,  12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27, 32, 33, 34, 35, 44, 45,
                                 46, 47, 52, 53, 54, 55, 56, 57, 58, 59, 4,  5,  6,  7,  8,  9,  10, 11, 16, 17, 18, 19,
                                 28, 29, 30, 31, 36, 37, 38, 39, 40, 41, 42, 43, 48, 49, 50, 51, 60, 61, 62, 63};
}  // namespace

int lds_passes(std::span<const uint64_t> addrs, int lane_bytes, int banks, int misaligned_passes_per_byte, bool read,
               int* misaligned_passes) {
  const int bytes = std::max(4, lane_bytes);  // sub-dword accesses occupy their dword's bank
  const int dwords = (bytes + 3) / 4;
  // Lanes per group: the largest power of two whose dwords fit the banks once.
  int group = 1;
  while (group * 2 * dwords <= banks) group *= 2;
  const uint64_t natural = (bytes == 8 || bytes == 16) ? uint64_t(bytes) : 4;
  const int* order = nullptr;  // lane service order (nullptr: lane order)
  if (read && bytes == 16 && banks == 32) order = kB128Read32;
  if (read && bytes == 16 && banks == 64) order = kB128Read64;
  int passes = 0, alone = 0;
  std::vector<uint64_t> seen;  // distinct dword addresses of the group, per bank
  std::vector<int> count(size_t(banks), 0);
  for (size_t slot = 0; slot < addrs.size(); slot += 64) {
    for (int g0 = 0; g0 < 64; g0 += group) {
      seen.clear();
      for (int i = g0; i < g0 + group; ++i) {
        const int l = order ? order[i] : i;
        const uint64_t a = addrs[slot + size_t(l)];
        if (a == sim::kNoAddress) continue;
        if (misaligned_passes_per_byte > 0 && natural > 4 && a % natural != 0) {
          passes += misaligned_passes_per_byte * bytes;  // served alone
          alone += misaligned_passes_per_byte * bytes;
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
  if (misaligned_passes) *misaligned_passes = alone;
  return passes;
}

uint64_t active_lanes(std::span<const uint64_t> addrs) {
  uint64_t n = 0;
  for (size_t l = 0; l < std::min<size_t>(64, addrs.size()); ++l) {
    bool on = addrs[l] != sim::kNoAddress;
    for (size_t slot = 64 + l; slot < addrs.size() && !on; slot += 64) on = addrs[slot] != sim::kNoAddress;
    n += on;
  }
  return n;
}

uint64_t lds_bytes(std::span<const uint64_t> addrs, int lane_bytes) {
  uint64_t n = 0;
  for (uint64_t a : addrs) n += a != sim::kNoAddress;
  return n * uint64_t(std::max(4, lane_bytes));
}

LdsCost lds_cost(std::span<const uint64_t> addrs, int lane_bytes, const Hardware& hw, bool write) {
  LdsCost c;
  int alone = 0;
  const int passes = lds_passes(addrs, lane_bytes, hw.lds_banks, hw.lds_misaligned_passes_per_byte, !write, &alone);
  // A write sends each active lane's 4-byte address and its data over the same input port of the
  // SIMD pair ([ROCPROF]: a wave64 store of 4 bytes per lane takes 8 cycles, of 16 bytes 20 cycles at
  // 64 B/clk); a read's addresses go in while its data comes back on the other direction's port.
  const uint64_t bytes = lds_bytes(addrs, lane_bytes) + (write ? 4 * active_lanes(addrs) : 0);
  const uint64_t rate = uint64_t(std::max(1, write ? hw.lds_write_bytes_per_clk : hw.lds_bytes_per_clk));
  c.port_cycles = int((bytes + rate - 1) / rate);
  // Misaligned lanes served alone hold the half (the fitted rule of lds_misaligned_passes_per_byte,
  // fitted when each half had banks of its own); only the aligned passes queue for the shared banks.
  c.bank_cycles = (passes - alone) * hw.lds_bank_cycles;
  if (alone > 0) c.port_cycles = std::max(c.port_cycles, passes * hw.lds_bank_cycles);
  return c;
}

int lds_cycles(std::span<const uint64_t> addrs, int lane_bytes, const Hardware& hw, bool write) {
  const LdsCost c = lds_cost(addrs, lane_bytes, hw, write);
  return std::max(c.bank_cycles, c.port_cycles);
}

}  // namespace cdnajit::model
