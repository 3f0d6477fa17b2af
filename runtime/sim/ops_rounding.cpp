// The common VALU float arithmetic under a non-default MODE (s_setreg of FP_ROUND / FP_DENORM):
// f32 add/sub/subrev/mul/fma/fmac/fmamk/fmaak, f16 add/sub/mul/fma, f64 add/mul/fma/fmac,
// packed f16 and f32 add/mul/fma (per element, on the VOP3P-selected operands), v_cvt_f16_f32,
// v_cvt_f32_f64, v_cvt_f32_i32/u32 and v_cvt_f32_f16. The simulator runs these handlers instead of the
// default ones while the wave's MODE differs from round-to-nearest-even with f16/f64 denormals kept
// (run_in_mode in ops_mode.cpp).
//
// Round modes (ISA guides, MODE.FP_ROUND: 0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward
// zero; [1:0] for f32 results, [3:2] for f16 and f64 results) follow IEEE 754 directed rounding,
// including overflow (toward zero / away from the infinity's side gives the largest finite value)
// and the sign of an exact zero sum (-0 only when rounding toward -inf). Denormal modes
// (MODE.FP_DENORM: 0 flush inputs and outputs, 1 flush outputs, 2 flush inputs, 3 keep; [5:4] f32,
// [7:6] f16/f64) flush to a zero of the same sign, before (inputs) or after (outputs) rounding.
//
// f32 and f16 results: the exact result, or an f64 rounded to odd (fma_f32_round_odd, fp.hpp), is
// rounded once in the mode; rounding to odd at 53 bits keeps enough information for any rounding
// direction to 24 or 11 bits (Boldo & Melquiond, IEEE Trans. Computers 57(4), 2008).
// f64 results: the host FPU in the same rounding direction (fesetround around volatile operands;
// this file is compiled with -frounding-math).
#include <cfenv>
#include <cmath>
#include <utility>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/lane_op.hpp"
#include "runtime/sim/mode_round.hpp"
#include "runtime/sim/output_modifiers.hpp"
#include "runtime/sim/sim_internal.hpp"
#include "runtime/sim/vop3p_operands.hpp"

namespace cdnajit::sim {
namespace {

// K: 0 add, 1 sub, 2 subrev, 3 mul, 4 fma(s0, s1, s2) (also fmamk/fmaak), 5 fmac (addend = vdst).
template <int K>
void f32_arith(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l, uint32_t old) {
    float a = as_f(src32(w, op, 0, l)), b = as_f(src32(w, op, 1, l));
    float c = K == 4 ? as_f(src32(w, op, 2, l)) : K == 5 ? as_f(w.flush_in_f32 ? flush_denorm32(old) : old) : 0.0f;
    return f32_result(w, op, f32_rounded<K>(a, b, c, w.round_f32));
  });
}

// v_pk_add/mul/fma_f32: each dword of the VOP3P-selected operands (pk32_operands, which also flushes
// inputs per the f32 field) is the scalar operation in the f32 round mode; clamp, then the output flush,
// per dword as in vpk32 (ops_valu.cpp). K: 0 add, 3 mul, 4 fma.
template <int K>
void pk_f32_in_mode(Wave& w, const Op& op) {
  alignas(64) uint32_t tmp[3][2][64];
  const uint32_t* src[3][2];
  pk32_operands(w, op, tmp, src);
  uint32_t *d0 = w.vr(op.d[0].idx), *d1 = w.vr(uint16_t(op.d[0].idx + 1));
  for_active_lanes(w, [&](int l) {
    uint32_t r[2];
    for (int h = 0; h < 2; ++h)  // both dwords before either is written: a source may be the destination
      r[h] = f32_result(w, op, f32_rounded<K>(as_f(src[0][h][l]), as_f(src[1][h][l]), as_f(src[2][h][l]), w.round_f32));
    d0[l] = r[0];
    d1[l] = r[1];
  });
}

// K: 0 add, 1 sub, 3 mul, 4 fma. The result is written zero-extended (gfx9 16-bit VOP2/VOP3).
template <int K>
void f16_arith(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l) {
    uint16_t c = K == 4 ? src16(w, op, 2, l) : 0;
    return out_mods_f16(w, op, f16_in_mode<K>(w, src16(w, op, 0, l), src16(w, op, 1, l), c));
  });
}

// v_pk_add/mul/fma_f16: each half of the VOP3P-selected operands (pk16_operands) is the scalar f16
// operation under the MODE; clamp per half as in vpk16 (ops_valu.cpp). K: 0 add, 3 mul, 4 fma.
template <int K>
void pk_f16_in_mode(Wave& w, const Op& op) {
  uint32_t* d = w.vr(op.d[0].idx);
  for_active_lanes(w, [&](int l) {
    uint32_t h[2][3];
    pk16_operands(w, op, l, h);
    uint32_t r = 0;
    for (int x = 0; x < 2; ++x)
      r |= out_mods_f16(w, op, f16_in_mode<K>(w, uint16_t(h[x][0]), uint16_t(h[x][1]), uint16_t(h[x][2]))) << (16 * x);
    d[l] = r;
  });
}

void cvt_f16_f32(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l) {
    return out_mods_f16(w, op, flush16(round_to_f16(double(as_f(src32(w, op, 0, l))), w.round_f16_64), w.flush_out_f16_64));
  });
}

// v_cvt_f32_i32 / v_cvt_f32_u32: the integer is exact in a double, rounded once in the f32 mode.
template <bool SIGNED>
void cvt_f32_int(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l) {
    uint32_t u = lane_src(w, op.s[0], l);
    return out_mods_f32(w, op, round_to_f32(SIGNED ? double(int32_t(u)) : double(u), w.round_f32));
  });
}

// v_cvt_f32_f16: exact; the f16 input follows the f16/f64 denormal mode.
void cvt_f32_f16(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l) { return out_mods_f32(w, op, as_u(f16_to_f32(src16(w, op, 0, l)))); });
}

// v_cvt_f32_f64 takes an f64 and gives an f32, and which MODE fields govern it is not settled: LLVM 22
// lowers llvm.fptrunc.round.f32.f64 by setting the f16/f64 round field (MODE[3:2]) around it, while the
// guides describe FP_ROUND per result precision ([1:0] single, [3:2] double/half), which points at the
// f32 field for an f32 result (the simulator's reading before). Where the two fields agree the result is the same under either
// reading; where they differ (round direction, or output flushing of an f32 denormal result) it is an
// Error rather than a guess.
void cvt_f32_f64(Wave& w, const Op& op) {
  refuse_sdwa_opsel(w, op);
  if (w.round_f32 != w.round_f16_64)
    fail(w, op, "the f32 round mode (MODE[1:0] = " + std::to_string(w.round_f32) + ") and the f16/f64 round mode "
                "(MODE[3:2] = " + std::to_string(w.round_f16_64) + ") differ, and which one rounds v_cvt_f32_f64 is not "
                "published (LLVM 22's fptrunc.round lowering sets MODE[3:2]; the result's precision points at MODE[1:0]); valid: equal "
                "round fields");
  uint32_t* d = w.vr(op.d[0].idx);
  for_active_lanes(w, [&](int l) {
    uint32_t r = out_mods_f32(w, op, round_to_f32(as_d(src64(w, op, 0, l)), w.round_f32));
    if (w.flush_out_f32 != w.flush_out_f16_64 && (r & 0x7f800000u) == 0 && (r & 0x007fffffu) != 0)
      fail(w, op, "an f32 denormal result while only one of the f32 and f16/f64 denormal fields flushes outputs: which "
                  "field governs the f32 result of v_cvt_f32_f64 is not published (valid: both fields flushing, or "
                  "neither)", l);
    d[l] = w.flush_out_f32 ? flush_denorm32(r) : r;
  });
}

// K: 0 add, 3 mul, 4 fma, 5 fmac (addend = vdst).
template <int K>
void f64_arith(Wave& w, const Op& op) {
  uint32_t *d0 = w.vr(op.d[0].idx), *d1 = w.vr(uint16_t(op.d[0].idx + 1));
  for_active_lanes(w, [&](int l) {
    volatile double a = as_d(src64(w, op, 0, l)), b = as_d(src64(w, op, 1, l));
    volatile double c = K == 4   ? as_d(src64(w, op, 2, l))
                        : K == 5 ? as_d(flush64(uint64_t(d0[l]) | uint64_t(d1[l]) << 32, w.flush_in_f16_64))
                                 : 0.0;
    volatile double r;
    {
      HostRounding hr(w.round_f16_64);
      r = K == 0 ? a + b : K == 3 ? a * b : std::fma(a, b, c);  // K 4 and 5: fma
    }
    uint64_t u = out_mods_f64(w, op, flush64(as_u64(r), w.flush_out_f16_64));
    d0[l] = uint32_t(u);
    d1[l] = uint32_t(u >> 32);
  });
}

}  // namespace

void register_rounding(Registry& r) {
  r.set_moded(O::v_add_f32, &f32_arith<0>);
  r.set_moded(O::v_sub_f32, &f32_arith<1>);
  r.set_moded(O::v_subrev_f32, &f32_arith<2>);
  r.set_moded(O::v_mul_f32, &f32_arith<3>);
  r.set_moded(O::v_fma_f32, &f32_arith<4>);
  r.set_moded(O::v_fmamk_f32, &f32_arith<4>);  // asm order src0, K, src1: fma(src0, K, src1)
  r.set_moded(O::v_fmaak_f32, &f32_arith<4>);
  r.set_moded(O::v_fmac_f32, &f32_arith<5>);
  r.set_moded(O::v_add_f16, &f16_arith<0>);
  r.set_moded(O::v_sub_f16, &f16_arith<1>);
  r.set_moded(O::v_mul_f16, &f16_arith<3>);
  r.set_moded(O::v_fma_f16, &f16_arith<4>);
  r.set_moded(O::v_pk_add_f16, &pk_f16_in_mode<0>);
  r.set_moded(O::v_pk_mul_f16, &pk_f16_in_mode<3>);
  r.set_moded(O::v_pk_fma_f16, &pk_f16_in_mode<4>);
  r.set_moded(O::v_pk_add_f32, &pk_f32_in_mode<0>);
  r.set_moded(O::v_pk_mul_f32, &pk_f32_in_mode<3>);
  r.set_moded(O::v_pk_fma_f32, &pk_f32_in_mode<4>);
  r.set_moded(O::v_cvt_f16_f32, &cvt_f16_f32);
  r.set_moded(O::v_cvt_f32_f64, &cvt_f32_f64);
  r.set_moded(O::v_cvt_f32_i32, &cvt_f32_int<true>);
  r.set_moded(O::v_cvt_f32_u32, &cvt_f32_int<false>);
  r.set_moded(O::v_cvt_f32_f16, &cvt_f32_f16);
  r.set_moded(O::v_add_f64, &f64_arith<0>);
  r.set_moded(O::v_mul_f64, &f64_arith<3>);
  r.set_moded(O::v_fma_f64, &f64_arith<4>);
  r.set_moded(O::v_fmac_f64, &f64_arith<5>);
}

}  // namespace cdnajit::sim
