// A launch whose workgroup cannot be resident on one CU (its waves' registers do not fit the
// SIMDs' unified VGPR+AGPR file) is refused with an error that names the use, the limit and what
// would fit; a kernel exactly at the limit runs (runtime/sim/residency.cpp).
#include <catch2/catch.hpp>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;
using Catch::Matchers::Contains;

namespace {

// A kernel allocating `vgprs` VGPRs (accum_offset) and `agprs` AGPRs after them; each work-item
// passes its id through its highest AGPR and VGPR and stores it to out[id] (s[0:1] = kernarg).
cdnajit::CodeObject wide_kernel(Arch arch, int vgprs, int agprs) {
  const std::string v = "v" + std::to_string(vgprs - 1), a = "a" + std::to_string(agprs - 1);
  const std::string src =
      ".amdgcn_target \"amdgcn-amd-amdhsa--" + std::string(cdnajit::arch_name(arch)) +
      "\"\n.text\n.globl wide\n.p2align 8\n.type wide,@function\nwide:\n"
      " s_load_dwordx2 s[2:3], s[0:1], 0\n v_accvgpr_write_b32 " + a + ", v0\n v_accvgpr_read_b32 " + v + ", " + a +
      "\n v_lshlrev_b32 v1, 2, v0\n s_waitcnt lgkmcnt(0)\n global_store_dword v1, " + v + ", s[2:3]\n s_endpgm\n"
      ".size wide, .-wide\n.rodata\n.p2align 6\n.amdhsa_kernel wide\n"
      "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_kernarg_size 8\n"
      "  .amdhsa_next_free_vgpr " + std::to_string(vgprs + agprs) + "\n  .amdhsa_next_free_sgpr 16\n"
      "  .amdhsa_accum_offset " + std::to_string(vgprs) + "\n.end_amdhsa_kernel\n";
  return cdnajit::read_code_object(assemble(src, arch));
}

cdnajit::sim::LaunchDims block_of(uint32_t threads) {
  cdnajit::sim::LaunchDims d;
  d.block[0] = threads;
  return d;
}

}  // namespace

TEST_CASE("a workgroup whose waves' registers do not fit a CU is refused; one exactly at the limit runs",
          "[sim][residency]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    Device dev(arch);
    uint64_t out = dev.upload(std::vector<uint32_t>(1024, 0xffffffffu), "out");
    std::vector<uint8_t> args(8);  // the code object has no metadata: the kernarg segment by hand
    std::memcpy(args.data(), &out, 8);
    // 140 VGPRs + 128 AGPRs = 268, allocated 272 of the SIMD's 512: one wave per SIMD, so an
    // 8-wave workgroup (2 waves on each of the 4 SIMDs) cannot be resident.
    auto co = wide_kernel(arch, 140, 128);
    bool refused = false;
    try {
      dev.sim.launch(co, "wide", args, block_of(512));
    } catch (const cdnajit::sim::LaunchError& e) {
      refused = true;
      CHECK(e.kind == cdnajit::sim::LaunchError::Kind::OutOfResources);
      const std::string m = e.what();
      CHECK_THAT(m, Contains("kernel wide does not fit on a " + std::string(cdnajit::arch_name(arch)) + " compute unit"));
      CHECK_THAT(m, Contains("512 work-items is 8 waves"));
      CHECK_THAT(m, Contains("2 waves on a SIMD"));
      CHECK_THAT(m, Contains("a wave holds 272 of a SIMD's 512 vector registers"));
      CHECK_THAT(m, Contains("AGPRs from accum_offset 140"));
      CHECK_THAT(m, Contains("a SIMD holds 1 wave of it"));
      CHECK_THAT(m, Contains("Valid: at most 4 waves (256 work-items) per workgroup, or at most 256 vector registers "
                             "per wave for workgroups of 8 waves"));
    }
    CHECK(refused);
    // The same kernel in 4-wave workgroups (one wave per SIMD): the limit, and it runs.
    CHECK_NOTHROW(dev.sim.launch(co, "wide", args, block_of(256)));
    auto got = dev.download<uint32_t>(out, 256);
    for (uint32_t i = 0; i < 256; ++i) CHECK(got[i] == i);
    // 128 VGPRs + 128 AGPRs = 256 exactly: two waves per SIMD, so 8-wave workgroups fit; 8 more
    // registers (one granule) do not.
    CHECK_NOTHROW(dev.sim.launch(wide_kernel(arch, 128, 128), "wide", args, block_of(512)));
    got = dev.download<uint32_t>(out, 512);
    for (uint32_t i = 0; i < 512; ++i) CHECK(got[i] == i);
    CHECK_THROWS_AS(dev.sim.launch(wide_kernel(arch, 136, 128), "wide", args, block_of(512)), cdnajit::sim::LaunchError);
    // A 1024-item workgroup (16 waves, 4 per SIMD) fits exactly at 128 vector registers.
    CHECK_NOTHROW(dev.sim.launch(wide_kernel(arch, 64, 64), "wide", args, block_of(1024)));
    CHECK_THROWS_AS(dev.sim.launch(wide_kernel(arch, 72, 64), "wide", args, block_of(1024)), cdnajit::sim::LaunchError);
  }
}
