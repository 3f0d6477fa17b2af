// v_fract_*, v_ldexp_*, v_mul_legacy_f32, v_cvt_f16_i16/u16, v_cvt_pkrtz_f16_f32 and the partly known
// conversions (gfx950 v_cvt_pk_f16_f32, v_cvt_norm_*, v_cvt_pknorm_*, v_cvt_pk_u8_f32, v_cvt_pkaccum_u8_f32)
// under a non-default MODE (runtime/sim/ops_mode_convert.cpp). Every expected value was worked out by hand;
// the comment beside it says how. Before these MODE handlers each case here was an Error naming the mode.
#include <catch2/catch.hpp>

#include "jit/isa/error.hpp"
#include "tests/sim/ext_harness.hpp"

using namespace exttest;

namespace {

// The Error's text when `insn` fails under `mode`; "" when it runs.
std::string error_in(Arch arch, uint32_t mode, const std::string& insn, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  try {
    run_in(arch, mode, insn, a, b, c);
  } catch (const cdnajit::Error& e) {
    return e.what();
  }
  return "";
}

// One instruction on one set of inputs; expected results by round mode: nearest even, +inf, -inf, zero.
struct Case {
  const char* insn;
  uint64_t a, b;
  uint64_t rm[4];
};

// f16: the round mode goes in the f16/f64 field (the f32 field at nearest), else in the f32 field.
void check_round_modes(const Case& k, bool f16_or_f64, std::initializer_list<Arch> archs = {Arch::gfx942, Arch::gfx950}) {
  for (Arch arch : archs) {
    for (int m = 0; m < 4; ++m) {
      INFO(cdnajit::arch_name(arch) << ": " << k.insn << ", round mode " << m);
      const uint32_t mode = f16_or_f64 ? mode_bits(0, m) : mode_bits(m, 0);
      CHECK(run_in(arch, mode, k.insn, k.a, k.b) == k.rm[m]);
    }
  }
}

}  // namespace

TEST_CASE("v_fract rounds S0 + -floor(S0) in the MODE's direction, then limits it below 1", "[sim][mode][convert]") {
  // f32: fract(-1.25 * 2^-24) = 1 - 2^-24 - 2^-26, a quarter ulp below 0x3f7fffff (ulp 2^-24 in [0.5, 1)):
  // nearest and +inf 0x3f7fffff, -inf and zero 0x3f7ffffe.
  check_round_modes({"v_fract_f32 v8, v2", 0xb3a00000, 0, {0x3f7fffff, 0x3f7fffff, 0x3f7ffffe, 0x3f7ffffe}}, false);
  // fract(-2^-30) = 1 - 2^-30: rounds to 1.0 at nearest and toward +inf, which the limit makes 0x3f7fffff; toward
  // -inf and zero it is 0x3f7fffff already.
  check_round_modes({"v_fract_f32 v8, v2", 0xb0800000, 0, {0x3f7fffff, 0x3f7fffff, 0x3f7fffff, 0x3f7fffff}}, false);
  // fract(3.0) = 3 + -3, an exact zero of opposite-signed operands: +0, but -0 toward -inf (IEEE 754 6.3).
  check_round_modes({"v_fract_f32 v8, v2", 0x40400000, 0, {0, 0, 0x80000000, 0}}, false);
  // f16: fract(-1.25 * 2^-11) = 1 - 2^-11 - 2^-13, a quarter ulp below 0x3bff (ulp 2^-11): nearest and +inf
  // 0x3bff, -inf and zero 0x3bfe.
  check_round_modes({"v_fract_f16 v8, v2", 0x9100, 0, {0x3bff, 0x3bff, 0x3bfe, 0x3bfe}}, true);
  // f64: fract(-1.25 * 2^-53) = 1 - 2^-53 - 2^-55, a quarter ulp below 0x3fefffffffffffff (ulp 2^-53).
  check_round_modes({"v_fract_f64 v[8:9], v[2:3]", 0xbca4000000000000, 0,
                     {0x3fefffffffffffff, 0x3fefffffffffffff, 0x3feffffffffffffe, 0x3feffffffffffffe}},
                    true);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Specials under a directed mode: NaN stays NaN, inf gives the quiet NaN, -1.5 gives exactly 0.5.
    CHECK(run_in(arch, mode_bits(3, 3), "v_fract_f32 v8, v2", 0x7fc00000) == 0x7fc00000u);
    CHECK(run_in(arch, mode_bits(3, 3), "v_fract_f32 v8, v2", 0xff800000) == 0x7fc00000u);
    CHECK(run_in(arch, mode_bits(3, 3), "v_fract_f32 v8, v2", 0xbfc00000) == 0x3f000000u);
    CHECK(run_in(arch, mode_bits(1, 1), "v_fract_f16 v8, v2", 0x7c00) == 0x7e00u);
    CHECK(run_in(arch, mode_bits(1, 1), "v_fract_f64 v[8:9], v[2:3]", 0xfff0000000000000) == 0x7ff8000000000000u);
    // Denormals: the f16 input 2^-24 (0x0001) is its own fract, kept (0x0001) or flushed as input (+0) or as
    // output (+0) by the f16/f64 field; the f64 2^-1074 likewise.
    CHECK(run_in(arch, mode_bits(0, 0, 3, 3), "v_fract_f16 v8, v2", 0x0001) == 0x0001u);
    CHECK(run_in(arch, mode_bits(0, 1, 3, 3), "v_fract_f16 v8, v2", 0x0001) == 0x0001u);
    CHECK(run_in(arch, mode_bits(0, 0, 3, 2), "v_fract_f16 v8, v2", 0x0001) == 0u);
    CHECK(run_in(arch, mode_bits(0, 0, 3, 1), "v_fract_f16 v8, v2", 0x0001) == 0u);
    CHECK(run_in(arch, mode_bits(0, 1, 3, 3), "v_fract_f64 v[8:9], v[2:3]", 1) == 1u);
    CHECK(run_in(arch, mode_bits(0, 0, 3, 0), "v_fract_f64 v[8:9], v[2:3]", 1) == 0u);
    // f32 denormal 2^-149 under the f32 field, with the f16/f64 field changed so the MODE handler runs.
    CHECK(run_in(arch, mode_bits(0, 0, 3, 2), "v_fract_f32 v8, v2", 1) == 1u);
    CHECK(run_in(arch, mode_bits(0, 0, 1, 2), "v_fract_f32 v8, v2", 1) == 0u);
  }
}

TEST_CASE("v_ldexp rounds only on overflow and into the denormal range, in the MODE's direction", "[sim][mode][convert]") {
  // f32: 1.5 * 2^-149 lies halfway between the denormals 1 and 2 (x 2^-149): nearest even 2, +inf 2, -inf and zero 1.
  check_round_modes({"v_ldexp_f32 v8, v2, v4", 0x3fc00000, uint32_t(-149), {2, 2, 1, 1}}, false);
  // -1.5 * 2^-149: nearest even -2, +inf -1, -inf -2, zero -1.
  check_round_modes({"v_ldexp_f32 v8, v2, v4", 0xbfc00000, uint32_t(-149), {0x80000002, 0x80000001, 0x80000002, 0x80000001}},
                    false);
  // 1.0 * 2^128 overflows: inf at nearest and +inf, the largest finite f32 toward -inf and zero.
  check_round_modes({"v_ldexp_f32 v8, v2, v4", 0x3f800000, 128, {0x7f800000, 0x7f800000, 0x7f7fffff, 0x7f7fffff}}, false);
  // An exponent far beyond the range (2^31 - 1) and a tiny one (-2^31): overflow / underflow the same way.
  check_round_modes({"v_ldexp_f32 v8, v2, v4", 0x3f800000, 0x7fffffff, {0x7f800000, 0x7f800000, 0x7f7fffff, 0x7f7fffff}}, false);
  check_round_modes({"v_ldexp_f32 v8, v2, v4", 0x3f800000, 0x80000000, {0, 1, 0, 0}}, false);
  // f16: 1.5 * 2^-24 between the denormals 0x0001 and 0x0002; 1.0 * 2^16 = 65536 overflows.
  check_round_modes({"v_ldexp_f16 v8, v2, v4", 0x3e00, uint16_t(-24), {0x0002, 0x0002, 0x0001, 0x0001}}, true);
  check_round_modes({"v_ldexp_f16 v8, v2, v4", 0x3c00, 16, {0x7c00, 0x7c00, 0x7bff, 0x7bff}}, true);
  // f64: 1.5 * 2^-1074 between the denormals 1 and 2; 1.0 * 2^1024 overflows.
  check_round_modes({"v_ldexp_f64 v[8:9], v[2:3], v4", 0x3ff8000000000000, uint32_t(-1074), {2, 2, 1, 1}}, true);
  check_round_modes({"v_ldexp_f64 v[8:9], v[2:3], v4", 0x3ff0000000000000, 1024,
                     {0x7ff0000000000000, 0x7ff0000000000000, 0x7fefffffffffffff, 0x7fefffffffffffff}},
                    true);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Exact scalings are the same in every mode, also into and out of the denormal range.
    CHECK(run_in(arch, mode_bits(3, 3), "v_ldexp_f32 v8, v2, v4", 0x3f800000, uint32_t(-149)) == 1u);
    CHECK(run_in(arch, mode_bits(3, 3), "v_ldexp_f32 v8, v2, v4", 1, 149) == 0x3f800000u);
    CHECK(run_in(arch, mode_bits(3, 3), "v_ldexp_f16 v8, v2, v4", 0x0001, 24) == 0x3c00u);
    // Denormal fields: f16 1.5 * 2^-24 rounded toward zero is 0x0001, +0 when f16 outputs flush; the f16 input
    // 0x0001 * 2^24 is 1.0 kept, +0 flushed as an input; f32 2^-149 * 2^149 likewise under the f32 field.
    CHECK(run_in(arch, mode_bits(0, 3, 3, 1), "v_ldexp_f16 v8, v2, v4", 0x3e00, uint16_t(-24)) == 0u);
    CHECK(run_in(arch, mode_bits(0, 3, 3, 2), "v_ldexp_f16 v8, v2, v4", 0x0001, 24) == 0u);
    CHECK(run_in(arch, mode_bits(3, 0, 2, 3), "v_ldexp_f32 v8, v2, v4", 1, 149) == 0u);
    CHECK(run_in(arch, mode_bits(3, 0, 1, 3), "v_ldexp_f32 v8, v2, v4", 0x3fc00000, uint32_t(-149)) == 0u);
    CHECK(run_in(arch, mode_bits(0, 3, 3, 0), "v_ldexp_f64 v[8:9], v[2:3], v4", 0x3ff8000000000000, uint32_t(-1074)) == 0u);
    // Specials: NaN stays NaN, -inf and -0 are unchanged.
    CHECK(run_in(arch, mode_bits(1, 1), "v_ldexp_f32 v8, v2, v4", 0x7fc00000, 5) == 0x7fc00000u);
    CHECK(run_in(arch, mode_bits(1, 1), "v_ldexp_f32 v8, v2, v4", 0xff800000, uint32_t(-500)) == 0xff800000u);
    CHECK(run_in(arch, mode_bits(1, 1), "v_ldexp_f64 v[8:9], v[2:3], v4", 1ull << 63, 7) == 1ull << 63);
  }
}

TEST_CASE("v_mul_legacy_f32 rounds its product in the MODE's direction; a zero operand gives +0", "[sim][mode][convert]") {
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: nearest 0x3f800002, +inf 0x3f800003, -inf and zero 0x3f800002.
  check_round_modes({"v_mul_legacy_f32 v8, v2, v4", 0x3f800001, 0x3f800001, {0x3f800002, 0x3f800003, 0x3f800002, 0x3f800002}},
                    false);
  // -(1 + 2^-23) * (1 + 2^-23): -inf gives the larger magnitude.
  check_round_modes({"v_mul_legacy_f32 v8, v2, v4", 0xbf800001, 0x3f800001, {0xbf800002, 0xbf800002, 0xbf800003, 0xbf800002}},
                    false);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    CHECK(run_in(arch, mode_bits(2, 2), "v_mul_legacy_f32 v8, v2, v4", 0, 0x7f800000) == 0u);           // 0 * inf
    CHECK(run_in(arch, mode_bits(2, 2), "v_mul_legacy_f32 v8, v2, v4", 0x80000000, 0x40a00000) == 0u);  // -0 * 5
    CHECK(run_in(arch, mode_bits(2, 2), "v_mul_legacy_f32 v8, v2, v4", 0x7fc00000, 0x80000000) == 0u);  // NaN * -0
    // A denormal flushed as an input is a zero operand: 2^-149 * NaN is +0 with f32 inputs flushed, NaN kept.
    CHECK(run_in(arch, mode_bits(2, 2, 2, 3), "v_mul_legacy_f32 v8, v2, v4", 1, 0x7fc00000) == 0u);
    CHECK(run_in(arch, mode_bits(2, 2, 3, 3), "v_mul_legacy_f32 v8, v2, v4", 1, 0x7fc00000) == 0x7fc00000u);
  }
}

TEST_CASE("v_cvt_f16_i16 / v_cvt_f16_u16 round in the f16/f64 round mode", "[sim][mode][convert]") {
  // 2049 halfway between 2048 (0x6800) and 2050 (0x6801): nearest even 0x6800, +inf 0x6801, -inf and zero 0x6800.
  check_round_modes({"v_cvt_f16_u16 v8, v2", 2049, 0, {0x6800, 0x6801, 0x6800, 0x6800}}, true);
  // 65535 beyond the largest f16 65504 (0x7bff) past the overflow threshold 65520: inf at nearest and +inf.
  check_round_modes({"v_cvt_f16_u16 v8, v2", 65535, 0, {0x7c00, 0x7c00, 0x7bff, 0x7bff}}, true);
  // -2049: nearest even -2048 (0xe800), +inf -2048, -inf -2050 (0xe801), zero -2048.
  check_round_modes({"v_cvt_f16_i16 v8, v2", 0xf7ff, 0, {0xe800, 0xe800, 0xe801, 0xe800}}, true);
  check_round_modes({"v_cvt_f16_i16 v8, v2", 0x8000, 0, {0xf800, 0xf800, 0xf800, 0xf800}}, true);  // -32768, exact
  // The f32 round field does not act on them: f32 toward +inf with f16 at nearest gives the nearest-even 0x6800.
  for (Arch arch : kArchs) CHECK(run_in(arch, mode_bits(1, 0), "v_cvt_f16_u16 v8, v2", 2049) == 0x6800u);
}

TEST_CASE("v_cvt_pkrtz_f16_f32 rounds toward zero whatever MODE says; f16 results follow the f16/f64 field",
          "[sim][mode][convert]") {
  // lo: 1 + 2^-11 + 2^-12 (0x3f801800) is 0x3c01 at nearest for v_cvt_f16_f32, 0x3c00 toward zero;
  // hi: -65520 (0xc77ff000) overflows to -inf at nearest, is -65504 (0xfbff) toward zero.
  check_round_modes({"v_cvt_pkrtz_f16_f32 v8, v2, v4", 0x3f801800, 0xc77ff000, {0xfbff3c00, 0xfbff3c00, 0xfbff3c00, 0xfbff3c00}},
                    true);
  check_round_modes({"v_cvt_pkrtz_f16_f32 v8, v2, v4", 0x3f801800, 0xc77ff000, {0xfbff3c00, 0xfbff3c00, 0xfbff3c00, 0xfbff3c00}},
                    false);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // 2^-20 (0x35800000) is the f16 denormal 0x0010: kept, or +0 when f16 outputs flush (both halves).
    CHECK(run_in(arch, mode_bits(1, 1, 3, 3), "v_cvt_pkrtz_f16_f32 v8, v2, v4", 0x35800000, 0xb5800000) == 0x80100010u);
    CHECK(run_in(arch, mode_bits(1, 1, 3, 1), "v_cvt_pkrtz_f16_f32 v8, v2, v4", 0x35800000, 0xb5800000) == 0x80000000u);
    // NaN and inf pass (quiet NaN 0x7e00, -inf 0xfc00).
    CHECK(run_in(arch, mode_bits(2, 2), "v_cvt_pkrtz_f16_f32 v8, v2, v4", 0x7fc00000, 0xff800000) == 0xfc007e00u);
  }
}

TEST_CASE("gfx950 v_cvt_pk_f16_f32: the denormal fields are modelled, a directed round mode is an Error",
          "[sim][mode][convert]") {
  const Arch arch = Arch::gfx950;
  // Nearest even with f16 outputs flushed: lo 1 + 2^-11 + 2^-12 -> 0x3c01, hi 2^-20 -> denormal 0x0010 -> +0.
  CHECK(run_in(arch, mode_bits(0, 0, 3, 1), "v_cvt_pk_f16_f32 v8, v2, v4", 0x3f801800, 0x35800000) == 0x00003c01u);
  CHECK(run_in(arch, mode_bits(0, 0, 3, 2), "v_cvt_pk_f16_f32 v8, v2, v4", 0x3f801800, 0x35800000) == 0x00103c01u);
  for (int m = 1; m < 4; ++m) {
    CHECK_THAT(error_in(arch, mode_bits(0, m), "v_cvt_pk_f16_f32 v8, v2, v4", 0x3f801800, 0),
               Catch::Contains("whether either MODE.FP_ROUND field acts on it is not published"));
    CHECK_THAT(error_in(arch, mode_bits(m, 0), "v_cvt_pk_f16_f32 v8, v2, v4", 0x3f801800, 0),
               Catch::Contains("whether either MODE.FP_ROUND field acts on it is not published"));
  }
}

TEST_CASE("normalising and u8 conversions: nearest even under any denormal field, a directed mode is an Error",
          "[sim][mode][convert]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // pknorm_u16_f32(0.5, 2^-149) = {round(0.5 * 65535) = 32768 (ties to even: 32767.5 -> 32768), 0} under f32 and
    // f16/f64 inputs flushed (the denormal rounds to 0 whether flushed or not).
    CHECK(run_in(arch, mode_bits(0, 0, 0, 0), "v_cvt_pknorm_u16_f32 v8, v2, v4", 0x3f000000, 1) == 0x00008000u);
    // pk_u8(2.5) into byte 1 of 0x11223344: 2.5 -> 2 (ties to even).
    CHECK(run_in(arch, mode_bits(0, 0, 0, 2), "v_cvt_pk_u8_f32 v8, v2, v4, v6", 0x40200000, 1, 0x11223344) == 0x11220244u);
    // norm_u16_f16 of the f16 denormal 0x03ff (~6.1e-5 * 65535 ~ 4.0) -> 4 while f16 inputs are kept.
    CHECK(run_in(arch, mode_bits(0, 0, 3, 1), "v_cvt_norm_u16_f16 v8, v2", 0x03ff) == 4u);
    CHECK_THAT(error_in(arch, mode_bits(0, 0, 3, 2), "v_cvt_norm_u16_f16 v8, v2", 0x03ff),
               Catch::Contains("whether this normalising conversion flushes its f16 input is not published"));
    CHECK_THAT(error_in(arch, mode_bits(0, 0, 3, 0), "v_cvt_pknorm_i16_f16 v8, v2, v4", 0x3c00, 0x8001),
               Catch::Contains("whether this normalising conversion flushes its f16 input is not published"));
    for (const char* insn : {"v_cvt_pknorm_u16_f32 v8, v2, v4", "v_cvt_pknorm_i16_f16 v8, v2, v4", "v_cvt_norm_i16_f16 v8, v2",
                             "v_cvt_pk_u8_f32 v8, v2, v4, v6", "v_cvt_pkaccum_u8_f32 v8, v2, v4"}) {
      INFO(insn);
      CHECK_THAT(error_in(arch, mode_bits(1, 0), insn, 0x3f000000, 0), Catch::Contains("rounding mode from MODE register"));
      CHECK_THAT(error_in(arch, mode_bits(0, 3), insn, 0x3f000000, 0), Catch::Contains("rounding mode from MODE register"));
    }
  }
}

TEST_CASE("SDWA and DPP forms of the conversion MODE handlers", "[sim][mode][convert]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // SDWA: u16 2049 in word 1 of src0, rounded toward +inf to 2050 (0x6801), into word 1; word 0 of v8 kept.
    CHECK(run_in(arch, mode_bits(0, 1),
                 "v_mov_b32 v8, 0x12345678\n  v_cvt_f16_u16_sdwa v8, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1",
                 0x08010000) == 0x68015678u);
    // DPP: fract of the neighbour lane's src0 (quad_perm [1,0,3,2]) toward zero. Even lanes hold -1.25 * 2^-24
    // (fract 0x3f7ffffe toward zero, see above), odd lanes -2^-30 (0x3f7fffff): after the swap even lanes give
    // 0x3f7fffff and odd lanes 0x3f7ffffe.
    std::vector<uint64_t> a(64), zero(64);
    for (int l = 0; l < 64; ++l) a[l] = l % 2 ? 0xb0800000 : 0xb3a00000;
    Run r = run(arch, with_mode(mode_bits(3, 0), "v_fract_f32_dpp v8, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"), a, zero, zero);
    for (int l = 0; l < 64; ++l) {
      INFO("lane " << l);
      CHECK(r.out[l] == (l % 2 ? 0x3f7ffffeu : 0x3f7fffffu));
    }
  }
}

// Cross-check of the new MODE handlers against the default ones where they must agree: round to nearest even
// with f32 denormals kept and the f16/f64 field at "flush inputs" (a non-default MODE, so the MODE handlers
// run), on random operands (with NaN, inf, zeros and f32 denormals) without f16/f64 denormal inputs.
// Seed: CDNAJIT_TEST_SEED (printed).
TEST_CASE("MODE conversion handlers agree with the default handlers at nearest even", "[sim][mode][convert]") {
  std::mt19937_64 g(seed());
  auto no_denormal = [](uint64_t v, int kind) {
    if (kind == 0 && (v & 0x7c00) == 0) v &= 0x8000;                       // f16: keep the sign, a zero
    if (kind == 2 && (v & 0x7ff0000000000000ull) == 0) v &= 1ull << 63;  // f64
    return v;
  };
  auto exponents = [&](int salt) {  // small exponents mostly, some far outside any range
    std::vector<uint64_t> v = values(g, 3, salt);
    for (int l = 0; l < 64; ++l)
      if (l % 4 != 0) v[l] = uint32_t(int32_t(v[l] % 321) - 160);
    return v;
  };
  struct Insn {
    const char* text;
    int kind0, kind1;  // value kind of sources 0 and 1 (0 f16, 1 f32, 2 f64, 3 int, 4 exponent, -1 none)
    bool gfx950_only;
  };
  const Insn insns[] = {
      {"v_fract_f32 v8, v2", 1, -1, false},
      {"v_fract_f32_e64 v8, -|v2| mul:2", 1, -1, false},
      {"v_fract_f16 v8, v2", 0, -1, false},
      {"v_fract_f64 v[8:9], v[2:3]", 2, -1, false},
      {"v_ldexp_f32 v8, v2, v4", 1, 4, false},
      {"v_ldexp_f32_e64 v8, v2, v4 clamp", 1, 4, false},
      {"v_ldexp_f16 v8, v2, v4", 0, 4, false},
      {"v_ldexp_f64 v[8:9], v[2:3], v4", 2, 4, false},
      {"v_mul_legacy_f32 v8, v2, v4", 1, 1, false},
      {"v_mul_legacy_f32_e64 v8, -v2, |v4|", 1, 1, false},
      {"v_cvt_f16_i16 v8, v2", 3, -1, false},
      {"v_cvt_f16_u16 v8, v2", 3, -1, false},
      {"v_cvt_pkrtz_f16_f32 v8, v2, v4", 1, 1, false},
      {"v_cvt_pkrtz_f16_f32 v8, -v2, |v4|", 1, 1, false},
      {"v_cvt_pk_f16_f32 v8, v2, v4", 1, 1, true},
      {"v_cvt_pknorm_i16_f32 v8, v2, v4", 1, 1, false},
      {"v_cvt_norm_u16_f16 v8, v2", 0, -1, false},
  };
  for (Arch arch : kArchs) {
    for (const Insn& k : insns) {
      if (k.gfx950_only && arch != Arch::gfx950) continue;
      INFO(cdnajit::arch_name(arch) << ": " << k.text);
      std::vector<uint64_t> in[3];
      const int kinds[3] = {k.kind0, k.kind1, -1};
      for (int i = 0; i < 3; ++i) {
        if (kinds[i] == 4) in[i] = exponents(i);
        else if (kinds[i] >= 0) {
          in[i] = values(g, kinds[i], i);
          for (uint64_t& v : in[i]) v = no_denormal(v, kinds[i]);
        } else in[i] = std::vector<uint64_t>(64, 0);
      }
      Run def = run(arch, with_mode(mode_bits(0, 0, 3, 3), k.text), in[0], in[1], in[2]);
      Run moded = run(arch, with_mode(mode_bits(0, 0, 3, 2), k.text), in[0], in[1], in[2]);
      for (int l = 0; l < 64; ++l) {
        INFO("lane " << l << std::hex << " a 0x" << in[0][l] << " b 0x" << in[1][l]);
        CHECK(moded.out[l] == def.out[l]);
      }
    }
  }
}
