// Packed f16 / f32 math (v_pk_add/mul/fma_f16, v_pk_add/mul/fma_f32) under a non-default MODE: each
// half (f16) or dword (f32) is the scalar IEEE operation rounded in the MODE's direction (MODE[3:2] for
// f16, MODE[1:0] for f32) with denormals per the f16/f64 field (MODE[7:6]) or the f32 field (MODE[5:4]),
// on the operands the VOP3P op_sel / op_sel_hi / neg_lo / neg_hi fields select. Every expected value was
// worked out by hand (the comment beside it says how); the nearest-even column runs the default handlers
// and shows the directed results differ from it. Before the MODE handlers for these (ops_rounding.cpp)
// every non-default case here was an Error.
#include <catch2/catch.hpp>

#include "tests/sim/ext_harness.hpp"

using namespace exttest;

namespace {

// One instruction on one set of inputs, the expected results by round mode: nearest even, toward +inf, toward zero.
struct Case {
  const char* insn;
  uint64_t a, b, c;
  uint64_t nearest, up, toward_zero;
};

void check_round_modes(const Case& k, bool f16) {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch) << ": " << k.insn);
    auto mode = [f16](int rm) { return f16 ? mode_bits(0, rm) : mode_bits(rm, 0); };
    const uint64_t mask = f16 ? 0xffffffffull : ~0ull;  // packed f16 writes one dword
    CHECK((run_in(arch, mode(0), k.insn, k.a, k.b, k.c) & mask) == k.nearest);
    CHECK((run_in(arch, mode(1), k.insn, k.a, k.b, k.c) & mask) == k.up);
    CHECK((run_in(arch, mode(3), k.insn, k.a, k.b, k.c) & mask) == k.toward_zero);
  }
}

}  // namespace

TEST_CASE("packed f16 add/mul/fma round in the MODE's f16 direction", "[sim][mode][packed]") {
  // f16 ulp of [1, 2) is 2^-10. Low half chosen so toward +inf differs from nearest, high half so toward
  // zero differs.
  // add: lo 1 + 2^-24 (denormal 0x0001) -> n 0x3c00, up 0x3c01, z 0x3c00;
  //      hi 1 + 1.25*2^-11 (0x1100, 0.625 ulp) -> n 0x3c01, up 0x3c01, z 0x3c00.
  check_round_modes({"v_pk_add_f16 v8, v2, v4", 0x3c003c00, 0x11000001, 0, 0x3c013c00, 0x3c013c01, 0x3c003c00}, true);
  // mul: lo (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 -> n 0x3c02, up 0x3c03, z 0x3c02;
  //      hi (1 + 2^-10) * 1.5 = 1.5 + 2^-10 + 2^-11 (a tie above the odd 0x3e01) -> n 0x3e02, up 0x3e02, z 0x3e01.
  check_round_modes({"v_pk_mul_f16 v8, v2, v4", 0x3c013c01, 0x3e003c01, 0, 0x3e023c02, 0x3e023c03, 0x3e013c02}, true);
  // fma (one rounding): lo fma(1 + 2^-10, 1 + 2^-10, -1) = 2^-9 + 2^-20 (a tie above the even 0x1800)
  //      -> n 0x1800, up 0x1801, z 0x1800;
  //      hi fma(1 + 2^-10, 1.5, 2^-24) = 1.5 + 2^-10 + 2^-11 + 2^-24 -> n 0x3e02, up 0x3e02, z 0x3e01.
  check_round_modes({"v_pk_fma_f16 v8, v2, v4, v6", 0x3c013c01, 0x3e003c01, 0x0001bc00, 0x3e021800, 0x3e021801, 0x3e011800},
                    true);
}

TEST_CASE("packed f32 add/mul/fma round in the MODE's f32 direction", "[sim][mode][packed]") {
  // v[2:3] = a, v[4:5] = b, v[6:7] = c: the low dword of each 64-bit value is the low element.
  // add: lo 1 + 2^-24 (a tie above the even 1.0) -> n 0x3f800000, up 0x3f800001, z 0x3f800000;
  //      hi 1 + 1.5*2^-24 -> n 0x3f800001, up 0x3f800001, z 0x3f800000.
  check_round_modes({"v_pk_add_f32 v[8:9], v[2:3], v[4:5]", 0x3f8000003f800000, 0x33c0000033800000, 0,
                     0x3f8000013f800000, 0x3f8000013f800001, 0x3f8000003f800000},
                    false);
  // mul: lo (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 -> n 0x3f800002, up 0x3f800003, z 0x3f800002;
  //      hi (1 + 2^-23) * 1.5 = 1.5 + 2^-23 + 2^-24 (a tie above the odd 0x3fc00001) -> n 0x3fc00002, up 0x3fc00002,
  //      z 0x3fc00001.
  check_round_modes({"v_pk_mul_f32 v[8:9], v[2:3], v[4:5]", 0x3f8000013f800001, 0x3fc000003f800001, 0,
                     0x3fc000023f800002, 0x3fc000023f800003, 0x3fc000013f800002},
                    false);
  // fma: lo fma(1 + 2^-23, 1 + 2^-23, -1) = 2^-22 + 2^-46 (a tie above the even 2^-22)
  //      -> n 0x34800000, up 0x34800001, z 0x34800000;
  //      hi fma(1 + 2^-23, 1.5, 2^-149) = 1.5 + 2^-23 + 2^-24 + 2^-149 -> n 0x3fc00002, up 0x3fc00002, z 0x3fc00001.
  check_round_modes({"v_pk_fma_f32 v[8:9], v[2:3], v[4:5], v[6:7]", 0x3f8000013f800001, 0x3fc000003f800001,
                     0x00000001bf800000, 0x3fc0000234800000, 0x3fc0000234800001, 0x3fc0000134800000},
                    false);
}

TEST_CASE("packed math under a non-default MODE: op_sel, op_sel_hi and neg_lo select the operands", "[sim][mode][packed]") {
  // f16: lo = a.lo + -(b.hi), hi = a.hi + b.lo with a = {1, 1}, b = {lo 2^-24, hi 1.25*2^-11}.
  // lo 1 - 2^-11 - 2^-13 (ulp below 1 is 2^-11) -> n 0x3bff, up 0x3bff, z 0x3bfe; hi 1 + 2^-24 -> n 0x3c00, up 0x3c01,
  // z 0x3c00. (Unselected, the same inputs give up 0x3c013c01, z 0x3c003c00: see the test above.)
  check_round_modes({"v_pk_add_f16 v8, v2, v4 op_sel:[0,1] op_sel_hi:[1,0] neg_lo:[0,1]", 0x3c003c00, 0x11000001, 0,
                     0x3c003bff, 0x3c013bff, 0x3c003bfe},
                    true);
  // f32: lo = -(a.lo) * b.hi, hi = a.hi * b.lo with a = {1 + 2^-23, 1 + 2^-23}, b = {lo 1 + 2^-23, hi 1.5}.
  // lo -(1.5 + 2^-23 + 2^-24) -> n 0xbfc00002, up 0xbfc00001, z 0xbfc00001;
  // hi 1 + 2^-22 + 2^-46 -> n 0x3f800002, up 0x3f800003, z 0x3f800002.
  check_round_modes({"v_pk_mul_f32 v[8:9], v[2:3], v[4:5] op_sel:[0,1] op_sel_hi:[1,0] neg_lo:[1,0]", 0x3f8000013f800001,
                     0x3fc000003f800001, 0, 0x3f800002bfc00002, 0x3f800003bfc00001, 0x3f800002bfc00001},
                    false);
}

TEST_CASE("packed math under a non-default MODE: f16 and f32 denormal fields", "[sim][mode][packed]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // f16 mul, round nearest: lo 2^-24 (0x0001) * 2^13 (0x7000) = 2^-11 (0x1000), a denormal input;
    // hi 2^-14 (0x0400) * 0.5 (0x3800) = 2^-15 (0x0200), a denormal result.
    const std::string mul16 = "v_pk_mul_f16 v8, v2, v4";
    const uint64_t a16 = 0x04000001, b16 = 0x38007000;
    CHECK(run_in(arch, mode_bits(0, 0, 3, 3), mul16, a16, b16) == 0x02001000u);  // kept (default handler)
    CHECK(run_in(arch, mode_bits(0, 0, 3, 0), mul16, a16, b16) == 0u);           // inputs and outputs flushed
    CHECK(run_in(arch, mode_bits(0, 0, 3, 1), mul16, a16, b16) == 0x00001000u);  // outputs flushed
    CHECK(run_in(arch, mode_bits(0, 0, 3, 2), mul16, a16, b16) == 0x02000000u);  // inputs flushed
    // Flushed to a zero of the operand's sign: -2^-24 * 2^13 with inputs flushed is -0 (0x8000) in the low half.
    CHECK(run_in(arch, mode_bits(0, 0, 3, 2), mul16, 0x04008001, b16) == 0x02008000u);
    // f16 fma with round toward +inf and f16 flush: fma(2^-24, 1, 1) -> the denormal addend is flushed, 1.0
    // (kept: 0x3c01); hi fma(1, 1, 2^-24) likewise.
    CHECK(run_in(arch, mode_bits(0, 1, 3, 0), "v_pk_fma_f16 v8, v2, v4, v6", 0x3c000001, 0x3c003c00, 0x00013c00) ==
          0x3c003c00u);
    CHECK(run_in(arch, mode_bits(0, 1, 3, 3), "v_pk_fma_f16 v8, v2, v4, v6", 0x3c000001, 0x3c003c00, 0x00013c00) ==
          0x3c013c01u);
    // f32 add with round toward +inf: lo 1 + 2^-149 (a denormal) -> 0x3f800000 when f32 inputs flush,
    // 0x3f800001 when kept; hi 1 + 2^-24 -> 0x3f800001 either way.
    const std::string add32 = "v_pk_add_f32 v[8:9], v[2:3], v[4:5]";
    CHECK(run_in(arch, mode_bits(1, 0, 0, 3), add32, 0x3f8000003f800000, 0x3380000000000001) == 0x3f8000013f800000u);
    CHECK(run_in(arch, mode_bits(1, 0, 3, 3), add32, 0x3f8000003f800000, 0x3380000000000001) == 0x3f8000013f800001u);
  }
}

// Cross-check of the MODE handlers against the default ones where they must agree: round to nearest even
// with f32 denormals kept and the f16/f64 field set to "flush inputs" (a non-default MODE, so the MODE
// handlers run) on random operands without f16 denormals, with op_sel / op_sel_hi / neg_lo / neg_hi
// variations and an inline constant. Seed: CDNAJIT_TEST_SEED (printed).
TEST_CASE("packed MODE handlers agree with the default handlers at nearest even", "[sim][mode][packed]") {
  std::mt19937_64 g(seed());
  auto no_f16_denormal = [](uint64_t v) {
    for (int s = 0; s < 64; s += 16)
      if (((v >> s) & 0x7c00) == 0 && ((v >> s) & 0x3ff) != 0) v &= ~(0x3ffull << s);  // keep the sign and a zero
    return v;
  };
  const char* insns[] = {
      "v_pk_add_f16 v8, v2, v4",
      "v_pk_mul_f16 v8, v2, v4 op_sel:[1,0] op_sel_hi:[0,1] neg_hi:[0,1]",
      "v_pk_fma_f16 v8, v2, v4, v6 op_sel:[0,1,1] op_sel_hi:[1,0,0] neg_lo:[1,0,1]",
      "v_pk_fma_f16 v8, v2, 1.0, v6 clamp",
      "v_pk_add_f32 v[8:9], v[2:3], v[4:5] op_sel:[1,0] op_sel_hi:[0,1]",
      "v_pk_mul_f32 v[8:9], v[2:3], v[4:5] neg_lo:[0,1] neg_hi:[1,0]",
      "v_pk_fma_f32 v[8:9], v[2:3], v[4:5], v[6:7] op_sel:[0,0,1] op_sel_hi:[1,1,0] neg_hi:[0,0,1]",
  };
  for (Arch arch : kArchs) {
    for (const char* insn : insns) {
      INFO(cdnajit::arch_name(arch) << ": " << insn);
      const bool f16 = std::string(insn).find("_f16") != std::string::npos;
      std::vector<uint64_t> in[3];
      for (int i = 0; i < 3; ++i) {
        auto lo = values(g, f16 ? 0 : 1, i), hi = values(g, f16 ? 0 : 1, i + 3);
        in[i].resize(64);
        for (int l = 0; l < 64; ++l) {
          const int w = f16 ? 16 : 32;
          in[i][l] = lo[l] | hi[l] << w;
          if (f16) in[i][l] = no_f16_denormal(in[i][l]);
        }
      }
      auto body = [&](uint32_t mode) {
        return "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), " + std::to_string(mode) + "\n  " + insn + "\n";
      };
      Run def = run(arch, body(mode_bits(0, 0, 3, 3)), in[0], in[1], in[2]);
      Run moded = run(arch, body(mode_bits(0, 0, 3, 2)), in[0], in[1], in[2]);
      for (int l = 0; l < 64; ++l) {
        INFO("lane " << l << std::hex << " a 0x" << in[0][l] << " b 0x" << in[1][l] << " c 0x" << in[2][l]);
        CHECK(moded.out[l] == def.out[l]);
      }
    }
  }
}
