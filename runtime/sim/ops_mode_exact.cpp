// MODE handling of the float instructions whose results involve no rounding: comparisons,
// min/max/med3 (and the IEEE 754-2019 minimum3/maximum3), the integral roundings ceil/floor/trunc/rndne,
// frexp mantissa/exponent, v_trig_preop_f64, the cube-map helpers id/sc/tc, and conversions whose
// result is exact. A directed round mode cannot change their results; only the denormal field of
// their operand type can, so one adapter runs the default handler on copies of the sources flushed as
// the MODE's input-flush field says (f16 halves and f64 register pairs by the f16/f64 field, f32 by the
// f32 field) and flushes a float result as the output-flush field says. Integer and boolean results
// (compare masks in VCC/SGPRs/EXEC, frexp_exp) are not flushed. Register with set_moded; the ones
// whose results depend on no MODE field at all are set_mode_free.
//
// Evidence that these instructions flush denormals per MODE like any other VALU float operation:
// LLVM's AMDGPU backend implements llvm.canonicalize as v_max_f16/f32/f64 with both sources the same
// register (SIInstructions.td, the fcanonicalize patterns; checked by llvm/test/CodeGen/AMDGPU/fcanonicalize.f16.ll,
// whose gfx9 checks expect v_max_f16 with one register as both sources), which is only a
// canonicalisation because max flushes denormals (and quietens NaNs) as MODE says. The compares
// follow the simulator's f32 compares (ops_vcmp_ext.cpp operand_bits): inputs flushed per the field.
// v_cmp_class classifies its input as given, as the simulator's v_cmp_class_f32 already does; that
// choice is kept for f16/f64 (runtime/sim/README.md, MODE) so the three types agree.
#include <cstring>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/mode_round.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

enum class Out : uint8_t { None, F16, F32, F64, PackedF16 };

// The default handler of op's instruction (op.fn is dpp_exec / sdwa_direct_exec for those forms,
// or this adapter under sdwa_run_selected).
Handler default_handler(const Wave& w, const Op& op) {
  if (!op.info) fail(w, op, "internal: a MODE adapter reached an instruction without an ISA-table row");
  const Handler h = registry().by_opcode[size_t(isa::opcode_of(*op.info))].fn;
  if (!h) fail(w, op, "internal: no default handler for a MODE adapter");
  return h;
}

uint32_t flush_f16_halves(uint32_t u, bool on) {
  return uint32_t(flush16(uint16_t(u), on)) | uint32_t(flush16(uint16_t(u >> 16), on)) << 16;
}

// Copies source i into scratch rows with its denormals flushed per the input field of its type (the
// source's table type: op.s[i].sign 15 f16, 31 f32, 63 f64; `packed_f16`: every source is two f16).
// Flushing commutes with neg/abs, which stay on the copy for the handler to apply.
void flush_source(Wave& w, const Op& op, Op& x, int i, bool packed_f16) {
  const Src& s = op.s[i];
  const int sign = packed_f16 ? 15 : s.sign;
  const bool on = sign == 31 ? w.flush_in_f32 : (sign == 15 || sign == 63) && w.flush_in_f16_64;
  if (!on || s.k == SrcKind::None) return;
  const int rows = sign == 63 ? 2 : 1;
  uint32_t* lo = w.vr(uint16_t(kExactScratch + 2 * i));
  uint32_t* hi = w.vr(uint16_t(kExactScratch + 2 * i + 1));
  for (int l = 0; l < 64; ++l) {
    if (rows == 2) {
      const uint64_t u = flush64(uint64_t(lane_src(w, s, l)) | uint64_t(lane_src(w, s, l, 1)) << 32, true);
      lo[l] = uint32_t(u);
      hi[l] = uint32_t(u >> 32);
    } else {
      const uint32_t u = lane_src(w, s, l);
      lo[l] = sign == 31 ? flush_denorm32(u) : flush_f16_halves(u, true);
    }
  }
  x.s[i].k = SrcKind::V;
  x.s[i].idx = uint16_t(kExactScratch + 2 * i);
  x.s[i].n = uint8_t(rows);
}

// Flushes the float result the handler wrote to x.d[0] in the active lanes, per the output field.
void flush_result(Wave& w, const Op& x, Out out) {
  const Src& d = x.d[0];
  if (out == Out::None || x.nd == 0 || d.k != SrcKind::V) return;
  const bool on = out == Out::F32 ? w.flush_out_f32 : w.flush_out_f16_64;
  if (!on) return;
  const uint64_t e = w.exec();
  uint32_t* r = w.vr(d.idx);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    switch (out) {
      case Out::F32: r[l] = flush_denorm32(r[l]); break;
      case Out::PackedF16: r[l] = flush_f16_halves(r[l], true); break;
      case Out::F16: {  // the half VOP3 op_sel[3] names (the low half otherwise)
        const int sh = (x.op_sel & 8) ? 16 : 0;
        const uint16_t h = flush16(uint16_t(r[l] >> sh), true);
        r[l] = (r[l] & ~(0xffffu << sh)) | uint32_t(h) << sh;
        break;
      }
      case Out::F64: {
        uint32_t* r1 = w.vr(uint16_t(d.idx + 1));
        const uint64_t u = flush64(uint64_t(r[l]) | uint64_t(r1[l]) << 32, true);
        r[l] = uint32_t(u);
        r1[l] = uint32_t(u >> 32);
        break;
      }
      default: break;
    }
  }
}

template <Out out, bool packed_f16 = false>
void exact_in_mode(Wave& w, const Op& op) {
  Op x = op;
  x.fn = default_handler(w, op);
  for (int i = 0; i < op.ns && i < 3; ++i) flush_source(w, op, x, i, packed_f16);
  x.fn(w, x);
  flush_result(w, x, out);
}

// v_cvt_f64_f32: every f32 value is a normal f64, so only an f32 denormal input depends on MODE, and
// which denormal field flushes it is not published (runtime/sim/README.md, Known gaps). It is known
// while the f32 and f16/f64 input-flush settings agree; otherwise such an input is an Error.
void cvt_f64_f32_in_mode(Wave& w, const Op& op) {
  if (w.flush_in_f32 != w.flush_in_f16_64) {
    const uint64_t e = w.exec();
    for (int l = 0; l < 64; ++l) {
      const uint32_t u = lane_src(w, op.s[0], l);
      if (((e >> l) & 1) && (u & 0x7f800000u) == 0 && (u & 0x007fffffu) != 0)
        fail(w, op, "an f32 denormal input under a MODE whose f32 and f16/f64 denormal fields disagree on flushing "
                    "inputs: which field governs v_cvt_f64_f32's input is not published", l);
    }
  }
  exact_in_mode<Out::None>(w, op);  // the f32 source is flushed by the f32 field (equal to the other here)
}

}  // namespace

void register_mode_exact(Registry& r) {
  // The f32 compares of ops_valu.cpp have their own MODE handling already; only rows without one
  // get the adapter (its f32 input flush is the same rule, ops_vcmp_ext.cpp operand_bits).
  auto adapt = [&](O op) {
    if (!r.moded[size_t(op)] && !r.mode_free.test(size_t(op))) r.set_moded(op, &exact_in_mode<Out::None>);
  };
#define CDNAJIT_SIM_CMP_MODE(type)                                                                          \
  for (O op : {O::v_cmp_eq_##type, O::v_cmpx_eq_##type, O::v_cmp_ge_##type, O::v_cmpx_ge_##type, O::v_cmp_gt_##type, O::v_cmpx_gt_##type, O::v_cmp_le_##type, O::v_cmpx_le_##type,     \
               O::v_cmp_lg_##type, O::v_cmpx_lg_##type, O::v_cmp_lt_##type, O::v_cmpx_lt_##type, O::v_cmp_neq_##type, O::v_cmpx_neq_##type, O::v_cmp_nge_##type, O::v_cmpx_nge_##type, O::v_cmp_ngt_##type, O::v_cmpx_ngt_##type,     \
               O::v_cmp_nle_##type, O::v_cmpx_nle_##type, O::v_cmp_nlg_##type, O::v_cmpx_nlg_##type, O::v_cmp_nlt_##type, O::v_cmpx_nlt_##type, O::v_cmp_o_##type, O::v_cmpx_o_##type, O::v_cmp_u_##type, O::v_cmpx_u_##type})    \
    adapt(op);                                                                                              \
  /* Constant results, and class (classifies its input as given, header comment). */                      \
  for (O op : {O::v_cmp_f_##type, O::v_cmpx_f_##type, O::v_cmp_tru_##type, O::v_cmpx_tru_##type,          \
               O::v_cmp_class_##type, O::v_cmpx_class_##type})                                              \
    r.set_mode_free(op);
  CDNAJIT_SIM_CMP_MODE(f16)
  CDNAJIT_SIM_CMP_MODE(f32)
  CDNAJIT_SIM_CMP_MODE(f64)
#undef CDNAJIT_SIM_CMP_MODE
  // Conversions to integers truncate toward zero in every round mode (the guides' pseudo-code: an
  // integer cast of the value) and a denormal truncates to 0 whether flushed or not; int32 -> f64 is exact
  // and never denormal; v_pk_mov_b32 moves dwords.
  for (O n : {O::v_cvt_i32_f64, O::v_cvt_u32_f64, O::v_cvt_i16_f16, O::v_cvt_u16_f16, O::v_cvt_f64_i32, O::v_cvt_f64_u32,
                        O::v_pk_mov_b32})
    r.set_mode_free(n);
  for (O n : {O::v_ceil_f16, O::v_floor_f16, O::v_trunc_f16, O::v_rndne_f16, O::v_max_f16, O::v_min_f16, O::v_max3_f16,
                        O::v_min3_f16, O::v_med3_f16, O::v_frexp_mant_f16})
    r.set_moded(n, &exact_in_mode<Out::F16>);
  for (O n : {O::v_ceil_f64, O::v_floor_f64, O::v_trunc_f64, O::v_rndne_f64, O::v_max_f64, O::v_min_f64, O::v_frexp_mant_f64,
                        O::v_trig_preop_f64})
    r.set_moded(n, &exact_in_mode<Out::F64>);
  // v_cubema_f32 (2 * the major coordinate) can overflow, which a directed round mode changes: not here.
  for (O n : {O::v_minimum3_f32, O::v_maximum3_f32, O::v_frexp_mant_f32, O::v_cubeid_f32, O::v_cubesc_f32, O::v_cubetc_f32})
    r.set_moded(n, &exact_in_mode<Out::F32>);
  for (O n : {O::v_frexp_exp_i16_f16, O::v_frexp_exp_i32_f32, O::v_frexp_exp_i32_f64}) r.set_moded(n, &exact_in_mode<Out::None>);
  for (O n : {O::v_pk_min_f16, O::v_pk_max_f16, O::v_pk_minimum3_f16, O::v_pk_maximum3_f16})
    r.set_moded(n, &exact_in_mode<Out::PackedF16, true>);
  r.set_moded(O::v_cvt_f64_f32, &cvt_f64_f32_in_mode);
}

}  // namespace cdnajit::sim
