// The division helpers (v_div_scale/fmas/fixup) and the f16 multiply-adds (v_mad_f16 family, v_mac_f16,
// v_fma_legacy_f16, v_pk_fmac_f16, v_subrev_f16) under a non-default MODE: each result rounds once in the
// round mode of its type (MODE[1:0] f32, MODE[3:2] f16/f64), denormals follow the type's field (MODE[5:4]
// f32, MODE[7:6] f16/f64), v_div_fmas scales by 2^+-64 (f32) or 2^+-128 (f64) before its single rounding.
// Every expected value was worked out by hand (the comment beside it says how). Before these MODE handlers
// every non-default case here was an Error. The last test checks each MODE handler bit for bit against the
// default handler on seeded random inputs, under a MODE that takes the MODE path with default semantics.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <random>

#include "tests/sim/ext_harness.hpp"

using namespace exttest;

namespace {

constexpr int kN = 0, kUp = 1, kDown = 2, kZero = 3;  // MODE round modes

// run_in with VCC set first (all lanes 1 or 0; v_div_fmas reads it).
uint64_t run_vcc(Arch arch, uint32_t mode, const std::string& insn, uint64_t a, uint64_t b, uint64_t c = 0, int vcc = 0) {
  return run_uniform_in_mode(arch, "  s_mov_b64 vcc, " + std::to_string(vcc ? -1 : 0) + "\n", mode, insn, a, b, c);
}

// Expected results by round mode (nearest, up, down, toward zero) of one instruction on one input set.
struct Case {
  const char* insn;
  uint64_t a, b, c;
  uint64_t want[4];
  int vcc = 0;
};

// f16 results and f32 ones compare the low dword (v9 is left 0 by 32-bit forms); f64 the whole v[8:9].
void check(const Case& k, int type /*0 f16, 1 f32, 2 f64*/) {
  for (Arch arch : kArchs)
    for (int rm = 0; rm < 4; ++rm) {
      INFO(cdnajit::arch_name(arch) << ": " << k.insn << ", round mode " << rm);
      const uint32_t mode = type == 1 ? mode_bits(rm, 0) : mode_bits(0, rm);
      CHECK(run_vcc(arch, mode, k.insn, k.a, k.b, k.c, k.vcc) == k.want[rm]);
    }
}

// Bit equality, except that two NaNs of the format compare equal: when two operands are NaN, which one
// the default handlers pass on is the host's (the C++ compiler may order a commutative product either
// way), not a modelled fact, so only "a NaN" is compared there.
bool same(uint64_t x, uint64_t y, int type) {
  if (type == 2) return x == y || (std::isnan(as_double(x)) && std::isnan(as_double(y)));
  const int w = type == 0 ? 16 : 32;
  for (int i = 0; i < 64; i += w) {
    const uint64_t m = (w == 16 ? 0xffffull : 0xffffffffull), a = (x >> i) & m, b = (y >> i) & m;
    const bool nan = w == 16 ? (a & 0x7fff) > 0x7c00 && (b & 0x7fff) > 0x7c00
                             : std::isnan(as_float(uint32_t(a))) && std::isnan(as_float(uint32_t(b)));
    if (a != b && !nan) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("v_div_fmas rounds once in the MODE's direction, after its VCC scaling", "[sim][mode][div]") {
  // VCC clear: a plain fma. fma(1 + 2^-23, 1.5, 0) = 1.5 + 2^-23 + 2^-24, a tie above the odd 0x3fc00001.
  check({"v_div_fmas_f32 v8, v2, v4, v6", 0x3f800001, 0x3fc00000, 0, {0x3fc00002, 0x3fc00002, 0x3fc00001, 0x3fc00001}}, 1);
  // f64: fma(1 + 2^-52, 1.5, 0) = 1.5 + 2^-52 + 2^-53, a tie above the odd 0x3ff8000000000001.
  check({"v_div_fmas_f64 v[8:9], v[2:3], v[4:5], v[6:7]", 0x3ff0000000000001, 0x3ff8000000000000, 0,
         {0x3ff8000000000002, 0x3ff8000000000002, 0x3ff8000000000001, 0x3ff8000000000001}},
        2);
  // VCC set, S2 = +0 (exponent below the bias): the fma is scaled by 2^-64 and lands among the denormals.
  // (1 + 3*2^-17) * 1.5*2^-70 * 2^-64 = 1.5*2^-134 + 4.5*2^-151 = 0xc000 + 1.125 units of 2^-149:
  // nearest, down and toward zero 0xc001, up 0xc002 (negated: down gives the larger magnitude).
  check({"v_div_fmas_f32 v8, v2, v4, v6", 0x3f8000c0, 0x1cc00000, 0, {0xc001, 0xc002, 0xc001, 0xc001}, 1}, 1);
  check({"v_div_fmas_f32 v8, -v2, v4, v6", 0x3f8000c0, 0x1cc00000, 0, {0x8000c001, 0x8000c001, 0x8000c002, 0x8000c001}, 1},
        1);
  // f64, VCC set: (1 + 3*2^-46) * 1.5*2^-900 * 2^-128 = 1.5*2^-1028 + 4.5*2^-1074 = 0x600000000000 + 4.5
  // units of 2^-1074: a tie, nearest even ...04, up ...05.
  check({"v_div_fmas_f64 v[8:9], v[2:3], v[4:5], v[6:7]", 0x3ff00000000000c0, 0x07b8000000000000, 0,
         {0x600000000004, 0x600000000005, 0x600000000004, 0x600000000004}, 1},
        2);
  // The denormal fields: the same f32 denormal result is flushed (sign kept) when MODE[5:4] flushes output.
  for (Arch arch : kArchs) {
    CHECK(run_vcc(arch, mode_bits(kUp, 0, 1), "v_div_fmas_f32 v8, v2, v4, v6", 0x3f8000c0, 0x1cc00000, 0, 1) == 0);
    CHECK(run_vcc(arch, mode_bits(kUp, 0, 1), "v_div_fmas_f32 v8, -v2, v4, v6", 0x3f8000c0, 0x1cc00000, 0, 1) == 0x80000000);
    // f64 under MODE[7:6] = 1 (flush out): the denormal above becomes +0; = 2 (flush in): a denormal
    // addend 2^-1074 is read as 0, so fma(1, 1, denorm) = 1 exactly even rounding up.
    CHECK(run_vcc(arch, mode_bits(0, kUp, 3, 1), "v_div_fmas_f64 v[8:9], v[2:3], v[4:5], v[6:7]", 0x3ff00000000000c0,
                 0x07b8000000000000, 0, 1) == 0);
    CHECK(run_vcc(arch, mode_bits(0, kUp, 3, 2), "v_div_fmas_f64 v[8:9], v[2:3], v[4:5], v[6:7]", 0x3ff0000000000000,
                 0x3ff0000000000000, 1) == 0x3ff0000000000000);
    CHECK(run_vcc(arch, mode_bits(0, kUp, 3, 3), "v_div_fmas_f64 v[8:9], v[2:3], v[4:5], v[6:7]", 0x3ff0000000000000,
                 0x3ff0000000000000, 1) == 0x3ff0000000000001);
  }
}

TEST_CASE("v_div_scale: exact scaling, rounded in the mode only when it overflows; denormal inputs per field",
          "[sim][mode][div]") {
  // S0 = S1 = 2^100 (denominator), S2 = 2^-120 (exponent field 7 <= 23): the pseudo-code scales S0 by 2^64.
  // 2^164 overflows: infinity rounding to nearest or up, the largest finite toward zero or down. VCC stays 0
  // (v9 = VCC bit of lane 0).
  check({"v_div_scale_f32 v8, vcc, v4, v4, v2\n  v_cndmask_b32_e64 v9, 0, 1, vcc", 0x03800000, 0x71800000, 0,
         {0x7f800000, 0x7f800000, 0x7f7fffff, 0x7f7fffff}},
        1);
  for (Arch arch : kArchs) {
    // A denormal denominator 2^-149 (S0 = S1) over a numerator 1: the exponent gap (127 >= 96) scales S0 by
    // 2^64, exactly: 2^-85 (0x15000000), also rounding up. Under MODE[5:4] = 2 (flush in) the denominator
    // reads as zero: the pseudo-code's NaN.
    const char* f32 = "v_div_scale_f32 v8, vcc, v4, v4, v2";
    CHECK(run_vcc(arch, mode_bits(kUp, 0, 3), f32, 0x3f800000, 1) == 0x15000000);
    CHECK(run_vcc(arch, mode_bits(kUp, 0, 2), f32, 0x3f800000, 1) == 0x7fc00000);
    // f64: a denormal denominator 2^-1074 (gap 1023 >= 768) is scaled by 2^128 to 2^-946 (0x04d0000000000000)
    // when MODE[7:6] keeps it, and read as zero (NaN result) when the field flushes inputs (0 or 2).
    const char* f64 = "v_div_scale_f64 v[8:9], vcc, v[4:5], v[4:5], v[2:3]";
    CHECK(run_vcc(arch, mode_bits(0, kDown, 3, 3), f64, 0x3ff0000000000000, 1) == 0x04d0000000000000);
    CHECK(run_vcc(arch, mode_bits(0, kN, 3, 2), f64, 0x3ff0000000000000, 1) == 0x7ff8000000000000);
    CHECK(run_vcc(arch, mode_bits(0, kN, 3, 0), f64, 0x3ff0000000000000, 1) == 0x7ff8000000000000);
  }
}

TEST_CASE("v_div_fixup under a directed mode follows the pseudo-code's special cases; denormals per field",
          "[sim][mode][div]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Numerator 2^-100, denominator 2^100 (exponent difference -200 < -150): the pseudo-code's "result
    // underflows" writes +0 in every mode, also rounding up (an IEEE division would give 2^-149 there).
    CHECK(run_vcc(arch, mode_bits(kUp, 0), "v_div_fixup_f32 v8, v6, v4, v2", 0x0d800000, 0x71800000, 0x3f800000) == 0);
    CHECK(run_vcc(arch, mode_bits(kDown, 0), "v_div_fixup_f32 v8, v6, v4, v2", 0x8d800000, 0x71800000, 0x3f800000) ==
          0x80000000);
    // Division by zero: +inf in every mode, also toward zero (the pseudo-code's infinity, exact in IEEE).
    CHECK(run_vcc(arch, mode_bits(kZero, 0), "v_div_fixup_f32 v8, v6, v4, v2", 0x3f800000, 0, 0x3f800000) == 0x7f800000);
    CHECK(run_vcc(arch, mode_bits(0, kZero), "v_div_fixup_f64 v[8:9], v[6:7], v[4:5], v[2:3]", 0x3ff0000000000000, 0,
                 0x3ff0000000000000) == 0x7ff0000000000000);
    // A NaN quotient with finite non-zero operands (an overflowed estimate): +inf (assumed, see the README)
    // rounding up, an Error toward zero, where the division sequence's estimate would not have overflowed.
    CHECK(run_vcc(arch, mode_bits(kUp, 0), "v_div_fixup_f32 v8, v6, v4, v2", 0x3f800000, 0x3f800000, 0x7fc00000) ==
          0x7f800000);
    CHECK_THROWS_WITH(run_vcc(arch, mode_bits(kZero, 0), "v_div_fixup_f32 v8, v6, v4, v2", 0x3f800000, 0x3f800000,
                             0x7fc00000),
                      Catch::Contains("NaN quotient"));
    // Otherwise the quotient S0 passes with the sign of S1 ^ S2: 2^-1074 / 1 with quotient 2^-1074 is kept
    // (MODE[7:6] = 2 flushes only inputs; the numerator then reads 0 and the pseudo-code gives +0),
    // flushed under 1.
    const char* f64 = "v_div_fixup_f64 v[8:9], v[6:7], v[4:5], v[2:3]";
    CHECK(run_vcc(arch, mode_bits(0, kUp, 3, 3), f64, 1, 0x3ff0000000000000, 1) == 1);
    CHECK(run_vcc(arch, mode_bits(0, kN, 3, 1), f64, 1, 0x3ff0000000000000, 1) == 0);
    CHECK(run_vcc(arch, mode_bits(0, kN, 3, 2), f64, 1, 0x3ff0000000000000, 1) == 0);
    // f16 and its legacy form: quotient 0x0001 (2^-24), denominator 1, numerator 0x0001, by MODE[7:6].
    for (const char* insn : {"v_div_fixup_f16 v8, v6, v4, v2", "v_div_fixup_legacy_f16 v8, v6, v4, v2"}) {
      INFO(insn);
      CHECK(run_vcc(arch, mode_bits(0, kUp, 3, 3), insn, 1, 0x3c00, 1) == 1);
      CHECK(run_vcc(arch, mode_bits(0, kN, 3, 1), insn, 1, 0x3c00, 1) == 0);
      CHECK(run_vcc(arch, mode_bits(0, kN, 3, 0), insn, 1, 0x3c00, 1) == 0);
      // Numerator -1, quotient 0x3c00: the sign of S1 ^ S2 makes it -1 in any mode.
      CHECK(run_vcc(arch, mode_bits(0, kZero), insn, 0xbc00, 0x3c00, 0x3c00) == 0xbc00);
    }
  }
}

TEST_CASE("f16 multiply-adds round in the f16 MODE direction with the default handlers' fusion", "[sim][mode][div]") {
  // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: the mads round the product first (up: 0x3c03, else 0x3c02), then add
  // -1 exactly: up 3*2^-10 = 0x1a00, else 2^-9 = 0x1800. The fused forms add -1 to the exact product:
  // 2^-9 + 2^-20, up 0x1801.
  const uint64_t mad[4] = {0x1800, 0x1a00, 0x1800, 0x1800}, fma[4] = {0x1800, 0x1801, 0x1800, 0x1800};
  check({"v_mad_f16 v8, v2, v4, v6", 0x3c01, 0x3c01, 0xbc00, {mad[0], mad[1], mad[2], mad[3]}}, 0);
  check({"v_mad_legacy_f16 v8, v2, v4, v6", 0x3c01, 0x3c01, 0xbc00, {mad[0], mad[1], mad[2], mad[3]}}, 0);
  check({"v_madak_f16 v8, v2, v4, 0xbc00", 0x3c01, 0x3c01, 0, {mad[0], mad[1], mad[2], mad[3]}}, 0);
  check({"v_madmk_f16 v8, v2, 0x3c01, v6", 0x3c01, 0, 0xbc00, {mad[0], mad[1], mad[2], mad[3]}}, 0);
  check({"v_mov_b32 v8, v6\n  v_mac_f16 v8, v2, v4", 0x3c01, 0x3c01, 0xbc00, {mad[0], mad[1], mad[2], mad[3]}}, 0);
  check({"v_fma_legacy_f16 v8, v2, v4, v6", 0x3c01, 0x3c01, 0xbc00, {fma[0], fma[1], fma[2], fma[3]}}, 0);
  // (1 + 2^-10) * 1.5 + 0 = 1.5 + 2^-10 + 2^-11, a tie above the odd 0x3e01: 0x3e02 nearest and up,
  // 0x3e01 down and toward zero.
  check({"v_mad_f16 v8, v2, v4, v6", 0x3c01, 0x3e00, 0, {0x3e02, 0x3e02, 0x3e01, 0x3e01}}, 0);
  check({"v_fma_legacy_f16 v8, v2, v4, v6", 0x3c01, 0x3e00, 0, {0x3e02, 0x3e02, 0x3e01, 0x3e01}}, 0);
  // v_pk_fmac_f16, fused per half: lo fma(1 + 2^-10, 1 + 2^-10, -1) as above; hi fma(1 + 2^-10, 1.5, 2^-24)
  // = 1.5 + 2^-10 + 2^-11 + 2^-24: 0x3e02 nearest and up, 0x3e01 down and toward zero.
  check({"v_mov_b32 v8, v6\n  v_pk_fmac_f16 v8, v2, v4", 0x3c013c01, 0x3e003c01, 0x0001bc00,
         {0x3e021800, 0x3e021801, 0x3e011800, 0x3e011800}},
        0);
  // v_subrev_f16 v8, v2, v4 = v4 - v2: 1 - (-1.25*2^-11) = 1 + 0.625 ulp: 0x3c01 nearest and up, else 0x3c00.
  check({"v_subrev_f16 v8, v2, v4", 0x9100, 0x3c00, 0, {0x3c01, 0x3c01, 0x3c00, 0x3c00}}, 0);
  // 1 - (-2^-24) = 1 + 2^-24: 0x3c01 only rounding up.
  check({"v_subrev_f16_e64 v8, v2, v4", 0x8001, 0x3c00, 0, {0x3c00, 0x3c01, 0x3c00, 0x3c00}}, 0);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Denormal inputs: 2^-24 * 1 + 1 rounding up is 0x3c01 when MODE[7:6] keeps it, 1 when it flushes inputs.
    CHECK(run_vcc(arch, mode_bits(0, kUp, 3, 3), "v_mad_f16 v8, v2, v4, v6", 1, 0x3c00, 0x3c00) == 0x3c01);
    CHECK(run_vcc(arch, mode_bits(0, kUp, 3, 2), "v_mad_f16 v8, v2, v4, v6", 1, 0x3c00, 0x3c00) == 0x3c00);
    CHECK(run_vcc(arch, mode_bits(0, kUp, 3, 0), "v_fma_legacy_f16 v8, v2, v4, v6", 1, 0x3c00, 0x3c00) == 0x3c00);
    // Denormal result 2^-23 - 2^-24 = 2^-24: kept under 3, flushed under 1 (flush out) and 0.
    CHECK(run_vcc(arch, mode_bits(0, kZero, 3, 3), "v_subrev_f16 v8, v2, v4", 1, 2) == 1);
    CHECK(run_vcc(arch, mode_bits(0, kZero, 3, 1), "v_subrev_f16 v8, v2, v4", 1, 2) == 0);
    CHECK(run_vcc(arch, mode_bits(0, kN, 3, 0), "v_mov_b32 v8, v6\n  v_pk_fmac_f16 v8, v2, v4", 0x00013c00, 0x3c000001,
                 0x00000000) == 0);
    // Overflow: 256 * 256 = 65536 > 65504: infinity (0x7c00) to nearest and up, the largest finite 0x7bff
    // toward zero.
    CHECK(run_vcc(arch, mode_bits(0, kN), "v_mad_f16 v8, v2, v4, v6", 0x5c00, 0x5c00, 0) == 0x7c00);
    CHECK(run_vcc(arch, mode_bits(0, kZero), "v_mad_f16 v8, v2, v4, v6", 0x5c00, 0x5c00, 0) == 0x7bff);
    // A mad whose rounded f16 product is a denormal under a field that flushes only inputs or only outputs:
    // whether the hardware flushes that intermediate is not published, so it is an Error, not a guess.
    CHECK_THROWS_WITH(run_vcc(arch, mode_bits(0, kN, 3, 1), "v_mad_f16 v8, v2, v4, v6", 0x0400, 0x3800, 0x3c00),
                      Catch::Contains("intermediate"));
  }
}

TEST_CASE("MODE handlers of the division helpers and f16 mads agree with the default handlers on random inputs",
          "[sim][mode][div]") {
  // A MODE that takes the MODE path (run_in_float_mode) with the default semantics for the instruction's
  // type: for f32 forms the f16/f64 denormal field flushes (MODE[7:6] = 0, which they do not read); for
  // f16/f64 forms the f32 round mode is toward +inf (MODE[1:0] = 1, which they do not read).
  uint64_t seed = 20261127;
  if (const char* s = std::getenv("CDNAJIT_TEST_SEED")) seed = std::strtoull(s, nullptr, 0);
  std::printf("test_mode_div agreement seed: %llu (CDNAJIT_TEST_SEED overrides)\n", (unsigned long long)seed);
  std::mt19937_64 g(seed);
  // The body sets VCC to the lane's parity for v_div_fmas; v_div_scale's VCC goes to v9 (f32) or a second run.
  struct Form {
    const char* insn;
    int type;       // 0 f16, 1 f32, 2 f64
    int kind = -1;  // the inputs' width when it is not the type's (values(): 1 for 32-bit packed f16)
  };
  const std::string odd = "  v_and_b32 v10, 1, v0\n  v_cmp_ne_u32 vcc, 0, v10\n";
  const Form forms[] = {
      {"v_div_scale_f32 v8, vcc, v2, v4, v6\n  v_cndmask_b32_e64 v9, 0, 1, vcc", 1},
      {"v_div_scale_f32 v8, vcc, v4, v4, v2\n  v_cndmask_b32_e64 v9, 0, 1, vcc", 1},
      {"v_div_scale_f64 v[8:9], vcc, v[2:3], v[4:5], v[6:7]", 2},
      {"v_div_scale_f64 v[8:9], vcc, v[2:3], v[4:5], v[6:7]\n  v_cndmask_b32_e64 v8, 0, 1, vcc\n  v_mov_b32 v9, 0", 2},
      {"v_div_fmas_f32 v8, v2, v4, v6", 1},
      {"v_div_fmas_f32 v8, -v2, |v4|, v6 mul:2", 1},
      {"v_div_fmas_f64 v[8:9], v[2:3], v[4:5], v[6:7]", 2},
      {"v_div_fixup_f32 v8, v2, v4, v6", 1},
      {"v_div_fixup_f64 v[8:9], v[2:3], v[4:5], v[6:7]", 2},
      {"v_div_fixup_f16 v8, v2, v4, v6", 0},
      {"v_div_fixup_legacy_f16 v8, v2, v4, v6", 0},
      {"v_mad_f16 v8, v2, v4, v6", 0},
      {"v_mad_f16 v8, -v2, v4, |v6| clamp", 0},
      {"v_mad_legacy_f16 v8, v2, v4, v6", 0},
      {"v_madak_f16 v8, v2, v4, 0x3c01", 0},
      {"v_madmk_f16 v8, v2, 0xb801, v4", 0},
      {"v_mov_b32 v8, v6\n  v_mac_f16 v8, v2, v4", 0},
      {"v_fma_legacy_f16 v8, v2, v4, v6", 0},
      {"v_mov_b32 v8, v6\n  v_pk_fmac_f16 v8, v2, v4", 0, 1},
      {"v_subrev_f16 v8, v2, v4", 0},
      {"v_subrev_f16_sdwa v8, v2, v4 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0", 0},
  };
  for (const Form& f : forms)
    for (Arch arch : kArchs)
      for (int rep = 0; rep < 3; ++rep) {
        const int kind = f.kind >= 0 ? f.kind : f.type;
        std::vector<uint64_t> a = values(g, kind, rep), b = values(g, kind, rep + 3), c = values(g, kind, rep + 5);
        const uint32_t moded = f.type == 1 ? mode_bits(0, 0, 3, 0) : mode_bits(kUp, 0, 3, 3);
        auto go = [&](uint32_t mode) {
          return run(arch, "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), " + std::to_string(mode) + "\n" + odd + f.insn + "\n",
                     a, b, c)
              .out;
        };
        INFO(cdnajit::arch_name(arch) << ": " << f.insn << ", seed " << seed);
        const std::vector<uint64_t> got = go(moded), want = go(mode_bits(0, 0, 3, 3));
        for (int l = 0; l < 64; ++l) {
          INFO("lane " << l << ": a 0x" << std::hex << a[l] << ", b 0x" << b[l] << ", c 0x" << c[l] << ": 0x" << got[l]
                        << " vs 0x" << want[l]);
          CHECK(same(got[l], want[l], f.type));
        }
      }
}
