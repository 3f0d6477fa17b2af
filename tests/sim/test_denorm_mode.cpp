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

TEST_CASE("v_cvt_f32_f64 under a directed round mode: rounded when both round fields agree, refused when they differ",
          "[sim][mode][denorm]") {
  auto out0 = [](Arch arch, const std::string& body, uint64_t a) {
    return uint32_t(run(arch, body, std::vector<uint64_t>(64, a), std::vector<uint64_t>(64, 0), std::vector<uint64_t>(64, 0)).out[0]);
  };
  auto round_fields = [](int f32, int f16_64) {
    return "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), " + std::to_string(f32 | f16_64 << 2) + "\n";
  };
  const std::string down = "  v_cvt_f32_f64 v8, v[2:3]\n";
  // 1 + 2^-24 + 2^-30 lies between the f32 values 1 (0x3f800000) and 1 + 2^-23 (0x3f800001), just above
  // their midpoint 1 + 2^-24 (nearest: up); -(1 + 2^-24 + 2^-30) likewise on the negative side.
  const uint64_t pos = dbits(1.0 + 0x1p-24 + 0x1p-30), neg = dbits(-(1.0 + 0x1p-24 + 0x1p-30));
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Equal fields: each direction rounds as IEEE says under either reading of which field governs.
    CHECK(out0(arch, round_fields(0, 0) + down, pos) == 0x3f800001u);
    CHECK(out0(arch, round_fields(1, 1) + down, pos) == 0x3f800001u);
    CHECK(out0(arch, round_fields(2, 2) + down, pos) == 0x3f800000u);
    CHECK(out0(arch, round_fields(3, 3) + down, pos) == 0x3f800000u);
    CHECK(out0(arch, round_fields(1, 1) + down, neg) == 0xbf800000u);
    CHECK(out0(arch, round_fields(2, 2) + down, neg) == 0xbf800001u);
    // Different fields: LLVM 22's lowering (MODE[3:2]) and the result's precision (MODE[1:0]) disagree.
    for (auto [f32, f16_64] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{3, 2}})
      CHECK_THROWS_WITH(out0(arch, round_fields(f32, f16_64) + down, pos), Catch::Contains("which one rounds v_cvt_f32_f64"));
  }
}

TEST_CASE("v_cube*_f32 and gfx950 v_minimum3/maximum3_f32 follow the f32 denormal field", "[sim][mode][denorm]") {
  // Hand-computed; fields: 0 flush in and out, 1 flush out, 2 flush in, 3 keep.
  const uint32_t d127 = 0x00400000u, d128 = 0x00200000u;  // 2^-127 and 2^-128, f32 denormals
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    const std::string ma = "  v_cubema_f32 v8, v2, v4, v6\n", sc = "  v_cubesc_f32 v8, v2, v4, v6\n";
    // cubema(x = 2^-127, 0, 0): x is the major axis, 2x = 2^-126 (normal); flushed in, x = 0, z is major, 0.
    const uint32_t want_ma[4] = {0u, 0x00800000u, 0u, 0x00800000u};
    // cubema(x = 2^-128, 0, 0): 2x = 2^-127 is a denormal result, flushed by fields 0 and 1.
    const uint32_t want_ma_out[4] = {0u, 0u, 0u, 0x00400000u};
    // cubesc(x = 2^-127, 0, 0): axis x, x >= 0: -z = -0; flushed in: axis z, z >= 0: x = +0.
    const uint32_t want_sc[4] = {0u, 0x80000000u, 0u, 0x80000000u};
    for (int f = 0; f < 4; ++f) {
      INFO("f32 denormal field " << f);
      CHECK(one(arch, set_f32_denorm(f) + ma, d127, 0, 0) == want_ma[f]);
      CHECK(one(arch, set_f32_denorm(f) + ma, d128, 0, 0) == want_ma_out[f]);
      CHECK(one(arch, set_f32_denorm(f) + sc, d127, 0, 0) == want_sc[f]);
    }
  }
  // minimum3(-2^-127, 1, 2) = -2^-127 kept, -0 flushed (in or out); maximum3(2^-127, -1, -2) likewise +0.
  const uint32_t want_min[4] = {0x80000000u, 0x80000000u, 0x80000000u, 0x80400000u};
  const uint32_t want_max[4] = {0u, 0u, 0u, d127};
  for (int f = 0; f < 4; ++f) {
    INFO("f32 denormal field " << f);
    CHECK(one(Arch::gfx950, set_f32_denorm(f) + "  v_minimum3_f32 v8, v2, v4, v6\n", 0x80400000u, 0x3f800000u, 0x40000000u) == want_min[f]);
    CHECK(one(Arch::gfx950, set_f32_denorm(f) + "  v_maximum3_f32 v8, v2, v4, v6\n", d127, 0xbf800000u, 0xc0000000u) == want_max[f]);
  }
}

TEST_CASE("v_cubema_f32 overflow rounds in the f32 round mode; gfx950 v_cvt_f32_bf16 under MODE", "[sim][mode][denorm]") {
  auto round_f32 = [](int m) { return "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), " + std::to_string(m) + "\n"; };
  const std::string ma = "  v_cubema_f32 v8, v2, v4, v6\n";
  // 2 * +-FLT_MAX overflows: nearest even and the infinity's own direction give +-inf, the others +-FLT_MAX.
  const uint32_t want_pos[4] = {0x7f800000u, 0x7f800000u, 0x7f7fffffu, 0x7f7fffffu};
  const uint32_t want_neg[4] = {0xff800000u, 0xff7fffffu, 0xff800000u, 0xff7fffffu};
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    for (int m = 0; m < 4; ++m) {
      INFO("f32 round mode " << m);
      CHECK(one(arch, round_f32(m) + ma, 0x7f7fffffu, 0, 0) == want_pos[m]);
      CHECK(one(arch, round_f32(m) + ma, 0xff7fffffu, 0, 0) == want_neg[m]);
      CHECK(one(arch, round_f32(m) + ma, 0x3fc00000u, 0, 0) == 0x40400000u);  // 2 * 1.5, exact in every mode
    }
  }
  // v_cvt_f32_bf16: bf16 1.0 (0x3f80) is 1.0f whatever the f32 denormal field or round mode says (a directed
  // round mode used to be the MODE Error).
  const std::string cvt = "  v_cvt_f32_bf16 v8, v2\n";
  for (int f = 0; f < 4; ++f) CHECK(one(Arch::gfx950, set_f32_denorm(f) + cvt, 0x3f80u, 0, 0) == 0x3f800000u);
  for (int m = 1; m < 4; ++m) CHECK(one(Arch::gfx950, round_f32(m) + cvt, 0xbfc0u, 0, 0) == 0xbfc00000u);
  // A bf16 denormal (0x0040 = 2^-127) widens to the f32 denormal 0x00400000 while nothing flushes; under a
  // flushing field which field applies is not published: an Error.
  CHECK(one(Arch::gfx950, set_f32_denorm(3) + cvt, 0x0040u, 0, 0) == 0x00400000u);
  CHECK_THROWS_WITH(one(Arch::gfx950, set_f32_denorm(0) + cvt, 0x0040u, 0, 0), Catch::Contains("bf16 denormal"));
}
