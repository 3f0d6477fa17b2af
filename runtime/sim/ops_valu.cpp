// Vector ALU: 32-bit integer and float ops (VOP1/VOP2/VOP3), compares,
// carry ops, lane ops, 64-bit ops, packed (VOP3P) ops and dot2.
#include <algorithm>
#include <bit>
#include <cmath>
#include <type_traits>

#include "runtime/sim/correctly_rounded.hpp"
#include "runtime/sim/fp.hpp"
#include "runtime/sim/dot2.hpp"
#include "runtime/sim/output_modifiers.hpp"
#include "runtime/sim/sdwa.hpp"
#include "runtime/sim/sim_internal.hpp"
#include "runtime/sim/vop3p_operands.hpp"

namespace cdnajit::sim {
namespace {

// Active lanes: most instructions run with full EXEC, so skip the (libgcc) popcount then.
inline uint64_t lanes(uint64_t e) { return e == ~0ull ? 64 : uint64_t(std::popcount(e)); }

// Source i when it is not a VGPR (a constant or a scalar register: one value for every lane),
// with what fetch applies to each lane (SDWA select, neg/abs, input denormal flush) applied once.
uint32_t uniform_source(Wave& w, const Op& op, int i, bool fl) {
  const Src& s = op.s[i];
  const bool flush = fl && w.flush_in_f32 && op.ft == FType::F32;
  const bool sdwa = op.sdwa && i < 2 && op.sdwa_src_sel[i] != 6;
  uint32_t x = lane_src(w, s, 0);
  if (sdwa) x = sdwa_extract(x, op.sdwa_src_sel[i], (op.sdwa_sext >> i) & 1);  // sext(vN): sign-extend the selected byte/word
  const uint32_t sign = uint32_t(src_sign_mask(op, i));
  if (s.abs) x &= ~sign;
  if (s.neg) x = fl || op.ft != FType::Int || s.sign ? x ^ sign : 0u - x;
  return flush ? flush_denorm32(x) : x;
}

// 64 lanes of one 32-bit source, with float neg/abs and input denormal flush applied.
const uint32_t* fetch(Wave& w, const Op& op, int i, uint32_t* tmp, bool fl) {
  const Src& s = op.s[i];
  if (s.k != SrcKind::V) {
    std::fill_n(tmp, 64, uniform_source(w, op, i, fl));
    return tmp;
  }
  bool flush = fl && w.flush_in_f32 && op.ft == FType::F32;
  bool sdwa = op.sdwa && i < 2 && op.sdwa_src_sel[i] != 6;
  if (!s.neg && !s.abs && !flush && !sdwa) return w.vr(s.idx);
  std::memcpy(tmp, w.vr(s.idx), 256);
  if (sdwa) {
    const bool sext = (op.sdwa_sext >> i) & 1;  // sext(vN): sign-extend the selected byte/word
    for (int l = 0; l < 64; ++l) tmp[l] = sdwa_extract(tmp[l], op.sdwa_src_sel[i], sext);
  }
  const uint32_t sign = uint32_t(src_sign_mask(op, i));
  if (s.abs) for (int l = 0; l < 64; ++l) tmp[l] &= ~sign;
  if (s.neg) {
    if (fl || op.ft != FType::Int || s.sign) for (int l = 0; l < 64; ++l) tmp[l] ^= sign;
    else for (int l = 0; l < 64; ++l) tmp[l] = 0u - tmp[l];
  }
  if (flush) for (int l = 0; l < 64; ++l) tmp[l] = flush_denorm32(tmp[l]);
  return tmp;
}

// Write 64 results to the VGPR destination under EXEC (plus output modifiers: output_modifiers.hpp;
// f16_result: the low half of each result is an f16 value they apply to).
void store(Wave& w, const Op& op, uint32_t* r, bool fl, bool f32_result = true, bool f16_result = false) {
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  if (fl && f32_result && op.ft == FType::F32 && (op.omod || op.clamp))
    for (int l = 0; l < 64; ++l) r[l] = out_mods_f32(w, op, r[l]);
  if (f16_result && (op.omod || op.clamp))
    for (int l = 0; l < 64; ++l) r[l] = out_mods_f16(w, op, r[l]);
  // An integer result of a float instruction (v_cvt_i32_f32 ...): always inside its type's range, so
  // clamp changes nothing (runtime/sim/README.md, "Known and assumed"); what an acting omod does to it
  // is not documented: an Error rather than a guess.
  if (fl && !f32_result && !f16_result && omod_acts(w, op, false))
    fail(w, op, "omod on an integer result with MODE.IEEE clear and f32 outputs flushed is not modelled");
  if (fl && f32_result && op.ft == FType::F32 && w.flush_out_f32) for (int l = 0; l < 64; ++l) r[l] = flush_denorm32(r[l]);
  const Src& d = op.d[0];
  if (d.k != SrcKind::V) fail(w, op, "VALU destination must be a VGPR");
  uint32_t* dst = w.vr(d.idx);
  if (op.sdwa && op.sdwa_dst_sel != 6) {
    sdwa_merge_dst(op, e, r, dst);
    return;
  }
  if (e == ~0ull) { std::memcpy(dst, r, 256); return; }
  for (int l = 0; l < 64; ++l) dst[l] = ((e >> l) & 1) ? r[l] : dst[l];
}

// NOT_F32 marks the operands of a float instruction that are not f32 values, so the f32
// denormal flush (FLOAT_DENORM_MODE_32) must not touch them: bit i = source i (an integer
// exponent, an f16/bf16 input, an integer to convert), kNotF32Result = the result (f16/bf16
// bits, an integer exponent). Flushing them would turn e.g. the integer 5 into 0.
constexpr unsigned kNotF32Result = 8;
// kF16Result: the result's low half is an f16 value (clamp/omod apply to it; v_add_f16 ...).
constexpr unsigned kF16Result = 16;
// kNoOutMods: a packed f16/bf16 result of an f32 instruction (v_cvt_pkrtz_f16_f32, v_cvt_pk_bf16_f32):
// whether clamp/omod act on one half or both is not documented, so they are an Error there.
constexpr unsigned kNoOutMods = 32;
template <class F, bool FL, unsigned NOT_F32 = 0>
void v32(Wave& w, const Op& op) {
  alignas(64) uint32_t t0[64], t1[64], t2[64], r[64];
  static const uint32_t zero[64] = {};
  const uint32_t* a = op.ns > 0 ? fetch(w, op, 0, t0, FL && !(NOT_F32 & 1)) : zero;
  const uint32_t* b = op.ns > 1 ? fetch(w, op, 1, t1, FL && !(NOT_F32 & 2)) : zero;
  const uint32_t* c = op.ns > 2 ? fetch(w, op, 2, t2, FL && !(NOT_F32 & 4)) : zero;
  // Plain form: full EXEC, no SDWA, no output modifiers, no output flush: what store() would copy to
  // the destination is written there directly (lane by lane, so a source that is the destination
  // row is read before its lane is written).
  uint32_t* out = r;
  const bool direct = w.exec() == ~0ull && !op.sdwa && !op.omod && !op.clamp && !(FL && w.flush_out_f32) &&
                      op.d[0].k == SrcKind::V;
  if (direct) out = w.vr(op.d[0].idx);
  if constexpr (std::is_invocable_v<F, uint32_t, uint32_t, uint32_t, bool>) {  // min/max: MODE.IEEE decides sNaN results
    const bool ieee = (w.mode & kModeIeee) != 0;
    for (int l = 0; l < 64; ++l) out[l] = F{}(a[l], b[l], c[l], ieee);
  } else {
    for (int l = 0; l < 64; ++l) out[l] = F{}(a[l], b[l], c[l]);
  }
  if (direct) {
    w.lane_ops += 64;
    return;
  }
  if ((NOT_F32 & kNoOutMods) && (op.clamp || op.omod))
    fail(w, op, "clamp/omod on a packed f16/bf16 result are not modelled (the guides do not say whether they act on one half or both)");
  store(w, op, r, FL, !(NOT_F32 & kNotF32Result), (NOT_F32 & kF16Result) != 0);
}

// Fused multiply-add forms over whole arrays (vectorised host FMA).
// ORDER: 0 = fma(s0, s1, s2) (v_fma, v_fmaak: s2 = K, v_fmamk: s1 = K), 1 = fma(s0, s1, dst) (v_fmac).
// The general form: source modifiers, denormal flush, SDWA, output modifiers, EXEC (fetch + store).
template <int ORDER>
[[gnu::noinline]] void vfma_general(Wave& w, const Op& op) {
  alignas(64) uint32_t t0[64], t1[64], t2[64], r[64];
  // A source that is not a VGPR is one value for all lanes: passed as that value (fma64_bcast).
  uint32_t k[3];
  unsigned bcast = 0;
  auto source = [&](int i, uint32_t* tmp) -> const uint32_t* {
    if (op.s[i].k == SrcKind::V) return fetch(w, op, i, tmp, true);
    k[i] = uniform_source(w, op, i, true);
    bcast |= 1u << i;
    return &k[i];
  };
  const uint32_t* a = source(0, t0);
  const uint32_t* b = source(1, t1);
  const uint32_t* c = ORDER == 0 ? source(2, t2) : w.vr(op.d[0].idx);
  // v_fmac's accumulator is an f32 input too: flushed under FLOAT_DENORM_MODE_32's input flush, as
  // the MODE-honouring handler does (ops_rounding.cpp, f32_arith).
  if (ORDER == 1 && w.flush_in_f32) {
    for (int l = 0; l < 64; ++l) t2[l] = flush_denorm32(c[l]);
    c = t2;
  }
  fma64_bcast(a, b, c, r, bcast);
  store(w, op, r, true);
}

// Source `x` of a plain FMA: its VGPR row, or (a constant or an SGPR: one value for all lanes) that
// value in `slot`, marked by `bit` in `bcast`.
[[gnu::always_inline]] inline const uint32_t* fma_source(Wave& w, const Src& x, uint32_t& slot, unsigned bit, unsigned& bcast) {
  if (x.k == SrcKind::V) return w.vr(x.idx);
  // The common kinds here, without lane_src's call (GCC does not inline it into this path).
  slot = x.k == SrcKind::Const ? uint32_t(x.val) : x.k == SrcKind::S ? w.s[x.idx] : lane_src(w, x, 0);
  bcast |= bit;
  return &slot;
}

template <int ORDER>
void vfma(Wave& w, const Op& op) {
  // Plain form (the common one): full EXEC, no modifiers, no denormal flush, no SDWA: the fused
  // results go straight to the destination (what fetch + store do then, without their copies).
  const Src &s0 = op.s[0], &s1 = op.s[1], &s2 = op.s[2];
  auto plain = [](const Src& x) { return !x.neg && !x.abs && x.k != SrcKind::None; };
  if (w.exec() != ~0ull || op.sdwa || op.omod || op.clamp || w.flush_in_f32 || w.flush_out_f32 ||
      op.d[0].k != SrcKind::V || !plain(s0) || !plain(s1) || (ORDER == 0 && !plain(s2))) [[unlikely]]
    return vfma_general<ORDER>(w, op);
  uint32_t* d = w.vr(op.d[0].idx);
  uint32_t k[3];
  unsigned bcast = 0;
  const uint32_t* a = fma_source(w, s0, k[0], 1, bcast);
  const uint32_t* b = fma_source(w, s1, k[1], 2, bcast);
  const uint32_t* c = ORDER == 0 ? fma_source(w, s2, k[2], 4, bcast) : d;
  fma64_bcast(a, b, c, d, bcast);
  w.lane_ops += 64;
}

// Compare: per-lane bit into d[0] (VCC or SGPR pair); v_cmpx also writes EXEC.
template <class F, bool FL, bool X>
void vcmp(Wave& w, const Op& op) {
  alignas(64) uint32_t t0[64], t1[64];
  const uint32_t* a = fetch(w, op, 0, t0, FL);
  const uint32_t* b = fetch(w, op, 1, t1, FL);
  uint64_t e = w.exec(), m = 0;
  for (int l = 0; l < 64; ++l) m |= uint64_t(F{}(a[l], b[l])) << l;
  m &= e;
  w.lane_ops += lanes(e);
  if (op.nd) write_s64(w, op.d[0], m);
  if (X) w.set_exec(m);
}

template <class F, bool X>
void vcmp64(Wave& w, const Op& op) {
  uint64_t e = w.exec(), m = 0;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a = uint64_t(lane_src(w, op.s[0], l)) | uint64_t(op.s[0].n > 1 || op.s[0].k == SrcKind::Const ? lane_src(w, op.s[0], l, 1) : 0) << 32;
    uint64_t b = uint64_t(lane_src(w, op.s[1], l)) | uint64_t(op.s[1].n > 1 || op.s[1].k == SrcKind::Const ? lane_src(w, op.s[1], l, 1) : 0) << 32;
    if (op.ft == FType::F64) {
      if (op.s[0].abs) a &= ~src_sign_mask(op, 0);
      if (op.s[0].neg) a ^= src_sign_mask(op, 0);
      if (op.s[1].abs) b &= ~src_sign_mask(op, 1);
      if (op.s[1].neg) b ^= src_sign_mask(op, 1);
    }
    m |= uint64_t(F{}(a, b)) << l;
  }
  w.lane_ops += lanes(e);
  if (op.nd) write_s64(w, op.d[0], m);
  if (X) w.set_exec(m);
}

// Lanes of a (possibly 64-bit) source as two dword arrays.
void fetch_pair(Wave& w, const Src& s, bool is64, uint32_t* tlo, uint32_t* thi, const uint32_t*& lo, const uint32_t*& hi) {
  if (s.k == SrcKind::V) {
    lo = w.vr(s.idx);
    if (is64) hi = w.vr(uint16_t(s.idx + 1));
    else { std::memset(thi, 0, 256); hi = thi; }
    return;
  }
  uint64_t v = s.k == SrcKind::Const ? (is64 ? s.val : uint64_t(uint32_t(s.val))) : (is64 ? read_s64(w, s) : read_s32(w, s));
  for (int l = 0; l < 64; ++l) { tlo[l] = uint32_t(v); thi[l] = uint32_t(v >> 32); }
  lo = tlo; hi = thi;
}

template <class F, uint8_t W64>  // W64: bit i = source i is 64-bit; bit 3 = result 64-bit
void v64(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  alignas(64) uint32_t t[3][2][64];
  const uint32_t* lo[3];
  const uint32_t* hi[3];
  for (int i = 0; i < 3; ++i) {
    if (i < op.ns) fetch_pair(w, op.s[i], (W64 >> i) & 1, t[i][0], t[i][1], lo[i], hi[i]);
    else { std::memset(t[i][0], 0, 256); lo[i] = hi[i] = t[i][0]; }
  }
  alignas(64) uint64_t r[64];
  for (int l = 0; l < 64; ++l) {
    uint64_t x[3];
    for (int i = 0; i < 3; ++i) {
      x[i] = uint64_t(lo[i][l]) | uint64_t(hi[i][l]) << 32;
      if (op.ft == FType::F64 && i < op.ns) {  // f64 instructions; v_cvt_f64_f32's source is an f32 (bit 31)
        if (op.s[i].abs) x[i] &= ~src_sign_mask(op, i);
        if (op.s[i].neg) x[i] ^= src_sign_mask(op, i);
      }
    }
    if constexpr (std::is_invocable_v<F, uint64_t, uint64_t, uint64_t, bool>) r[l] = F{}(x[0], x[1], x[2], (w.mode & kModeIeee) != 0);
    else r[l] = F{}(x[0], x[1], x[2]);
  }
  // f64 results: clamp / omod (output_modifiers.hpp); clang emits e.g. v_add_f64 ... clamp for
  // fmin(fmax(a + b, 0.0), 1.0).
  if ((W64 & 8) && op.ft == FType::F64 && (op.clamp || op.omod))
    for (int l = 0; l < 64; ++l) r[l] = out_mods_f64(w, op, r[l]);
  uint32_t* d = w.vr(op.d[0].idx);
  uint32_t* d1 = (W64 & 8) ? w.vr(uint16_t(op.d[0].idx + 1)) : nullptr;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    d[l] = uint32_t(r[l]);
    if (d1) d1[l] = uint32_t(r[l] >> 32);
  }
}

// Carry-out ops: d[0] = result, d[1] = carry mask; optional carry-in s[2].
template <int KIND>  // 0 add_co, 1 sub_co, 2 subrev_co, 3 addc, 4 subb, 5 subbrev
void vcarry(Wave& w, const Op& op) {
  // Sources through fetch and the result through store, so that the SDWA forms (gfx9
  // v_add_co_u32_sdwa ...) select their source bytes/words and merge the destination field
  // like every other SDWA op; the carry comes from the 32-bit operation on the selected values.
  alignas(64) uint32_t t0[64], t1[64], r[64] = {};
  const uint32_t* sa = fetch(w, op, 0, t0, false);
  const uint32_t* sb = fetch(w, op, 1, t1, false);
  const uint64_t e = w.exec(), cin = KIND >= 3 ? read_s64(w, op.s[2]) : 0;
  uint64_t cout = 0;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a = sa[l], b = sb[l], c = (cin >> l) & 1;
    if (KIND == 2 || KIND == 5) std::swap(a, b);
    uint64_t x;
    bool co;
    if (KIND == 0 || KIND == 3) { x = a + b + c; co = x >> 32; }
    else { x = a - b - c; co = b + c > a; }
    // clamp saturates the unsigned result (all ones on carry out, 0 on borrow); the carry is unchanged.
    r[l] = op.clamp && co ? (KIND == 0 || KIND == 3 ? 0xffffffffu : 0u) : uint32_t(x);
    cout |= uint64_t(co) << l;
  }
  store(w, op, r, false);
  write_s64(w, op.d[1], cout);
}

// Integer add/sub with the VOP3 clamp bit, which saturates instead of wrapping (the ISA guides'
// VOP3 CLAMP field: integer results are saturated to the destination type's range); LLVM selects it
// for the saturating builtins (__builtin_elementwise_add_sat -> v_add_u32_e64 ... clamp, sub_sat on
// int -> v_sub_i32 ... clamp, on unsigned short -> v_add_u16_e64 ... clamp).
// KIND: 0 add_u32, 1 sub_u32, 2 subrev_u32, 3 add_i32, 4 sub_i32, 5 add_u16, 6 sub_u16, 7 subrev_u16.
template <int KIND>
void int_addsub(Wave& w, const Op& op) {
  alignas(64) uint32_t t0[64], t1[64], r[64];
  const uint32_t* a = fetch(w, op, 0, t0, false);
  const uint32_t* b = fetch(w, op, 1, t1, false);
  constexpr bool is16 = KIND >= 5, is_signed = KIND == 3 || KIND == 4;
  constexpr int64_t lo = is_signed ? INT32_MIN : 0, hi = is_signed ? INT32_MAX : is16 ? 0xffff : 0xffffffffll;
  if (!op.clamp) {  // wrap-around: the same low 32 (16) bits as the 64-bit form below, in 32-bit lanes
    // Full EXEC without SDWA or omod: straight into the destination (what store() would copy there).
    const bool direct = w.exec() == ~0ull && !op.sdwa && !op.omod && op.d[0].k == SrcKind::V;
    uint32_t* out = direct ? w.vr(op.d[0].idx) : r;
    for (int l = 0; l < 64; ++l) {
      const uint32_t v = KIND == 0 || KIND == 3 || KIND == 5 ? a[l] + b[l] : KIND == 2 || KIND == 7 ? b[l] - a[l] : a[l] - b[l];
      out[l] = is16 ? v & 0xffff : v;
    }
    if (direct) w.lane_ops += 64;
    else store(w, op, r, false);
    return;
  }
  for (int l = 0; l < 64; ++l) {
    const int64_t x = is_signed ? int64_t(int32_t(a[l])) : int64_t(is16 ? a[l] & 0xffff : a[l]);
    const int64_t y = is_signed ? int64_t(int32_t(b[l])) : int64_t(is16 ? b[l] & 0xffff : b[l]);
    const int64_t v = KIND == 0 || KIND == 3 || KIND == 5 ? x + y : KIND == 2 || KIND == 7 ? y - x : x - y;
    const int64_t c = op.clamp ? std::clamp(v, lo, hi) : v;
    r[l] = is16 ? uint32_t(c) & 0xffff : uint32_t(c);
  }
  store(w, op, r, false);
}

float fl(uint32_t u) { return as_f(u); }
uint32_t ub(float f) { return as_u(f); }
// min/max with IEEE-754-2008 minNum/maxNum semantics (NaN loses).
float fminnum(float a, float b) { return std::isnan(a) ? b : std::isnan(b) ? a : (a == b ? (std::signbit(a) ? a : b) : std::fmin(a, b)); }
float fmaxnum(float a, float b) { return std::isnan(a) ? b : std::isnan(b) ? a : (a == b ? (std::signbit(a) ? b : a) : std::fmax(a, b)); }
// v_min / v_max (f16, f32, f64) under MODE.IEEE (set for compute kernels by default): a signalling NaN
// operand, S0 first, is the result, quieted; a quiet NaN gives the other operand (the ISA guides'
// V_MIN_F32 / V_MAX_F32 pseudo-code: "if WAVE_MODE.IEEE && isSignalNAN(S0) then D = cvtToQuietNAN(S0)
// elsif WAVE_MODE.IEEE && isSignalNAN(S1) ..."). LLVM lowers llvm.canonicalize to v_max x, x and
// relies on the quieting. With MODE.IEEE clear a signalling NaN acts as a quiet one.
// Each returns true and sets r when IEEE mode decides the result.
bool ieee_snan16(uint32_t a, uint32_t b, bool ieee, uint32_t& r) {
  auto snan = [](uint32_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) && !(h & 0x200u); };
  if (ieee && snan(a & 0xffff)) return r = (a | 0x200u) & 0xffff, true;
  if (ieee && snan(b & 0xffff)) return r = (b | 0x200u) & 0xffff, true;
  return false;
}
bool ieee_snan32(uint32_t a, uint32_t b, bool ieee, uint32_t& r) {
  auto snan = [](uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) && !(u & 0x400000u); };
  if (ieee && snan(a)) return r = a | 0x400000u, true;
  if (ieee && snan(b)) return r = b | 0x400000u, true;
  return false;
}
bool ieee_snan64(uint64_t a, uint64_t b, bool ieee, uint64_t& r) {
  constexpr uint64_t kExp = 0x7ffull << 52, kMant = (1ull << 52) - 1, kQuiet = 1ull << 51;
  auto snan = [](uint64_t u) { return (u & kExp) == kExp && (u & kMant) && !(u & kQuiet); };
  if (ieee && snan(a)) return r = a | kQuiet, true;
  if (ieee && snan(b)) return r = b | kQuiet, true;
  return false;
}
uint32_t vmin32(uint32_t a, uint32_t b, bool ieee) { uint32_t r; return ieee_snan32(a, b, ieee, r) ? r : ub(fminnum(fl(a), fl(b))); }
uint32_t vmax32(uint32_t a, uint32_t b, bool ieee) { uint32_t r; return ieee_snan32(a, b, ieee, r) ? r : ub(fmaxnum(fl(a), fl(b))); }
uint64_t vmin64(uint64_t a, uint64_t b, bool ieee) {
  uint64_t r;
  if (ieee_snan64(a, b, ieee, r)) return r;
  const double x = as_d(a), y = as_d(b);
  if (x == y) return std::signbit(x) ? a : b;  // -0 < +0 (std::fmin leaves the sign of equal zeros to operand order)
  return as_u64(std::isnan(x) ? y : std::isnan(y) ? x : std::fmin(x, y));
}
uint64_t vmax64(uint64_t a, uint64_t b, bool ieee) {
  uint64_t r;
  if (ieee_snan64(a, b, ieee, r)) return r;
  const double x = as_d(a), y = as_d(b);
  if (x == y) return std::signbit(x) ? b : a;  // +0 > -0, as for v_max_f32
  return as_u64(std::isnan(x) ? y : std::isnan(y) ? x : std::fmax(x, y));
}
// v_med3_f32 / v_med3_f16: the median, but with any NaN operand v_min3 of the operands (the NaN branch
// of the ISA guide's V_MED3_F32 pseudo-code; LLVM's AMDGPUInstCombineIntrinsic.cpp, llvm.amdgcn.fmed3:
// "med3 with a nan input acts like v_min_f32(v_min_f32(s0, s1), s2)"): med3(NaN, 2, 1) = 1, not 2.
float fmed3(float a, float b, float c) { return fmaxnum(fminnum(a, b), fminnum(fmaxnum(a, b), c)); }
uint32_t vmed3_32(uint32_t a, uint32_t b, uint32_t c, bool ieee) {
  if (std::isnan(fl(a)) || std::isnan(fl(b)) || std::isnan(fl(c))) return vmin32(vmin32(a, b, ieee), c, ieee);
  return ub(fmed3(fl(a), fl(b), fl(c)));
}
int32_t cvt_i32(float f) {
  if (std::isnan(f)) return 0;
  if (f >= 2147483648.0f) return INT32_MAX;
  if (f < -2147483648.0f) return INT32_MIN;
  return int32_t(f);
}
uint32_t cvt_u32(float f) {
  if (std::isnan(f) || f <= 0) return 0;
  if (f >= 4294967296.0f) return UINT32_MAX;
  return uint32_t(f);
}
uint32_t bfe_u(uint32_t a, uint32_t o, uint32_t w) { o &= 31; w &= 31; return w == 0 ? 0 : (a >> o) & ((1u << w) - 1); }
uint32_t bfe_i(uint32_t a, uint32_t o, uint32_t w) {
  o &= 31; w &= 31;
  if (w == 0) return 0;
  uint32_t x = (a >> o) & ((1u << w) - 1);
  return uint32_t(int32_t(x << (32 - w)) >> (32 - w));
}
uint32_t perm_byte(uint64_t v, uint32_t sel) {
  if (sel <= 7) return uint32_t(v >> (8 * sel)) & 0xff;
  auto sgn = [&](int byte) { return ((v >> (8 * byte + 7)) & 1) ? 0xffu : 0u; };
  switch (sel) {
    case 8: return sgn(1);
    case 9: return sgn(3);
    case 10: return sgn(5);
    case 11: return sgn(7);
    case 12: return 0;
    default: return 0xff;
  }
}
uint32_t v_perm(uint32_t a, uint32_t b, uint32_t s) {
  uint64_t v = uint64_t(a) << 32 | b;
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= perm_byte(v, (s >> (8 * i)) & 0xff) << (8 * i);
  return r;
}
float f16lo(uint32_t u) { return f16_to_f32(uint16_t(u)); }
float f16hi(uint32_t u) { return f16_to_f32(uint16_t(u >> 16)); }
float bf16lo(uint32_t u) { return as_f(u << 16); }
float bf16hi(uint32_t u) { return as_f(u & 0xffff0000u); }

thread_local bool t_dot2_fused = true;

uint32_t dot2(float a0, float b0, float a1, float b1, float c) {
  if (t_dot2_fused) return ub(dot2_fused(a0, b0, a1, b1, c));  // exact sum, one rounding (dot2.cpp)
  return ub(fma_f32(a1, b1, fma_f32(a0, b0, c)));
}

// v_alignbit_b32: bits [31:0] of {a, b} >> (c & 31).
struct AlignBit {
  uint32_t operator()(uint32_t a, uint32_t b, uint32_t c) const { return uint32_t(((uint64_t(a) << 32) | b) >> (c & 31)); }
};
// A shift that is the same in every lane (a constant or an SGPR, as the generated kernels use it)
// takes uniform 32-bit shifts, which the host vectorises; the per-lane 64-bit shift does not.
void v_alignbit(Wave& w, const Op& op) {
  if (op.ns != 3) return v32<AlignBit, false>(w, op);
  alignas(64) uint32_t t0[64], t1[64], t2[64], r[64];
  const uint32_t* a = fetch(w, op, 0, t0, false);
  const uint32_t* b = fetch(w, op, 1, t1, false);
  const uint32_t* c = fetch(w, op, 2, t2, false);
  uint32_t differ = 0;
  for (int l = 0; l < 64; ++l) differ |= (c[l] ^ c[0]) & 31;
  if (differ) return v32<AlignBit, false>(w, op);
  const uint32_t sh = c[0] & 31;
  for (int l = 0; l < 64; ++l) r[l] = (b[l] >> sh) | (a[l] << (31 - sh) << 1);  // sh = 0: b
  store(w, op, r, false);
}

#define V(...) &v32<decltype([](uint32_t a, uint32_t b, uint32_t c) -> uint32_t { return __VA_ARGS__; }), false>
#define VH(...) &v32<decltype([](uint32_t a, uint32_t b, uint32_t c) -> uint32_t { return __VA_ARGS__; }), false, kF16Result>
#define VFX(not_f32, ...) &v32<decltype([](uint32_t a, uint32_t b, uint32_t c) -> uint32_t { return __VA_ARGS__; }), true, not_f32>
#define VF(...) VFX(0, __VA_ARGS__)
// The min/max family: the lambda also gets MODE.IEEE (`ieee`).
#define VFI(...) &v32<decltype([](uint32_t a, uint32_t b, uint32_t c, bool ieee) -> uint32_t { return __VA_ARGS__; }), true, 0>
#define VHI(...) &v32<decltype([](uint32_t a, uint32_t b, uint32_t c, bool ieee) -> uint32_t { return __VA_ARGS__; }), false, kF16Result>
#define CMP(...) &vcmp<decltype([](uint32_t a, uint32_t b) -> bool { return __VA_ARGS__; }), false, false>
#define CMPF(...) &vcmp<decltype([](uint32_t a, uint32_t b) -> bool { return __VA_ARGS__; }), true, false>
#define CMPX(...) &vcmp<decltype([](uint32_t a, uint32_t b) -> bool { return __VA_ARGS__; }), false, true>
#define CMPXF(...) &vcmp<decltype([](uint32_t a, uint32_t b) -> bool { return __VA_ARGS__; }), true, true>
#define V64(w, ...) &v64<decltype([](uint64_t a, uint64_t b, uint64_t c) -> uint64_t { return __VA_ARGS__; }), w>
#define V64I(w, ...) &v64<decltype([](uint64_t a, uint64_t b, uint64_t c, bool ieee) -> uint64_t { return __VA_ARGS__; }), w>

void readlane(Wave& w, const Op& op) {
  uint32_t lane = read_s32(w, op.s[1]) & 63;
  write_s32(w, op.d[0], w.vr(op.s[0].idx)[lane]);
}
void readfirstlane(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  int lane = e ? std::countr_zero(e) : 0;
  write_s32(w, op.d[0], lane_src(w, op.s[0], lane));
}
void writelane(Wave& w, const Op& op) {
  uint32_t lane = read_s32(w, op.s[1]) & 63;
  w.vr(op.d[0].idx)[lane] = read_s32(w, op.s[0]);
}
void cndmask(Wave& w, const Op& op) {
  alignas(64) uint32_t t0[64], t1[64], r[64];
  const uint32_t* a = fetch(w, op, 0, t0, true);
  const uint32_t* b = fetch(w, op, 1, t1, true);
  uint64_t m = read_s64(w, op.s[2]);
  for (int l = 0; l < 64; ++l) r[l] = ((m >> l) & 1) ? b[l] : a[l];
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l) d[l] = ((e >> l) & 1) ? r[l] : d[l];
}
void mbcnt_lo(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) {
      uint32_t m = lane_src(w, op.s[0], l), mask = l >= 32 ? ~0u : (1u << l) - 1;
      d[l] = std::popcount(m & mask) + lane_src(w, op.s[1], l);
    }
}
void mbcnt_hi(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) {
      uint32_t m = lane_src(w, op.s[0], l), mask = l < 32 ? 0 : (l == 32 ? 0 : (1u << (l - 32)) - 1);
      d[l] = std::popcount(m & mask) + lane_src(w, op.s[1], l);
    }
}
void mad_u64_u32(Wave& w, const Op& op) {
  uint64_t e = w.exec(), cout = 0;
  w.lane_ops += lanes(e);
  alignas(64) uint32_t t[3][2][64];
  const uint32_t *lo[3], *hi[3];
  for (int i = 0; i < 3; ++i) fetch_pair(w, op.s[i], i == 2, t[i][0], t[i][1], lo[i], hi[i]);
  alignas(64) uint64_t r[64];
  for (int l = 0; l < 64; ++l) {
    unsigned __int128 p = (unsigned __int128)(uint64_t(lo[0][l]) * lo[1][l]) + (uint64_t(lo[2][l]) | uint64_t(hi[2][l]) << 32);
    r[l] = uint64_t(p);
    cout |= uint64_t((p >> 64) != 0 && ((e >> l) & 1)) << l;
  }
  uint32_t *d0 = w.vr(op.d[0].idx), *d1 = w.vr(uint16_t(op.d[0].idx + 1));
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) { d0[l] = uint32_t(r[l]); d1[l] = uint32_t(r[l] >> 32); }
  if (op.nd > 1) write_s64(w, op.d[1], cout);
}

// v_mad_i64_i32 d[0:1], sdst, s0, s1, s2[0:1]: sext(s0) * sext(s1) + s2 with 64-bit wrap-around.
// The ISA defines the 65-bit signed sum {sdst bit, d}; sdst gets its bit 64, i.e. the sign of
// the exact (unwrapped) result. clang never reads it; this follows the ISA pseudo-code.
void mad_i64_i32(Wave& w, const Op& op) {
  uint64_t e = w.exec(), cout = 0;
  w.lane_ops += lanes(e);
  alignas(64) uint32_t t[3][2][64];
  const uint32_t *lo[3], *hi[3];
  for (int i = 0; i < 3; ++i) fetch_pair(w, op.s[i], i == 2, t[i][0], t[i][1], lo[i], hi[i]);
  uint32_t *d0 = w.vr(op.d[0].idx), *d1 = w.vr(uint16_t(op.d[0].idx + 1));
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    __int128 p = __int128(int64_t(int32_t(lo[0][l])) * int32_t(lo[1][l])) + int64_t(uint64_t(lo[2][l]) | uint64_t(hi[2][l]) << 32);
    d0[l] = uint32_t(uint64_t(p));
    d1[l] = uint32_t(uint64_t(p) >> 32);
    cout |= uint64_t(p < 0) << l;
  }
  if (op.nd > 1) write_s64(w, op.d[1], cout);
}

// VOP3P: per 16-bit half, select sources by op_sel/op_sel_hi and apply neg_lo/neg_hi (pk16_operands,
// vop3p_operands.hpp; under a non-default MODE the f16 add/mul/fma run pk_f16_in_mode, ops_rounding.cpp).
// clamp (clang emits it: v_pk_add_u16 ... clamp for an add_sat of ushort2, v_pk_mul_f16 ... clamp for
// a [0, 1] clamp of half2): f16 halves clamp to [0, 1] (output_modifiers.hpp); SAT 1 / 2: F returns
// the exact result and clamp saturates it to u16 / i16 (the VOP3 integer clamp, as on v_add_u16);
// SAT 0 on an integer op: clamp has no established meaning there, an Error.
template <class F, int SAT = 0>  // operates on 16-bit halves
void vpk16(Wave& w, const Op& op) {
  if (op.clamp && SAT == 0 && op.ft != FType::F16)
    fail(w, op, "clamp on this packed 16-bit integer instruction is not modelled (modelled: v_pk_add/sub_u16/i16, v_pk_mad_u16/i16)");
  auto half = [&op](uint64_t x) -> uint32_t {
    if (SAT == 0 || !op.clamp) return uint32_t(x) & 0xffff;
    const int64_t v = int64_t(x);
    return uint32_t(SAT == 1 ? std::clamp<int64_t>(v, 0, 65535) : std::clamp<int64_t>(v, -32768, 32767)) & 0xffff;
  };
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t h[2][3];
    pk16_operands(w, op, l, h);
    uint32_t r;
    if constexpr (std::is_invocable_v<F, uint32_t, uint32_t, uint32_t, bool>) {  // min/max: MODE.IEEE decides sNaN results
      const bool ieee = (w.mode & kModeIeee) != 0;
      r = half(F{}(h[0][0], h[0][1], h[0][2], ieee)) | half(F{}(h[1][0], h[1][1], h[1][2], ieee)) << 16;
    } else {
      r = half(F{}(h[0][0], h[0][1], h[0][2])) | half(F{}(h[1][0], h[1][1], h[1][2])) << 16;
    }
    if (op.ft == FType::F16 && (op.clamp || op.omod)) r = out_mods_f16(w, op, out_mods_f16(w, op, r >> 16) << 16 | (r & 0xffff));
    d[l] = r;
  }
}
// VOP3P packed f32 (gfx90a+): sources are 64-bit pairs; op_sel picks the dword for lo, op_sel_hi for hi
// (pk32_operands, vop3p_operands.hpp; under a non-default round mode pk_f32_in_mode, ops_rounding.cpp).
// v_pk_fma/mul/add_f32 are f32 arithmetic and follow MODE's f32 denormal mode like the scalar forms
// (inputs flushed in modes 0 and 2, results in modes 0 and 1; CDNA3/CDNA4 ISA guides, MODE.FP_DENORM).
template <class F>
void vpk32(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  alignas(64) uint32_t tmp[3][2][64];
  const uint32_t* src[3][2];  // [source][0 = lo result half, 1 = hi result half]
  pk32_operands(w, op, tmp, src);
  alignas(64) uint32_t r[2][64];
  for (int h = 0; h < 2; ++h) F{}(src[0][h], src[1][h], src[2][h], r[h]);
  if (op.clamp || op.omod)  // each f32 half (output_modifiers.hpp)
    for (int h = 0; h < 2; ++h)
      for (int l = 0; l < 64; ++l) r[h][l] = out_mods_f32(w, op, r[h][l]);
  if (w.flush_out_f32)
    for (int h = 0; h < 2; ++h)
      for (int l = 0; l < 64; ++l) r[h][l] = flush_denorm32(r[h][l]);
  uint32_t *d0 = w.vr(op.d[0].idx), *d1 = w.vr(uint16_t(op.d[0].idx + 1));
  if (e == ~0ull) {
    std::memcpy(d0, r[0], 256);
    std::memcpy(d1, r[1], 256);
    return;
  }
  for (int l = 0; l < 64; ++l) {
    bool on = (e >> l) & 1;
    d0[l] = on ? r[0][l] : d0[l];
    d1[l] = on ? r[1][l] : d1[l];
  }
}
// v_dot2_f32_{f16,bf16} (VOP3P with op_sel on the packed sources).
template <bool BF>
void vdot2(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  t_dot2_fused = w.L->opt.dot2 == Options::Dot2::FusedSingleRounding;
  alignas(64) uint32_t r[64];
  uint32_t* d = w.vr(op.d[0].idx);
  if (t_dot2_fused) {  // the default rule, on whole lane vectors (dot2_fused_lanes)
    alignas(64) float fa0[64], fa1[64], fb0[64], fb1[64], fc[64];
    alignas(64) uint32_t t0[64], t1[64], t2[64];
    // Each source's 64 lanes (a VGPR row or one broadcast value); neg / abs as sign-bit masks
    // (negating or taking |x| of a float flips or clears its sign bit, NaNs included).
    auto rows = [&](const Src& x, uint32_t* tmp) -> const uint32_t* {
      if (x.k == SrcKind::V) return w.vr(x.idx);
      std::fill_n(tmp, 64, lane_src(w, x, 0));
      return tmp;
    };
    const uint32_t* A = rows(op.s[0], t0);
    const uint32_t* B = rows(op.s[1], t1);
    const uint32_t* C = op.ns > 2 ? rows(op.s[2], t2) : d;
    const uint32_t sign = 0x80000000u;
    const uint32_t na0 = (op.neg_lo & 1) ? sign : 0, na1 = (op.neg_hi & 1) ? sign : 0;
    const uint32_t nb0 = (op.neg_lo & 2) ? sign : 0, nb1 = (op.neg_hi & 2) ? sign : 0;
    const uint32_t nc = op.ns > 2 && op.s[2].neg ? sign : 0, ac = op.ns > 2 && op.s[2].abs ? ~sign : ~0u;
    if constexpr (BF) {  // bf16: the operands made from the rows inside dot2_fused_bf16_rows
      const Dot2Bf16Signs sg{na0, na1, nb0, nb1, nc, ac};
      if (!op.clamp) return dot2_fused_bf16_rows(A, B, C, sg, e, d);
      std::memcpy(r, d, sizeof r);
      dot2_fused_bf16_rows(A, B, C, sg, e, r);
      for (int l = 0; l < 64; ++l) r[l] = out_mods_f32(w, op, r[l]);
      for (int l = 0; l < 64; ++l) d[l] = r[l];
      return;
    }
    for (int l = 0; l < 64; ++l) {
      const uint32_t a = A[l], b = B[l];
      fa0[l] = as_f((BF ? a << 16 : as_u(f16lo(a))) ^ na0), fa1[l] = as_f((BF ? a & 0xffff0000u : as_u(f16hi(a))) ^ na1);
      fb0[l] = as_f((BF ? b << 16 : as_u(f16lo(b))) ^ nb0), fb1[l] = as_f((BF ? b & 0xffff0000u : as_u(f16hi(b))) ^ nb1);
      fc[l] = as_f((C[l] ^ nc) & ac);
    }
    if (!op.clamp) {  // straight into the destination: the sources are copied above, inactive lanes untouched
      dot2_fused_lanes(fa0, fb0, fa1, fb1, fc, e, d);
      return;
    }
    std::memcpy(r, d, sizeof r);
    dot2_fused_lanes(fa0, fb0, fa1, fb1, fc, e, r);
    for (int l = 0; l < 64; ++l) r[l] = out_mods_f32(w, op, r[l]);
    for (int l = 0; l < 64; ++l) d[l] = r[l];
    return;
  }
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) { r[l] = d[l]; continue; }
    uint32_t a = lane_src(w, op.s[0], l), b = lane_src(w, op.s[1], l);
    uint32_t c = op.ns > 2 ? lane_src(w, op.s[2], l) : d[l];
    float fa0 = BF ? bf16lo(a) : f16lo(a), fa1 = BF ? bf16hi(a) : f16hi(a);
    float fb0 = BF ? bf16lo(b) : f16lo(b), fb1 = BF ? bf16hi(b) : f16hi(b);
    if (op.neg_lo & 1) fa0 = -fa0;
    if (op.neg_hi & 1) fa1 = -fa1;
    if (op.neg_lo & 2) fb0 = -fb0;
    if (op.neg_hi & 2) fb1 = -fb1;
    float fc = as_f(c);
    if (op.ns > 2 && op.s[2].neg) fc = -fc;
    if (op.ns > 2 && op.s[2].abs) fc = std::fabs(fc);
    r[l] = dot2(fa0, fb0, fa1, fb1, fc);
  }
  if (op.clamp) for (int l = 0; l < 64; ++l) r[l] = out_mods_f32(w, op, r[l]);
  for (int l = 0; l < 64; ++l) d[l] = r[l];
}

// gfx950 v_bitop3_b32: bit i of the result = bitop3 table bit {s0[i], s1[i], s2[i]}.
void bitop3(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  uint32_t* d = w.vr(op.d[0].idx);
  uint32_t t = op.imm & 0xff;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t x = lane_src(w, op.s[0], l), y = lane_src(w, op.s[1], l), z = lane_src(w, op.s[2], l), r = 0;
    for (int i = 0; i < 8; ++i) {
      if (!((t >> i) & 1)) continue;
      uint32_t m = ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
      r |= m;
    }
    d[l] = r;
  }
}

// gfx950 v_bitop3_b16: the same truth table on 16-bit operands. op_sel bit i (i < 3) takes the
// high half of source i; op_sel bit 3 writes the high half of the destination. Like the other
// gfx9 VOP3 16-bit instructions with op_sel, the other half of the destination is kept.
void bitop3_b16(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  uint32_t* d = w.vr(op.d[0].idx);
  const uint32_t t = op.imm & 0xff;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t x[3];
    for (int i = 0; i < 3; ++i) {
      uint32_t v = lane_src(w, op.s[i], l);
      x[i] = ((op.op_sel >> i) & 1 ? v >> 16 : v) & 0xffff;
    }
    uint32_t r = 0;
    for (int i = 0; i < 8; ++i)
      if ((t >> i) & 1) r |= ((i & 4) ? x[0] : ~x[0]) & ((i & 2) ? x[1] : ~x[1]) & ((i & 1) ? x[2] : ~x[2]);
    r &= 0xffff;
    d[l] = (op.op_sel & 8) ? (d[l] & 0xffffu) | (r << 16) : (d[l] & 0xffff0000u) | r;
  }
}

// v_pk_mov_b32 d[0:1], s0, s1 op_sel:[x,y]: d.lo = s0 dword x, d.hi = s1 dword y.
void pk_mov(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  alignas(64) uint32_t t[2][64];
  const uint32_t* src[2];
  for (int i = 0; i < 2; ++i) {
    const Src& s = op.s[i];
    int dw = (op.op_sel >> i) & 1;
    if (s.k == SrcKind::V) { src[i] = w.vr(uint16_t(s.idx + dw)); continue; }
    uint32_t x = s.k == SrcKind::Const ? uint32_t(s.val) : lane_src(w, s, 0, dw);
    for (int l = 0; l < 64; ++l) t[i][l] = x;
    src[i] = t[i];
  }
  uint32_t *d0 = w.vr(op.d[0].idx), *d1 = w.vr(uint16_t(op.d[0].idx + 1));
  alignas(64) uint32_t r0[64], r1[64];
  std::memcpy(r0, src[0], 256);  // sources may overlap the destination pair
  std::memcpy(r1, src[1], 256);
  if (e == ~0ull) {
    std::memcpy(d0, r0, 256);
    std::memcpy(d1, r1, 256);
    return;
  }
  for (int l = 0; l < 64; ++l) {
    bool on = (e >> l) & 1;
    d0[l] = on ? r0[l] : d0[l];
    d1[l] = on ? r1[l] : d1[l];
  }
}

// v_fma_mix{,lo,hi}: source i is f16 (half op_sel[i]) when op_sel_hi[i] is set, else f32.
// LLVM prints op_sel_hi of the mix instructions only when it is non-zero (llvm-mc-22 encodes
// a v_fma_mixlo_f16 written without op_sel_hi with op_sel_hi = 0), so an absent op_sel_hi means three f32
// sources; the decoder's default of 7 is for the packed instructions and does not apply here.
// Inline constants keep their value in either reading (the decoder stored them as f32 bits).
// mix_f32 rounds once to f32; mixlo/mixhi round the fma to f32 and that f32 to f16, and write the
// low/high half, keeping the other half: the CDNA3 ISA guide's pseudo-code is
// "D0[15 : 0].f16 = f32_to_f16(fma(in[0], in[1], in[2]))" with in[] declared 32'F, and LLVM selects
// mixlo/mixhi for fptrunc(fma f32) / fptrunc(fmul f32) as an exact match of those two roundings
// (llvm-project PR #219723: "compute the multiply or multiply-add in f32, round that to f32, and
// then convert the f32 result to the 16-bit destination"). (They differ from one rounding of the
// exact fma at f16 ties: 2.5 * 11728 + 2^-26 is 0x7728, not 0x7729.)
// Denormals: on hardware v_fma_mix_f32 keeps an f16 denormal input in the default mode and
// flushes it (result +0) under a flushing mode (gfx90a and gfx950 runs published in
// llvm/llvm-project PR #205101), but whether the f32 or the f16/f64 FP_DENORM field governs the
// f16 inputs, the f32 inputs and the f16 results is not published; a flushing f32 field is
// therefore an Error here (a flushing f16/f64 field already is, through run_in_mode).
template <int KIND>
void fma_mix(Wave& w, const Op& op) {
  if (w.flush_in_f32 || w.flush_out_f32)
    fail(w, op, std::string(op.info->mnemonic) + " under a flushing f32 denormal mode (MODE.FP_DENORM[5:4] != 3) is not modelled: which "
                "denormal field governs its f16 and f32 operands is not published");
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  uint32_t* d = w.vr(op.d[0].idx);
  uint8_t hi_sel = op.op_sel_hi_set ? op.op_sel_hi : 0;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    float x[3];
    for (int i = 0; i < 3; ++i) {
      uint32_t v = lane_src(w, op.s[i], l);
      bool f16 = ((hi_sel >> i) & 1) && op.s[i].k != SrcKind::Const;
      float f = f16 ? f16_to_f32(uint16_t((op.op_sel >> i) & 1 ? v >> 16 : v)) : as_f(v);
      if (op.s[i].abs) f = std::fabs(f);
      if (op.s[i].neg) f = -f;
      x[i] = f;
    }
    // clamp (omod: VOP3P has none) on the f32 result, or on the f16 half before it is placed.
    if (KIND == 0) d[l] = out_mods_f32(w, op, as_u(std::fma(x[0], x[1], x[2])));
    else {
      uint16_t h = uint16_t(out_mods_f16(w, op, f32_to_f16(as_u(std::fma(x[0], x[1], x[2])))));
      d[l] = KIND == 1 ? (d[l] & 0xffff0000u) | h : (d[l] & 0xffffu) | (uint32_t(h) << 16);
    }
  }
}

// v_cvt_f32_fp8 / v_cvt_f32_bf8 (PK = false) and v_cvt_pk_f32_fp8 / _bf8 (PK = true, two
// floats into a register pair): the source byte (or 16-bit word for PK) is chosen by the SDWA
// src0_sel (clang's byte selects), else byte / word 0. The format follows the arch (fp.hpp:
// FNUZ on gfx942, OCP on gfx950). Every conversion is exact; NaN codes give the quiet f32 NaN.
// clamp and omod (LLVM 22 accepts both on the _e64 and _sdwa forms, checked with llvm-mc-22) act
// as on any VOP3 f32 result (the CDNA3/CDNA4 ISA guides' VOP3 OMOD/CLAMP fields: multiply by
// 2/4/0.5, then clamp to [0, 1]), through the same out_mods_f32 as the generic f32 path
// (output_modifiers.hpp, which also says when OMOD acts); the guides' pseudo-code of these
// conversions says nothing more specific, so this is an assumption.
// A destination select is not an encoding of these: LLVM 22's assembler rejects dst_sel/dst_unused
// on their _sdwa forms and its disassembler does not decode a DST_SEL other than DWORD as them
// (checked with llvm-mc-22, both archs; test "SDWA fp8 conversions: no destination select"), so
// the check below only guards against a decoder change.
template <bool E5M2, bool PK>
void cvt_from_fp8(Wave& w, const Op& op) {
  if ((op.sdwa && op.sdwa_dst_sel != 6) || op.op_sel)
    fail(w, op, "fp8 conversion with a destination select or op_sel is not an encoding LLVM 22 accepts or decodes");
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  const bool fnuz = w.L->arch == Arch::gfx942;
  int shift = 0;
  if (op.sdwa) {
    uint8_t sel = op.sdwa_src_sel[0];  // 0..3 BYTE_n, 4/5 WORD_0/1, 6 DWORD
    shift = sel <= 3 ? 8 * sel : sel == 5 ? 16 : 0;
  }
  auto cvt = [&](uint32_t byte) {
    double v = fp8_value(uint8_t(byte), E5M2, fnuz);
    const uint32_t u = std::isnan(v) ? 0x7fc00000u : as_u(float(v));
    return op.clamp || op.omod ? out_mods_f32(w, op, u) : u;
  };
  uint32_t* d0 = w.vr(op.d[0].idx);
  uint32_t* d1 = PK ? w.vr(uint16_t(op.d[0].idx + 1)) : nullptr;
  alignas(64) uint32_t r0[64], r1[64];
  for (int l = 0; l < 64; ++l) {
    uint32_t src = lane_src(w, op.s[0], l) >> shift;
    r0[l] = cvt(src & 0xff);
    r1[l] = cvt((src >> 8) & 0xff);
  }
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    d0[l] = r0[l];
    if (PK) d1[l] = r1[l];
  }
}

// v_fmac_f64 d, a, b: d = fma(a, b, d).
void vfmac64(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += lanes(e);
  alignas(64) uint32_t t[2][2][64];
  const uint32_t *lo[2], *hi[2];
  for (int i = 0; i < 2; ++i) fetch_pair(w, op.s[i], true, t[i][0], t[i][1], lo[i], hi[i]);
  uint32_t *d0 = w.vr(op.d[0].idx), *d1 = w.vr(uint16_t(op.d[0].idx + 1));
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    double x[3];
    for (int i = 0; i < 2; ++i) {
      uint64_t u = uint64_t(lo[i][l]) | uint64_t(hi[i][l]) << 32;
      if (op.s[i].abs) u &= ~(1ull << 63);
      if (op.s[i].neg) u ^= 1ull << 63;
      x[i] = as_d(u);
    }
    x[2] = as_d(uint64_t(d0[l]) | uint64_t(d1[l]) << 32);
    uint64_t r = out_mods_f64(w, op, as_u64(std::fma(x[0], x[1], x[2])));
    d0[l] = uint32_t(r);
    d1[l] = uint32_t(r >> 32);
  }
}

uint32_t f16op(float x) { return f32_to_f16(ub(x)); }
uint32_t vmin16(uint32_t a, uint32_t b, bool ieee) { uint32_t r; return ieee_snan16(a, b, ieee, r) ? r : f16op(fminnum(f16lo(a), f16lo(b))); }
uint32_t vmax16(uint32_t a, uint32_t b, bool ieee) { uint32_t r; return ieee_snan16(a, b, ieee, r) ? r : f16op(fmaxnum(f16lo(a), f16lo(b))); }
uint32_t vmed3_16(uint32_t a, uint32_t b, uint32_t c, bool ieee) {
  if (std::isnan(f16lo(a)) || std::isnan(f16lo(b)) || std::isnan(f16lo(c))) return vmin16(vmin16(a, b, ieee), c, ieee);
  return f16op(fmed3(f16lo(a), f16lo(b), f16lo(c)));
}

// v_cvt_f64_f32 / v_cvt_f32_f64 while the f32 denormal field flushes (MODE.FP_DENORM[5:4] != 3)
// and the f16/f64 field keeps denormals (otherwise run_in_mode takes over): whether the f32 or the
// f64 field governs the f32 side (the first's input, the second's result) is not published, so an
// f32 denormal there is an Error rather than a guess. Every other value converts the same under
// either reading.
bool f32_denormal(uint32_t u) { return (u & 0x7f800000u) == 0 && (u & 0x007fffffu) != 0; }
constexpr const char* kCvtF32SideUnknown =
    "an f32 denormal under a flushing f32 denormal mode (MODE.FP_DENORM[5:4] != 3) with f64 denormals kept: "
    "which denormal field governs the f32 side of an f32/f64 conversion is not published, so the simulator does "
    "not guess (valid: MODE.FP_DENORM 0xf, or both fields flushing, or no f32 denormals)";
void cvt_f64_f32(Wave& w, const Op& op) {
  if (w.flush_in_f32 || w.flush_out_f32) {
    const uint64_t e = w.exec();
    for (int l = 0; l < 64; ++l)
      if (((e >> l) & 1) && f32_denormal(lane_src(w, op.s[0], l))) fail(w, op, kCvtF32SideUnknown, l);
  }
  (V64(8, as_u64(double(fl(uint32_t(a))))))(w, op);
}
// gfx950 v_cvt_f32_bf16: the bf16 in the low 16 bits (or the SDWA-selected word) widened exactly (its
// source is not an f32, so the generic f32 input flush does not apply to it). Which denormal field, if any,
// flushes a bf16 input or the f32 it becomes is not published, so a bf16 denormal under any flushing field
// is an Error; every other value converts the same whatever MODE says (also the handler under a
// non-default MODE).
void cvt_f32_bf16(Wave& w, const Op& op) {
  if (w.flush_in_f32 || w.flush_out_f32 || w.flush_in_f16_64 || w.flush_out_f16_64) {
    const uint64_t e = w.exec();
    for (int l = 0; l < 64; ++l) {
      if (!((e >> l) & 1)) continue;
      uint32_t raw = lane_src(w, op.s[0], l);
      if (op.sdwa) raw = sdwa_extract(raw, op.sdwa_src_sel[0], false);
      if ((raw & 0x7f80u) == 0 && (raw & 0x7fu) != 0)
        fail(w, op, "a bf16 denormal input while MODE.FP_DENORM flushes: which denormal field governs a bf16 input "
                    "is not published, so the simulator does not guess (valid: MODE.FP_DENORM 0xf, or no bf16 denormals)", l);
    }
  }
  (VFX(1, a << 16))(w, op);
}
void cvt_f32_f64(Wave& w, const Op& op) {
  (V64(1, ub(float(as_d(a)))))(w, op);
  if (op.clamp || op.omod) {  // an f32 result: its output modifiers (output_modifiers.hpp)
    const uint64_t e = w.exec();
    uint32_t* d = w.vr(op.d[0].idx);
    for (int l = 0; l < 64; ++l)
      if ((e >> l) & 1) d[l] = out_mods_f32(w, op, d[l]);
  }
  if (w.flush_in_f32 || w.flush_out_f32) {
    const uint64_t e = w.exec();
    const uint32_t* d = w.vr(op.d[0].idx);
    for (int l = 0; l < 64; ++l)
      if (((e >> l) & 1) && f32_denormal(d[l])) fail(w, op, kCvtF32SideUnknown, l);
  }
}

}  // namespace

void register_valu(Registry& r) {
  auto A = [&](O n, Handler h, FType ft = FType::Int) { r.add(n, h, ft); };
  auto F = [&](O n, Handler h) { r.add(n, h, FType::F32); };
  // FX: f32 ops whose result does not depend on the MODE round mode or the f16/f64 denormal
  // mode (comparisons, min/max, integral rounding); they run unchanged under any MODE.
  auto FX = [&](O n, Handler h) { r.add(n, h, FType::F32); r.set_mode_free(n); };
  auto H = [&](O n, Handler h) { r.add(n, h, FType::F16); };
  auto D = [&](O n, Handler h) { r.add(n, h, FType::F64); };
  // Moves and integer ops.
  A(O::v_mov_b32, V(a));
  A(O::v_not_b32, V(~a));
  A(O::v_bfrev_b32, V(([](uint32_t x) { uint32_t y = 0; for (int i = 0; i < 32; ++i) y |= ((x >> i) & 1) << (31 - i); return y; })(a)));
  A(O::v_ffbh_u32, V(a ? uint32_t(std::countl_zero(a)) : ~0u));
  A(O::v_ffbl_b32, V(a ? uint32_t(std::countr_zero(a)) : ~0u));
  A(O::v_ffbh_i32, V(([](int32_t x) -> uint32_t { if (x == 0 || x == -1) return ~0u; return uint32_t(std::countl_zero(uint32_t(x < 0 ? ~x : x))) ; })(int32_t(a))));
  A(O::v_bcnt_u32_b32, V(uint32_t(std::popcount(a)) + b));
  A(O::v_add_u32, &int_addsub<0>);
  A(O::v_sub_u32, &int_addsub<1>);
  A(O::v_subrev_u32, &int_addsub<2>);
  A(O::v_add_i32, &int_addsub<3>);
  A(O::v_sub_i32, &int_addsub<4>);
  A(O::v_add3_u32, V(a + b + c));
  A(O::v_lshl_add_u32, V((a << (b & 31)) + c));
  A(O::v_add_lshl_u32, V((a + b) << (c & 31)));
  A(O::v_lshl_or_b32, V((a << (b & 31)) | c));
  A(O::v_and_or_b32, V((a & b) | c));
  A(O::v_or3_b32, V(a | b | c));
  A(O::v_xad_u32, V((a ^ b) + c));
  A(O::v_mul_lo_u32, V(a * b));
  A(O::v_mul_hi_u32, V(uint32_t((uint64_t(a) * b) >> 32)));
  A(O::v_mul_hi_i32, V(uint32_t(uint64_t(int64_t(int32_t(a)) * int32_t(b)) >> 32)));
  A(O::v_mul_u32_u24, V((a & 0xffffff) * (b & 0xffffff)));
  A(O::v_mul_hi_u32_u24, V(uint32_t((uint64_t(a & 0xffffff) * (b & 0xffffff)) >> 32)));
  A(O::v_mul_i32_i24, V(uint32_t((int32_t(a << 8) >> 8) * (int32_t(b << 8) >> 8))));
  A(O::v_mul_hi_i32_i24, V(uint32_t(uint64_t(int64_t(int32_t(a << 8) >> 8) * (int32_t(b << 8) >> 8)) >> 32)));
  A(O::v_mad_u32_u24, V((a & 0xffffff) * (b & 0xffffff) + c));
  A(O::v_mad_i32_i24, V(uint32_t((int32_t(a << 8) >> 8) * (int32_t(b << 8) >> 8)) + c));
  A(O::v_mad_u32_u16, V((a & 0xffff) * (b & 0xffff) + c));
  A(O::v_and_b32, V(a & b));
  A(O::v_or_b32, V(a | b));
  A(O::v_xor_b32, V(a ^ b));
  A(O::v_xnor_b32, V(~(a ^ b)));
  A(O::v_lshlrev_b32, V(b << (a & 31)));
  A(O::v_lshrrev_b32, V(b >> (a & 31)));
  A(O::v_ashrrev_i32, V(uint32_t(int32_t(b) >> (a & 31))));
  // 16-bit integer VOP2/VOP3 ops: gfx9 writes the result zero-extended to 32 bits.
  A(O::v_add_u16, &int_addsub<5>);
  A(O::v_sub_u16, &int_addsub<6>);
  A(O::v_subrev_u16, &int_addsub<7>);
  A(O::v_mul_lo_u16, V((a * b) & 0xffff));
  A(O::v_mad_u16, V((a * b + c) & 0xffff));
  A(O::v_mad_legacy_u16, V((a * b + c) & 0xffff));  // gfx9 spelling of the gfx8 encoding (no op_sel)
  A(O::v_mad_legacy_i16, V((a * b + c) & 0xffff));  // low 16 bits do not depend on signedness
  A(O::v_max_u16, V(std::max(a & 0xffff, b & 0xffff)));
  A(O::v_min_u16, V(std::min(a & 0xffff, b & 0xffff)));
  A(O::v_max_i16, V(uint32_t(std::max(int16_t(a), int16_t(b))) & 0xffff));
  A(O::v_min_i16, V(uint32_t(std::min(int16_t(a), int16_t(b))) & 0xffff));
  A(O::v_ashrrev_i16, V(uint32_t(int16_t(b) >> (a & 15)) & 0xffff));
  A(O::v_lshlrev_b16, V(((b & 0xffff) << (a & 15)) & 0xffff));
  A(O::v_lshrrev_b16, V((b & 0xffff) >> (a & 15)));
  A(O::v_min_u32, V(a < b ? a : b));
  A(O::v_max_u32, V(a > b ? a : b));
  A(O::v_min_i32, V(int32_t(a) < int32_t(b) ? a : b));
  A(O::v_max_i32, V(int32_t(a) > int32_t(b) ? a : b));
  A(O::v_min3_u32, V(std::min(std::min(a, b), c)));
  A(O::v_max3_u32, V(std::max(std::max(a, b), c)));
  A(O::v_min3_i32, V(uint32_t(std::min(std::min(int32_t(a), int32_t(b)), int32_t(c)))));
  A(O::v_max3_i32, V(uint32_t(std::max(std::max(int32_t(a), int32_t(b)), int32_t(c)))));
  A(O::v_med3_i32, V(uint32_t(std::max(std::min(int32_t(a), int32_t(b)), std::min(std::max(int32_t(a), int32_t(b)), int32_t(c))))));
  A(O::v_med3_u32, V(std::max(std::min(a, b), std::min(std::max(a, b), c))));
  A(O::v_bfe_u32, V(bfe_u(a, b, c)));
  A(O::v_bfe_i32, V(bfe_i(a, b, c)));
  A(O::v_bfi_b32, V((a & b) | (~a & c)));
  A(O::v_bfm_b32, V(((1u << (a & 31)) - 1) << (b & 31)));
  A(O::v_alignbit_b32, &v_alignbit);
  A(O::v_alignbyte_b32, V(uint32_t(((uint64_t(a) << 32) | b) >> (8 * (c & 3)))));
  A(O::v_perm_b32, V(v_perm(a, b, c)));
  A(O::v_sad_u32, V((a > b ? a - b : b - a) + c));
  FX(O::v_cvt_f32_ubyte0, VFX(1, ub(float(a & 0xff))));
  FX(O::v_cvt_f32_ubyte1, VFX(1, ub(float((a >> 8) & 0xff))));
  FX(O::v_cvt_f32_ubyte2, VFX(1, ub(float((a >> 16) & 0xff))));
  FX(O::v_cvt_f32_ubyte3, VFX(1, ub(float(a >> 24))));
  A(O::v_cvt_pk_u16_u32, V((std::min(a, 0xffffu)) | (std::min(b, 0xffffu) << 16)));
  A(O::v_pack_b32_f16, V((a & 0xffff) | (b << 16)));
  // gfx950 three-input bit op: truth table in the third operand's low byte.
  A(O::v_bitop3_b32, &bitop3);
  A(O::v_bitop3_b16, &bitop3_b16);
  // f32 arithmetic.
  F(O::v_add_f32, VF(ub(fl(a) + fl(b))));
  F(O::v_sub_f32, VF(ub(fl(a) - fl(b))));
  F(O::v_subrev_f32, VF(ub(fl(b) - fl(a))));
  F(O::v_mul_f32, VF(ub(fl(a) * fl(b))));
  F(O::v_fma_f32, &vfma<0>);
  F(O::v_fmac_f32, &vfma<1>);
  F(O::v_fmamk_f32, &vfma<0>);   // asm order: src0, K, src1 -> src0 * K + src1
  F(O::v_fmaak_f32, &vfma<0>);   // d = a * b + K
  FX(O::v_min_f32, VFI(vmin32(a, b, ieee)));
  FX(O::v_max_f32, VFI(vmax32(a, b, ieee)));
  FX(O::v_min3_f32, VFI(vmin32(vmin32(a, b, ieee), c, ieee)));
  FX(O::v_max3_f32, VFI(vmax32(vmax32(a, b, ieee), c, ieee)));
  FX(O::v_med3_f32, VFI(vmed3_32(a, b, c, ieee)));
  F(O::v_mul_legacy_f32, VF(ub((fl(a) == 0 || fl(b) == 0) ? 0.0f : fl(a) * fl(b))));
  F(O::v_ldexp_f32, VFX(2, ub(std::ldexp(fl(a), int32_t(b)))));
  FX(O::v_trunc_f32, VF(ub(std::trunc(fl(a)))));
  FX(O::v_ceil_f32, VF(ub(std::ceil(fl(a)))));
  FX(O::v_floor_f32, VF(ub(std::floor(fl(a)))));
  FX(O::v_rndne_f32, VF(ub(std::nearbyint(fl(a)))));
  // NaN in, NaN out (std::fmin alone would return the bound; see v_fract_f64 in ops_f64.cpp).
  F(O::v_fract_f32, VF(ub(std::isinf(fl(a)) ? std::nanf("") : std::isnan(fl(a)) ? fl(a) - std::floor(fl(a)) : std::fmin(fl(a) - std::floor(fl(a)), 0x1.fffffep-1f))));
  F(O::v_sqrt_f32, VF(transcendental_f32(Transcendental::Sqrt, a)));
  F(O::v_cvt_f32_i32, VFX(1, ub(float(int32_t(a)))));
  F(O::v_cvt_f32_u32, VFX(1, ub(float(a))));
  // Integer results (kNotF32Result): never flushed as if they were f32 denormals (5.0 converted to 5
  // under a flushing f32 MODE), and no f32 clamp on their bits.
  FX(O::v_cvt_i32_f32, VFX(kNotF32Result, uint32_t(cvt_i32(fl(a)))));
  FX(O::v_cvt_u32_f32, VFX(kNotF32Result, cvt_u32(fl(a))));
  FX(O::v_cvt_rpi_i32_f32, VFX(kNotF32Result, uint32_t(cvt_i32(std::floor(fl(a) + 0.5f)))));
  FX(O::v_cvt_flr_i32_f32, VFX(kNotF32Result, uint32_t(cvt_i32(std::floor(fl(a))))));
  F(O::v_cvt_f16_f32, VFX(kNotF32Result | kF16Result, f32_to_f16(a)));
  F(O::v_cvt_f32_f16, VFX(1, ub(f16lo(a))));
  F(O::v_cvt_pkrtz_f16_f32, VFX(kNotF32Result | kNoOutMods, uint32_t(f32_to_f16_rtz(a)) | uint32_t(f32_to_f16_rtz(b)) << 16));
  F(O::v_cvt_pk_bf16_f32, VFX(kNotF32Result | kNoOutMods, uint32_t(f32_to_bf16(a)) | uint32_t(f32_to_bf16(b)) << 16));
  F(O::v_dot2c_f32_bf16, &vdot2<true>);
  F(O::v_dot2_f32_bf16, &vdot2<true>);
  F(O::v_dot2c_f32_f16, &vdot2<false>);
  F(O::v_dot2_f32_f16, &vdot2<false>);
  // Transcendentals are approximations on hardware (the ISA guides' bounds, runtime/sim/README.md);
  // the simulator gives the correctly rounded result (correctly_rounded.hpp), identical on every host.
  F(O::v_exp_f32, VF(transcendental_f32(Transcendental::Exp2, a)));
  F(O::v_log_f32, VF(transcendental_f32(Transcendental::Log2, a)));
  F(O::v_rcp_f32, VF(transcendental_f32(Transcendental::Rcp, a)));
  F(O::v_rcp_iflag_f32, VF(transcendental_f32(Transcendental::Rcp, a)));
  F(O::v_rsq_f32, VF(transcendental_f32(Transcendental::Rsq, a)));
  F(O::v_sin_f32, VF(transcendental_f32(Transcendental::SinRev, a)));
  F(O::v_cos_f32, VF(transcendental_f32(Transcendental::CosRev, a)));
  // f16 (computed in f32 or f64 and rounded once to f16).
  H(O::v_add_f16, VH(f16op(f16lo(a) + f16lo(b))));
  H(O::v_sub_f16, VH(f16op(f16lo(a) - f16lo(b))));
  H(O::v_mul_f16, VH(f16op(f16lo(a) * f16lo(b))));
  H(O::v_fma_f16, VH(f64_to_f16(std::fma(double(f16lo(a)), double(f16lo(b)), double(f16lo(c))))));
  H(O::v_max_f16, VHI(vmax16(a, b, ieee)));
  H(O::v_min_f16, VHI(vmin16(a, b, ieee)));
  H(O::v_cvt_f16_u16, VH(f16op(float(a & 0xffff))));
  H(O::v_cvt_f16_i16, VH(f16op(float(int16_t(a)))));
  // Compares (e32 writes VCC, e64 an SGPR pair; v_cmpx also EXEC).
  A(O::v_cmp_eq_i32, CMP(int32_t(a) == int32_t(b)));
  A(O::v_cmp_eq_u32, CMP(a == b));
  FX(O::v_cmp_eq_f32, CMPF(fl(a) == fl(b)));
  A(O::v_cmpx_eq_i32, CMPX(int32_t(a) == int32_t(b)));
  A(O::v_cmpx_eq_u32, CMPX(a == b));
  FX(O::v_cmpx_eq_f32, CMPXF(fl(a) == fl(b)));
  A(O::v_cmp_ne_i32, CMP(int32_t(a) != int32_t(b)));
  A(O::v_cmp_ne_u32, CMP(a != b));
  A(O::v_cmpx_ne_i32, CMPX(int32_t(a) != int32_t(b)));
  A(O::v_cmpx_ne_u32, CMPX(a != b));
  FX(O::v_cmp_lg_f32, CMPF(fl(a) < fl(b) || fl(a) > fl(b)));
  FX(O::v_cmpx_lg_f32, CMPXF(fl(a) < fl(b) || fl(a) > fl(b)));
  A(O::v_cmp_lt_i32, CMP(int32_t(a) < int32_t(b)));
  A(O::v_cmp_lt_u32, CMP(a < b));
  FX(O::v_cmp_lt_f32, CMPF(fl(a) < fl(b)));
  A(O::v_cmpx_lt_i32, CMPX(int32_t(a) < int32_t(b)));
  A(O::v_cmpx_lt_u32, CMPX(a < b));
  FX(O::v_cmpx_lt_f32, CMPXF(fl(a) < fl(b)));
  A(O::v_cmp_le_i32, CMP(int32_t(a) <= int32_t(b)));
  A(O::v_cmp_le_u32, CMP(a <= b));
  FX(O::v_cmp_le_f32, CMPF(fl(a) <= fl(b)));
  A(O::v_cmpx_le_i32, CMPX(int32_t(a) <= int32_t(b)));
  A(O::v_cmpx_le_u32, CMPX(a <= b));
  FX(O::v_cmpx_le_f32, CMPXF(fl(a) <= fl(b)));
  A(O::v_cmp_gt_i32, CMP(int32_t(a) > int32_t(b)));
  A(O::v_cmp_gt_u32, CMP(a > b));
  FX(O::v_cmp_gt_f32, CMPF(fl(a) > fl(b)));
  A(O::v_cmpx_gt_i32, CMPX(int32_t(a) > int32_t(b)));
  A(O::v_cmpx_gt_u32, CMPX(a > b));
  FX(O::v_cmpx_gt_f32, CMPXF(fl(a) > fl(b)));
  A(O::v_cmp_ge_i32, CMP(int32_t(a) >= int32_t(b)));
  A(O::v_cmp_ge_u32, CMP(a >= b));
  FX(O::v_cmp_ge_f32, CMPF(fl(a) >= fl(b)));
  A(O::v_cmpx_ge_i32, CMPX(int32_t(a) >= int32_t(b)));
  A(O::v_cmpx_ge_u32, CMPX(a >= b));
  FX(O::v_cmpx_ge_f32, CMPXF(fl(a) >= fl(b)));
  FX(O::v_cmp_o_f32, CMPF(!std::isnan(fl(a)) && !std::isnan(fl(b))));
  FX(O::v_cmp_u_f32, CMPF(std::isnan(fl(a)) || std::isnan(fl(b))));
  FX(O::v_cmp_nlt_f32, CMPF(!(fl(a) < fl(b))));
  FX(O::v_cmpx_nlt_f32, CMPXF(!(fl(a) < fl(b))));
  FX(O::v_cmp_nle_f32, CMPF(!(fl(a) <= fl(b))));
  FX(O::v_cmpx_nle_f32, CMPXF(!(fl(a) <= fl(b))));
  FX(O::v_cmp_ngt_f32, CMPF(!(fl(a) > fl(b))));
  FX(O::v_cmpx_ngt_f32, CMPXF(!(fl(a) > fl(b))));
  FX(O::v_cmp_nge_f32, CMPF(!(fl(a) >= fl(b))));
  FX(O::v_cmpx_nge_f32, CMPXF(!(fl(a) >= fl(b))));
  FX(O::v_cmp_neq_f32, CMPF(!(fl(a) == fl(b))));
  FX(O::v_cmpx_neq_f32, CMPXF(!(fl(a) == fl(b))));
  FX(O::v_cmp_nlg_f32, CMPF(!(fl(a) < fl(b) || fl(a) > fl(b))));
  A(O::v_cmp_class_f32, CMP(([](float x, uint32_t m) {
      int c = std::isnan(x) ? (std::bit_cast<uint32_t>(x) & 0x400000u ? 1 : 0)
            : std::isinf(x) ? (x < 0 ? 2 : 9)
            : x == 0 ? (std::signbit(x) ? 5 : 6)
            : std::fpclassify(x) == FP_SUBNORMAL ? (x < 0 ? 4 : 7) : (x < 0 ? 3 : 8);
      return ((m >> c) & 1) != 0; })(fl(a), b)));
  // f64 / f16 / 16-bit integer compares (and the v_cmpx forms clang uses).
  D(O::v_cmp_eq_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return as_d(a) == as_d(b); }), false>);
  D(O::v_cmp_lt_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return as_d(a) < as_d(b); }), false>);
  D(O::v_cmp_le_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return as_d(a) <= as_d(b); }), false>);
  D(O::v_cmp_gt_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return as_d(a) > as_d(b); }), false>);
  D(O::v_cmp_ge_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return as_d(a) >= as_d(b); }), false>);
  D(O::v_cmp_lg_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return as_d(a) < as_d(b) || as_d(a) > as_d(b); }), false>);
  D(O::v_cmp_o_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return !std::isnan(as_d(a)) && !std::isnan(as_d(b)); }), false>);
  D(O::v_cmp_u_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return std::isnan(as_d(a)) || std::isnan(as_d(b)); }), false>);
  D(O::v_cmp_neq_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return !(as_d(a) == as_d(b)); }), false>);
  D(O::v_cmp_nlt_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return !(as_d(a) < as_d(b)); }), false>);
  D(O::v_cmp_nle_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return !(as_d(a) <= as_d(b)); }), false>);
  D(O::v_cmp_ngt_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return !(as_d(a) > as_d(b)); }), false>);
  D(O::v_cmp_nge_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return !(as_d(a) >= as_d(b)); }), false>);
  D(O::v_cmpx_eq_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return as_d(a) == as_d(b); }), true>);
  D(O::v_cmpx_lt_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return as_d(a) < as_d(b); }), true>);
  D(O::v_cmpx_gt_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return as_d(a) > as_d(b); }), true>);
  D(O::v_cmpx_neq_f64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return !(as_d(a) == as_d(b)); }), true>);
  H(O::v_cmp_eq_f16, CMPF(f16lo(a) == f16lo(b)));
  H(O::v_cmp_lt_f16, CMPF(f16lo(a) < f16lo(b)));
  H(O::v_cmp_le_f16, CMPF(f16lo(a) <= f16lo(b)));
  H(O::v_cmp_gt_f16, CMPF(f16lo(a) > f16lo(b)));
  H(O::v_cmp_ge_f16, CMPF(f16lo(a) >= f16lo(b)));
  H(O::v_cmp_lg_f16, CMPF(f16lo(a) < f16lo(b) || f16lo(a) > f16lo(b)));
  H(O::v_cmp_u_f16, CMPF(std::isnan(f16lo(a)) || std::isnan(f16lo(b))));
  H(O::v_cmp_o_f16, CMPF(!std::isnan(f16lo(a)) && !std::isnan(f16lo(b))));
  H(O::v_cmp_neq_f16, CMPF(!(f16lo(a) == f16lo(b))));
  H(O::v_cmp_nlt_f16, CMPF(!(f16lo(a) < f16lo(b))));
  H(O::v_cmp_ngt_f16, CMPF(!(f16lo(a) > f16lo(b))));
  A(O::v_cmp_eq_u16, CMP((a & 0xffff) == (b & 0xffff)));
  A(O::v_cmp_ne_u16, CMP((a & 0xffff) != (b & 0xffff)));
  A(O::v_cmp_lt_u16, CMP((a & 0xffff) < (b & 0xffff)));
  A(O::v_cmp_gt_u16, CMP((a & 0xffff) > (b & 0xffff)));
  A(O::v_cmp_le_u16, CMP((a & 0xffff) <= (b & 0xffff)));
  A(O::v_cmp_ge_u16, CMP((a & 0xffff) >= (b & 0xffff)));
  A(O::v_cmp_eq_i16, CMP(int16_t(a) == int16_t(b)));
  A(O::v_cmp_ne_i16, CMP(int16_t(a) != int16_t(b)));
  A(O::v_cmp_lt_i16, CMP(int16_t(a) < int16_t(b)));
  A(O::v_cmp_gt_i16, CMP(int16_t(a) > int16_t(b)));
  A(O::v_cmp_le_i16, CMP(int16_t(a) <= int16_t(b)));
  A(O::v_cmp_ge_i16, CMP(int16_t(a) >= int16_t(b)));
  A(O::v_cmpx_eq_u16, CMPX((a & 0xffff) == (b & 0xffff)));
  A(O::v_cmpx_ne_u16, CMPX((a & 0xffff) != (b & 0xffff)));
  A(O::v_cmpx_lt_u16, CMPX((a & 0xffff) < (b & 0xffff)));
  A(O::v_cmpx_gt_u16, CMPX((a & 0xffff) > (b & 0xffff)));
  A(O::v_cmpx_le_u16, CMPX((a & 0xffff) <= (b & 0xffff)));
  A(O::v_cmpx_ge_u16, CMPX((a & 0xffff) >= (b & 0xffff)));
  A(O::v_cmpx_eq_i16, CMPX(int16_t(a) == int16_t(b)));
  A(O::v_cmpx_ne_i16, CMPX(int16_t(a) != int16_t(b)));
  A(O::v_cmpx_lt_i16, CMPX(int16_t(a) < int16_t(b)));
  A(O::v_cmpx_gt_i16, CMPX(int16_t(a) > int16_t(b)));
  A(O::v_cmpx_le_i16, CMPX(int16_t(a) <= int16_t(b)));
  A(O::v_cmpx_ge_i16, CMPX(int16_t(a) >= int16_t(b)));
  A(O::v_cmp_ne_u64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a != b; }), false>);
  A(O::v_cmpx_eq_u64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a == b; }), true>);
  A(O::v_cmpx_ne_u64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a != b; }), true>);
  A(O::v_cmp_eq_u64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a == b; }), false>);
  A(O::v_cmp_ne_u64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a != b; }), false>);
  A(O::v_cmp_lt_u64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a < b; }), false>);
  A(O::v_cmp_gt_u64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a > b; }), false>);
  A(O::v_cmp_le_u64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a <= b; }), false>);
  A(O::v_cmp_ge_u64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a >= b; }), false>);
  A(O::v_cmp_lt_i64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return int64_t(a) < int64_t(b); }), false>);
  A(O::v_cmp_gt_i64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return int64_t(a) > int64_t(b); }), false>);
  A(O::v_cmp_le_i64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return int64_t(a) <= int64_t(b); }), false>);
  A(O::v_cmp_ge_i64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return int64_t(a) >= int64_t(b); }), false>);
  A(O::v_cmp_eq_i64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a == b; }), false>);
  A(O::v_cmp_ne_i64, &vcmp64<decltype([](uint64_t a, uint64_t b) { return a != b; }), false>);
  // Carry ops.
  A(O::v_add_co_u32, &vcarry<0>);
  A(O::v_sub_co_u32, &vcarry<1>);
  A(O::v_subrev_co_u32, &vcarry<2>);
  A(O::v_addc_co_u32, &vcarry<3>);
  A(O::v_subb_co_u32, &vcarry<4>);
  A(O::v_subbrev_co_u32, &vcarry<5>);
  A(O::v_mad_u64_u32, &mad_u64_u32);
  A(O::v_mad_i64_i32, &mad_i64_i32);
  A(O::v_cndmask_b32, &cndmask);
  A(O::v_readlane_b32, &readlane);
  A(O::v_readfirstlane_b32, &readfirstlane);
  A(O::v_writelane_b32, &writelane);
  A(O::v_mbcnt_lo_u32_b32, &mbcnt_lo);
  A(O::v_mbcnt_hi_u32_b32, &mbcnt_hi);
  // 64-bit.
  A(O::v_lshlrev_b64, V64(2 | 8, b << (a & 63)));
  A(O::v_lshrrev_b64, V64(2 | 8, b >> (a & 63)));
  A(O::v_ashrrev_i64, V64(2 | 8, uint64_t(int64_t(b) >> (a & 63))));
  A(O::v_lshl_add_u64, V64(1 | 4 | 8, (a << (b & 63)) + c));
  A(O::v_mov_b64, V64(1 | 8, a));
  D(O::v_fma_f64, V64(7 | 8, as_u64(std::fma(as_d(a), as_d(b), as_d(c)))));
  D(O::v_add_f64, V64(3 | 8, as_u64(as_d(a) + as_d(b))));
  D(O::v_mul_f64, V64(3 | 8, as_u64(as_d(a) * as_d(b))));
  D(O::v_rcp_f64, V64(1 | 8, transcendental_f64(Transcendental::Rcp, a)));
  D(O::v_sqrt_f64, V64(1 | 8, transcendental_f64(Transcendental::Sqrt, a)));
  D(O::v_ldexp_f64, V64(1 | 8, as_u64(std::ldexp(as_d(a), int32_t(uint32_t(b))))));
  D(O::v_max_f64, V64I(3 | 8, vmax64(a, b, ieee)));
  D(O::v_min_f64, V64I(3 | 8, vmin64(a, b, ieee)));
  D(O::v_trunc_f64, V64(1 | 8, as_u64(std::trunc(as_d(a)))));
  D(O::v_floor_f64, V64(1 | 8, as_u64(std::floor(as_d(a)))));
  D(O::v_cvt_i32_f64, V64(1, ([](double x) -> uint64_t { if (std::isnan(x)) return 0; if (x >= 2147483647.0) return 0x7fffffffu; if (x <= -2147483648.0) return 0x80000000u; return uint32_t(int32_t(x)); })(as_d(a))));
  D(O::v_cvt_u32_f64, V64(1, ([](double x) -> uint64_t { if (std::isnan(x) || x <= 0) return 0; if (x >= 4294967295.0) return 0xffffffffu; return uint32_t(x); })(as_d(a))));
  F(O::v_frexp_mant_f32, VF(([](float x) { if (std::isnan(x) || std::isinf(x)) return ub(x); int e; return ub(std::frexp(x, &e)); })(fl(a))));
  F(O::v_frexp_exp_i32_f32, VFX(kNotF32Result, ([](float x) -> uint32_t { if (std::isnan(x) || std::isinf(x)) return 0; int e; std::frexp(x, &e); return uint32_t(e); })(fl(a))));
  D(O::v_cvt_f64_f32, &cvt_f64_f32);
  D(O::v_cvt_f32_f64, &cvt_f32_f64);
  D(O::v_cvt_f64_i32, V64(8, as_u64(double(int32_t(a)))));
  D(O::v_cvt_f64_u32, V64(8, as_u64(double(uint32_t(a)))));
  F(O::v_cvt_f32_bf16, &cvt_f32_bf16);
  r.set_moded(O::v_cvt_f32_bf16, &cvt_f32_bf16);
  H(O::v_subrev_f16, VH(f16op(f16lo(b) - f16lo(a))));
  H(O::v_max3_f16, VHI(vmax16(vmax16(a, b, ieee), c, ieee)));
  H(O::v_min3_f16, VHI(vmin16(vmin16(a, b, ieee), c, ieee)));
  H(O::v_med3_f16, VHI(vmed3_16(a, b, c, ieee)));
  H(O::v_ldexp_f16, VH(f16op(std::ldexp(f16lo(a), int16_t(b)))));
  H(O::v_sqrt_f16, VH(transcendental_f16(Transcendental::Sqrt, uint16_t(a))));
  H(O::v_rcp_f16, VH(transcendental_f16(Transcendental::Rcp, uint16_t(a))));
  H(O::v_rsq_f16, VH(transcendental_f16(Transcendental::Rsq, uint16_t(a))));
  H(O::v_exp_f16, VH(transcendental_f16(Transcendental::Exp2, uint16_t(a))));
  H(O::v_log_f16, VH(transcendental_f16(Transcendental::Log2, uint16_t(a))));
  H(O::v_cvt_i16_f16, V(uint32_t(uint16_t(int16_t(std::isnan(f16lo(a)) ? 0 : std::fmax(std::fmin(std::trunc(f16lo(a)), 32767.0f), -32768.0f))))));
  H(O::v_cvt_u16_f16, V(uint32_t(uint16_t(std::isnan(f16lo(a)) ? 0 : std::fmax(std::fmin(std::trunc(f16lo(a)), 65535.0f), 0.0f)))));
  D(O::v_fmac_f64, &vfmac64);
  D(O::v_rsq_f64, V64(1 | 8, transcendental_f64(Transcendental::Rsq, a)));
  A(O::v_mad_i32_i16, V(uint32_t(int32_t(int16_t(a)) * int32_t(int16_t(b))) + c));
  A(O::v_dot4_i32_i8, V(([](uint32_t x, uint32_t y, uint32_t z) { int32_t s = int32_t(z); for (int i = 0; i < 4; ++i) s += int32_t(int8_t(x >> (8 * i))) * int32_t(int8_t(y >> (8 * i))); return uint32_t(s); })(a, b, c)));
  A(O::v_dot4_u32_u8, V(([](uint32_t x, uint32_t y, uint32_t z) { uint32_t s = z; for (int i = 0; i < 4; ++i) s += ((x >> (8 * i)) & 0xff) * ((y >> (8 * i)) & 0xff); return s; })(a, b, c)));
  A(O::v_dot2_i32_i16, V(([](uint32_t x, uint32_t y, uint32_t z) { int32_t s = int32_t(z); for (int i = 0; i < 2; ++i) s += int32_t(int16_t(x >> (16 * i))) * int32_t(int16_t(y >> (16 * i))); return uint32_t(s); })(a, b, c)));
  A(O::v_dot2_u32_u16, V(([](uint32_t x, uint32_t y, uint32_t z) { uint32_t s = z; for (int i = 0; i < 2; ++i) s += ((x >> (16 * i)) & 0xffff) * ((y >> (16 * i)) & 0xffff); return s; })(a, b, c)));
  r.erase(O::v_dot4_i32_i8);  // clamp and op_sel forms not modelled; keep them unimplemented rather than half-right
  r.erase(O::v_dot2_i32_i16);
  // The add/sub/mad forms return the exact result (int64 bits) for clamp to saturate (vpk16 SAT).
  A(O::v_pk_sub_u16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint64_t { return uint64_t(int64_t(a) - int64_t(b)); }), 1>);
  A(O::v_pk_add_i16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint64_t { return uint64_t(int64_t(int16_t(a)) + int16_t(b)); }), 2>);
  A(O::v_pk_sub_i16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint64_t { return uint64_t(int64_t(int16_t(a)) - int16_t(b)); }), 2>);
  A(O::v_pk_lshlrev_b16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint32_t { return (b << (a & 15)) & 0xffff; })>);
  A(O::v_pk_lshrrev_b16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint32_t { return (b & 0xffff) >> (a & 15); })>);
  A(O::v_pk_ashrrev_i16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint32_t { return uint32_t(int16_t(b) >> (a & 15)) & 0xffff; })>);
  A(O::v_pk_max_u16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint32_t { return std::max(a, b); })>);
  A(O::v_pk_min_u16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint32_t { return std::min(a, b); })>);
  A(O::v_pk_max_i16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint32_t { return uint32_t(std::max(int16_t(a), int16_t(b))) & 0xffff; })>);
  A(O::v_pk_min_i16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint32_t { return uint32_t(std::min(int16_t(a), int16_t(b))) & 0xffff; })>);
  A(O::v_pk_mad_u16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t c) -> uint64_t { return uint64_t(a) * b + c; }), 1>);
  A(O::v_pk_mad_i16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t c) -> uint64_t { return uint64_t(int64_t(int16_t(a)) * int16_t(b) + int16_t(c)); }), 2>);
  r.add(O::v_fma_mix_f32, &fma_mix<0>, FType::F32);
  r.add(O::v_cvt_f32_fp8, &cvt_from_fp8<false, false>);
  r.add(O::v_cvt_f32_bf8, &cvt_from_fp8<true, false>);
  r.add(O::v_cvt_pk_f32_fp8, &cvt_from_fp8<false, true>);
  r.add(O::v_cvt_pk_f32_bf8, &cvt_from_fp8<true, true>);
  r.add(O::v_fma_mixlo_f16, &fma_mix<1>, FType::F32);
  r.add(O::v_fma_mixhi_f16, &fma_mix<2>, FType::F32);
  r.add(O::v_nop, +[](Wave&, const Op&) {});
  // Packed f16 / f32 (VOP3P).
  H(O::v_pk_add_f16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint32_t { return f16op(f16lo(a) + f16lo(b)); })>);
  H(O::v_pk_mul_f16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint32_t { return f16op(f16lo(a) * f16lo(b)); })>);
  H(O::v_pk_fma_f16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t c) -> uint32_t { return f64_to_f16(std::fma(double(f16lo(a)), double(f16lo(b)), double(f16lo(c)))); })>);
  H(O::v_pk_max_f16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t, bool ieee) -> uint32_t { return vmax16(a, b, ieee); })>);
  H(O::v_pk_min_f16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t, bool ieee) -> uint32_t { return vmin16(a, b, ieee); })>);
  A(O::v_pk_add_u16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint64_t { return uint64_t(a) + b; }), 1>);
  A(O::v_pk_mul_lo_u16, &vpk16<decltype([](uint32_t a, uint32_t b, uint32_t) -> uint32_t { return (a * b) & 0xffff; })>);
  F(O::v_pk_fma_f32, &vpk32<decltype([](const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r) { fma64(a, b, c, r); })>);
  F(O::v_pk_mul_f32, &vpk32<decltype([](const uint32_t* a, const uint32_t* b, const uint32_t*, uint32_t* r) { for (int l = 0; l < 64; ++l) r[l] = ub(fl(a[l]) * fl(b[l])); })>);
  F(O::v_pk_add_f32, &vpk32<decltype([](const uint32_t* a, const uint32_t* b, const uint32_t*, uint32_t* r) { for (int l = 0; l < 64; ++l) r[l] = ub(fl(a[l]) + fl(b[l])); })>);
  F(O::v_pk_mov_b32, &pk_mov);
}

}  // namespace cdnajit::sim
