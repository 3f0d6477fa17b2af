// Register "units" (one per 32-bit register, plus an LDS pseudo-register) and which
// units an instruction reads and writes. Shared by the wait-count and hazard passes.
#pragma once
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "jit/isa/machine_inst.hpp"
#include "jit/isa/target.hpp"
#include "jit/passes/inline_list.hpp"
#include "jit/passes/passes.hpp"

namespace cdnajit::passes {

// Unit numbering: SGPRs keep their hardware numbers (vcc = s106:107, m0 = s124,
// exec = s126:127), so `s[106:107]` and `vcc` overlap as they do on the chip.
using isa::target::kFlatScratchLo, isa::target::kXnackMaskLo, isa::target::kVccLo, isa::target::kVccHi;
using isa::target::kM0, isa::target::kExecLo, isa::target::kExecHi;
constexpr int kScc = isa::target::kScalarOperandRegs;  // the unit after the scalar operand registers
constexpr int kVgpr0 = 256, kAgpr0 = 512;
constexpr int kLds = 768;  // all of LDS: written by LDS DMA, read/written by DS instructions
// Memory pseudo-registers for the workgroup release at s_barrier (waitcnt.cpp): this wave's
// LDS stores (DS stores and atomics, FLAT stores) on lgkmcnt, and its global stores (VMEM
// stores and atomics outside scratch, FLAT stores) on vmcnt. Only s_barrier reads them.
constexpr int kLdsStores = 769;
constexpr int kGlobalStores = 770;
constexpr int kNumUnits = 771;

struct UnitRange {
  int first = 0;
  int count = 0;
  bool overlaps(const UnitRange& o) const { return first < o.first + o.count && o.first < first + count; }
  bool contains(int u) const { return u >= first && u < first + count; }
  bool empty() const { return count == 0; }
};

// A set of units as bits: which units some instructions touch, so that a range none of
// them touches is passed over without looking at those instructions.
struct UnitSet {
  uint64_t words[(kNumUnits + 63) / 64] = {};
  void clear() {
    for (uint64_t& w : words) w = 0;
  }
  void add(int u) { words[u / 64] |= uint64_t(1) << (u % 64); }
  void add(const UnitRange& r) {
    for (int u = r.first; u < r.first + r.count; ++u) add(u);
  }
  bool overlaps(const UnitRange& r) const {
    for (int u = r.first, end = r.first + r.count; u < end;) {
      const int bit = u % 64, k = end - u < 64 - bit ? end - u : 64 - bit;
      const uint64_t mask = (k == 64 ? ~uint64_t(0) : ((uint64_t(1) << k) - 1)) << bit;
      if (words[u / 64] & mask) return true;
      u += k;
    }
    return false;
  }
  bool intersects(const UnitSet& o) const {
    uint64_t any = 0;
    for (size_t w = 0; w < std::size(words); ++w) any |= words[w] & o.words[w];
    return any != 0;
  }
};

constexpr UnitRange kVccUnits{kVccLo, 2};
constexpr UnitRange kExecUnits{kExecLo, 2};
constexpr UnitRange kM0Unit{kM0, 1};
constexpr UnitRange kLdsUnit{kLds, 1};
constexpr UnitRange kLdsStoresUnit{kLdsStores, 1};
constexpr UnitRange kGlobalStoresUnit{kGlobalStores, 1};
// The units s_barrier reads under `release`: LDS (DMA), then LDS stores, then global stores.
constexpr UnitRange barrier_release_units(BarrierRelease release) {
  return {kLds, release == BarrierRelease::None ? 1 : release == BarrierRelease::Lds ? 2 : 3};
}
// LDS and the store pseudo-registers: memory, not registers.
constexpr bool is_memory_unit(int u) { return u >= kLds; }

// nullopt for operands that are not registers (immediates, labels, `off`, src_* constants).
std::optional<UnitRange> units_of(const isa::Operand& o);
bool is_sgpr_unit(int u);
bool is_vgpr_unit(int u);   // VGPR or AGPR
std::string unit_name(int u);            // "v5", "a3", "s7", "vcc_lo", "exec_hi", "m0", "LDS"
std::string range_name(UnitRange r);     // "v[4:7]", "s2", "vcc", "exec"
std::string units_text(const std::vector<int>& units);  // sorted, ranges collapsed: "v[4:5], s2"

struct RegOperand {
  uint16_t op_index;  // index into MachineInst::operands (16 bits keep Access small, see inline_list.hpp)
  UnitRange units;
  bool is_def;
  bool also_read = false;  // a def the instruction also reads (v_fmac dst, v_writelane dst)
  bool reads() const { return !is_def || also_read; }
};

struct Access {
  InlineList<RegOperand, 6> explicit_regs;  // register operands in asm order (6: a scaled MFMA's)
  InlineList<UnitRange, 1> implicit_defs;   // exec for v_cmpx, LDS for LDS DMA, ...
  InlineList<UnitRange, 2> implicit_uses;   // exec for vector instructions, vcc for v_div_fmas, ...
  bool unknown = false;                   // raw text the passes cannot analyse

  std::vector<UnitRange> defs() const;
  std::vector<UnitRange> uses() const;
  // The ranges of defs() / uses(), in the same order, without building a vector.
  template <class F> void for_each_def(F&& f) const {
    for (const UnitRange& r : implicit_defs) f(r);
    for (const auto& r : explicit_regs)
      if (r.is_def) f(r.units);
  }
  template <class F> void for_each_use(F&& f) const {
    for (const UnitRange& r : implicit_uses) f(r);
    for (const auto& r : explicit_regs)
      if (r.reads()) f(r.units);
  }
  bool writes(UnitRange r) const;
  bool reads(UnitRange r) const;
  bool explicitly_reads(UnitRange r) const;
};

Access access_of(const isa::MachineInst& mi);

}  // namespace cdnajit::passes
