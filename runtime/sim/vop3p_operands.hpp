// VOP3P operand selection, shared by the packed handlers (vpk16 / vpk32, ops_valu.cpp) and their
// MODE handlers (ops_rounding.cpp): op_sel picks the half (16-bit) or dword (packed f32) of each source
// for the low result element, op_sel_hi for the high one; neg_lo / neg_hi flip that element's sign bit.
#pragma once
#include <cstdint>
#include <cstring>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

// h[e][i]: source i's 16-bit operand for result half e (0 low, 1 high) in `lane`. An inline constant
// of a packed f16 instruction is its f16 value in both halves.
inline void pk16_operands(Wave& w, const Op& op, int lane, uint32_t (&h)[2][3]) {
  for (int i = 0; i < 3; ++i) h[0][i] = h[1][i] = 0;
  for (int i = 0; i < op.ns && i < 3; ++i) {
    uint32_t v = lane_src(w, op.s[i], lane);
    if (op.s[i].k == SrcKind::Const && op.s[i].val < 0x10000 && op.ft == FType::F16) v = v | (v << 16);
    uint32_t lo = (op.op_sel >> i) & 1 ? v >> 16 : v & 0xffff;
    uint32_t hi = (op.op_sel_hi >> i) & 1 ? v >> 16 : v & 0xffff;
    if ((op.neg_lo >> i) & 1) lo ^= 0x8000;
    if ((op.neg_hi >> i) & 1) hi ^= 0x8000;
    h[0][i] = lo & 0xffff;
    h[1][i] = hi & 0xffff;
  }
}

// Packed f32 (gfx90a+): sources are 64-bit pairs. src[i][e] points at source i's 64 lanes for result
// dword e, neg applied and f32 input denormals flushed as MODE's f32 field says (the packed f32
// instructions are f32 arithmetic, like the scalar ones: CDNA3/CDNA4 ISA guides, MODE.FP_DENORM).
// A VGPR source needing neither is read in place; the others are copied into tmp. Absent sources
// read as zero.
inline void pk32_operands(Wave& w, const Op& op, uint32_t (&tmp)[3][2][64], const uint32_t* (&src)[3][2]) {
  static const uint32_t zero[64] = {};
  for (int i = 0; i < 3; ++i) src[i][0] = src[i][1] = zero;
  for (int i = 0; i < op.ns && i < 3; ++i) {
    const Src& s = op.s[i];
    for (int e = 0; e < 2; ++e) {
      int dw = ((e ? op.op_sel_hi : op.op_sel) >> i) & 1;
      bool neg = ((e ? op.neg_hi : op.neg_lo) >> i) & 1;
      if (s.k == SrcKind::V && !neg && !w.flush_in_f32) { src[i][e] = w.vr(uint16_t(s.idx + dw)); continue; }
      uint32_t* t = tmp[i][e];
      if (s.k == SrcKind::V) std::memcpy(t, w.vr(uint16_t(s.idx + dw)), 256);
      else { uint32_t x = s.k == SrcKind::Const ? uint32_t(s.val) : lane_src(w, s, 0, dw); for (int l = 0; l < 64; ++l) t[l] = x; }
      if (neg) for (int l = 0; l < 64; ++l) t[l] ^= 0x80000000u;
      if (w.flush_in_f32) for (int l = 0; l < 64; ++l) t[l] = flush_denorm32(t[l]);
      src[i][e] = t;
    }
  }
}

}  // namespace cdnajit::sim
