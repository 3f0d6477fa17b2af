// DPP with row_newbcast and DP ALU DPP (the DPP forms of VOP1/VOP2 instructions with a 64-bit VGPR
// operand, gfx90a and later): row_newbcast:N gives every lane of a row the value of lane N of that row
// (LLVM 22 AMDGPUModifierSyntax.rst, dpp32_ctrl and dpp64_ctrl); a 64-bit src0 moves as one value per
// lane; row/bank masks and bound_ctrl act as for 32-bit DPP; a control other than row_newbcast on a 64-bit
// instruction is an Error (LLVM accepts nothing else there). Expected bits worked out by hand beside each
// case. Before, every row_newbcast form stopped as not implemented, and a 64-bit src0 was permuted as one dword.
#include <catch2/catch.hpp>

#include "tests/sim/ext_harness.hpp"

using namespace exttest;

namespace {

// Lane l's 64-bit input: distinct dwords per lane, so a dword taken from the wrong lane or half shows.
uint64_t tagged(int l) { return uint64_t(0xa0000000u + uint32_t(l)) << 32 | (0x50000000u + uint32_t(l)); }

template <class F>
std::vector<uint64_t> per_lane(F f) {
  std::vector<uint64_t> v(64);
  for (int l = 0; l < 64; ++l) v[l] = f(l);
  return v;
}

const std::vector<uint64_t> kZero(64);

// Checks every lane's {v9, v8} against want(l).
template <class F>
void check_lanes(const Run& r, F want) {
  for (int l = 0; l < 64; ++l) {
    INFO("lane " << l);
    CHECK(r.out[l] == want(l));
  }
}

}  // namespace

TEST_CASE("v_mov_b64_dpp row_newbcast moves lane N of each row, both dwords", "[sim][dpp]") {
  const auto a = per_lane(tagged);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    for (int n : {0, 5, 15}) {
      INFO("row_newbcast:" << n);
      Run r = run(arch, "  v_mov_b64_dpp v[8:9], v[2:3] row_newbcast:" + std::to_string(n) + " row_mask:0xf bank_mask:0xf\n",
                  a, kZero, kZero);
      check_lanes(r, [&](int l) { return tagged((l & ~15) + n); });
    }
    // Rows 0 and 2 (row_mask 0b0101) and banks 0 and 1 (bank_mask 0b0011: lanes 0-7 of a row) are written
    // with lane 15 of their row; every other lane keeps 0x9abcdef0'12345678.
    Run r = run(arch, "  v_mov_b32 v8, 0x12345678\n  v_mov_b32 v9, 0x9abcdef0\n"
                      "  v_mov_b64_dpp v[8:9], v[2:3] row_newbcast:15 row_mask:0x5 bank_mask:0x3\n",
                a, kZero, kZero);
    check_lanes(r, [](int l) {
      const bool written = ((l >> 4) == 0 || (l >> 4) == 2) && (l & 15) < 8;
      return written ? tagged((l & ~15) + 15) : 0x9abcdef012345678ull;
    });
  }
}

TEST_CASE("DP ALU DPP: an inactive source lane, bound_ctrl, and the lanes EXEC leaves out", "[sim][dpp]") {
  const auto a = per_lane(tagged);
  // EXEC without lane 3 of every row (bits 3, 19, 35, 51): row_newbcast:3 reads an inactive lane everywhere.
  const std::string exec = "  s_mov_b32 exec_lo, 0xfff7fff7\n  s_mov_b32 exec_hi, 0xfff7fff7\n";
  const std::string old = "  v_mov_b32 v8, 0x12345678\n  v_mov_b32 v9, 0x9abcdef0\n";
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Without bound_ctrl no lane is written: all keep the old value.
    Run keep = run(arch, old + exec + "  v_mov_b64_dpp v[8:9], v[2:3] row_newbcast:3 row_mask:0xf bank_mask:0xf\n", a, kZero, kZero);
    check_lanes(keep, [](int) { return 0x9abcdef012345678ull; });
    // With bound_ctrl the active lanes read 0 in both dwords; lane 3 of each row (inactive) keeps the old value.
    Run zero = run(arch, old + exec + "  v_mov_b64_dpp v[8:9], v[2:3] row_newbcast:3 row_mask:0xf bank_mask:0xf bound_ctrl:1\n",
                   a, kZero, kZero);
    check_lanes(zero, [](int l) { return (l & 15) == 3 ? 0x9abcdef012345678ull : 0ull; });
  }
}

TEST_CASE("DP ALU DPP arithmetic and conversions on the broadcast source", "[sim][dpp]") {
  const auto half_up = per_lane([](int l) { return dbits(double(l) + 0.5); });  // lane l: l + 0.5
  const std::vector<uint64_t> two(64, dbits(2.0)), quarter(64, dbits(0.25));
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // v_fmac_f64: D = src0 * src1 + D with src0 = lane row+1 = row + 1.5, src1 = 2.0, D = 0.25:
    // 2 * row + 3.25 = 3.25 (0x400a000000000000), 35.25 (0x4041a00000000000), 67.25 (0x4050d00000000000),
    // 99.25 (0x4058d00000000000) for rows 0..3.
    Run fmac = run(arch, "  v_mov_b64 v[8:9], v[6:7]\n  v_fmac_f64_dpp v[8:9], v[2:3], v[4:5] row_newbcast:1 row_mask:0xf bank_mask:0xf\n",
                   half_up, two, quarter);
    const uint64_t want_fmac[4] = {0x400a000000000000, 0x4041a00000000000, 0x4050d00000000000, 0x4058d00000000000};
    check_lanes(fmac, [&](int l) { return want_fmac[l >> 4]; });
    // v_ceil_f64 of lane row+2 = row + 2.5: row + 3 = 3.0 (0x4008000000000000), 19.0 (0x4033000000000000),
    // 35.0 (0x4041800000000000), 51.0 (0x4049800000000000).
    Run ceil = run(arch, "  v_ceil_f64_dpp v[8:9], v[2:3] row_newbcast:2 row_mask:0xf bank_mask:0xf\n", half_up, kZero, kZero);
    const uint64_t want_ceil[4] = {0x4008000000000000, 0x4033000000000000, 0x4041800000000000, 0x4049800000000000};
    check_lanes(ceil, [&](int l) { return want_ceil[l >> 4]; });
    // v_cvt_f32_f64 (64-bit source, 32-bit result) of lane row+7 = row + 7.5: 7.5 (0x40f00000), 23.5 (0x41bc0000),
    // 39.5 (0x421e0000), 55.5 (0x425e0000); v9 stays 0.
    Run narrow = run(arch, "  v_cvt_f32_f64_dpp v8, v[2:3] row_newbcast:7 row_mask:0xf bank_mask:0xf\n", half_up, kZero, kZero);
    const uint64_t want_narrow[4] = {0x40f00000, 0x41bc0000, 0x421e0000, 0x425e0000};
    check_lanes(narrow, [&](int l) { return want_narrow[l >> 4]; });
    // v_cvt_f64_i32 (32-bit source, 64-bit result) of v2 in lane row+4 = (row + 4) - 20 = row - 16 (v3 holds
    // 0xdeadbeef, never read): -16.0 (0xc030000000000000), 0.0, 16.0 (0x4030000000000000), 32.0 (0x4040000000000000).
    const auto ints = per_lane([](int l) { return uint64_t(0xdeadbeefu) << 32 | uint32_t(l - 20); });
    Run widen = run(arch, "  v_cvt_f64_i32_dpp v[8:9], v2 row_newbcast:4 row_mask:0xf bank_mask:0xf\n", ints, kZero, kZero);
    const uint64_t want_widen[4] = {0xc030000000000000, 0, 0x4030000000000000, 0x4040000000000000};
    check_lanes(widen, [&](int l) { return want_widen[l >> 4]; });
  }
}

TEST_CASE("row_newbcast on a 32-bit DPP instruction", "[sim][dpp]") {
  const auto f = per_lane([](int l) { return uint64_t(fbits(float(l))); });
  const std::vector<uint64_t> one(64, fbits(1.0f));
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // v_add_f32 of lane row+9 (= row + 9) and 1.0: row + 10 = 10 (0x41200000), 26 (0x41d00000), 42 (0x42280000),
    // 58 (0x42680000).
    Run r = run(arch, "  v_add_f32_dpp v8, v2, v4 row_newbcast:9 row_mask:0xf bank_mask:0xf\n", f, one, kZero);
    const uint64_t want[4] = {0x41200000, 0x41d00000, 0x42280000, 0x42680000};
    check_lanes(r, [&](int l) { return want[l >> 4]; });
  }
}

TEST_CASE("DP ALU DPP under a directed f64 round mode", "[sim][dpp][mode]") {
  // src0 = 1 + 2^-52 (0x3ff0000000000001) only in lane 1 of each row, 1.0 elsewhere; row_newbcast:1 gives it
  // to every lane. src1 = 1 + 2^-52, D = 0: (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104 -> nearest even
  // 0x3ff0000000000002, toward +inf 0x3ff0000000000003 (a lane reading its own 1.0 would give ...0001).
  const auto a = per_lane([](int l) { return (l & 15) == 1 ? 0x3ff0000000000001ull : 0x3ff0000000000000ull; });
  const std::vector<uint64_t> b(64, 0x3ff0000000000001ull);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    for (int rm : {0, 1}) {
      INFO("f16/f64 round mode " << rm);
      // MODE[7:0]: f32 round [1:0] = 0, f16/f64 round [3:2] = rm, all denormals kept.
      const std::string mode = "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), " + std::to_string(rm << 2 | 0xf0) + "\n";
      Run r = run(arch, mode + "  v_fmac_f64_dpp v[8:9], v[2:3], v[4:5] row_newbcast:1 row_mask:0xf bank_mask:0xf\n", a, b, kZero);
      check_lanes(r, [&](int) { return rm == 1 ? 0x3ff0000000000003ull : 0x3ff0000000000002ull; });
    }
  }
}

TEST_CASE("DP ALU DPP with a control other than row_newbcast is an Error", "[sim][dpp]") {
  // v_mov_b64_dpp v[8:9], v[2:3] with DPP_CTRL 0x1b (quad_perm:[3,2,1,0]): bytes fa 70 10 7e, 02 1b 00 ff.
  // LLVM 22 will not assemble it and disassembles it with the comment "DP ALU dpp only supports row_newbcast".
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    REQUIRE_THROWS_WITH(run(arch, "  .long 0x7e1070fa, 0xff001b02\n", kZero, kZero, kZero),
                        Catch::Contains("DP ALU dpp only supports row_newbcast"));
  }
}
