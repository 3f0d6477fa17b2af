// The clock-derived slice of a recorded run, and its replay with the timing model's clock values.
//
// When the clock-taint proof (clock_taint.hpp) holds, no clock value can change an instruction
// stream, so the only difference between run 1 (fake clock values) and the run fed with the model's
// values is in the values that derive from a clock, and in the memory they are stored to. Instead of
// a second functional run, run 1 keeps, for each wave-instruction that reads a clock-derived register
// (or is a clock read, or partly writes a register holding clock-derived lanes), the values of the
// registers it reads and writes that do NOT derive from a clock at that point (full rows with the lanes
// to take from them, EXEC, MODE, SCC). replay_clock_slice then re-executes only those instructions,
// per wave in program order, on a register state of their own: clock-derived registers (and lanes)
// from the replay itself, the others from the record. Global stores of the slice write their (fed)
// data to the same addresses as in run 1; LDS stores are left out (the proof showed no load reads
// what they store, and LDS ends with the workgroup).
//
// The memory it leaves is the fed run's: the stores outside the slice store what they stored in run
// 1 (their data does not derive from a clock), and each store of the slice rewrites exactly the bytes
// it wrote in run 1 — provided no other store of the run touches those bytes (then no order between
// stores can matter), which replay_clock_slice checks on the recorded addresses before it writes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace cdnajit::sim {

class Memory;
struct Options;
struct Recording;
struct ClockFeed;

// One wave's slice, filled by taint_step.
struct ClockSlice {
  // The steps in execution order. Each: kSliceHeaderWords words (SliceHeader), then `scalars` pairs
  // (register index, value), then `rows` vector rows: a word row | kind << 16, the lanes to take (two
  // words, low half first), then for kSliceRowValues their values (one word per lane taken, in lane
  // order), for kSliceRowLoaded the step of the wave's global load that wrote them and the dword of
  // each lane's data the row holds (the replay reads them from memory again: the run stores nowhere
  // that load read, which the replay checks).
  std::vector<uint32_t> words;
  uint32_t steps = 0;
  // The first step the replay cannot redo ("" none): the launch then takes the fed functional run.
  std::string unreplayable;
  // What the replay's check reads of the steps, noted as they are kept (so that it need not walk
  // `words`): how many are clock reads, which are global stores (their step indices, in order), and
  // the loads whose rows a step reads again (kSliceRowLoaded; in order of use, a load once per run of
  // steps that use it).
  uint32_t clock_reads = 0;
  std::vector<uint32_t> store_steps;
  std::vector<uint32_t> reread_loads;
  // While recording: per VGPR row, the step (+1; 0 none) of the plain global load that last wrote it
  // and that load's lanes (a later write by anything else clears them).
  std::vector<uint32_t> row_load_step;
  std::vector<uint16_t> row_load_first;  // the load's first row (the row holds dword row - first of each lane's data)
  std::vector<uint64_t> row_load_lanes;
  // Every global store and atomic of the wave (slice or not): [lo, hi) of its lanes' bytes, its step.
  struct Store {
    uint64_t lo, hi;
    uint32_t step;
  };
  std::vector<Store> stores;
};

struct SliceHeader {
  uint32_t step;     // index of the wave's recorded step
  uint32_t op;       // instruction index
  uint32_t exec_lo, exec_hi, mode;
  uint32_t flags;    // kSliceScc*, kSliceDirectStore
  uint32_t data_row; // kSliceDirectStore: the first row of the stored data
  uint32_t scalars, rows;
};
inline constexpr uint32_t kSliceHeaderWords = sizeof(SliceHeader) / 4;
// SCC does not derive from a clock: its value is kSliceSccValue. A global store done by the replay
// itself: its recorded addresses, the lanes' bytes from data_row on (no address registers kept).
inline constexpr uint32_t kSliceSccKnown = 1, kSliceSccValue = 2, kSliceDirectStore = 4;
inline constexpr uint32_t kSliceRowValues = 0, kSliceRowLoaded = 1;

struct SliceReplay {
  std::string not_replayed;  // why the slice was not replayed ("" when it was; memory is then untouched)
  uint64_t steps = 0;        // wave-instructions re-executed
};

// After a run recorded with Recording::track_clock_taint whose verdict is "" (clock_taint_verdict),
// and the model's cycles in `feed` (one per clock read of every wave): re-executes the slice of every
// wave on `memory` (the run's memory as it left it), with `opt` (the run's options). Checks first that
// every wave's slice is complete, that every clock read has a fed value, and that no byte a slice store
// writes is written by any other store of the run; when one fails, nothing is written and
// `not_replayed` says which. Errors of the re-executed instructions throw as in a run.
SliceReplay replay_clock_slice(const Recording& r, Memory& memory, const Options& opt, ClockFeed& feed);

}  // namespace cdnajit::sim
