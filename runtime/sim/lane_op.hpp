// A plain per-lane loop for VALU handlers outside ops_valu.cpp: read each source
// (float neg/abs applied to the given sign bit), compute, write the VGPR
// destination under EXEC. Output modifiers (clamp, omod) apply as the handler's
// result type says (OutMods); where it gives them no meaning they are refused with a
// clear error rather than half-modelled. SDWA reaches these handlers only through
// sdwa_direct_exec (sdwa.hpp), which clears op.sdwa; a set one is refused.
#pragma once
#include <bit>
#include <cstdint>

#include "runtime/sim/output_modifiers.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

// Source i of lane l as a `dwords`-wide raw value with neg/abs on bit `sign_bit` (none if 0).
inline uint64_t lane_operand(Wave& w, const Op& op, int i, int l, int dwords, uint64_t sign_bit) {
  const Src& s = op.s[i];
  uint64_t v = lane_src(w, s, l);
  if (dwords == 2 && (s.n > 1 || s.k == SrcKind::Const)) v |= uint64_t(lane_src(w, s, l, 1)) << 32;
  if (sign_bit) {
    if (s.abs) v &= ~sign_bit;
    if (s.neg) v ^= sign_bit;
  }
  return v;
}

// f(lane) for every lane active in EXEC, counted in lane_ops first: for handlers whose
// destinations lane_op's one-register shape does not fit (packed fields, several registers).
template <class F>
void for_active_lanes(Wave& w, F f) {
  const uint64_t e = w.exec();
  w.lane_ops += uint64_t(std::popcount(e));
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) f(l);
}

// What clamp / omod do to a lane_op result:
//  Refuse:     an Error (the default: their meaning for this result is not established).
//  F32 / F16 / F64: the float result (F16: its low half) gets OMOD then CLAMP (output_modifiers.hpp).
//  IntInRange: an integer result that is always inside its type's range (a frexp exponent, a
//              saturated conversion): CLAMP leaves it unchanged under either reading the guides
//              give the bit (float results clamp to [0, 1]; integer results saturate to the
//              destination type); OMOD (which LLVM 22 does not accept on these) is refused.
enum class OutMods { Refuse, F32, F16, F64, IntInRange };

// d = f(lane, src0, src1, src2) for every active lane; `dst_dwords` 1 or 2.
template <class F>
void lane_op_mods(Wave& w, const Op& op, OutMods mods, int src_dwords, int dst_dwords, uint64_t sign_bit, F f) {
  if (op.sdwa) fail(w, op, "SDWA is not modelled for this instruction");
  if ((op.clamp || op.omod) && (mods == OutMods::Refuse || (op.omod && mods == OutMods::IntInRange)))
    fail(w, op, "clamp and output modifiers are not modelled for this instruction");
  const bool f32_mods = mods == OutMods::F32 && (op.clamp || op.omod);
  const bool f16_mods = mods == OutMods::F16 && (op.clamp || op.omod);
  const bool f64_mods = mods == OutMods::F64 && (op.clamp || op.omod);
  if (op.d[0].k != SrcKind::V) fail(w, op, "VALU destination must be a VGPR");
  const uint64_t e = w.exec();
  uint32_t* lo = w.vr(op.d[0].idx);
  uint32_t* hi = dst_dwords == 2 ? w.vr(uint16_t(op.d[0].idx + 1)) : nullptr;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a = op.ns > 0 ? lane_operand(w, op, 0, l, src_dwords, sign_bit) : 0;
    uint64_t b = op.ns > 1 ? lane_operand(w, op, 1, l, src_dwords, sign_bit) : 0;
    uint64_t c = op.ns > 2 ? lane_operand(w, op, 2, l, src_dwords, sign_bit) : 0;
    uint64_t r = f(l, a, b, c);
    if (f32_mods) r = out_mods_f32(w, op, uint32_t(r));
    if (f16_mods) r = out_mods_f16(w, op, uint32_t(r));
    if (f64_mods) r = out_mods_f64(w, op, r);
    lo[l] = uint32_t(r);
    if (hi) hi[l] = uint32_t(r >> 32);
  }
  w.lane_ops += uint64_t(std::popcount(e));
}

template <class F>
void lane_op(Wave& w, const Op& op, int src_dwords, int dst_dwords, uint64_t sign_bit, F f) {
  lane_op_mods(w, op, OutMods::Refuse, src_dwords, dst_dwords, sign_bit, f);
}

}  // namespace cdnajit::sim
