// DPP (data-parallel primitives on VOP1/VOP2 src0) and ds_swizzle_b32.
#include <bit>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

// Source lane for lane l under a DPP_CTRL value; -1 when out of range.
static int dpp_source(int l, uint16_t c) {
  int row = l & ~15, in = l & 15;
  if (c <= 0xff) return (l & ~3) + ((c >> (2 * (l & 3))) & 3);  // quad_perm
  if (c >= 0x101 && c <= 0x10f) { int s = in + (c & 15); return s < 16 ? row + s : -1; }  // row_shl
  if (c >= 0x111 && c <= 0x11f) { int s = in - (c & 15); return s >= 0 ? row + s : -1; }  // row_shr
  if (c >= 0x121 && c <= 0x12f) return row + ((in - (c & 15)) & 15);                      // row_ror
  if (c == 0x130) return l + 1 < 64 ? l + 1 : -1;  // wave_shl:1
  if (c == 0x134) return (l + 1) & 63;             // wave_rol:1
  if (c == 0x138) return l >= 1 ? l - 1 : -1;      // wave_shr:1
  if (c == 0x13c) return (l - 1) & 63;             // wave_ror:1
  if (c == 0x140) return row + (15 - in);          // row_mirror
  if (c == 0x141) return row + ((in & 8) | (7 - (in & 7)));  // row_half_mirror
  if (c == 0x142) return row > 0 ? row - 1 : -1;  // row_bcast:15: lane 15 of the previous row
  if (c == 0x143) return l >= 32 ? 31 : -1;        // row_bcast:31: lane 31 to rows 2 and 3
  if (c >= 0x150 && c <= 0x15f) return row + (c & 15);  // row_newbcast:N: lane N of the row to the whole row
  return -3;
}

// DP ALU DPP (gfx90a and later, so gfx942 and gfx950): the DPP form of a VOP1/VOP2 instruction with a
// 64-bit VGPR operand (v_mov_b64, v_fmac_f64, the f64 VOP1 ops and conversions, v_cvt_pk_f32_fp8/bf8).
// LLVM 22 accepts only row_newbcast for it (AMDGPUBaseInfo.h isLegalDPALU_DPPControl; its assembler
// says "DP ALU dpp only supports row_newbcast", its disassembler prints that as a comment instead of
// another control), and AMDGPUModifierSyntax.rst's dpp64_ctrl lists row_newbcast alone.
static bool dp_alu(const Op& op) {
  for (int i = 0; i < op.nd; ++i)
    if (op.d[i].k == SrcKind::V && op.d[i].n == 2) return true;
  for (int i = 0; i < op.ns; ++i)
    if (op.s[i].k == SrcKind::V && op.s[i].n == 2) return true;
  return false;
}

// The permuted src0 goes to kDppScratch (which op.s[0] names); h runs with EXEC narrowed to the lanes
// DPP writes. h is op.inner, or under a non-default MODE the instruction's MODE handler (run_in_float_mode).
// A 64-bit src0 moves as one value per lane (both dwords from the same source lane): llc-22 lowers
// llvm.amdgcn.update.dpp.i64 with control 0x151 to one v_mov_b64_dpp row_newbcast:1 on gfx942/gfx950, to
// two v_mov_b32_dpp row_newbcast:1 (one per dword) on gfx90a and to two v_mov_b32_dpp row_share:1 (the
// same control code) on gfx10; LLVM's test/CodeGen/AMDGPU/dpp64_combine.ll folds the same into v_ceil_f64_dpp.
void dpp_run(Wave& w, const Op& op, Handler h) {
  if (dp_alu(op) && !(op.dpp_ctrl >= 0x150 && op.dpp_ctrl <= 0x15f))
    fail(w, op, "DPP control " + hex(op.dpp_ctrl) + " on an instruction with a 64-bit operand: only row_newbcast is "
                "defined there (LLVM 22 accepts nothing else for DP ALU DPP; no public document says what the hardware "
                "does with another control)");
  uint64_t e = w.exec(), write = 0;
  const int dwords = op.s[0].n;  // 2 for a 64-bit src0
  uint32_t* scratch[2] = {w.vr(kDppScratch), w.vr(kDppScratch + 1)};
  const uint32_t* src[2] = {w.vr(op.dpp_src), dwords == 2 ? w.vr(uint16_t(op.dpp_src + 1)) : nullptr};
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    if (!((op.row_mask >> (l >> 4)) & 1) || !((op.bank_mask >> ((l >> 2) & 3)) & 1)) continue;
    int s = dpp_source(l, op.dpp_ctrl);
    if (s == -3) fail(w, op, "DPP control " + hex(op.dpp_ctrl) + " is not implemented by the simulator");
    if (s < 0 || !((e >> s) & 1)) {
      if (!op.bound_ctrl) continue;  // lane keeps its old destination value
      for (int k = 0; k < dwords; ++k) scratch[k][l] = 0;
    } else {
      for (int k = 0; k < dwords; ++k) scratch[k][l] = src[k][s];
    }
    write |= 1ull << l;
  }
  w.set_exec(write);
  h(w, op);
  w.set_exec(e);
}

void dpp_exec(Wave& w, const Op& op) { dpp_run(w, op, op.inner); }

// ds_swizzle_b32 d, addr offset:N (the address operand is unused).
void ds_swizzle(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  uint32_t src[64], r[64];
  const uint32_t* in = w.vr(op.s[1].k == SrcKind::V ? op.s[1].idx : op.s[0].idx);
  for (int l = 0; l < 64; ++l) src[l] = ((e >> l) & 1) ? in[l] : 0;
  uint32_t off = uint32_t(op.offset) & 0xffff;
  for (int l = 0; l < 64; ++l) {
    int s;
    if (off & 0x8000) s = (l & ~3) | int((off >> (2 * (l & 3))) & 3);  // quad permute
    else {
      int and_m = int(off & 31), or_m = int((off >> 5) & 31), xor_m = int((off >> 10) & 31);
      s = (l & 32) | ((((l & 31) & and_m) | or_m) ^ xor_m);
    }
    r[l] = src[s];
  }
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) d[l] = r[l];
  pend_add(w, op, 2, 1, op.d[0].idx, 1);
}

}  // namespace cdnajit::sim
