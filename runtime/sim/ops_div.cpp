// The IEEE division helpers clang emits for a / b: v_div_scale, v_div_fmas,
// v_div_fixup (f32 and f64), written from the ISA guides' pseudo-code (AMD
// "RDNA3" and "AMD Instinct MI300 (CDNA3)" ISA reference guides, V_DIV_SCALE_F32 /
// V_DIV_FMAS_F32 / V_DIV_FIXUP_F32 and the F64 forms). Together with v_rcp and FMAs
// they give the correctly rounded quotient. Where the pseudo-code is silent (the
// direction of v_div_fmas's scale, a NaN quotient from an overflowing estimate) the
// choice is commented and listed in runtime/sim/README.md.
#include <algorithm>
#include <bit>
#include <cstring>
#include <cmath>
#include <limits>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/output_modifiers.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

template <class T> struct FBits;
template <> struct FBits<float> { using U = uint32_t; static constexpr int kMant = 23, kBias = 127, kExpMax = 255, kScale = 64, kTiny = 23, kGap = 96, kUnder = -150; };
template <> struct FBits<double> { using U = uint64_t; static constexpr int kMant = 52, kBias = 1023, kExpMax = 2047, kScale = 128, kTiny = 53, kGap = 768, kUnder = -1075; };

template <class T> int exponent(T x) { return int((std::bit_cast<typename FBits<T>::U>(x) >> FBits<T>::kMant) & FBits<T>::kExpMax); }
template <class T> bool is_denorm(T x) { return x != 0 && std::fpclassify(x) == FP_SUBNORMAL; }
// The guide tests "1.0 / 64'F(S1) == DENORM.f64": the reciprocal in f64, which is never
// subnormal for an f32 denominator (so the f32 form never takes that branch).
inline bool recip_is_denorm(float s1) { return is_denorm(1.0 / double(s1)); }
inline bool recip_is_denorm(double s1) { return is_denorm(1.0 / s1); }

// The f32 forms follow MODE.FP_DENORM[1:0] like every f32 VALU operation (the guides' MODE
// register description; LLVM's f32 division lowering switches that field on around its FMA
// chain when a function flushes, which only matters because these instructions honour it):
// denormal inputs read as zero when the mode flushes inputs, denormal results written as zero
// when it flushes outputs, sign kept. The f64 forms under a flushing f16/f64 mode are refused by
// run_in_mode (ops_mode.cpp).
template <class T> T load(Wave& w, const Src& s, int l) {
  typename FBits<T>::U u;
  if constexpr (sizeof(T) == 4) u = lane_src(w, s, l);
  else u = s.k == SrcKind::Const ? s.val : (uint64_t(lane_src(w, s, l)) | uint64_t(lane_src(w, s, l, 1)) << 32);
  T x = std::bit_cast<T>(u);
  if (s.abs) x = std::fabs(x);
  if (s.neg) x = -x;
  if constexpr (sizeof(T) == 4)
    if (w.flush_in_f32) x = std::bit_cast<T>(flush_denorm32(std::bit_cast<uint32_t>(x)));
  return x;
}
// Results get the instruction's clamp/omod first (output_modifiers.hpp), then the f32 output flush, as
// in the generic store.
template <class T> void put(Wave& w, const Op& op, const Src& d, int l, T x) {
  if constexpr (sizeof(T) == 4) {
    if (op.clamp || op.omod) x = std::bit_cast<T>(out_mods_f32(w, op, std::bit_cast<uint32_t>(x)));
    if (w.flush_out_f32) x = std::bit_cast<T>(flush_denorm32(std::bit_cast<uint32_t>(x)));
  } else if (op.clamp || op.omod) {
    x = std::bit_cast<T>(out_mods_f64(w, op, std::bit_cast<uint64_t>(x)));
  }
  auto u = std::bit_cast<typename FBits<T>::U>(x);
  w.vr(d.idx)[l] = uint32_t(u);
  if constexpr (sizeof(T) == 8) w.vr(uint16_t(d.idx + 1))[l] = uint32_t(u >> 32);
}

// v_div_scale d, vcc_out, s0, s1 (denominator), s2 (numerator)
template <class T>
void div_scale(Wave& w, const Op& op) {
  using B = FBits<T>;
  uint64_t e = w.exec(), vcc = 0;
  w.lane_ops += uint64_t(std::popcount(e));
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    T s0 = load<T>(w, op.s[0], l), s1 = load<T>(w, op.s[1], l), s2 = load<T>(w, op.s[2], l), d = s0;
    bool flag = false;
    if (s2 == 0 || s1 == 0) d = std::numeric_limits<T>::quiet_NaN();
    else if (exponent(s2) - exponent(s1) >= B::kGap) {
      flag = true;
      if (s0 == s1) d = std::ldexp(s0, B::kScale);
    } else if (is_denorm(s1)) d = std::ldexp(s0, B::kScale);
    else if (recip_is_denorm(s1) && is_denorm(s2 / s1)) {
      // Huge denominator and subnormal quotient. The guides print ldexp(S0, +64/+128) here,
      // which overflows the (already huge) denominator to infinity and yields a NaN quotient
      // (e.g. 1.0 / DBL_MAX). Scaling it *down* is the only reading consistent with the other
      // branches and with v_div_fmas's small-estimate scale of 2^-128: assumed, see README.
      flag = true;
      if (s0 == s1) d = std::ldexp(s0, -B::kScale);
    } else if (recip_is_denorm(s1)) d = std::ldexp(s0, -B::kScale);
    else if (is_denorm(s2 / s1)) {
      flag = true;
      if (s0 == s2) d = std::ldexp(s0, B::kScale);
    } else if (exponent(s2) <= B::kTiny) d = std::ldexp(s0, B::kScale);
    put<T>(w, op, op.d[0], l, d);
    vcc |= uint64_t(flag) << l;
  }
  write_s64(w, op.d[1], vcc);
}

// fma(a, b, c) * 2^scale for doubles, rounded once: the exact product fits a binary128
// (__float128, 113 bits), the sum is rounded to odd there (TwoSum error, odd last bit),
// scaled exactly, and converted once to double (113 >= 53 + 2, Boldo & Melquiond 2008).
double scaled_fma64(double a, double b, double c, int scale) {
  __float128 p = __float128(a) * __float128(b), z = c, s = p + z;
  if (s != s || s - s != 0 || s == 0) return std::ldexp(double(s), scale);  // NaN, infinity, zero
  __float128 bv = s - p, err = (p - (s - bv)) + (z - bv);
  unsigned __int128 u;
  std::memcpy(&u, &s, 16);
  if (err != 0 && !(u & 1)) {
    u += ((err > 0) == (s > 0)) ? 1 : -1;  // one step toward the exact value (sign-magnitude encoding)
    std::memcpy(&s, &u, 16);
  }
  for (int k = scale; k != 0;) {  // exact: binary128 has exponents down to 2^-16494
    int step = k > 0 ? std::min(k, 64) : std::max(k, -64);
    s *= __float128(std::ldexp(1.0, step));
    k -= step;
  }
  return double(s);
}

// v_div_fmas d, s0, s1, s2 (reads VCC): fma, rescaled where div_scale flagged the lane.
// The guides print the scale as a constant power of two; it must undo whichever side
// div_scale scaled: 2^+64 when the quotient estimate s2 is large (the denominator was
// scaled up), 2^-64 when it is small (the numerator was scaled up for a subnormal
// quotient). The scaled fma is rounded once (fused): into the f32 subnormal range the
// fma and the scaling are not two roundings (fma_f32_round_odd gives the exact sum with a
// sticky bit, the scaling by 2^-64 is exact in a double, the conversion rounds once).
template <class T>
void div_fmas(Wave& w, const Op& op) {
  using B = FBits<T>;
  uint64_t e = w.exec(), vcc = w.vcc();
  w.lane_ops += uint64_t(std::popcount(e));
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    T s0 = load<T>(w, op.s[0], l), s1 = load<T>(w, op.s[1], l), s2 = load<T>(w, op.s[2], l);
    T r;
    int scale = exponent(s2) >= B::kBias ? B::kScale : -B::kScale;
    if (!((vcc >> l) & 1)) r = std::fma(s0, s1, s2);
    else if constexpr (sizeof(T) == 4) r = float(std::ldexp(fma_f32_round_odd(s0, s1, s2), scale));
    else r = scaled_fma64(s0, s1, s2, scale);
    put<T>(w, op, op.d[0], l, r);
  }
}

// v_div_fixup d, s0 (quotient), s1 (denominator), s2 (numerator): special cases.
template <class T>
void div_fixup(Wave& w, const Op& op) {
  using B = FBits<T>;
  uint64_t e = w.exec();
  w.lane_ops += uint64_t(std::popcount(e));
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    T s0 = load<T>(w, op.s[0], l), s1 = load<T>(w, op.s[1], l), s2 = load<T>(w, op.s[2], l), d;
    bool neg = std::signbit(s1) != std::signbit(s2);
    if (std::isnan(s2)) d = s2 + s2;  // quieted
    else if (std::isnan(s1)) d = s1 + s1;
    else if (s1 == 0 && s2 == 0) d = -nan;
    else if (std::isinf(s1) && std::isinf(s2)) d = -nan;
    else if (s1 == 0 || std::isinf(s2)) d = neg ? -inf : inf;
    else if (std::isinf(s1) || s2 == 0) d = neg ? -T(0) : T(0);
    else if (exponent(s2) - exponent(s1) < B::kUnder) d = neg ? -std::numeric_limits<T>::denorm_min() * 0 : T(0);
    else if (exponent(s1) == B::kExpMax) d = neg ? -inf : inf;
    // Assumed (the pseudo-code would pass the NaN through): with finite non-zero operands
    // the sequence only produces a NaN quotient from inf - inf when the estimate overflowed
    // (e.g. FLT_MAX / denorm_min: even the 2^64-scaled denominator leaves the quotient
    // above FLT_MAX), and the IEEE answer there is a signed infinity.
    else if (std::isnan(s0)) d = neg ? -inf : inf;
    else d = neg ? -std::fabs(s0) : std::fabs(s0);
    put<T>(w, op, op.d[0], l, d);
  }
}

}  // namespace

void register_div(Registry& r) {
  using U = isa::Unit;
  r.add("v_div_scale_f32", &div_scale<float>, U::VALU, FType::F32);
  r.add("v_div_scale_f64", &div_scale<double>, U::VALU, FType::F64);
  r.add("v_div_fmas_f32", &div_fmas<float>, U::VALU, FType::F32);
  r.add("v_div_fmas_f64", &div_fmas<double>, U::VALU, FType::F64);
  r.add("v_div_fixup_f32", &div_fixup<float>, U::VALU, FType::F32);
  r.add("v_div_fixup_f64", &div_fixup<double>, U::VALU, FType::F64);
}

}  // namespace cdnajit::sim
