// The builder, the allocator and the descriptor agree on the target facts of
// jit/isa/target.hpp: SGPR limits and special-register widths.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "jit/isa/machine_inst.hpp"
#include "jit/isa/target.hpp"
#include "jit/isa/validate.hpp"
#include "jit/kernel.hpp"

using namespace cdnajit;
using Catch::Matchers::Contains;

namespace {

// Keeps `n` SGPR values live at once (each written, then all summed).
void keep_sgprs_live(Kernel& k, int n) {
  k.set_workgroup_size(64);
  std::vector<Reg> regs;
  for (int i = 0; i < n; ++i) {
    regs.push_back(k.sgpr("keep" + std::to_string(i)));
    k.s_mov_b32(regs.back(), i);
  }
  Reg sum = k.sgpr("sum");
  k.s_mov_b32(sum, 0);
  for (const Reg& r : regs) k.s_add_u32(sum, sum, r);
}

}  // namespace

TEST_CASE("an SGPR demand above the allocatable 96 is the allocator's exhaustion report", "[builder][target]") {
  static_assert(isa::target::kAllocatableSgprs + isa::target::kReservedSgprs == isa::target::kAddressableSgprs);
  // 99 live values (plus sum and the preloaded kernarg pointer / workgroup id) cannot fit
  // the 96 SGPRs a wave may allocate besides VCC, FLAT_SCRATCH and XNACK_MASK: the
  // allocator must say so and name live values, not the descriptor afterwards.
  Kernel k("sgprs_99", Arch::gfx942);
  keep_sgprs_live(k, 99);
  REQUIRE_THROWS_WITH(k.build(), Contains("SGPR") && Contains("96") && Contains("keep") &&
                                     Contains("test_target_limits.cpp") && !Contains("sgpr_count"));
}

TEST_CASE("an SGPR demand that fits the allocatable SGPRs builds", "[builder][target]") {
  Kernel k("sgprs_80", Arch::gfx942);
  keep_sgprs_live(k, 80);
  BuildResult r = k.build();
  CHECK(r.stats.sgprs <= isa::target::kAllocatableSgprs);
  CHECK(r.stats.sgprs > 80);
}

TEST_CASE("s_mov_b64 xnack_mask, s[2:3] is accepted as LLVM accepts it", "[builder][target]") {
  // The builder's operand check used to think xnack_mask was one dword wide.
  Kernel k("xnack_write", Arch::gfx942);
  k.set_workgroup_size(64);
  Reg pair = k.sgpr("pair", 2);
  k.s_mov_b64(pair, 0);
  REQUIRE_NOTHROW(k.s_mov_b64(isa::SpecialReg::XNACK_MASK, pair));
  REQUIRE_NOTHROW(k.s_mov_b64(pair, isa::SpecialReg::XNACK_MASK));
  REQUIRE_NOTHROW(k.build());  // LLVM MC assembles the result
  // A 64-bit special in a 32-bit slot is still refused.
  Reg one = k.sgpr("one");
  REQUIRE_THROWS_WITH(k.s_mov_b32(one, isa::SpecialReg::XNACK_MASK), Contains("s_mov_b32") && Contains("dword"));

  // The physical validator agrees.
  isa::MachineInst mi;
  std::string err;
  REQUIRE(isa::parse("s_mov_b64 xnack_mask, s[2:3]", mi, err));
  CHECK(isa::validate(mi, Arch::gfx942, err));
  INFO(err);
  REQUIRE(isa::parse("s_mov_b32 s2, xnack_mask", mi, err));
  CHECK_FALSE(isa::validate(mi, Arch::gfx942, err));
}
