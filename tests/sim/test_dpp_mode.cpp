// DPP forms of the MODE handlers (ops_rounding.cpp) under a non-default round mode: src0 is the
// DPP-permuted source (dpp_run, ops_dpp.cpp), the lanes DPP does not write keep their destination, and
// each result is rounded in the MODE's direction. Expected bits worked out by hand beside each case;
// the nearest-even run uses the default handlers. Before, every DPP form under a non-default MODE was an Error.
#include <catch2/catch.hpp>

#include "tests/sim/ext_harness.hpp"

using namespace exttest;

namespace {

// MODE[7:0] = f32 round [1:0], f16/f64 round [3:2], all denormals kept.
std::string set_mode(int round32, int round16) {
  return "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), " + std::to_string(round32 | round16 << 2 | 0xf0) + "\n";
}

// Inputs alternating by lane parity.
std::vector<uint64_t> alternating(uint64_t even, uint64_t odd) {
  std::vector<uint64_t> v(64);
  for (int l = 0; l < 64; ++l) v[l] = l % 2 ? odd : even;
  return v;
}

}  // namespace

TEST_CASE("DPP forms under a non-default MODE round on the permuted source", "[sim][mode][dpp]") {
  const std::vector<uint64_t> none(64);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // v_add_f32 with quad_perm:[1,0,3,2] (neighbours swap): src0 of an even lane is the odd lane's 2^-24,
    // of an odd lane the even lane's 2.0; src1 = 1.0. Even lanes: 1 + 2^-24 (a tie above the even 1.0)
    // -> nearest 0x3f800000, toward +inf 0x3f800001; odd lanes 3.0 (0x40400000) in both.
    const std::string add = "  v_add_f32_dpp v8, v2, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n";
    const auto a = alternating(0x40000000, 0x33800000), one = std::vector<uint64_t>(64, 0x3f800000);
    for (int rm : {0, 1}) {
      INFO("f32 round mode " << rm);
      Run r = run(arch, set_mode(rm, 0) + add, a, one, none);
      for (int l = 0; l < 64; ++l) {
        INFO("lane " << l);
        CHECK(r.out[l] == (l % 2 ? 0x40400000u : rm == 1 ? 0x3f800001u : 0x3f800000u));
      }
    }
    // v_mul_f32 with row_shr:1 (no bound_ctrl): lane l reads lane l-1 of its row; the first lane of each
    // row has no source and keeps v8. src0 = 1 on even lanes, 1 + 2^-23 on odd ones; src1 = 1.5.
    // Even lanes (not a row's first) get (1 + 2^-23) * 1.5 = 1.5 + 2^-23 + 2^-24 (a tie above the odd
    // 0x3fc00001) -> nearest 0x3fc00002, toward zero 0x3fc00001; odd lanes 1.5 (0x3fc00000).
    const std::string mul = "  v_mov_b32 v8, 0x12345678\n  v_mul_f32_dpp v8, v2, v4 row_shr:1 row_mask:0xf bank_mask:0xf\n";
    const auto m = alternating(0x3f800000, 0x3f800001), b = std::vector<uint64_t>(64, 0x3fc00000);
    for (int rm : {0, 3}) {
      INFO("f32 round mode " << rm);
      Run r = run(arch, set_mode(rm, 0) + mul, m, b, none);
      for (int l = 0; l < 64; ++l) {
        INFO("lane " << l);
        const uint64_t want = l % 16 == 0 ? 0x12345678u : l % 2 ? 0x3fc00000u : rm == 3 ? 0x3fc00001u : 0x3fc00002u;
        CHECK(r.out[l] == want);
      }
    }
    // v_add_f16 with quad_perm:[1,0,3,2] under the f16 round mode: even lanes 1.0h + 2^-24 (0x0001) ->
    // nearest 0x3c00, toward +inf 0x3c01; odd lanes 2.0h + 1.0h = 3.0h (0x4200). The whole 32-bit v8 is
    // checked: gfx9 writes the 16-bit result of v_add_f16 zero-extended, so the 0xdead left in v8's high
    // half must be gone (LLVM 22 GCNSubtarget::zeroesHigh16BitsOfDest lists V_ADD_F16_e32/e64 as zeroing
    // the high 16 bits up to GFX9, "derived from experimentation"; the CDNA3 guide's pseudo-code names only
    // D.f16; the DPP form is the e32 encoding with a DPP word). Round mode 0 runs the default handler, 1 the
    // MODE handler: both must zero it. v9 stays 0.
    const std::string add16 = "  v_mov_b32 v8, 0xdead0000\n"
                              "  v_add_f16_dpp v8, v2, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n";
    const auto h = alternating(0x4000, 0x0001), one16 = std::vector<uint64_t>(64, 0x3c00);
    for (int rm : {0, 1}) {
      INFO("f16 round mode " << rm);
      Run r = run(arch, set_mode(0, rm) + add16, h, one16, none);
      for (int l = 0; l < 64; ++l) {
        INFO("lane " << l);
        CHECK(r.out[l] == (l % 2 ? 0x00004200u : rm == 1 ? 0x00003c01u : 0x00003c00u));
      }
    }
  }
}
