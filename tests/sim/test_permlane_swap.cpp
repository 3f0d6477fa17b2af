// gfx950 v_permlane16_swap_b32 / v_permlane32_swap_b32 through clang's builtins, against the
// lane exchange the LLVM AMDGPUUsage text describes, computed here independently per lane.
#include <catch2/catch.hpp>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;

TEST_CASE("v_permlane16_swap / v_permlane32_swap exchange 16- and 32-lane rows (gfx950)", "[sim][permlane]") {
  const char* src = R"(
extern "C" __global__ void sw(unsigned* o) {
  unsigned i = tid();
  unsigned a = i * 3 + 1000, b = i * 7 + 5000;
  auto r = __builtin_amdgcn_permlane16_swap(a, b, false, false);
  auto s = __builtin_amdgcn_permlane32_swap(a, b, false, false);
  o[i * 4 + 0] = r[0]; o[i * 4 + 1] = r[1]; o[i * 4 + 2] = s[0]; o[i * 4 + 3] = s[1];
})";
  Device dev(Arch::gfx950);
  auto co = load_hip(src, Arch::gfx950);
  std::string dis = dev.sim.disassemble(co, "sw");
  REQUIRE(dis.find("v_permlane16_swap_b32") != std::string::npos);
  REQUIRE(dis.find("v_permlane32_swap_b32") != std::string::npos);
  uint64_t o = dev.upload(std::vector<uint32_t>(64 * 4), "o");
  dev.run(co, "sw", ArgPack().add(o), dims1(1, 64));
  auto got = dev.download<uint32_t>(o, 64 * 4);
  auto a = [](unsigned l) { return l * 3 + 1000; };
  auto b = [](unsigned l) { return l * 7 + 5000; };
  for (unsigned l = 0; l < 64; ++l) {
    INFO("lane " << l);
    const unsigned row = l / 16;
    // permlane16: odd rows of the first operand <-> even rows of the second.
    CHECK(got[l * 4 + 0] == (row % 2 == 1 ? b(l - 16) : a(l)));
    CHECK(got[l * 4 + 1] == (row % 2 == 0 ? a(l + 16) : b(l)));
    // permlane32: rows 2-3 of the first operand <-> rows 0-1 of the second.
    CHECK(got[l * 4 + 2] == (l >= 32 ? b(l - 32) : a(l)));
    CHECK(got[l * 4 + 3] == (l < 32 ? a(l + 32) : b(l)));
  }
}
