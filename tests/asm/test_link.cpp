#include <catch2/catch.hpp>

#include <cstdio>

#include <chrono>

#include "code_object_reader.hpp"
#include "jit/asm/assemble.hpp"
#include "jit/asm/link.hpp"
#include "jit/codeobject/target_id.hpp"
#include "jit/isa/error.hpp"
#include "llvm/BinaryFormat/ELF.h"
#include "test_kernels.hpp"

using namespace cdnajit;

namespace {

std::vector<uint8_t> build(const std::string& text, Arch arch) {
  AsmResult r = assemble(text, arch);
  INFO(format_diagnostics(r.diagnostics));
  REQUIRE(r.ok);
  return link_code_object(r.object, arch);
}

// Encoded "granules - 1" the way the hardware counts registers on gfx90a+:
// VGPRs (unified with AGPRs) in blocks of 8, SGPRs in blocks of 8.
uint32_t blocks_of_8(uint32_t n) { return (std::max<uint32_t>(n, 1) + 7) / 8 - 1; }

}  // namespace

TEST_CASE("link: minimal kernel descriptor fields match the spec", "[asm][link]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    CAPTURE(mcpu_name(arch));
    auto spec = test::minimal_spec(arch);
    auto co = build(render_kernel_file(spec, "\ts_endpgm\n"), arch);
    auto info = test::read_code_object(co);

    CHECK(info.e_type == llvm::ELF::ET_DYN);
    CHECK(info.e_machine == llvm::ELF::EM_AMDGPU);
    CHECK((info.e_flags & llvm::ELF::EF_AMDGPU_MACH) == elf_mach(arch));
    CHECK(info.abi_version == llvm::ELF::ELFABIVERSION_AMDGPU_HSA_V5);

    REQUIRE(info.symbols.count("minimal"));
    REQUIRE(info.descriptors.count("minimal.kd"));
    const auto& kd = info.descriptors.at("minimal.kd");
    CHECK(kd.group_segment_fixed_size == 4096);
    CHECK(kd.private_segment_fixed_size == 0);
    CHECK(kd.kernarg_size == 16);
    // The entry offset is relative to the descriptor's own address.
    CHECK(int64_t(info.symbols.at("minimal")) - int64_t(kd.address) == kd.kernel_code_entry_byte_offset);
    CHECK(info.symbols.at("minimal") % 256 == 0);

    uint32_t rsrc1 = kd.compute_pgm_rsrc1, rsrc2 = kd.compute_pgm_rsrc2, rsrc3 = kd.compute_pgm_rsrc3;
    CHECK((rsrc1 & 0x3f) == blocks_of_8(37));                     // VGPR granules
    CHECK(((rsrc1 >> 6) & 0xf) == blocks_of_8(20 + 6));           // SGPR granules incl. vcc/flat/xnack
    CHECK(((rsrc2 >> 1) & 0x1f) == 2);                            // USER_SGPR_COUNT (kernarg ptr)
    CHECK(((rsrc2 >> 7) & 1) == 1);                               // TGID_X_EN
    CHECK(((rsrc2 >> 8) & 1) == 1);                               // TGID_Y_EN
    CHECK(((rsrc2 >> 9) & 1) == 0);                               // TGID_Z_EN
    CHECK(((rsrc2 >> 11) & 3) == 1);                              // TIDIG_COMP_CNT
    CHECK((rsrc3 & 0x3f) == accum_offset(spec) / 4 - 1);          // ACCUM_OFFSET
    CHECK(((rsrc1 >> 12) & 0xff) == 0xf0);                        // FLOAT_MODE: denormals kept
    CHECK(((rsrc1 >> 23) & 1) == 1);                              // IEEE_MODE
  }
}

TEST_CASE("link: AGPRs extend the unified register allocation", "[asm][link]") {
  auto spec = test::minimal_spec(Arch::gfx950);
  spec.vgpr_count = 10;   // accum_offset 12
  spec.agpr_count = 20;   // total 32 -> 4 granules -> encoded 3
  auto co = build(render_kernel_file(spec, "\tv_accvgpr_write_b32 a19, v9\n\ts_endpgm\n"), Arch::gfx950);
  auto info = test::read_code_object(co);
  const auto& kd = info.descriptors.at("minimal.kd");
  CHECK(accum_offset(spec) == 12);
  CHECK(total_vgpr_count(spec) == 32);
  CHECK((kd.compute_pgm_rsrc1 & 0x3f) == blocks_of_8(32));
  CHECK((kd.compute_pgm_rsrc3 & 0x3f) == 12 / 4 - 1);
  REQUIRE(info.kernels.size() == 1);
  CHECK(info.kernels[0].fields.at(".agpr_count") == "20");
  CHECK(info.kernels[0].fields.at(".vgpr_count") == "32");
}

TEST_CASE("link: metadata note carries code object v5 kernel metadata", "[asm][link]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    CAPTURE(mcpu_name(arch));
    auto spec = test::scale_spec(arch);
    auto info = test::read_code_object(build(test::scale_kernel_text(arch), arch));
    CHECK(info.metadata_top.at("amdhsa.version") == "1,2");
    CHECK(info.metadata_top.at("amdhsa.target") == amdgcn_target_id(arch));
    REQUIRE(info.kernels.size() == 1);
    const auto& f = info.kernels[0].fields;
    CHECK(f.at(".name") == "scale_kernel");
    CHECK(f.at(".symbol") == "scale_kernel.kd");
    CHECK(f.at(".kernarg_segment_size") == "24");
    CHECK(f.at(".kernarg_segment_align") == "8");
    CHECK(f.at(".wavefront_size") == "64");
    CHECK(f.at(".group_segment_fixed_size") == "0");
    CHECK(f.at(".private_segment_fixed_size") == "0");
    CHECK(f.at(".max_flat_workgroup_size") == "256");
    CHECK(f.at(".reqd_workgroup_size") == "256,1,1");
    CHECK(f.at(".sgpr_count") == std::to_string(spec.sgpr_count + 6));
    CHECK(f.at(".vgpr_count") == "5");
    const auto& args = info.kernels[0].args;
    REQUIRE(args.size() == 4);
    CHECK(args[0].at(".name") == "in");
    CHECK(args[0].at(".value_kind") == "global_buffer");
    CHECK(args[0].at(".address_space") == "global");
    CHECK(args[0].at(".actual_access") == "read_only");
    CHECK(args[0].at(".is_const") == "true");
    CHECK(args[0].at(".type_name") == "float*");
    CHECK(args[1].at(".offset") == "8");
    CHECK(args[2].at(".value_kind") == "by_value");
    CHECK(args[3].at(".offset") == "20");
    CHECK(args[3].at(".size") == "4");
  }
}

TEST_CASE("link: garbage input throws cdnajit::Error with lld's message", "[asm][link]") {
  std::vector<uint8_t> garbage(300);
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = uint8_t(i * 131 + 7);
  CHECK_THROWS_WITH(link_code_object(garbage, Arch::gfx942), Catch::Contains("not a 64-bit"));
  CHECK_THROWS_AS(link_code_object({}, Arch::gfx950), Error);
  // A truncated real object must also fail cleanly.
  AsmResult r = assemble(test::scale_kernel_text(Arch::gfx942), Arch::gfx942);
  REQUIRE(r.ok);
  std::vector<uint8_t> truncated(r.object.begin(), r.object.begin() + r.object.size() / 2);
  CHECK_THROWS_AS(link_code_object(truncated, Arch::gfx942), Error);
  // An object for the other arch is refused, naming both.
  CHECK_THROWS_WITH(link_code_object(r.object, Arch::gfx950),
                    Catch::Contains("0x4c") && Catch::Contains("gfx950"));
  // ...and the linker still works afterwards.
  CHECK_FALSE(link_code_object(r.object, Arch::gfx942).empty());
}

TEST_CASE("link: undefined symbol is a link error", "[asm][link]") {
  // A PC-relative reference to a function nobody defines (--no-undefined).
  std::string text = render_kernel_file(test::minimal_spec(Arch::gfx942),
                                        "\ts_getpc_b64 s[4:5]\n"
                                        "\ts_add_u32 s4, s4, missing_function@rel32@lo+4\n"
                                        "\ts_addc_u32 s5, s5, missing_function@rel32@hi+12\n"
                                        "\ts_endpgm\n");
  AsmResult r = assemble(text, Arch::gfx942);
  REQUIRE(r.ok);
  try {
    link_code_object(r.object, Arch::gfx942);
    FAIL("expected a link error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("missing_function") != std::string::npos);
  }
}

TEST_CASE("link: repeated links are deterministic", "[asm][link]") {
  AsmResult r = assemble(test::scale_kernel_text(Arch::gfx950), Arch::gfx950);
  REQUIRE(r.ok);
  auto first = link_code_object(r.object, Arch::gfx950);
  for (int i = 0; i < 5; ++i) CHECK(link_code_object(r.object, Arch::gfx950) == first);
}

// Its own ctest entry (test_asm.link_fuzz): a rejected object can leave in-process lld unable
// to run again, after which every later link in the process goes through ld.lld.
TEST_CASE("link: byte flips in a real object are linked or rejected with cdnajit::Error, and linking still works",
          "[asm][link][link_fuzz]") {
  AsmResult r = assemble(test::scale_kernel_text(Arch::gfx942), Arch::gfx942);
  REQUIRE(r.ok);
  int linked = 0, rejected = 0;
  for (size_t i = 0; i < r.object.size(); i += 7) {
    auto bytes = r.object;
    bytes[i] ^= 0xa5;
    try {
      link_code_object(bytes, Arch::gfx942);
      ++linked;
    } catch (const Error& e) {
      ++rejected;
    }
  }
  // (A crash or an exception other than cdnajit::Error fails by itself.) Some flips hit
  // headers lld must refuse, some hit bytes it does not check.
  std::printf("link byte flips: %d objects, %d linked, %d rejected with cdnajit::Error; in-process lld usable "
              "afterwards: %s\n",
              linked + rejected, linked, rejected, in_process_linker_available() ? "yes" : "no (ld.lld fallback)");
  CHECK(linked > 0);
  CHECK(rejected > 0);
  CHECK_FALSE(link_code_object(r.object, Arch::gfx942).empty());
}
