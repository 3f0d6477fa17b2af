// Register allocation for cdnajit: liveness over the control-flow graph,
// linear scan with tuple width / alignment / pinned-register constraints,
// and an independent allocation checker.
//
// Input: the builder lowers its virtual-register program to a `Function`
// (blocks of instructions that only say which virtual registers they read and
// write). Output: one physical start index per virtual register.
//
// There is no spilling: running out of registers is a cdnajit::Error that
// names the class, the limit, the peak pressure, where it happened and every
// value live there with its builder call site.
//
// Interference rule (conservative, see liveness.cpp): each virtual register
// lives on ONE closed interval [start, end] of linear instruction positions;
// two registers interfere when their intervals share a position. Hence the
// destination of an instruction never shares a physical register with any of
// its sources (the source interval ends at that instruction at the earliest,
// the destination interval starts there). This is always safe, including for
// multi-dword tuples that overlap partially and for loads whose data returns
// after the address register was read.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "jit/isa/error.hpp"
#include "jit/isa/isa.hpp"
#include "jit/isa/occupancy.hpp"
#include "jit/isa/target.hpp"

namespace cdnajit::regalloc {

enum class RegClass : uint8_t { S, V, A };
constexpr int kNumClasses = 3;

struct VirtualReg {
  RegClass cls = RegClass::V;
  uint16_t dwords = 1;        // tuple width, 1..32
  uint16_t align = 1;         // physical index must be a multiple of align (power of two)
  int pinned = -1;            // fixed physical index (ABI values: kernarg ptr s[0:1], workgroup ids, v0)
  bool live_in = false;       // defined at kernel entry (ABI values)
  std::string name;           // for messages
  std::string origin;         // builder call site "file.cpp:42"
};

struct Instr {
  std::vector<uint32_t> uses;          // vreg ids read
  std::vector<uint32_t> defs;          // vreg ids fully written (kills the old value)
  std::vector<uint32_t> partial_defs;  // vreg ids of which only a slice is written (old value stays live: use+def)
  std::string origin;                  // call site, for messages
};

// Block 0 is the entry; blocks are in layout order.
struct Block {
  std::vector<Instr> instrs;
  std::vector<uint32_t> succs;
};

struct Function {
  std::vector<VirtualReg> vregs;
  std::vector<Block> blocks;
};

// Allocatable register counts per class.
// The SGPR default leaves the 6 SGPRs every wave reserves for VCC, FLAT_SCRATCH
// and XNACK_MASK (isa::target::kReservedSgprs), so whatever the allocator accepts
// also fits the kernel descriptor.
struct Limits {
  int sgprs = isa::target::kAllocatableSgprs;
  int vgprs = isa::target::kVgprs;
  int agprs = isa::target::kAgprs;
};

struct Allocation {
  std::vector<int> phys;   // per vreg: first physical register index in its class (-1 = never used/dead)
  int sgprs_used = 0, vgprs_used = 0, agprs_used = 0;   // highest used index + 1 per class
  // Max simultaneously live dwords, counted over the live intervals (what the
  // linear scan has to fit; a lower bound for *_used).
  int peak_sgpr_pressure = 0, peak_vgpr_pressure = 0, peak_agpr_pressure = 0;
};

// Throws cdnajit::Error on malformed input (bad vreg/block ids, widths,
// alignments, pins) and on register exhaustion.
Allocation allocate(const Function& f, const Limits& limits = {});

// Independent check of an allocation against the program (its own liveness
// dataflow, evaluated per instruction, not the allocator's intervals): no two
// values live at the same point share a physical dword, a def never shares a
// dword with another value read or live at its instruction, live-in values do
// not overlap at entry, pins and alignment hold, every referenced vreg has a
// register inside the architectural range (SGPR 102, VGPR 256, AGPR 256), and
// the reported *_used counts are exactly highest index + 1.
// Throws cdnajit::Error describing the first violation.
void verify(const Function& f, const Allocation& a);

// Closed interval of linear instruction positions; start == -1: never live.
struct Interval {
  int start = -1;
  int end = -1;
  bool empty() const { return start < 0; }
  bool contains(int p) const { return start <= p && p <= end; }
  bool overlaps(const Interval& o) const { return !empty() && !o.empty() && start <= o.end && o.start <= end; }
};

// Liveness of a Function. A vreg is live at a point when some path from it
// reads the vreg before fully rewriting it (partial defs read), AND some path
// from the entry to that point writes it (or it is live_in): before its first
// possible write a register holds nothing worth keeping, so a tuple assembled
// by partial defs occupies registers only from its first write on.
struct Liveness {
  size_t num_vregs = 0;
  size_t words_per_set = 0;                     // uint64 words per bitset
  std::vector<std::vector<uint64_t>> live_in;   // per block: bit v set = vreg v live on entry to the block
  std::vector<std::vector<uint64_t>> live_out;  // per block: live on exit
  std::vector<int> block_start;                 // per block: position of its first instruction (blocks are contiguous)
  int num_positions = 0;                        // total instructions
  std::vector<Interval> intervals;              // per vreg
  // Reads (Instr::uses) of a vreg that no path from the entry has written:
  // the program reads garbage there (a builder bug worth reporting).
  struct UndefinedRead { uint32_t vreg; int position; };
  std::vector<UndefinedRead> undefined_reads;

  bool is_live_in(size_t block, uint32_t vreg) const { return (live_in[block][vreg / 64] >> (vreg % 64)) & 1; }
  bool is_live_out(size_t block, uint32_t vreg) const { return (live_out[block][vreg / 64] >> (vreg % 64)) & 1; }
};

// Throws cdnajit::Error on malformed input (ids out of range, bad widths/alignment).
Liveness compute_liveness(const Function& f);

// Reads of a vreg that some path from the entry reaches without writing it
// (never written, or written on some paths only). Empty for a correct program.
struct MaybeUndefinedRead {
  uint32_t vreg;
  std::string read_at;        // origin of the reading instruction
  std::string first_written;  // origin of the first write in layout order ("" = never written)
};
// Scalar registers (class S) are checked on the whole CFG; vector registers (V, A) without
// `vector_skipped_edges` (block, successor): the builder passes the taken edges of
// exec-zero branches, since a region skipped because no lane is active writes no lane
// either. One dataflow serves both. The scalar registers' reads come first in the result,
// then the vector registers', each in layout order.
std::vector<MaybeUndefinedRead> find_maybe_undefined_reads(
    const Function& f, std::span<const std::pair<uint32_t, uint32_t>> vector_skipped_edges = {});

// Occupancy arithmetic is a fact of the target (jit/isa/occupancy.hpp); these names keep the
// callers that still spell it regalloc:: compiling.
using isa::target::Occupancy;
using isa::target::occupancy;

// "SGPR" / "VGPR" / "AGPR", and the architectural register count of a class.
const char* class_name(RegClass c);
int architectural_limit(RegClass c);

}  // namespace cdnajit::regalloc
