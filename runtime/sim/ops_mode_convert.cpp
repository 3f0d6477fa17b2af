// MODE handlers (run under a non-default MODE by run_in_float_mode, ops_mode.cpp) for the rounding
// helpers and conversions outside ops_rounding.cpp: v_fract_f16/f32/f64, v_ldexp_f16/f32/f64,
// v_mul_legacy_f32, v_cvt_f16_i16/u16, v_cvt_pkrtz_f16_f32, and the conversions whose MODE behaviour is
// known only in part (gfx950 v_cvt_pk_f16_f32, v_cvt_norm_* / v_cvt_pknorm_*, v_cvt_pk_u8_f32,
// v_cvt_pkaccum_u8_f32). Primitives (one rounding in a MODE direction, flushes, operand fetches):
// mode_round.hpp. Round modes and denormal fields as described there and in ops_rounding.cpp.
//
// Evidence, per instruction (results outside it are Errors naming what is unknown, never guesses):
// - v_fract: S0 - floor(S0) (the CDNA3 guide, as cited in ops_f64.cpp; CLRX's GCN notes, doc/GcnInstrsVop1.md:
//   "SF - FLOOR(SF)"), one add, limited to the largest value below 1
//   (LLVM 22 folds llvm.amdgcn.fract.f32(-1e-30) to 0x3f7fffff, not 1.0: opt-22 -passes=instsimplify). The add
//   rounds in the result type's round mode like any add: e.g. fract(-2^-30) is 1 - 2^-30, which toward
//   zero is 0x3f7fffff and toward +inf 1.0 (then limited); an exact zero is -0 only toward -inf.
// - v_ldexp: S0 * 2^S1 is exact unless it overflows or lands in the denormal range, where it rounds in
//   the result type's mode (IEEE multiply by a power of two). LLVM 22 selects v_ldexp_* for the
//   constrained (dynamic-rounding) llvm.experimental.constrained.ldexp (checked with llc-22), and treats
//   the results of v_ldexp_*, v_fract_* and v_mul_legacy_f32 as already flushed under a flushing mode (it
//   drops llvm.canonicalize after each: llc-22 with "denormal-fp-math"="preserve-sign", gfx942 and gfx950).
// - v_mul_legacy_f32: an f32 multiply in the f32 mode, except that a zero operand (after the input
//   flush) gives +0 whatever the other operand is (as the default handler; CLRX's GCN notes: a 0.0 operand
//   "always" gives 0.0, "do not apply IEEE rules").
// - v_cvt_f16_i16/u16: an integer rounded once to f16 in the f16/f64 round mode (the field LLVM 22 sets
//   around v_cvt_f16_f32 for llvm.fptrunc.round, SIModeRegister.cpp: f16 results follow FP_ROUND[3:2]);
//   65520 and above overflow to inf at nearest even but to 0x7bff toward zero or -inf.
// - v_cvt_pkrtz_f16_f32: rounds toward zero whatever MODE says (the instruction's definition; LLVM's
//   llvm.amdgcn.cvt.pkrtz and its constant folding, AMDGPUInstCombineIntrinsic.cpp, use rmTowardZero).
//   f32 inputs follow the f32 field, the f16 results the f16/f64 field (LLVM 22 drops a canonicalize
//   after it under a flushing f16 mode, so it relies on the result being flushed there).
// - gfx950 v_cvt_pk_f16_f32: its f16 results follow the f16/f64 denormal field (the same LLVM 22
//   canonicalize evidence), but whether either round field acts is not published: LLVM 22 selects it for
//   plain fptrunc <2 x float> but splits llvm.fptrunc.round and the constrained fptrunc with dynamic
//   rounding into two v_cvt_f16_f32 (llc-22, gfx950), so nothing in LLVM relies on it honouring MODE.
// - v_cvt_norm_*, v_cvt_pknorm_*, v_cvt_pk_u8_f32, v_cvt_pkaccum_u8_f32: the guides do not print how the
//   scaled value is rounded to an integer; the CLRX project's GCN notes (doc/GcnInstrsVop1-3.md, GCN 1.4)
//   say v_cvt_norm_* and v_cvt_pk(accum)_u8_f32 round "with rounding mode from MODE register" but not
//   which field, and v_cvt_pknorm_* round to nearest even with a question mark. At nearest even in both
//   fields the denormal fields cannot change their integer results, except through an f16 denormal input
//   (up to 0x03ff * 65535 ~ 4.0) that a flushing f16/f64 field might flush: those run the default
//   handler; a directed round mode, or that input, is an Error.
#include <algorithm>
#include <cmath>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/lane_op.hpp"
#include "runtime/sim/mode_round.hpp"
#include "runtime/sim/output_modifiers.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

// Source i as an integer operand (ldexp's exponent, the integer to convert): the raw lane value with
// neg/abs on the bit the generic fetch uses, so that the MODE and the default handlers read it alike.
uint64_t int_operand(Wave& w, const Op& op, int i, int lane) {
  uint64_t u = lane_src(w, op.s[i], lane);
  const uint64_t sign = src_sign_mask(op, i);
  if (op.s[i].abs) u &= ~sign;
  if (op.s[i].neg) u ^= sign;
  return u;
}

void store64(Wave& w, const Op& op, int l, uint64_t u) {
  w.vr(op.d[0].idx)[l] = uint32_t(u);
  w.vr(uint16_t(op.d[0].idx + 1))[l] = uint32_t(u >> 32);
}

// ---- v_fract: S0 + -floor(S0), rounded once in the mode, limited to the largest value below 1.

void fract_f32(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l) {
    const float a = as_f(src32(w, op, 0, l));
    uint32_t r;
    if (std::isnan(a)) r = as_u(a - std::floor(a));  // the NaN, quieted (as the default handler)
    else if (std::isinf(a)) r = 0x7fc00000u;
    else {
      const float f = -std::floor(a);
      const double x = zero_sum_sign(fma_f32_round_odd(a, 1.0f, f), double(a), double(f), w.round_f32);
      r = round_to_f32(x, w.round_f32);  // in [0, 1] (-0 only toward -inf)
      if (r == 0x3f800000u) r = 0x3f7fffffu;  // 1.0 (rounded up from below 1): the largest f32 below 1
    }
    return f32_result(w, op, r);
  });
}

void fract_f16(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l) {
    const float a = f16_to_f32(src16(w, op, 0, l));
    uint16_t r;
    if (std::isnan(a)) r = f32_to_f16(as_u(a));
    else if (std::isinf(a)) r = 0x7e00;
    else {
      const float f = -std::floor(a);  // a - floor(a) is exact in f32 for an f16 a
      const double x = zero_sum_sign(double(a) + double(f), double(a), double(f), w.round_f16_64);
      r = round_to_f16(x, w.round_f16_64);
      if (r == 0x3c00) r = 0x3bff;  // 1.0 (rounded up from below 1): the largest f16 below 1
      r = flush16(r, w.flush_out_f16_64);
    }
    return out_mods_f16(w, op, r);
  });
}

void fract_f64(Wave& w, const Op& op) {
  refuse_sdwa_opsel(w, op);
  for_active_lanes(w, [&](int l) {
    const volatile double a = as_d(src64(w, op, 0, l));
    uint64_t r;
    if (std::isnan(a)) r = as_u64(a);
    else if (std::isinf(a)) r = 0x7ff8000000000000ull;
    else {
      const double kBelowOne = std::nextafter(1.0, 0.0);
      volatile double x;
      {
        HostRounding hr(w.round_f16_64);
        const volatile double f = std::floor(a);
        x = a - f;  // IEEE subtraction in the mode (an exact zero is -0 only toward -inf)
      }
      r = as_u64(x > kBelowOne ? kBelowOne : double(x));
      r = flush64(r, w.flush_out_f16_64);
    }
    store64(w, op, l, out_mods_f64(w, op, r));
  });
}

// ---- v_ldexp: S0 * 2^S1, exact but for overflow and the denormal range, where it rounds in the mode.

void ldexp_f32(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l) {
    const float a = as_f(src32(w, op, 0, l));
    const int32_t n = int32_t(uint32_t(int_operand(w, op, 1, l)));
    uint32_t r;
    if (!std::isfinite(a) || a == 0) r = as_u(a + a);  // NaN quieted, inf and zeros unchanged
    else r = round_to_f32(std::ldexp(double(a), std::clamp(n, -400, 400)), w.round_f32);  // exact in a double
    return f32_result(w, op, r);
  });
}

void ldexp_f16(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l) {
    const float a = f16_to_f32(src16(w, op, 0, l));
    const int16_t n = int16_t(uint16_t(int_operand(w, op, 1, l)));  // S1.i16
    uint16_t r;
    if (!std::isfinite(a) || a == 0) r = f32_to_f16(as_u(a + a));
    else r = flush16(round_to_f16(std::ldexp(double(a), std::clamp<int>(n, -100, 100)), w.round_f16_64), w.flush_out_f16_64);
    return out_mods_f16(w, op, r);
  });
}

// a * 2^n for a finite non-zero double, rounded once in the host's current direction: the exact part
// of the scaling first (m * 2^k with m in [0.5, 1) stays normal), then one multiply by a normal power of two.
double ldexp_rounded(double a, int32_t n) {
  int e;
  const double m = std::frexp(a, &e);  // a = m * 2^e, exact
  const int k = int(std::clamp<int64_t>(int64_t(e) + n, -1200, 1200));
  if (k >= -1021 && k <= 1024) return std::ldexp(m, k);  // normal: exact
  const int first = k < 0 ? -1000 : 1000;
  const volatile double t = std::ldexp(m, first), s = std::ldexp(1.0, k - first);
  return t * s;  // the one rounding (into the denormal range, or overflow)
}

void ldexp_f64(Wave& w, const Op& op) {
  refuse_sdwa_opsel(w, op);
  for_active_lanes(w, [&](int l) {
    const volatile double a = as_d(src64(w, op, 0, l));
    const int32_t n = int32_t(uint32_t(int_operand(w, op, 1, l)));
    volatile double x;
    if (!std::isfinite(a) || a == 0) x = a + a;
    else {
      HostRounding hr(w.round_f16_64);
      x = ldexp_rounded(a, n);
    }
    store64(w, op, l, out_mods_f64(w, op, flush64(as_u64(x), w.flush_out_f16_64)));
  });
}

// ---- v_mul_legacy_f32: a zero operand gives +0; otherwise the f32 product in the f32 mode.

void mul_legacy_f32(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l) {
    const float a = as_f(src32(w, op, 0, l)), b = as_f(src32(w, op, 1, l));
    uint32_t r = (a == 0 || b == 0) ? 0u : f32_rounded<3>(a, b, 0.0f, w.round_f32);
    return f32_result(w, op, r);
  });
}

// ---- v_cvt_f16_i16 / v_cvt_f16_u16: one rounding to f16 in the f16/f64 mode (never denormal).

template <bool SIGNED>
void cvt_f16_int16(Wave& w, const Op& op) {
  write_active_lanes(w, op, [&](int l) {
    const uint16_t u = uint16_t(int_operand(w, op, 0, l));
    const double x = SIGNED ? double(int16_t(u)) : double(u);
    return out_mods_f16(w, op, round_to_f16(x, w.round_f16_64));
  });
}

// ---- Packed f32 -> f16: v_cvt_pkrtz_f16_f32 (toward zero always) and gfx950 v_cvt_pk_f16_f32.

void refuse_packed_out_mods(Wave& w, const Op& op) {
  if (op.clamp || op.omod)
    fail(w, op, "clamp/omod on a packed f16/bf16 result are not modelled (the guides do not say whether they act on one half or both)");
}

void cvt_pkrtz_f16_f32(Wave& w, const Op& op) {
  refuse_sdwa_opsel(w, op);
  refuse_packed_out_mods(w, op);
  uint32_t* d = w.vr(op.d[0].idx);
  for_active_lanes(w, [&](int l) {
    uint32_t r = 0;
    for (int i = 0; i < 2; ++i)
      r |= uint32_t(flush16(round_to_f16(double(as_f(src32(w, op, i, l))), kTowardZero), w.flush_out_f16_64)) << (16 * i);
    d[l] = r;
  });
}

constexpr const char* kPkF16RoundUnknown =  // after the mnemonic
    " under a directed round mode is not modelled: whether either MODE.FP_ROUND field acts on it "
    "is not published (LLVM 22 never selects it where the round mode matters), so the simulator does not guess "
    "(valid: MODE.FP_ROUND 0; the denormal fields are modelled)";

void cvt_pk_f16_f32(Wave& w, const Op& op) {
  if (w.round_f32 != 0 || w.round_f16_64 != 0) fail(w, op, std::string(op.info->mnemonic) + kPkF16RoundUnknown);
  if (op.sdwa || op.op_sel) fail(w, op, "SDWA/op_sel on v_cvt_pk_f16_f32 is not modelled");
  refuse_packed_out_mods(w, op);
  uint32_t* d = w.vr(op.d[0].idx);
  for_active_lanes(w, [&](int l) {
    uint32_t r = 0;
    for (int i = 0; i < 2; ++i) {
      const uint32_t u = uint32_t(int_operand(w, op, i, l));  // f32 bits with neg/abs on bit 31
      r |= uint32_t(flush16(f32_to_f16(u), w.flush_out_f16_64)) << (16 * i);
    }
    d[l] = r;
  });
}

// ---- Conversions to integers with an unpublished rounding: the default handler at nearest even.

const Handler& default_handler(Wave& w, const Op& op) {
  if (!op.info) fail(w, op, "internal: a MODE handler ran on an instruction without a table row");
  return registry().by_opcode[size_t(isa::opcode_of(*op.info))].fn;
}

constexpr const char* kIntRoundUnknown =
    "this conversion to an integer under a directed round mode is not modelled: the ISA guides do not print how the "
    "scaled value is rounded, and the one published note (the CLRX project's GCN instruction notes) says 'rounding "
    "mode from MODE register' without the field, so the simulator does not guess (valid: MODE.FP_ROUND 0)";
constexpr const char* kF16DenormInUnknown =
    "an f16 denormal input under a flushing f16/f64 denormal field (MODE.FP_DENORM[7:6] 0 or 2): whether this "
    "normalising conversion flushes its f16 input is not published, and the scaled denormal rounds to a non-zero "
    "integer when kept, so the simulator does not guess (valid: MODE.FP_DENORM[7:6] 1 or 3, or no f16 denormal inputs)";

// F16_INPUTS: how many sources are f16 values (their low halves).
template <int F16_INPUTS>
void int_conversion_at_nearest(Wave& w, const Op& op) {
  if (w.round_f32 != 0 || w.round_f16_64 != 0) fail(w, op, kIntRoundUnknown);
  if (F16_INPUTS && w.flush_in_f16_64) {
    const uint64_t e = w.exec();
    for (int l = 0; l < 64; ++l)
      for (int i = 0; i < F16_INPUTS && ((e >> l) & 1); ++i) {
        const uint32_t h = lane_src(w, op.s[i], l) & 0x7fff;
        if (h != 0 && h < 0x0400) fail(w, op, kF16DenormInUnknown, l);
      }
  }
  default_handler(w, op)(w, op);
}

}  // namespace

void register_mode_convert(Registry& r) {
  r.set_moded(O::v_fract_f32, &fract_f32);
  r.set_moded(O::v_fract_f16, &fract_f16);
  r.set_moded(O::v_fract_f64, &fract_f64);
  r.set_moded(O::v_ldexp_f32, &ldexp_f32);
  r.set_moded(O::v_ldexp_f16, &ldexp_f16);
  r.set_moded(O::v_ldexp_f64, &ldexp_f64);
  r.set_moded(O::v_mul_legacy_f32, &mul_legacy_f32);
  r.set_moded(O::v_cvt_f16_i16, &cvt_f16_int16<true>);
  r.set_moded(O::v_cvt_f16_u16, &cvt_f16_int16<false>);
  r.set_moded(O::v_cvt_pkrtz_f16_f32, &cvt_pkrtz_f16_f32);
  r.set_moded(O::v_cvt_pk_f16_f32, &cvt_pk_f16_f32);
  r.set_moded(O::v_cvt_pknorm_i16_f32, &int_conversion_at_nearest<0>);
  r.set_moded(O::v_cvt_pknorm_u16_f32, &int_conversion_at_nearest<0>);
  r.set_moded(O::v_cvt_pk_u8_f32, &int_conversion_at_nearest<0>);
  r.set_moded(O::v_cvt_pkaccum_u8_f32, &int_conversion_at_nearest<0>);
  r.set_moded(O::v_cvt_pknorm_i16_f16, &int_conversion_at_nearest<2>);
  r.set_moded(O::v_cvt_pknorm_u16_f16, &int_conversion_at_nearest<2>);
  r.set_moded(O::v_cvt_norm_i16_f16, &int_conversion_at_nearest<1>);
  r.set_moded(O::v_cvt_norm_u16_f16, &int_conversion_at_nearest<1>);
}

}  // namespace cdnajit::sim
