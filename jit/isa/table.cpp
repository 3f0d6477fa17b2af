// The instruction table, built once from instructions.def: each entry's
// compact operand string is parsed into OperandSpec records at first use.
#include <algorithm>
#include <array>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "jit/isa/error.hpp"
#include "jit/isa/implicit_regs.hpp"
#include "jit/isa/isa.hpp"
#include "jit/isa/opcode.hpp"

namespace cdnajit::isa {
namespace {

// The short names instructions.def uses for arch masks, modifiers and flags.
namespace def_names {
constexpr uint8_t ALL = kAllArchs, G942 = kGfx942, G950 = kGfx950;
constexpr uint32_t NONE = kModNone, OFFSET = kModOffset, OFFSET01 = kModOffset01, CACHE = kModCache,
                   CLAMP = kModClamp, OMOD = kModOmod, NEGABS = kModNegAbs, OPSEL = kModOpSel, LDS = kModLds,
                   BUFADDR = kModBufAddr, MFMA = kModMfma;
constexpr uint64_t LOAD = 1, STORE = 2, TRANS = 4, ATOMIC = 8, READS_VCC = 16;
// Class bits (isa::ClassBits), declared per row; kClassTrans is the TRANS flag.
constexpr uint64_t kClassShift = 8;
constexpr uint64_t MFMA_OP = uint64_t(kClassMfma) << kClassShift, SMFMAC = uint64_t(kClassSmfmac) << kClassShift,
                   DGEMM = uint64_t(kClassDgemm) << kClassShift, XDL = uint64_t(kClassXdl) << kClassShift,
                   DOT = uint64_t(kClassDot) << kClassShift, VCMPX = uint64_t(kClassVcmpx) << kClassShift,
                   BRANCH = uint64_t(kClassBranch) << kClassShift, COND_BRANCH = uint64_t(kClassCondBranch) << kClassShift,
                   TERMINATOR = uint64_t(kClassTerminator) << kClassShift, WAITCNT = uint64_t(kClassWaitcnt) << kClassShift,
                   NOP = uint64_t(kClassNop) << kClassShift, LDS_DMA = uint64_t(kClassLdsDma) << kClassShift,
                   LANE_SHUFFLE = uint64_t(kClassLaneShuffle) << kClassShift;
// Memory access of the plain VMEM/DS loads and stores: bytes per lane per address (bits 32..39),
// sign extension and the D16 register half (bits 40..42).
constexpr uint64_t kBytesShift = 32;
constexpr uint64_t B1 = 1ull << kBytesShift, B2 = 2ull << kBytesShift, B4 = 4ull << kBytesShift, B8 = 8ull << kBytesShift,
                   B12 = 12ull << kBytesShift, B16 = 16ull << kBytesShift;
constexpr uint64_t SEXT = 1ull << 40, D16 = 1ull << 41, D16_HI = 1ull << 42;
// Registers written or read without being named (implicit_regs.hpp), bits 43..48.
constexpr uint64_t WRITES_SCC = 1ull << 43, READS_SCC = 1ull << 44, WRITES_EXEC = 1ull << 45, WRITES_M0 = 1ull << 46,
                   WRITES_MODE = 1ull << 47, READS_M0 = 1ull << 48;
}  // namespace def_names

struct RawEntry {
  std::string_view mnemonic;
  Family family;
  uint8_t archs;
  Unit unit;
  Counter counter;
  std::string_view operands;
  uint32_t mods;
  uint64_t flags;
  uint8_t passes_gfx942, passes_gfx950;
};

using namespace def_names;
constexpr RawEntry kRawEntries[] = {
#define CDNAJIT_INSTR(mnemonic, family, archs, unit, counter, operands, mods, flags, p942, p950) \
  {#mnemonic, Family::family, archs, Unit::unit, Counter::counter, operands, mods, flags, p942, p950},
#include "jit/isa/instructions.def"
#undef CDNAJIT_INSTR
};
static_assert(std::size(kRawEntries) == kOpcodeCount, "Opcode and the table are generated from the same file");

struct KindCode {
  std::string_view code;
  OpKind kind;
};
// Longest codes first so that "vs" is not read as "v" + junk.
constexpr std::array kKindCodes = {
    KindCode{"sbase", OpKind::SBase}, KindCode{"vaddr", OpKind::VAddr}, KindCode{"saddr", OpKind::SAddrOrOff},
    KindCode{"rsrc", OpKind::SRsrc},  KindCode{"soff", OpKind::SOffset}, KindCode{"av", OpKind::VAReg},
    KindCode{"ss", OpKind::SSrc},     KindCode{"vs", OpKind::VSrc},      KindCode{"vn", OpKind::VSrcNoLit},
    KindCode{"s", OpKind::SReg},      KindCode{"v", OpKind::VReg},       KindCode{"a", OpKind::AReg},
    KindCode{"k", OpKind::Simm16},    KindCode{"i", OpKind::Imm},        KindCode{"l", OpKind::Label},
};

// One operand token of the .def syntax: [>|^]name:kind[dwords][@type][?]. `typed` is set when
// the token names the source's float type (@f16 @bf16 @f32 @f64, or @int for none).
OperandSpec parse_operand_token(std::string_view mnemonic, std::string_view tok, bool& typed) {
  auto fail = [&](const std::string& why) -> OperandSpec {
    throw Error("instructions.def: entry '" + std::string(mnemonic) + "', operand '" + std::string(tok) + "': " +
                why + " (expected [>|^]name:kind[dwords][@f16|@bf16|@f32|@f64|@int][?], kinds s v a av ss vs vn k i l sbase soff vaddr saddr rsrc)");
  };
  OperandSpec spec{};
  std::string_view t = tok;
  if (!t.empty() && (t[0] == '>' || t[0] == '^')) {
    spec.is_def = true;
    spec.also_read = t[0] == '^';
    t.remove_prefix(1);
  }
  if (!t.empty() && t.back() == '?') {
    spec.optional = true;
    t.remove_suffix(1);
  }
  typed = false;
  if (auto at = t.find('@'); at != std::string_view::npos && t.size() > at + 2 && t[at + 1] == 'u' &&
                             t[at + 2] >= '0' && t[at + 2] <= '9') {
    const int bits = std::stoi(std::string(t.substr(at + 2)));
    if (bits < 1 || bits > 16) return fail("an immediate field has 1..16 bits");
    spec.imm_bits = uint8_t(bits);
    spec.imm_unsigned = true;
    t = t.substr(0, at);
  } else if (at != std::string_view::npos && t.substr(at + 1) == "nolit") {
    spec.no_literal = true;
    t = t.substr(0, at);
  } else if (at != std::string_view::npos && t.substr(at + 1) == "unaligned") {
    spec.unaligned = true;
    t = t.substr(0, at);
  } else if (at != std::string_view::npos) {
    const std::string_view type = t.substr(at + 1);
    if (type == "f16") spec.fp = FloatType::F16;
    else if (type == "bf16") spec.fp = FloatType::BF16;
    else if (type == "f32") spec.fp = FloatType::F32;
    else if (type == "f64") spec.fp = FloatType::F64;
    else if (type != "int") return fail("unknown operand type '@" + std::string(type) + "'");
    typed = true;
    t = t.substr(0, at);
  }
  auto colon = t.find(':');
  if (colon == std::string_view::npos || colon == 0) return fail("missing name:");
  spec.name = t.substr(0, colon);
  std::string_view kind = t.substr(colon + 1);
  const KindCode* match = nullptr;
  for (const auto& kc : kKindCodes) {
    if (kind.substr(0, kc.code.size()) == kc.code) {
      std::string_view rest = kind.substr(kc.code.size());
      if (std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        match = &kc;
        break;
      }
    }
  }
  if (!match) return fail("unknown kind '" + std::string(kind) + "'");
  spec.kind = match->kind;
  std::string_view digits = kind.substr(match->code.size());
  int dwords = 1;
  if (!digits.empty()) dwords = std::stoi(std::string(digits));
  if (dwords < 1 || dwords > 32) return fail("dwords must be 1..32");
  spec.dwords = uint8_t(dwords);
  return spec;
}

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The last type suffix of a mnemonic ("f16" in v_cvt_f32_f16, "u16" in v_add_u16), empty if none.
std::string_view last_type(std::string_view mnemonic) {
  std::string_view last;
  for (size_t pos = 0; pos < mnemonic.size();) {
    size_t us = mnemonic.find('_', pos);
    std::string_view part = mnemonic.substr(pos, us == std::string_view::npos ? std::string_view::npos : us - pos);
    const size_t digits = part.find_first_of("0123456789");
    const std::string_view letters = part.substr(0, digits);
    const bool is_type = pos > 0 && digits != std::string_view::npos && part.find_first_not_of("0123456789", digits) == std::string_view::npos &&
                         (letters == "f" || letters == "bf" || letters == "i" || letters == "u" || letters == "b" || letters == "fp");
    if (is_type) last = part;
    if (us == std::string_view::npos) break;
    pos = us + 1;
  }
  return last;
}

// The float type of a source of an instruction with VOP3 neg/abs (FloatType), unless the .def
// token states it: the last type in the mnemonic, which is the source type in conversions
// (v_cvt_f32_f16: f16, v_cvt_f64_f32: f32, v_cvt_scalef32_pk_f32_fp8: fp8, so none) and the
// operand type elsewhere (v_pack_b32_f16: f16; integer operands such as v_ldexp's exponent and
// v_cmp_class's mask are marked @int in the .def); b32 is an f32 for the modifiers (v_cndmask_b32,
// LLVM's FP32InputMods). An f64 source is a register pair, so a one-dword source of an f64
// instruction is an integer (v_trig_preop_f64's segment). The scale operand of the gfx950
// v_cvt_scalef32_* conversions is an f32. VOP3P sources have per-half neg_lo/neg_hi and the
// v_fma_mix* sources are f16 or f32 by op_sel_hi, so they get no static type; nor do MFMA's.
FloatType derived_source_type(std::string_view mnemonic, Family family, uint32_t mods, const OperandSpec& o) {
  if (!(mods & kModNegAbs) || o.is_def || family == Family::VOP3P || family == Family::MFMA) return FloatType::None;
  if (o.kind != OpKind::VSrc && o.kind != OpKind::VSrcNoLit && o.kind != OpKind::VReg && o.kind != OpKind::SSrc)
    return FloatType::None;
  if (o.name == "scale") return FloatType::F32;
  if (o.name == "seed") return FloatType::None;  // the random bits of a stochastic-rounding conversion
  const std::string_view last = last_type(mnemonic);
  FloatType t = last == "f16" ? FloatType::F16 : last == "bf16" ? FloatType::BF16 : last == "f32" || last == "b32" ? FloatType::F32
              : last == "f64" ? FloatType::F64 : FloatType::None;
  if (t == FloatType::F64 && o.dwords != 2) t = FloatType::None;
  return t;
}


// 16-bit VALU sources (OperandSpec::half): the one-dword sources of a VOP1/VOP2/VOPC/VOP3 row whose
// source type (the mnemonic's last type, as for derived_source_type) is a 16-bit one.
// Packed sources (v_pk_*, v_sat_pk_*, v_cvt_*_pk_*, v_dot*) hold two 16-bit values in one dword: 32-bit.
// v_fma_mix*/v_mad_mix* sources are f16 values to the assembler (LLVM's FP16 input modifiers).
// A source typed @int in the .def is a 32-bit integer to the assembler.
void derive_half(std::string_view mnemonic, Family family, bool typed_int, OperandSpec& o) {
  if (o.is_def || o.dwords != 1 || (o.kind != OpKind::VSrc && o.kind != OpKind::VSrcNoLit && o.kind != OpKind::Imm)) return;
  if (family == Family::VOP3P && mnemonic.find("_mix") != std::string_view::npos) {
    o.half = o.half_float = true;
    return;
  }
  if (family != Family::VOP1 && family != Family::VOP2 && family != Family::VOPC && family != Family::VOP3) return;
  if (typed_int) return;  // LLVM reads these as 32-bit integers (v_ldexp's exponent, v_cmp_class's mask, v_sad_u16)
  if (mnemonic.find("_pk") != std::string_view::npos || starts(mnemonic, "v_dot") || o.name == "scale" || o.name == "seed")
    return;  // the scale of a scaled conversion is an f32, the seed of a stochastic rounding 32 random bits
  const std::string_view t = last_type(mnemonic);
  o.half = t == "f16" || t == "bf16" || t == "i16" || t == "u16" || t == "b16";
  o.half_float = t == "f16";
}

// The class bits a row declares in its flags (instructions.def): the TRANS flag and the class tokens.
uint32_t declared_classes(uint64_t flags) {
  return uint32_t((flags >> kClassShift) & 0xffffff) | ((flags & TRANS) ? kClassTrans : 0u);
}

struct Table {
  std::vector<InstrInfo> entries;
  std::array<size_t, kOpcodeCount> by_opcode{};  // opcode -> index in entries
  std::vector<Opcode> opcodes;                   // parallel to entries
  std::vector<uint32_t> classes;                 // parallel to entries: ClassBits
  std::vector<ImplicitRegs> implicit;            // parallel to entries: registers written or read unnamed
  std::vector<std::array<uint8_t, 2>> passes;       // parallel to entries: gfx942, gfx950
  std::deque<std::vector<OperandSpec>> operand_storage;  // stable addresses for the spans
  std::unordered_map<std::string_view, size_t> by_name;

  Table() {
    std::vector<const RawEntry*> raw;
    for (const auto& r : kRawEntries) raw.push_back(&r);
    std::stable_sort(raw.begin(), raw.end(), [](auto* a, auto* b) { return a->mnemonic < b->mnemonic; });
    entries.reserve(raw.size());
    for (const RawEntry* r : raw) {
      auto& ops = operand_storage.emplace_back();
      std::string_view s = r->operands;
      while (!s.empty()) {
        auto sp = s.find(' ');
        std::string_view tok = s.substr(0, sp);
        bool typed = false;
        if (!tok.empty()) {
          ops.push_back(parse_operand_token(r->mnemonic, tok, typed));
          if (!typed) ops.back().fp = derived_source_type(r->mnemonic, r->family, r->mods, ops.back());
          derive_half(r->mnemonic, r->family, typed && ops.back().fp == FloatType::None, ops.back());
        }
        if (sp == std::string_view::npos) break;
        s.remove_prefix(sp + 1);
      }
      InstrInfo info{};
      info.mnemonic = r->mnemonic;
      const Opcode op = Opcode(r - kRawEntries);  // the enum follows the .def order, as kRawEntries does
      by_opcode[size_t(op)] = entries.size();
      info.family = r->family;
      info.archs = r->archs;
      info.unit = r->unit;
      info.counter = r->counter;
      info.mods = r->mods;
      info.operands = std::span<const OperandSpec>(ops);
      info.mfma_passes = r->passes_gfx942 ? r->passes_gfx942 : r->passes_gfx950;
      info.is_load = r->flags & LOAD;
      info.is_store = r->flags & STORE;
      info.is_trans = r->flags & TRANS;
      info.is_atomic = r->flags & ATOMIC;
      info.reads_vcc = r->flags & READS_VCC;
      info.access_bytes = uint8_t(r->flags >> kBytesShift);
      info.sign_extends = r->flags & SEXT;
      info.d16 = r->flags & D16;
      info.d16_hi = r->flags & D16_HI;
      info.srcc_may_overlap = info.family == Family::MFMA && info.mnemonic.find("f8f6f4") != std::string_view::npos;
      if (info.is_atomic)
        for (const OperandSpec& o : ops)
          if (!o.is_def && (o.name == "data" || o.name == "vdata"))
            info.atomic_result_dwords = uint8_t(info.mnemonic.find("cmpswap") != std::string_view::npos ? o.dwords / 2 : o.dwords);
      if (!by_name.emplace(info.mnemonic, entries.size()).second)
        throw Error("instructions.def: duplicate entry '" + std::string(info.mnemonic) + "'");
      entries.push_back(info);
      passes.push_back({r->passes_gfx942, r->passes_gfx950});
      opcodes.push_back(op);
      classes.push_back(declared_classes(r->flags));
      implicit.push_back({bool(r->flags & WRITES_SCC), bool(r->flags & READS_SCC),
                          bool(r->flags & WRITES_EXEC) || bool(declared_classes(r->flags) & kClassVcmpx),
                          bool(r->flags & WRITES_M0), bool(r->flags & WRITES_MODE), bool(r->flags & READS_M0)});
    }
  }
};

const Table& the_table() {
  static const Table t;
  return t;
}

}  // namespace

std::span<const InstrInfo> table() { return the_table().entries; }

const InstrInfo* find(std::string_view mnemonic) {
  const Table& t = the_table();
  auto it = t.by_name.find(mnemonic);
  return it == t.by_name.end() ? nullptr : &t.entries[it->second];
}

const InstrInfo& info(Opcode op) {
  const Table& t = the_table();
  if (size_t(op) >= kOpcodeCount) throw Error("isa::info: opcode " + std::to_string(size_t(op)) + " is not a table row (valid: 0.." + std::to_string(kOpcodeCount - 1) + ")");
  return t.entries[t.by_opcode[size_t(op)]];
}

namespace {
// Index of a row in the table; a copy of a row is looked up by its mnemonic (-1: not a row).
long row_index(const InstrInfo& row) {
  const Table& t = the_table();
  if (&row >= t.entries.data() && &row < t.entries.data() + t.entries.size()) return long(&row - t.entries.data());
  auto it = t.by_name.find(row.mnemonic);
  return it == t.by_name.end() ? -1 : long(it->second);
}
}  // namespace

Opcode opcode_of(const InstrInfo& row) {
  long i = row_index(row);
  return i < 0 ? Opcode::Count : the_table().opcodes[size_t(i)];
}
uint32_t classes_of(const InstrInfo& row) {
  long i = row_index(row);
  return i < 0 ? 0 : the_table().classes[size_t(i)];
}
ImplicitRegs implicit_regs(const InstrInfo& row) {
  long i = row_index(row);
  ImplicitRegs r = i < 0 ? ImplicitRegs{} : the_table().implicit[size_t(i)];
  r.reads_vcc = row.reads_vcc;
  return r;
}

int mfma_passes(const InstrInfo& info, Arch arch) {
  const Table& t = the_table();
  if (&info < t.entries.data() || &info >= t.entries.data() + t.entries.size())
    return info.on(arch) ? info.mfma_passes : 0;  // a copy, not a table entry
  const auto& p = t.passes[size_t(&info - t.entries.data())];
  return p[arch == Arch::gfx942 ? 0 : 1];
}

std::string_view family_name(Family f) {
  switch (f) {
    case Family::SOP1: return "SOP1";
    case Family::SOP2: return "SOP2";
    case Family::SOPK: return "SOPK";
    case Family::SOPC: return "SOPC";
    case Family::SOPP: return "SOPP";
    case Family::SMEM: return "SMEM";
    case Family::VOP1: return "VOP1";
    case Family::VOP2: return "VOP2";
    case Family::VOP3: return "VOP3";
    case Family::VOPC: return "VOPC";
    case Family::VOP3P: return "VOP3P";
    case Family::MFMA: return "MFMA";
    case Family::DS: return "DS";
    case Family::FLAT: return "FLAT";
    case Family::GLOBAL: return "GLOBAL";
    case Family::MUBUF: return "MUBUF";
    case Family::SCRATCH: return "SCRATCH";
  }
  return "?";
}

std::string_view unit_name(Unit u) {
  switch (u) {
    case Unit::SALU: return "SALU";
    case Unit::VALU: return "VALU";
    case Unit::DS: return "DS";
    case Unit::VMEM: return "VMEM";
    case Unit::SMEM: return "SMEM";
    case Unit::MFMA: return "MFMA";
    case Unit::Branch: return "Branch";
    case Unit::Waitcnt: return "Waitcnt";
    case Unit::Nop: return "Nop";
    case Unit::Barrier: return "Barrier";
    case Unit::Misc: return "Misc";
  }
  return "?";
}

std::string_view counter_name(Counter c) {
  switch (c) {
    case Counter::None: return "none";
    case Counter::Vm: return "vmcnt";
    case Counter::Lgkm: return "lgkmcnt";
    case Counter::VmLgkm: return "vmcnt+lgkmcnt";
  }
  return "?";
}

}  // namespace cdnajit::isa
