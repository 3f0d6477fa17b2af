// MODE.FP_DENORM for the instructions whose denormal handling is special (runtime/sim/README.md,
// "MODE"): the f32 division helpers follow the f32 field like every f32 VALU operation; v_fma_mix*
// is refused under a flushing mode (it does flush on hardware, but which field governs its f16
// inputs is not published); v_dot2_f32_f16 on gfx950 keeps denormals in every mode, as measured on
// hardware in llvm/llvm-project PR #205101. Hand-computed bits; MODE set with s_setreg_imm32_b32
// (FP_DENORM f32 = MODE[5:4]: 0 flush in and out, 1 flush out, 2 flush in, 3 keep).
#include <catch2/catch.hpp>

#include "tests/sim/ext_harness.hpp"

using namespace exttest;

namespace {

std::string set_f32_denorm(int field) { return "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), " + std::to_string(field) + "\n"; }

// Lane 0's v8 after `body` with v2 = a, v4 = b, v6 = c on every lane.
uint32_t one(Arch arch, const std::string& body, uint32_t a, uint32_t b, uint32_t c) {
  return uint32_t(run(arch, body, std::vector<uint64_t>(64, a), std::vector<uint64_t>(64, b), std::vector<uint64_t>(64, c)).out[0]);
}

}  // namespace

TEST_CASE("v_div_fmas_f32 / v_div_fixup_f32 follow the f32 denormal mode", "[sim][mode][denorm]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // v_div_fmas_f32 with VCC = 0 is a plain fma.
    const std::string fmas = "  s_mov_b64 vcc, 0\n  v_div_fmas_f32 v8, v2, v4, v6\n";
    // Denormal input: 2^-127 * 2^100 + 0 = 2^-27 (normal), or 0 when inputs are flushed.
    const uint32_t tiny = 0x00400000u, two100 = 0x71800000u, want_in = 0x32000000u;
    CHECK(one(arch, set_f32_denorm(3) + fmas, tiny, two100, 0) == want_in);
    CHECK(one(arch, set_f32_denorm(1) + fmas, tiny, two100, 0) == want_in);
    CHECK(one(arch, set_f32_denorm(2) + fmas, tiny, two100, 0) == 0u);
    CHECK(one(arch, set_f32_denorm(0) + fmas, tiny, two100, 0) == 0u);
    // Denormal result: 2^-100 * 2^-30 = 2^-130 (0x00080000 = 2^19 * 2^-149), or 0 when outputs are flushed.
    const uint32_t m100 = 0x0d800000u, m30 = 0x30800000u;
    CHECK(one(arch, set_f32_denorm(3) + fmas, m100, m30, 0) == 0x00080000u);
    CHECK(one(arch, set_f32_denorm(2) + fmas, m100, m30, 0) == 0x00080000u);
    CHECK(one(arch, set_f32_denorm(1) + fmas, m100, m30, 0) == 0u);
    CHECK(one(arch, set_f32_denorm(0) + fmas, m100, m30, 0) == 0u);
    // v_div_fixup_f32 passes the quotient estimate through (signed by the operands): a denormal
    // estimate 0x80000001 with 1.0 / 1.0 gives 0x00000001 kept, 0 when flushed in or out.
    const std::string fixup = "  v_div_fixup_f32 v8, v2, v4, v6\n";
    CHECK(one(arch, set_f32_denorm(3) + fixup, 0x80000001u, 0x3f800000u, 0x3f800000u) == 0x00000001u);
    CHECK(one(arch, set_f32_denorm(2) + fixup, 0x80000001u, 0x3f800000u, 0x3f800000u) == 0u);
    CHECK(one(arch, set_f32_denorm(1) + fixup, 0x80000001u, 0x3f800000u, 0x3f800000u) == 0u);
    // v_div_scale_f32 with a denormal denominator: scaled by 2^64 when kept; read as 0 (a NaN
    // result) when inputs are flushed.
    const std::string scale = "  v_div_scale_f32 v8, vcc, v2, v2, v4\n";
    CHECK(one(arch, set_f32_denorm(3) + scale, 0x00000001u, 0x3f800000u, 0) == 0x15000000u);  // 2^-149 * 2^64 = 2^-85
    CHECK(std::isnan(as_float(one(arch, set_f32_denorm(0) + scale, 0x00000001u, 0x3f800000u, 0))));
  }
}

TEST_CASE("v_fma_mix_f32 under a flushing denormal mode is refused, not guessed", "[sim][mode][denorm]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    const std::string mix = "  v_fma_mix_f32 v8, v2, v4, v6 op_sel_hi:[1,1,0]\n";
    // Keep mode: -2^-24 (f16 0x8001) * 2^-14 (f16 0x0400) + 0 = -2^-38 = 0xac800000.
    CHECK(one(arch, set_f32_denorm(3) + mix, 0x8001u, 0x0400u, 0) == 0xac800000u);
    CHECK_THROWS_WITH(one(arch, set_f32_denorm(0) + mix, 0x8001u, 0x0400u, 0), Catch::Contains("v_fma_mix"));
  }
}

TEST_CASE("gfx950 v_dot2_f32_f16 keeps f16 denormal inputs in every f32 denormal mode", "[sim][mode][denorm]") {
  // PR #205101's hardware run on gfx950: a.x = 0x8001, b.x = 0x0400 gives 0xac800000 with and
  // without denormal flushing.
  for (int field : {3, 0, 1, 2}) {
    INFO("FP_DENORM f32 = " << field);
    CHECK(one(Arch::gfx950, set_f32_denorm(field) + "  v_dot2_f32_f16 v8, v2, v4, v6\n", 0x8001u, 0x0400u, 0) == 0xac800000u);
  }
}

TEST_CASE("f32/f64 conversions with an f32 denormal under a flushing f32 field are refused, not guessed",
          "[sim][mode][denorm]") {
  auto out0 = [](Arch arch, const std::string& body, uint64_t a) {
    return run(arch, body, std::vector<uint64_t>(64, a), std::vector<uint64_t>(64, 0), std::vector<uint64_t>(64, 0)).out[0];
  };
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    const std::string up = "  v_cvt_f64_f32 v[8:9], v2\n", down = "  v_cvt_f32_f64 v8, v[2:3]\n";
    // Keep mode: 2^-149 (f32 0x00000001) widens exactly to the double 2^-149; 2^-140 narrows to the
    // f32 denormal 0x00000200.
    CHECK(out0(arch, set_f32_denorm(3) + up, 0x00000001u) == dbits(0x1p-149));
    CHECK(uint32_t(out0(arch, set_f32_denorm(3) + down, dbits(0x1p-140))) == 0x00000200u);
    // Flushing f32 field, f64 field keeping: normal values still convert ...
    CHECK(out0(arch, set_f32_denorm(0) + up, 0x3f800000u) == dbits(1.0));
    CHECK(uint32_t(out0(arch, set_f32_denorm(0) + down, dbits(1.0))) == 0x3f800000u);
    // ... an f32 denormal on the f32 side is an Error naming the undocumented choice.
    for (int field : {0, 1, 2}) {
      CHECK_THROWS_WITH(out0(arch, set_f32_denorm(field) + up, 0x00000001u), Catch::Contains("which denormal field governs"));
      CHECK_THROWS_WITH(out0(arch, set_f32_denorm(field) + down, dbits(0x1p-140)), Catch::Contains("which denormal field governs"));
    }
  }
}
