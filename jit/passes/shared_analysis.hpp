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
  // Equal instructions have equal accesses (no VGPR-indexed operand was widened by position).
  bool access_by_content = false;
};

// As run_waitcnt(); fills `out` (valid) if `program` is unchanged when it returns. With
// `first_same` (of `program` on entry; emptied if the program changed), equal instructions
// share their access and dataflow facts. Without `lds_dma_findings`, Verify leaves out the
// findings of rule "waitcnt-lds-dma" (passes.hpp).
Report run_waitcnt(std::vector<isa::MachineInst>& program, Arch arch, Mode mode, SharedAnalysis* out,
                   BarrierRelease release = BarrierRelease::Lds, std::vector<uint32_t>* first_same = nullptr,
                   bool lds_dma_findings = true);
// As run_hazards(); takes the CFG and accesses from `in` if it is valid. With `first_same`
// (of `program` on entry), equal instructions share their classes; on return it describes the
// program with the inserted s_nop (each its own first).
Report run_hazards(std::vector<isa::MachineInst>& program, Arch arch, Mode mode, const SharedAnalysis* in,
                   std::vector<uint32_t>* first_same = nullptr);

}  // namespace cdnajit::passes
