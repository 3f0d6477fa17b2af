// Code objects the builder produces, read back with the project's ELF reader:
// kernel symbol, descriptor, register counts, LDS and kernarg sizes match the build.
#include <catch2/catch.hpp>

#include "codegen/examples/examples.hpp"
#include "jit/kernel.hpp"
#include "jit/codeobject/code_object.hpp"
#include "tests/asm/code_object_reader.hpp"

using namespace cdnajit;
using Catch::Matchers::Contains;

namespace {

// The same facts through LLVM's own ELF and msgpack readers (tests/asm/code_object_reader).
void check_llvm_readback(const BuildResult& r) {
  test::CodeObjectInfo info = test::read_code_object(r.code_object);
  CHECK(info.e_machine == 224);  // EM_AMDGPU
  CHECK(info.symbols.count(r.name) == 1);
  REQUIRE(info.descriptors.count(r.name + ".kd") == 1);
  const test::KernelDescriptorFields& kd = info.descriptors.at(r.name + ".kd");
  CHECK(kd.group_segment_fixed_size == r.stats.lds_bytes);
  CHECK(kd.kernarg_size == r.stats.kernarg_bytes);
  REQUIRE(info.kernels.size() == 1);
  const auto& md = info.kernels[0].fields;
  CHECK(md.at(".name") == r.name);
  CHECK(md.at(".vgpr_count") == std::to_string(r.stats.vgprs));
  CHECK(md.at(".agpr_count") == std::to_string(r.stats.agprs));
  CHECK(md.at(".kernarg_segment_size") == std::to_string(r.stats.kernarg_bytes));
  CHECK(md.at(".group_segment_fixed_size") == std::to_string(r.stats.lds_bytes));
}

void check_readback(const BuildResult& r) {
  check_llvm_readback(r);
  CodeObject co = read_code_object(r.code_object);
  REQUIRE(co.arch == r.arch);
  const KernelInfo* ki = co.find(r.name);
  REQUIRE(ki != nullptr);
  CHECK(ki->kernarg_size == r.stats.kernarg_bytes);
  CHECK(ki->group_segment_size == r.stats.lds_bytes);
  CHECK(int(ki->vgpr_count) == r.stats.vgprs);
  CHECK(int(ki->agpr_count) == r.stats.agprs);
  CHECK(ki->max_flat_workgroup_size == r.stats.workgroup_size);
  CHECK(ki->code_size > 0);
  CHECK(ki->kernarg_ptr);
  // The descriptor's VGPR granule (rsrc1 bits 5:0, unified file, 8-register granules) covers the registers used.
  uint32_t vgpr_granules = (ki->rsrc1 & 0x3f) + 1;
  CHECK(int(vgpr_granules * 8) >= r.stats.vgprs + r.stats.agprs);
}

}  // namespace

TEST_CASE("example kernels build and read back on both archs", "[builder][codeobject]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    for (const char* name : examples::kBuiltinNames) {
      INFO(name << " " << arch_name(arch));
      Kernel k(name, arch);
      REQUIRE(examples::define_builtin(k, name));
      BuildOptions o;
      o.use_cache = false;
      BuildResult r = k.build(o);
      REQUIRE(!r.code_object.empty());
      check_readback(r);
      CHECK(r.stats.kernarg_bytes == 28);  // three pointers and a u32
      CHECK(r.stats.vgprs >= 3);
      CHECK(r.stats.occupancy.waves_per_simd == 8);
    }
  }
}

TEST_CASE("the .s carries virtual register names and call sites", "[builder][asm]") {
  Kernel k("vector_add", Arch::gfx942);
  examples::define_vector_add(k);
  std::string s = k.assembly();
  CHECK_THAT(s, Contains("v_add_f32"));
  CHECK_THAT(s, Contains("va vb"));          // operand names in the comment
  CHECK_THAT(s, Contains("@examples.cpp:"));  // builder call site
  CHECK_THAT(s, Contains(".amdhsa_kernel vector_add"));
  CHECK_THAT(s, Contains(".amdgpu_metadata"));
}

TEST_CASE("dot2 is used on gfx950 and unpacking + fmac on gfx942", "[builder][asm]") {
  Kernel k950("bf16_dot", Arch::gfx950), k942("bf16_dot", Arch::gfx942);
  examples::define_bf16_dot(k950);
  examples::define_bf16_dot(k942);
  std::string s950 = k950.assembly(), s942 = k942.assembly();
  CHECK_THAT(s950, Contains("v_dot2_f32_bf16"));
  CHECK_THAT(s942, !Contains("v_dot2_f32_bf16"));
  CHECK_THAT(s942, Contains("v_fmac_f32"));
}

TEST_CASE("LDS and multi-dimensional arrays appear in the descriptor", "[builder][codeobject]") {
  Kernel k("lds_user", Arch::gfx950);
  k.set_workgroup_size(128);
  uint32_t off = k.lds_alloc("tile", 12000);
  CHECK(off == 0);
  RegArray acc = k.vgprs("acc", {2, 3});
  Reg addr = k.vgpr("addr");
  k.v_lshlrev_b32(addr, 2, k.workitem_id(0));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) k.ds_read_b32(acc[i][j], addr, Offset(4 * (i * 3 + j)));
  k.s_waitcnt(lgkmcnt(0));
  for (int i = 0; i < 2; ++i)
    for (int j = 1; j < 3; ++j) k.v_add_f32(acc[i][0], acc[i][0], acc[i][j]);
  k.v_add_f32(acc[0][0], acc[0][0], acc[1][0]);
  k.ds_write_b32(addr, acc[0][0]);
  k.s_endpgm();
  BuildOptions o;
  o.use_cache = false;
  BuildResult r = k.build(o);
  CHECK(r.stats.lds_bytes == 12000);
  CHECK(r.stats.workgroup_size == 128);
  check_readback(r);
}

TEST_CASE("uniform loops and branches build, and values stay live across the loop", "[builder][cfg]") {
  Kernel k("loop", Arch::gfx942);
  k.set_workgroup_size(64);
  Reg out = k.load_arg(k.arg_ptr("out", ElemType::u32, false));
  Reg count = k.load_arg(k.arg_value("count", ArgType::u32));
  Reg i = k.sgpr("i");
  Reg acc = k.vgpr("acc"), keep = k.vgpr("keep");
  k.v_mov_b32(keep, 7);  // defined before the loop, used after it
  k.v_mov_b32(acc, 0);
  k.s_mov_b32(i, 0);
  k.s_waitcnt(lgkmcnt(0));
  k.do_while_scc([&] { k.v_add_u32(acc, 3, acc); k.s_add_u32(i, i, 1); },
                 [&] { k.s_cmp_lt_u32(i, count); });
  k.if_scc([&] { k.s_cmp_eq_u32(i, 0); }, [&] { k.v_mov_b32(acc, 1); }, [&] { k.v_add_u32(acc, acc, keep); });
  Reg off = k.vgpr("off");
  k.v_lshlrev_b32(off, 2, k.workitem_id(0));
  k.global_store_dword(off, acc, out);
  BuildOptions o;
  o.use_cache = false;
  BuildResult r = k.build(o);
  check_readback(r);
  CHECK_THAT(r.assembly, Contains("s_cbranch_scc1"));
}

TEST_CASE("a second identical build is a code-object cache hit with identical bytes", "[builder][cache]") {
  auto build = [] {
    Kernel k("vector_add", Arch::gfx950);
    examples::define_vector_add(k);
    return k.build();
  };
  BuildResult first = build();
  BuildResult second = build();
  CHECK(second.stats.cache_hit);
  CHECK(second.code_object == first.code_object);
}
