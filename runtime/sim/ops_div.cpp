// The IEEE division helpers clang emits for a / b: v_div_scale, v_div_fmas,
// v_div_fixup (f32 and f64), written from the ISA guides' pseudo-code (AMD
// "RDNA3" and "AMD Instinct MI300 (CDNA3)" ISA reference guides, V_DIV_SCALE_F32 /
// V_DIV_FMAS_F32 / V_DIV_FIXUP_F32 and the F64 forms). Together with v_rcp and FMAs
// they give the correctly rounded quotient. Where the pseudo-code is silent (the
// direction of v_div_fmas's scale, a NaN quotient from an overflowing estimate) the
// choice is commented and listed in runtime/sim/README.md.
//
// The same handlers run under a non-default MODE (registered as the MODE handlers too): they read the
// round mode of their result type (MODE.FP_ROUND [1:0] for f32, [3:2] for f64), which is nearest even on
// the default path, and the denormal field of their type. Under a directed mode every rounded step of
// the pseudo-code rounds once in that direction: the f32 results through round_to_f32 of an exact or
// round-to-odd double (mode_round.hpp), the f64 ones on the host FPU set to the same direction
// (HostRounding; this file is compiled with -frounding-math). The round-to-odd sums themselves are
// computed at nearest even, before the direction is set.
#include <algorithm>
#include <bit>
#include <cstring>
#include <cmath>
#include <limits>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/mode_round.hpp"
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

// The round mode of a T result: MODE.FP_ROUND[1:0] for f32, [3:2] for f64 (nearest even on the default path).
template <class T> int round_mode(const Wave& w) { return sizeof(T) == 4 ? w.round_f32 : w.round_f16_64; }

// a * b rounded once in round mode m (the host's default, nearest even, needs no switch).
template <class T> T mul_in_mode(T a, T b, int m) {
  if (m == kNearestEven) return a * b;
  volatile T x = a, y = b, r;
  HostRounding hr(m);
  r = x * y;
  return r;
}
// S0 * 2^k, as the pseudo-code's ldexp: exact unless it overflows or lands among the denormals, where it
// rounds once in the mode (2^k is exact in T for the |k| <= 128 used here).
template <class T> T scale_in_mode(T x, int k, int m) { return mul_in_mode<T>(x, std::ldexp(T(1), k), m); }

inline bool recip_is_denorm(float s1) { return is_denorm(1.0 / double(s1)); }
inline bool recip_is_denorm(double s1) { return is_denorm(1.0 / s1); }

// The f32 forms follow MODE.FP_DENORM[1:0] like every f32 VALU operation (the guides' MODE
// register description; LLVM's f32 division lowering switches that field on around its FMA
// chain when a function flushes, which only matters because these instructions honour it):
// denormal inputs read as zero when the mode flushes inputs, denormal results written as zero
// when it flushes outputs, sign kept. The f64 forms follow MODE.FP_DENORM[3:2] (the f16/f64 field)
// the same way; on the default path that field keeps denormals, so only the MODE path flushes them.
template <class T> T load(Wave& w, const Src& s, int l) {
  typename FBits<T>::U u;
  if constexpr (sizeof(T) == 4) u = lane_src(w, s, l);
  else u = s.k == SrcKind::Const ? s.val : (uint64_t(lane_src(w, s, l)) | uint64_t(lane_src(w, s, l, 1)) << 32);
  T x = std::bit_cast<T>(u);
  if (s.abs) x = std::fabs(x);
  if (s.neg) x = -x;
  if constexpr (sizeof(T) == 4) {
    if (w.flush_in_f32) x = std::bit_cast<T>(flush_denorm32(std::bit_cast<uint32_t>(x)));
  } else {
    x = std::bit_cast<T>(flush64(std::bit_cast<uint64_t>(x), w.flush_in_f16_64));
  }
  return x;
}
// Results get the instruction's clamp/omod first (output_modifiers.hpp), then the f32 output flush, as
// in the generic store.
template <class T> void put(Wave& w, const Op& op, const Src& d, int l, T x) {
  if constexpr (sizeof(T) == 4) {
    if (op.clamp || op.omod) x = std::bit_cast<T>(out_mods_f32(w, op, std::bit_cast<uint32_t>(x)));
    if (w.flush_out_f32) x = std::bit_cast<T>(flush_denorm32(std::bit_cast<uint32_t>(x)));
  } else {
    if (op.clamp || op.omod) x = std::bit_cast<T>(out_mods_f64(w, op, std::bit_cast<uint64_t>(x)));
    x = std::bit_cast<T>(flush64(std::bit_cast<uint64_t>(x), w.flush_out_f16_64));
  }
  auto u = std::bit_cast<typename FBits<T>::U>(x);
  w.vr(d.idx)[l] = uint32_t(u);
  if constexpr (sizeof(T) == 8) w.vr(uint16_t(d.idx + 1))[l] = uint32_t(u >> 32);
}

// v_div_scale d, vcc_out, s0, s1 (denominator), s2 (numerator)
// Under a directed mode only the scaled result rounds (once, in the mode: it is exact unless it overflows
// or lands among the denormals). The branch conditions (1 / S1 and S2 / S1 denormal) are tests the guides
// do not say are rounded in MODE; they are evaluated at nearest even, as on the default path (assumed).
template <class T>
void div_scale(Wave& w, const Op& op) {
  using B = FBits<T>;
  const int m = round_mode<T>(w);
  uint64_t e = w.exec(), vcc = 0;
  w.lane_ops += uint64_t(std::popcount(e));
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    T s0 = load<T>(w, op.s[0], l), s1 = load<T>(w, op.s[1], l), s2 = load<T>(w, op.s[2], l), d = s0;
    bool flag = false;
    if (s2 == 0 || s1 == 0) d = std::numeric_limits<T>::quiet_NaN();
    else if (exponent(s2) - exponent(s1) >= B::kGap) {
      flag = true;
      if (s0 == s1) d = scale_in_mode(s0, B::kScale, m);
    } else if (is_denorm(s1)) d = scale_in_mode(s0, B::kScale, m);
    else if (recip_is_denorm(s1) && is_denorm(s2 / s1)) {
      // Huge denominator and subnormal quotient. The guides print ldexp(S0, +64/+128) here,
      // which overflows the (already huge) denominator to infinity and yields a NaN quotient
      // (e.g. 1.0 / DBL_MAX). Scaling it *down* is the only reading consistent with the other
      // branches and with v_div_fmas's small-estimate scale of 2^-128: assumed, see README.
      flag = true;
      if (s0 == s1) d = scale_in_mode(s0, -B::kScale, m);
    } else if (recip_is_denorm(s1)) d = scale_in_mode(s0, -B::kScale, m);
    else if (is_denorm(s2 / s1)) {
      flag = true;
      if (s0 == s2) d = scale_in_mode(s0, B::kScale, m);
    } else if (exponent(s2) <= B::kTiny) d = scale_in_mode(s0, B::kScale, m);
    put<T>(w, op, op.d[0], l, d);
    vcc |= uint64_t(flag) << l;
  }
  write_s64(w, op.d[1], vcc);
}

// fma(a, b, c) * 2^scale for doubles, rounded once in round mode m: the exact product fits a
// binary128 (__float128, 113 bits), the sum is rounded to odd there (TwoSum error, odd last bit,
// at nearest even), scaled exactly, and converted once to double in mode m (113 >= 53 + 2, Boldo &
// Melquiond 2008; libgcc's soft-float conversion follows the host rounding direction).
double scaled_fma64(double a, double b, double c, int scale, int m) {
  __float128 p = __float128(a) * __float128(b), z = c, s = p + z;
  if (s != s || s - s != 0) return double(s);  // NaN, infinity: the scale changes nothing
  if (s == 0) return zero_sum_sign(double(s), double(p), c, m);  // exact: a zero product's sign is exact in double
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
  if (m == kNearestEven) return double(s);
  volatile __float128 v = s;
  volatile double r;
  HostRounding hr(m);
  r = double(v);
  return r;
}

// fma(a, b, c) for doubles, rounded once in round mode m.
double fma_in_mode(double a, double b, double c, int m) {
  if (m == kNearestEven) return std::fma(a, b, c);
  volatile double x = a, y = b, z = c, r;
  HostRounding hr(m);
  r = std::fma(x, y, z);
  return r;
}

// v_div_fmas d, s0, s1, s2 (reads VCC): fma, rescaled where div_scale flagged the lane.
// The guides print the scale as a constant power of two; it must undo whichever side
// div_scale scaled: 2^+64 when the quotient estimate s2 is large (the denominator was
// scaled up), 2^-64 when it is small (the numerator was scaled up for a subnormal
// quotient). The scaled fma is rounded once (fused): into the f32 subnormal range the
// fma and the scaling are not two roundings (fma_f32_round_odd gives the exact sum with a
// sticky bit, the scaling by 2^-64 is exact in a double, the conversion rounds once, in the
// f32 round mode).
template <class T>
void div_fmas(Wave& w, const Op& op) {
  using B = FBits<T>;
  const int m = round_mode<T>(w);
  uint64_t e = w.exec(), vcc = w.vcc();
  w.lane_ops += uint64_t(std::popcount(e));
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    T s0 = load<T>(w, op.s[0], l), s1 = load<T>(w, op.s[1], l), s2 = load<T>(w, op.s[2], l);
    T r;
    int scale = exponent(s2) >= B::kBias ? B::kScale : -B::kScale;
    if constexpr (sizeof(T) == 4) {
      if (!((vcc >> l) & 1)) r = m == kNearestEven ? std::fma(s0, s1, s2) : as_f(f32_rounded<4>(s0, s1, s2, m));
      else {
        const double x = zero_sum_sign(fma_f32_round_odd(s0, s1, s2), double(s0) * double(s1), double(s2), m);
        r = as_f(round_to_f32(std::ldexp(x, scale), m));
      }
    } else {
      r = (vcc >> l) & 1 ? scaled_fma64(s0, s1, s2, scale, m) : fma_in_mode(s0, s1, s2, m);
    }
    put<T>(w, op, op.d[0], l, r);
  }
}

// Whether round mode m rounds a result of this sign away from zero (toward +inf for positive, -inf for negative).
inline bool rounds_away(int m, bool neg) { return neg ? m == kDown : m == kUp; }

// v_div_fixup d, s0 (quotient), s1 (denominator), s2 (numerator): special cases. Every result is
// exact (a copy of s0 with the quotient's sign, or a constant), so a directed mode changes none of them:
// the pseudo-code's overflow results are infinities (not the largest finite) and its underflow a signed
// zero in every mode; only the assumed NaN-quotient case below depends on the mode.
template <class T>
void div_fixup(Wave& w, const Op& op) {
  using B = FBits<T>;
  const int m = round_mode<T>(w);
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
    // The guides' pseudo-code (CDNA3/CDNA4 ISA, V_DIV_FIXUP_F32/F64, "result underflows") writes a signed
    // zero here whatever MODE.FP_ROUND says, so a directed mode toward +-inf gives a zero too, not the
    // smallest denormal an IEEE division would (documented in runtime/sim/README.md, MODE).
    else if (exponent(s2) - exponent(s1) < B::kUnder) d = neg ? -T(0) : T(0);
    else if (exponent(s1) == B::kExpMax) d = neg ? -inf : inf;
    // Assumed (the pseudo-code would pass the NaN through): with finite non-zero operands
    // the sequence only produces a NaN quotient from inf - inf when the estimate overflowed
    // (e.g. FLT_MAX / denorm_min: even the 2^64-scaled denominator leaves the quotient
    // above FLT_MAX), and the IEEE answer there is a signed infinity.
    else if (std::isnan(s0)) {
      d = neg ? -inf : inf;
      // Under a directed mode the overflowing estimate is itself rounded (toward zero it stays finite), so
      // the reasoning above only covers the mode that rounds toward this infinity.
      if (m != kNearestEven && !rounds_away(m, neg))
        fail(w, op, "a NaN quotient with finite non-zero operands under a round mode away from " +
                        std::string(neg ? "-inf" : "+inf") + ": the simulator's infinity for it (assumed, see "
                        "runtime/sim/README.md) rests on the nearest-even division sequence (valid: nearest even or the "
                        "round mode toward that infinity)", l);
    }
    else d = neg ? -std::fabs(s0) : std::fabs(s0);
    put<T>(w, op, op.d[0], l, d);
  }
}

}  // namespace

void register_div(Registry& r) {
  r.add(O::v_div_scale_f32, &div_scale<float>, FType::F32);
  r.add(O::v_div_scale_f64, &div_scale<double>, FType::F64);
  r.add(O::v_div_fmas_f32, &div_fmas<float>, FType::F32);
  r.add(O::v_div_fmas_f64, &div_fmas<double>, FType::F64);
  r.add(O::v_div_fixup_f32, &div_fixup<float>, FType::F32);
  r.add(O::v_div_fixup_f64, &div_fixup<double>, FType::F64);
  // The same handlers honour MODE (see the header comment).
  r.set_moded(O::v_div_scale_f32, &div_scale<float>);
  r.set_moded(O::v_div_scale_f64, &div_scale<double>);
  r.set_moded(O::v_div_fmas_f32, &div_fmas<float>);
  r.set_moded(O::v_div_fmas_f64, &div_fmas<double>);
  r.set_moded(O::v_div_fixup_f32, &div_fixup<float>);
  r.set_moded(O::v_div_fixup_f64, &div_fixup<double>);
}

}  // namespace cdnajit::sim
