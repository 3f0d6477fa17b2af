// The global-memory hierarchy of one launch, simulated line by line from the real
// addresses: a vector L1 per CU, an L2 per XCD shared by its CUs, one Infinity Cache
// (MALL) shared by all XCDs, and HBM (Hardware describes each level). Workgroup i
// runs on XCD i mod XCDs and, within it, on CU (i / XCDs) mod CUs-per-XCD, as the
// round-robin dispatch of MI300X/MI355X places it. The traced workgroups (the first
// round of the grid, Recording::line_waves, or the recorded ones when none is traced)
// start together; their accesses are interleaved in program order (every wave's k-th
// access before any (k+1)-th), so lines shared by workgroups resident at the same time
// are fetched once per XCD from the Infinity Cache and once from HBM.
//
// Reads allocate in every level (LRU, set-associative), except that a load whose cache-policy
// bits send it past the vector L1 (Hardware::l1_miss_on_sc1_load, l1_miss_on_nt_load) neither
// looks the L1 up nor allocates in it; a buffer_inv at workgroup scope or wider empties its CU's
// L1 (Hardware::l1_invalidated_by_buffer_inv). Stores go through the L1 without allocating
// (write-no-allocate) into the L2, which allocates the line dirty without a fetch; a dirty line
// leaving the L2 is written to the Infinity Cache, one leaving that is written to HBM,
// and every dirty line still cached when the traced workgroups end is written back too:
// every written line costs its HBM write once. Caches start empty (inputs in HBM).
#pragma once
#include <cstdint>
#include <vector>

#include "runtime/model/hardware.hpp"
#include "runtime/sim/record.hpp"

namespace cdnajit::model {

// Where one line access was served. A read: the first level that held the line. A store:
// L2, or Hbm when it made the line dirty (it costs one write-back to HBM later).
enum class MemLevel : uint8_t { L1, L2, Mall, Hbm };
const char* mem_level_name(MemLevel l);

// Bytes each level moved for the traced workgroups.
struct LevelTraffic {
  double l1_hit_bytes = 0;      // reads served by a vector L1
  double l2_read_bytes = 0;     // reads that missed their L1 (served by L2 or below)
  double l2_write_bytes = 0;    // stored lines (every store reaches the L2)
  double mall_read_bytes = 0;   // reads that missed their L2
  double mall_write_bytes = 0;  // dirty lines written back from an L2
  double hbm_read_bytes = 0;    // reads that missed the Infinity Cache
  double hbm_write_bytes = 0;   // dirty lines written back to HBM
  uint64_t workgroups = 0;      // traced workgroups these bytes belong to
  uint64_t line_accesses = 0;
  double hbm_bytes() const { return hbm_read_bytes + hbm_write_bytes; }
  double mall_bytes() const { return mall_read_bytes + mall_write_bytes; }
  double l2_bytes() const { return l2_read_bytes + l2_write_bytes; }
};

struct MemoryModel {
  LevelTraffic traced;
  // Per recorded wave (index into Recording::waves): the level of each line of its VMEM
  // accesses, in program order (the lines of one access in increasing address order).
  std::vector<std::vector<MemLevel>> levels;
  bool from_line_trace = false;  // traced workgroups came from Recording::line_waves
};

// Throws cdnajit::Error when the recording holds no complete workgroup.
MemoryModel simulate_memory(const sim::Recording& rec, const Hardware& hw);

}  // namespace cdnajit::model
