// Rounding and flushing primitives of the MODE handlers (ops_rounding.cpp and the files that add
// MODE handlers for further instructions): one rounding of an exact (or round-to-odd f64) value to
// f32/f16 in a MODE.FP_ROUND direction, the IEEE sign of exact zero sums, the denormal flushes, the
// operand fetches with source modifiers and input flush, the frame of the handlers with one dword per
// lane and the f32 result's output flush, and the host FPU's direction for f64 results.
// The rules and their sources are in ops_rounding.cpp's header comment. A file that uses HostRounding
// must be compiled with -frounding-math (runtime/sim/CMakeLists.txt), as ops_rounding.cpp is.
#pragma once
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/lane_op.hpp"
#include "runtime/sim/output_modifiers.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
inline namespace mode_round {

enum Round : int { kNearestEven = 0, kUp = 1, kDown = 2, kTowardZero = 3 };

inline uint16_t f16_bits_up(uint16_t h) { return (h & 0x7fff) == 0 ? 0x0001 : (h & 0x8000) ? uint16_t(h - 1) : uint16_t(h + 1); }
inline uint16_t f16_bits_down(uint16_t h) { return (h & 0x7fff) == 0 ? 0x8001 : (h & 0x8000) ? uint16_t(h + 1) : uint16_t(h - 1); }

// x exact, or rounded to odd at 53 bits; returns f32 bits rounded in direction m.
inline uint32_t round_to_f32(double x, int m) {
  float n = float(x);  // nearest even (the host's default mode)
  if (m == kNearestEven || std::isnan(x) || double(n) == x) return as_u(n);
  float lo, hi;
  if (double(n) < x) { lo = n; hi = std::nextafter(n, INFINITY); }
  else { hi = n; lo = std::nextafter(n, -INFINITY); }
  return as_u(m == kUp ? hi : m == kDown ? lo : (x > 0 ? lo : hi));
}

inline uint16_t round_to_f16(double x, int m) {
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
inline double zero_sum_sign(double r, double p, double c, int m) {
  if (r != 0 || (p == 0 && c == 0 && std::signbit(p) == std::signbit(c))) return r;
  return m == kDown ? -0.0 : 0.0;
}

inline uint32_t src32(Wave& w, const Op& op, int i, int lane) {
  uint32_t u = lane_src(w, op.s[i], lane);
  if (op.s[i].abs) u &= 0x7fffffffu;
  if (op.s[i].neg) u ^= 0x80000000u;
  return w.flush_in_f32 ? flush_denorm32(u) : u;
}

// The _sdwa forms reach these handlers through sdwa_run_selected (run_in_float_mode, ops_mode.cpp),
// which has already applied the selects and will merge the destination field: op.sdwa is clear here.
inline void refuse_sdwa_opsel(Wave& w, const Op& op) {
  if (op.sdwa) fail(w, op, "internal: an SDWA form reached a MODE handler without its selects applied");
  if (op.op_sel) fail(w, op, "op_sel under a non-default MODE is not modelled by the simulator");
}

// The frame of the MODE handlers that write one dword per lane: SDWA and op_sel refused, then
// vdst[l] = result(l) for every lane active in EXEC. A handler that reads its destination (the
// addend of a mac or fmac) takes the old dword as a second argument: result(l, old).
template <class F>
void write_active_lanes(Wave& w, const Op& op, F result) {
  refuse_sdwa_opsel(w, op);
  uint32_t* d = w.vr(op.d[0].idx);
  for_active_lanes(w, [&](int l) {
    if constexpr (std::is_invocable_v<F&, int, uint32_t>) d[l] = result(l, d[l]);
    else d[l] = result(l);
  });
}

// An f32 result as written to the VGPR: clamp/omod first, then the f32 field's output flush, so a
// result that omod moves into the denormal range is flushed as well.
inline uint32_t f32_result(const Wave& w, const Op& op, uint32_t r) {
  r = out_mods_f32(w, op, r);
  return w.flush_out_f32 ? flush_denorm32(r) : r;
}

// One f32 operation on operands already flushed as the f32 field says, rounded in round mode m;
// the result's output modifiers and denormal flush are the caller's.
// K: 0 add, 1 sub, 2 subrev, 3 mul, 4 or 5 fma(a, b, c).
template <int K>
uint32_t f32_rounded(float a, float b, float c, int m) {
  double x;
  if (K == 3) x = double(a) * double(b);  // exact
  else if (K <= 2) {
    float p = K == 2 ? -a : a, q = K == 1 ? -b : b;
    if (K == 2) std::swap(p, q);  // b - a
    x = zero_sum_sign(fma_f32_round_odd(p, 1.0f, q), double(p), double(q), m);
  } else {
    x = zero_sum_sign(fma_f32_round_odd(a, b, c), double(a) * double(b), double(c), m);
  }
  return round_to_f32(x, m);
}

inline uint16_t flush16(uint16_t h, bool on) { return on && (h & 0x7c00) == 0 ? uint16_t(h & 0x8000) : h; }

inline uint16_t src16(Wave& w, const Op& op, int i, int lane) {
  uint16_t h = uint16_t(lane_src(w, op.s[i], lane));
  if (op.s[i].abs) h &= 0x7fff;
  if (op.s[i].neg) h ^= 0x8000;
  return flush16(h, w.flush_in_f16_64);
}

// One f16 operation on f16 bits (source modifiers applied) under the wave's MODE: inputs flushed as the
// f16/f64 field says, rounded in the f16 round mode, the result flushed; output modifiers are the caller's.
// K: 0 add, 1 sub, 3 mul, 4 fma(a, b, c).
template <int K>
uint16_t f16_in_mode(const Wave& w, uint16_t ha, uint16_t hb, uint16_t hc) {
  const bool fi = w.flush_in_f16_64;
  float a = f16_to_f32(flush16(ha, fi)), b = f16_to_f32(flush16(hb, fi));
  if (K == 1 && !std::isnan(b)) b = -b;  // a NaN subtrahend keeps its sign, as a host a - b does
  float c = K == 4 ? f16_to_f32(flush16(hc, fi)) : K == 3 ? -0.0f : b;
  float m = K <= 1 ? 1.0f : b;
  double x = fma_f32_round_odd(a, m, c);  // a*1 + b, a*b + (-0) or a*b + c
  if (K != 3) x = zero_sum_sign(x, double(a) * double(m), double(c), w.round_f16_64);
  return flush16(round_to_f16(x, w.round_f16_64), w.flush_out_f16_64);
}

inline uint64_t flush64(uint64_t u, bool on) { return on && (u & 0x7ff0000000000000ull) == 0 ? (u & (1ull << 63)) : u; }

inline uint64_t src64(Wave& w, const Op& op, int i, int lane) {
  uint64_t u = uint64_t(lane_src(w, op.s[i], lane)) | uint64_t(lane_src(w, op.s[i], lane, 1)) << 32;
  if (op.s[i].abs) u &= ~(1ull << 63);
  if (op.s[i].neg) u ^= 1ull << 63;
  return flush64(u, w.flush_in_f16_64);
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

}  // namespace mode_round
}  // namespace cdnajit::sim
