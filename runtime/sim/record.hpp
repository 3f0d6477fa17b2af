// Optional recording of dynamic instruction streams during a functional run,
// for the timing model (runtime/model). Off unless Options::recording points at
// a Recording; then only the workgroups it lists are recorded, so the cost is
// two predictable branches per instruction in every other workgroup.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"
#include "runtime/sim/clock_feed.hpp"
#include "runtime/sim/clock_taint.hpp"
#include "jit/codeobject/code_object.hpp"

namespace cdnajit::sim {

// Static facts of one instruction of the kernel (index = instruction index).
struct RecordedOp {
  uint32_t pc = 0;                        // byte offset from the kernel entry
  std::string text;                       // disassembly
  isa::Unit unit = isa::Unit::Misc;
  const isa::InstrInfo* info = nullptr;   // ISA table entry (nullptr if the table lacks it)
  uint32_t imm = 0;                       // SOPP/SOPK immediate (s_waitcnt fields, s_nop count, ...)
  uint8_t lane_bytes = 0;                 // memory access size per lane and address
  uint8_t cbsz = 0, blgp = 0;             // MFMA format fields (gfx950 f8f6f4: the pass count depends on them)
  bool lds_dma = false;                   // global/buffer load that writes LDS
  ClockKind clock = ClockKind::None;      // s_memtime / s_memrealtime (the model reports their issue cycles)
};

inline constexpr uint64_t kNoAddress = ~0ull;

// One executed wave-instruction.
struct RecordedStep {
  uint32_t op = 0;          // instruction index into Recording::ops
  uint32_t addr_first = 0;  // first of addr_count entries in RecordedWave::addrs
  uint16_t addr_count = 0;  // 0 (no memory access or not recorded), 64, or 128 (two addresses per lane)
  uint8_t active = 0;       // EXEC population before the instruction
  bool taken = false;       // branch taken
};

struct RecordedWave {
  uint64_t workgroup = 0;   // linear workgroup id
  int wave_in_wg = 0;
  uint64_t charged = 0;     // bytes of this wave already counted in Recording::used
  std::vector<RecordedStep> steps;
  // Per-lane addresses of memory instructions, 64 per access slot, lane order;
  // inactive lanes hold kNoAddress. LDS byte addresses for DS, device byte
  // addresses for global/flat/buffer.
  std::vector<uint64_t> addrs;
  ClockTaint taint;  // with Recording::track_clock_taint: its clock-derived values (clock_taint.hpp)
};

// Global-memory cache lines one wave touched, for the memory-hierarchy model
// (runtime/model/memory_hierarchy.hpp): per VMEM access with addresses, its distinct
// lines in increasing order, each stored as (line index << 1) | written.
struct LineWave {
  std::vector<uint64_t> lines;
  std::vector<uint32_t> access_end;  // lines[access_end[i-1] .. access_end[i]) belong to access i
};

// The default cap on a recording's steps and addresses: a kernel that loops without end (or far
// longer than a timing model needs) stops with an error naming the wave instead of taking the
// host's memory (a runaway loop recorded 1.6 GB in 5 s). Whether a launch exceeds it does not
// depend on the host's threads (the total recorded is the same); which wave is named may.
inline constexpr uint64_t kDefaultMaxRecordingBytes = uint64_t(1) << 30;
// Each wave adds its bytes to the shared count in steps of this size (one atomic add per MiB).
inline constexpr uint64_t kRecordingChargeBytes = uint64_t(1) << 20;

// A counter that a Recording can be copied with (the copy takes the value).
struct RecordedBytes {
  std::atomic<uint64_t> n{0};
  RecordedBytes() = default;
  RecordedBytes(const RecordedBytes& o) : n(o.n.load()) {}
  RecordedBytes& operator=(const RecordedBytes& o) {
    n = o.n.load();
    return *this;
  }
};

struct Recording {
  // Input: linear ids of the workgroups to record (any order, no duplicates).
  std::vector<uint64_t> workgroups;
  // Input: the workgroups 0 .. line_workgroups-1 also have their global cache lines
  // recorded (line_waves), `line_bytes` per line; with Options::only_recorded_workgroups
  // they run as well. 0: none.
  uint64_t line_workgroups = 0;
  uint32_t line_bytes = 128;
  // Input: the most bytes of steps and addresses recorded over all waves (checked per MiB a wave
  // records, so a launch may pass it by up to 1 MiB per host thread before it stops).
  uint64_t max_bytes = kDefaultMaxRecordingBytes;
  RecordedBytes used;  // output: bytes counted so far
  // Input: follow which values derive from a clock read in every recorded wave (clock_taint.hpp).
  bool track_clock_taint = false;
  // Output of Simulator::launch.
  Arch arch = Arch::gfx942;
  KernelInfo kernel;
  uint32_t waves_per_workgroup = 0;
  std::vector<RecordedOp> ops;
  // workgroups.size() x waves_per_workgroup, in the order of `workgroups`.
  std::vector<RecordedWave> waves;
  // min(line_workgroups, grid) x waves_per_workgroup, by workgroup id.
  std::vector<LineWave> line_waves;
};

}  // namespace cdnajit::sim
