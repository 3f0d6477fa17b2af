// What the wait-count pass works out about a program that the hazard pass would work
// out again (the CFG, each instruction's register access), handed from one to the other
// by run_waitcnt_and_hazards() when the wait-count pass leaves the program as it was.
// Private to jit/passes.
#pragma once
#include <vector>

#include "jit/passes/cfg.hpp"
#include "jit/passes/passes.hpp"
#include "jit/passes/regs.hpp"

namespace cdnajit::passes {

struct SharedAnalysis {
  bool valid = false;                         // describes the program as it is now
  Cfg cfg;                                    // build_cfg of the program's analysis view
  const std::vector<Access>* access = nullptr;  // access_of of each entry of that view
};

// As run_waitcnt(); fills `out` (valid) if `program` is unchanged when it returns.
Report run_waitcnt(std::vector<isa::MachineInst>& program, Arch arch, Mode mode, SharedAnalysis* out,
                   BarrierRelease release = BarrierRelease::Lds);
// As run_hazards(); takes the CFG and accesses from `in` if it is valid.
Report run_hazards(std::vector<isa::MachineInst>& program, Arch arch, Mode mode, const SharedAnalysis* in);

}  // namespace cdnajit::passes
