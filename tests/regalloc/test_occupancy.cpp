// Expected values are worked out by hand from the hardware rules (see
// occupancy.cpp): VGPR granule 8 of a 512-register unified file, AGPRs after
// accum_offset = round_up(VGPRs, 4), max 8 waves/SIMD; SGPRs + 6 extra in
// granules of 16 out of 800; LDS per CU 64 KiB (gfx942, 512-byte blocks) /
// 160 KiB (gfx950, 1280-byte blocks); 4 SIMDs per CU; workgroup slots per CU
// 32 for one-wave groups, else min(32 / waves, 16).
#include <catch2/catch.hpp>

#include "jit/regalloc/regalloc.hpp"

using cdnajit::Arch;
using namespace cdnajit::regalloc;

namespace {
int reg_waves(int v, int a = 0, int s = 16) { return occupancy(Arch::gfx942, v, a, s, 0, 256).waves_per_simd_regs; }
}  // namespace

TEST_CASE("occupancy: VGPR limits", "[regalloc][occupancy]") {
  CHECK(reg_waves(155) == 3);  // 160 -> 512/160 = 3.2
  CHECK(reg_waves(98) == 4);   // 104 -> 512/104 = 4.9 (granule 8 matters: 512/98 would be 5)
  CHECK(reg_waves(96) == 5);   // 96 -> 5.33
  CHECK(reg_waves(64) == 8);   // 512/64 = 8
  CHECK(reg_waves(65) == 7);   // 72 -> 7.1
  CHECK(reg_waves(128) == 4);
  CHECK(reg_waves(129) == 3);  // 136 -> 3.76
  CHECK(reg_waves(256) == 2);
  CHECK(reg_waves(1) == 8);
  CHECK(reg_waves(0) == 8);
}

TEST_CASE("occupancy: AGPRs share the unified file after accum_offset", "[regalloc][occupancy]") {
  CHECK(reg_waves(40, 16) == 8);   // 40 + 16 = 56 -> 9.1, capped at 8 (LLVM agpr-register-count.ll)
  CHECK(reg_waves(9, 32) == 8);    // accum_offset 12, total 44 -> 48
  CHECK(reg_waves(121, 7) == 3);   // accum_offset 124 + 7 = 131 -> 136 -> 3 (without the rounding: 128 -> 4)
  CHECK(reg_waves(128, 128) == 2); // 256 -> 2
  CHECK(reg_waves(256, 256) == 1); // 512 -> 1
  CHECK(reg_waves(0, 64) == 8);    // 64 -> 8
  CHECK(reg_waves(0, 65) == 7);    // 72 -> 7
}

TEST_CASE("occupancy: SGPRs limit too (VCC, FLAT_SCRATCH, XNACK_MASK included)", "[regalloc][occupancy]") {
  CHECK(reg_waves(8, 0, 90) == 8);   // 96 -> 800/96 = 8.3
  CHECK(reg_waves(8, 0, 91) == 7);   // 97 -> 112 -> 7.1
  CHECK(reg_waves(8, 0, 102) == 7);  // 108 -> 112
  CHECK(reg_waves(8, 0, 0) == 8);
}

TEST_CASE("occupancy: LDS and workgroup size", "[regalloc][occupancy]") {
  // 24 KiB, 256 threads on gfx942: 65536 / 24576 = 2 groups x 4 waves / 4 SIMDs = 2.
  Occupancy o = occupancy(Arch::gfx942, 64, 0, 20, 24 * 1024, 256);
  CHECK(o.workgroups_per_cu_lds == 2);
  CHECK(o.waves_per_simd_lds == 2);
  CHECK(o.waves_per_simd_regs == 8);
  CHECK(o.waves_per_simd == 2);

  // Same on gfx950: 24576 -> 20 blocks of 1280 = 25600; 163840 / 25600 = 6 groups -> 6 waves.
  o = occupancy(Arch::gfx950, 64, 0, 20, 24 * 1024, 256);
  CHECK(o.workgroups_per_cu_lds == 6);
  CHECK(o.waves_per_simd_lds == 6);

  // gfx950, 64 KiB, 512 threads (8 waves): 65536 -> 52 blocks = 66560; 163840/66560 = 2;
  // slots min(32/8, 16) = 4; 2 x 8 / 4 = 4 waves.
  o = occupancy(Arch::gfx950, 64, 0, 20, 64 * 1024, 512);
  CHECK(o.workgroups_per_cu_lds == 2);
  CHECK(o.waves_per_simd_lds == 4);

  // No LDS: limited by workgroup slots only.
  o = occupancy(Arch::gfx942, 64, 0, 20, 0, 64);   // 32 one-wave groups -> 8
  CHECK(o.workgroups_per_cu_lds == 32);
  CHECK(o.waves_per_simd_lds == 8);
  o = occupancy(Arch::gfx942, 64, 0, 20, 0, 128);  // min(16, 16) groups x 2 waves / 4 = 8
  CHECK(o.workgroups_per_cu_lds == 16);
  CHECK(o.waves_per_simd_lds == 8);
  o = occupancy(Arch::gfx942, 64, 0, 20, 0, 1024); // 2 groups x 16 waves / 4 = 8
  CHECK(o.workgroups_per_cu_lds == 2);
  CHECK(o.waves_per_simd_lds == 8);

  // 128 threads, 8 KiB: 8 groups x 2 waves / 4 = 4.
  o = occupancy(Arch::gfx942, 64, 0, 20, 8 * 1024, 128);
  CHECK(o.workgroups_per_cu_lds == 8);
  CHECK(o.waves_per_simd_lds == 4);

  // 1024 threads, 40 KiB on gfx942: one group of 16 waves -> 4.
  o = occupancy(Arch::gfx942, 64, 0, 20, 40 * 1024, 1024);
  CHECK(o.workgroups_per_cu_lds == 1);
  CHECK(o.waves_per_simd_lds == 4);

  // One 64-thread group with 48 KiB: one wave on one SIMD -> clamped to 1.
  o = occupancy(Arch::gfx942, 64, 0, 20, 48 * 1024, 64);
  CHECK(o.workgroups_per_cu_lds == 1);
  CHECK(o.waves_per_simd_lds == 1);

  // 1000 bytes rounds to 1024 on gfx942: 64 groups of 1 wave, capped at 32 slots.
  o = occupancy(Arch::gfx942, 64, 0, 20, 1000, 64);
  CHECK(o.workgroups_per_cu_lds == 32);
}

TEST_CASE("occupancy: the minimum of registers and LDS", "[regalloc][occupancy]") {
  Occupancy o = occupancy(Arch::gfx942, 155, 0, 30, 8 * 1024, 256);  // regs 3; LDS 8 groups -> 8 waves
  CHECK(o.waves_per_simd_regs == 3);
  CHECK(o.waves_per_simd_lds == 8);
  CHECK(o.waves_per_simd == 3);
  o = occupancy(Arch::gfx942, 64, 0, 30, 32 * 1024, 256);  // regs 8; LDS 2 groups x 4 / 4 = 2
  CHECK(o.waves_per_simd == 2);
}

TEST_CASE("occupancy: invalid arguments are errors", "[regalloc][occupancy]") {
  CHECK_THROWS_WITH(occupancy(Arch::gfx942, 64, 0, 20, 65537, 256), Catch::Contains("65536") && Catch::Contains("gfx942"));
  CHECK_NOTHROW(occupancy(Arch::gfx950, 64, 0, 20, 65537, 256));
  CHECK_THROWS_WITH(occupancy(Arch::gfx950, 64, 0, 20, 163841, 256), Catch::Contains("163840"));
  CHECK_THROWS_WITH(occupancy(Arch::gfx942, 64, 0, 20, 0, 0), Catch::Contains("workgroup size 0"));
  CHECK_THROWS_WITH(occupancy(Arch::gfx942, 64, 0, 20, 0, 2048), Catch::Contains("1..1024"));
  CHECK_THROWS_WITH(occupancy(Arch::gfx942, 257, 0, 20, 0, 64), Catch::Contains("vgprs = 257"));
  CHECK_THROWS_WITH(occupancy(Arch::gfx942, 64, -1, 20, 0, 64), Catch::Contains("agprs = -1"));
  CHECK_THROWS_WITH(occupancy(Arch::gfx942, 64, 0, 103, 0, 64), Catch::Contains("sgprs = 103"));
}
