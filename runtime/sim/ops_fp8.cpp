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
//
// gfx950 also has the scaled conversions v_cvt_scalef32_* between f32/f16/bf16 and fp8/bf8/fp6/bf6/fp4
// and the stochastic-rounding v_cvt_sr_f16_f32 / v_cvt_sr_bf16_f32; see "Scaled conversions" below.
#include "runtime/sim/fp8_encode.hpp"
#include "runtime/sim/lane_op.hpp"
#include "runtime/sim/mx_format.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

uint32_t f32_source(Wave& w, const Src& s, int lane) {
  uint32_t u = lane_src(w, s, lane);
  if (s.abs) u &= 0x7fffffffu;
  if (s.neg) u ^= 0x80000000u;
  return u;
}

Fp8Format format_of(const Wave& w, bool e5m2) { return Fp8Format{e5m2, w.L->arch == Arch::gfx942}; }

// gfx950: MODE.FP16_OVFL (bit 23) makes the OCP conversions saturate (see fp8_encode.hpp).
bool saturates(const Wave& w) { return w.L->arch == Arch::gfx950 && ((w.mode >> 23) & 1); }

// The `bits` random bits a stochastic conversion adds, from its seed operand (Options::sr_seed_bits;
// top_by_default: the form's published emulation takes the top bits).
uint32_t sr_random(const Wave& w, uint32_t seed, int bits, bool top_by_default) {
  const Options::SrSeedBits c = w.L->opt.sr_seed_bits;
  const bool top = c == Options::SrSeedBits::High || (c == Options::SrSeedBits::PerForm && top_by_default);
  return top ? seed >> (32 - bits) : seed & ((1u << bits) - 1);
}

// For every active lane: the field `mask << shift` of the destination VGPR takes f(lane) (whose
// bits outside `mask` are 0); the rest of the destination is kept.
template <class F>
void write_dst_field(Wave& w, const Op& op, uint32_t mask, uint32_t shift, F f) {
  uint32_t* d = w.vr(op.d[0].idx);
  for_active_lanes(w, [&](int l) { d[l] = (d[l] & ~(mask << shift)) | (uint32_t(f(l)) << shift); });
}

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
  write_dst_field(w, op, 0xffffu, shift, [&](int l) {
    uint32_t lo = fp8_encode(f32_source(w, op.s[0], l), f, false, 0, sat);
    uint32_t hi = fp8_encode(f32_source(w, op.s[1], l), f, false, 0, sat);
    return lo | hi << 8;
  });
}

template <bool E5M2>
void cvt_sr_to_fp8(Wave& w, const Op& op) {
  refuse_unmodelled(w, op);
  if (op.s[1].neg || op.s[1].abs) fail(w, op, "neg/abs on the random-bits operand of a stochastic conversion is not modelled");
  const Fp8Format f = format_of(w, E5M2);
  const bool sat = saturates(w);
  const uint32_t shift = 8 * ((op.op_sel >> 2) & 3);
  write_dst_field(w, op, 0xffu, shift, [&](int l) {
    const uint32_t u = f32_source(w, op.s[0], l);
    const StochasticBits sr{23 - f.mbits(), sr_random(w, lane_src(w, op.s[1], l), 23 - f.mbits(), false)};
    return fp8_encode_magnitude(u >> 31, std::fabs(double(f32_of(u))), f, sr, sat);
  });
}

// ---- Scaled conversions (gfx950): v_cvt_scalef32_*.
//
// Scale: only the exponent field of the f32 scale operand counts, as the E8M0 scale 2^(e - 127)
// (CDNA4 ISA guide pseudo-code: scale = exponent(S.f32); AMD's __amd_scale_to_float in HIP's
// amd_hip_ocp_fp.hpp puts the E8M0 byte into the f32 exponent field, "always in the form
// 1.0 * 2**scale"): sign and mantissa of the scale are ignored, exponent field 0 is 2^-127 and 255
// is NaN (MX E8M0's NaN). Down-conversions compute x / 2^s, up-conversions code * 2^s, exactly (the
// scale is applied to the exponent before the one rounding: AMD's software model of these
// instructions, amd_hip_ocp_host.hpp from_float / to_float, subtracts / adds the scale exponent
// and rounds once); subnormal f32/f16/bf16 inputs are kept (that model normalises them) and
// results that fall into the destination's subnormal range are rounded there, not flushed,
// whatever MODE's denormal fields say.
// Down-conversions round to nearest even, or stochastically in the _sr_ forms: the bits of the
// source's significand below the target's last place are added to the top bits of the seed
// operand (seed >> (32 - k), k = source mantissa bits - target mantissa bits; from_float_sr in
// amd_hip_ocp_host.hpp; Options::sr_seed_bits switches it) and a carry rounds up. Specials: fp8/bf8 as the unscaled gfx950 conversions
// (fp8_encode.hpp, MODE.FP16_OVFL saturates); fp6/bf6/fp4 saturate (mx_format.hpp); a NaN scale
// converts like a NaN input. Up-conversions round to nearest even into f32/f16/bf16 (overflow to
// inf); NaN codes and a NaN scale give a quiet NaN of the input's sign (the NaN payload is not
// documented).
// Element order: element 0 in the lowest bits (pk: src0 / the low half first); pk32/2xpk16 pack 32
// elements of 6 bits as one bit string over 6 dwords, element j at bits [6j, 6j + 6) (the f8f6f4
// MFMA operand layout, LLVM's v6i32); 2xpk16 takes elements 0-15 from src0 and 16-31 from src1.
// op_sel (as LLVM prints it; checked against clang-22's code for the builtins' select arguments):
// fp8 up-conversions: byte = op_sel[0] + 2 op_sel[1]; v_cvt_scalef32_f16_*: op_sel[2] writes the
// high half; pk_*_fp8/bf8 up: op_sel[0] selects the 16-bit word; pk_*_fp4 up: byte = op_sel[0] +
// 2 op_sel[1]; pk_fp8/bf8 down: the written word is op_sel[3] (f32 sources) or op_sel[2] (packed
// 16-bit source); fp4 and _sr_ fp8/bf8 down: the written byte is op_sel[2] + 2 op_sel[3]. Bits
// outside these are refused as not modelled.
enum class Wide : uint8_t { F32, F16, BF16 };

int mantissa_bits(Wide t) { return t == Wide::F32 ? 23 : t == Wide::F16 ? 10 : 7; }

struct Scale {
  int exp = 0;
  bool nan = false;
};
Scale scale_of(uint32_t bits) {
  const int field = int((bits >> 23) & 0xff);
  return Scale{field - 127, field == 255};
}

// A signed exact value split as sign and magnitude (the magnitude may be inf or NaN).
struct Signed {
  bool neg;
  double mag;
};
Signed wide_value(uint32_t bits, Wide t) {
  if (t == Wide::F32) return {bool(bits >> 31), std::fabs(double(f32_of(bits)))};
  if (t == Wide::BF16) return {bool((bits >> 15) & 1), std::fabs(double(f32_of(bf16_to_f32(uint16_t(bits)))))};
  return {bool((bits >> 15) & 1), std::fabs(double(f16_to_f32(uint16_t(bits))))};
}

// Down-conversion of one element. sr_seed < 0: round to nearest even.
uint32_t scaled_down(const Wave& w, Signed v, Wide from, MxFmt to, Scale sc, int64_t sr_seed, bool saturate) {
  StochasticBits sr;
  if (sr_seed >= 0) {
    sr.bits = mantissa_bits(from) - mx_mbits(to);
    sr.random = sr_random(w, uint32_t(sr_seed), sr.bits, true);
  }
  const double mag = sc.nan ? NAN : std::ldexp(v.mag, -sc.exp);
  return mx_encode(v.neg, mag, to, sr, saturate);
}

// Up-conversion of one element to f32/f16/bf16 bits.
uint32_t scaled_up(uint32_t code, MxFmt from, Wide to, Scale sc) {
  const double x = mx_value(code, from);
  const bool neg = (code >> (mx_bits(from) - 1)) & 1;
  if (std::isnan(x) || sc.nan) {
    if (to == Wide::F32) return neg ? 0xffc00000u : 0x7fc00000u;
    const uint32_t quiet = to == Wide::BF16 ? 0x7fc0u : 0x7e00u;
    return neg ? quiet | 0x8000u : quiet;
  }
  const double y = std::ldexp(x, sc.exp);  // exact in a double
  if (to == Wide::F16) return f64_to_f16(y);
  // f32 and bf16: y has at most 4 significant bits and |y| >= 2^-143, so it is exact in an f32
  // (or overflows to inf there, as it would in a bf16); bf16 rounds from that f32.
  const uint32_t f = bits_of(float(y));
  return to == Wide::F32 ? f : f32_to_bf16(f);
}

void refuse_op_sel(Wave& w, const Op& op, uint8_t used) {
  if (op.op_sel & ~used) fail(w, op, "op_sel bits outside those this conversion defines are not modelled by the simulator");
  if (op.clamp || op.omod || op.sdwa) fail(w, op, "clamp, output modifiers and SDWA on a scaled conversion are not modelled");
}

// Element i (0 or 1) of a two-element source: two f32 operands, or the halves of one packed dword.
uint32_t pair_element(Wave& w, const Op& op, Wide from, int i, int lane) {
  if (from == Wide::F32) return f32_source(w, op.s[i], lane);
  const Src& s = op.s[0];
  if (s.neg || s.abs) fail(w, op, "neg/abs on a packed 16-bit source of a scaled conversion is not modelled");
  if (s.k == SrcKind::Const && s.val != 0) fail(w, op, "an inline constant as a packed 16-bit source of a scaled conversion is not modelled");
  return (lane_src(w, s, lane) >> (16 * i)) & 0xffff;
}

template <int F, int T, bool F32_PAIR>
void cvt_scalef32_pk_down(Wave& w, const Op& op) {
  // F32_PAIR: src0, src1 f32, scale src2; else src0 packed 16-bit, scale src1.
  constexpr Wide from = Wide(F);
  constexpr MxFmt to = MxFmt(T);
  constexpr bool fp4 = to == MxFmt::FP4;
  const int scale_src = F32_PAIR ? 2 : 1;
  const int word_bit = F32_PAIR ? 3 : 2;
  refuse_op_sel(w, op, fp4 ? 0x0c : uint8_t(1u << word_bit));
  const uint32_t shift = fp4 ? 8 * ((op.op_sel >> 2) & 3) : 16 * ((op.op_sel >> word_bit) & 1);
  const uint32_t width = fp4 ? 4 : 8, mask = fp4 ? 0xffu : 0xffffu;
  const bool sat = saturates(w);
  write_dst_field(w, op, mask, shift, [&](int l) {
    const Scale sc = scale_of(lane_src(w, op.s[scale_src], l));
    uint32_t packed = 0;
    for (int i = 0; i < 2; ++i)
      packed |= scaled_down(w, wide_value(pair_element(w, op, from, i, l), from), from, to, sc, -1, sat) << (width * i);
    return packed;
  });
}

// _sr_ fp8/bf8 (one value) and _sr_pk_fp4 (two values): src0 value(s), src1 seed, src2 scale.
template <int F, int T>
void cvt_scalef32_sr_down(Wave& w, const Op& op) {
  constexpr Wide from = Wide(F);
  constexpr MxFmt to = MxFmt(T);
  constexpr bool fp4 = to == MxFmt::FP4;
  refuse_op_sel(w, op, 0x0c);
  if (op.s[1].neg || op.s[1].abs) fail(w, op, "neg/abs on the seed operand of a stochastic conversion is not modelled");
  const uint32_t shift = 8 * ((op.op_sel >> 2) & 3);
  const bool sat = saturates(w);
  write_dst_field(w, op, 0xffu, shift, [&](int l) {
    const Scale sc = scale_of(lane_src(w, op.s[2], l));
    const int64_t seed = lane_src(w, op.s[1], l);
    uint32_t byte;
    if (!fp4) {
      uint32_t x = from == Wide::F32 ? f32_source(w, op.s[0], l) : pair_element(w, op, from, 0, l);
      byte = scaled_down(w, wide_value(x, from), from, to, sc, seed, sat);
    } else {
      byte = 0;
      for (int i = 0; i < 2; ++i) {
        uint32_t x;
        if (from == Wide::F32) {
          const Src& s = op.s[0];
          x = lane_src(w, s, l, i);
          if (s.abs) x &= 0x7fffffffu;
          if (s.neg) x ^= 0x80000000u;
        } else {
          x = pair_element(w, op, from, i, l);
        }
        byte |= scaled_down(w, wide_value(x, from), from, to, sc, seed, sat) << (4 * i);
      }
    }
    return byte;
  });
}

// fp8/bf8/fp4 -> f32/f16/bf16: ONE (v_cvt_scalef32_f32_* / _f16_*: one element) or two (pk).
template <int F, int T, bool PK>
void cvt_scalef32_up(Wave& w, const Op& op) {
  constexpr MxFmt from = MxFmt(F);
  constexpr Wide to = Wide(T);
  constexpr bool fp4 = from == MxFmt::FP4;
  const bool half_dst = !PK && to != Wide::F32;
  refuse_op_sel(w, op, PK && !fp4 ? 0x01 : half_dst ? 0x07 : 0x03);
  if (op.s[0].neg || op.s[0].abs) fail(w, op, "neg/abs on the packed source of a scaled conversion is not modelled");
  // Bit offset of the first element in the source dword.
  const uint32_t first = PK && !fp4 ? 16 * (op.op_sel & 1) : 8 * (op.op_sel & 3);
  const uint32_t width = fp4 ? 4 : 8;
  uint32_t* d0 = w.vr(op.d[0].idx);
  uint32_t* d1 = PK && to == Wide::F32 ? w.vr(uint16_t(op.d[0].idx + 1)) : nullptr;
  for_active_lanes(w, [&](int l) {
    const Scale sc = scale_of(lane_src(w, op.s[1], l));
    const uint32_t src = lane_src(w, op.s[0], l) >> first;
    const uint32_t a = scaled_up(src & ((1u << width) - 1), from, to, sc);
    if (!PK) {
      if (to == Wide::F32) d0[l] = a;
      else {
        const uint32_t shift = 16 * ((op.op_sel >> 2) & 1);
        d0[l] = (d0[l] & ~(0xffffu << shift)) | (a << shift);
      }
      return;
    }
    const uint32_t b = scaled_up((src >> width) & ((1u << width) - 1), from, to, sc);
    if (to == Wide::F32) d0[l] = a, d1[l] = b;
    else d0[l] = a | b << 16;
  });
}

// 32 elements <-> 6 dwords of fp6/bf6. Down: PK32 (src0 32 f32 / 16 packed-16-bit dwords),
// TWO16 (src0, src1: 16 f32 each), SR (src1 seed); the scale is the last source.
enum class Pack32 : uint8_t { PK32, TWO16, SR };
template <int F, int T, Pack32 P>
void cvt_scalef32_pk32_down(Wave& w, const Op& op) {
  constexpr Wide from = Wide(F);
  constexpr MxFmt to = MxFmt(T);
  refuse_op_sel(w, op, 0);
  for (int i = 0; i < (P == Pack32::TWO16 ? 2 : 1); ++i)
    if (op.s[i].k != SrcKind::V || op.s[i].neg || op.s[i].abs)
      fail(w, op, "the vector sources of a pk32 conversion must be plain VGPRs (neg/abs are not modelled)");
  const int scale_src = P == Pack32::PK32 ? 1 : 2;
  for_active_lanes(w, [&](int l) {
    const Scale sc = scale_of(lane_src(w, op.s[scale_src], l));
    const int64_t seed = P == Pack32::SR ? int64_t(lane_src(w, op.s[1], l)) : -1;
    uint32_t out[6] = {};
    for (int j = 0; j < 32; ++j) {
      uint32_t x;
      if (from == Wide::F32) x = P == Pack32::TWO16 ? lane_src(w, op.s[j / 16], l, j % 16) : lane_src(w, op.s[0], l, j);
      else x = (lane_src(w, op.s[0], l, j / 2) >> (16 * (j % 2))) & 0xffff;
      const uint64_t code = scaled_down(w, wide_value(x, from), from, to, sc, seed, false);
      const int bit = 6 * j;
      out[bit / 32] |= uint32_t(code << (bit % 32));
      if (bit % 32 > 26) out[bit / 32 + 1] |= uint32_t(code >> (32 - bit % 32));
    }
    for (int k = 0; k < 6; ++k) w.vr(uint16_t(op.d[0].idx + k))[l] = out[k];
  });
}

template <int F, int T>
void cvt_scalef32_pk32_up(Wave& w, const Op& op) {
  constexpr MxFmt from = MxFmt(F);
  constexpr Wide to = Wide(T);
  refuse_op_sel(w, op, 0);
  if (op.s[0].k != SrcKind::V || op.s[0].neg || op.s[0].abs)
    fail(w, op, "the source of a pk32 conversion must be plain VGPRs (neg/abs are not modelled)");
  for_active_lanes(w, [&](int l) {
    const Scale sc = scale_of(lane_src(w, op.s[1], l));
    uint64_t in[6];
    for (int k = 0; k < 6; ++k) in[k] = lane_src(w, op.s[0], l, k);
    uint32_t out[32] = {};
    for (int j = 0; j < 32; ++j) {
      const int bit = 6 * j;
      const uint64_t two = in[bit / 32] | (bit / 32 + 1 < 6 ? in[bit / 32 + 1] << 32 : 0);
      const uint32_t v = scaled_up(uint32_t(two >> (bit % 32)) & 0x3f, from, to, sc);
      if (to == Wide::F32) out[j] = v;
      else out[j / 2] |= v << (16 * (j % 2));
    }
    const int n = to == Wide::F32 ? 32 : 16;
    for (int k = 0; k < n; ++k) w.vr(uint16_t(op.d[0].idx + k))[l] = out[k];
  });
}

// v_cvt_sr_f16_f32 / v_cvt_sr_bf16_f32 (gfx950): src0 f32, src1 random bits, op_sel[2] writes the
// high half (clang-22 emits op_sel:[0,0,1] for the builtins' high-half argument); the other half
// is kept. Stochastic rounding as the unscaled v_cvt_sr_fp8_f32 (fp8_encode.hpp): the 13 (f16) or
// 16 (bf16) f32 significand bits below the result's last place plus the same number of low bits of
// src1 (Options::sr_seed_bits switches it), a carry rounds up. Overflow gives inf, NaN a quiet NaN; f32 subnormal inputs are kept and
// f16 subnormal results are not flushed (MODE's denormal fields are not consulted). The ISA guide
// names the operands but not the bit-level rule: an assumption, see README.md.
template <bool BF16>
void cvt_sr_16_f32(Wave& w, const Op& op) {
  refuse_op_sel(w, op, 0x04);
  if (op.s[1].neg || op.s[1].abs) fail(w, op, "neg/abs on the random-bits operand of a stochastic conversion is not modelled");
  const int mbits = BF16 ? 7 : 10, bias = BF16 ? 127 : 15;
  const uint32_t max_code = BF16 ? 0x7f7f : 0x7bff, inf = BF16 ? 0x7f80 : 0x7c00;
  const uint32_t shift = 16 * ((op.op_sel >> 2) & 1);
  write_dst_field(w, op, 0xffffu, shift, [&](int l) {
    const uint32_t u = f32_source(w, op.s[0], l);
    const uint32_t sign = (u >> 16) & 0x8000;
    uint32_t h;
    if ((u & 0x7fffffffu) > 0x7f800000u) {
      h = BF16 ? f32_to_bf16(u) : sign | 0x7e00;
    } else if ((u & 0x7fffffffu) == 0x7f800000u) {
      h = sign | inf;
    } else {
      StochasticBits sr;
      sr.bits = 23 - mbits;
      sr.random = sr_random(w, lane_src(w, op.s[1], l), sr.bits, false);
      const uint64_t code = round_magnitude(std::fabs(double(f32_of(u))), mbits, bias, sr);
      h = sign | (code > max_code ? inf : uint32_t(code));
    }
    return h;
  });
}

}  // namespace

void register_fp8(Registry& r) {
  r.add(O::v_cvt_pk_fp8_f32, &cvt_pk_to_fp8<false>, FType::F32);
  r.add(O::v_cvt_pk_bf8_f32, &cvt_pk_to_fp8<true>, FType::F32);
  r.add(O::v_cvt_sr_fp8_f32, &cvt_sr_to_fp8<false>, FType::F32);
  r.add(O::v_cvt_sr_bf8_f32, &cvt_sr_to_fp8<true>, FType::F32);
  // gfx950 scaled conversions (all f32-typed: the scale is an f32 operand).
  constexpr int F32 = int(Wide::F32), F16 = int(Wide::F16), BF16 = int(Wide::BF16);
  constexpr int FP8 = int(MxFmt::FP8), BF8 = int(MxFmt::BF8), FP6 = int(MxFmt::FP6), BF6 = int(MxFmt::BF6), FP4 = int(MxFmt::FP4);
  auto X = [&](O n, Handler h) { r.add(n, h, FType::F32); };
  X(O::v_cvt_scalef32_pk_fp8_f32, &cvt_scalef32_pk_down<F32, FP8, true>);
  X(O::v_cvt_scalef32_pk_bf8_f32, &cvt_scalef32_pk_down<F32, BF8, true>);
  X(O::v_cvt_scalef32_pk_fp4_f32, &cvt_scalef32_pk_down<F32, FP4, true>);
  X(O::v_cvt_scalef32_pk_fp8_f16, &cvt_scalef32_pk_down<F16, FP8, false>);
  X(O::v_cvt_scalef32_pk_bf8_f16, &cvt_scalef32_pk_down<F16, BF8, false>);
  X(O::v_cvt_scalef32_pk_fp4_f16, &cvt_scalef32_pk_down<F16, FP4, false>);
  X(O::v_cvt_scalef32_pk_fp8_bf16, &cvt_scalef32_pk_down<BF16, FP8, false>);
  X(O::v_cvt_scalef32_pk_bf8_bf16, &cvt_scalef32_pk_down<BF16, BF8, false>);
  X(O::v_cvt_scalef32_pk_fp4_bf16, &cvt_scalef32_pk_down<BF16, FP4, false>);
  X(O::v_cvt_scalef32_sr_fp8_f32, &cvt_scalef32_sr_down<F32, FP8>);
  X(O::v_cvt_scalef32_sr_bf8_f32, &cvt_scalef32_sr_down<F32, BF8>);
  X(O::v_cvt_scalef32_sr_fp8_f16, &cvt_scalef32_sr_down<F16, FP8>);
  X(O::v_cvt_scalef32_sr_bf8_f16, &cvt_scalef32_sr_down<F16, BF8>);
  X(O::v_cvt_scalef32_sr_fp8_bf16, &cvt_scalef32_sr_down<BF16, FP8>);
  X(O::v_cvt_scalef32_sr_bf8_bf16, &cvt_scalef32_sr_down<BF16, BF8>);
  X(O::v_cvt_scalef32_sr_pk_fp4_f32, &cvt_scalef32_sr_down<F32, FP4>);
  X(O::v_cvt_scalef32_sr_pk_fp4_f16, &cvt_scalef32_sr_down<F16, FP4>);
  X(O::v_cvt_scalef32_sr_pk_fp4_bf16, &cvt_scalef32_sr_down<BF16, FP4>);
  X(O::v_cvt_scalef32_f32_fp8, &cvt_scalef32_up<FP8, F32, false>);
  X(O::v_cvt_scalef32_f32_bf8, &cvt_scalef32_up<BF8, F32, false>);
  X(O::v_cvt_scalef32_f16_fp8, &cvt_scalef32_up<FP8, F16, false>);
  X(O::v_cvt_scalef32_f16_bf8, &cvt_scalef32_up<BF8, F16, false>);
  X(O::v_cvt_scalef32_pk_f32_fp8, &cvt_scalef32_up<FP8, F32, true>);
  X(O::v_cvt_scalef32_pk_f32_bf8, &cvt_scalef32_up<BF8, F32, true>);
  X(O::v_cvt_scalef32_pk_f32_fp4, &cvt_scalef32_up<FP4, F32, true>);
  X(O::v_cvt_scalef32_pk_f16_fp8, &cvt_scalef32_up<FP8, F16, true>);
  X(O::v_cvt_scalef32_pk_f16_bf8, &cvt_scalef32_up<BF8, F16, true>);
  X(O::v_cvt_scalef32_pk_f16_fp4, &cvt_scalef32_up<FP4, F16, true>);
  X(O::v_cvt_scalef32_pk_bf16_fp8, &cvt_scalef32_up<FP8, BF16, true>);
  X(O::v_cvt_scalef32_pk_bf16_bf8, &cvt_scalef32_up<BF8, BF16, true>);
  X(O::v_cvt_scalef32_pk_bf16_fp4, &cvt_scalef32_up<FP4, BF16, true>);
  X(O::v_cvt_scalef32_pk32_fp6_f16, &cvt_scalef32_pk32_down<F16, FP6, Pack32::PK32>);
  X(O::v_cvt_scalef32_pk32_bf6_f16, &cvt_scalef32_pk32_down<F16, BF6, Pack32::PK32>);
  X(O::v_cvt_scalef32_pk32_fp6_bf16, &cvt_scalef32_pk32_down<BF16, FP6, Pack32::PK32>);
  X(O::v_cvt_scalef32_pk32_bf6_bf16, &cvt_scalef32_pk32_down<BF16, BF6, Pack32::PK32>);
  X(O::v_cvt_scalef32_2xpk16_fp6_f32, &cvt_scalef32_pk32_down<F32, FP6, Pack32::TWO16>);
  X(O::v_cvt_scalef32_2xpk16_bf6_f32, &cvt_scalef32_pk32_down<F32, BF6, Pack32::TWO16>);
  X(O::v_cvt_scalef32_sr_pk32_fp6_f32, &cvt_scalef32_pk32_down<F32, FP6, Pack32::SR>);
  X(O::v_cvt_scalef32_sr_pk32_bf6_f32, &cvt_scalef32_pk32_down<F32, BF6, Pack32::SR>);
  X(O::v_cvt_scalef32_sr_pk32_fp6_f16, &cvt_scalef32_pk32_down<F16, FP6, Pack32::SR>);
  X(O::v_cvt_scalef32_sr_pk32_bf6_f16, &cvt_scalef32_pk32_down<F16, BF6, Pack32::SR>);
  X(O::v_cvt_scalef32_sr_pk32_fp6_bf16, &cvt_scalef32_pk32_down<BF16, FP6, Pack32::SR>);
  X(O::v_cvt_scalef32_sr_pk32_bf6_bf16, &cvt_scalef32_pk32_down<BF16, BF6, Pack32::SR>);
  X(O::v_cvt_scalef32_pk32_f32_fp6, &cvt_scalef32_pk32_up<FP6, F32>);
  X(O::v_cvt_scalef32_pk32_f32_bf6, &cvt_scalef32_pk32_up<BF6, F32>);
  X(O::v_cvt_scalef32_pk32_f16_fp6, &cvt_scalef32_pk32_up<FP6, F16>);
  X(O::v_cvt_scalef32_pk32_f16_bf6, &cvt_scalef32_pk32_up<BF6, F16>);
  X(O::v_cvt_scalef32_pk32_bf16_fp6, &cvt_scalef32_pk32_up<FP6, BF16>);
  X(O::v_cvt_scalef32_pk32_bf16_bf6, &cvt_scalef32_pk32_up<BF6, BF16>);
  X(O::v_cvt_sr_f16_f32, &cvt_sr_16_f32<false>);
  X(O::v_cvt_sr_bf16_f32, &cvt_sr_16_f32<true>);
}

}  // namespace cdnajit::sim
