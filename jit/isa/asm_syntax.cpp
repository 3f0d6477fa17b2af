// Printing and parsing of LLVM's AMDGPU assembly syntax for gfx942/gfx950.
//
// print() emits text LLVM MC accepts; parse() reads what LLVM's disassembler
// (LLVM-C LLVMDisasmInstruction, llvm-objdump) and print() produce. The parser
// is syntactic: it does not check operands against the table (the verifier and
// the simulator do), so instructions the table lacks still parse with
// info == nullptr.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "jit/isa/cross_lane.hpp"
#include "jit/isa/machine_inst.hpp"
#include "jit/isa/print_to.hpp"
#include "jit/isa/waitcnt.hpp"

namespace cdnajit::isa {
namespace {

// ---------------------------------------------------------------- names

// A spelling and the value it stands for. The tables below (special registers, inline floats,
// hwreg and message names) are read by name to parse and by value to print.
template <class T>
struct Named {
  std::string_view name;
  T value;
};

template <class T, size_t N>
std::optional<T> value_of(const std::array<Named<T>, N>& table, std::string_view name) {
  for (const auto& e : table)
    if (e.name == name) return e.value;
  return std::nullopt;
}

// The table's first spelling of `value`.
template <class T, size_t N>
std::optional<std::string_view> name_of(const std::array<Named<T>, N>& table, T value) {
  for (const auto& e : table)
    if (e.value == value) return e.name;
  return std::nullopt;
}

using SpecialName = Named<SpecialReg>;
constexpr std::array kSpecialNames = {
    SpecialName{"vcc", SpecialReg::VCC},
    SpecialName{"vcc_lo", SpecialReg::VCC_LO},
    SpecialName{"vcc_hi", SpecialReg::VCC_HI},
    SpecialName{"exec", SpecialReg::EXEC},
    SpecialName{"exec_lo", SpecialReg::EXEC_LO},
    SpecialName{"exec_hi", SpecialReg::EXEC_HI},
    SpecialName{"m0", SpecialReg::M0},
    SpecialName{"src_scc", SpecialReg::SRC_SCC},  // before "scc": LLVM prints the src_ spelling
    SpecialName{"scc", SpecialReg::SCC},
    SpecialName{"flat_scratch", SpecialReg::FLAT_SCRATCH},
    SpecialName{"flat_scratch_lo", SpecialReg::FLAT_SCRATCH_LO},
    SpecialName{"flat_scratch_hi", SpecialReg::FLAT_SCRATCH_HI},
    SpecialName{"xnack_mask", SpecialReg::XNACK_MASK},
    SpecialName{"src_shared_base", SpecialReg::SRC_SHARED_BASE},
    SpecialName{"src_shared_limit", SpecialReg::SRC_SHARED_LIMIT},
    SpecialName{"src_private_base", SpecialReg::SRC_PRIVATE_BASE},
    SpecialName{"src_private_limit", SpecialReg::SRC_PRIVATE_LIMIT},
    SpecialName{"src_pops_exiting_wave_id", SpecialReg::SRC_POPS_EXITING_WAVE_ID},
    SpecialName{"src_lds_direct", SpecialReg::SRC_LDS_DIRECT},
    SpecialName{"src_execz", SpecialReg::SRC_EXECZ},
    SpecialName{"src_vccz", SpecialReg::SRC_VCCZ},
};
// Spellings LLVM also accepts for the same registers.
constexpr std::array kSpecialAliases = {
    SpecialName{"shared_base", SpecialReg::SRC_SHARED_BASE},   SpecialName{"shared_limit", SpecialReg::SRC_SHARED_LIMIT},
    SpecialName{"private_base", SpecialReg::SRC_PRIVATE_BASE}, SpecialName{"private_limit", SpecialReg::SRC_PRIVATE_LIMIT},
    SpecialName{"execz", SpecialReg::SRC_EXECZ},               SpecialName{"vccz", SpecialReg::SRC_VCCZ},
    SpecialName{"lds_direct", SpecialReg::SRC_LDS_DIRECT},     SpecialName{"pops_exiting_wave_id", SpecialReg::SRC_POPS_EXITING_WAVE_ID},
};

std::string_view special_name(SpecialReg r) { return name_of(kSpecialNames, r).value_or("?"); }

std::optional<SpecialReg> special_from_name(std::string_view n) {
  if (auto r = value_of(kSpecialNames, n)) return r;
  return value_of(kSpecialAliases, n);
}

// Float inline constants: the text LLVM prints for them and their f32 bit patterns.
using InlineFloat = Named<uint32_t>;
constexpr std::array kInlineFloats = {
    InlineFloat{"0.5", 0x3f000000},  InlineFloat{"-0.5", 0xbf000000}, InlineFloat{"1.0", 0x3f800000},
    InlineFloat{"-1.0", 0xbf800000}, InlineFloat{"2.0", 0x40000000},  InlineFloat{"-2.0", 0xc0000000},
    InlineFloat{"4.0", 0x40800000},  InlineFloat{"-4.0", 0xc0800000}, InlineFloat{"0.15915494", 0x3e22f983},
};

}  // namespace

bool is_inline_int(int64_t v) { return v >= -16 && v <= 64; }
bool is_inline_f32_bits(uint32_t bits) { return name_of(kInlineFloats, bits).has_value(); }

namespace {

using NamedValue = Named<int>;
constexpr std::array kHwRegs = {
    NamedValue{"HW_REG_MODE", 1},     NamedValue{"HW_REG_STATUS", 2},       NamedValue{"HW_REG_TRAPSTS", 3},
    NamedValue{"HW_REG_HW_ID", 4},    NamedValue{"HW_REG_GPR_ALLOC", 5},    NamedValue{"HW_REG_LDS_ALLOC", 6},
    NamedValue{"HW_REG_IB_STS", 7},   NamedValue{"HW_REG_SH_MEM_BASES", 15}, NamedValue{"HW_REG_TBA_LO", 16},
    NamedValue{"HW_REG_TBA_HI", 17},  NamedValue{"HW_REG_TMA_LO", 18},    NamedValue{"HW_REG_TMA_HI", 19},
    NamedValue{"HW_REG_XCC_ID", 20},
    NamedValue{"HW_REG_SQ_PERF_SNAPSHOT_DATA", 21}, NamedValue{"HW_REG_SQ_PERF_SNAPSHOT_DATA1", 22},
    NamedValue{"HW_REG_SQ_PERF_SNAPSHOT_PC_LO", 23}, NamedValue{"HW_REG_SQ_PERF_SNAPSHOT_PC_HI", 24},
};
constexpr std::array kMsgs = {
    NamedValue{"MSG_INTERRUPT", 1},      NamedValue{"MSG_GS", 2},           NamedValue{"MSG_GS_DONE", 3},
    NamedValue{"MSG_SAVEWAVE", 4},       NamedValue{"MSG_STALL_WAVE_GEN", 5}, NamedValue{"MSG_HALT_WAVES", 6},
    NamedValue{"MSG_ORDERED_PS_DONE", 7}, NamedValue{"MSG_EARLY_PRIM_DEALLOC", 8}, NamedValue{"MSG_GS_ALLOC_REQ", 9},
    NamedValue{"MSG_GET_DOORBELL", 10},  NamedValue{"MSG_GET_DDID", 11},    NamedValue{"MSG_SYSMSG", 15},
};
constexpr std::array kMsgOps = {
    NamedValue{"GS_OP_NOP", 0},  NamedValue{"GS_OP_CUT", 1},  NamedValue{"GS_OP_EMIT", 2},
    NamedValue{"GS_OP_EMIT_CUT", 3}, NamedValue{"SYSMSG_OP_ECC_ERR_INTERRUPT", 1}, NamedValue{"SYSMSG_OP_REG_RD", 2},
    NamedValue{"SYSMSG_OP_HOST_TRAP_ACK", 3}, NamedValue{"SYSMSG_OP_TTRACE_PC", 4},
};

// ---------------------------------------------------------------- text helpers

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Splits at `sep` outside (), [] — or at any whitespace when sep == ' '.
std::vector<std::string_view> split_top(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    char c = i < s.size() ? s[i] : sep;
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    bool is_sep = sep == ' ' ? std::isspace(static_cast<unsigned char>(c)) != 0 : c == sep;
    if (i == s.size() || (depth == 0 && is_sep)) {
      std::string_view part = trim(s.substr(start, i - start));
      if (!part.empty() || sep != ' ') out.push_back(part);
      start = i + 1;
    }
  }
  return out;
}

std::optional<int64_t> parse_int(std::string_view t) {
  t = trim(t);
  bool neg = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    neg = t[0] == '-';
    t.remove_prefix(1);
  }
  if (t.empty()) return std::nullopt;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  uint64_t v = 0;
  for (char c : t) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return std::nullopt;
    if (v > (UINT64_MAX - d) / base) return std::nullopt;
    v = v * base + d;
  }
  return neg ? -int64_t(v) : int64_t(v);
}

// Decimal float text such as 0.5, -4.0, 0.15915494, 1e-3 (not hex, not integer).
// 1/(2*pi) as LLVM prints it for 64-bit operands; stored with the same f32 bits.
constexpr std::string_view kInvTwoPi64Text = "0.15915494309189532";
constexpr uint32_t kInvTwoPiBits = 0x3e22f983;

std::optional<uint32_t> parse_float_bits(std::string_view t) {
  if (auto bits = value_of(kInlineFloats, t)) return bits;
  if (t == kInvTwoPi64Text) return kInvTwoPiBits;
  if (t.empty() || t.find_first_of(".eE") == std::string_view::npos || starts_with(t, "0x")) return std::nullopt;
  std::string s(t);
  char* end = nullptr;
  float f = std::strtof(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

std::string hex(uint64_t v) {  // "0x" and lowercase digits, as printf's %llx
  char buf[24] = {'0', 'x'};
  return std::string(buf, std::to_chars(buf + 2, buf + sizeof buf, v, 16).ptr);
}

// [1,0,1] -> bit mask, bit i = element i.
std::optional<uint8_t> parse_bit_list(std::string_view t) {
  if (t.size() < 2 || t.front() != '[' || t.back() != ']') return std::nullopt;
  uint8_t bits = 0;
  int i = 0;
  for (auto e : split_top(t.substr(1, t.size() - 2), ',')) {
    auto v = parse_int(e);
    if (!v || (*v != 0 && *v != 1) || i >= 8) return std::nullopt;
    bits |= uint8_t(*v << i++);
  }
  return bits;
}

std::string bit_list(uint8_t bits, int n) {
  if (n <= 0) return "[]";
  std::string s(size_t(2 * n + 1), ',');  // '[', n digits with commas between, ']': written in place
  s.front() = '[';
  for (int i = 0; i < n; ++i) s[size_t(1 + 2 * i)] = (bits >> i) & 1 ? '1' : '0';
  s.back() = ']';
  return s;
}

// ---------------------------------------------------------------- instruction classes

enum class Syntax { SMEM, DS, VMEM, MUBUF, VOP3P, MFMA, Other };

Syntax syntax_of(const MachineInst& mi, std::string_view mnem) {
  if (mi.info) {
    switch (mi.info->family) {
      case Family::SMEM: return Syntax::SMEM;
      case Family::DS: return Syntax::DS;
      case Family::FLAT:
      case Family::GLOBAL:
      case Family::SCRATCH: return Syntax::VMEM;
      case Family::MUBUF: return Syntax::MUBUF;
      case Family::VOP3P: return Syntax::VOP3P;
      case Family::MFMA: return Syntax::MFMA;
      default: return Syntax::Other;
    }
  }
  if (starts_with(mnem, "s_load") || starts_with(mnem, "s_buffer") || starts_with(mnem, "s_store") ||
      starts_with(mnem, "s_scratch") || starts_with(mnem, "s_atomic") || starts_with(mnem, "s_buffer_atomic"))
    return Syntax::SMEM;
  if (starts_with(mnem, "ds_")) return Syntax::DS;
  if (starts_with(mnem, "global_") || starts_with(mnem, "flat_") || starts_with(mnem, "scratch_")) return Syntax::VMEM;
  if (starts_with(mnem, "buffer_")) return Syntax::MUBUF;
  if (starts_with(mnem, "v_mfma") || starts_with(mnem, "v_smfmac")) return Syntax::MFMA;
  if (starts_with(mnem, "v_pk_") || starts_with(mnem, "v_dot") || starts_with(mnem, "v_fma_mix") ||
      starts_with(mnem, "v_mad_mix"))
    return Syntax::VOP3P;
  return Syntax::Other;
}

// Operand i is a branch target (s_branch, s_cbranch_*, s_call_b64): the table says so.
bool is_label_slot(const InstrInfo* info, size_t i) {
  return info && i < info->operands.size() && info->operands[i].kind == OpKind::Label;
}
// The hwreg(...) operand: s_getreg_b32 sdst, hwreg; s_setreg_b32 / s_setreg_imm32_b32 hwreg, src.
bool is_hwreg_operand(std::string_view mnem, size_t index) {
  return (starts_with(mnem, "s_getreg_") && index == 1) || (starts_with(mnem, "s_setreg_") && index == 0);
}

// Mnemonic without the encoding suffix LLVM may print.
std::string_view base_mnemonic(std::string_view m) {
  for (std::string_view suffix : {"_e64_dpp", "_e32", "_e64", "_sdwa", "_dpp"}) {
    if (m.size() > suffix.size() && m.substr(m.size() - suffix.size()) == suffix)
      return m.substr(0, m.size() - suffix.size());
  }
  return m;
}

// ---------------------------------------------------------------- special immediates

// s_waitcnt operand: "vmcnt(0) expcnt(1) lgkmcnt(2)" (any subset, separated by
// spaces, '&' or ','), or a plain number.
bool parse_waitcnt(std::string_view t, int64_t& out, std::string& err) {
  if (auto v = parse_int(t)) {
    out = *v;
    return true;
  }
  int vm = -1, exp = -1, lgkm = -1;
  std::string s(t);
  for (char& c : s)
    if (c == '&' || c == ',') c = ' ';
  for (auto part : split_top(s, ' ')) {
    auto open = part.find('(');
    if (open == std::string_view::npos || part.back() != ')') {
      err = "s_waitcnt: cannot read '" + std::string(part) + "' (expected vmcnt(N) expcnt(N) lgkmcnt(N))";
      return false;
    }
    std::string_view name = part.substr(0, open);
    auto n = parse_int(part.substr(open + 1, part.size() - open - 2));
    if (!n) {
      err = "s_waitcnt: bad count in '" + std::string(part) + "'";
      return false;
    }
    // The _sat spellings clamp to the counter's maximum; the plain ones must fit.
    if (name == "vmcnt") vm = int(std::min<int64_t>(*n, 1000));
    else if (name == "vmcnt_sat") vm = int(std::min<int64_t>(*n, kMaxVmcnt));
    else if (name == "expcnt") exp = int(std::min<int64_t>(*n, 1000));
    else if (name == "expcnt_sat") exp = int(std::min<int64_t>(*n, kMaxExpcnt));
    else if (name == "lgkmcnt") lgkm = int(std::min<int64_t>(*n, 1000));
    else if (name == "lgkmcnt_sat") lgkm = int(std::min<int64_t>(*n, kMaxLgkmcnt));
    else {
      err = "s_waitcnt: unknown counter '" + std::string(name) + "' (valid: vmcnt, expcnt, lgkmcnt)";
      return false;
    }
    if (*n < 0) {
      err = "s_waitcnt: negative count in '" + std::string(part) + "'";
      return false;
    }
  }
  out = encode_waitcnt(vm, exp, lgkm);
  return true;
}

std::string print_waitcnt(int64_t imm) {
  uint16_t v = uint16_t(imm);
  if (imm < 0 || imm > 0xffff || (v & 0x3080) != 0) return std::to_string(imm);  // not a plain gfx9 encoding
  WaitcntFields f = decode_waitcnt(v);
  std::string s;
  auto add = [&](const char* n, int c) {
    if (!s.empty()) s += ' ';
    s += n;
    s += '(';
    s += std::to_string(c);
    s += ')';
  };
  if (f.vmcnt != kMaxVmcnt) add("vmcnt", f.vmcnt);
  if (f.expcnt != kMaxExpcnt) add("expcnt", f.expcnt);
  if (f.lgkmcnt != kMaxLgkmcnt) add("lgkmcnt", f.lgkmcnt);
  if (s.empty()) s = "vmcnt(63) expcnt(7) lgkmcnt(15)";
  return s;
}

// "name(a, b, c)" -> name and arguments.
bool split_call(std::string_view t, std::string_view& name, std::vector<std::string_view>& args) {
  auto open = t.find('(');
  if (open == std::string_view::npos || t.back() != ')') return false;
  name = trim(t.substr(0, open));
  args = split_top(t.substr(open + 1, t.size() - open - 2), ',');
  if (args.size() == 1 && args[0].empty()) args.clear();
  return true;
}

// The VGPR-indexing mode of s_set_gpr_idx_on / s_set_gpr_idx_mode: gpr_idx(SRC0,SRC1,SRC2,DST),
// any subset, as bits 0..3 (LLVM AMDGPU's asm syntax; "gpr_idx()" is 0).
constexpr std::array<std::string_view, 4> kGprIdxNames = {"SRC0", "SRC1", "SRC2", "DST"};
bool parse_gpr_idx(std::string_view t, int64_t& out, std::string& err) {
  std::string_view name;
  std::vector<std::string_view> args;
  if (!split_call(t, name, args) || name != "gpr_idx") {
    err = "cannot read '" + std::string(t) + "' (expected gpr_idx(SRC0,SRC1,SRC2,DST) or a subset)";
    return false;
  }
  out = 0;
  for (auto a : args) {
    auto it = std::find(kGprIdxNames.begin(), kGprIdxNames.end(), trim(a));
    if (it == kGprIdxNames.end()) {
      err = "unknown gpr_idx mode '" + std::string(trim(a)) + "' in '" + std::string(t) + "' (valid: SRC0 SRC1 SRC2 DST)";
      return false;
    }
    out |= int64_t(1) << (it - kGprIdxNames.begin());
  }
  return true;
}
std::string print_gpr_idx(int64_t v) {
  std::string s;
  for (size_t i = 0; i < kGprIdxNames.size(); ++i)
    if ((v >> i) & 1) s += (s.empty() ? "" : ",") + std::string(kGprIdxNames[i]);
  return "gpr_idx(" + s + ")";
}
// Operand i of the row is the one the table names `name` (e.g. the gpr_idx mode).
bool is_named_slot(const InstrInfo* info, size_t i, std::string_view name) {
  return info && i < info->operands.size() && info->operands[i].name == name;
}

// hwreg(NAME|id [, offset, size]) -> simm16 = id | offset << 6 | (size - 1) << 11.
bool parse_hwreg(std::string_view t, int64_t& out, std::string& err) {
  std::string_view name;
  std::vector<std::string_view> args;
  if (!split_call(t, name, args) || name != "hwreg" || (args.size() != 1 && args.size() != 3)) {
    err = "cannot read '" + std::string(t) + "' (expected hwreg(NAME) or hwreg(NAME, offset, size))";
    return false;
  }
  std::optional<int64_t> id = parse_int(args[0]);
  if (!id) {
    auto named = value_of(kHwRegs, args[0]);
    if (!named) {
      err = "unknown hardware register '" + std::string(args[0]) + "'";
      return false;
    }
    id = *named;
  }
  int64_t offset = 0, size = 32;
  if (args.size() == 3) {
    auto o = parse_int(args[1]), s = parse_int(args[2]);
    if (!o || !s || *o < 0 || *o > 31 || *s < 1 || *s > 32) {
      err = "hwreg offset must be 0..31 and size 1..32 in '" + std::string(t) + "'";
      return false;
    }
    offset = *o;
    size = *s;
  }
  if (*id < 0 || *id > 63) {
    err = "hwreg id out of range 0..63 in '" + std::string(t) + "'";
    return false;
  }
  out = *id | (offset << 6) | ((size - 1) << 11);
  return true;
}

// sendmsg(MSG [, OP [, stream]]) -> simm16 = msg | op << 4 | stream << 8.
bool parse_sendmsg(std::string_view t, int64_t& out, std::string& err) {
  std::string_view name;
  std::vector<std::string_view> args;
  if (!split_call(t, name, args) || name != "sendmsg" || args.empty() || args.size() > 3) {
    err = "cannot read '" + std::string(t) + "' (expected sendmsg(MSG[, OP[, stream]]))";
    return false;
  }
  int64_t fields[3] = {0, 0, 0};
  for (size_t i = 0; i < args.size(); ++i) {
    auto v = parse_int(args[i]);
    if (!v) {
      auto named = i == 0 ? value_of(kMsgs, args[i]) : i == 1 ? value_of(kMsgOps, args[i]) : std::nullopt;
      if (!named) {
        err = "unknown sendmsg argument '" + std::string(args[i]) + "'";
        return false;
      }
      v = *named;
    }
    fields[i] = *v;
  }
  out = (fields[0] & 0xf) | ((fields[1] & 7) << 4) | ((fields[2] & 3) << 8);
  return true;
}

// ds_swizzle_b32 offset:swizzle(MODE, ...) -> the 16-bit offset.
bool parse_swizzle(std::string_view t, int32_t& out, std::string& err) {
  std::string_view name;
  std::vector<std::string_view> args;
  auto bad = [&](const std::string& why) {
    err = "ds_swizzle: " + why + " in '" + std::string(t) + "'";
    return false;
  };
  if (!split_call(t, name, args) || name != "swizzle" || args.empty()) return bad("expected swizzle(MODE, ...)");
  std::string_view mode = args[0];
  std::vector<int64_t> n;
  for (size_t i = 1; i < args.size(); ++i) {
    if (mode == "BITMASK_PERM") break;
    auto v = parse_int(args[i]);
    if (!v) return bad("bad number '" + std::string(args[i]) + "'");
    n.push_back(*v);
  }
  auto bitmask = [](int and_mask, int or_mask, int xor_mask) { return and_mask | (or_mask << 5) | (xor_mask << 10); };
  if (mode == "QUAD_PERM") {
    if (n.size() != 4) return bad("QUAD_PERM needs 4 lanes");
    out = 0x8000 | int32_t(n[0] & 3) | int32_t((n[1] & 3) << 2) | int32_t((n[2] & 3) << 4) | int32_t((n[3] & 3) << 6);
  } else if (mode == "SWAP") {
    if (n.size() != 1) return bad("SWAP needs a group size");
    out = bitmask(0x1f, 0, int(n[0]));
  } else if (mode == "REVERSE") {
    if (n.size() != 1 || n[0] < 1) return bad("REVERSE needs a group size");
    out = bitmask(0x1f, 0, int(n[0] - 1));
  } else if (mode == "BROADCAST") {
    if (n.size() != 2 || n[0] < 1) return bad("BROADCAST needs a group size and a lane");
    out = bitmask(0x1f & ~int(n[0] - 1), int(n[1]), 0);
  } else if (mode == "BITMASK_PERM") {
    if (args.size() != 2) return bad("BITMASK_PERM needs a 5-character mask");
    std::string_view m = args[1];
    if (m.size() == 7 && m.front() == '"' && m.back() == '"') m = m.substr(1, 5);
    if (m.size() != 5) return bad("BITMASK_PERM needs a 5-character mask");
    int a = 0, o = 0, x = 0;
    for (int i = 0; i < 5; ++i) {
      int bit = 1 << (4 - i);
      switch (m[size_t(i)]) {
        case '0': break;
        case '1': o |= bit; break;
        case 'p': a |= bit; break;
        case 'i': a |= bit; x |= bit; break;
        default: return bad("mask characters must be 0, 1, p or i");
      }
    }
    out = bitmask(a, o, x);
  } else {
    return bad("unknown mode '" + std::string(mode) + "'");
  }
  return true;
}

// ---------------------------------------------------------------- operands

bool parse_reg(std::string_view t, Operand& o) {
  if (t.size() < 2) return false;
  RegFile f;
  switch (t[0]) {
    case 's': f = RegFile::SGPR; break;
    case 'v': f = RegFile::VGPR; break;
    case 'a': f = RegFile::AGPR; break;
    default: return false;
  }
  std::string_view rest = t.substr(1);
  if (rest[0] == '[') {
    auto colon = rest.find(':');
    if (rest.back() != ']' || colon == std::string_view::npos) return false;
    auto lo = parse_int(rest.substr(1, colon - 1));
    auto hi = parse_int(rest.substr(colon + 1, rest.size() - colon - 2));
    if (!lo || !hi || *lo < 0 || *hi < *lo || *hi > 511 || *hi - *lo >= 32) return false;
    o = Operand::reg(f, uint16_t(*lo), uint8_t(*hi - *lo + 1));
    return true;
  }
  if (!std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  auto n = parse_int(rest);
  if (!n || *n > 511) return false;
  o = Operand::reg(f, uint16_t(*n), 1);
  return true;
}

struct ParseContext {
  std::string_view mnemonic;
  uint64_t address;
  const InstrInfo* info = nullptr;
  size_t index = 0;  // operand position
};

bool parse_operand(std::string_view t, const ParseContext& ctx, Operand& o, std::string& err) {
  t = trim(t);
  bool neg = false, abs = false;
  if (t.size() > 1 && t[0] == '-' && (std::isalpha(static_cast<unsigned char>(t[1])) || t[1] == '|')) {
    neg = true;
    t.remove_prefix(1);
  }
  if (starts_with(t, "neg(") && t.back() == ')') {
    neg = true;
    t = t.substr(4, t.size() - 5);
  }
  if (t.size() > 2 && t.front() == '|' && t.back() == '|') {
    abs = true;
    t = t.substr(1, t.size() - 2);
  } else if (starts_with(t, "abs(") && t.back() == ')') {
    abs = true;
    t = t.substr(4, t.size() - 5);
  }
  if (starts_with(t, "lit(") && t.back() == ')') t = t.substr(4, t.size() - 5);
  if (t.empty()) {
    err = "empty operand";
    return false;
  }

  if (is_label_slot(ctx.info, ctx.index)) {
    if (auto v = parse_int(t)) {
      // LLVM-C prints the raw simm16 (dword offset from the next instruction).
      int64_t rel = int16_t(uint16_t(*v));
      o = Operand{};
      o.kind = Operand::Kind::Label;
      o.imm = int64_t(ctx.address) + 4 + rel * 4;
      return true;
    }
    o = Operand::target(std::string(t));
    return true;
  }
  if (t == "off") {
    o = Operand::off();
  } else if (parse_reg(t, o)) {
  } else if (auto sp = special_from_name(t)) {
    o = Operand::spec(*sp);
  } else if (auto v = parse_int(t)) {
    o = Operand::immediate(*v);
  } else if (auto fb = parse_float_bits(t)) {
    o = Operand{};
    o.kind = Operand::Kind::FImm;
    o.imm = *fb;
  } else if (starts_with(t, "hwreg(")) {
    int64_t v;
    if (!parse_hwreg(t, v, err)) return false;
    o = Operand::immediate(v);
  } else if (starts_with(t, "sendmsg(")) {
    int64_t v;
    if (!parse_sendmsg(t, v, err)) return false;
    o = Operand::immediate(v);
  } else if (starts_with(t, "gpr_idx(")) {
    int64_t v;
    if (!parse_gpr_idx(t, v, err)) return false;
    o = Operand::immediate(v);
  } else {
    err = "cannot read operand '" + std::string(t) +
          "' (expected a register like v1, s[2:3], a[0:3], a special register, an integer, a float constant or off)";
    return false;
  }
  o.neg = neg;
  o.abs = abs;
  return true;
}

// ---------------------------------------------------------------- modifiers

constexpr std::array<std::string_view, 18> kBareModifiers = {
    "offen", "idxen", "addr64", "lds", "sc0", "sc1", "nt", "glc", "slc", "dlc",
    "clamp", "tfe", "lwe", "gds", "row_mirror", "row_half_mirror", "bound_ctrl", "d16",
};

bool is_modifier_word(std::string_view w) {
  int depth = 0;
  for (char c : w) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ':' && depth == 0) return true;
  }
  for (auto b : kBareModifiers)
    if (b == w) return true;
  return false;
}

bool parse_modifier(std::string_view w, const ParseContext& ctx, Modifiers& m, std::string& err) {
  auto colon = w.find(':');
  std::string_view key = w.substr(0, colon);
  std::string_view val = colon == std::string_view::npos ? std::string_view{} : w.substr(colon + 1);
  auto int_val = [&](int64_t lo, int64_t hi) -> std::optional<int64_t> {
    auto v = parse_int(val);
    if (!v || *v < lo || *v > hi) {
      err = "modifier '" + std::string(w) + "' needs an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
      return std::nullopt;
    }
    return v;
  };
  auto list_val = [&](uint8_t& bits) {
    auto v = parse_bit_list(val);
    if (!v) {
      err = "modifier '" + std::string(w) + "' needs a list like [0,1,0]";
      return false;
    }
    bits = *v;
    return true;
  };
  if (colon == std::string_view::npos) {
    if (w == "sc0" || w == "glc") m.sc0 = true;
    else if (w == "sc1" || w == "slc") m.sc1 = true;
    else if (w == "nt") m.nt = true;
    else if (w == "lds") m.lds = true;
    else if (w == "offen") m.offen = true;
    else if (w == "idxen") m.idxen = true;
    else if (w == "clamp") m.clamp = true;
    else m.extra += (m.extra.empty() ? "" : " ") + std::string(w);
    return true;
  }
  if (key == "offset") {
    if (starts_with(val, "swizzle(")) return parse_swizzle(val, m.offset, err);
    auto v = int_val(INT32_MIN, INT32_MAX);
    if (!v) return false;
    m.offset = int32_t(*v);
  } else if (key == "offset0" || key == "offset1") {
    auto v = int_val(0, 255);
    if (!v) return false;
    (key == "offset0" ? m.offset0 : m.offset1) = int32_t(*v);
  } else if (key == "mul" || key == "div") {
    auto v = int_val(2, 4);
    if (!v) return false;
    if (key == "mul" && *v == 2) m.omod = 1;
    else if (key == "mul" && *v == 4) m.omod = 2;
    else if (key == "div" && *v == 2) m.omod = 3;
    else {
      err = "output modifier '" + std::string(w) + "' is not one of mul:2, mul:4, div:2";
      return false;
    }
  } else if (key == "op_sel") {
    return list_val(m.op_sel);
  } else if (key == "op_sel_hi") {
    m.op_sel_hi_set = true;
    return list_val(m.op_sel_hi);
  } else if (key == "neg_lo" || (key == "neg" && starts_with(ctx.mnemonic, "v_mfma"))) {
    return list_val(m.neg_lo);
  } else if (key == "neg_hi") {
    return list_val(m.neg_hi);
  } else if (key == "cbsz" || key == "abid" || key == "blgp") {
    auto v = int_val(0, key == "abid" ? 15 : 7);  // abid is a 4-bit field
    if (!v) return false;
    (key == "cbsz" ? m.cbsz : key == "abid" ? m.abid : m.blgp) = uint8_t(*v);
  } else {
    m.extra += (m.extra.empty() ? "" : " ") + std::string(w);  // dpp/sdwa controls, bitop3:, ...
  }
  return true;
}

// Whether operand i is a 64-bit value (the f64 inline 1/(2*pi) is spelled differently).
bool operand_is_64bit(const MachineInst& mi, std::string_view mnem, size_t i) {
  if (mi.info) return i < mi.info->operands.size() && mi.info->operands[i].dwords == 2;
  return mnem.find("f64") != std::string_view::npos;
}

int count_defs(const MachineInst& mi) {
  if (!mi.info) return 1;
  int n = 0;
  for (const auto& s : mi.info->operands) n += s.is_def;
  return n;
}

}  // namespace

// ---------------------------------------------------------------- printing

namespace {
// "v7", "s[4:5]", "a[0:3]": a register is printed for nearly every operand of every line.
void append_register(std::string& s, const Operand& o) {
  char buf[32];
  char *e = buf, *const end = buf + sizeof buf;
  *e++ = o.file == RegFile::SGPR ? 's' : o.file == RegFile::VGPR ? 'v' : 'a';
  if (o.dwords <= 1) {
    e = std::to_chars(e, end, unsigned(o.index)).ptr;
  } else {
    *e++ = '[';
    e = std::to_chars(e, end, unsigned(o.index)).ptr;
    *e++ = ':';
    e = std::to_chars(e, end, unsigned(o.index + o.dwords - 1)).ptr;
    *e++ = ']';
  }
  s.append(buf, e);
}
}  // namespace

std::string print_operand(const Operand& o) {
  std::string s;
  switch (o.kind) {
    case Operand::Kind::Reg: append_register(s, o); break;
    case Operand::Kind::Special: s = std::string(special_name(o.special)); break;
    case Operand::Kind::Imm:
      // Inline constants in decimal, others in hex as LLVM prints them; negative values keep
      // their sign so they read back as the same number (LLVM encodes -0x64 and 0xffffff9c alike).
      if (o.imm >= -16 && o.imm <= 64) s = std::to_string(o.imm);
      else if (o.imm < 0) s = "-" + hex(uint64_t(-(o.imm + 1)) + 1);
      else s = hex(uint64_t(o.imm));
      break;
    case Operand::Kind::FImm: {
      if (auto text = name_of(kInlineFloats, uint32_t(o.imm))) s = std::string(*text);
      else s = hex(uint32_t(o.imm));  // not an inline constant: the literal's bit pattern
      break;
    }
    case Operand::Kind::Label: s = o.label.empty() ? std::to_string(o.imm) : o.label; break;
    case Operand::Kind::Off: s = "off"; break;
  }
  if (o.abs) s = "|" + s + "|";
  // "-5" would read back as the constant -5: a negated plain constant is spelled neg(5).
  if (o.neg) s = (!o.abs && (o.kind == Operand::Kind::Imm || o.kind == Operand::Kind::FImm)) ? "neg(" + s + ")" : "-" + s;
  return s;
}

// Appends to `s` in place: the .s text of a kernel prints every instruction of every build, and
// a fresh string per line and per operand was most of that time.
void print_to(std::string& s, const MachineInst& mi) {
  const size_t start = s.size();
  print_instruction_to(s, mi);
  if (!mi.comment.empty()) s.append(s.size() == start ? "; " : " ; ").append(mi.comment);
}

void print_instruction_to(std::string& s, const MachineInst& mi) {
  if (!mi.label_def.empty()) {
    s.append(mi.label_def).append(":");
    return;
  }
  if (!mi.info && !mi.raw.empty()) {
    s.append(mi.raw);
    return;
  }
  const std::string_view mnem = mi.mnemonic.empty() && mi.info ? std::string_view(mi.info->mnemonic) : std::string_view(mi.mnemonic);
  s.append(mnem);
  Syntax syn = syntax_of(mi, mnem);

  // Operands.
  for (size_t i = 0; i < mi.operands.size(); ++i) {
    const Operand& o = mi.operands[i];
    if (i) s += ',';  // two characters, not append(const char*): a strlen and a call per operand
    s += ' ';
    if (o.kind == Operand::Kind::Reg && !o.abs && !o.neg) {  // the common case, without a temporary
      append_register(s, o);
      continue;
    }
    std::string text;
    if (mnem == "s_waitcnt" && o.kind == Operand::Kind::Imm) {
      text = print_waitcnt(o.imm);
    } else if (is_hwreg_operand(mnem, i) && o.kind == Operand::Kind::Imm && o.imm >= 0 && o.imm <= 0xffff) {
      int64_t v = o.imm;
      text = "hwreg(" + std::to_string(v & 63) + ", " + std::to_string((v >> 6) & 31) + ", " +
             std::to_string(((v >> 11) & 31) + 1) + ")";
    } else if (is_named_slot(mi.info, i, "gpr_idx") && o.kind == Operand::Kind::Imm && o.imm >= 0 && o.imm < 16) {
      text = print_gpr_idx(o.imm);
    } else if (o.kind == Operand::Kind::Label && o.label.empty() && is_label_slot(mi.info, i)) {
      // Decoded branch: re-derive the simm16 from this instruction's address.
      int64_t rel = (o.imm - int64_t(mi.address) - 4) / 4;
      text = std::to_string(uint16_t(int16_t(rel)));
    } else if (o.kind == Operand::Kind::FImm && uint32_t(o.imm) == kInvTwoPiBits && operand_is_64bit(mi, mnem, i)) {
      text = std::string(kInvTwoPi64Text);
      if (o.abs) text = "|" + text + "|";
      if (o.neg) text = o.abs ? "-" + text : "neg(" + text + ")";
    } else {
      text = print_operand(o);
    }
    s.append(text);
  }

  // Modifiers, in the order LLVM prints them.
  const Modifiers& m = mi.mods;
  auto word = [&](const std::string& w) { s.append(" ").append(w); };
  if (m.idxen) word("idxen");
  if (m.offen) word("offen");
  if (m.offset != 0) {
    // ds_swizzle_b32's offset is a lane pattern: printed symbolically as LLVM does (cross_lane.hpp).
    std::optional<std::string> pattern;
    if (mi.info && offset_is_swizzle(*mi.info) && m.offset > 0 && m.offset <= 0xffff)
      pattern = swizzle_offset_text(uint16_t(m.offset));
    std::string v = pattern                ? *pattern
                    : syn != Syntax::SMEM ? std::to_string(m.offset)
                    : m.offset < 0      ? "-" + hex(uint64_t(-int64_t(m.offset)))
                                        : hex(uint32_t(m.offset));
    word("offset:" + v);
  }
  if (m.offset0 != 0) word("offset0:" + std::to_string(m.offset0));
  if (m.offset1 != 0) word("offset1:" + std::to_string(m.offset1));
  if (syn == Syntax::SMEM) {
    if (m.sc0) word("glc");
    if (m.sc1) word("sc1");  // not valid on SMEM: printed so that the assembler says so
    if (m.nt) word("nt");
  } else {
    if (m.sc0) word("sc0");
    if (m.sc1) word("sc1");
    if (m.nt) word("nt");
  }
  if (m.lds) word("lds");
  int nsrc = int(mi.operands.size()) - count_defs(mi);
  if (syn == Syntax::MFMA) nsrc = std::min(nsrc, 3);
  int sel_len = std::max(nsrc + ((syn == Syntax::VOP3P || syn == Syntax::MFMA) ? 0 : 1), 1);
  auto list_len = [&](uint8_t bits) {
    int n = sel_len;
    while (n < 8 && (bits >> n)) ++n;
    return n;
  };
  if (m.op_sel) word("op_sel:" + bit_list(m.op_sel, list_len(m.op_sel)));
  if (m.op_sel_hi_set) word("op_sel_hi:" + bit_list(m.op_sel_hi, list_len(m.op_sel_hi)));
  if (m.neg_lo) word((syn == Syntax::MFMA ? "neg:" : "neg_lo:") + bit_list(m.neg_lo, list_len(m.neg_lo)));
  if (m.neg_hi) word("neg_hi:" + bit_list(m.neg_hi, list_len(m.neg_hi)));
  if (m.cbsz) word("cbsz:" + std::to_string(m.cbsz));
  if (m.abid) word("abid:" + std::to_string(m.abid));
  if (m.blgp) word("blgp:" + std::to_string(m.blgp));
  if (m.clamp) word("clamp");
  if (m.omod == 1) word("mul:2");
  if (m.omod == 2) word("mul:4");
  if (m.omod == 3) word("div:2");
  if (!m.extra.empty()) word(m.extra);
}

std::string print(const MachineInst& mi) {
  std::string s;
  s.reserve(64 + mi.comment.size());
  print_to(s, mi);
  return s;
}

// ---------------------------------------------------------------- parsing

bool parse(std::string_view line, MachineInst& out, std::string& error) {
  const uint64_t address = out.address;  // kept: decoded branch targets are relative to it
  const uint8_t size_bytes = out.size_bytes;
  out = MachineInst{};
  out.address = address;
  out.size_bytes = size_bytes;
  auto fail = [&](const std::string& why) {
    error = why + " in '" + std::string(trim(line)) + "'";
    return false;
  };

  std::string_view text = line;
  auto semi = text.find(';');
  if (semi != std::string_view::npos) {
    out.comment = std::string(trim(text.substr(semi + 1)));
    text = text.substr(0, semi);
  }
  for (size_t p = text.find("//"); p != std::string_view::npos; p = text.find("//", p + 2)) {
    if (p == 0 || std::isspace(static_cast<unsigned char>(text[p - 1]))) {  // llvm-objdump's trailing comments
      text = text.substr(0, p);
      break;
    }
  }
  text = trim(text);
  if (text.empty()) return fail("empty instruction");
  if (auto c = text.find("/*"); c != std::string_view::npos) {
    // LLVM's disassembler annotates encodings it considers invalid (e.g. misaligned tuples).
    auto close = text.find("*/", c);
    return fail("LLVM marks this encoding invalid: " +
                std::string(trim(text.substr(c + 2, close == std::string_view::npos ? std::string_view::npos : close - c - 2))));
  }

  // Mnemonic.
  size_t end = 0;
  while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
  std::string_view mnem = text.substr(0, end);
  if (mnem.back() == ':' && end == text.size()) {
    out.label_def = std::string(mnem.substr(0, mnem.size() - 1));
    return true;
  }
  for (char c : mnem)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return fail("bad mnemonic '" + std::string(mnem) + "' (expected lower-case letters, digits, '_')");
  out.mnemonic = std::string(mnem);
  out.info = find(base_mnemonic(mnem));
  std::string_view rest = trim(text.substr(end));
  ParseContext ctx{mnem, address, out.info};

  if (mnem == "s_waitcnt") {
    if (rest.empty()) return fail("s_waitcnt needs an operand");
    int64_t v;
    std::string err;
    try {
      if (!parse_waitcnt(rest, v, err)) return fail(err);
    } catch (const std::exception& e) {
      return fail(e.what());
    }
    out.operands.push_back(Operand::immediate(v));
    return true;
  }
  if (rest.empty()) return true;

  // Comma-separated operands; the last item may carry space-separated modifiers.
  std::vector<std::string_view> items = split_top(rest, ',');
  std::vector<std::string_view> mod_words;
  {
    std::vector<std::string_view> last = split_top(items.back(), ' ');
    items.pop_back();
    size_t first_mod = 0;
    if (!last.empty() && !is_modifier_word(last[0])) {
      items.push_back(last[0]);
      first_mod = 1;
    }
    for (size_t i = first_mod; i < last.size(); ++i) mod_words.push_back(last[i]);
  }
  for (auto item : items) {
    if (item.empty()) return fail("empty operand");
    if (split_top(item, ' ').size() != 1) return fail("unexpected text in operand '" + std::string(item) + "'");
    Operand o;
    std::string err;
    ctx.index = out.operands.size();
    if (!parse_operand(item, ctx, o, err)) return fail(err);
    out.operands.push_back(std::move(o));
  }
  for (auto w : mod_words) {
    if (!is_modifier_word(w)) return fail("unexpected '" + std::string(w) + "' after the operands");
    std::string err;
    if (!parse_modifier(w, ctx, out.mods, err)) return fail(err);
  }
  return true;
}

}  // namespace cdnajit::isa
