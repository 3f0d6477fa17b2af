// VALU integer instructions on bytes and halfwords not defined in ops_valu.cpp:
// 16-bit three-operand min/max/median, v_add_i16 / v_sub_i16 / v_mad_i16, the
// sum-of-absolute-differences family (v_sad_u8, v_sad_hi_u8, v_sad_u16, v_msad_u8,
// v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8, v_mqsad_u32_u8), v_lerp_u8, the saturating
// packs v_cvt_pk_i16_i32 / v_sat_pk_u8_i16 / gfx950 v_ashr_pk_{i8,u8}_i32, v_cvt_off_f32_i4, plus v_swap_b32 and v_clrexcp.
// Semantics from the per-opcode pseudo-code of AMD's CDNA3 ISA reference ("VOP3A"
// and "VOP1" opcode tables). 16-bit results go to D[15:0] with D[31:16] = 0, the
// behaviour the rest of the simulator uses for gfx9 16-bit VALU ops (ops_valu.cpp);
// op_sel, clamp and output modifiers are refused rather than half-modelled.
#include <algorithm>
#include <cstdint>

#include "runtime/sim/lane_op.hpp"

namespace cdnajit::sim {
namespace {

void refuse_op_sel(Wave& w, const Op& op) {
  if (op.op_sel) fail(w, op, "op_sel on a 16-bit integer VALU op is not modelled");
}

template <class T>
T med3(T a, T b, T c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

// kind 0 min3, 1 max3, 2 med3 on i16 (sgn) or u16.
template <int kind, bool sgn>
void minmax16(Wave& w, const Op& op) {
  refuse_op_sel(w, op);
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    int32_t x = sgn ? int16_t(a) : uint16_t(a), y = sgn ? int16_t(b) : uint16_t(b), z = sgn ? int16_t(c) : uint16_t(c);
    int32_t r = kind == 0 ? std::min({x, y, z}) : kind == 1 ? std::max({x, y, z}) : med3(x, y, z);
    return uint32_t(r) & 0xffff;
  });
}

// kind 0 add, 1 sub, 2 mad (S0 * S1 + S2): the low 16 bits (signedness does not change them).
template <int kind>
void arith16(Wave& w, const Op& op) {
  refuse_op_sel(w, op);
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    uint32_t r = kind == 0 ? uint32_t(a + b) : kind == 1 ? uint32_t(a - b) : uint32_t(a * b + c);
    return r & 0xffff;
  });
}

uint32_t absdiff(uint32_t x, uint32_t y) { return x > y ? x - y : y - x; }
// Sum over the four bytes of |a.byte - b.byte|; masked: bytes where b's byte is 0 are skipped.
uint32_t sad_bytes(uint32_t a, uint32_t b, bool masked) {
  uint32_t s = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
    if (!(masked && y == 0)) s += absdiff(x, y);
  }
  return s;
}

void sad_u8(Wave& w, const Op& op) {
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    return uint32_t(sad_bytes(uint32_t(a), uint32_t(b), false) + uint32_t(c));
  });
}
void sad_hi_u8(Wave& w, const Op& op) {
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    return uint32_t((sad_bytes(uint32_t(a), uint32_t(b), false) << 16) + uint32_t(c));
  });
}
void msad_u8(Wave& w, const Op& op) {
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    return uint32_t(sad_bytes(uint32_t(a), uint32_t(b), true) + uint32_t(c));
  });
}
void sad_u16(Wave& w, const Op& op) {
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    return uint32_t(absdiff(a & 0xffff, b & 0xffff) + absdiff((a >> 16) & 0xffff, (b >> 16) & 0xffff) + uint32_t(c));
  });
}

// v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8 D[63:0], S0[63:0], S1[31:0], S2[63:0]: for k = 0..3,
// D[16k+15:16k] = (S)AD of the four bytes S0[8k+31:8k] against S1, plus S2[16k+15:16k] (16-bit sum).
template <bool masked>
void qsad_pk(Wave& w, const Op& op) {
  lane_op(w, op, 2, 2, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    uint64_t r = 0;
    for (int k = 0; k < 4; ++k) {
      uint32_t s = sad_bytes(uint32_t(a >> (8 * k)), uint32_t(b), masked) + uint32_t((c >> (16 * k)) & 0xffff);
      r |= uint64_t(s & 0xffff) << (16 * k);
    }
    return r;
  });
}

// v_mqsad_u32_u8 D[127:0], S0[63:0], S1[31:0], S2[127:0]: four 32-bit masked SADs,
// D[32k+31:32k] = MSAD(S0[8k+31:8k], S1) + S2[32k+31:32k].
void mqsad_u32(Wave& w, const Op& op) {
  if (op.clamp || op.omod || op.sdwa) fail(w, op, "clamp, output modifiers and SDWA are not modelled for this instruction");
  if (op.d[0].k != SrcKind::V) fail(w, op, "VALU destination must be a VGPR");
  const uint64_t e = w.exec();
  uint32_t out[4][64];
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a = lane_operand(w, op, 0, l, 2, 0);
    uint32_t b = uint32_t(lane_operand(w, op, 1, l, 1, 0));
    for (int k = 0; k < 4; ++k)
      out[k][l] = sad_bytes(uint32_t(a >> (8 * k)), b, true) + lane_src(w, op.s[2], l, op.s[2].n > 1 ? k : 0);
  }
  for (int k = 0; k < 4; ++k) {
    uint32_t* d = w.vr(uint16_t(op.d[0].idx + k));
    for (int l = 0; l < 64; ++l)
      if ((e >> l) & 1) d[l] = out[k][l];
  }
  w.lane_ops += uint64_t(std::popcount(e));
}

// v_lerp_u8: per byte, (S0.byte + S1.byte + S2.byte[0]) >> 1 (unsigned average, rounding from S2).
void lerp_u8(Wave& w, const Op& op) {
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff, round = (c >> (8 * i)) & 1;
      r |= ((x + y + round) >> 1) << (8 * i);
    }
    return r;
  });
}

// v_cvt_pk_i16_i32: D = {sat_i16(S1), sat_i16(S0)}.
void cvt_pk_i16_i32(Wave& w, const Op& op) {
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t) -> uint64_t {
    auto sat = [](uint64_t x) { return uint32_t(std::clamp<int32_t>(int32_t(uint32_t(x)), -32768, 32767)) & 0xffff; };
    return sat(a) | sat(b) << 16;
  });
}
// gfx950 v_ashr_pk_i8_i32 / v_ashr_pk_u8_i32: D[7:0] = sat(S0.i32 >> S2[4:0]), D[15:8] = sat(S1.i32 >>
// S2[4:0]), saturated to [-128, 127] / [0, 255] (CDNA4 ISA guide); D[31:16] = 0: LLVM 22 stores the
// result as a zero-extended dword without masking (clang -O3 for gfx950 on a clamp-and-pack of two
// shifted ints selects v_ashr_pk_u8_i32 and stores it with global_store_dword), so it treats the high
// half as zero. op_sel (writing the high half) is refused.
template <bool UNSIGNED>
void ashr_pk_8_i32(Wave& w, const Op& op) {
  refuse_op_sel(w, op);
  lane_op(w, op, 1, 1, 0, [](int, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
    const int sh = int(c & 31);
    auto sat = [](int32_t x) { return uint32_t(std::clamp<int32_t>(x, UNSIGNED ? 0 : -128, UNSIGNED ? 255 : 127)) & 0xff; };
    return sat(int32_t(uint32_t(a)) >> sh) | sat(int32_t(uint32_t(b)) >> sh) << 8;
  });
}
// v_sat_pk_u8_i16: D[15:0] = {sat_u8(S0.i16[1]), sat_u8(S0.i16[0])}.
void sat_pk_u8_i16(Wave& w, const Op& op) {  // already saturated: clamp changes nothing
  lane_op_mods(w, op, OutMods::IntInRange, 1, 1, 0, [](int, uint64_t a, uint64_t, uint64_t) -> uint64_t {
    auto sat = [](uint64_t h) { return uint32_t(std::clamp<int32_t>(int16_t(uint16_t(h)), 0, 255)); };
    return sat(a) | sat(a >> 16) << 8;
  });
}

// v_swap_b32 vdst, vsrc: exchange the two VGPRs in every active lane (both are defs in the table).
void swap_b32(Wave& w, const Op& op) {
  const Src& other = op.nd > 1 ? op.d[1] : op.s[0];
  if (op.d[0].k != SrcKind::V || other.k != SrcKind::V) fail(w, op, std::string(op.info->mnemonic) + " exchanges two VGPRs");
  const uint64_t e = w.exec();
  uint32_t *x = w.vr(op.d[0].idx), *y = w.vr(other.idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) std::swap(x[l], y[l]);
  w.lane_ops += uint64_t(std::popcount(e));
}

// v_cvt_off_f32_i4: the signed 4-bit value S0[3:0] as a float offset, sext(S0[3:0]) / 16
// (the reference's table: 0x8 -> -0.5, 0xf -> -0.0625, 0x7 -> 0.4375).
// The source is an integer: it is never flushed as an f32 denormal (ops_valu.cpp's float path did).
void cvt_off_f32_i4(Wave& w, const Op& op) {
  lane_op_mods(w, op, OutMods::F32, 1, 1, 0, [](int, uint64_t a, uint64_t, uint64_t) -> uint64_t {
    int v = int(a & 15) - ((a & 8) ? 16 : 0);
    return as_u(float(v) / 16.0f);
  });
}

}  // namespace

void register_valu_bytes(Registry& r) {
  auto add = [&](O n, Handler h) {
    if (!r.has(n)) r.add(n, h);
  };
  add(O::v_min3_i16, &minmax16<0, true>);
  add(O::v_min3_u16, &minmax16<0, false>);
  add(O::v_max3_i16, &minmax16<1, true>);
  add(O::v_max3_u16, &minmax16<1, false>);
  add(O::v_med3_i16, &minmax16<2, true>);
  add(O::v_med3_u16, &minmax16<2, false>);
  add(O::v_add_i16, &arith16<0>);
  add(O::v_sub_i16, &arith16<1>);
  add(O::v_mad_i16, &arith16<2>);
  add(O::v_sad_u8, &sad_u8);
  add(O::v_sad_hi_u8, &sad_hi_u8);
  add(O::v_sad_u16, &sad_u16);
  add(O::v_msad_u8, &msad_u8);
  add(O::v_qsad_pk_u16_u8, &qsad_pk<false>);
  add(O::v_mqsad_pk_u16_u8, &qsad_pk<true>);
  add(O::v_mqsad_u32_u8, &mqsad_u32);
  add(O::v_lerp_u8, &lerp_u8);
  add(O::v_cvt_pk_i16_i32, &cvt_pk_i16_i32);
  add(O::v_sat_pk_u8_i16, &sat_pk_u8_i16);
  add(O::v_ashr_pk_i8_i32, &ashr_pk_8_i32<false>);
  add(O::v_ashr_pk_u8_i32, &ashr_pk_8_i32<true>);
  add(O::v_swap_b32, &swap_b32);
  add(O::v_cvt_off_f32_i4, &cvt_off_f32_i4);
  // Clears the wave's floating-point exception status, which the model does not keep.
  add(O::v_clrexcp, +[](Wave&, const Op&) {});
}

}  // namespace cdnajit::sim
