// Global-memory coalescing: the cache lines one VMEM instruction touches (the simulator's line trace,
// sim::record_lines, and the timing model's memory hierarchy read lines through these).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace cdnajit::sim {

// Distinct `line`-byte cache lines covered by [a, a + lane_bytes) of every
// active lane (kNoAddress = inactive), sorted ascending.
std::vector<uint64_t> cache_lines(std::span<const uint64_t> addrs, int lane_bytes, int line);

// The same lines appended to `out` (the caller's vector, so a model run reuses one allocation).
void append_cache_lines(std::span<const uint64_t> addrs, int lane_bytes, int line, std::vector<uint64_t>& out);

// How many lines cache_lines gives, without building the list where the lanes' lines ascend.
size_t cache_line_count(std::span<const uint64_t> addrs, int lane_bytes, int line);

}  // namespace cdnajit::model
