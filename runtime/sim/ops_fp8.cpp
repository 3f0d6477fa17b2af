// f32 -> fp8/bf8 conversions: v_cvt_pk_fp8_f32, v_cvt_pk_bf8_f32 (two values, round to nearest
// even, into the low or high 16 bits of the destination) and v_cvt_sr_fp8_f32, v_cvt_sr_bf8_f32
// (one value, stochastic rounding with the random bits of src1, into one byte). The other bytes of
// the destination are kept (the ISA guides' pseudo-code writes only the selected field).
// Formats, rounding and special values: fp8_encode.hpp.
//
// Field selects: VOP3 op_sel. LLVM prints the destination select of the _pk_ forms as the third
// op_sel element (op_sel:[0,0,1] = bits [31:16], encoding bit 14 = OPSEL[3]) and the byte select of
// the _sr_ forms as the third and fourth (op_sel:[0,0,b0,b1], OPSEL[3:2]); checked with
// llvm-mc-22 -show-encoding (VOP3 OPSEL is encoding bits [14:11]).
#include "runtime/sim/fp8_encode.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

using U = isa::Unit;

uint32_t f32_source(Wave& w, const Src& s, int lane) {
  uint32_t u = lane_src(w, s, lane);
  if (s.abs) u &= 0x7fffffffu;
  if (s.neg) u ^= 0x80000000u;
  return u;
}

Fp8Format format_of(const Wave& w, bool e5m2) { return Fp8Format{e5m2, w.L->arch == Arch::gfx942}; }

// gfx950: MODE.FP16_OVFL (bit 23) makes the OCP conversions saturate (see fp8_encode.hpp).
bool saturates(const Wave& w) { return w.L->arch == Arch::gfx950 && ((w.mode >> 23) & 1); }

void refuse_unmodelled(Wave& w, const Op& op) {
  if (op.clamp || op.omod || op.sdwa)
    fail(w, op, "clamp, output modifiers and SDWA on an f32 -> fp8 conversion are not modelled by the simulator");
}

template <bool E5M2>
void cvt_pk_to_fp8(Wave& w, const Op& op) {
  refuse_unmodelled(w, op);
  const Fp8Format f = format_of(w, E5M2);
  const bool sat = saturates(w);
  const uint32_t shift = (op.op_sel >> 2) & 1 ? 16 : 0;
  uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t lo = fp8_encode(f32_source(w, op.s[0], l), f, false, 0, sat);
    uint32_t hi = fp8_encode(f32_source(w, op.s[1], l), f, false, 0, sat);
    d[l] = (d[l] & ~(0xffffu << shift)) | ((lo | hi << 8) << shift);
  }
}

template <bool E5M2>
void cvt_sr_to_fp8(Wave& w, const Op& op) {
  refuse_unmodelled(w, op);
  if (op.s[1].neg || op.s[1].abs) fail(w, op, "neg/abs on the random-bits operand of a stochastic conversion is not modelled");
  const Fp8Format f = format_of(w, E5M2);
  const bool sat = saturates(w);
  const uint32_t shift = 8 * ((op.op_sel >> 2) & 3);
  uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t b = fp8_encode(f32_source(w, op.s[0], l), f, true, lane_src(w, op.s[1], l), sat);
    d[l] = (d[l] & ~(0xffu << shift)) | (b << shift);
  }
}

}  // namespace

void register_fp8(Registry& r) {
  r.add("v_cvt_pk_fp8_f32", &cvt_pk_to_fp8<false>, U::VALU, FType::F32);
  r.add("v_cvt_pk_bf8_f32", &cvt_pk_to_fp8<true>, U::VALU, FType::F32);
  r.add("v_cvt_sr_fp8_f32", &cvt_sr_to_fp8<false>, U::VALU, FType::F32);
  r.add("v_cvt_sr_bf8_f32", &cvt_sr_to_fp8<true>, U::VALU, FType::F32);
}

}  // namespace cdnajit::sim
