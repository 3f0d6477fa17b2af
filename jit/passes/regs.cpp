#include "jit/passes/regs.hpp"

#include <algorithm>

#include "jit/isa/opcode.hpp"
#include "jit/passes/classify.hpp"

namespace cdnajit::passes {
namespace {

using isa::Operand;
using isa::SpecialReg;

// The implicit accesses that depend only on the table row, worked out once per row: the
// passes ask for every instruction's accesses several times per build, and asking the
// class predicates each time was a large part of the pass time.
struct RowImplicit {
  bool vector_op = false;   // runs under EXEC
  bool vcmpx = false;       // writes EXEC
  bool exec_rw = false;     // *saveexec* / *wrexec*: reads and writes EXEC
  bool reads_vcc = false;   // v_div_fmas_*, s_cbranch_vccz/vccnz
  bool exec_branch = false; // s_cbranch_execz/execnz
  bool vmem = false, lds_dma_class = false;  // is_lds_dma() also looks at the `lds` modifier
  bool ds_lds = false;      // DS op touching LDS memory
  bool barrier = false;     // s_barrier
  bool lds_store = false;   // writes LDS memory (DS store or atomic, FLAT store)
  bool global_store = false;  // writes global memory (VMEM store or atomic outside scratch, FLAT store)
  bool reads_m0 = false;    // messages, relative moves, lane-indexed and counter LDS ops
};

RowImplicit row_implicit_of(const isa::InstrInfo& row) {
  isa::MachineInst mi;  // the row as an instruction with no operands or modifiers
  mi.info = &row;
  mi.mnemonic = std::string(row.mnemonic);
  using isa::Opcode;
  RowImplicit r;
  r.vector_op = is_valu(mi) || is_vmem(mi) || is_ds(mi);
  r.vcmpx = is_vcmpx(mi);
  std::string_view m = base_mnemonic(mi);
  r.exec_rw = m.find("saveexec") != std::string_view::npos || m.find("wrexec") != std::string_view::npos;
  r.reads_vcc = is_one_of(mi, {Opcode::v_div_fmas_f32, Opcode::v_div_fmas_f64, Opcode::s_cbranch_vccz,
                               Opcode::s_cbranch_vccnz});
  r.exec_branch = is_one_of(mi, {Opcode::s_cbranch_execz, Opcode::s_cbranch_execnz});
  r.vmem = is_vmem(mi);
  r.lds_dma_class = isa::is(row, isa::kClassLdsDma);
  r.ds_lds = ds_accesses_lds(mi);
  r.barrier = is_one_of(mi, {Opcode::s_barrier});
  r.lds_store = row.is_store && (r.ds_lds || is_flat(mi));
  r.global_store = row.is_store && r.vmem && row.family != isa::Family::SCRATCH;
  r.reads_m0 = is_one_of(mi, {Opcode::s_sendmsg, Opcode::s_sendmsghalt, Opcode::s_ttracedata, Opcode::s_movrels_b32,
                              Opcode::s_movrels_b64, Opcode::s_movreld_b32, Opcode::s_movreld_b64,
                              Opcode::ds_read_addtid_b32, Opcode::ds_write_addtid_b32, Opcode::ds_append,
                              Opcode::ds_consume});
  return r;
}

RowImplicit row_implicit(const isa::InstrInfo& row) {
  static const std::vector<RowImplicit> by_opcode = [] {
    std::vector<RowImplicit> v(isa::kOpcodeCount);
    for (size_t op = 0; op < isa::kOpcodeCount; ++op) v[op] = row_implicit_of(isa::info(isa::Opcode(op)));
    return v;
  }();
  const isa::Opcode op = isa::opcode_of(row);
  return op == isa::Opcode::Count ? row_implicit_of(row) : by_opcode[size_t(op)];  // not a table row: ask directly
}

// `mi` has a table row. The order of the entries is part of the contract: the wait-count
// pass lists the registers a wait protects in this order.
void add_implicit(const isa::MachineInst& mi, Access& a) {
  const RowImplicit r = row_implicit(*mi.info);
  if (r.vector_op) a.implicit_uses.push_back(kExecUnits);  // every vector op runs under EXEC
  if (r.vcmpx) a.implicit_defs.push_back(kExecUnits);
  if (r.exec_rw) {
    a.implicit_defs.push_back(kExecUnits);
    a.implicit_uses.push_back(kExecUnits);
  }
  if (r.reads_vcc) a.implicit_uses.push_back(kVccUnits);
  if (r.exec_branch) a.implicit_uses.push_back(kExecUnits);
  if (r.vmem && (mi.mods.lds || r.lds_dma_class)) {  // is_lds_dma()
    a.implicit_defs.push_back(kLdsUnit);  // the data lands in LDS, not in registers
    a.implicit_uses.push_back(kM0Unit);   // M0 holds the LDS destination address
  }
  if (r.ds_lds) a.implicit_uses.push_back(kLdsUnit);
  // The stores another wave may read after a barrier (the pseudo-registers s_barrier reads).
  if (r.lds_store) a.implicit_defs.push_back(kLdsStoresUnit);
  if (r.global_store) a.implicit_defs.push_back(kGlobalStoresUnit);
  // Other waves read LDS after a barrier: this wave's LDS DMA and LDS stores must have landed
  // by then (the barrier itself does not wait for memory on gfx90a+). This is the default
  // release (BarrierRelease::Lds); run_waitcnt narrows or widens it (barrier_release_units).
  if (r.barrier) a.implicit_uses.push_back(barrier_release_units(BarrierRelease::Lds));
  // M0 read as an operand: messages, the relative moves, lane-indexed and counter LDS ops, GDS.
  if (r.reads_m0 || mi.mods.extra.find("gds") != std::string::npos) a.implicit_uses.push_back(kM0Unit);
}

}  // namespace

std::optional<UnitRange> units_of(const Operand& o) {
  if (o.kind == Operand::Kind::Reg) {
    int base = o.file == isa::RegFile::SGPR ? 0 : o.file == isa::RegFile::VGPR ? kVgpr0 : kAgpr0;
    return UnitRange{base + o.index, std::max<int>(1, o.dwords)};
  }
  if (o.kind != Operand::Kind::Special) return std::nullopt;
  switch (o.special) {
    case SpecialReg::VCC: return UnitRange{kVccLo, 2};
    case SpecialReg::VCC_LO: return UnitRange{kVccLo, 1};
    case SpecialReg::VCC_HI: return UnitRange{kVccHi, 1};
    case SpecialReg::EXEC: return UnitRange{kExecLo, 2};
    case SpecialReg::EXEC_LO: return UnitRange{kExecLo, 1};
    case SpecialReg::EXEC_HI: return UnitRange{kExecHi, 1};
    case SpecialReg::M0: return UnitRange{kM0, 1};
    case SpecialReg::SCC: return UnitRange{kScc, 1};
    case SpecialReg::FLAT_SCRATCH: return UnitRange{kFlatScratchLo, 2};
    case SpecialReg::FLAT_SCRATCH_LO: return UnitRange{kFlatScratchLo, 1};
    case SpecialReg::FLAT_SCRATCH_HI: return UnitRange{kFlatScratchLo + 1, 1};
    case SpecialReg::XNACK_MASK: return UnitRange{kXnackMaskLo, 2};
    default: return std::nullopt;  // src_* constants are not registers
  }
}

bool is_sgpr_unit(int u) { return u >= 0 && u < kScc; }
bool is_vgpr_unit(int u) { return u >= kVgpr0 && u < kLds; }

std::string unit_name(int u) {
  switch (u) {
    case kFlatScratchLo: return "flat_scratch_lo";
    case kFlatScratchLo + 1: return "flat_scratch_hi";
    case kXnackMaskLo: return "xnack_mask_lo";
    case kXnackMaskLo + 1: return "xnack_mask_hi";
    case kVccLo: return "vcc_lo";
    case kVccHi: return "vcc_hi";
    case kM0: return "m0";
    case kExecLo: return "exec_lo";
    case kExecHi: return "exec_hi";
    case kScc: return "scc";
    case kLds: return "LDS";
    case kLdsStores: return "LDS stores";
    case kGlobalStores: return "global stores";
    default: break;
  }
  std::string name(1, u >= kAgpr0 ? 'a' : u >= kVgpr0 ? 'v' : 's');
  name += std::to_string(u >= kAgpr0 ? u - kAgpr0 : u >= kVgpr0 ? u - kVgpr0 : u);
  return name;
}

std::string range_name(UnitRange r) {
  if (r.count <= 1) return unit_name(r.first);
  if (r.first == kVccLo && r.count == 2) return "vcc";
  if (r.first == kExecLo && r.count == 2) return "exec";
  if (r.first == kFlatScratchLo && r.count == 2) return "flat_scratch";
  char file = r.first >= kAgpr0 ? 'a' : r.first >= kVgpr0 ? 'v' : 's';
  int base = r.first >= kAgpr0 ? kAgpr0 : r.first >= kVgpr0 ? kVgpr0 : 0;
  std::string name(1, file);
  name += '[';
  name += std::to_string(r.first - base);
  name += ':';
  name += std::to_string(r.first - base + r.count - 1);
  name += ']';
  return name;
}

std::string units_text(const std::vector<int>& units_in) {
  std::vector<int> units = units_in;
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  auto same_file = [](int a, int b) {
    auto file = [](int u) { return u >= kLds ? 1000 + u : u >= kAgpr0 ? 2 : u >= kVgpr0 ? 1 : (u >= kFlatScratchLo ? 10 + u : 0); };
    return file(a) == file(b);
  };
  std::string out;
  for (size_t i = 0; i < units.size();) {
    size_t j = i + 1;
    while (j < units.size() && units[j] == units[j - 1] + 1 && same_file(units[i], units[j])) ++j;
    if (!out.empty()) out += ", ";
    out += range_name({units[i], static_cast<int>(j - i)});
    i = j;
  }
  return out;
}

std::vector<UnitRange> Access::defs() const {
  std::vector<UnitRange> out(implicit_defs.begin(), implicit_defs.end());
  for (const auto& r : explicit_regs)
    if (r.is_def) out.push_back(r.units);
  return out;
}

std::vector<UnitRange> Access::uses() const {
  std::vector<UnitRange> out(implicit_uses.begin(), implicit_uses.end());
  for (const auto& r : explicit_regs)
    if (r.reads()) out.push_back(r.units);
  return out;
}

bool Access::writes(UnitRange r) const {
  for (const UnitRange& d : implicit_defs)
    if (d.overlaps(r)) return true;
  for (const auto& e : explicit_regs)
    if (e.is_def && e.units.overlaps(r)) return true;
  return false;
}

bool Access::reads(UnitRange r) const {
  for (const UnitRange& u : implicit_uses)
    if (u.overlaps(r)) return true;
  for (const auto& e : explicit_regs)
    if (e.reads() && e.units.overlaps(r)) return true;
  return false;
}

bool Access::explicitly_reads(UnitRange r) const {
  for (const auto& e : explicit_regs)
    if (e.reads() && e.units.overlaps(r)) return true;
  return false;
}

Access access_of(const isa::MachineInst& mi) {
  Access a;
  if (is_label(mi)) return a;
  if (!mi.info) {
    // Raw text the table does not describe: the passes cannot see its registers.
    a.unknown = !mi.raw.empty() || !mi.mnemonic.empty();
    return a;
  }
  const auto& specs = mi.info->operands;
  bool lds_dma = is_lds_dma(mi);  // with `lds` the first operand is an address, not a destination
  for (size_t k = 0; k < mi.operands.size(); ++k) {
    auto u = units_of(mi.operands[k]);
    if (!u) continue;
    bool def = !lds_dma && k < specs.size() && specs[k].is_def;
    bool also_read = def && specs[k].also_read;
    a.explicit_regs.push_back({uint16_t(k), *u, def, also_read});
  }
  add_implicit(mi, a);
  return a;
}

}  // namespace cdnajit::passes
