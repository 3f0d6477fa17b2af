// Cross-lane controls: what the DPP_CTRL field of a VOP1/VOP2 instruction and the 16-bit offset of
// ds_swizzle_b32 mean, which instructions take them on which arch, and how LLVM spells them.
// The builder (jit/kernel.hpp Dpp, Swizzle) and the asm printer read this; nothing else spells a
// control. Sources: AMD "CDNA3 Instruction Set Architecture" (DPP_CTRL enumeration, DS_SWIZZLE_B32),
// LLVM 22 SIDefines.h (DppCtrl, Swizzle), AMDGPUInstPrinter::printDPPCtrl/printSwizzle, and
// llvm-mc-22 -mcpu=gfx942/gfx950 for which rows accept a DPP control (tests/isa/test_cross_lane.cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "jit/isa/isa.hpp"

namespace cdnajit::isa {

// DPP_CTRL codes (9 bits) of gfx9's DPP encoding.
namespace dpp {
constexpr uint16_t kQuadPermLast = 0x0ff;  // quad_perm:[a,b,c,d] = a | b<<2 | c<<4 | d<<6
constexpr uint16_t kRowShl = 0x100;        // row_shl:1..15 = 0x101..0x10f
constexpr uint16_t kRowShr = 0x110;        // row_shr:1..15
constexpr uint16_t kRowRor = 0x120;        // row_ror:1..15
constexpr uint16_t kWaveShl1 = 0x130, kWaveRol1 = 0x134, kWaveShr1 = 0x138, kWaveRor1 = 0x13c;
constexpr uint16_t kRowMirror = 0x140, kRowHalfMirror = 0x141;
constexpr uint16_t kRowBcast15 = 0x142, kRowBcast31 = 0x143;
constexpr uint16_t kRowNewBcast = 0x150;   // row_newbcast:0..15 = 0x150..0x15f (gfx90a and later)
}  // namespace dpp

// The control's text as LLVM prints it ("quad_perm:[1,0,3,2]", "row_shr:3", "row_bcast:15",
// "row_newbcast:2"); nullopt for a code gfx9 does not define.
std::optional<std::string> dpp_ctrl_text(uint16_t ctrl);
// Whether `arch` has the control (every defined code exists on gfx942 and gfx950: row_newbcast came
// with gfx90a; wave_* and row_bcast are gfx8/gfx9 controls that gfx10 dropped).
bool dpp_ctrl_on(uint16_t ctrl, Arch arch);
// The whole DPP modifier text as LLVM prints it: control, row_mask, bank_mask, bound_ctrl:1 if set.
std::string dpp_modifier_text(uint16_t ctrl, uint8_t row_mask, uint8_t bank_mask, bool bound_ctrl);

// Whether a DPP instruction may leave some lanes' destination unwritten with the whole EXEC
// enabled: a row or bank mask other than 0xf, or a control with out-of-range source lanes
// (row_shl/shr, wave_shl/shr, row_bcast) without bound_ctrl.
bool dpp_may_keep_old(uint16_t ctrl, uint8_t row_mask, uint8_t bank_mask, bool bound_ctrl);

// Whether a row has a DPP form on gfx942/gfx950: the VOP1/VOP2 rows that read a VGPR src0, write no
// SGPR and no AGPR, take no literal (v_fmaak/v_madmk ...) and do not swap their operands (v_swap,
// v_permlane*_swap). VOPC and VOP3 have no DPP form on gfx9. When false, `why` says which rule.
bool accepts_dpp(const InstrInfo& info, std::string& why);
// A row with a 64-bit VGPR operand ("DP ALU DPP", gfx90a and later) takes row_newbcast only.
bool is_dp_alu_dpp(const InstrInfo& info);
// Whether `ctrl` may be used on the row; false with `why` (what is wrong and what would be valid).
bool dpp_ctrl_allowed(const InstrInfo& info, Arch arch, uint16_t ctrl, std::string& why);

// ds_swizzle_b32 offsets. Bit 15 set: quad mode, bits [7:0] four 2-bit lane selects within each
// group of 4 lanes (bits 14..8 zero). Bit 15 clear: bitmask mode within each group of 32 lanes,
// lane = ((l & and) | or) ^ xor with and = bits [4:0], or = [9:5], xor = [14:10].
constexpr uint16_t swizzle_quad_offset(int l0, int l1, int l2, int l3) {
  return uint16_t(0x8000 | (l0 & 3) | (l1 & 3) << 2 | (l2 & 3) << 4 | (l3 & 3) << 6);
}
constexpr uint16_t swizzle_bitmask_offset(int and_mask, int or_mask, int xor_mask) {
  return uint16_t((and_mask & 31) | (or_mask & 31) << 5 | (xor_mask & 31) << 10);
}
// The offset as LLVM prints it ("swizzle(QUAD_PERM,1,0,3,2)", "swizzle(SWAP,16)",
// "swizzle(BITMASK_PERM,\"01pip\")", ...); nullopt where the printed form would not assemble back
// to the same 16 bits (LLVM's BITMASK_PERM text drops an xor or or bit under a zero and bit, and
// the simulator does not model the ROTATE/FFT codes), which are then printed as a number.
std::optional<std::string> swizzle_offset_text(uint16_t offset);
// Whether the row's offset: field is a swizzle pattern rather than a byte offset (ds_swizzle_b32).
bool offset_is_swizzle(const InstrInfo& info);

}  // namespace cdnajit::isa
