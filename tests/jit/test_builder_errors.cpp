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
  // The call on a line of its own, outside the macro: which line of a multi-line macro
  // argument the compiler reports as the call site differs between GCC and clang.
  int line = __LINE__ + 1;
  auto call = [&] { k.v_add_f32(s, v, v); };
  REQUIRE_THROWS_WITH(call(), Contains("v_add_f32") && Contains("gfx942") && Contains("SGPR 's'") && Contains(this_file_line(line)));
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
  auto call = [&] { k.v_dot2_f32_bf16(v, v, v, v); };
  REQUIRE_THROWS_WITH(call(), Contains("v_dot2_f32_bf16") && Contains("gfx942 does not have") && Contains("gfx950") &&
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

TEST_CASE("an unknown mnemonic names the table entry it most likely means", "[builder][errors]") {
  Kernel k("near_miss", Arch::gfx950);
  Reg acc = k.vgpr("acc", 16), a = k.vgpr("a", 2);
  REQUIRE_THROWS_WITH(k.emit("v_mfma_f32_32x32x8_bf16_1k", {acc, a, a, acc}),
                      Contains("not in the instruction table") && Contains("did you mean 'v_mfma_f32_32x32x8_bf16'"));
  REQUIRE_THROWS_WITH(k.emit("v_add_f32_e64", {a[0], a[0], a[1]}), Contains("did you mean 'v_add_f32'"));
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

TEST_CASE("slice, array index, workgroup size/id and wait-count errors carry the caller's file:line", "[builder][errors]") {
  Kernel k("where", Arch::gfx942);
  Reg q = k.vgpr("q", 4);
  RegArray a = k.vgprs("A", {3, 5});
  int line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(q.slice(3, 2), Contains(this_file_line(line)));
  line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(q[4], Contains(this_file_line(line)) && Contains("outside a 4-dword register"));
  line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(a[3], Contains(this_file_line(line)) && Contains("out of range (valid: 0..2)"));
  line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(a[1][7], Contains(this_file_line(line)) && Contains("(valid: 0..4)"));
  line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(a.at({1}), Contains(this_file_line(line)) && Contains("subscript"));
  line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(a.flat(15), Contains(this_file_line(line)));
  line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(k.set_workgroup_size(2048), Contains(this_file_line(line)) && Contains("1..1024"));
  line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(k.workgroup_id(3), Contains(this_file_line(line)) && Contains("0, 1 or 2"));
  line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(k.s_waitcnt(vmcnt(64)), Contains(this_file_line(line)) && Contains("vmcnt(64)") && Contains("0..63"));
  line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(k.s_waitcnt(lgkmcnt(100)), Contains(this_file_line(line)) && Contains("lgkmcnt(100)") && Contains("0..15"));
}

TEST_CASE("a register or label of another Kernel is an error, never an alias", "[builder][errors]") {
  Kernel k1("one", Arch::gfx942), k2("two", Arch::gfx942);
  Reg a = k1.vgpr("a"), b = k2.vgpr("b");  // both are vreg #0 of their kernel
  k2.v_mov_b32(b, 0);
  int line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(k2.v_add_f32(b, a, b), Contains("another Kernel") && Contains(this_file_line(line)));
  REQUIRE_THROWS_WITH(k2.raw("v_mov_b32 {0}, 0", {a}, {0}), Contains("another kernel"));
  Label l = k1.new_label("x");
  REQUIRE_THROWS_WITH(k2.s_branch(l), Contains("label from another kernel"));
  REQUIRE_THROWS_WITH(k2.bind(l), Contains("another kernel"));
  REQUIRE_THROWS_WITH(k2.v_mov_b32(Reg{}, 0), Contains("default-constructed Reg"));
}

TEST_CASE("names and comments cannot inject lines into the .s", "[builder][errors]") {
  Kernel k("inject", Arch::gfx942);
  int line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(k.vgpr("x\n s_endpgm\n"), Contains("register name") && Contains("\\x0a") && Contains(this_file_line(line)));
  REQUIRE_THROWS_WITH(k.comment("note\nv_mov_b32 v0, 0"), Contains("comment") && Contains("control character"));
  REQUIRE_THROWS_WITH(k.new_label("a\nb"), Contains("label name"));
  REQUIRE_THROWS_WITH(k.new_label("a:"), Contains("letters, digits and '_'"));
  REQUIRE_THROWS_WITH(k.arg_ptr("p\r", ElemType::f32, true), Contains("argument name"));
  REQUIRE_THROWS_WITH(k.lds_alloc("t\n", 64), Contains("LDS block name"));
  Reg v = k.vgpr("v");
  REQUIRE_THROWS_WITH(k.raw("v_mov_b32 {0}, 0\ns_endpgm", {v}, {0}), Contains("one instruction per raw() call"));
  // Printable names and comments still work and appear verbatim.
  k.comment("plain; text (with symbols) # ok");
  Reg w = k.vgpr("w[weird name]");
  k.v_mov_b32(w, 1);
  std::string s = k.assembly();
  CHECK_THAT(s, Contains("plain; text (with symbols) # ok") && Contains("w[weird name]"));
}

TEST_CASE("a register read before it is written on some path is a build error naming both sites", "[builder][errors]") {
  SECTION("never written") {
    Kernel k("undef", Arch::gfx942);
    Reg out = k.vgpr("out"), x = k.vgpr("x");
    int line = __LINE__ + 1;
    k.v_add_f32(out, x, x);
    REQUIRE_THROWS_WITH(k.build(), Contains("register 'x'") && Contains(this_file_line(line)) &&
                                       Contains(this_file_line(line - 2)) && Contains("nothing writes it"));
  }
  SECTION("written on one branch only") {
    Kernel k("one_path", Arch::gfx942);
    Reg s = k.sgpr("s"), x = k.vgpr("x"), out = k.vgpr("out");
    k.s_mov_b32(s, 1);
    int def_line = 0;
    k.if_scc([&] { k.s_cmp_eq_u32(s, 0); },
             [&] {
               def_line = __LINE__ + 1;
               k.v_mov_b32(x, 2);
             });
    int use_line = __LINE__ + 1;
    k.v_mov_b32(out, x);
    REQUIRE_THROWS_WITH(k.build(), Contains("register 'x'") && Contains(this_file_line(use_line)) &&
                                       Contains("the first write is at " + this_file_line(def_line)) &&
                                       Contains("without writing it"));
  }
  SECTION("read-modify-write of an unwritten accumulator") {
    Kernel k("fmac", Arch::gfx942);
    Reg acc = k.vgpr("acc"), a = k.vgpr("a");
    k.v_mov_b32(a, 1.0f);
    k.v_fmac_f32(acc, a, a);
    REQUIRE_THROWS_WITH(k.build(), Contains("register 'acc'"));
  }
  SECTION("written on every path is fine, loops included") {
    Kernel k("all_paths", Arch::gfx942);
    Reg s = k.sgpr("s"), x = k.vgpr("x"), out = k.vgpr("out");
    k.s_mov_b32(s, 1);
    k.if_scc([&] { k.s_cmp_eq_u32(s, 0); }, [&] { k.v_mov_b32(x, 2); }, [&] { k.v_mov_b32(x, 3); });
    k.v_mov_b32(out, x);
    Reg i = k.sgpr("i");
    k.s_mov_b32(i, 0);
    k.do_while_scc([&] { k.s_add_u32(i, i, 1); }, [&] { k.s_cmp_lt_u32(i, 4); });
    REQUIRE_NOTHROW(k.assembly());
  }
}

// gfx90a+ needs 2+-dword VGPR/AGPR tuples at even registers (SGPR triples and wider at a
// multiple of 4). LLVM's parser rejects ds_read_b64 v[3:4], v0; the direct encoder used to
// emit it. A slice at an odd dword of an even-aligned tuple is refused at the call.
TEST_CASE("a misaligned register slice is an error at the call, on both archs", "[builder][errors][align]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    Kernel k("odd_slice", arch);
    Reg v4 = k.vgpr("v4", 4), a = k.vgpr("a");
    k.v_mov_b32(a, 0);
    int line = __LINE__ + 1;
    auto call = [&] { k.ds_read_b64(v4.slice(1, 2), a); };
    REQUIRE_THROWS_WITH(call(), Contains("ds_read_b64") && Contains(std::string(arch_name(arch))) &&
                                    Contains("v4[1:2]") && Contains("multiple of 2") && Contains(".slice(0, 2)") &&
                                    Contains(this_file_line(line)));
    REQUIRE_NOTHROW(k.ds_read_b64(v4.slice(2, 2), a));  // even: fine
    Reg s8 = k.sgpr("s8", 8);
    REQUIRE_THROWS_WITH(k.s_load_dwordx4(s8.slice(2, 4), k.kernarg_ptr(), 0), Contains("multiple of 4"));
  }
}

// A tuple declared with alignment 1 can land anywhere: the check after allocation (the one
// both encoders rely on) names the call site. One of the two slices below is misaligned
// wherever the allocator puts the triple.
TEST_CASE("a tuple misaligned by allocation is an error at the call site, with either encoder", "[builder][errors][align]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950})
    for (Encoder e : {Encoder::Direct, Encoder::Text}) {
      Kernel k("odd_alloc", arch);
      Reg t = k.vgpr("t", 3, /*align=*/1), a = k.vgpr("a");
      k.v_mov_b32(a, 0);
      int first = __LINE__ + 1;
      k.ds_read_b64(t.slice(0, 2), a);
      k.ds_read_b64(t.slice(1, 2), a);
      k.v_add_u32(a, t[0], t[2]);
      BuildOptions o;
      o.use_cache = false;
      o.encoder = e;
      REQUIRE_THROWS_WITH(k.build(o), Contains("ds_read_b64") && Contains("multiple of 2") && Contains("not encodable") &&
                                          (Contains(this_file_line(first)) || Contains(this_file_line(first + 1))));
    }
}
