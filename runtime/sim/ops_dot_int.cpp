// Integer dot products not defined in ops_valu.cpp: the VOP2 accumulate forms
// v_dot2c_i32_i16, v_dot4c_i32_i8, v_dot8c_i32_i4 (D = D + dot(S0, S1)) and the
// VOP3P v_dot8_i32_i4 / v_dot8_u32_u4 / v_dot4_i32_i8 / v_dot2_i32_i16 (D = S2 + dot(S0, S1)); plus the gfx950
// v_minimum3_f32 / v_maximum3_f32 (IEEE 754-2019 minimum/maximum: NaN in, NaN out,
// -0 below +0) and v_prng_b32. Semantics from AMD's CDNA3/CDNA4 ISA references
// ("VOP2"/"VOP3P" instruction descriptions); integer sums wrap modulo 2^32 (the
// clamp forms saturate and are refused, as are non-default op_sel/neg modifiers).
#include <cmath>
#include <cstdint>
#include <limits>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/lane_op.hpp"

namespace cdnajit::sim {
namespace {

// Sum of the products of the `n` `bits`-wide lanes of x and y, signed or not.
template <int bits, bool sgn>
int64_t dot(uint32_t x, uint32_t y) {
  constexpr int n = 32 / bits;
  constexpr uint32_t mask = (1u << bits) - 1;
  int64_t s = 0;
  for (int i = 0; i < n; ++i) {
    int64_t a = (x >> (bits * i)) & mask, b = (y >> (bits * i)) & mask;
    if (sgn) {
      a = a >= (1 << (bits - 1)) ? a - (1 << bits) : a;
      b = b >= (1 << (bits - 1)) ? b - (1 << bits) : b;
    }
    s += a * b;
  }
  return s;
}

void refuse_packed_modifiers(Wave& w, const Op& op) {
  if (op.op_sel || op.op_sel_hi != 7 || op.neg_lo || op.neg_hi)
    fail(w, op, "op_sel/op_sel_hi/neg_lo/neg_hi on an integer dot product are not modelled");
}

template <int bits, bool sgn>
void dot_accumulate(Wave& w, const Op& op) {  // VOP2 "c" forms: the destination is the addend
  const uint32_t* acc = w.vr(op.d[0].idx);
  lane_op(w, op, 1, 1, 0, [acc](int l, uint64_t a, uint64_t b, uint64_t) -> uint64_t {
    return uint32_t(int64_t(int32_t(acc[l])) + dot<bits, sgn>(uint32_t(a), uint32_t(b)));
  });
}

template <int bits, bool sgn>
void dot_vop3p(Wave& w, const Op& op) {
  refuse_packed_modifiers(w, op);
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    return uint32_t(int64_t(int32_t(uint32_t(c))) + dot<bits, sgn>(uint32_t(a), uint32_t(b)));
  });
}

float ieee_min(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
float ieee_max(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// Inputs and the result follow MODE's f32 denormal field like every f32 VALU operation (this handler
// reads its lanes directly, so it applies the field itself).
template <bool is_max>
void minmax3(Wave& w, const Op& op) {
  const bool fi = w.flush_in_f32, fo = w.flush_out_f32;
  lane_op(w, op, 1, 1, 0x80000000u, [fi, fo](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    auto in = [fi](uint64_t u) { return as_f(fi ? flush_denorm32(uint32_t(u)) : uint32_t(u)); };
    float x = in(a), y = in(b), z = in(c);
    const uint32_t r = as_u(is_max ? ieee_max(ieee_max(x, y), z) : ieee_min(ieee_min(x, y), z));
    return fo ? flush_denorm32(r) : r;
  });
}

// v_prng_b32 (CDNA4 ISA, "V_PRNG_B32"): one step of a 32-bit Galois LFSR,
// D = {S0[30:0], 0} ^ (S0[31] ? 197 : 0).
void prng(Wave& w, const Op& op) {  // a 32-bit pattern: no value outside the b32 range for clamp to change
  lane_op_mods(w, op, OutMods::IntInRange, 1, 1, 0, [](int, uint64_t a, uint64_t, uint64_t) -> uint64_t {
    uint32_t x = uint32_t(a);
    return (x << 1) ^ ((x >> 31) ? 197u : 0u);
  });
}

}  // namespace

void register_dot_int(Registry& r) {
  auto add = [&](O n, Handler h, FType ft = FType::Int) {
    if (!r.has(n)) r.add(n, h, ft);
  };
  add(O::v_dot2c_i32_i16, &dot_accumulate<16, true>);
  add(O::v_dot4c_i32_i8, &dot_accumulate<8, true>);
  add(O::v_dot8c_i32_i4, &dot_accumulate<4, true>);
  add(O::v_dot8_i32_i4, &dot_vop3p<4, true>);
  add(O::v_dot8_u32_u4, &dot_vop3p<4, false>);
  add(O::v_dot4_i32_i8, &dot_vop3p<8, true>);
  add(O::v_dot2_i32_i16, &dot_vop3p<16, true>);
  add(O::v_minimum3_f32, &minmax3<false>, FType::F32);
  add(O::v_maximum3_f32, &minmax3<true>, FType::F32);
  add(O::v_prng_b32, &prng);
}

}  // namespace cdnajit::sim
