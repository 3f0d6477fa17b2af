// Decoding a kernel once: instruction words -> table row and operands (the binary decoder,
// decode_binary.hpp) -> operands resolved to register-file indices / constants -> Op with a
// handler from the registry. The LLVM text path (LLVM-C disassembler -> text -> isa::parse) is
// kept only as the test oracle (see LlvmText).
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>

#include "jit/isa/machine_inst.hpp"
#include "runtime/sim/decode_binary.hpp"
#include "runtime/sim/decode_paths.hpp"
#include "runtime/sim/sdwa.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

uint8_t counter_code(const isa::InstrInfo& row) {
  switch (row.counter) {
    case isa::Counter::Vm: return 1;
    case isa::Counter::Lgkm: return row.unit == isa::Unit::SMEM ? 3 : 2;
    case isa::Counter::VmLgkm: return 4;
    case isa::Counter::None: return 0;
  }
  return 0;
}
namespace {

std::mutex g_llvm_mutex;

struct Parsed {
  std::string mnemonic;
  std::vector<std::string> operands;
  std::vector<std::string> mods;
};

std::string trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && (s[a] == ' ' || s[a] == '\t')) ++a;
  while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t')) --b;
  return std::string(s.substr(a, b - a));
}

Parsed split(std::string_view text) {
  Parsed p;
  std::string t = trim(text);
  size_t sp = t.find(' ');
  p.mnemonic = t.substr(0, sp);
  if (sp == std::string::npos) return p;
  std::string rest = t.substr(sp + 1);
  // Split by top-level commas.
  std::vector<std::string> pieces;
  int depth = 0;
  std::string cur;
  for (char c : rest) {
    if (c == '[' || c == '(') depth++;
    if (c == ']' || c == ')') depth--;
    if (c == ',' && depth == 0) { pieces.push_back(trim(cur)); cur.clear(); continue; }
    cur += c;
  }
  pieces.push_back(trim(cur));
  // The last piece may carry space-separated modifiers after the operand.
  std::string last = pieces.back();
  pieces.pop_back();
  std::vector<std::string> words;
  depth = 0;
  cur.clear();
  for (char c : last) {
    if (c == '[' || c == '(') depth++;
    if (c == ']' || c == ')') depth--;
    if (c == ' ' && depth == 0) { if (!cur.empty()) words.push_back(cur); cur.clear(); continue; }
    cur += c;
  }
  if (!cur.empty()) words.push_back(cur);
  auto is_mod = [](const std::string& w) {
    size_t c = w.find(':');
    bool keyed = c != std::string::npos && c > 0 &&
                 std::all_of(w.begin(), w.begin() + long(c), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; });
    return keyed || w == "sc0" || w == "sc1" || w == "nt" || w == "glc" || w == "slc" ||
           w == "lds" || w == "offen" || w == "idxen" || w == "clamp" || w == "off" + std::string("set") || w == "addr64" ||
           w == "lwe" || w == "tfe" || w == "dlc" || w == "gds";
  };
  size_t i = 0;
  if (!words.empty() && (!pieces.empty() || !is_mod(words[0]))) { pieces.push_back(words[0]); i = 1; }
  for (; i < words.size(); ++i) p.mods.push_back(words[i]);
  p.operands = std::move(pieces);
  return p;
}

bool parse_int(const std::string& s, int64_t& v) {
  if (s.empty()) return false;
  try {
    size_t n = 0;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) v = int64_t(std::stoull(s, &n, 16));
    else if (s.size() > 3 && s[0] == '-' && s[1] == '0' && s[2] == 'x') v = int64_t(0 - std::stoull(s.substr(1), &n, 16)), n += 1;  // unsigned negation: no overflow
    else v = std::stoll(s, &n, 10);
    return n == s.size();
  } catch (...) {
    return false;
  }
}

uint16_t f32_to_f16_bits(float f);

// Inline float constant in the operand type.
uint64_t float_const(double d, FType ft) {
  bool inv2pi = std::fabs(std::fabs(d) - 0.15915494) < 1e-7;
  switch (ft) {
    case FType::F64: {
      double x = inv2pi ? (d < 0 ? -0.15915494309189532 : 0.15915494309189532) : d;
      return as_u64(x);
    }
    case FType::F16: {
      if (inv2pi) return 0x3118;
      return f32_to_f16_bits(float(d));
    }
    case FType::BF16:  // a bf16 operand's inline constant is the bf16 value (the high half of the f32)
      if (inv2pi) return 0x3e22;
      return as_u(float(d)) >> 16;
    default:
      if (inv2pi) return 0x3e22f983u;
      return as_u(float(d));
  }
}

uint16_t f32_to_f16_bits(float f) {
  // Only used for exact inline constants (0.5, 1, 2, 4 and negatives).
  _Float16 h = static_cast<_Float16>(f);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

bool parse_reg(const std::string& t, Src& s) {
  auto range = [&](size_t pos, uint16_t& first, uint8_t& n) {
    if (t[pos] == '[') {
      size_t c = t.find(':', pos), e = t.find(']', pos);
      if (c == std::string::npos || e == std::string::npos) return false;
      int64_t a, b;
      if (!parse_int(t.substr(pos + 1, c - pos - 1), a) || !parse_int(t.substr(c + 1, e - c - 1), b)) return false;
      if (e + 1 != t.size() || b < a || a < 0 || b - a > 31) return false;
      first = uint16_t(a); n = uint8_t(b - a + 1);
      return true;
    }
    int64_t a;
    if (!parse_int(t.substr(pos), a) || a < 0) return false;
    first = uint16_t(a); n = 1;
    return true;
  };
  struct Named { const char* name; uint16_t idx; uint8_t n; };
  static const Named named[] = {
      {"vcc", kVccLo, 2}, {"vcc_lo", kVccLo, 1}, {"vcc_hi", kVccHi, 1}, {"exec", kExecLo, 2},
      {"exec_lo", kExecLo, 1}, {"exec_hi", kExecHi, 1}, {"m0", kM0, 1}, {"flat_scratch", kFlatScrLo, 2},
      {"flat_scratch_lo", kFlatScrLo, 1}, {"flat_scratch_hi", kFlatScrLo + 1, 1}, {"xnack_mask", kXnackLo, 2},
      {"xnack_mask_lo", kXnackLo, 1}, {"xnack_mask_hi", kXnackLo + 1, 1}};
  for (auto& n : named)
    if (t == n.name) { s.k = SrcKind::S; s.idx = n.idx; s.n = n.n; return true; }
  if (t == "scc" || t == "src_scc") { s.k = SrcKind::Scc; return true; }
  if (t == "execz" || t == "src_execz") { s.k = SrcKind::Execz; return true; }
  if (t == "vccz" || t == "src_vccz") { s.k = SrcKind::Vccz; return true; }
  if (t.size() < 2) return false;
  if (t.rfind("ttmp", 0) == 0) {
    if (!range(4, s.idx, s.n)) return false;
    s.k = SrcKind::S; s.idx += kTtmp0;
    return true;
  }
  char c = t[0];
  if (c != 'v' && c != 's' && c != 'a') return false;
  if (!range(1, s.idx, s.n)) return false;
  if (c == 's') { if (s.idx + s.n > kSgprCount) return false; s.k = SrcKind::S; }
  else { if (s.idx + s.n > 256) return false; s.k = SrcKind::V; if (c == 'a') s.idx += 256; }
  return true;
}

FType operand_ftype(isa::FloatType fp, FType instruction) {
  switch (fp) {
    case isa::FloatType::F16: return FType::F16;
    case isa::FloatType::BF16: return FType::BF16;
    case isa::FloatType::F32: return FType::F32;
    case isa::FloatType::F64: return FType::F64;
    // An untyped source of a bf16 instruction (MFMA) keeps the f32 encoding of inline constants.
    default: return instruction == FType::BF16 ? FType::F32 : instruction;
  }
}

// One operand: register, special, constant (with -, |..|, neg(), abs()).
bool parse_operand(std::string t, Src& s, FType ft, bool& is_off) {
  is_off = false;
  if (t == "off") { is_off = true; s.k = SrcKind::None; return true; }
  bool neg = false, abs = false;
  if (t.rfind("neg(", 0) == 0 && t.back() == ')') { neg = true; t = t.substr(4, t.size() - 5); }
  if (t.size() > 1 && t[0] == '-' && !(t[1] >= '0' && t[1] <= '9')) { neg = true; t = t.substr(1); }
  if (t.rfind("abs(", 0) == 0 && t.back() == ')') { abs = true; t = t.substr(4, t.size() - 5); }
  if (t.size() > 2 && t[0] == '|' && t.back() == '|') { abs = true; t = t.substr(1, t.size() - 2); }
  if (parse_reg(t, s)) { s.neg = neg; s.abs = abs; return true; }
  int64_t iv;
  if (parse_int(t, iv)) {
    s.k = SrcKind::Const;
    bool hex = t.find("0x") != std::string::npos;
    if (hex) s.val = uint64_t(iv) & 0xffffffffu;  // 32-bit literal (zero-extended)
    else s.val = uint64_t(iv);                   // inline integer constant: sign-extended
    if (ft == FType::F64 && hex) s.val <<= 32;   // f64 literal supplies the high dword
    s.neg = neg; s.abs = abs;
    return true;
  }
  char* end = nullptr;
  double d = std::strtod(t.c_str(), &end);
  if (end && *end == 0 && !t.empty()) {
    s.k = SrcKind::Const;
    s.val = float_const(d, ft);
    s.neg = neg; s.abs = abs;
    return true;
  }
  return false;
}

uint8_t parse_bits(const std::string& v) {  // "[1,0,1]"
  uint8_t r = 0;
  int i = 0;
  for (char c : v) {
    if (c == '0' || c == '1') { if (c == '1') r |= uint8_t(1u << i); }
    if (c == ',') i++;
  }
  return r;
}

uint8_t sdwa_sel(const std::string& v) {
  static const char* names[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"};
  for (int i = 0; i < 7; ++i)
    if (v == names[i]) return uint8_t(i);
  return 255;
}

// Number of leading destination operands in the asm syntax, from the instruction table: the
// row's defs (listed first), plus the old value a VMEM atomic returns under sc0/glc, minus the
// data register an LDS-DMA load (lds modifier) does not write; when LLVM prints fewer operands
// than the row has (an implicit vcc of the _co_ forms), the omitted ones are defs. An
// instruction the table lacks (no semantics unless registered by name) takes one destination.
int dest_count(const isa::InstrInfo* info, int n_operands, bool sc0, bool lds) {
  if (n_operands == 0) return 0;
  if (!info) return 1;
  int defs = 0, uses = 0;
  for (const auto& s : info->operands) (s.is_def ? defs : uses) += 1;
  const bool vmem = info->family == isa::Family::FLAT || info->family == isa::Family::GLOBAL ||
                    info->family == isa::Family::MUBUF || info->family == isa::Family::SCRATCH;
  if (vmem && info->is_atomic && sc0) return defs + 1;
  if (info->family == isa::Family::MUBUF && lds) return 0;
  if (n_operands < defs + uses) defs = std::max(0, std::min(defs, n_operands - uses));
  return defs;
}

// isa::Operand (from the shared parser) -> Src. Returns false for operands the
// simulator has no use for (labels, unknown specials).
bool from_isa_operand(const isa::Operand& o, FType ft, Src& s) {
  using K = isa::Operand::Kind;
  s = Src{};
  s.neg = o.neg;
  s.abs = o.abs;
  switch (o.kind) {
    case K::Reg:
      s.n = o.dwords;
      if (o.file == isa::RegFile::SGPR) {
        // The binary decoder gives trap temporaries and xnack_mask halves as scalar-file registers
        // at their encoding (108-123, 104-105); isa::parse never returns those indices.
        const bool named_file = o.index >= kSgprCount && o.index + o.dwords <= kSFileSize;
        if (o.index + o.dwords > kSgprCount && !named_file) return false;
        s.k = SrcKind::S; s.idx = o.index;
      } else {
        if (o.index + o.dwords > 256) return false;
        s.k = SrcKind::V; s.idx = uint16_t(o.index + (o.file == isa::RegFile::AGPR ? 256 : 0));
      }
      return true;
    case K::Special: {
      using R = isa::SpecialReg;
      s.k = SrcKind::S;
      switch (o.special) {
        case R::VCC: s.idx = kVccLo; s.n = 2; return true;
        case R::VCC_LO: s.idx = kVccLo; return true;
        case R::VCC_HI: s.idx = kVccHi; return true;
        case R::EXEC: s.idx = kExecLo; s.n = 2; return true;
        case R::EXEC_LO: s.idx = kExecLo; return true;
        case R::EXEC_HI: s.idx = kExecHi; return true;
        case R::M0: s.idx = kM0; return true;
        case R::FLAT_SCRATCH: s.idx = kFlatScrLo; s.n = 2; return true;
        case R::FLAT_SCRATCH_LO: s.idx = kFlatScrLo; return true;
        case R::FLAT_SCRATCH_HI: s.idx = kFlatScrLo + 1; return true;
        case R::XNACK_MASK: s.idx = kXnackLo; s.n = 2; return true;
        // Apertures read as 64-bit base addresses (LLVM reads them with s_mov_b64 and uses the high dword).
        case R::SRC_SHARED_BASE: s.k = SrcKind::Const; s.val = uint64_t(kSharedApertureHi) << 32; return true;
        case R::SRC_PRIVATE_BASE: s.k = SrcKind::Const; s.val = uint64_t(kPrivateApertureHi) << 32; return true;
        case R::SRC_SHARED_LIMIT: s.k = SrcKind::Const; s.val = (uint64_t(kSharedApertureHi) << 32) | 0xffffffffu; return true;
        case R::SRC_PRIVATE_LIMIT: s.k = SrcKind::Const; s.val = (uint64_t(kPrivateApertureHi) << 32) | 0xffffffffu; return true;
        case R::SCC: case R::SRC_SCC: s.k = SrcKind::Scc; return true;
        case R::SRC_EXECZ: s.k = SrcKind::Execz; return true;
        case R::SRC_VCCZ: s.k = SrcKind::Vccz; return true;
        default: return false;
      }
    }
    case K::Imm:
      s.k = SrcKind::Const;
      s.val = uint64_t(o.imm);
      if (o.imm > 64 || o.imm < -16) {  // a literal: 32 bits
        s.val &= 0xffffffffu;
        if (ft == FType::F64) s.val <<= 32;  // f64 literal supplies the high dword
      }
      return true;
    case K::FImm:
      s.k = SrcKind::Const;
      s.val = float_const(double(as_f(uint32_t(o.imm))), ft);
      return true;
    case K::Off:
      s.k = SrcKind::None;
      return true;
    default:
      return false;
  }
}

void apply_mods_word(const std::string& w, Op& op, bool& ok);

// SDWA operands may be written sext(vN). Neither parser knows that wrapper, so it is removed
// from the text before parsing; bit j of the result = asm operand j had it.
uint32_t strip_sext(std::string& text) {
  Parsed p = split(text);
  uint32_t mask = 0;
  for (size_t j = 0; j < p.operands.size() && j < 32; ++j) {
    const std::string& o = p.operands[j];
    if (o.size() > 6 && o.rfind("sext(", 0) == 0 && o.back() == ')') mask |= 1u << j;
  }
  if (!mask) return 0;
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text.compare(i, 5, "sext(") == 0) {
      size_t close = text.find(')', i);
      if (close == std::string::npos) return 0;  // malformed: leave it to the parsers to reject
      out += text.substr(i + 5, close - i - 5);
      i = close + 1;
    } else {
      out += text[i++];
    }
  }
  text = std::move(out);
  return mask;
}

}  // namespace

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
  return b;
}

namespace {
void apply_mods_word(const std::string& w, Op& op, bool& ok) {
  size_t c = w.find(':');
  std::string key = w.substr(0, c), val = c == std::string::npos ? "" : w.substr(c + 1);
  int64_t iv = 0;
  if (key == "offset" && parse_int(val, iv)) op.offset = int32_t(iv);
  else if (key == "offset0" && parse_int(val, iv)) op.offset0 = int32_t(iv);
  else if (key == "offset1" && parse_int(val, iv)) op.offset1 = int32_t(iv);
  else if (key == "clamp") op.clamp = true;
  else if (key == "lds") op.lds = true;
  else if (key == "offen") op.offen = true;
  else if (key == "idxen") op.idxen = true;
  else if (key == "mul" && parse_int(val, iv)) op.omod = iv == 2 ? 1 : 2;
  else if (key == "div") op.omod = 3;
  else if (key == "op_sel") op.op_sel = parse_bits(val);
  else if (key == "op_sel_hi") op.op_sel_hi = parse_bits(val), op.op_sel_hi_set = true;
  else if (key == "neg_lo") op.neg_lo = parse_bits(val);
  else if (key == "neg_hi") op.neg_hi = parse_bits(val);
  else if (key == "cbsz" && parse_int(val, iv)) op.cbsz = uint8_t(iv);
  else if (key == "abid" && parse_int(val, iv)) op.abid = uint8_t(iv);
  else if (key == "blgp" && parse_int(val, iv)) op.blgp = uint8_t(iv);
  else if (key == "dst_sel") op.sdwa_dst_sel = sdwa_sel(val);
  else if (key == "dst_unused") op.sdwa_dst_unused = val == "UNUSED_PAD" ? 0 : val == "UNUSED_SEXT" ? 1 : 2;
  else if (key == "src0_sel") op.sdwa_src_sel[0] = sdwa_sel(val);
  else if (key == "src1_sel") op.sdwa_src_sel[1] = sdwa_sel(val);
  else if (key == "bitop3" && parse_int(val, iv)) op.imm = uint32_t(iv);
  else if (key == "quad_perm") {
    uint32_t v = 0; int i = 0;
    for (char ch : val) if (ch >= '0' && ch <= '3') v |= uint32_t(ch - '0') << (2 * i++);
    op.dpp_ctrl = uint16_t(v);
  }
  else if (key == "row_shl" && parse_int(val, iv)) op.dpp_ctrl = uint16_t(0x100 | (iv & 15));
  else if (key == "row_shr" && parse_int(val, iv)) op.dpp_ctrl = uint16_t(0x110 | (iv & 15));
  else if (key == "row_ror" && parse_int(val, iv)) op.dpp_ctrl = uint16_t(0x120 | (iv & 15));
  else if (key == "wave_shl") op.dpp_ctrl = 0x130;
  else if (key == "wave_rol") op.dpp_ctrl = 0x134;
  else if (key == "wave_shr") op.dpp_ctrl = 0x138;
  else if (key == "wave_ror") op.dpp_ctrl = 0x13c;
  else if (key == "row_mirror") op.dpp_ctrl = 0x140;
  else if (key == "row_half_mirror") op.dpp_ctrl = 0x141;
  else if (key == "row_bcast" && parse_int(val, iv)) op.dpp_ctrl = iv == 15 ? 0x142 : 0x143;
  else if (key == "row_newbcast" && parse_int(val, iv) && iv >= 0 && iv <= 15) op.dpp_ctrl = uint16_t(0x150 | iv);
  else if (key == "row_mask" && parse_int(val, iv)) op.row_mask = uint8_t(iv);
  else if (key == "bank_mask" && parse_int(val, iv)) op.bank_mask = uint8_t(iv);
  else if (key == "bound_ctrl") op.bound_ctrl = true;
  else if (key == "sc0" || key == "glc") {}  // read where needed (dest_count); op.sc0 comes from the shared parser
  else if (key == "sc1" || key == "slc") op.sc1 = true;
  else if (key == "nt") op.nt = true;
  else if (key == "format") {}  // MTBUF: read from the encoding instead (Op::imm, see decode_kernel)
  else ok = false;
    }
// Encodings LLVM 22's AMDGPU disassembler crashes on (SIGSEGV in its diagnostic
// path; each row's bytes also kill `llvm-mc-22 --disassemble -mcpu=gfx942`). None
// is valid code, so they are undecodable without asking LLVM (an error if executed).
// A pattern is a set of bit fields of the instruction's first two dwords (word 0,
// word 1) that must all hold the given values, and optionally one that must not.
struct BitMatch {
  uint64_t mask = 0, value = 0;  // over word 0 (bits 31:0) and word 1 (bits 63:32)
  bool matches(uint64_t dwords) const { return mask != 0 && (dwords & mask) == value; }
};
constexpr BitMatch bits(int word, int hi, int lo, uint64_t value) {
  const int shift = 32 * word + lo;
  return {((uint64_t(1) << (hi - lo + 1)) - 1) << shift, value << shift};
}
constexpr BitMatch operator&(BitMatch a, BitMatch b) { return {a.mask | b.mask, a.value | b.value}; }

struct CrashPattern {
  BitMatch match;
  BitMatch unless = {};  // none when empty
};

// Encoding classes (word 0): VOP3 / VOP3P / VOP3-encoded VOPC have bits 31:26 = 110100;
// SDWA is a VOP1 / VOP2 / VOPC (bit 31 = 0) whose src0 field (bits 8:0) is 0xF9, with
// opcode field bits 30:25 = 0x3F for VOP1 and 0x3E for VOPC. Reproducers are the files of
// tests/fuzz/reproducers/fuzz_decoder/ (replayed by ctest fuzz_reproducers.fuzz_decoder).
constexpr BitMatch kVop3 = bits(0, 31, 26, 0x34);
constexpr BitMatch kSdwa = bits(0, 31, 31, 0) & bits(0, 8, 0, 0xf9);
constexpr CrashPattern kLlvmCrashes[] = {
    // MUBUF with SOFFSET (word 1 bits 31:24) 255, the literal code it cannot take:
    // "0x00 0x00 0x00 0xe0 0x00 0x00 0x00 0xff" (mubuf-literal-soffset-gfx942).
    {bits(0, 31, 26, 0x38) & bits(1, 31, 24, 0xff)},
    // MTBUF, likewise: fuzz_decoder-crash-d5ccd55e..., mtbuf-literal-soffset-gfx942 and -gfx950.
    {bits(0, 31, 26, 0x3a) & bits(1, 31, 24, 0xff)},
    // VOP3 naming the literal constant (255) as src0, src1 or src2 (word 1 bits 8:0, 17:9,
    // 26:18; GFX9 VOP3 has no literals, and an unused source field holds 0):
    {kVop3 & bits(1, 8, 0, 0xff)},    // fuzz_decoder-crash-cf4f58b9... (v_fma_f32), -050551fd...
                                      // (a VOP3P cut off by the end of the code, zero-padded)
    {kVop3 & bits(1, 17, 9, 0xff)},   // vop3-literal-src1-gfx942
    {kVop3 & bits(1, 26, 18, 0xff)},  // vop3-literal-src2-gfx942
    // VOPC in the VOP3 encoding (opcode, word 0 bits 25:16, below 0x100) whose scalar
    // destination (word 0 bits 7:0) is 255: fuzz_decoder-crash-ba73cfc5...
    {kVop3 & bits(0, 25, 24, 0) & bits(0, 7, 0, 0xff)},
    // VOP2 v_madmk_f16 / v_madak_f16 (word 0 bits 31:25 = 0x24 / 0x25, so bits 31:26 = 0x12)
    // whose 32-bit constant K (word 1) is exactly 0xff (K = 0xfe, 0x1ff, 0xffff decode):
    // fuzz_decoder-crash-0abab94f...
    {bits(0, 31, 26, 0x12) & bits(1, 31, 0, 0xff)},
    // SDWA with an operand select of 7 (valid: 0..6 = BYTE_0..DWORD): dst_sel (word 1 bits
    // 10:8; a VOPC holds its sdst there instead), src0_sel (18:16), src1_sel (26:24; a VOP1
    // has no src1).
    {kSdwa & bits(1, 10, 8, 7), bits(0, 30, 25, 0x3e)},   // fuzz_decoder-crash-308742c8... (VOP2),
                                                          // sdwa-vop1-dst-sel7-gfx942
    {kSdwa & bits(1, 18, 16, 7)},                         // sdwa-vop1-src0-sel7-gfx942,
                                                          // sdwa-vopc-src0-sel7-gfx942
    {kSdwa & bits(1, 26, 24, 7), bits(0, 30, 25, 0x3f)},  // sdwa-vopc-src1-sel7-gfx950
};

bool llvm_crashes_on(const uint8_t* p, uint64_t available) {
  if (available < 8) return false;
  uint64_t dwords;
  std::memcpy(&dwords, p, 8);  // little-endian: word 0 in bits 31:0
  for (const CrashPattern& c : kLlvmCrashes)
    if (c.match.matches(dwords) && !c.unless.matches(dwords)) return true;
  return false;
}

}  // namespace

namespace {
// One instruction as a decoder delivers it, before it is bound to its handler: the binary decoder
// (decode_binary.hpp) fills `mi` and the controls of `bin`; the LLVM text path fills `text` and
// `p`, and `mi` when isa::parse understands the text.
struct Form {
  std::string text;
  uint32_t pc = 0, size = 0;
  bool undecodable = false;   // no instruction: `text` says why (an error only if executed)
  std::string base;           // text path: the mnemonic without its encoding suffix
  bool e64 = false, sdwa = false, dpp = false;
  bool shared = false;        // `mi` holds the operands and modifiers
  isa::MachineInst mi;
  Parsed p;                   // text path: the text split into operands and modifier words
  uint32_t sext_operands = 0; // text path: bit j = asm operand j was written sext(...)
  bool binary = false;        // from the binary decoder: `bin` holds the SDWA / DPP controls
  BinaryInst bin;
};

// ------------------------------------------------------------------ the LLVM text path
// Deliberate independent re-implementation used as a test oracle, do not merge away: LLVM-C's
// disassembler -> text -> isa::parse (or the private parser above). decode_kernel() does not use
// it; decode_kernel_llvm_text() decodes a whole kernel this way so that tests compare the two
// (tests/sim/test_decode_oracle.cpp, CDNAJIT_DECODE_ORACLE=1).
class LlvmText {
 public:
  LlvmText(Arch arch, const uint8_t* code, uint64_t code_size) : code_size_(code_size), lock_(g_llvm_mutex) {
    static bool inited = [] {
      LLVMInitializeAMDGPUTargetInfo();
      LLVMInitializeAMDGPUTargetMC();
      LLVMInitializeAMDGPUDisassembler();
      return true;
    }();
    (void)inited;
    // One disassembler per arch for the process (creating one costs milliseconds,
    // more than decoding a kernel); used only under g_llvm_mutex.
    // Never destroyed: the contexts live as long as the process (no leak at exit).
    static auto* contexts = new std::map<Arch, LLVMDisasmContextRef>;
    LLVMDisasmContextRef& ctx = (*contexts)[arch];
    if (!ctx) {
      std::string cpu(arch_name(arch));
      ctx = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", cpu.c_str(), nullptr, 0, nullptr, nullptr);
      if (!ctx) throw Error("simulator: LLVM has no AMDGPU disassembler for " + cpu);
    }
    ctx_ = ctx;
    // The disassembler never sees a range that ends mid-instruction: LLVM 22's
    // AMDGPU decoder crashes (SIGSEGV in its diagnostic path) when the bytes run out
    // inside an instruction or its literal. It gets a zero-padded copy and the
    // padded length; an instruction that only decodes by using the padding is
    // treated as undecodable below.
    padded_.assign(code, code + code_size);
    padded_.resize(padded_.size() + kPad, 0);
  }
  // The instruction at byte `off`: its text (a placeholder in <...> when it is none) and size.
  std::pair<std::string, uint64_t> at(uint64_t off) {
    char buf[512];
    const uint8_t* base = padded_.data();
    // The guard sees the bytes LLVM is given, the zero padding included (an instruction cut
    // off by the end of the code is completed with zeros there).
    size_t n = llvm_crashes_on(base + off, code_size_ - off + kPad)
                   ? 0
                   : LLVMDisasmInstruction(ctx_, const_cast<uint8_t*>(base + off), code_size_ - off + kPad, off, buf, sizeof buf);
    if (n > code_size_ - off) {
      // Decoded only thanks to the padding: the code ends mid-instruction. A placeholder that
      // says so (an error only if executed; unbound_reason prints it).
      std::snprintf(buf, sizeof buf,
                    "<kernel code ends mid-instruction at pc 0x%llx (%llu of %zu bytes present; the .text or symbol size ends there)>",
                    (unsigned long long)off, (unsigned long long)(code_size_ - off), n);
      n = code_size_ - off;
    } else if (n == 0) {
      // Not a valid instruction: keep a 4-byte placeholder that fails only if executed.
      uint32_t word = 0;
      std::memcpy(&word, base + off, std::min<uint64_t>(4, code_size_ - off));
      std::snprintf(buf, sizeof buf, "<undecodable 0x%08x>", word);
      n = std::min<uint64_t>(4, code_size_ - off);
    }
    return {trim(buf), n};
  }

 private:
  static constexpr size_t kPad = 32;
  uint64_t code_size_;
  std::lock_guard<std::mutex> lock_;
  LLVMDisasmContextRef ctx_ = nullptr;
  std::vector<uint8_t> padded_;
};

Form form_from_text(std::string text, uint32_t pc, uint32_t size) {
  Form f;
  f.text = std::move(text);
  f.pc = pc;
  f.size = size;
  std::string ptext = f.text;  // the text the operand parsers see
  f.sext_operands = strip_sext(ptext);
  f.p = split(ptext);
  const std::string& m = f.p.mnemonic;
  // An undecodable word (LLVM prints nothing or <unknown>) has no semantics. The gfx10+ padding
  // word 0xbf9f0000 is one of these on gfx942/gfx950: llvm-mc-22 reports it as an invalid encoding.
  if (m.empty() || m[0] == '<') { f.undecodable = true; return f; }
  f.base = m;
  for (const char* suf : {"_e32", "_e64", "_sdwa", "_dpp"}) {
    size_t L = std::strlen(suf);
    if (f.base.size() > L && f.base.compare(f.base.size() - L, L, suf) == 0) {
      if (std::string(suf) == "_sdwa") f.sdwa = true;
      if (std::string(suf) == "_e64") f.e64 = true;
      if (std::string(suf) == "_dpp") f.dpp = true;
      f.base.resize(f.base.size() - L);
    }
  }
  f.mi.address = pc;
  std::string perr;
  f.shared = isa::parse(ptext, f.mi, perr) && f.mi.operands.size() == f.p.operands.size();
  return f;
}

// ------------------------------------------------------------------ the binary path

Form form_from_binary(BinaryInst&& b, uint32_t pc) {
  Form f;
  f.pc = pc;
  f.size = b.size;
  f.e64 = b.e64;
  f.sdwa = b.sdwa;
  f.dpp = b.dpp;
  f.shared = true;
  f.binary = true;
  f.text = listing(b);
  f.mi = std::move(b.mi);
  f.bin = std::move(b);  // its controls (its instruction now lives in f.mi)
  return f;
}

// ------------------------------------------------------------------ binding

void bind_op(Op& op, const Form& f, const Registry& reg, const DecodedKernel& dk, const uint8_t* code, uint64_t code_size,
          const std::function<std::string(int64_t)>& bad_target, const std::string& kernel) {
  op.text = f.text;
  auto where = [&] { return "kernel " + kernel + " pc " + hex(op.pc) + " '" + op.text + "'"; };
  if (f.undecodable) { op.fn = nullptr; return; }
  if (f.sdwa) op.sdwa = true;
  if (f.e64) op.e64 = true;
  if (f.dpp) op.inner = &dpp_exec;  // marker, fixed up below
  // Semantics by opcode: the table row's enumerator indexes the registry; its unit and wait
  // counter come from the row.
  const isa::InstrInfo* row = f.binary ? f.mi.info : isa::find(f.base);
  const OpDef* def = row ? &reg.by_opcode[size_t(isa::opcode_of(*row))] : nullptr;
  if (!def || !def->fn) {
    // Undecodable at run time only matters if executed: keep it as an "unimplemented" op.
    op.fn = nullptr;
    op.unit = isa::Unit::Misc;
    op.info = row;  // for the reason a row is refused (unbound_reason)
    return;
  }
  const size_t opcode = size_t(isa::opcode_of(*row));
  op.fn = def->fn;
  op.unit = row->unit;
  op.ft = def->ft;
  op.counter = counter_code(*row);
  op.aux = def->aux;
  op.moded = reg.moded[opcode];
  op.mode_free = reg.mode_free.test(opcode);
  // Operands and modifiers: from the binary decoder or the shared isa::parse; the private parser
  // as the text path's fallback.
  const isa::MachineInst& mi = f.mi;
  const bool shared = f.shared;
  const size_t n_operands = f.binary ? mi.operands.size() : f.p.operands.size();
  if (mi.info) op.unit = mi.info->unit;  // classification from the ISA table when it knows the instruction
  op.info = mi.info;
  bool ok = true;
  op.private_parse = !shared;
  if (shared) {
    const auto& m = mi.mods;
    op.offset = m.offset; op.offset0 = m.offset0; op.offset1 = m.offset1;
    op.clamp = m.clamp; op.lds = m.lds; op.offen = m.offen; op.idxen = m.idxen; op.omod = m.omod;
    op.sc0 = m.sc0;
    op.sc1 = m.sc1;
    op.nt = m.nt;
    op.op_sel = m.op_sel; op.neg_lo = m.neg_lo; op.neg_hi = m.neg_hi;
    if (m.op_sel_hi_set) op.op_sel_hi = m.op_sel_hi, op.op_sel_hi_set = true;
    op.cbsz = m.cbsz; op.abid = m.abid; op.blgp = m.blgp;
    const std::string& extra = m.extra;
    size_t a = 0;
    while (ok && a < extra.size()) {
      size_t b = extra.find(' ', a);
      if (b == std::string::npos) b = extra.size();
      if (b > a) apply_mods_word(extra.substr(a, b - a), op, ok);
      a = b + 1;
    }
  } else {
    for (const auto& w : f.p.mods) { apply_mods_word(w, op, ok); if (!ok) break; }
  }
  if (f.binary) {  // SDWA / DPP controls straight from the encoding
    const BinaryInst& c = f.bin;
    if (f.sdwa) {
      op.sdwa_dst_sel = c.dst_sel; op.sdwa_dst_unused = c.dst_unused;
      op.sdwa_src_sel[0] = c.src_sel[0]; op.sdwa_src_sel[1] = c.src_sel[1];
      op.sdwa_sext = c.sext;
    }
    if (f.dpp) {
      op.dpp_ctrl = c.dpp_ctrl; op.row_mask = c.row_mask; op.bank_mask = c.bank_mask; op.bound_ctrl = c.bound_ctrl;
    }
    if (c.has_bitop3) op.imm = c.bitop3;
  }
  if (!ok) op.fn = nullptr;  // unknown modifier: refuse to guess
  if (op.sdwa && (op.sdwa_dst_sel == 255 || op.sdwa_src_sel[0] == 255 || op.sdwa_src_sel[1] == 255)) op.fn = nullptr;
  if (op.sdwa && row && reg.sdwa_direct.test(opcode)) {  // its handler reads lanes directly: select around it
    op.inner = op.fn;
    op.fn = &sdwa_direct_exec;
  }
  if (!op.fn) return;
  // SOPP immediates come from the encoding (simm16 = low 16 bits); the table says which
  // instructions are SOPP and which operand is a branch target.
  uint32_t word0 = 0;  // the instruction's first dword (every decoded instruction has at least 4 bytes)
  std::memcpy(&word0, code + op.pc, std::min<uint64_t>(4, code_size - op.pc));
  const bool is_branch = row && !row->operands.empty() && row->operands[0].kind == isa::OpKind::Label &&
                         row->family == isa::Family::SOPP;
  if (row && row->family == isa::Family::SOPP && n_operands != 0) {
    op.imm = word0 & 0xffff;
    if (is_branch) {
      int64_t tgt = int64_t(op.pc) + 4 + int64_t(int16_t(op.imm)) * 4;
      auto t = dk.pc_to_index.find(uint32_t(tgt));
      if (tgt < 0 || t == dk.pc_to_index.end())
        throw Error("simulator: " + where() + ": " + bad_target(tgt));
      op.target = t->second;
    }
    return;
  }
  // MTBUF (word 0 bits 31:26 = 111010): the instruction's data / number format, DFMT word 0 [22:19] and
  // NFMT [25:23], as dfmt | nfmt << 4 (ops_buffer_format.cpp).
  if ((word0 >> 26) == 0x3a) op.imm = (word0 >> 19) & 0x7f;
  const bool sc0 = shared ? mi.mods.sc0 : std::any_of(f.p.mods.begin(), f.p.mods.end(), [](const std::string& w) { return w == "sc0" || w == "glc"; });
  const bool lds = shared ? mi.mods.lds : std::find(f.p.mods.begin(), f.p.mods.end(), "lds") != f.p.mods.end();
  int nd = dest_count(row, int(n_operands), sc0, lds);
  if (nd > int(n_operands)) nd = int(n_operands);
  if (n_operands - nd > 5 || nd > 2) throw Error("simulator: " + where() + ": too many operands");
  for (size_t j = 0; j < n_operands; ++j) {
    Src s;
    bool is_off = false;
    if (row && j < row->operands.size() && row->operands[j].kind == isa::OpKind::Label) {
      // A branch target outside SOPP (s_call_b64): simm16 from the encoding, dwords from the next instruction.
      int64_t tgt = int64_t(op.pc) + 4 + int64_t(int16_t(uint16_t(word0 & 0xffff))) * 4;
      auto t = dk.pc_to_index.find(uint32_t(tgt));
      if (tgt < 0 || t == dk.pc_to_index.end())
        throw Error("simulator: " + where() + ": " + bad_target(tgt));
      op.target = t->second;
      continue;
    }
    // A source's own float type (ISA table, isa::OperandSpec::fp): the sign bit its neg/abs act on
    // and the encoding of its inline constants; the instruction's type when the table has none.
    const isa::FloatType fp = row && int(j) >= nd && j < row->operands.size() && !row->operands[j].is_def
                                  ? row->operands[j].fp : isa::FloatType::None;
    const FType ft = operand_ftype(fp, op.ft);
    if (shared ? !from_isa_operand(mi.operands[j], ft, s) : !parse_operand(f.p.operands[j], s, ft, is_off)) {
      op.fn = nullptr;  // unknown operand syntax: treat as unimplemented
      break;
    }
    if ((f.sext_operands >> j) & 1) {
      // sext() only exists on SDWA sources 0 and 1.
      if (!op.sdwa || int(j) < nd || j - nd > 1) { op.fn = nullptr; break; }
      op.sdwa_sext |= uint8_t(1u << (j - nd));
    }
    s.sign = fp == isa::FloatType::None ? 0 : ft == FType::F64 ? 63 : ft == FType::F32 ? 31 : 15;
    if (int(j) < nd) op.d[op.nd++] = s;
    else op.s[op.ns++] = s;
  }
  auto add_mask = [&](const Src& x) {
    for (int r = x.idx; r < x.idx + x.n; ++r) {
      if (x.k == SrcKind::V) op.vmask |= 1ull << (r & 63);
      if (x.k == SrcKind::S) op.smask |= 1ull << (r & 63);
    }
  };
  for (int j = 0; j < op.nd; ++j) add_mask(op.d[j]);
  for (int j = 0; j < op.ns; ++j) add_mask(op.s[j]);
  op.smask |= 1ull << (kExecLo & 63) | 1ull << (kExecHi & 63);  // EXEC is read by every vector instruction
  if (op.fn && op.inner == &dpp_exec) {
    if (op.ns == 0 || op.s[0].k != SrcKind::V || op.s[0].neg || op.s[0].abs) op.fn = nullptr;
    else {
      op.inner = op.fn;
      op.fn = &dpp_exec;
      // op.moded stays: run_in_float_mode runs it through dpp_run, on the permuted src0.
      op.dpp_src = op.s[0].idx;
      op.s[0].idx = kDppScratch;
    }
  }
  // SOPK immediates are 16-bit: keep the raw simm16 for the handlers.
  if (row && row->family == isa::Family::SOPK) op.imm = word0 & 0xffff;
}

enum class Path { Binary, LlvmText };

std::unique_ptr<DecodedKernel> decode(const CodeObject& co, const KernelInfo& k, Path path) {
  auto dk = std::make_unique<DecodedKernel>();
  dk->info = k;
  if (k.entry_offset > co.text.size() || co.text.size() - k.entry_offset < k.code_size)
    throw Error("simulator: kernel " + k.name + " code range outside .text");
  // The ranges decoded: the kernel's first (its first instruction is ops[0]), then the code
  // object's other functions, which its calls (s_swappc_b64, s_call_b64) may reach.
  const std::vector<CodeRange> ranges = kernel_code_ranges(co, k);
  uint64_t end = 0;
  dk->code_base = k.entry_offset;
  for (const CodeRange& r : ranges) dk->code_base = std::min(dk->code_base, r.offset), end = std::max(end, r.offset + r.size);
  if (end - dk->code_base > UINT32_MAX) throw Error("simulator: kernel " + k.name + " and the functions of its code object span more than 4 GiB of .text");
  const uint8_t* code = co.text.data() + dk->code_base;  // pc 0
  const uint64_t code_size = end - dk->code_base;
  std::vector<Form> forms;
  for (const CodeRange& r : ranges) {
    if (&r != &ranges.front()) {
      auto f = std::find_if(co.functions.begin(), co.functions.end(), [&](const DeviceFunction& d) { return d.offset == r.offset; });
      dk->functions.push_back({f != co.functions.end() ? f->name : hex(r.offset), uint32_t(forms.size()), {}});
    }
    const uint8_t* at = co.text.data() + r.offset;
    const uint64_t shift = r.offset - dk->code_base;  // the range's first pc
    std::unique_ptr<LlvmText> llvm;  // the oracle path's disassembler (LLVM's lock held while it lives)
    for (uint64_t off = 0; off < r.size;) {
      if (path == Path::LlvmText) {
        if (!llvm) llvm = std::make_unique<LlvmText>(co.arch, at, r.size);
        auto [text, n] = llvm->at(off);
        forms.push_back(form_from_text(std::move(text), uint32_t(shift + off), uint32_t(n)));
      } else {
        BinaryInst b;
        std::string why;
        if (decode_binary(co.arch, at + off, r.size - off, shift + off, b, why) == BinaryDecode::Decoded) {
          forms.push_back(form_from_binary(std::move(b), uint32_t(shift + off)));
        } else {
          // Not an instruction: a placeholder that says why, an error only if executed.
          uint32_t word = 0;
          std::memcpy(&word, at + off, std::min<uint64_t>(4, r.size - off));
          Form f;
          f.undecodable = true;
          f.pc = uint32_t(shift + off);
          f.size = b.size;
          char head[32];
          std::snprintf(head, sizeof head, "<undecodable 0x%08x>", word);
          f.text = b.cut_off ? "<" + why + ">" : head + (" at byte offset " + hex(shift + off) + " of the kernel: " + why);
          forms.push_back(std::move(f));
        }
      }
      off += forms.back().size;
    }
    if (&r == &ranges.front()) dk->kernel_ops = uint32_t(forms.size());
  }
  const Registry& reg = registry();
  dk->ops.resize(forms.size());
  std::vector<uint32_t> pcs;
  for (size_t i = 0; i < forms.size(); ++i) dk->pc_to_index[forms[i].pc] = uint32_t(i), pcs.push_back(forms[i].pc);
  // Why a branch target is not an instruction: before the code, past its end (often a kernel
  // whose .text or symbol size cuts it short), or inside another instruction.
  auto bad_target = [&](int64_t tgt) {
    std::string s = "branch target " + (tgt < 0 ? "-" + hex(uint64_t(-tgt)) : hex(uint64_t(tgt))) + " is not an instruction of the kernel";
    if (ranges.size() > 1) return s + " or of the other functions of its code object";
    if (tgt < 0) return s + " (it is before the kernel's first instruction)";
    if (uint64_t(tgt) >= k.code_size)
      return s + " (it is past the end of the kernel's " + std::to_string(k.code_size) +
             " bytes of code; the .text or symbol size ends there)";
    auto in = std::prev(std::upper_bound(pcs.begin(), pcs.end(), uint32_t(tgt)));
    return s + " (it is inside the instruction at pc " + hex(*in) + " '" + forms[size_t(in - pcs.begin())].text + "')";
  };
  for (size_t i = 0; i < forms.size(); ++i) {
    Op& op = dk->ops[i];
    op.pc = forms[i].pc;
    op.index = uint32_t(i);
    bind_op(op, forms[i], reg, *dk, code, code_size, bad_target, k.name);
  }
  return dk;
}

}  // namespace

std::unique_ptr<DecodedKernel> decode_kernel(const CodeObject& co, const KernelInfo& k) {
  auto dk = decode(co, k, Path::Binary);
  // CDNAJIT_DECODE_ORACLE=1: every kernel any test or tool decodes is also decoded through the
  // LLVM text oracle, and a difference is an error (tests/sim/CMakeLists.txt runs suites so).
  static const bool oracle = [] {
    const char* e = std::getenv("CDNAJIT_DECODE_ORACLE");
    return e && std::string(e) == "1";
  }();
  if (oracle) {
    const std::string diff = decoded_difference(*dk, *decode(co, k, Path::LlvmText));
    if (!diff.empty()) throw Error("simulator: the binary decoder and the LLVM text oracle disagree:\n" + diff);
  }
  return dk;
}

std::unique_ptr<DecodedKernel> decode_kernel_llvm_text(const CodeObject& co, const KernelInfo& k) {
  return decode(co, k, Path::LlvmText);
}

}  // namespace cdnajit::sim
