#include <catch2/catch.hpp>

#include "code_object_reader.hpp"
#include "jit/asm/assemble.hpp"
#include "jit/codeobject/kernel_descriptor_emit.hpp"
#include "jit/asm/link.hpp"
#include "jit/isa/error.hpp"
#include "test_kernels.hpp"

using namespace cdnajit;

namespace {
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string error_of(const KernelDescriptorSpec& k) {
  try {
    validate(k);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("emit: derived register numbers", "[asm][emit]") {
  auto k = test::minimal_spec(Arch::gfx942);
  k.vgpr_count = 3;
  CHECK(accum_offset(k) == 4);
  CHECK(total_vgpr_count(k) == 3);
  k.agpr_count = 8;
  CHECK(total_vgpr_count(k) == 12);
  k.vgpr_count = 0;
  k.agpr_count = 0;
  CHECK(accum_offset(k) == 4);
  CHECK(user_sgpr_count(k) == 2);
  k.user_sgpr_dispatch_ptr = true;
  k.user_sgpr_dispatch_id = true;
  CHECK(user_sgpr_count(k) == 6);
  CHECK(lds_limit_bytes(Arch::gfx942) == 65536);
  CHECK(lds_limit_bytes(Arch::gfx950) == 163840);
}

TEST_CASE("emit: rendered text has the directives the assembler needs", "[asm][emit]") {
  auto k = test::scale_spec(Arch::gfx942);
  std::string kd = render_amdhsa_kernel(k);
  CHECK(contains(kd, ".amdhsa_kernel scale_kernel\n"));
  CHECK(contains(kd, ".amdhsa_next_free_vgpr 5\n"));
  CHECK(contains(kd, ".amdhsa_next_free_sgpr 12\n"));
  CHECK(contains(kd, ".amdhsa_accum_offset 8\n"));
  CHECK(contains(kd, ".amdhsa_kernarg_size 24\n"));
  CHECK(contains(kd, ".amdhsa_user_sgpr_kernarg_segment_ptr 1\n"));
  CHECK(contains(kd, ".end_amdhsa_kernel"));
  std::string md = render_amdgpu_metadata(std::span(&k, 1));
  CHECK(contains(md, "amdhsa.target: amdgcn-amd-amdhsa--gfx942"));
  CHECK(contains(md, ".symbol: scale_kernel.kd"));
  CHECK(contains(render_file_header(Arch::gfx950), ".amdhsa_code_object_version 5"));
}

TEST_CASE("emit: invalid specs are rejected with the field and valid range", "[asm][emit]") {
  auto base = test::minimal_spec(Arch::gfx942);
  auto k = base;
  k.vgpr_count = 300;
  CHECK(contains(error_of(k), "vgpr_count 300"));
  k = base;
  k.lds_bytes = 70000;
  CHECK(contains(error_of(k), "65536"));
  k.arch = Arch::gfx950;
  CHECK(error_of(k).empty());  // gfx950 has 160 KiB
  k = base;
  k.sgpr_count = 100;
  CHECK(contains(error_of(k), "102"));
  k = base;
  k.sgpr_count = 2;  // kernarg ptr (2) + wg id x,y (2) need 4
  CHECK(contains(error_of(k), "preloads"));
  k = base;
  k.name = "9bad name";
  CHECK(contains(error_of(k), "name"));
  k = base;
  k.args[1].offset = 14;  // 14 + 4 > kernarg_size 16
  CHECK(contains(error_of(k), "argument 'x'"));
  k = base;
  k.args[0].size = 4;
  CHECK(contains(error_of(k), "8 bytes"));
  k = base;
  k.workitem_id_vgprs = 3;
  CHECK(contains(error_of(k), "workitem_id_vgprs"));
  k = base;
  k.max_flat_workgroup_size = 2048;
  CHECK(contains(error_of(k), "1..1024"));
  k = base;
  k.reqd_workgroup_size = std::array<uint32_t, 3>{64, 8, 1};  // 512 > 256
  CHECK(contains(error_of(k), "reqd_workgroup_size"));
  CHECK_THROWS_AS(render_kernel_file(k, "s_endpgm"), Error);

  std::vector<KernelDescriptorSpec> mixed = {test::minimal_spec(Arch::gfx942), test::scale_spec(Arch::gfx950)};
  CHECK_THROWS_AS(render_amdgpu_metadata(mixed), Error);
  CHECK_THROWS_AS(render_amdgpu_metadata({}), Error);
}

TEST_CASE("emit: two kernels in one code object", "[asm][emit]") {
  auto a = test::scale_spec(Arch::gfx950);
  auto b = test::minimal_spec(Arch::gfx950);
  std::string text = render_file_header(Arch::gfx950);
  text += render_code_begin(a) + test::scale_body() + render_code_end(a);
  text += render_code_begin(b) + "\ts_endpgm\n" + render_code_end(b);
  text += render_amdhsa_kernel(a) + render_amdhsa_kernel(b);
  std::vector<KernelDescriptorSpec> both = {a, b};
  text += render_amdgpu_metadata(both);
  AsmResult r = assemble(text, Arch::gfx950);
  INFO(format_diagnostics(r.diagnostics));
  REQUIRE(r.ok);
  auto info = test::read_code_object(link_code_object(r.object, Arch::gfx950));
  CHECK(info.descriptors.count("scale_kernel.kd") == 1);
  CHECK(info.descriptors.count("minimal.kd") == 1);
  CHECK(info.descriptors.at("minimal.kd").group_segment_fixed_size == 4096);
  CHECK(info.descriptors.at("scale_kernel.kd").group_segment_fixed_size == 0);
  REQUIRE(info.kernels.size() == 2);
  CHECK(info.kernels[0].fields.at(".name") == "scale_kernel");
  CHECK(info.kernels[1].fields.at(".name") == "minimal");
}

TEST_CASE("emit: a descriptor without its code does not produce a code object", "[asm][emit]") {
  // The descriptor's entry offset refers to the kernel symbol, which is never
  // defined here: the toolchain must refuse rather than emit a dangling entry.
  auto k = test::minimal_spec(Arch::gfx942);
  std::string text = render_file_header(Arch::gfx942) + render_amdhsa_kernel(k);
  AsmResult r = assemble(text, Arch::gfx942);
  if (r.ok) {
    CHECK_THROWS_WITH(link_code_object(r.object, Arch::gfx942), Catch::Contains("minimal"));
  } else {
    CHECK(format_diagnostics(r.diagnostics).find("minimal") != std::string::npos);
  }
}
