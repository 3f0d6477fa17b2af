// The instruction table's vocabulary: what every layer (builder, regalloc
// lowering, wait-count/hazard passes, simulator) knows about an instruction.
// The entries themselves live in instructions.def / table.cpp.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cdnajit {

enum class Arch : uint8_t { gfx942, gfx950 };
std::string_view arch_name(Arch a);                     // "gfx942"
std::optional<Arch> parse_arch(std::string_view name);  // nullopt if unknown
// LDS per CU, which is also the most one workgroup may allocate (isa::target::lds_bytes).
uint32_t lds_bytes_per_cu(Arch a);

namespace isa {

// Bit set of architectures an entry exists on.
enum ArchMask : uint8_t { kGfx942 = 1, kGfx950 = 2, kAllArchs = 3 };
constexpr ArchMask arch_bit(Arch a) { return a == Arch::gfx942 ? kGfx942 : kGfx950; }

enum class Family : uint8_t {
  SOP1, SOP2, SOPK, SOPC, SOPP, SMEM,
  VOP1, VOP2, VOP3, VOPC, VOP3P, MFMA,
  DS, FLAT, GLOBAL, MUBUF,
  SCRATCH,  // FLAT encoding, private segment (scratch_*): vaddr and saddr are one register or off
};

// Execution unit, used for stats, hazards and the simulator's counters.
enum class Unit : uint8_t { SALU, VALU, DS, VMEM, SMEM, MFMA, Branch, Waitcnt, Nop, Barrier, Misc };

// Which wait counter an instruction raises when issued (and s_waitcnt lowers).
enum class Counter : uint8_t { None, Vm, Lgkm, VmLgkm /* FLAT: both */ };

// What an operand slot accepts.
enum class OpKind : uint8_t {
  SReg,      // SGPR tuple (or a special scalar reg: vcc, exec, m0 ...)
  VReg,      // VGPR tuple
  AReg,      // AGPR tuple
  VAReg,     // VGPR or AGPR tuple (MFMA dst/srcC, memory data on gfx90a+)
  SSrc,      // scalar source: SGPR, special, inline constant or 32-bit literal
  VSrc,      // VOP1/VOP2/VOPC src0: VGPR, SGPR, inline constant or literal
  VSrcNoLit, // VOP3/VOP3P source: VGPR, SGPR or inline constant (no literal on gfx9)
  Simm16,    // 16-bit immediate (SOPK, SOPP)
  Imm,       // other immediates (e.g. v_alignbit shift when given as constant is VSrcNoLit)
  Label,     // branch target
  SBase,     // SMEM base pair s[n:n+1] (or quad for buffer loads)
  SOffset,   // SGPR, M0 or literal offset (SMEM / MUBUF soffset)
  VAddr,     // memory address VGPR(s)
  SAddrOrOff,// global saddr: SGPR pair or `off`
  SRsrc,     // buffer resource descriptor s[n:n+3]
};

// The float format a source's VOP3 neg/abs modifiers act on (which bit is the sign) and in
// which its inline constants are encoded; None for operands without float modifiers. It is
// the source's own type, which differs from the result's in conversions (v_cvt_f32_f16's
// source is f16, v_cvt_f64_f32's is f32) and packing ops (v_pack_b32_f16).
enum class FloatType : uint8_t { None, F16, BF16, F32, F64 };

struct OperandSpec {
  std::string_view name;  // "vdst", "src0", ...
  OpKind kind;
  uint8_t dwords;         // tuple width in dwords (1..32)
  bool is_def;            // written by the instruction
  bool optional;          // may be omitted (e.g. trailing operands)
  bool also_read = false; // a def the instruction also reads (v_fmac dst, s_addk dst, d16 loads, v_writelane)
  FloatType fp = FloatType::None;  // sources of NEGABS instructions: see FloatType (table.cpp derives it)
  // Simm16 operands: the field's width and signedness (.def "@uN"; default 16 bits, -32768..65535).
  uint8_t imm_bits = 16;
  bool imm_unsigned = false;
  // VALU sources holding a 16-bit value (table.cpp derives it from the mnemonic's type): a literal
  // is a 16-bit value, and a constant whose low half sign-extends to -16..64 (or, for f16, is an
  // f16 inline value) is an inline constant.
  bool half = false;
  bool half_float = false;
  bool no_literal = false;  // .def "@nolit": a scalar source that takes inline constants but no literal
  bool unaligned = false;   // .def "@unaligned": a tuple that may start at any register
};

// VGPR indexing (s_set_gpr_idx_on): the M0[15:12] enable bit that governs an operand — 0..2 for
// src0..src2, 3 for the VGPR destination, -1 for an operand no enable bit names. Used by the
// simulator (runtime/sim/ops_gpr_idx.cpp) and the static checks (jit/passes/gpr_idx.cpp).
constexpr int gpr_idx_slot(const OperandSpec& op) {
  if (op.name == "src0") return 0;
  if (op.name == "src1") return 1;
  if (op.name == "src2") return 2;
  if (op.name == "vdst") return 3;
  return -1;
}

// Modifier spellings an instruction accepts (bit set).
enum ModBits : uint32_t {
  kModNone = 0,
  kModOffset = 1u << 0,   // offset:N (DS, SMEM, FLAT/GLOBAL, MUBUF)
  kModOffset01 = 1u << 1, // offset0:/offset1: (ds_read2/write2)
  kModCache = 1u << 2,    // sc0 sc1 nt (gfx94x/gfx950 cache policy)
  kModClamp = 1u << 3,
  kModOmod = 1u << 4,
  kModNegAbs = 1u << 5,   // neg/abs on float sources (VOP3)
  kModOpSel = 1u << 6,    // op_sel / op_sel_hi / neg_lo / neg_hi (VOP3P)
  kModLds = 1u << 7,      // lds (buffer/global → LDS DMA)
  kModBufAddr = 1u << 8,  // offen / idxen / addr64
  kModMfma = 1u << 9,     // cbsz / abid / blgp
  // No bit for SDWA/DPP controls: they stay in Modifiers::extra, which validate() does not check.
};

struct InstrInfo {
  std::string_view mnemonic;
  Family family;
  uint8_t archs;            // ArchMask
  Unit unit;
  Counter counter;
  uint32_t mods;            // ModBits
  std::span<const OperandSpec> operands;  // defs first, as in asm syntax
  uint8_t mfma_passes = 0;  // MFMA only: pass count (4 cycles each) for hazard rules
  bool is_load = false;     // memory read returning data to registers
  bool is_store = false;    // memory write
  bool is_trans = false;    // transcendental VALU (v_exp/v_log/v_rcp/v_rsq/v_sqrt/v_sin/v_cos)
  bool is_atomic = false;   // memory read-modify-write; VMEM/SMEM atomics return the old value only under sc0/glc
  // VMEM atomics: the old value a returning form (sc0) writes, in dwords: the data's width, or
  // half of it for the compare-swaps, whose data is {new value, compare value} (table.cpp).
  uint8_t atomic_result_dwords = 0;
  // MFMA: srcC may partly overlap the result (LLVM 22 checks the overlap for every MFMA but the
  // f8f6f4 ones, whose operand widths follow the formats; table.cpp).
  bool srcc_may_overlap = false;
  bool reads_vcc = false;   // reads VCC without naming it (v_div_fmas_*, s_cbranch_vccz/vccnz); a VALU one uses the constant bus
  // The plain VMEM/DS loads and stores and the LDS DMA loads (.def B1..B16, SEXT, D16, D16_HI; 0 / false
  // elsewhere, including atomics and format loads): bytes one lane reads or writes per address, whether a
  // sub-dword value is sign-extended, and which 16-bit half of the register a D16 form reads or writes.
  uint8_t access_bytes = 0;
  bool sign_extends = false;
  bool d16 = false;     // the low half (the high half is kept)
  bool d16_hi = false;  // the high half (the low half is kept)

  bool on(Arch a) const { return archs & arch_bit(a); }
};

// Whole table, sorted by mnemonic.
std::span<const InstrInfo> table();
// Lookup by mnemonic (exact, lower case, without encoding suffix like _e32/_e64).
const InstrInfo* find(std::string_view mnemonic);

// MFMA pass count on `arch` (4 cycles each; differs per arch for e.g. v_mfma_f64_16x16x4_f64);
// 0 when the entry is not an MFMA or does not exist on `arch`.
int mfma_passes(const InstrInfo& info, Arch arch);

std::string_view family_name(Family f);
std::string_view unit_name(Unit u);
std::string_view counter_name(Counter c);

}  // namespace isa
}  // namespace cdnajit
