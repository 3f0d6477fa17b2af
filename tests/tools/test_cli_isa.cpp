// cdnajit isa: the instruction reference generated from the table.
#include <catch2/catch.hpp>

#include "tests/cli_run.hpp"

using cdnajit_test::cli;
using cdnajit_test::Run;
using Catch::Contains;

TEST_CASE("cdnajit isa prints an instruction's builder call, operands and facts", "[cli][isa]") {
  Run r = cli("isa v_mfma_f32_32x32x8_bf16");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("k.v_mfma_f32_32x32x8_bf16(vdst, src0, src1, src2);") && Contains("16 dwords") &&
                        Contains("- `vdst` (written): a VGPR or AGPR tuple") && Contains("MFMA passes") &&
                        Contains("gfx942, gfx950") && Contains("cbsz/abid/blgp") && Contains(": 1 instruction\n"));
  Run d = cli("isa ds_read_b64");
  CHECK_THAT(d.out, Contains("wait counter: lgkmcnt") && Contains("offset:") && Contains("kind: load"));
  // The offset range the builder checks, and what vaddr is in the saddr form.
  CHECK_THAT(d.out, Contains("- offset: a 16-bit unsigned offset (0..65535), in bytes"));
  Run pair = cli("isa ds_read2_b32");
  CHECK_THAT(pair.out, Contains("- offset0:/offset1: an 8-bit unsigned offset (0..255), in elements of the access size"));
  Run g = cli("isa global_store_dword");
  CHECK_THAT(g.out, Contains("- offset: a 13-bit signed offset (-4096..4095), in bytes") &&
                        Contains("one VGPR, an unsigned 32-bit byte offset, with an SGPR-pair `saddr`"));
}

TEST_CASE("cdnajit isa filters by glob and arch", "[cli][isa]") {
  Run all = cli("isa 'v_dot2*' --arch gfx950"), old = cli("isa 'v_dot2*' --arch gfx942");
  REQUIRE(all.status == 0);
  CHECK_THAT(all.out, Contains("### v_dot2_f32_bf16"));
  CHECK_THAT(old.out, !Contains("### v_dot2_f32_bf16"));
}

TEST_CASE("cdnajit isa says why nothing matched", "[cli][isa][errors]") {
  Run other_arch = cli("isa v_dot2_f32_bf16 --arch gfx942");
  CHECK(other_arch.status == 1);
  CHECK_THAT(other_arch.out, Contains("does not exist on gfx942") && Contains("gfx950-only"));
  Run typo = cli("isa v_mfma_f32_32x32x8bf16_1k");
  CHECK(typo.status == 1);
  CHECK_THAT(typo.out, Contains("did you mean 'v_mfma_f32_32x32x8_bf16'"));
  CHECK(cli("isa --arch gfx908").status == 2);
}
