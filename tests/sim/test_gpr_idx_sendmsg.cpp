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
