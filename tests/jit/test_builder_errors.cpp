// Bad input to the builder: each error names the culprit, the arch and the call site.
#include <catch2/catch.hpp>

#include "jit/kernel.hpp"

using namespace cdnajit;
using Catch::Matchers::Contains;

namespace {
std::string this_file_line(int line) { return "test_builder_errors.cpp:" + std::to_string(line); }
}  // namespace

TEST_CASE("wrong register class names instruction, operand, arch and call site", "[builder][errors]") {
  Kernel k("bad_class", Arch::gfx942);
  Reg s = k.sgpr("s"), v = k.vgpr("v");
  int line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(k.v_add_f32(s, v, v),
                      Contains("v_add_f32") && Contains("gfx942") && Contains("SGPR 's'") && Contains(this_file_line(line)));
}

TEST_CASE("wrong register width is rejected", "[builder][errors]") {
  Kernel k("bad_width", Arch::gfx950);
  Reg v2 = k.vgpr("pair", 2), v = k.vgpr("v");
  REQUIRE_THROWS_WITH(k.v_add_f32(v2, v, v), Contains("v_add_f32") && Contains("2 dword") && Contains("must be 1"));
}

TEST_CASE("immediate out of range", "[builder][errors]") {
  Kernel k("bad_imm", Arch::gfx942);
  Reg s = k.sgpr("s");
  REQUIRE_THROWS_WITH(k.s_movk_i32(s, 70000), Contains("s_movk_i32") && Contains("70000") && Contains("-32768..65535"));
  Reg v = k.vgpr("v");
  // VOP3 sources take only inline constants on gfx9.
  REQUIRE_THROWS_WITH(k.v_fma_f32(v, v, v, 1000), Contains("v_fma_f32") && Contains("not an inline constant"));
}

TEST_CASE("instruction the arch lacks", "[builder][errors]") {
  Kernel k("no_dot2", Arch::gfx942);
  Reg v = k.vgpr("v");
  int line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(k.v_dot2_f32_bf16(v, v, v, v),
                      Contains("v_dot2_f32_bf16") && Contains("gfx942 does not have") && Contains("gfx950") &&
                          Contains(this_file_line(line)));
  Kernel k2("has_dot2", Arch::gfx950);
  Reg w = k2.vgpr("w");
  REQUIRE_NOTHROW(k2.v_dot2_f32_bf16(w, w, w, w));
}

TEST_CASE("operand count is checked", "[builder][errors]") {
  Kernel k("bad_count", Arch::gfx942);
  Reg v = k.vgpr("v");
  REQUIRE_THROWS_WITH(k.v_add_f32(v, v), Contains("v_add_f32") && Contains("expected 3"));
  REQUIRE_THROWS_WITH(k.emit("v_not_an_instruction", {v}), Contains("v_not_an_instruction") && Contains("raw()"));
}

TEST_CASE("modifier the instruction does not take", "[builder][errors]") {
  Kernel k("bad_mod", Arch::gfx942);
  Reg v = k.vgpr("v");
  REQUIRE_THROWS_WITH(k.v_add_u32(v, v, v, Offset(16)), Contains("v_add_u32") && Contains("offset"));
}

TEST_CASE("LDS exhausted names the arch limit", "[builder][errors]") {
  Kernel k942("lds942", Arch::gfx942);
  REQUIRE_NOTHROW(k942.lds_alloc("tile", 32768));
  REQUIRE_THROWS_WITH(k942.lds_alloc("more", 40000), Contains("LDS exhausted") && Contains("65536") && Contains("'more'"));
  Kernel k950("lds950", Arch::gfx950);
  REQUIRE_NOTHROW(k950.lds_alloc("tile", 100000));  // fits the 160 KiB of gfx950
  REQUIRE_THROWS_WITH(k950.lds_alloc("more", 70000), Contains("163840"));
}

TEST_CASE("VGPR exhaustion lists peak pressure and live values", "[builder][errors]") {
  Kernel k("too_many", Arch::gfx942);
  k.set_workgroup_size(64);
  std::vector<Reg> regs;
  for (int i = 0; i < 300; ++i) {
    regs.push_back(k.vgpr("keep" + std::to_string(i)));
    k.v_mov_b32(regs.back(), i % 60);
  }
  Reg sum = k.vgpr("sum");
  k.v_mov_b32(sum, 0);
  for (const Reg& r : regs) k.v_add_u32(sum, sum, r);  // all 300 are live at once before this loop
  REQUIRE_THROWS_WITH(k.build(), Contains("VGPR") && Contains("keep") && Contains("test_builder_errors.cpp"));
}

TEST_CASE("unbound label is an error", "[builder][errors]") {
  Kernel k("unbound", Arch::gfx942);
  Label l = k.new_label("nowhere");
  k.s_branch(l);
  REQUIRE_THROWS_WITH(k.build(), Contains("nowhere") && Contains("never bound"));
}

TEST_CASE("LLVM diagnostics map back to the builder call site", "[builder][errors]") {
  Kernel k("raw_bad", Arch::gfx942);
  Reg v = k.vgpr("v");
  k.v_mov_b32(v, 0);
  int line = __LINE__ + 1;
  k.raw("v_bogus_instruction {0}, {0}", {v}, {0});
  REQUIRE_THROWS_WITH(k.build(), Contains("LLVM MC rejected") && Contains(this_file_line(line)));
}

TEST_CASE("register slices and arrays are range checked", "[builder][errors]") {
  Kernel k("slices", Arch::gfx942);
  Reg q = k.vgpr("q", 4);
  REQUIRE_NOTHROW(q.slice(2, 2));
  REQUIRE_THROWS_WITH(q.slice(3, 2), Contains("outside a 4-dword register"));
  RegArray a = k.vgprs("A", {3, 5});
  REQUIRE_NOTHROW(Reg(a[2][4]));
  REQUIRE_THROWS_WITH(a[3], Contains("out of range"));
  REQUIRE_THROWS_WITH(Reg(a[1]), Contains("subscript"));
}
