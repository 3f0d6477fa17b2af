// s_set_gpr_idx_idx / _mode / _off (runtime/sim/ops_gpr_idx.cpp: M0 writes) and s_sendmsg
// (runtime/sim/ops_sendmsg.cpp: the no-op messages, Errors for the others), in hand-written kernels;
// expected M0 values worked out here from the guides' field layout (M0[7:0] index, M0[15:12] mode bits).
#include <catch2/catch.hpp>

#include "tests/sim/ext_harness.hpp"

using namespace exttest;

TEST_CASE("s_set_gpr_idx_idx/_mode/_off write M0's index fields; s_sendmsg", "[sim][ext][gpr_idx]") {
  const std::vector<uint64_t> z(64);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // M0 = 0x12345600; idx from s2 = 0x1ab -> M0[7:0] = 0xab; mode SRC0|DST = 0b1001 -> M0[15:12] = 9.
    Run r = run(arch,
                "  s_mov_b32 m0, 0x12345600\n  s_mov_b32 s2, 0x1ab\n  s_set_gpr_idx_idx s2\n  v_mov_b32 v8, m0\n"
                "  s_set_gpr_idx_mode gpr_idx(SRC0,DST)\n  s_set_gpr_idx_off\n  v_mov_b32 v9, m0\n"
                "  s_sendmsg sendmsg(MSG_INTERRUPT)\n  s_sendmsg sendmsg(MSG_SAVEWAVE)\n  s_waitcnt lgkmcnt(0)\n",
                z, z, z);
    for (int l = 0; l < 64; ++l) {
      INFO("lane " << l);
      CHECK(r.out[l] == (0x123456abull | 0x123496abull << 32));
    }
    CHECK_THROWS_WITH(run(arch, "  s_sendmsg sendmsg(MSG_HALT_WAVES)\n", z, z, z), Catch::Contains("message id 6 is not modelled"));
  }
}

TEST_CASE("s_set_gpr_idx_on: v_mov_b32 with indexed source / destination", "[sim][ext][gpr_idx]") {
  std::mt19937_64 g(seed() + 51);
  auto a = values(g, 3, 1), b = values(g, 3, 2), c = values(g, 3, 3);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Index 2: "v_mov_b32 v8, v2" with SRC0 reads v4 (B's low dword); "v_mov_b32 v7, v6" with DST writes
    // v9 (C's low dword); after s_set_gpr_idx_off a plain move is not offset; an SGPR source is never.
    Run r = run(arch,
                "  s_mov_b32 s2, 2\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n  v_mov_b32 v8, v2\n  s_set_gpr_idx_off\n"
                "  s_set_gpr_idx_on s2, gpr_idx(DST)\n  v_mov_b32 v7, v6\n  s_set_gpr_idx_off\n  v_mov_b32 v10, v8\n"
                "  s_set_gpr_idx_on s2, gpr_idx(SRC0,DST)\n  v_mov_b32_e64 v10, s2\n  s_set_gpr_idx_off\n"
                "  v_add_u32 v8, v8, v12\n",
                a, b, c);
    for (int l = 0; l < 64; ++l) {
      INFO("lane " << l);
      CHECK(r.out[l] == ((b[l] & 0xffffffffu) + 2u & 0xffffffffu | (c[l] & 0xffffffffu) << 32));
    }
    // Under the mode, other VALU instructions and offsets past the allocated VGPRs are Errors.
    CHECK_THROWS_WITH(run(arch, "  s_mov_b32 s2, 1\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n  v_add_u32 v8, v2, v3\n", a, b, c),
                      Catch::Contains("models it for v_mov_b32"));
    CHECK_THROWS_WITH(run(arch, "  s_mov_b32 s2, 20\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n  v_mov_b32 v8, v2\n", a, b, c),
                      Catch::Contains("beyond the 16 VGPRs"));
  }
}
