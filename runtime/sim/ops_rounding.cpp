// The common VALU float arithmetic under a non-default MODE (s_setreg of FP_ROUND / FP_DENORM):
// f32 add/sub/subrev/mul/fma/fmac/fmamk/fmaak, f16 add/sub/mul/fma, f64 add/mul/fma/fmac,
// v_cvt_f16_f32, v_cvt_f32_f64, v_cvt_f32_i32/u32 and v_cvt_f32_f16. The simulator runs these handlers instead of the default ones
// while the wave's MODE differs from round-to-nearest-even with f16/f64 denormals kept
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
#include "runtime/sim/output_modifiers.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

enum Round : int { kNearestEven = 0, kUp = 1, kDown = 2, kTowardZero = 3 };

uint16_t f16_bits_up(uint16_t h) { return (h & 0x7fff) == 0 ? 0x0001 : (h & 0x8000) ? uint16_t(h - 1) : uint16_t(h + 1); }
uint16_t f16_bits_down(uint16_t h) { return (h & 0x7fff) == 0 ? 0x8001 : (h & 0x8000) ? uint16_t(h + 1) : uint16_t(h - 1); }

// x exact, or rounded to odd at 53 bits; returns f32 bits rounded in direction m.
uint32_t round_to_f32(double x, int m) {
  float n = float(x);  // nearest even (the host's default mode)
  if (m == kNearestEven || std::isnan(x) || double(n) == x) return as_u(n);
  float lo, hi;
  if (double(n) < x) { lo = n; hi = std::nextafter(n, INFINITY); }
  else { hi = n; lo = std::nextafter(n, -INFINITY); }
  return as_u(m == kUp ? hi : m == kDown ? lo : (x > 0 ? lo : hi));
}

uint16_t round_to_f16(double x, int m) {
  uint16_t n = f64_to_f16(x);
  if (m == kNearestEven || std::isnan(x)) return n;
  double nv = double(f16_to_f32(n));
  if (nv == x) return n;
  uint16_t lo, hi;
  if (nv < x) { lo = n; hi = f16_bits_up(n); }
  else { hi = n; lo = f16_bits_down(n); }
  return m == kUp ? hi : m == kDown ? lo : (x > 0 ? lo : hi);
}

// IEEE 754 6.3: an exact zero sum of operands of opposite signs (or an exact cancellation) is +0,
// except under rounding toward -inf, where it is -0. Sums of zeros of one sign keep that sign.
double zero_sum_sign(double r, double p, double c, int m) {
  if (r != 0 || (p == 0 && c == 0 && std::signbit(p) == std::signbit(c))) return r;
  return m == kDown ? -0.0 : 0.0;
}

uint32_t src32(Wave& w, const Op& op, int i, int lane) {
  uint32_t u = lane_src(w, op.s[i], lane);
  if (op.s[i].abs) u &= 0x7fffffffu;
  if (op.s[i].neg) u ^= 0x80000000u;
  return w.flush_in_f32 ? flush_denorm32(u) : u;
}

// The _sdwa forms reach these handlers through sdwa_run_selected (run_in_float_mode, ops_mode.cpp),
// which has already applied the selects and will merge the destination field: op.sdwa is clear here.
void refuse_sdwa_opsel(Wave& w, const Op& op) {
  if (op.sdwa) fail(w, op, "internal: an SDWA form reached a MODE handler without its selects applied");
  if (op.op_sel) fail(w, op, "op_sel under a non-default MODE is not modelled by the simulator");
}

// K: 0 add, 1 sub, 2 subrev, 3 mul, 4 fma(s0, s1, s2) (also fmamk/fmaak), 5 fmac (addend = vdst).
template <int K>
void f32_arith(Wave& w, const Op& op) {
  refuse_sdwa_opsel(w, op);
  const uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    float a = as_f(src32(w, op, 0, l)), b = as_f(src32(w, op, 1, l));
    float c = K == 4 ? as_f(src32(w, op, 2, l)) : K == 5 ? as_f(w.flush_in_f32 ? flush_denorm32(d[l]) : d[l]) : 0.0f;
    double x;
    if (K == 3) x = double(a) * double(b);  // exact
    else if (K <= 2) {
      float p = K == 2 ? -a : a, q = K == 1 ? -b : b;
      if (K == 2) std::swap(p, q);  // b - a
      x = zero_sum_sign(fma_f32_round_odd(p, 1.0f, q), double(p), double(q), w.round_f32);
    } else {
      x = zero_sum_sign(fma_f32_round_odd(a, b, c), double(a) * double(b), double(c), w.round_f32);
    }
    uint32_t r = out_mods_f32(w, op, round_to_f32(x, w.round_f32));
    d[l] = w.flush_out_f32 ? flush_denorm32(r) : r;
  }
}

uint16_t flush16(uint16_t h, bool on) { return on && (h & 0x7c00) == 0 ? uint16_t(h & 0x8000) : h; }

uint16_t src16(Wave& w, const Op& op, int i, int lane) {
  uint16_t h = uint16_t(lane_src(w, op.s[i], lane));
  if (op.s[i].abs) h &= 0x7fff;
  if (op.s[i].neg) h ^= 0x8000;
  return flush16(h, w.flush_in_f16_64);
}

// K: 0 add, 1 sub, 3 mul, 4 fma. The result is written zero-extended (gfx9 16-bit VOP2/VOP3).
template <int K>
void f16_arith(Wave& w, const Op& op) {
  refuse_sdwa_opsel(w, op);
  const uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    float a = f16_to_f32(src16(w, op, 0, l)), b = f16_to_f32(src16(w, op, 1, l));
    if (K == 1) b = -b;
    float c = K == 4 ? f16_to_f32(src16(w, op, 2, l)) : K == 3 ? -0.0f : b;
    float m = K <= 1 ? 1.0f : b;
    double x = fma_f32_round_odd(a, m, c);  // a*1 + b, a*b + (-0) or a*b + c
    if (K != 3) x = zero_sum_sign(x, double(a) * double(m), double(c), w.round_f16_64);
    d[l] = out_mods_f16(w, op, flush16(round_to_f16(x, w.round_f16_64), w.flush_out_f16_64));
  }
}

void cvt_f16_f32(Wave& w, const Op& op) {
  refuse_sdwa_opsel(w, op);
  const uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1)
      d[l] = out_mods_f16(w, op, flush16(round_to_f16(double(as_f(src32(w, op, 0, l))), w.round_f16_64), w.flush_out_f16_64));
}

// v_cvt_f32_i32 / v_cvt_f32_u32: the integer is exact in a double, rounded once in the f32 mode.
template <bool SIGNED>
void cvt_f32_int(Wave& w, const Op& op) {
  refuse_sdwa_opsel(w, op);
  const uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t u = lane_src(w, op.s[0], l);
    d[l] = out_mods_f32(w, op, round_to_f32(SIGNED ? double(int32_t(u)) : double(u), w.round_f32));
  }
}

// v_cvt_f32_f16: exact; the f16 input follows the f16/f64 denormal mode.
void cvt_f32_f16(Wave& w, const Op& op) {
  refuse_sdwa_opsel(w, op);
  const uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) d[l] = out_mods_f32(w, op, as_u(f16_to_f32(src16(w, op, 0, l))));
}

uint64_t flush64(uint64_t u, bool on) { return on && (u & 0x7ff0000000000000ull) == 0 ? (u & (1ull << 63)) : u; }

uint64_t src64(Wave& w, const Op& op, int i, int lane) {
  uint64_t u = uint64_t(lane_src(w, op.s[i], lane)) | uint64_t(lane_src(w, op.s[i], lane, 1)) << 32;
  if (op.s[i].abs) u &= ~(1ull << 63);
  if (op.s[i].neg) u ^= 1ull << 63;
  return flush64(u, w.flush_in_f16_64);
}

void cvt_f32_f64(Wave& w, const Op& op) {
  refuse_sdwa_opsel(w, op);
  const uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t r = out_mods_f32(w, op, round_to_f32(as_d(src64(w, op, 0, l)), w.round_f32));
    d[l] = w.flush_out_f32 ? flush_denorm32(r) : r;
  }
}

// The host FPU's rounding direction for a MODE round mode, restored on scope exit.
class HostRounding {
 public:
  explicit HostRounding(int m) : old_(std::fegetround()) {
    static const int kHost[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    std::fesetround(kHost[m & 3]);
  }
  ~HostRounding() { std::fesetround(old_); }
  HostRounding(const HostRounding&) = delete;
  HostRounding& operator=(const HostRounding&) = delete;

 private:
  int old_;
};

// K: 0 add, 3 mul, 4 fma, 5 fmac (addend = vdst).
template <int K>
void f64_arith(Wave& w, const Op& op) {
  const uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t *d0 = w.vr(op.d[0].idx), *d1 = w.vr(uint16_t(op.d[0].idx + 1));
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
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
  }
}

}  // namespace

void register_rounding(Registry& r) {
  r.set_moded("v_add_f32", &f32_arith<0>);
  r.set_moded("v_sub_f32", &f32_arith<1>);
  r.set_moded("v_subrev_f32", &f32_arith<2>);
  r.set_moded("v_mul_f32", &f32_arith<3>);
  r.set_moded("v_fma_f32", &f32_arith<4>);
  r.set_moded("v_fmamk_f32", &f32_arith<4>);  // asm order src0, K, src1: fma(src0, K, src1)
  r.set_moded("v_fmaak_f32", &f32_arith<4>);
  r.set_moded("v_fmac_f32", &f32_arith<5>);
  r.set_moded("v_add_f16", &f16_arith<0>);
  r.set_moded("v_sub_f16", &f16_arith<1>);
  r.set_moded("v_mul_f16", &f16_arith<3>);
  r.set_moded("v_fma_f16", &f16_arith<4>);
  r.set_moded("v_cvt_f16_f32", &cvt_f16_f32);
  r.set_moded("v_cvt_f32_f64", &cvt_f32_f64);
  r.set_moded("v_cvt_f32_i32", &cvt_f32_int<true>);
  r.set_moded("v_cvt_f32_u32", &cvt_f32_int<false>);
  r.set_moded("v_cvt_f32_f16", &cvt_f32_f16);
  r.set_moded("v_add_f64", &f64_arith<0>);
  r.set_moded("v_mul_f64", &f64_arith<3>);
  r.set_moded("v_fma_f64", &f64_arith<4>);
  r.set_moded("v_fmac_f64", &f64_arith<5>);
}

}  // namespace cdnajit::sim
