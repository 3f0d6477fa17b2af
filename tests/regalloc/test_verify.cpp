#include <catch2/catch.hpp>

#include "tests/regalloc/program.hpp"

using namespace ratest;

namespace {

struct Sample {
  Program p;
  uint32_t karg, x, y, pair, acc;
};

// A loop with a carried accumulator, a pinned live_in pair and a tuple.
Sample sample() {
  Sample s;
  Program& p = s.p;
  auto entry = p.block(), body = p.block(), exit = p.block();
  p.edge(entry, body);
  p.edge(body, body);
  p.edge(body, exit);
  s.karg = p.reg(RegClass::S, "kernarg_ptr", 2, 2, 0, true);
  s.x = p.v("x");
  s.y = p.v("y");
  s.pair = p.v("pair", 2, 2);
  s.acc = p.reg(RegClass::A, "acc", 4, 4);
  p.ins(entry, {s.karg}, {s.x});
  p.ins(entry, {}, {s.acc});
  p.ins(body, {s.x}, {s.y});           // x carried around the loop
  p.ins(body, {s.y}, {s.pair});
  p.ins(body, {s.pair}, {}, {s.acc});  // accumulate into a slice
  p.ins(exit, {s.acc}, {});
  return s;
}

}  // namespace

TEST_CASE("verify: accepts the allocator's result", "[regalloc][verify]") {
  Sample s = sample();
  Allocation a = allocate(s.p.f, {});
  CHECK_NOTHROW(verify(s.p.f, a));
  CHECK(a.sgprs_used == 2);
  CHECK(a.agprs_used == 4);
}

TEST_CASE("verify: catches two simultaneously live values on one register", "[regalloc][verify]") {
  Sample s = sample();
  Allocation a = allocate(s.p.f, {});
  // x is live around the loop while y is defined in it.
  a.phys[s.y] = a.phys[s.x];
  a.vgprs_used = std::max({a.phys[s.x] + 1, a.phys[s.y] + 1, a.phys[s.pair] + 2});
  CHECK_THROWS_WITH(verify(s.p.f, a), Catch::Contains("overlaps") && Catch::Contains("'x'") && Catch::Contains("'y'"));
}

TEST_CASE("verify: catches a dst sharing a register with a src of the same instruction", "[regalloc][verify]") {
  Sample s = sample();
  Allocation a = allocate(s.p.f, {});
  // y is read by the instruction that defines pair (and dies there).
  a.phys[s.pair] = a.phys[s.y] - a.phys[s.y] % 2;
  a.vgprs_used = 0;
  for (uint32_t v : {s.x, s.y, s.pair}) a.vgprs_used = std::max(a.vgprs_used, a.phys[v] + s.p.f.vregs[v].dwords);
  CHECK_THROWS_WITH(verify(s.p.f, a), Catch::Contains("overlaps"));
}

TEST_CASE("verify: catches misalignment, moved pins, out-of-range and missing registers", "[regalloc][verify]") {
  Sample s = sample();
  const Allocation good = allocate(s.p.f, {});

  Allocation a = good;
  a.phys[s.acc] = 1;
  a.agprs_used = 5;
  CHECK_THROWS_WITH(verify(s.p.f, a), Catch::Contains("alignment of 4"));

  a = good;
  a.phys[s.karg] = 2;
  a.sgprs_used = 4;
  CHECK_THROWS_WITH(verify(s.p.f, a), Catch::Contains("pinned to s[0:1]"));

  a = good;
  a.phys[s.pair] = 256;
  a.vgprs_used = 258;
  CHECK_THROWS_WITH(verify(s.p.f, a), Catch::Contains("out of range"));

  a = good;
  a.phys[s.y] = -1;
  CHECK_THROWS_WITH(verify(s.p.f, a), Catch::Contains("has no register"));

  a = good;
  a.vgprs_used += 1;
  CHECK_THROWS_WITH(verify(s.p.f, a), Catch::Contains("VGPRs used is reported"));

  a = good;
  a.phys.pop_back();
  CHECK_THROWS_WITH(verify(s.p.f, a), Catch::Contains("entries for"));
}

TEST_CASE("verify: live_in values must not overlap at entry", "[regalloc][verify]") {
  Program p;
  auto b = p.block();
  auto k = p.reg(RegClass::S, "kernarg_ptr", 2, 2, -1, true);
  auto w = p.reg(RegClass::S, "wg_id", 1, 1, -1, true);
  p.ins(b, {}, {});
  p.ins(b, {k}, {});
  Allocation a = allocate(p.f, {});
  REQUIRE_NOTHROW(verify(p.f, a));
  a.phys[w] = 1;  // inside k; w is never read but the hardware writes it at entry
  a.sgprs_used = 2;
  CHECK_THROWS_WITH(verify(p.f, a), Catch::Contains("overlaps") && Catch::Contains("'wg_id'"));
}

TEST_CASE("verify: catches a value clobbered while it is only live through (not read)", "[regalloc][verify]") {
  Program p;
  auto b = p.block();
  auto x = p.v("x"), y = p.v("y");
  p.ins(b, {}, {x});   // 0
  p.ins(b, {}, {y});   // 1: x neither read nor written here
  p.ins(b, {y}, {});   // 2
  p.ins(b, {x}, {});   // 3
  Allocation a = allocate(p.f, {});
  REQUIRE_NOTHROW(verify(p.f, a));
  a.phys[y] = a.phys[x];
  a.vgprs_used = 1;
  CHECK_THROWS_WITH(verify(p.f, a), Catch::Contains("'y'") && Catch::Contains("'x'") && Catch::Contains("overlaps"));
}
