// SDWA forms of the VOP2 carry ops (v_add_co_u32_sdwa, v_subb_co_u32_sdwa, v_addc_co_u32_sdwa ...):
// the selected source bytes/words (sext() sign-extends them), the destination field merge, and the
// carry out of the 32-bit operation on the selected values into VCC, against hand-computed bits.
#include <catch2/catch.hpp>

#include "tests/sim/ext_harness.hpp"

using namespace exttest;

namespace {
// Checks lane 0's v8 and VCC bit after `body` (as run1) against the hand-computed bits.
void check_carry_op(Arch arch, const std::string& body, uint32_t a, uint32_t b, uint32_t want_v8, uint32_t want_vcc) {
  INFO(body);
  const auto r = run1(arch, body, a, b);
  CHECK(r.first == want_v8);
  CHECK(r.second == want_vcc);
}
}  // namespace

TEST_CASE("SDWA carry ops: selects, destination field and carry out", "[sim][sdwa]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // byte 1 of 0x0000ff00 (0xff) + word 0 of 0xffff0001 (1) = 0x100, no carry, into word 1 of v8 (word 0 kept).
    check_carry_op(arch, "  v_mov_b32 v8, 0xaaaa5555\n"
                         "  v_add_co_u32_sdwa v8, vcc, v2, v4 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:WORD_0\n",
                   0x0000ff00u, 0xffff0001u, 0x01005555u, 0u);
    // 0xffffffff + word 1 of 0x00010000 (1) carries out.
    check_carry_op(arch, "  v_add_co_u32_sdwa v8, vcc, v2, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1\n",
                   0xffffffffu, 0x00010000u, 0u, 1u);
    // byte 0 of 5 - byte 2 of 0x00070000 (7) - borrow 1 = -3, borrow out.
    check_carry_op(arch, "  s_mov_b64 vcc, -1\n"
                         "  v_subb_co_u32_sdwa v8, vcc, v2, v4, vcc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:BYTE_2\n",
                   0x00000005u, 0x00070000u, 0xfffffffdu, 1u);
    // sext(word 1 of 0x80000000) = 0xffff8000, + 0x8000 + carry 0 = 2^32: result 0, carry out.
    check_carry_op(arch, "  s_mov_b64 vcc, 0\n  v_mov_b32 v8, 0x12345678\n"
                         "  v_addc_co_u32_sdwa v8, vcc, sext(v2), v4, vcc dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:DWORD\n",
                   0x80000000u, 0x00008000u, 0u, 1u);
    // v_subrev_co_u32: b - a on the selected values; byte 3 of 0x01000000 (1) from word 0 of 0x0000 (0) borrows,
    // and the low byte of the result goes to byte 0 with the other bytes zeroed (UNUSED_PAD).
    check_carry_op(arch, "  v_mov_b32 v8, -1\n"
                         "  v_subrev_co_u32_sdwa v8, vcc, v2, v4 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:BYTE_3 src1_sel:WORD_0\n",
                   0x01000000u, 0xffff0000u, 0x000000ffu, 1u);
  }
}
