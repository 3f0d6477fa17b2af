// gfx950 v_mfma_ld_scale_b32: the documented use is the prefix of a scaled MFMA (LLVM 22's VOP3PX2
// encoding of v_mfma_scale_*: the ld_scale words, then the f8f6f4 MFMA words with ABID = 1). Written
// as two instructions in raw words it must run exactly like the fused mnemonic; a lone ld_scale
// (here followed by an MFMA with ABID = 0) is an Error that says why (see register_mfma in
// runtime/sim/ops_mfma.cpp).
#include <catch2/catch.hpp>

#include <cstring>

#include "runtime/sim/semantics_check.hpp"
#include "tests/sim/sim_harness.hpp"

namespace {

using cdnajit::Arch;

// A one-wave kernel: A (v[4:11]) and B (v[12:19]) all fp8 E4M3 1.0 (0x38, OCP bias 7), C = 0,
// scale VGPRs v20 = 0x00008000 (byte 1 = 128: 2^1) and v21 = 0x007d0000 (byte 2 = 125: 2^-2), every
// other byte 0 (2^-127) so that a wrong byte select shows. `mfma` then writes D = v[0:3], stored
// per lane at out + 16 * lane.
std::string kernel(const std::string& mfma) {
  std::string body =
      "  s_load_dwordx2 s[2:3], s[0:1], 0x0\n"
      "  v_lshlrev_b32 v30, 4, v0\n";
  for (int r = 4; r < 20; ++r) body += "  v_mov_b32 v" + std::to_string(r) + ", 0x38383838\n";
  for (int r = 0; r < 4; ++r) body += "  v_mov_b32 v" + std::to_string(r) + ", 0\n";
  body += "  v_mov_b32 v20, 0x8000\n  v_mov_b32 v21, 0x7d0000\n" + mfma +
          "  s_waitcnt lgkmcnt(0)\n  global_store_dwordx4 v30, v[0:3], s[2:3]\n  s_endpgm\n";
  return ".amdgcn_target \"amdgcn-amd-amdhsa--gfx950\"\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n" + body +
         ".size k, .-k\n.rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
         "  .amdhsa_kernarg_size 8\n  .amdhsa_next_free_vgpr 32\n  .amdhsa_next_free_sgpr 8\n"
         "  .amdhsa_accum_offset 32\n.end_amdhsa_kernel\n";
}

std::vector<uint32_t> run(simtest::Device& dev, const cdnajit::CodeObject& co) {
  uint64_t out = dev.upload(std::vector<uint32_t>(256, 0xdeadbeefu), "out");
  std::vector<uint8_t> ka(8);
  std::memcpy(ka.data(), &out, 8);
  dev.sim.launch(co, "k", ka, simtest::dims1(1, 64));
  return dev.download<uint32_t>(out, 256);
}

}  // namespace

TEST_CASE("v_mfma_ld_scale_b32 + f8f6f4 MFMA with ABID = 1 is the fused scaled MFMA", "[sim][mfma][ld_scale]") {
  simtest::Device dev(Arch::gfx950);
  // The fused mnemonic, scale bytes op_sel[i] + 2 * op_sel_hi[i]: scale0 byte 1, scale1 byte 2.
  auto fused = cdnajit::read_code_object(simtest::assemble(
      kernel("  v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3], v20, v21 op_sel:[1,0,0] "
             "op_sel_hi:[0,1,0]\n"),
      Arch::gfx950));
  // The same as two instructions in raw words, as llvm-mc-22 encodes them on their own:
  // "v_mfma_ld_scale_b32 v20, v21 op_sel:[1,0] op_sel_hi:[0,1]" = D3AC4800 10022B14 (its unused
  // op_sel_hi[2] bit set, unlike the fused form's D3AC0800), then the MFMA
  // "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3]" = D3AD0000 04021904 with ABID = 1
  // (bit 11 of the first word: D3AD0800), which LLVM 22's assembler does not accept as text.
  auto pair = cdnajit::read_code_object(simtest::assemble(
      kernel("  .long 0xD3AC4800, 0x10022B14, 0xD3AD0800, 0x04021904\n"), Arch::gfx950));
  REQUIRE(dev.sim.disassemble(pair, "k").find("v_mfma_scale_f32_16x16x128_f8f6f4") != std::string::npos);
  const std::vector<uint32_t> a = run(dev, fused), b = run(dev, pair);
  // Hand-computed: every product 1.0 * 1.0 * 2^1 * 2^-2 = 0.5, 128 of them: 64.0 = 0x42800000 exactly.
  for (size_t i = 0; i < a.size(); ++i) {
    INFO("dword " << i);
    CHECK(a[i] == 0x42800000u);
    CHECK(b[i] == a[i]);
  }
}

TEST_CASE("a lone v_mfma_ld_scale_b32 is an Error naming what is undocumented", "[sim][mfma][ld_scale]") {
  simtest::Device dev(Arch::gfx950);
  // Followed by the MFMA with ABID = 0: two instructions, the scales' fate undocumented.
  auto co = cdnajit::read_code_object(simtest::assemble(
      kernel("  v_mfma_ld_scale_b32 v20, v21 op_sel:[1,0] op_sel_hi:[0,1]\n"
             "  v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3]\n"),
      Arch::gfx950));
  auto listed = cdnajit::sim::unbound_instructions(co);
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].text.rfind("v_mfma_ld_scale_b32 v20, v21", 0) == 0);
  CHECK_THAT(listed[0].reason, Catch::Contains("only documented as the prefix of a scaled MFMA"));
  std::string msg;
  try {
    run(dev, co);
  } catch (const cdnajit::Error& e) {
    msg = e.what();
  }
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("'v_mfma_ld_scale_b32 v20, v21") && Catch::Contains("not documented"));
}
