#include "runtime/sim/cache_lines.hpp"

#include <algorithm>
#include <bit>

#include "runtime/sim/record.hpp"

namespace cdnajit::sim {

namespace {

// Calls f(first line, last line) of each active lane in lane order while the lanes' first lines do
// not descend below the highest line seen so far (a coalesced access: lines come out in order, each
// new one past the last); returns false at the first lane that breaks that order.
template <class F>
bool ascending_lines(std::span<const uint64_t> addrs, int lane_bytes, int line, F&& f) {
  const uint64_t n = uint64_t(std::max(1, lane_bytes)), L = uint64_t(line);
  // Lines are a power of two on every product (product_file.cpp checks it): a shift instead of two
  // 64-bit divisions per lane.
  const bool pow2 = L && (L & (L - 1)) == 0;
  const int shift = pow2 ? std::countr_zero(L) : 0;
  uint64_t last = 0;
  bool any = false;
  for (uint64_t a : addrs) {
    if (a == kNoAddress) continue;
    const uint64_t lo = pow2 ? a >> shift : a / L, hi = pow2 ? (a + n - 1) >> shift : (a + n - 1) / L;
    if (any && lo < last) return false;
    const uint64_t from = any && lo == last ? lo + 1 : lo;  // `last` is already counted
    if (hi >= from) f(from, hi);
    last = std::max(last, hi);
    any = true;
  }
  return true;
}

// The common coalesced access in one pass without branches: every one of 64 lanes has an address, and
// each lies at most a line past its left neighbour and not before it (an unsigned difference catches
// both). Its lines are then the run from lane 0's first to lane 63's last, as ascending_lines gives
// them (no lane's first line lies past the line after its neighbour's, and the last lane ends last).
bool one_run(std::span<const uint64_t> addrs, int lane_bytes, int line, uint64_t& from, uint64_t& to) {
  if (addrs.size() != 64) return false;
  const uint64_t n = uint64_t(std::max(1, lane_bytes)), L = uint64_t(line);
  uint64_t far = 0;
  for (size_t l = 1; l < 64; ++l) far |= uint64_t(addrs[l] - addrs[l - 1] > L);
  // Lane 0 must have an address (an inactive lane 0 followed by an address below a line would pass the
  // steps); then none is kNoAddress: every lane lies at or below lane 63.
  if (far || addrs[0] == kNoAddress || addrs[63] >= kNoAddress - n) return false;
  from = addrs[0] / L;
  to = (addrs[63] + n - 1) / L;
  return true;
}

}  // namespace

void append_cache_lines(std::span<const uint64_t> addrs, int lane_bytes, int line, std::vector<uint64_t>& out) {
  const size_t first = out.size();
  auto append_run = [&](uint64_t from, uint64_t to) {
    for (uint64_t l = from; l <= to; ++l) out.push_back(l);
  };
  uint64_t run_from = 0, run_to = 0;
  if (one_run(addrs, lane_bytes, line, run_from, run_to)) {
    append_run(run_from, run_to);
    return;
  }
  if (ascending_lines(addrs, lane_bytes, line, append_run)) return;
  out.resize(first);  // lanes out of order: every lane's lines, sorted, each once
  const uint64_t n = uint64_t(std::max(1, lane_bytes));
  for (uint64_t a : addrs) {
    if (a == kNoAddress) continue;
    for (uint64_t l = a / uint64_t(line); l <= (a + n - 1) / uint64_t(line); ++l) out.push_back(l);
  }
  std::sort(out.begin() + std::ptrdiff_t(first), out.end());
  out.erase(std::unique(out.begin() + std::ptrdiff_t(first), out.end()), out.end());
}

std::vector<uint64_t> cache_lines(std::span<const uint64_t> addrs, int lane_bytes, int line) {
  std::vector<uint64_t> out;
  append_cache_lines(addrs, lane_bytes, line, out);
  return out;
}

size_t cache_line_count(std::span<const uint64_t> addrs, int lane_bytes, int line) {
  uint64_t run_from = 0, run_to = 0;
  if (one_run(addrs, lane_bytes, line, run_from, run_to)) return size_t(run_to - run_from + 1);
  size_t count = 0;
  if (ascending_lines(addrs, lane_bytes, line, [&](uint64_t from, uint64_t to) { count += size_t(to - from + 1); }))
    return count;
  return cache_lines(addrs, lane_bytes, line).size();
}

}  // namespace cdnajit::sim
