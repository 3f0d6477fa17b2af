// The simulator's handler registrations restate facts the ISA table (jit/isa) owns. Until they read
// them from the table, this checks that they agree: the wait counter each bound row raises. The
// rows where they do not are listed below with what it means; making the simulator count them
// changes which programs its wait-count checker accepts, so each is a change of its own.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "runtime/sim/coverage.hpp"

TEST_CASE("the simulator's registered wait counters agree with the ISA table", "[sim][registry]") {
  const std::vector<std::string> known = {
      // A DS instruction without data: the table (LLVM) counts it on lgkmcnt, the simulator does not.
      "ds_nop: registry 0, table 2",
      // SMEM cache maintenance: counted on lgkmcnt by the table, not by the simulator, so an
      // s_waitcnt lgkmcnt(N > 0) while one is outstanding is not held to the out-of-order SMEM rule.
      "s_dcache_inv: registry 0, table 3",
      "s_dcache_wb: registry 0, table 3",
      // The value is delivered at issue without a pending entry: a read of the destination before
      // s_waitcnt lgkmcnt(0) (which LLVM inserts) is not reported by the simulator.
      "s_memrealtime: registry 0, table 3",
      "s_memtime: registry 0, table 3",
  };
  const auto bad = cdnajit::sim::counter_disagreements();
  for (const auto& line : bad) std::printf("counter disagreement: %s\n", line.c_str());
  CHECK(cdnajit::sim::executable_mnemonics().size() > 800);  // the registry is populated
  CHECK(bad == known);
}
