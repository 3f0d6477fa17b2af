// The f16 multiply-adds without a MODE handler elsewhere, under a non-default MODE (s_setreg of FP_ROUND /
// FP_DENORM): v_subrev_f16, v_mad_f16 (also v_mad_legacy_f16, v_madak_f16, v_madmk_f16), v_mac_f16,
// v_fma_legacy_f16 and v_pk_fmac_f16. The default handlers are in ops_valu.cpp (v_subrev_f16) and
// ops_valu_legacy.cpp; v_div_fixup_f16 honours MODE in its default handler there. The rules are those
// of ops_rounding.cpp: one rounding in the f16 round mode (MODE.FP_ROUND[3:2]), inputs and the result
// flushed as the f16/f64 denormal field (MODE.FP_DENORM[7:6]) says, then clamp/omod.
//
// The fusion is the default handlers': v_fma_legacy_f16 and v_pk_fmac_f16 round once (an fma); the mads
// round the product to f16 and then the sum (ops_valu_legacy.cpp, mad16), each step in the mode. Whether
// the rounded product, an intermediate, is flushed when it is an f16 denormal is not published: with the
// field flushing both inputs and outputs it is flushed (it would be either way), with it keeping both it
// is kept, and with it flushing only one of them such a product is an Error rather than a guess.
#include "runtime/sim/fp.hpp"
#include "runtime/sim/mode_round.hpp"
#include "runtime/sim/output_modifiers.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

// a * b rounded to f16 in the mode, then + c rounded again (a, b, c: f16 bits, source modifiers applied).
uint16_t mad16_in_mode(Wave& w, const Op& op, int lane, uint16_t a, uint16_t b, uint16_t c) {
  const bool fi = w.flush_in_f16_64;
  const double exact = double(f16_to_f32(flush16(a, fi))) * double(f16_to_f32(flush16(b, fi)));
  uint16_t p = round_to_f16(exact, w.round_f16_64);
  if ((p & 0x7c00) == 0 && (p & 0x03ff) != 0 && w.flush_in_f16_64 != w.flush_out_f16_64)
    fail(w, op, "the f16 product of a mad is a denormal while the f16/f64 denormal field (MODE[7:6] = " +
                    std::to_string((w.mode >> 6) & 3) + ") flushes only inputs or only outputs, and whether the "
                    "hardware flushes that intermediate is not published (valid: fields 0 or 3)", lane);
  return f16_in_mode<0>(w, flush16(p, w.flush_out_f16_64), c, 0);
}

// K: 0 mad (s0 * s1 + s2; madak / madmk in asm order, as the default handler), 1 mac (+ vdst),
// 2 fma (v_fma_legacy_f16), 3 subrev (s1 - s0). The result is written zero-extended.
template <int K>
void f16_op(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l, uint32_t old) {
    const uint16_t a = src16(w, op, 0, l), b = src16(w, op, 1, l);
    uint16_t r;
    if (K == 0) r = mad16_in_mode(w, op, l, a, b, src16(w, op, 2, l));
    else if (K == 1) r = mad16_in_mode(w, op, l, a, b, uint16_t(old));
    else if (K == 2) r = f16_in_mode<4>(w, a, b, src16(w, op, 2, l));
    else r = f16_in_mode<1>(w, b, a, 0);
    return out_mods_f16(w, op, r);
  });
}

// v_pk_fmac_f16 (VOP2): each half, D.h = fma(S0.h, S1.h, D.h) rounded once in the f16 mode.
void pk_fmac_f16(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l, uint32_t c) {
    const uint32_t a = lane_src(w, op.s[0], l), b = lane_src(w, op.s[1], l);
    uint32_t r = 0;
    for (int h = 0; h < 2; ++h)
      r |= uint32_t(f16_in_mode<4>(w, uint16_t(a >> (16 * h)), uint16_t(b >> (16 * h)), uint16_t(c >> (16 * h)))) << (16 * h);
    return r;
  });
}

}  // namespace

void register_mode_f16(Registry& r) {
  r.set_moded(O::v_subrev_f16, &f16_op<3>);
  r.set_moded(O::v_mad_f16, &f16_op<0>);
  r.set_moded(O::v_mad_legacy_f16, &f16_op<0>);
  r.set_moded(O::v_madak_f16, &f16_op<0>);
  r.set_moded(O::v_madmk_f16, &f16_op<0>);
  r.set_moded(O::v_mac_f16, &f16_op<1>);
  r.set_moded(O::v_fma_legacy_f16, &f16_op<2>);
  r.set_moded(O::v_pk_fmac_f16, &pk_fmac_f16);
}

}  // namespace cdnajit::sim
