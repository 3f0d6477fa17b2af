#include "jit/isa/cross_lane.hpp"

#include <bit>
#include <cstdio>

namespace cdnajit::isa {

std::optional<std::string> dpp_ctrl_text(uint16_t c) {
  using namespace dpp;
  auto n = [](int v) { return std::to_string(v); };
  if (c <= kQuadPermLast)
    return "quad_perm:[" + n(c & 3) + "," + n(c >> 2 & 3) + "," + n(c >> 4 & 3) + "," + n(c >> 6 & 3) + "]";
  if (c > kRowShl && c <= kRowShl + 15) return "row_shl:" + n(c & 15);
  if (c > kRowShr && c <= kRowShr + 15) return "row_shr:" + n(c & 15);
  if (c > kRowRor && c <= kRowRor + 15) return "row_ror:" + n(c & 15);
  switch (c) {
    case kWaveShl1: return "wave_shl:1";
    case kWaveRol1: return "wave_rol:1";
    case kWaveShr1: return "wave_shr:1";
    case kWaveRor1: return "wave_ror:1";
    case kRowMirror: return "row_mirror";
    case kRowHalfMirror: return "row_half_mirror";
    case kRowBcast15: return "row_bcast:15";
    case kRowBcast31: return "row_bcast:31";
    default: break;
  }
  if (c >= kRowNewBcast && c <= kRowNewBcast + 15) return "row_newbcast:" + n(c & 15);
  return std::nullopt;
}

// Every control gfx9 defines is on both supported archs (LLVM 22 AMDGPUAsmParser: row_newbcast needs
// gfx90a insts, which gfx942 and gfx950 have; wave_*/row_bcast are refused only from gfx10 on). Kept as
// a function so that an arch without one of them changes this one place.
bool dpp_ctrl_on(uint16_t ctrl, Arch) { return dpp_ctrl_text(ctrl).has_value(); }

std::string dpp_modifier_text(uint16_t ctrl, uint8_t row_mask, uint8_t bank_mask, bool bound_ctrl) {
  char masks[48];
  std::snprintf(masks, sizeof masks, " row_mask:0x%x bank_mask:0x%x", row_mask & 15u, bank_mask & 15u);
  return dpp_ctrl_text(ctrl).value_or("dpp_ctrl:?") + masks + (bound_ctrl ? " bound_ctrl:1" : "");
}

bool dpp_may_keep_old(uint16_t c, uint8_t row_mask, uint8_t bank_mask, bool bound_ctrl) {
  using namespace dpp;
  if ((row_mask & 15) != 15 || (bank_mask & 15) != 15) return true;
  if (bound_ctrl) return false;
  const bool shifts = (c > kRowShl && c <= kRowShl + 15) || (c > kRowShr && c <= kRowShr + 15);
  return shifts || c == kWaveShl1 || c == kWaveShr1 || c == kRowBcast15 || c == kRowBcast31;
}

namespace {
bool is_vgpr_kind(OpKind k) { return k == OpKind::VReg || k == OpKind::VSrc || k == OpKind::VSrcNoLit; }
}  // namespace

bool accepts_dpp(const InstrInfo& info, std::string& why) {
  if (info.family != Family::VOP1 && info.family != Family::VOP2) {
    why = "only VOP1/VOP2 instructions have a DPP form on gfx9 (this one is " + std::string(family_name(info.family)) + ")";
    return false;
  }
  const OperandSpec* src0 = nullptr;
  for (const OperandSpec& o : info.operands) {
    if (o.kind == OpKind::Imm) return why = "it takes a literal constant operand, which the DPP encoding has no room for", false;
    if (o.kind == OpKind::AReg) return why = "it has an AGPR operand", false;
    if (o.is_def && o.kind == OpKind::SReg && o.dwords == 1) return why = "it writes an SGPR result", false;
    if (o.name == "src0") src0 = &o;
  }
  if (!src0 || !is_vgpr_kind(src0->kind)) return why = "it has no VGPR src0 for DPP to permute", false;
  if (src0->is_def) return why = "its src0 is also written (an operand swap has no DPP form)", false;
  return true;
}

bool is_dp_alu_dpp(const InstrInfo& info) {
  for (const OperandSpec& o : info.operands)
    if (is_vgpr_kind(o.kind) && o.dwords == 2) return true;
  return false;
}

bool dpp_ctrl_allowed(const InstrInfo& info, Arch arch, uint16_t ctrl, std::string& why) {
  std::string reason;
  if (!accepts_dpp(info, reason)) {
    why = std::string(info.mnemonic) + " takes no DPP control: " + reason +
          " (valid: a VOP1/VOP2 instruction such as v_mov_b32, v_add_f32, v_max_i32 with a VGPR src0)";
    return false;
  }
  if (!dpp_ctrl_on(ctrl, arch)) {
    why = "DPP control code " + std::to_string(ctrl) + " is not defined on " + std::string(arch_name(arch));
    return false;
  }
  const bool newbcast = ctrl >= dpp::kRowNewBcast && ctrl <= dpp::kRowNewBcast + 15;
  if (is_dp_alu_dpp(info) && !newbcast) {
    why = std::string(info.mnemonic) + " has a 64-bit operand, whose DPP form (DP ALU DPP) takes only row_newbcast (got " +
          *dpp_ctrl_text(ctrl) + "; valid: Dpp::row_newbcast(0..15))";
    return false;
  }
  return true;
}

std::optional<std::string> swizzle_offset_text(uint16_t v) {
  auto n = [](int x) { return std::to_string(x); };
  if (v == 0) return std::nullopt;  // LLVM prints no offset at all
  if (v >= 0xc000) return std::nullopt;  // ROTATE/FFT: printed as a number (see header)
  if ((v & 0xff00) == 0x8000)
    return "swizzle(QUAD_PERM," + n(v & 3) + "," + n(v >> 2 & 3) + "," + n(v >> 4 & 3) + "," + n(v >> 6 & 3) + ")";
  if (v & 0x8000) return std::nullopt;
  const int a = v & 31, o = v >> 5 & 31, x = v >> 10 & 31;
  if (a == 31 && o == 0 && std::popcount(unsigned(x)) == 1) return "swizzle(SWAP," + n(x) + ")";
  if (a == 31 && o == 0 && x > 0 && std::has_single_bit(unsigned(x + 1))) return "swizzle(REVERSE," + n(x + 1) + ")";
  const int group = 31 - a + 1;
  if (group > 1 && std::has_single_bit(unsigned(group)) && o < group && x == 0)
    return "swizzle(BROADCAST," + n(group) + "," + n(o) + ")";
  if ((o & a) != 0 || (x & ~a) != 0) return std::nullopt;  // LLVM's mask text would lose bits
  std::string mask;
  for (int bit = 16; bit; bit >>= 1) mask += (a & bit) ? ((x & bit) ? 'i' : 'p') : ((o & bit) ? '1' : '0');
  return "swizzle(BITMASK_PERM,\"" + mask + "\")";
}

bool offset_is_swizzle(const InstrInfo& info) { return info.family == Family::DS && info.mnemonic == "ds_swizzle_b32"; }

}  // namespace cdnajit::isa
