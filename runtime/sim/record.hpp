// Optional recording of dynamic instruction streams during a functional run,
// for the timing model (runtime/model). Off unless Options::recording points at
// a Recording; then only the workgroups it lists are recorded, so the cost is
// two predictable branches per instruction in every other workgroup.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"
#include "runtime/sim/clock_feed.hpp"
#include "runtime/sim/clock_taint.hpp"
#include "jit/codeobject/code_object.hpp"

namespace cdnajit::sim {

struct DecodedKernel;

// A VMEM instruction's cache-policy fields (gfx94x/gfx950 SC0, SC1, NT) and whether it is a cache
// invalidate (buffer_inv), as recorded for the timing model; what they do to the caches is the
// model's (runtime/model/memory_hierarchy.cpp, Hardware).
enum CacheBits : uint8_t { kCacheSc0 = 1, kCacheSc1 = 2, kCacheNt = 4, kCacheInvalidate = 8 };

// Static facts of one instruction of the kernel (index = instruction index).
struct RecordedOp {
  uint32_t pc = 0;                        // byte offset from the decoded code's base (DecodedKernel::code_base)
  std::string text;                       // disassembly
  isa::Unit unit = isa::Unit::Misc;
  const isa::InstrInfo* info = nullptr;   // ISA table entry (nullptr if the table lacks it)
  uint32_t imm = 0;                       // SOPP/SOPK immediate (s_waitcnt fields, s_nop count, ...)
  uint8_t lane_bytes = 0;                 // memory access size per lane and address
  uint8_t cbsz = 0, blgp = 0;             // MFMA format fields (gfx950 f8f6f4: the pass count depends on them)
  bool lds_dma = false;                   // global/buffer load that writes LDS
  ClockKind clock = ClockKind::None;      // s_memtime / s_memrealtime (the model reports their issue cycles)
  uint8_t cache_bits = 0;                 // VMEM: CacheBits
};

inline constexpr uint64_t kNoAddress = ~0ull;

// One executed wave-instruction.
struct RecordedStep {
  uint32_t op = 0;          // instruction index into Recording::ops
  uint32_t addr_first = 0;  // its addresses' first word in RecordedWave::addrs
  uint8_t addr_count = 0;   // addresses: 0 (no memory access or not recorded), 64, or 128 (two per lane)
  bool affine = false;      // the addresses are stored as kAffineWords words (step_addresses)
  uint8_t active = 0;       // EXEC population before the instruction
  bool taken = false;       // branch taken
};

// Words of RecordedWave::addrs an affine step takes: base, stride, lane mask.
inline constexpr uint32_t kAffineWords = 3;

struct RecordedWave {
  uint64_t workgroup = 0;   // linear workgroup id
  int wave_in_wg = 0;
  uint64_t charged = 0;     // bytes of this wave already counted in Recording::used
  std::vector<RecordedStep> steps;
  // Per-lane addresses of memory instructions, 64 per access slot, lane order; inactive lanes hold
  // kNoAddress. LDS byte addresses for DS, device byte addresses for global/flat/buffer. A step whose
  // 64 addresses are base + lane * stride on every lane that has one (a coalesced access: most of
  // them) is stored as those three words instead (RecordedStep::affine), so a recording of every
  // workgroup of a grid stays small; read a step's addresses with step_addresses.
  std::vector<uint64_t> addrs;
  ClockTaint taint;  // with Recording::track_clock_taint: its clock-derived values (clock_taint.hpp)
};

// Room for one step's addresses, expanded.
struct StepAddressBuffer {
  uint64_t a[128];
};

// The step's addr_count addresses in lane order (kNoAddress where a lane has none): a view of the
// wave's words, or for an affine step its addresses written out into `buf`.
inline std::span<const uint64_t> step_addresses(const RecordedWave& w, const RecordedStep& st, StepAddressBuffer& buf) {
  const uint64_t* p = w.addrs.data() + st.addr_first;
  if (!st.affine) return {p, st.addr_count};
  const uint64_t base = p[0], stride = p[1], mask = p[2];
  for (uint32_t l = 0; l < 64; ++l) buf.a[l] = (mask >> l) & 1 ? base + l * stride : kNoAddress;
  return {buf.a, 64};
}

// When the 64 addresses `a` (kNoAddress: the lane has none) are base + lane * stride on every lane
// that has one, writes base, stride and the mask of those lanes to `out` and returns true (with lanes
// missing between the first two, only for strides below 2^57: record.cpp). The form is unique (base
// and stride follow from the first two such lanes; one lane: stride 0; none: all 0), so two steps'
// stored words are equal exactly when their addresses are.
bool affine_addresses(const uint64_t* a, uint64_t out[kAffineWords]);

// Global-memory cache lines one wave touched, for the memory-hierarchy model
// (runtime/model/memory_hierarchy.hpp): per VMEM access with addresses, its distinct
// lines in increasing order, each stored as (line index << 1) | written. A cache invalidate
// (kCacheInvalidate) is an access without lines.
struct LineWave {
  std::vector<uint64_t> lines;
  std::vector<uint32_t> access_end;  // lines[access_end[i-1] .. access_end[i]) belong to access i
  std::vector<uint8_t> access_bits;  // CacheBits of access i (one entry per access_end entry)
  // Ends access i after the lines appended since the previous one (none for a cache invalidate).
  void end_access(uint8_t bits) {
    access_end.push_back(uint32_t(lines.size()));
    access_bits.push_back(bits);
  }
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
  // Input: when set, called as each recorded workgroup ends, on the host thread that ran it (calls for
  // different workgroups may run at once), with the index of its first wave in `waves`; it may read
  // the recording's ops and that workgroup's waves, and empty their steps and addresses (e.g. keep a
  // digest of them instead: runtime/model/clock_reads.cpp). An exception it throws is the workgroup's error.
  std::function<void(Recording&, size_t first_wave)> workgroup_done;
  // Input: follow which values derive from a clock read in every recorded wave (clock_taint.hpp).
  bool track_clock_taint = false;
  // Input, with track_clock_taint: also keep each wave's clock-derived slice (clock_slice.hpp).
  bool track_clock_slice = false;
  // Output of Simulator::launch.
  Arch arch = Arch::gfx942;
  KernelInfo kernel;
  uint32_t waves_per_workgroup = 0;
  // The kernel's decoded form, owned by the Simulator that ran the launch (valid while it lives):
  // replay_clock_slice re-executes its instructions.
  const DecodedKernel* decoded = nullptr;
  std::vector<RecordedOp> ops;
  // workgroups.size() x waves_per_workgroup, in the order of `workgroups`.
  std::vector<RecordedWave> waves;
  // min(line_workgroups, grid) x waves_per_workgroup, by workgroup id.
  std::vector<LineWave> line_waves;
};

}  // namespace cdnajit::sim
