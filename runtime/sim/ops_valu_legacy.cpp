// VALU instructions not defined in the other handler files: the gfx8-era f16 mads (v_mad_f16,
// v_mac_f16, v_madak_f16, v_madmk_f16, v_mad_legacy_f16, v_fma_legacy_f16), v_pk_fmac_f16,
// v_div_fixup_f16 (and its _legacy spelling), the normalising conversions (v_cvt_norm_*,
// v_cvt_pknorm_*), v_cvt_pk_u8_f32 / v_cvt_pkaccum_u8_f32, v_exp_legacy_f32 / v_log_legacy_f32,
// v_trig_preop_f64, the cube-map helpers v_cube{id,sc,tc,ma}_f32, and gfx950's v_cvt_pk_f16_f32 and v_pk_minimum3/maximum3_f16.
// Semantics from the per-opcode pseudo-code of AMD's "AMD Instinct MI300 (CDNA3) ISA Reference
// Guide" (VOP1 / VOP2 / VOP3A / VOP3P opcode tables) and the CDNA4 guide for the gfx950 rows.
// Choices the guides leave open are marked "Assumed" here and listed in runtime/sim/README.md.
// As elsewhere in the simulator, 16-bit results go to D[15:0] with D[31:16] = 0; op_sel on the
// 16-bit VOP3 forms is refused rather than guessed; clamp and output modifiers act on the f16 / f32 /
// f64 results (the f16 mads, v_div_fixup_f16, v_exp/log_legacy_f32, the cube helpers,
// v_trig_preop_f64), are a no-op on the always-in-range v_cvt_norm_* results and are refused on the
// packed ones (lane_op.hpp, OutMods); SDWA forms run through sdwa_direct_exec (sdwa.hpp).
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "runtime/sim/correctly_rounded.hpp"
#include "runtime/sim/fp.hpp"
#include "runtime/sim/lane_op.hpp"
#include "runtime/sim/mode_round.hpp"

namespace cdnajit::sim {
namespace {

constexpr uint64_t kSign16 = 0x8000, kSign32 = 0x80000000u;

void refuse_op_sel(Wave& w, const Op& op) {
  if (op.op_sel) fail(w, op, "op_sel on this 16-bit VOP3 instruction is not modelled");
}

float h(uint64_t bits) { return f16_to_f32(uint16_t(bits)); }
uint16_t f16_bits(double x) { return f64_to_f16(x); }

// v_mad_f16 family: the product rounded to f16, then the sum rounded to f16 (a "mad", not an fma:
// LLVM selects these only for fmuladd/fmad, never for llvm.fma). f16 x f16 is exact in a float,
// and the sum of two f16 values is exact in a double, so each step rounds once.
uint16_t mad16(uint64_t a, uint64_t b, uint64_t c) {
  float prod = h(a) * h(b);
  return f16_bits(double(h(f32_to_f16(bits_of(prod)))) + double(h(c)));
}
uint16_t fma16(uint64_t a, uint64_t b, uint64_t c) { return f16_bits(std::fma(double(h(a)), double(h(b)), double(h(c)))); }

void mad_f16(Wave& w, const Op& op) {  // also v_madak_f16 (S0 * S1 + K) and v_madmk_f16 (S0 * K + S1): asm order
  refuse_op_sel(w, op);
  lane_op_mods(w, op, OutMods::F16, 1, 1, kSign16, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t { return mad16(a, b, c); });
}
void fma_legacy_f16(Wave& w, const Op& op) {
  lane_op_mods(w, op, OutMods::F16, 1, 1, kSign16, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t { return fma16(a, b, c); });
}
void mac_f16(Wave& w, const Op& op) {  // D = S0 * S1 + D
  const uint32_t* acc = w.vr(op.d[0].idx);
  lane_op_mods(w, op, OutMods::F16, 1, 1, kSign16, [acc](int l, uint64_t a, uint64_t b, uint64_t) -> uint64_t { return mad16(a, b, acc[l]); });
}
// v_pk_fmac_f16 (VOP2): D.lo = fma(S0.lo, S1.lo, D.lo), D.hi = fma(S0.hi, S1.hi, D.hi).
void pk_fmac_f16(Wave& w, const Op& op) {
  const uint32_t* acc = w.vr(op.d[0].idx);
  lane_op(w, op, 1, 1, 0, [acc](int l, uint64_t a, uint64_t b, uint64_t) -> uint64_t {
    uint32_t d = acc[l];
    return uint32_t(fma16(a, b, d)) | uint32_t(fma16(a >> 16, b >> 16, d >> 16)) << 16;
  });
}

// V_DIV_FIXUP_F16 d, S0 (quotient), S1 (denominator), S2 (numerator): the special cases of the
// guide's pseudo-code; NaNs are quieted, the generated NaN is 0xfe00. Every result is exact (a copy of
// S0 with the quotient's sign, or a constant), so under a non-default MODE only the f16/f64 denormal
// field acts: the same handler is the MODE handler, flushing inputs and the result as the field says
// (nothing to flush on the default path, where the field keeps denormals).
void div_fixup_f16(Wave& w, const Op& op) {
  refuse_op_sel(w, op);
  const bool fi = w.flush_in_f16_64, fo = w.flush_out_f16_64;
  lane_op_mods(w, op, OutMods::F16, 1, 1, kSign16, [fi, fo](int, uint64_t q, uint64_t den, uint64_t num) -> uint64_t {
    q = flush16(uint16_t(q), fi), den = flush16(uint16_t(den), fi), num = flush16(uint16_t(num), fi);
    const float s1 = h(den), s2 = h(num);
    const bool neg = ((den ^ num) & 0x8000) != 0;
    if (std::isnan(s2)) return (num & 0xffff) | 0x0200;
    if (std::isnan(s1)) return (den & 0xffff) | 0x0200;
    if (s1 == 0 && s2 == 0) return 0xfe00;
    if (std::isinf(s1) && std::isinf(s2)) return 0xfe00;
    if (s1 == 0 || std::isinf(s2)) return neg ? 0xfc00 : 0x7c00;
    if (std::isinf(s1) || s2 == 0) return neg ? 0x8000 : 0x0000;
    return flush16(uint16_t((q & 0x7fff) | (neg ? 0x8000 : 0)), fo);
  });
}

// The guides' f16/f32_to_snorm and _to_unorm: NaN -> 0, clamp to [-1, 1] (resp. [0, 1]), scale by
// 32767 (resp. 65535). Assumed: the scaled value rounds to nearest even (the guides do not print
// the rounding; GLSL's packSnorm2x16/packUnorm2x16, which Mesa lowers to these instructions,
// require round-to-nearest).
uint32_t to_snorm16(double x) {
  if (std::isnan(x)) return 0;
  x = std::fmin(std::fmax(x, -1.0), 1.0);
  return uint32_t(uint16_t(int16_t(std::nearbyint(x * 32767.0))));
}
uint32_t to_unorm16(double x) {
  if (std::isnan(x)) return 0;
  x = std::fmin(std::fmax(x, 0.0), 1.0);
  return uint32_t(std::nearbyint(x * 65535.0));
}
void cvt_norm_i16_f16(Wave& w, const Op& op) {  // saturated to [-32767, 32767]: clamp changes nothing
  lane_op_mods(w, op, OutMods::IntInRange, 1, 1, kSign16, [](int, uint64_t a, uint64_t, uint64_t) -> uint64_t { return to_snorm16(h(a)); });
}
void cvt_norm_u16_f16(Wave& w, const Op& op) {  // saturated to [0, 65535]: clamp changes nothing
  lane_op_mods(w, op, OutMods::IntInRange, 1, 1, kSign16, [](int, uint64_t a, uint64_t, uint64_t) -> uint64_t { return to_unorm16(h(a)); });
}
template <bool sgn, bool f16>
void cvt_pknorm(Wave& w, const Op& op) {  // D = {norm(S1), norm(S0)}
  refuse_op_sel(w, op);
  lane_op(w, op, 1, 1, f16 ? kSign16 : kSign32, [](int, uint64_t a, uint64_t b, uint64_t) -> uint64_t {
    double x = f16 ? h(a) : f32_of(uint32_t(a)), y = f16 ? h(b) : f32_of(uint32_t(b));
    return sgn ? to_snorm16(x) | to_snorm16(y) << 16 : to_unorm16(x) | to_unorm16(y) << 16;
  });
}

// f32 -> u8 of v_cvt_pk_u8_f32 / v_cvt_pkaccum_u8_f32. Assumed: round to nearest even, clamp to
// [0, 255], NaN -> 0 (the guides name the conversion "f32_to_u8" without defining its rounding).
uint32_t f32_to_u8(uint32_t bits) {
  float x = f32_of(bits);
  if (std::isnan(x)) return 0;
  return uint32_t(std::fmin(std::fmax(std::nearbyint(double(x)), 0.0), 255.0));
}
// D = S2 with byte S1[1:0] replaced by u8(S0).
void cvt_pk_u8_f32(Wave& w, const Op& op) {
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    const uint32_t sh = 8 * (uint32_t(b) & 3);
    return (uint32_t(c) & ~(0xffu << sh)) | f32_to_u8(uint32_t(a)) << sh;
  });
}
// Same, accumulating into the destination: D = D with byte S1[1:0] replaced by u8(S0).
void cvt_pkaccum_u8_f32(Wave& w, const Op& op) {
  const uint32_t* acc = w.vr(op.d[0].idx);
  lane_op(w, op, 1, 1, 0, [acc](int l, uint64_t a, uint64_t b, uint64_t) -> uint64_t {
    const uint32_t sh = 8 * (uint32_t(b) & 3);
    return (acc[l] & ~(0xffu << sh)) | f32_to_u8(uint32_t(a)) << sh;
  });
}

// v_exp_legacy_f32 / v_log_legacy_f32: the pre-gfx7 exp2/log2. The guides do not spell out where
// "legacy" differs from v_exp_f32 / v_log_f32 (special inputs and denormal results), so the
// simulator computes the correctly rounded exp2 / log2 (correctly_rounded.hpp, like v_exp_f32;
// hardware may differ by its approximation's error) and
// refuses the inputs where the two could differ instead of guessing: NaN, infinities, zero,
// negative or denormal inputs to log, and results that would be denormal, zero or infinite.
void exp_legacy(Wave& w, const Op& op) {
  lane_op_mods(w, op, OutMods::F32, 1, 1, kSign32, [&w, &op](int l, uint64_t a, uint64_t, uint64_t) -> uint64_t {
    const float x = f32_of(uint32_t(a));
    const uint32_t r = transcendental_f32(Transcendental::Exp2, uint32_t(a));
    if (!std::isfinite(x) || !std::isnormal(f32_of(r)))
      fail(w, op, std::string(op.info->mnemonic) + " of " + hex(a) + ": special inputs and non-normal results are not modelled", l);
    return r;
  });
}
void log_legacy(Wave& w, const Op& op) {
  lane_op_mods(w, op, OutMods::F32, 1, 1, kSign32, [&w, &op](int l, uint64_t a, uint64_t, uint64_t) -> uint64_t {
    float x = f32_of(uint32_t(a));
    if (!std::isnormal(x) || x < 0)
      fail(w, op, std::string(op.info->mnemonic) + " of " + hex(a) + ": zero, negative, denormal, infinite and NaN inputs are not modelled", l);
    return transcendental_f32(Transcendental::Log2, uint32_t(a));
  });
}

// 2/pi as a binary fraction: bit k (k = 0 the first bit after the point) of the first 1216 bits,
// 64 per word, most significant first. Computed with MPFR (mpfr_const_pi at 1400 bits, 2/pi
// expanded bit by bit); tests/sim/test_legacy_ops.cpp recomputes it independently.
constexpr uint64_t kTwoOverPi[19] = {
    0xa2f9836e4e441529ull, 0xfc2757d1f534ddc0ull, 0xdb6295993c439041ull, 0xfe5163abdebbc561ull,
    0xb7246e3a424dd2e0ull, 0x06492eea09d1921cull, 0xfe1deb1cb129a73eull, 0xe88235f52ebb4484ull,
    0xe99c7026b45f7e41ull, 0x3991d639835339f4ull, 0x9c845f8bbdf9283bull, 0x1ff897ffde05980full,
    0xef2f118b5a0a6d1full, 0x6d367ecf27cb09b7ull, 0x4f463f669e5fea2dull, 0x7527bac7ebe5f17bull,
    0x3d0739f78a5292eaull, 0x6bfb5fb11f8d5d08ull, 0x56033046fc7b6babull};
// Fraction bit k of 2/pi.
uint64_t two_over_pi_bit(uint32_t k) { return (kTwoOverPi[k / 64] >> (63 - k % 64)) & 1; }

// V_TRIG_PREOP_F64 (the guide's pseudo-code): shift = S1[4:0] * 53, plus exponent(S0) - 1077 when
// S0's biased exponent exceeds 1077; the 53 fraction bits of 2/pi after the first `shift` form an
// integer m; D = m * 2^(-53 - shift), scaled by 2^128 when exponent(S0) >= 1968, rounded toward
// zero (only a denormal result loses bits). The guide's table is 1201 bits long; the hardware
// returns 0 once shift >= 1120 (LLVM 22's constant folding of llvm.amdgcn.trig.preop, in
// AMDGPUInstCombineIntrinsic.cpp, keeps 37 words of the table and returns 0 when the segment would
// read word 35 or beyond, "hardware behavior"): followed here, so the simulator and LLVM's folding
// agree. LLVM rounds a denormal result to nearest even where the guide says toward zero; the guide
// is followed.
uint64_t trig_preop(uint64_t s0, uint32_t s1) {
  const uint32_t exp = uint32_t(s0 >> 52) & 0x7ff;
  uint32_t shift = (s1 & 31) * 53;
  if (exp > 1077) shift += exp - 1077;
  if ((shift >> 5) + 2 >= 37) return 0;
  uint64_t m = 0;
  for (uint32_t i = 0; i < 53; ++i) m = m << 1 | two_over_pi_bit(shift + i);
  int scale = -53 - int(shift);
  if (exp >= 1968) scale += 128;
  if (m == 0) return 0;
  // m * 2^scale; below the smallest normal keep only the bits a denormal holds (truncation).
  const int top = 63 - std::countl_zero(m);  // m's leading bit is 2^top
  if (top + scale < -1022) {
    const int drop = -1074 - scale;  // bits of m below 2^-1074
    if (drop >= 64) return 0;
    m >>= drop;
    scale = -1074;
  }
  return std::bit_cast<uint64_t>(std::ldexp(double(m), scale));
}
void trig_preop_f64(Wave& w, const Op& op) {
  if (op.s[1].neg || op.s[1].abs) fail(w, op, "neg/abs on v_trig_preop_f64's segment operand is not modelled");
  lane_op_mods(w, op, OutMods::F64, 2, 2, uint64_t(1) << 63, [&w, &op](int l, uint64_t a, uint64_t, uint64_t) -> uint64_t {
    return trig_preop(a, lane_src(w, op.s[1], l));
  });
}

// gfx950 v_cvt_pk_f16_f32 (CDNA4 guide): D = {f16(S1), f16(S0)}, round to nearest even.
void cvt_pk_f16_f32(Wave& w, const Op& op) {
  lane_op(w, op, 1, 1, kSign32, [](int, uint64_t a, uint64_t b, uint64_t) -> uint64_t {
    return uint32_t(f32_to_f16(uint32_t(a))) | uint32_t(f32_to_f16(uint32_t(b))) << 16;
  });
}

// gfx950 v_pk_minimum3_f16 / v_pk_maximum3_f16 (CDNA4 guide): IEEE 754-2019 minimum / maximum of
// three f16 values per half (a NaN operand gives a quiet NaN; -0 < +0). op_sel / op_sel_hi pick the
// source halves, neg_lo / neg_hi negate them, as for the other VOP3P f16 instructions.
float minimum(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
float maximum(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <bool is_max>
void pk_minmax3_f16(Wave& w, const Op& op) {
  if (op.clamp) fail(w, op, "clamp on a packed f16 minimum/maximum is not modelled");
  // Raw sources (sign bit 0: lane_op applies no neg/abs); the halves, op_sel and neg_lo/neg_hi are taken here.
  lane_op(w, op, 1, 1, 0, [&op](int, uint64_t s0, uint64_t s1, uint64_t s2) -> uint64_t {
    const uint64_t raw[3] = {s0, s1, s2};
    float v[2][3];
    for (int i = 0; i < 3; ++i) {
      uint32_t x = uint32_t(raw[i]);
      if (op.s[i].k == SrcKind::Const && op.s[i].val < 0x10000) x |= x << 16;  // inline f16 constant in both halves
      for (int half = 0; half < 2; ++half) {
        const uint8_t sel = half ? op.op_sel_hi : op.op_sel, neg = half ? op.neg_hi : op.neg_lo;
        uint32_t bits = ((sel >> i) & 1 ? x >> 16 : x) & 0xffff;
        if ((neg >> i) & 1) bits ^= 0x8000;
        v[half][i] = h(bits);
      }
    }
    uint32_t r = 0;
    for (int half = 0; half < 2; ++half) {
      float m = is_max ? maximum(maximum(v[half][0], v[half][1]), v[half][2])
                       : minimum(minimum(v[half][0], v[half][1]), v[half][2]);
      uint32_t bits = std::isnan(m) ? 0x7e00 : f32_to_f16(bits_of(m));
      r |= bits << (16 * half);
    }
    return r;
  });
}

// Cube-map face selection (the guide's V_CUBEID/SC/TC/MA_F32 pseudo-code): the major axis is z when
// |z| >= |x| and |z| >= |y|, else y when |y| >= |x|, else x. id = 2 * axis + (coordinate < 0);
// sc / tc the face coordinates; ma = 2 * the major coordinate, exact except when it overflows, where
// it rounds in MODE's f32 round mode (IEEE: toward zero, or away from the infinity's side, gives the
// largest finite value), so this handler also serves as the MODE handler of v_cubema_f32.
// Inputs and results follow MODE's f32 denormal field like every f32 VALU operation (this handler reads
// its lanes directly, so it applies the field itself; id is a small integer and never denormal).
template <int what>  // 0 id, 1 sc, 2 tc, 3 ma
void cube(Wave& w, const Op& op) {
  const bool fi = w.flush_in_f32, fo = w.flush_out_f32 && what != 0;
  const int round = w.round_f32;
  lane_op_mods(w, op, OutMods::F32, 1, 1, kSign32, [fi, fo, round](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    auto in = [fi](uint64_t u) { return f32_of(fi ? flush_denorm32(uint32_t(u)) : uint32_t(u)); };
    const float x = in(a), y = in(b), z = in(c);
    const int axis = (std::fabs(z) >= std::fabs(x) && std::fabs(z) >= std::fabs(y)) ? 2 : std::fabs(y) >= std::fabs(x) ? 1 : 0;
    const float major = axis == 2 ? z : axis == 1 ? y : x;
    float r;
    if (what == 0) r = float(2 * axis + (major < 0.0f ? 1 : 0));
    else if (what == 3) r = f32_of(round_to_f32(double(major) * 2.0, round));
    else if (what == 1) r = axis == 2 ? (z < 0.0f ? -x : x) : axis == 1 ? x : (x < 0.0f ? z : -z);
    else r = axis == 2 ? -y : axis == 1 ? (y < 0.0f ? -z : z) : -y;
    return fo ? flush_denorm32(bits_of(r)) : bits_of(r);
  });
}

}  // namespace

void register_valu_legacy(Registry& r) {
  auto add = [&](O n, Handler fn, FType ft) {
    if (!r.has(n)) r.add(n, fn, ft);
  };
  add(O::v_mad_f16, &mad_f16, FType::F16);
  add(O::v_mad_legacy_f16, &mad_f16, FType::F16);
  add(O::v_madak_f16, &mad_f16, FType::F16);
  add(O::v_madmk_f16, &mad_f16, FType::F16);
  add(O::v_mac_f16, &mac_f16, FType::F16);
  add(O::v_fma_legacy_f16, &fma_legacy_f16, FType::F16);
  add(O::v_pk_fmac_f16, &pk_fmac_f16, FType::F16);
  add(O::v_div_fixup_f16, &div_fixup_f16, FType::F16);
  add(O::v_div_fixup_legacy_f16, &div_fixup_f16, FType::F16);
  r.set_moded(O::v_div_fixup_f16, &div_fixup_f16);
  r.set_moded(O::v_div_fixup_legacy_f16, &div_fixup_f16);
  add(O::v_cvt_norm_i16_f16, &cvt_norm_i16_f16, FType::F16);
  add(O::v_cvt_norm_u16_f16, &cvt_norm_u16_f16, FType::F16);
  add(O::v_cvt_pknorm_i16_f16, &cvt_pknorm<true, true>, FType::F16);
  add(O::v_cvt_pknorm_u16_f16, &cvt_pknorm<false, true>, FType::F16);
  add(O::v_cvt_pknorm_i16_f32, &cvt_pknorm<true, false>, FType::F32);
  add(O::v_cvt_pknorm_u16_f32, &cvt_pknorm<false, false>, FType::F32);
  add(O::v_cvt_pk_u8_f32, &cvt_pk_u8_f32, FType::F32);
  add(O::v_cvt_pkaccum_u8_f32, &cvt_pkaccum_u8_f32, FType::F32);
  add(O::v_exp_legacy_f32, &exp_legacy, FType::F32);
  add(O::v_log_legacy_f32, &log_legacy, FType::F32);
  add(O::v_trig_preop_f64, &trig_preop_f64, FType::F64);
  add(O::v_cvt_pk_f16_f32, &cvt_pk_f16_f32, FType::F32);
  add(O::v_pk_minimum3_f16, &pk_minmax3_f16<false>, FType::F16);
  add(O::v_pk_maximum3_f16, &pk_minmax3_f16<true>, FType::F16);
  add(O::v_cubeid_f32, &cube<0>, FType::F32);
  add(O::v_cubesc_f32, &cube<1>, FType::F32);
  add(O::v_cubetc_f32, &cube<2>, FType::F32);
  add(O::v_cubema_f32, &cube<3>, FType::F32);
  r.set_moded(O::v_cubema_f32, &cube<3>);
}

}  // namespace cdnajit::sim
