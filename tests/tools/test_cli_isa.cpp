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
