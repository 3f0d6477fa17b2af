// The VOPC compares ops_valu.cpp does not define: every condition on every
// type of gfx9 (f16/f32/f64: f lt eq le gt lg ge o u nge nlg ngt nle neq nlt tru;
// i16/u16/i32/u32/i64/u64: f lt eq le gt ne ge t; class on f16/f64), each in the
// v_cmp (writes VCC or an SGPR pair) and v_cmpx (also writes EXEC) form.
// Conditions as in AMD's CDNA3 ISA reference, "VOPC instructions": the n* forms
// are the negations (true on unordered), lg is ordered-not-equal, o/u ordered /
// unordered, f/tru constant. Inactive lanes compare as 0.
#include <bit>
#include <cmath>
#include <string>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

enum class T : uint8_t { F16, F32, F64, I16, U16, I32, U32, I64, U64 };
enum class C : uint8_t { F, Lt, Eq, Le, Gt, Lg, Ge, O, U, Nge, Nlg, Ngt, Nle, Neq, Nlt, Tru, Ne, Class };

constexpr bool is_float(T t) { return t == T::F16 || t == T::F32 || t == T::F64; }
constexpr bool is_wide(T t) { return t == T::F64 || t == T::I64 || t == T::U64; }

// Raw bits of source i in lane l (64-bit types read a register pair), with the
// float neg/abs source modifiers applied to the sign bit (not to the integer
// class mask). The f32 denormal flush applies to compares, not to v_cmp_class,
// which classifies the value as given (as ops_valu.cpp's v_cmp_class_f32 does).
template <T t, bool is_float_value, bool flush>
uint64_t operand_bits(Wave& w, const Op& op, int i, int l) {
  const Src& s = op.s[i];
  uint64_t v = lane_src(w, s, l);
  if (is_wide(t) && is_float_value && (s.n > 1 || s.k == SrcKind::Const)) v |= uint64_t(lane_src(w, s, l, 1)) << 32;
  if constexpr (is_float(t) && is_float_value) {
    const uint64_t sign = t == T::F16 ? 0x8000u : t == T::F32 ? 0x80000000u : 1ull << 63;
    if (s.abs) v &= ~sign;
    if (s.neg) v ^= sign;
  }
  if (t == T::F32 && flush && w.flush_in_f32) v = flush_denorm32(uint32_t(v));
  return v;
}

template <T t>
double as_double(uint64_t v) {
  if constexpr (t == T::F16) return double(f16_to_f32(uint16_t(v)));
  else if constexpr (t == T::F32) return double(as_f(uint32_t(v)));
  else return as_d(v);
}

// v_cmp_class: bit of the class mask that describes x (0 sNaN, 1 qNaN, 2 -inf,
// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf).
template <T t>
int class_bit(uint64_t v) {
  constexpr int exp_bits = t == T::F16 ? 5 : t == T::F32 ? 8 : 11;
  constexpr int man_bits = t == T::F16 ? 10 : t == T::F32 ? 23 : 52;
  const bool neg = (v >> (exp_bits + man_bits)) & 1;
  const uint64_t e = (v >> man_bits) & ((1ull << exp_bits) - 1), m = v & ((1ull << man_bits) - 1);
  if (e == (1ull << exp_bits) - 1) {
    if (m == 0) return neg ? 2 : 9;
    return ((m >> (man_bits - 1)) & 1) ? 1 : 0;
  }
  if (e == 0) return m == 0 ? (neg ? 5 : 6) : (neg ? 4 : 7);
  return neg ? 3 : 8;
}

template <T t, C c>
bool compare(uint64_t a, uint64_t b) {
  if constexpr (c == C::F) return false;
  else if constexpr (c == C::Tru) return true;
  else if constexpr (c == C::Class) return (b >> class_bit<t>(a)) & 1;
  else if constexpr (is_float(t)) {
    const double x = as_double<t>(a), y = as_double<t>(b);
    switch (c) {
      case C::Lt: return x < y;
      case C::Eq: return x == y;
      case C::Le: return x <= y;
      case C::Gt: return x > y;
      case C::Lg: return x < y || x > y;
      case C::Ge: return x >= y;
      case C::O: return !std::isnan(x) && !std::isnan(y);
      case C::U: return std::isnan(x) || std::isnan(y);
      case C::Nge: return !(x >= y);
      case C::Nlg: return !(x < y || x > y);
      case C::Ngt: return !(x > y);
      case C::Nle: return !(x <= y);
      case C::Neq: return !(x == y);
      case C::Nlt: return !(x < y);
      default: return false;
    }
  } else {
    constexpr int bits = t == T::I16 || t == T::U16 ? 16 : t == T::I32 || t == T::U32 ? 32 : 64;
    constexpr bool sgn = t == T::I16 || t == T::I32 || t == T::I64;
    const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    a &= mask;
    b &= mask;
    auto sx = [&](uint64_t v) { return bits == 64 ? int64_t(v) : int64_t(v << (64 - bits)) >> (64 - bits); };
    const bool lt = sgn ? sx(a) < sx(b) : a < b, eq = a == b;
    switch (c) {
      case C::Lt: return lt;
      case C::Eq: return eq;
      case C::Le: return lt || eq;
      case C::Gt: return !lt && !eq;
      case C::Ne: return !eq;
      case C::Ge: return !lt;
      default: return false;
    }
  }
}

template <T t, C c, bool X>
void vcmp_ext(Wave& w, const Op& op) {
  const uint64_t e = w.exec();
  uint64_t m = 0;
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1)
      m |= uint64_t(compare<t, c>(operand_bits<t, true, c != C::Class>(w, op, 0, l), operand_bits<t, c != C::Class, c != C::Class>(w, op, 1, l))) << l;
  w.lane_ops += uint64_t(std::popcount(e));
  if (op.nd) write_s64(w, op.d[0], m);
  if (X) w.set_exec(m);
}

template <T t, C c>
void add_pair(Registry& r, O cmp, O cmpx, FType ft) {
  if (!r.has(cmp)) r.add(cmp, &vcmp_ext<t, c, false>, ft);
  if (!r.has(cmpx)) r.add(cmpx, &vcmp_ext<t, c, true>, ft);
}

}  // namespace

// Every condition of a type, v_cmp and v_cmpx: the enumerators are pasted from the condition and
// type names, so the compiler checks each against the table.
#define CDNAJIT_SIM_VCMP_FLOAT(t, type, ft) \
  add_pair<t, C::F>(r, O::v_cmp_f_##type, O::v_cmpx_f_##type, ft); \
  add_pair<t, C::Lt>(r, O::v_cmp_lt_##type, O::v_cmpx_lt_##type, ft); \
  add_pair<t, C::Eq>(r, O::v_cmp_eq_##type, O::v_cmpx_eq_##type, ft); \
  add_pair<t, C::Le>(r, O::v_cmp_le_##type, O::v_cmpx_le_##type, ft); \
  add_pair<t, C::Gt>(r, O::v_cmp_gt_##type, O::v_cmpx_gt_##type, ft); \
  add_pair<t, C::Lg>(r, O::v_cmp_lg_##type, O::v_cmpx_lg_##type, ft); \
  add_pair<t, C::Ge>(r, O::v_cmp_ge_##type, O::v_cmpx_ge_##type, ft); \
  add_pair<t, C::O>(r, O::v_cmp_o_##type, O::v_cmpx_o_##type, ft); \
  add_pair<t, C::U>(r, O::v_cmp_u_##type, O::v_cmpx_u_##type, ft); \
  add_pair<t, C::Nge>(r, O::v_cmp_nge_##type, O::v_cmpx_nge_##type, ft); \
  add_pair<t, C::Nlg>(r, O::v_cmp_nlg_##type, O::v_cmpx_nlg_##type, ft); \
  add_pair<t, C::Ngt>(r, O::v_cmp_ngt_##type, O::v_cmpx_ngt_##type, ft); \
  add_pair<t, C::Nle>(r, O::v_cmp_nle_##type, O::v_cmpx_nle_##type, ft); \
  add_pair<t, C::Neq>(r, O::v_cmp_neq_##type, O::v_cmpx_neq_##type, ft); \
  add_pair<t, C::Nlt>(r, O::v_cmp_nlt_##type, O::v_cmpx_nlt_##type, ft); \
  add_pair<t, C::Tru>(r, O::v_cmp_tru_##type, O::v_cmpx_tru_##type, ft); \
  add_pair<t, C::Class>(r, O::v_cmp_class_##type, O::v_cmpx_class_##type, ft);
#define CDNAJIT_SIM_VCMP_INT(t, type) \
  add_pair<t, C::F>(r, O::v_cmp_f_##type, O::v_cmpx_f_##type, FType::Int); \
  add_pair<t, C::Lt>(r, O::v_cmp_lt_##type, O::v_cmpx_lt_##type, FType::Int); \
  add_pair<t, C::Eq>(r, O::v_cmp_eq_##type, O::v_cmpx_eq_##type, FType::Int); \
  add_pair<t, C::Le>(r, O::v_cmp_le_##type, O::v_cmpx_le_##type, FType::Int); \
  add_pair<t, C::Gt>(r, O::v_cmp_gt_##type, O::v_cmpx_gt_##type, FType::Int); \
  add_pair<t, C::Ne>(r, O::v_cmp_ne_##type, O::v_cmpx_ne_##type, FType::Int); \
  add_pair<t, C::Ge>(r, O::v_cmp_ge_##type, O::v_cmpx_ge_##type, FType::Int); \
  add_pair<t, C::Tru>(r, O::v_cmp_t_##type, O::v_cmpx_t_##type, FType::Int);

void register_vcmp_ext(Registry& r) {
  CDNAJIT_SIM_VCMP_FLOAT(T::F16, f16, FType::F16);
  CDNAJIT_SIM_VCMP_FLOAT(T::F32, f32, FType::F32);
  CDNAJIT_SIM_VCMP_FLOAT(T::F64, f64, FType::F64);
  CDNAJIT_SIM_VCMP_INT(T::I16, i16);
  CDNAJIT_SIM_VCMP_INT(T::U16, u16);
  CDNAJIT_SIM_VCMP_INT(T::I32, i32);
  CDNAJIT_SIM_VCMP_INT(T::U32, u32);
  CDNAJIT_SIM_VCMP_INT(T::I64, i64);
  CDNAJIT_SIM_VCMP_INT(T::U64, u64);
}
#undef CDNAJIT_SIM_VCMP_FLOAT
#undef CDNAJIT_SIM_VCMP_INT

}  // namespace cdnajit::sim
