// The read-ahead main loop of the MFMA GEMM generators (gemm.cpp, gemm_mx.cpp): the order of a K
// tile's fragment reads, MFMAs, waits, barriers and loads, independent of what a fragment is and
// how it is loaded (the generator's hooks emit those).
//
// A wave's fragments of one K tile fall in four groups: the first and second half of its A blocks
// (A0, A1) and of its B blocks (B0, B1), and its MFMAs run by quadrant, A0xB0, A0xB1, A1xB0, A1xB1
// (each quadrant k-step by k-step, so every accumulator still sees ascending k). A group's
// registers are free once its last quadrant has issued, so the next reads go there while the
// MFMAs run, spread between them: during tile t's first two quadrants B1 and A1 of tile t, during
// the last two A0 and B0 of tile t + 1 (in that order: A0 is free after A0xB1, B0 only after
// A1xB0). The fragment registers stay one tile's worth.
//
// LDS DMA path (two stages, each split in a "half 0" holding the A0 and B0 rows and a "half 1"
// holding A1 and B1; the generator lays the rows out so): per tile t, all waves in step:
//   quadrants A0xB0, A0xB1 (reading B1, A1 of tile t);
//   middle: lgkmcnt(0) (this wave's reads of tile t are done), vmcnt (its share of half 0 of tile
//     t + 1 has landed), barrier, then half 1 of tile t + 2 into tile t's stage;
//   quadrants A1xB0, A1xB1 (reading A0, B0 of tile t + 1);
//   end: lgkmcnt(0), vmcnt (half 1 of tile t + 1 has landed), barrier, then half 0 of tile
//     t + 3 into tile t + 1's stage.
// So each half of a tile is in flight for 1.5 tiles of MFMAs, and the loads of the next halves are
// issued before the current ones are waited for (HipKittens' 8-wave kernels keep their loads in
// flight the same way, with the stage split in four sub-tiles). The cost: two barriers per tile.
//
// Register-staged path (one LDS stage, each K tile read and multiplied in `sub_tiles` schedule
// tiles): between sub-tiles of one LDS tile the next sub-tile's A0 and B0 are read during A1xB0 and
// A1xB1, as above, with no barrier. In the last sub-tile of LDS tile t its B1 and A1 are read one
// per MFMA from the start of A0xB0, so at its end every wave has read all of tile t (lgkmcnt(0))
// and holds tile t + 1 in its staging registers (vmcnt(0)): barrier, the refill hook (tile t + 1
// into LDS, tile t + 2's global loads, chunk by chunk, one chunk's writes and next load per MFMA
// from the start of A0xB1), quadrants A0xB1 and A1xB0 (operands already in registers) while the
// writes complete, lgkmcnt(0) and a barrier (tile t + 1 is in LDS for every wave), and
// A1xB1 with the reads of A0 and B0 of tile t + 1 between its MFMAs.
//
// Optional hooks (ReadAheadHooks::load_pieces, quadrant_stores; gemm_mx_lds.cpp uses them, gemm
// does not and its instructions are unchanged): a half tile's loads spread between the MFMAs of the
// two quadrants after the barrier instead of issued at it (the end-of-tile loads then go with the
// next tile's first quadrants, so the loop body leaves the same loads pending at its back edge as
// at its entry), and the output stores of each quadrant of the last K tile between the next
// quadrant's MFMAs.
//
// Every LDS-read wait is placed here: the schedule counts the DS reads it issues (lgkmcnt holds at
// most 15 on gfx9) and before each MFMA waits for exactly the reads of its two fragments.
#pragma once
#include <functional>
#include <map>
#include <vector>

#include "jit/kernel.hpp"

namespace cdnajit::codegen {

struct ReadAheadShape {
  int tiles = 1;           // K tiles
  int k_steps = 1;         // MFMA k-steps per K tile
  // MFMA blocks per wave (the schedule works in quadrants: even on the DMA path; on the
  // register-staged path an odd count b >= 3 splits into halves of b / 2 and b - b / 2 blocks)
  int blocks_m = 2, blocks_n = 2;
  int loads_per_half = 0;  // DMA path: VMEM instructions per wave for one half of a tile
  // Register-staged path: schedule tiles per LDS K tile (`tiles` counts schedule tiles, a multiple
  // of it). Between the sub-tiles of one LDS tile the next sub-tile's A0 and B0 are read during
  // quadrants A1xB0 (A0) and A1xB1 (B0) with no barrier; the refill runs after the last.
  int sub_tiles = 1;
};

struct ReadAheadHooks {
  using Emit = std::function<void()>;
  // The DS reads of one fragment: operand A (`is_a`) or B, k-step `ks`, block `blk` of K tile `t`,
  // one emitter per DS instruction (the schedule counts them). The fragment's MFMAs wait for all.
  std::function<std::vector<Emit>(bool is_a, int ks, int blk, int t)> fragment_reads;
  // The MFMA of accumulator block (bi, bj) at k-step ks, once its fragments have been read.
  std::function<void(int ks, int bi, int bj)> mfma;
  // DMA path: the loads of half `half` of the next K tile of that half into LDS stage `stage`.
  std::function<void(int stage, int half)> load;
  // DMA path, optional: the same loads as pieces, one emitter each (the prologue still calls
  // `load`). The schedule spreads them between the MFMAs of the two quadrants after the barrier that frees
  // their stage (behind that span's fragment reads), instead of issuing them all at the barrier,
  // where a wave with one wave per SIMD would leave the MFMA pipe idle while it issues them.
  std::function<std::vector<Emit>(int stage, int half)> load_pieces;
  // Optional: the stores of quadrant (qa, qb)'s accumulators (blocks qa * blocks_m / 2 .., qb *
  // blocks_n / 2 ..), as pieces. When set, the last K tile hands each quadrant's stores to the MFMAs
  // of the next quadrant (behind its reads) and emits the last quadrant's after it, so the output
  // writes start while the MFMAs still run; the generator then stores nothing after the schedule.
  std::function<std::vector<Emit>(int qa, int qb)> quadrant_stores;
  // Register-staged path: tile 0 into LDS and tile 1's loads in flight (`prologue`); tile t + 1
  // from the staging registers into LDS and, when `load_next`, tile t + 2's loads (`refill`: its
  // instructions in pieces, in order, which the schedule spreads between MFMAs).
  Emit staged_prologue;
  std::function<std::vector<Emit>(bool load_next)> staged_refill;
  // Persistent DMA path (emit_dma_persistent; every hook below is required there):
  // the loads of half `half` into `stage` as pieces; `reset`: the first K tile of an output tile, so
  // the half's global pointers are first set to the bases of the output tile loaded next. The loads
  // of K tiles past the workgroup's last output tile must issue too (the waits count them).
  std::function<std::vector<Emit>(int stage, int half, bool reset)> output_load_pieces;
  // VMEM instructions the generator's pieces have emitted so far: loads and stores both count on
  // vmcnt, so a wait for a half tile counts the stores issued after it too.
  std::function<int()> vmem_issued;
  // Pieces spread over the first quadrants of each output tile's K tile 1 (the previous output
  // tile's stores are all issued by then): the output tile loaded last becomes the one stored, and
  // the bases of the next one (or the same again past the workgroup's last) are computed for the
  // next reset.
  std::function<std::vector<Emit>()> next_output;
  // The stores of quadrant (qa, qb)'s accumulators as pieces; `more`: another output tile follows
  // (the generator may leave the block it keeps for zeros to before_output); `previous`: the
  // previous output tile's, in K tile 0 (the first output tile has none: they write nothing there).
  std::function<std::vector<Emit>(int qa, int qb, bool more, bool previous)> output_stores;
  // In the prologue: counts (in vmem_issued) as many VMEM instructions as output_stores(qa, qb,
  // true, false) issues, without issuing any, and returns that number: the marks the first output
  // tile's waits are computed from are then the later ones' (the schedule waits for every VMEM
  // operation before the loop, so those waits hold at entry).
  std::function<int(int qa, int qb)> skipped_stores;
  // At the start of each output tile's K tile 0, before its first MFMA: the generator stores the
  // previous output tile's values of one accumulator block (as a `previous` store) and zeroes it.
  std::function<void()> before_output;
  // The MFMA of k-step 0 of block (bi, bj) in an output tile's K tile 0: onto zeros (C from the
  // zeroed block; that block's own MFMA is the last of the k-step, so the block is still zero for
  // the others), so no other accumulator needs zeroing.
  std::function<void(int bi, int bj)> mfma_fresh;
  // After the prologue's loads, before their wait: the setup the loads do not need.
  Emit after_prologue_loads;
  // In the prologue, spread between the first K tile's LDS reads (which wait for the LDS): setup
  // the first output tile needs only from its first MFMA on, as pieces.
  std::function<std::vector<Emit>()> prologue_fill;
};

class ReadAheadSchedule {
 public:
  ReadAheadSchedule(Kernel& k, const ReadAheadShape& s, ReadAheadHooks h);
  void emit_dma();     // the LDS DMA path (two stages)
  void emit_staged();  // the register-staged path (one stage)
  // The LDS DMA path for a persistent workgroup: one output tile, then `outputs_left` (an SGPR, >= 0
  // at run time) more, the K tiles of all of them one pipeline (the next output tile's first K tiles
  // load during this one's last; its stores run between the MFMAs of its last K tile and the next
  // output tile's first). Needs an even number of K tiles, at least 4 (a tile's LDS stage is then
  // the same in every output tile).
  void emit_dma_persistent(Reg outputs_left);

 private:
  using Read = ReadAheadHooks::Emit;
  // The first block of half h (0, 1; 2 = one past the last) of A or B: an odd count puts the
  // extra block in half 1 (register-staged path only; the DMA paths' halves are equal, plan check).
  int first(bool is_a, int h) const { return h == 0 ? 0 : h == 1 ? (is_a ? hm_ : hn_) : is_a ? s_.blocks_m : s_.blocks_n; }
  void group(bool is_a, int h, int t, std::vector<Read>& out);
  // `dense`: one read before each MFMA from the first on (else spread evenly over the quadrant)
  void quadrant(int qa, int qb, const std::vector<Read>& rd, bool dense = false);
  void two(int qa, std::vector<Read> rd, size_t first_min, std::vector<Read> loads = {});
  std::vector<Read> loads(int stage, int half);
  void defer_load(int stage, int half);
  void sync(int behind);
  void first_reads();
  void tile(int t, bool dma);
  void staged_tile(int t, const std::vector<Read>& front, size_t b1);
  void last_tile(std::vector<Read> front, size_t b1);
  // Persistent path: K tile t of the output tile whose K tile 0 is virtual tile vbase_.
  void output_tile(int t);
  void output_tiles();                               // K tiles 0 .. T - 1
  std::vector<Read> marked_loads(int v, int half);  // the pieces of virtual tile v's half, marked
  void wait_for(int v, int half);                    // lgkmcnt(0), vmcnt for that half, barrier
  std::vector<int> marks_since(int v) const;

  Kernel& k_;
  ReadAheadShape s_;
  ReadAheadHooks h_;
  int hm_, hn_;
  // `issued` DS reads so far, the first `waited` known complete, and per fragment [ks][block] the
  // count at which its reads complete.
  int issued_ = 0, waited_ = 0;
  std::vector<std::vector<int>> ready_a_, ready_b_;
  // load_pieces: the loads issued at the last barrier, spread over the next tile's first quadrants,
  // and which (stage, half) they fill (the loop checks that its entry and back edge agree).
  std::vector<Read> pending_;
  int pending_stage_ = -1, pending_half_ = -1;
  // Persistent path: per virtual tile * 2 + half, the VMEM count after its loads; vbase_ is the
  // current output tile's K tile 0 as a virtual tile (emission view: the loop body is emitted once).
  std::map<int, int> mark_;
  int vbase_ = 0;
  bool fresh_ = false;  // an output tile's K tile 0: k-step 0's MFMAs through mfma_fresh
};

// Builds a kernel whose read-ahead DMA schedule placed every wait itself. The schedule reads one
// part of LDS while this wave's LDS DMA into another part is in flight; the wait-count pass treats
// all of LDS as one location (jit/passes/regs.hpp, kLds), so in Auto mode it would put vmcnt(0)
// before each such read and serialise the loads with the reads (clang's SIInsertWaitcnts tells
// such accesses apart by alias scope). So the pass runs in verify mode, and any finding other than
// "LDS accessed or released while an LDS DMA is in flight" (a missing register wait) is an Error
// naming `what`. Other wait-count modes than Auto build as asked.
BuildResult build_with_scheduled_waits(Kernel& k, const BuildOptions& opts, const std::string& what);

}  // namespace cdnajit::codegen
