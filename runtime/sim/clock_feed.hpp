// In-kernel clock values supplied by the timing model (runtime/model/clock_reads.hpp).
//
// Without a feed (Options::clock_feed == nullptr) s_memtime and s_memrealtime return a
// deterministic per-wave count, 4 x the wave-instructions executed so far: no time is modelled.
// With a feed, the k-th clock read of a wave returns the shader-clock cycle the timing model's
// replay gave that read (cycles from the kernel's start), or for s_memrealtime the product's
// constant-rate counter at that cycle. A read the feed has no value for (the first run, or a
// read beyond those the previous run's replay saw) continues from the wave's previous clock
// value at 4 cycles per wave-instruction; the model's driver re-runs until no such read is left.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit::sim {

// Which counter an instruction reads (ISA-table identity, not mnemonic text).
enum class ClockKind : uint8_t { None, ShaderCycles, RealTime };
ClockKind clock_kind(const isa::InstrInfo* info);

struct ClockFeed {
  uint32_t grid[3] = {1, 1, 1};       // the launch's workgroups per dimension (for linear ids)
  uint32_t waves_per_workgroup = 1;
  // Issue cycle of each clock read of a wave, in the wave's read order;
  // key = linear workgroup id * waves_per_workgroup + wave index in the workgroup.
  std::unordered_map<uint64_t, std::vector<uint64_t>> cycles;
  double realtime_ticks_per_cycle = 0;  // s_memrealtime ticks per shader-clock cycle
  // Output of a launch: 1 for each linear workgroup that executed a clock read. The caller sizes
  // it to the grid; each workgroup runs on one host thread, so the writes do not race.
  std::vector<uint8_t> read_clock;
  // Output, sized alike: 1 for each workgroup that read a clock the feed had no value for (a run the
  // model can accept has none).
  std::vector<uint8_t> unfed;
};

}  // namespace cdnajit::sim
