// Event model of one compute unit replaying recorded wave instruction streams.
//
// Each cycle one SIMD (cycle % 4) has its issue turn: among its ready waves
// (higher s_setprio first, then older) it issues at most one instruction per
// unit type (VALU incl. MFMA, SALU, VMEM, LDS, SMEM, branch/other), one per
// wave. VALU instructions occupy the SIMD's vector pipe, MFMAs its matrix pipe
// (passes x 4 cycles), DS instructions the CU's LDS pipe (bank-conflict passes
// from the real addresses), VMEM instructions the address unit and then the
// CU's share of each level's bandwidth (the level from memory_hierarchy.hpp) with that level's latency. s_waitcnt waits for the
// modelled completion of older memory operations (in order per counter),
// s_barrier for every wave of the workgroup, s_nop/s_sleep for their cycles.
// Workgroups occupy the CU's slots; when one ends the next starts.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/model/hardware.hpp"
#include "runtime/model/memory_hierarchy.hpp"
#include "runtime/sim/record.hpp"

namespace cdnajit::model {

enum class Stall : uint8_t { WaitVm, WaitLgkm, Barrier, NopSleep, Branch, ValuBusy, MfmaBusy, IssuePort, CounterFull, Count };
const char* stall_name(Stall s);

// Why a SIMD's issue turn issued no vector instruction (VALU, MFMA, or DS when it takes the
// vector turn): the SIMD-level view a profiler gives as "VALU utilisation" and its idle reasons.
enum class VectorIdle : uint8_t { NoWave, PipeBusy, MemoryWait, Barrier, ScalarOnly, Count };
const char* vector_idle_name(VectorIdle v);

// Busy cycles of the CU's units (VALU/MFMA summed over its SIMDs).
enum class Pipe : uint8_t { Valu, Mfma, Salu, Lds, VmemAddr, L2, Mall, Hbm, Count };
const char* pipe_name(Pipe p);

struct CuRunConfig {
  int workgroup_slots = 1;   // workgroups resident at once (occupancy); the first of each starts staggered
  // Wave-granular release (Hardware::free_wave_slots_at_wave_end): at most `waves_per_simd` waves
  // per SIMD and `max_workgroups` workgroups (LDS, workgroup limit) resident; a wave's SIMD slot is
  // free when the wave ends, and a further workgroup starts wherever wave slots are free. 0: the
  // workgroup's slot is freed only when all of its waves have ended.
  int waves_per_simd = 0;
  int max_workgroups = 0;
  int workgroups = 1;        // workgroups this CU runs in total (recorded ones replayed cyclically)
  int active_cus = 1;        // CUs sharing the L2s, the Infinity Cache and HBM
  double clock_ghz = 0;      // clock the bandwidths (bytes/s) are converted at (0: Hardware::clock_ghz)
  // Level of each line of the recorded waves' global accesses (nullptr: simulated here from the
  // recorded workgroups alone, simulate_memory).
  const MemoryModel* memory = nullptr;
  uint64_t stagger = 0;      // slot i's first workgroup starts at cycle i * stagger (0: all at once)
  int first_simd = 0;        // SIMD of the CU's first workgroup (Hardware::first_simd_of_cu of the CU replayed)
  bool trace = false;        // collect per-wave events of the first `trace_cycles` cycles
  bool clock_reads = false;  // report the issue cycle of every s_memtime / s_memrealtime (CuResult::clock_reads)
  // Jump over cycles in which no wave can act. Issue cycles, clock reads and workgroup end cycles stay
  // exact; busy, stall and issue-turn statistics then miss the skipped cycles (for clock replays).
  bool skip_idle_cycles = false;
  uint64_t trace_cycles = 200000;
};

struct TraceEvent {
  int wave = 0;             // wave slot on the CU (0..)
  uint64_t start = 0, dur = 0;
  std::string name;         // instruction text, "stall: <reason>", "barrier"
  char kind = 'i';          // 'i' issue, 's' stall, 'b' barrier
};

// One in-kernel clock read issued during the replay (CuRunConfig::clock_reads).
struct ClockIssue {
  uint64_t workgroup = 0;  // linear workgroup id (RecordedWave::workgroup)
  int wave_in_wg = 0;
  uint64_t cycle = 0;      // issue cycle, counted from the replay's start
};

struct CuResult {
  uint64_t cycles = 0;                    // until the last workgroup ended
  std::vector<uint64_t> workgroup_end;    // end cycle of each workgroup, in completion order
  std::array<double, size_t(Pipe::Count)> busy{};         // busy cycles per pipe
  std::array<uint64_t, size_t(Stall::Count)> stall{};     // wave-cycles lost per reason
  uint64_t wave_cycles = 0;               // resident wave-cycles
  uint64_t issued = 0;                    // wave-instructions issued
  // Global traffic of the replayed workgroups by the level that served it (memory_hierarchy.hpp):
  // L1 hits, bytes through the L2 (L1 misses and stores), through the Infinity Cache, from/to HBM.
  double l1_bytes = 0, l2_bytes = 0, mall_bytes = 0, hbm_bytes = 0;
  uint64_t lds_passes = 0, lds_instructions = 0;
  uint64_t simd_turns = 0, vector_turns = 0;  // issue turns of all SIMDs, and those that issued a vector instruction
  std::array<uint64_t, size_t(VectorIdle::Count)> vector_idle{};  // the others, by reason
  // SIMD issue turns by the number of waves resident on that SIMD then (index = waves; a wave
  // is resident from its launch until its slot is freed, draining included).
  std::vector<uint64_t> turns_by_resident_waves;
  std::vector<uint64_t> idle_turns_by_resident_waves;  // of those, turns that issued no vector instruction
  std::vector<TraceEvent> trace;
  std::vector<ClockIssue> clock_reads;    // in issue order (so in read order per wave)
};

// Runs the model. `waves` are the recorded workgroups' waves (Recording::waves layout:
// waves_per_workgroup consecutive waves per workgroup). Throws cdnajit::Error for an
// empty recording or an inconsistent configuration.
CuResult run_cu(const sim::Recording& rec, const Hardware& hw, const CuRunConfig& cfg);

}  // namespace cdnajit::model
