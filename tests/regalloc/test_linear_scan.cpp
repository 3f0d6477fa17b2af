#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <random>

#include "tests/regalloc/program.hpp"

using namespace ratest;

namespace {

// entry: x = ...; loop head: use x; body: b1 = ..., b2 = ...; back edge; exit.
Program loop_program(bool with_back_edge, uint32_t& x, uint32_t& b1, uint32_t& b2) {
  Program p;
  auto entry = p.block(), head = p.block(), body = p.block(), exit = p.block();
  p.edge(entry, head);
  p.edge(head, body);
  if (with_back_edge) p.edge(body, head);
  p.edge(body, exit);
  x = p.v("x");
  b1 = p.v("b1");
  b2 = p.v("b2");
  auto h = p.v("h");
  p.ins(entry, {}, {x});
  p.ins(head, {x}, {h});  // the only read of x, at the loop's start
  p.ins(body, {h}, {b1});
  p.ins(body, {b1}, {b2});
  p.ins(body, {b2}, {});
  p.ins(exit, {}, {});
  return p;
}

}  // namespace

TEST_CASE("linear scan: loop-carried value keeps its register across the whole loop", "[regalloc][scan]") {
  uint32_t x, b1, b2;
  Program p = loop_program(true, x, b1, b2);
  Allocation a = allocate(p.f, {});
  REQUIRE_NOTHROW(verify(p.f, a));
  CHECK(!phys_overlap(p.f, a, x, b1));
  CHECK(!phys_overlap(p.f, a, x, b2));

  // Control: without the back edge x dies at the loop start and its register
  // is reused (lowest free index), so the check above is discriminating.
  Program q = loop_program(false, x, b1, b2);
  Allocation aq = allocate(q.f, {});
  REQUIRE_NOTHROW(verify(q.f, aq));
  CHECK((phys_overlap(q.f, aq, x, b1) || phys_overlap(q.f, aq, x, b2)));
}

TEST_CASE("linear scan: dst never shares a register with a src of the same instruction", "[regalloc][scan]") {
  Program p;
  auto b = p.block();
  auto x = p.v("x"), y = p.v("y");
  p.ins(b, {}, {x});
  p.ins(b, {x}, {y});  // x dies here, y born here
  p.ins(b, {y}, {});
  Allocation a = allocate(p.f, {});
  CHECK(a.phys[x] == 0);
  CHECK(a.phys[y] == 1);
  CHECK(a.vgprs_used == 2);
}

TEST_CASE("linear scan: registers are reused after a value dies", "[regalloc][scan]") {
  Program p;
  auto b = p.block();
  auto x = p.v("x"), y = p.v("y"), z = p.v("z");
  p.ins(b, {}, {x});
  p.ins(b, {x}, {});
  p.ins(b, {}, {y});  // x is dead: y takes v0 again
  p.ins(b, {y}, {z});
  p.ins(b, {z}, {});
  Allocation a = allocate(p.f, {});
  CHECK(a.phys[x] == 0);
  CHECK(a.phys[y] == 0);
  CHECK(a.phys[z] == 1);
  CHECK(a.vgprs_used == 2);
  CHECK(a.peak_vgpr_pressure == 2);
}

TEST_CASE("linear scan: 2- and 4-dword tuples are aligned", "[regalloc][scan]") {
  Program p;
  auto b = p.block();
  auto one = p.v("one"), pair = p.v("pair", 2, 2), quad = p.v("quad", 4, 4), odd = p.v("odd", 3, 1);
  auto gap = p.v("gap");
  auto spair = p.s("spair", 2, 2), s1 = p.s("s1"), squad = p.s("squad", 4, 4);
  p.ins(b, {}, {one, s1});
  p.ins(b, {}, {pair, spair});
  p.ins(b, {}, {quad, squad});
  p.ins(b, {}, {odd});
  p.ins(b, {}, {gap});
  p.ins(b, {one, pair, quad, odd, gap, spair, s1, squad}, {});
  Allocation a = allocate(p.f, {});
  REQUIRE_NOTHROW(verify(p.f, a));
  CHECK(a.phys[one] == 0);
  CHECK(a.phys[pair] == 2);  // v1 is free but odd
  CHECK(a.phys[quad] == 4);
  CHECK(a.phys[odd] == 8);   // 3 dwords, align 1: v1 alone is too small
  CHECK(a.phys[gap] == 1);   // a single dword fills the alignment hole
  CHECK(a.phys[s1] == 0);
  CHECK(a.phys[spair] == 2);
  CHECK(a.phys[squad] == 4);
}

TEST_CASE("linear scan: pinned ABI values keep their registers; others avoid them", "[regalloc][scan]") {
  Program p;
  auto b = p.block();
  auto karg = p.reg(RegClass::S, "kernarg_ptr", 2, 2, 0, true);
  auto wgx = p.reg(RegClass::S, "wg_id_x", 1, 1, 2, true);
  auto tid = p.reg(RegClass::V, "v0_tid", 1, 1, 0, true);
  auto late = p.reg(RegClass::V, "late_pin", 1, 1, 3);  // pinned, defined later
  std::vector<uint32_t> vs;
  for (int i = 0; i < 6; ++i) vs.push_back(p.v(numbered("t", i)));
  auto s = p.s("s");
  p.ins(b, {karg}, {s});
  for (auto v : vs) p.ins(b, {tid}, {v});
  p.ins(b, {}, {late});
  p.ins(b, vs, {});
  p.ins(b, {late, wgx, s}, {});
  Allocation a = allocate(p.f, {});
  REQUIRE_NOTHROW(verify(p.f, a));
  CHECK(a.phys[karg] == 0);
  CHECK(a.phys[wgx] == 2);
  CHECK(a.phys[tid] == 0);
  CHECK(a.phys[late] == 3);
  CHECK(a.phys[s] == 3);  // s[0:1] and s2 are live
  for (auto v : vs) {
    CHECK(a.phys[v] != 3);  // reserved for late_pin although it starts later
    CHECK(a.phys[v] != 0);  // v0 (tid) is live until the last t is defined
  }
}

TEST_CASE("linear scan: two overlapping live pins are an error naming both", "[regalloc][scan]") {
  Program p;
  auto b = p.block();
  auto a1 = p.reg(RegClass::S, "first", 2, 2, 4);
  auto a2 = p.reg(RegClass::S, "second", 1, 1, 5);
  p.ins(b, {}, {a1});
  p.ins(b, {}, {a2});
  p.ins(b, {a1, a2}, {});
  CHECK_THROWS_WITH(allocate(p.f, {}),
                    Catch::Contains("'second'") && Catch::Contains("'first'") && Catch::Contains("s[4:5]"));
}

TEST_CASE("linear scan: exhaustion names class, limit, peak pressure and the live values", "[regalloc][scan]") {
  Program p;
  auto b = p.block();
  auto big = p.v("big_acc", 4, 4), med = p.v("med_pair", 2, 2), small = p.v("small_one");
  p.ins(b, {}, {small});
  p.ins(b, {}, {med});
  p.ins(b, {}, {big});
  p.ins(b, {big, med, small}, {});
  Limits lim;
  lim.vgprs = 6;  // needs 7 dwords
  try {
    allocate(p.f, lim);
    FAIL("expected exhaustion");
  } catch (const cdnajit::Error& e) {
    const std::string m = e.what();
    INFO(m);
    CHECK(m.find("out of VGPRs") != std::string::npos);
    CHECK(m.find("limit 6") != std::string::npos);
    CHECK(m.find("peak pressure 7") != std::string::npos);
    CHECK(m.find("kernel.cpp:1002") != std::string::npos);  // where it ran out (big's def)
    const size_t pb = m.find("'big_acc'"), pm = m.find("'med_pair'"), ps = m.find("'small_one'");
    REQUIRE(pb != std::string::npos);
    REQUIRE(pm != std::string::npos);
    REQUIRE(ps != std::string::npos);
    CHECK(pb < pm);  // sorted by size, largest first (in the list)
    CHECK(pm < ps);
    CHECK(m.find("test.cpp:") != std::string::npos);  // origins of the live values
  }
  lim.vgprs = 8;
  CHECK_NOTHROW(allocate(p.f, lim));
}

TEST_CASE("linear scan: fragmentation failure is explained", "[regalloc][scan]") {
  Program p;
  auto b = p.block();
  auto a0 = p.v("a0"), a1 = p.v("a1"), a2 = p.v("a2"), a3 = p.v("a3");
  auto quad = p.v("quad", 4, 4);
  p.ins(b, {}, {a0, a1, a2, a3});
  p.ins(b, {a0, a2}, {});  // v0 and v2 die; v1, v3 stay: no aligned 4-block in 8 regs
  p.ins(b, {}, {quad});
  p.ins(b, {a1, a3, quad}, {});
  Limits lim;
  lim.vgprs = 7;
  CHECK_THROWS_WITH(allocate(p.f, lim), Catch::Contains("fragmentation") && Catch::Contains("out of VGPRs"));
}

TEST_CASE("linear scan: bad limits and pins beyond the limit are errors", "[regalloc][scan]") {
  Program p;
  auto b = p.block();
  auto x = p.reg(RegClass::V, "pinned_high", 1, 1, 200);
  p.ins(b, {}, {x});
  Limits lim;
  lim.vgprs = 128;
  CHECK_THROWS_WITH(allocate(p.f, lim), Catch::Contains("pinned") && Catch::Contains("128"));
  lim.vgprs = 300;
  CHECK_THROWS_WITH(allocate(p.f, lim), Catch::Contains("outside 0..256"));
}

TEST_CASE("linear scan: a 2,000-instruction, 300-vreg function with loops allocates and verifies", "[regalloc][scan]") {
  std::mt19937 rng(1234);
  Program p;
  // 20 blocks of 100 instructions, a loop every few blocks.
  for (int i = 0; i < 20; ++i) p.block();
  for (uint32_t i = 0; i + 1 < 20; ++i) p.edge(i, i + 1);
  for (uint32_t i = 4; i < 20; i += 5) p.edge(i, i - 3);
  std::vector<uint32_t> vregs;
  for (int i = 0; i < 300; ++i) {
    const int kind = int(rng() % 10);
    vregs.push_back(kind < 2 ? p.s(numbered("s", i), 1 + int(rng() % 2) * 1, 1)
                             : p.v(numbered("v", i), kind == 9 ? 4 : 1, kind == 9 ? 4 : 1));
  }
  // Instruction i writes vreg i*300/2000 (about 7 consecutive writes each) and
  // reads a few of the previous ones, so ranges are short except around loops.
  int pos = 0;
  for (uint32_t blk = 0; blk < 20; ++blk)
    for (int k = 0; k < 100; ++k, ++pos) {
      const int cur = pos * 300 / 2000;
      std::vector<uint32_t> uses;
      for (int u = 0; u < 2 && cur > 0; ++u) uses.push_back(vregs[std::max(0, cur - 1 - int(rng() % 6))]);
      p.ins(blk, uses, {vregs[cur]});
    }
  Allocation a = allocate(p.f, {});
  REQUIRE_NOTHROW(verify(p.f, a));
  CHECK(a.vgprs_used >= a.peak_vgpr_pressure);
  CHECK(a.sgprs_used >= a.peak_sgpr_pressure);
  CHECK(a.vgprs_used > 0);
}
