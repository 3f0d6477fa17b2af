// Clock-derived values of a recorded wave (clock_taint.hpp).
#include "runtime/sim/clock_taint.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "jit/isa/implicit_regs.hpp"
#include "jit/isa/opcode.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

namespace {

using Range = std::pair<uint64_t, uint64_t>;

bool memory_unit(isa::Unit u) { return u == isa::Unit::DS || u == isa::Unit::VMEM || u == isa::Unit::SMEM; }

// Bit k: op.s[k] is an address (VAddr, SAddr, SRsrc, SOffset, SBase operand, or a DS "addr"), from
// the table row's sources in order. A row whose sources do not line up with the decoded ones (or no
// row) has every source counted as an address.
uint32_t address_sources(const Op& op) {
  if (!op.info) return 0x1f;
  uint32_t mask = 0;
  int k = 0;
  for (const isa::OperandSpec& o : op.info->operands) {
    if (o.is_def) continue;
    using K = isa::OpKind;
    if (o.kind == K::VAddr || o.kind == K::SAddrOrOff || o.kind == K::SRsrc || o.kind == K::SOffset || o.kind == K::SBase ||
        (op.unit == isa::Unit::DS && o.name == "addr"))
      mask |= 1u << k;
    ++k;
  }
  return k == op.ns ? mask : 0x1f;
}

// The index in op.s of the SBase operand of an SMEM instruction (-1: none).
int sbase_source(const Op& op) {
  if (!op.info) return -1;
  int k = 0;
  for (const isa::OperandSpec& o : op.info->operands) {
    if (o.is_def) continue;
    if (o.kind == isa::OpKind::SBase) return k < op.ns ? k : -1;
    ++k;
  }
  return -1;
}

// [lowest address, highest address + bytes) of the active lanes; empty (lo >= hi) when none is.
// Written without a branch per lane so that it vectorizes (the verdict takes the hull of every load).
Range hull(const uint64_t* a, int n, uint64_t bytes) {
  uint64_t lo = ~0ull, hi = 0;
  for (int i = 0; i < n; ++i) {
    const bool on = a[i] != kNoAddress;
    lo = std::min<uint64_t>(lo, on ? a[i] : ~0ull);
    hi = std::max<uint64_t>(hi, on ? a[i] : 0);
  }
  return lo == ~0ull ? Range{1, 0} : Range{lo, hi + std::max<uint64_t>(bytes, 1)};
}


std::string where(const Op& op, const std::string& why) { return "pc " + hex(op.pc) + " '" + op.text + "': " + why; }

// What taint_step needs of an instruction: a function of its decoded form, so worked out once per
// instruction, launch and host thread (the cache is dropped when the thread records another launch,
// Launch::rec_serial). Registers as masks and lists, so that a step tests the wave's state with a few
// word operations.
struct OpFacts {
  bool valid = false;
  // LLVM leaves out the VCC of some VOP2 carry forms (decode.cpp, dest_count): a row operand the
  // decoded instruction lacks is taken to be VCC, read (a missing source) or written (a missing def).
  bool unnamed_vcc_read = false, unnamed_vcc_write = false;
  isa::ImplicitRegs imp;
  uint32_t addr_mask = 0;  // address_sources (0 outside DS/VMEM/SMEM)
  uint8_t also_read = 0;   // bit j: op.d[j] is a def the instruction also reads
  int sbase = -1;          // sbase_source
  bool reads_memory = false, cond_branch = false;
  bool clock = false;      // s_memtime / s_memrealtime (clock_kind)
  // Scalar registers (and SCC) read as an address / as data: named sources by address_sources,
  // defs also read, VCCZ/EXECZ as VCC/EXEC, implicit SCC/VCC reads as data.
  std::bitset<kSFileSize> addr_s, data_s;
  bool addr_scc = false, data_scc = false;
  struct VRange {
    uint16_t first = 0, end = 0;  // rows [first, end)
    bool addr = false;            // read as an address (else data)
    bool whole = false;           // defs: a whole-lane write of the EXEC lanes (else it can only add)
  };
  VRange vsrc[7];  // vector sources and defs also read
  uint8_t nvsrc = 0;
  std::bitset<kSFileSize> def_s;  // scalar registers written
  bool def_exec = false, def_m0 = false;  // a scalar def names EXEC / M0
  VRange vdef[2];
  uint8_t nvdef = 0;
  // taint_step's early out: the instruction reads or writes no register in touch_s (nor SCC with
  // touch_scc, nor a row of vsrc / vdef) holding a clock-derived value, and is no M0-relative scalar
  // move (which the check stops at while any such value is live): then nothing it does changes the
  // taint (most instructions of a wave that reads a clock compute nothing from it).
  std::bitset<kSFileSize> touch_s;
  bool touch_scc = false, m0_relative = false;
  // The clock-derived slice (clock_slice.hpp). What a step keeps: the scalar registers it reads (EXEC
  // apart, which every step keeps), the vector rows it reads, each once, and whether it reads only
  // its EXEC lanes of them (no cross-lane read); the rows of its partial defs.
  std::vector<uint16_t> slice_s;
  struct SliceRow {
    uint16_t row;
    bool lanewise;
  };
  std::vector<SliceRow> slice_src;
  std::vector<uint16_t> slice_partial_defs;
  // A global store of whole dwords or of the low bytes (or D16_HI half) of one data register: the
  // replay stores it at its recorded addresses itself, so it keeps only the data rows.
  bool direct_store = false;
  uint16_t data_row = 0;
  // A plain global load of whole dwords into one register range (its rows can be read again).
  bool plain_load = false;
};
struct FactsCache {
  uint64_t launch = 0;  // Launch::rec_serial of the entries
  std::vector<OpFacts> ops;
};
thread_local FactsCache facts_cache;

void work_out_facts(OpFacts& f, const Op& op);

// The cache's entry, worked out at the instruction's first step (a lookup at every other).
inline const OpFacts& facts_of(const Op& op, const Launch& L) {
  FactsCache& c = facts_cache;
  if (c.launch != L.rec_serial) [[unlikely]] {
    c.ops.assign(L.dk->ops.size(), OpFacts{});
    c.launch = L.rec_serial;
  }
  OpFacts& f = c.ops[op.index];
  if (!f.valid) [[unlikely]] work_out_facts(f, op);
  return f;
}

[[gnu::noinline]] void work_out_facts(OpFacts& f, const Op& op) {
  f.valid = true;
  const isa::InstrInfo* info = op.info;
  if (info) {
    f.imp = isa::implicit_regs(*info);
    int defs = 0, uses = 0;
    for (const isa::OperandSpec& o : info->operands) {
      if (!o.is_def) {
        ++uses;
        continue;
      }
      if (o.also_read && defs < 8) f.also_read |= uint8_t(1u << defs);
      ++defs;
    }
    f.cond_branch = isa::is(*info, isa::kClassCondBranch);
    const bool vector = op.unit == isa::Unit::VALU;
    f.unnamed_vcc_read = vector && op.ns < uses;
    f.unnamed_vcc_write = vector && op.nd < defs;
  }
  f.clock = clock_kind(info) != ClockKind::None;
  f.reads_memory = info && memory_unit(op.unit) && (info->is_load || info->is_atomic);
  f.addr_mask = memory_unit(op.unit) ? address_sources(op) : 0;
  f.sbase = op.unit == isa::Unit::SMEM ? sbase_source(op) : -1;
  // The register masks and lists (what taint_step's sources and results loops read).
  auto read = [&](const Src& x, bool addr) {
    std::bitset<kSFileSize>& m = addr ? f.addr_s : f.data_s;
    switch (x.k) {
      case SrcKind::S:
        for (int r = x.idx; r < x.idx + x.n && r < kSFileSize; ++r) m[r] = true;
        break;
      case SrcKind::Scc: (addr ? f.addr_scc : f.data_scc) = true; break;
      case SrcKind::Vccz: m[kVccLo] = m[kVccHi] = true; break;
      case SrcKind::Execz: m[kExecLo] = m[kExecHi] = true; break;
      case SrcKind::V: {
        // A DPP instruction's src0 names the row its permuted copy goes to; it reads dpp_src.
        const uint16_t first = op.inner && x.idx == kDppScratch ? op.dpp_src : x.idx;
        f.vsrc[f.nvsrc++] = {first, uint16_t(std::min<size_t>(size_t(first) + x.n, kVFile)), addr, false};
        break;
      }
      default: break;
    }
  };
  auto also_read = [&](int j) { return j < 8 && ((f.also_read >> j) & 1); };
  for (int k = 0; k < op.ns; ++k) read(op.s[k], (f.addr_mask >> k) & 1);
  for (int j = 0; j < op.nd; ++j)
    if (also_read(j)) read(op.d[j], false);
  if (f.imp.reads_scc) f.data_scc = true;
  if (f.imp.reads_vcc || f.unnamed_vcc_read) f.data_s[kVccLo] = f.data_s[kVccHi] = true;
  for (int j = 0; j < op.nd; ++j) {
    const Src& d = op.d[j];
    if (d.k == SrcKind::S) {
      for (int r = d.idx; r < d.idx + d.n; ++r) {
        f.def_exec |= r == kExecLo || r == kExecHi;
        f.def_m0 |= r == kM0;
        if (r < kSFileSize) f.def_s[r] = true;
      }
    } else if (d.k == SrcKind::V) {
      // Whole-lane writes of the EXEC lanes replace the state; partial writes (SDWA, op_sel halves,
      // D16 loads, read-modify-write defs, MFMA and the other units) can only add to it.
      const bool whole = f.reads_memory ? !(info->d16 || info->d16_hi)
                                        : op.unit == isa::Unit::VALU && !op.sdwa && op.op_sel == 0 && !also_read(j);
      f.vdef[f.nvdef++] = {d.idx, uint16_t(size_t(d.idx) + d.n), false, whole};
    }
  }
  f.touch_s = f.addr_s | f.data_s | f.def_s;
  if (f.unnamed_vcc_write) f.touch_s[kVccLo] = f.touch_s[kVccHi] = true;
  f.touch_scc = f.addr_scc || f.data_scc || f.imp.writes_scc;
  f.m0_relative = f.imp.reads_m0 && op.unit == isa::Unit::SALU;
  // The slice's facts.
  const bool global = info && op.unit == isa::Unit::VMEM && info->family == isa::Family::GLOBAL && !info->is_atomic;
  const int data_sources = std::count_if(f.vsrc, f.vsrc + f.nvsrc, [](const OpFacts::VRange& v) { return !v.addr; });
  if (global && info->is_store && data_sources == 1 && info->access_bytes &&
      (info->access_bytes <= 2 || (info->access_bytes % 4 == 0 && !info->d16 && !info->d16_hi))) {
    f.direct_store = true;
    f.data_row = std::find_if(f.vsrc, f.vsrc + f.nvsrc, [](const OpFacts::VRange& v) { return !v.addr; })->first;
  }
  f.plain_load = global && info->is_load && !memory_is_lds_dma(op) && info->access_bytes && info->access_bytes % 4 == 0 &&
                 !info->d16 && !info->d16_hi && !info->sign_extends && f.nvdef == 1 &&
                 (f.vdef[0].end - f.vdef[0].first) * 4 == info->access_bytes;
  if (!f.direct_store) {
    std::bitset<kSFileSize> s_src = f.addr_s | f.data_s;
    if (f.imp.reads_m0) s_src[kM0] = true;
    s_src[kExecLo] = s_src[kExecHi] = false;
    for (size_t r = s_src._Find_first(); r < s_src.size(); r = s_src._Find_next(r)) f.slice_s.push_back(uint16_t(r));
  }
  // Lane-wise: a VALU instruction other than DPP and the ones that read other lanes than their own.
  const bool cross_lane = op.inner || info == &isa::info(isa::Opcode::v_readlane_b32) ||
                          info == &isa::info(isa::Opcode::v_permlane16_swap_b32) || info == &isa::info(isa::Opcode::v_permlane32_swap_b32);
  const bool lanewise = (op.unit == isa::Unit::VALU && !cross_lane) || f.direct_store;
  for (int i = 0; i < f.nvsrc; ++i) {
    const OpFacts::VRange& v = f.vsrc[i];
    if (f.direct_store && v.addr) continue;
    for (uint16_t r = v.first; r < v.end && r < kVFile; ++r)
      if (std::none_of(f.slice_src.begin(), f.slice_src.end(), [&](const OpFacts::SliceRow& x) { return x.row == r; }))
        f.slice_src.push_back({r, lanewise});
  }
  for (int j = 0; j < f.nvdef; ++j)
    for (uint16_t r = f.vdef[j].first; !f.vdef[j].whole && r < f.vdef[j].end && r < kVFile; ++r) f.slice_partial_defs.push_back(r);
}

// The per-wave lists of ClockTaint and ClockSlice grow an element at a time. Each reserves, when it
// is full, at least the most the thread's earlier waves of the launch kept in it (at most 4096), so
// that a wave's list usually takes one allocation instead of one per doubling (about 25 mallocs and
// frees per wave of tools/model_clock_overhead.sh's kernels before). The hints only size allocations.
enum ListKind { kScalarReads, kSliceStores, kGlobalStores, kLdsStores, kStoreSteps, kRereadLoads, kListKinds };
struct ListHints {
  uint64_t launch = 0;  // Launch::rec_serial
  size_t n[kListKinds] = {};
};
thread_local ListHints list_hints;

template <class V, class T>
void append(const Wave& w, V& v, T&& x, ListKind k) {
  ListHints& h = list_hints;
  if (h.launch != w.L->rec_serial) [[unlikely]] h = ListHints{w.L->rec_serial, {}};
  if (v.size() == v.capacity()) v.reserve(std::max({v.size() * 2, std::min<size_t>(h.n[k], 4096), size_t(2)}));
  v.push_back(std::forward<T>(x));
  h.n[k] = std::max(h.n[k], v.size());
}

// No row the instruction reads or writes holds a clock-derived lane.
bool rows_clear(const ClockTaint& t, const OpFacts::VRange* v, int n) {
  for (int i = 0; i < n; ++i)
    for (size_t r = v[i].first; r < v[i].end && r < t.vgpr.size(); ++r)
      if (t.vgpr[r]) return false;
  return true;
}

// Appends the step to the wave's slice with the values it reads that do not derive from a clock now
// (clock_slice.hpp's layout): of its sources their EXEC lanes (all lanes for a cross-lane read), and
// when its result derives from a clock, every lane of a partial def (the lanes it keeps then hold
// clock-derived values as far as the taint knows, so the replay must hold them right).
// The waves of a launch keep slices of much the same size: each reserves at its first step the most
// a wave before it on the same host thread kept (at most 64 Ki words), so its vector does not grow by
// doubling. The hint belongs to one launch (Launch::rec_serial); it only sizes allocations.
struct SliceHint {
  uint64_t launch = 0;
  size_t words = 0;
};
thread_local SliceHint slice_hint;

void slice_append(ClockTaint& t, const Wave& w, const Op& op, const OpFacts& f, uint32_t step, bool value) {
  ClockSlice& sl = t.slice;
  std::vector<uint32_t>& out = sl.words;
  SliceHint& hint = slice_hint;
  if (hint.launch != w.L->rec_serial) hint = {w.L->rec_serial, 0};
  if (out.empty()) out.reserve(std::min<size_t>(hint.words, size_t(1) << 16));
  const size_t head = out.size();
  out.resize(head + kSliceHeaderWords);
  sl.clock_reads += f.clock;
  if (op.unit == isa::Unit::VMEM && op.info && (op.info->is_store || op.info->is_atomic) && op.info->family != isa::Family::SCRATCH)
    append(w, sl.store_steps, step, kStoreSteps);
  SliceHeader h{step, op.index, w.s[kExecLo], w.s[kExecHi], w.mode,
                (t.scc ? 0 : kSliceSccKnown | (w.scc ? kSliceSccValue : 0)) | (f.direct_store ? kSliceDirectStore : 0),
                f.data_row, 0, 0};
  for (uint16_t r : f.slice_s)
    if (!t.sgpr[r]) {
      out.push_back(r);
      out.push_back(w.s[r]);
      ++h.scalars;
    }
  const uint64_t exec = w.exec();
  auto keep = [&](uint16_t r, uint64_t lanes) {
    const uint64_t taken = lanes & (r < t.vgpr.size() ? ~t.vgpr[r] : ~0ull);
    if (!taken) return;
    ++h.rows;
    // Lanes a plain global load wrote: read again from memory by the replay.
    if (r < sl.row_load_lanes.size() && (taken & ~sl.row_load_lanes[r]) == 0) {
      const uint32_t load_step = sl.row_load_step[r] - 1;
      if (sl.reread_loads.empty() || sl.reread_loads.back() != load_step) append(w, sl.reread_loads, load_step, kRereadLoads);
      out.insert(out.end(), {uint32_t(r) | kSliceRowLoaded << 16, uint32_t(taken), uint32_t(taken >> 32), load_step,
                             uint32_t(r - sl.row_load_first[r])});
      return;
    }
    out.insert(out.end(), {uint32_t(r) | kSliceRowValues << 16, uint32_t(taken), uint32_t(taken >> 32)});
    const uint32_t* row = w.v + size_t(r) * 64;
    if (taken == ~0ull) out.insert(out.end(), row, row + 64);
    else
      for (uint64_t m = taken; m; m &= m - 1) out.push_back(row[std::countr_zero(m)]);
  };
  for (const OpFacts::SliceRow& x : f.slice_src)
    if (!(value && std::find(f.slice_partial_defs.begin(), f.slice_partial_defs.end(), x.row) != f.slice_partial_defs.end()))
      keep(x.row, x.lanewise ? exec : ~0ull);
  if (value)
    for (uint16_t r : f.slice_partial_defs) keep(r, ~0ull);
  std::memcpy(&out[head], &h, sizeof h);
  ++sl.steps;
  hint.words = std::max(hint.words, out.size());
}

// The rows a step writes: which plain global load they come from (clock_slice.hpp), or none.
void note_row_writes(ClockSlice& sl, const OpFacts& f, uint32_t step, uint64_t exec, bool addresses) {
  const bool plain_load = f.plain_load && addresses;
  for (int j = 0; j < f.nvdef; ++j) {
    const OpFacts::VRange& d = f.vdef[j];
    if (plain_load && sl.row_load_step.size() < d.end) {
      sl.row_load_step.resize(d.end, 0);
      sl.row_load_first.resize(d.end, 0);
      sl.row_load_lanes.resize(d.end, 0);
    }
    for (size_t r = d.first; r < d.end && r < sl.row_load_step.size(); ++r) {
      sl.row_load_step[r] = plain_load ? step + 1 : 0;
      sl.row_load_first[r] = plain_load ? d.first : 0;
      sl.row_load_lanes[r] = plain_load ? exec : 0;
    }
  }
}

}  // namespace

namespace {

// Whether the step must be followed at all: it reads or writes a register (SCC, row) holding a
// clock-derived value, is an M0-relative scalar move (which the check stops at while any such value
// is live), or runs with VGPR indexing on (not followed).
bool touches_taint(const ClockTaint& t, const Wave& w, const Op& op, const OpFacts& f) {
  return f.m0_relative || (f.touch_scc && t.scc) || (t.sgpr & f.touch_s).any() ||
         ((w.mode & kModeGprIdxEn) && (op.unit == isa::Unit::VALU || op.unit == isa::Unit::MFMA)) ||
         !rows_clear(t, f.vsrc, f.nvsrc) || !rows_clear(t, f.vdef, f.nvdef);
}

bool slicing(const ClockTaint& t, const Wave& w) {
  return w.L->rec->track_clock_slice && w.L->opt.check_bounds && t.slice.unreplayable.empty();
}

[[gnu::noinline]] void taint_step_full(ClockTaint& t, Wave& w, const Op& op, const OpFacts& f, const uint64_t* addrs, int n,
                                       uint32_t step);

}  // namespace

// Most steps are neither memory accesses nor clock reads, and touch no clock-derived value: they
// take the few tests here (a small function, no frame to build) instead of taint_step_full.
void taint_step(ClockTaint& t, Wave& w, const Op& op, const uint64_t* addrs, int n, uint32_t step) {
  const OpFacts& f = facts_of(op, *w.L);
  if (!memory_unit(op.unit) && !f.clock) {
    if (!t.active || !t.reached.empty()) return;  // nothing derives from a clock yet, or the proof has failed
    if (!touches_taint(t, w, op, f)) {
      if (slicing(t, w)) note_row_writes(t.slice, f, step, w.exec(), n == 64);
      return;
    }
  }
  taint_step_full(t, w, op, f, addrs, n, step);
}

namespace {

void taint_step_full(ClockTaint& t, Wave& w, const Op& op, const OpFacts& f, const uint64_t* addrs, int n, uint32_t step) {
  const isa::InstrInfo* info = op.info;
  const bool clock = f.clock;
  if (!t.active && !clock && !memory_unit(op.unit)) return;  // nothing derives from a clock yet
  const bool reads_memory = f.reads_memory;
  if (op.unit == isa::Unit::SMEM && reads_memory) {
    if (f.sbase < 0) {
      t.reached = where(op, "a scalar memory read whose address the check cannot work out");
    } else {
      const uint64_t a = smem_address(w, op, f.sbase);
      append(w, t.scalar_reads, std::pair<uint64_t, uint64_t>(a, a + std::max<uint64_t>(8, 4ull * (op.aux & 0xff))), kScalarReads);
    }
  }
  if (op.unit == isa::Unit::VMEM && reads_memory) {
    if (info->family == isa::Family::FLAT) t.flat_reads = true;
    if (n == 0 && info->family != isa::Family::SCRATCH) t.unrecorded_global_reads = true;  // scratch is private
  }
  if (w.L->rec->track_clock_slice && info && (info->is_store || info->is_atomic) && t.slice.unreplayable.empty()) {
    // The slice's replay checks every store of the run against its own (clock_slice.hpp).
    if (op.unit == isa::Unit::SMEM) {
      t.slice.unreplayable = where(op, "a scalar store, whose addresses are not recorded");
    } else if (op.unit == isa::Unit::VMEM && info->family != isa::Family::SCRATCH) {
      const Range h = hull(addrs, n, std::max<uint64_t>(memory_lane_bytes(op), 1));
      if (h.first < h.second) append(w, t.slice.stores, ClockSlice::Store{h.first, h.second, step}, kSliceStores);
      else if (!n && w.exec()) t.slice.unreplayable = where(op, "a global store whose addresses are not recorded");
    }
  }
  if (!t.active && !clock) return;  // nothing derives from a clock yet
  t.active = true;
  if (!t.reached.empty()) return;  // the proof has failed; the rest does not matter
  // (Without bounds checks an access out of bounds reads or writes nothing the replay could know.)
  const bool slicing = sim::slicing(t, w);
  if (clock) {
    if (slicing) slice_append(t, w, op, f, step, true);
    for (int r = op.d[0].idx; r < op.d[0].idx + op.d[0].n && r < kSFileSize; ++r) t.sgpr[r] = true;
    return;
  }
  if (!touches_taint(t, w, op, f)) {
    // No clock-derived source or result: what follows would change nothing but the slice's record
    // of which plain load wrote the rows.
    if (slicing) note_row_writes(t.slice, f, step, w.exec(), n == 64);
    return;
  }
  const isa::ImplicitRegs& imp = f.imp;
  // Sources: named ones (addresses apart), defs the instruction also reads, implicit reads.
  bool addr = (t.sgpr & f.addr_s).any() || (f.addr_scc && t.scc);
  bool data = (t.sgpr & f.data_s).any() || (f.data_scc && t.scc);
  for (int i = 0; i < f.nvsrc; ++i) {
    const OpFacts::VRange& v = f.vsrc[i];
    uint64_t m = 0;
    for (size_t r = v.first; r < v.end && r < t.vgpr.size(); ++r) m |= t.vgpr[r];
    if (m) (v.addr ? addr : data) = true;
  }
  const bool vcc = t.sgpr[kVccLo] || t.sgpr[kVccHi];
  const bool any = addr || data;
  auto reach = [&](const std::string& why) { t.reached = where(op, why); };
  // Where such a value would change the streams, or leave what this check follows.
  if (addr) return reach("a clock-derived value is a memory address (or an LDS lane index)");
  if ((w.mode & kModeGprIdxEn) && (op.unit == isa::Unit::VALU || op.unit == isa::Unit::MFMA))
    return reach("VGPR indexing is on while a clock-derived value is live (the check does not follow indexed registers)");
  if (imp.reads_m0 && op.unit == isa::Unit::SALU && (any || t.sgpr.any() || t.scc))
    return reach("an M0-relative scalar move while a clock-derived value is live (not followed)");
  if (f.cond_branch && ((imp.reads_scc && t.scc) || (imp.reads_vcc && vcc)))
    return reach(std::string("a clock-derived value is the branch condition (") + (imp.reads_scc ? "SCC" : "VCC") + ")");
  if (op.unit == isa::Unit::Branch && any) return reach("a clock-derived value is a branch target");
  if (any) {
    if (imp.writes_exec || f.def_exec) return reach("a clock-derived value is written to EXEC");
    if (imp.writes_m0 || f.def_m0) return reach("a clock-derived value is written to M0");
    if (imp.writes_mode) return reach("a clock-derived value is written to MODE");
    if (!info) return reach("a clock-derived value is read by an instruction outside the ISA table (not followed)");
    const isa::Unit u = op.unit;
    if (u != isa::Unit::SALU && u != isa::Unit::VALU && u != isa::Unit::MFMA && !memory_unit(u))
      return reach("a clock-derived value is read by an instruction the check does not follow");
  }
  if (data && info && (info->is_store || info->is_atomic) && memory_unit(op.unit)) {
    const uint64_t bytes = std::max<uint64_t>(memory_lane_bytes(op), 16);  // 16: wider than any lane's data
    if (n && op.unit == isa::Unit::DS) append(w, t.lds_stores, hull(addrs, n, bytes), kLdsStores);
    else if (n && op.unit == isa::Unit::VMEM && (info->family == isa::Family::GLOBAL || info->family == isa::Family::MUBUF))
      append(w, t.global_stores, hull(addrs, n, bytes), kGlobalStores);
    else
      return reach("a clock-derived value is stored where the check does not follow it (scalar, scratch, flat or atomic store)");
  }
  if (slicing) {
    // The slice: what reads a clock-derived value, and what writes part of a row (or only some of
    // its lanes' bits) holding clock-derived lanes, which keep their bits the instruction leaves.
    bool partial = false;
    for (int j = 0; j < f.nvdef; ++j)
      for (size_t r = f.vdef[j].first; !f.vdef[j].whole && r < f.vdef[j].end && r < t.vgpr.size(); ++r) partial |= t.vgpr[r] != 0;
    if ((any || partial) && !(op.unit == isa::Unit::DS && info && info->is_store && !info->is_atomic)) {  // LDS stores: not replayed
      if (reads_memory || (op.unit != isa::Unit::SALU && op.unit != isa::Unit::VALU && op.unit != isa::Unit::MFMA &&
                           !(op.unit == isa::Unit::VMEM && info && info->is_store && !info->is_atomic)))
        t.slice.unreplayable = where(op, any ? "the clock-derived slice would re-execute a memory access other than a global store"
                                             : "a memory read writes part of a register holding clock-derived lanes");
      else
        slice_append(t, w, op, f, step, any);
    }
    note_row_writes(t.slice, f, step, w.exec(), n == 64);
  }
  // Results: a load's come from memory; the others derive from a clock when a source does.
  const bool value = reads_memory ? false : any;
  if (value) t.sgpr |= f.def_s;
  else t.sgpr &= ~f.def_s;
  if (f.nvdef) {
    const uint64_t exec = w.exec();
    for (int j = 0; j < f.nvdef; ++j) {
      const OpFacts::VRange& d = f.vdef[j];
      if (value && t.vgpr.size() < d.end) t.vgpr.resize(std::min<size_t>(kVFile, d.end), 0);
      for (size_t r = d.first; r < d.end && r < t.vgpr.size(); ++r) {
        uint64_t& m = t.vgpr[r];
        if (d.whole) m = (m & ~exec) | (value ? exec : 0);
        else if (value) m = ~0ull;
      }
    }
  }
  if (imp.writes_scc) t.scc = any;
  if (f.unnamed_vcc_write) t.sgpr[kVccLo] = t.sgpr[kVccHi] = any;
}

}  // namespace

namespace {

// Sorts and merges ranges; then `hits` tells whether [lo, hi) overlaps one.
struct RangeSet {
  std::vector<Range> r;
  void add(const Range& x) {
    if (x.first < x.second) r.push_back(x);
  }
  void finish() {
    std::sort(r.begin(), r.end());
    std::vector<Range> m;
    for (const Range& x : r) {
      if (!m.empty() && x.first <= m.back().second) m.back().second = std::max(m.back().second, x.second);
      else m.push_back(x);
    }
    r = std::move(m);
  }
  bool hits(const Range& x) const {
    if (x.first >= x.second || r.empty()) return false;
    if (x.second <= r.front().first || x.first >= r.back().second) return false;  // outside them all (most loads)
    auto it = std::upper_bound(r.begin(), r.end(), Range{x.first, ~0ull});  // first range starting after x.first
    if (it != r.begin() && std::prev(it)->second > x.first) return true;
    return it != r.end() && it->first < x.second;
  }
  bool empty() const { return r.empty(); }
};

}  // namespace

std::pair<uint64_t, uint64_t> recorded_step_hull(const RecordedWave& w, const RecordedStep& st, uint64_t bytes) {
  const uint64_t* p = w.addrs.data() + st.addr_first;
  if (!st.affine) return hull(p, st.addr_count, bytes);
  const uint64_t base = p[0], stride = p[1], mask = p[2];
  if (!mask) return Range{1, 0};
  const uint64_t first = base + uint64_t(std::countr_zero(mask)) * stride;
  const unsigned __int128 last = first + (unsigned __int128)(uint64_t(63 - std::countl_zero(mask) - std::countr_zero(mask))) * stride;
  if (last <= ~0ull) return Range{first, uint64_t(last) + std::max<uint64_t>(bytes, 1)};  // increasing addresses
  StepAddressBuffer buf;  // a negative stride, or addresses that wrap: the lane-by-lane hull
  return hull(step_addresses(w, st, buf).data(), 64, bytes);
}

std::string recorded_wave_name(const RecordedWave& w) {
  return "workgroup " + std::to_string(w.workgroup) + " wave " + std::to_string(w.wave_in_wg);
}

std::string clock_taint_verdict(const Recording& r) {
  for (const RecordedWave& w : r.waves)
    if (!w.taint.reached.empty()) return recorded_wave_name(w) + ", " + w.taint.reached;
  // Global memory: no load may read a byte a clock-derived store wrote (in either order: the waves
  // of other workgroups may run before or after it).
  RangeSet global;
  for (const RecordedWave& w : r.waves)
    for (const Range& x : w.taint.global_stores) global.add(x);
  global.finish();
  const size_t wpw = std::max<size_t>(1, r.waves_per_workgroup);
  for (size_t first = 0; first < r.waves.size(); first += wpw) {
    RangeSet lds;
    bool flat = false;
    for (size_t k = first; k < first + wpw && k < r.waves.size(); ++k) {
      for (const Range& x : r.waves[k].taint.lds_stores) lds.add(x);
      flat |= r.waves[k].taint.flat_reads;
    }
    lds.finish();
    if (!lds.empty() && flat)
      return recorded_wave_name(r.waves[first]) + ": a flat load may read the LDS where a clock-derived value was stored (not followed)";
    for (size_t k = first; k < first + wpw && k < r.waves.size(); ++k) {
      const RecordedWave& w = r.waves[k];
      if (!global.empty() && w.taint.unrecorded_global_reads)
        return recorded_wave_name(w) + ": a global atomic reads memory at addresses the check does not follow, and clock-derived "
                              "values were stored to global memory";
      for (const Range& x : w.taint.scalar_reads)
        if (global.hits(x)) return recorded_wave_name(w) + ": a scalar load reads global memory where a clock-derived value was stored";
      if (global.empty() && lds.empty()) continue;
      for (size_t i = 0; i < w.steps.size(); ++i) {
        const RecordedStep& st = w.steps[i];
        const RecordedOp& o = r.ops[st.op];
        if (!st.addr_count || !o.info || !(o.info->is_load || o.info->is_atomic)) continue;
        const bool ds = o.unit == isa::Unit::DS;
        const RangeSet& set = ds ? lds : global;
        if (set.empty()) continue;
        if (set.hits(recorded_step_hull(w, st, std::max<uint64_t>(o.lane_bytes, 16))))
          return recorded_wave_name(w) + ", pc " + hex(o.pc) + " '" + o.text + "': it loads " + (ds ? "LDS" : "global memory") +
                 " where a clock-derived value was stored";
      }
    }
  }
  return "";
}

}  // namespace cdnajit::sim
