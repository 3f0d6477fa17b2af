// Post-allocation passes over a physical-register program (std::vector<isa::MachineInst>):
//
//   run_waitcnt  - inserts the weakest `s_waitcnt vmcnt(N) lgkmcnt(M)` before every
//                  instruction that reads or overwrites a register (or LDS, for LDS DMA)
//                  whose memory load may still be in flight, and before every s_barrier
//                  that would release stores still in flight (BarrierRelease).
//   run_hazards  - inserts `s_nop` wait states for the gfx94x/gfx950 data hazards the
//                  hardware does not interlock (see jit/passes/hazards/*.cpp, one rule each).
//
// Both accept programs from the builder (label definitions are entries with `label_def`,
// branches carry Label operands with the label name) and decoded programs (branches carry
// Label operands whose `imm` is the absolute byte address of the target; every
// instruction has `address` set).
//
// Modes:
//   Auto   - fix the program in place. The author's explicit s_waitcnt / s_nop are kept;
//            an author s_waitcnt that a dataflow check proves already satisfied (a no-op)
//            is removed, so an Auto result never contains a redundant wait.
//   Verify - change nothing; report every unsafe instruction as a Finding.
//   Off    - do nothing.
#pragma once
#include <cstdint>
#include <cstddef>
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"
#include "jit/isa/machine_inst.hpp"

namespace cdnajit::passes {

enum class Mode { Auto, Verify, Off };

// What s_barrier releases to the other waves of its workgroup: the waits run_waitcnt puts
// before a barrier (and Verify asks for) so that this wave's stores are complete, and so
// visible, when another wave passes it. gfx90a+ barriers do not wait for memory themselves.
//   Lds  - LDS DMA and this wave's LDS stores (lgkmcnt): what clang-22 emits for __syncthreads()
//          on gfx942/gfx950 (LLVM's memory model, workgroup-scope release; jit/passes/README.md).
//   All  - also its global stores (vmcnt), as clang-22 emits in threadgroup-split mode, where
//          the waves of a workgroup may run on different CUs.
//   None - LDS DMA only (the data lands in LDS behind the wave's back).
enum class BarrierRelease : uint8_t { Lds, All, None };

struct Finding {
  size_t index;         // index into the program the pass was given
  std::string rule;     // "waitcnt", "waitcnt-lds-dma", "redundant-waitcnt" or a hazard rule name
  std::string message;  // names the instruction text, the register and what is needed
};

struct Report {
  int waits_inserted = 0;        // s_waitcnt instructions inserted (Auto)
  int waits_removed = 0;         // redundant author s_waitcnt removed (Auto)
  int nops_inserted = 0;         // s_nop instructions inserted (Auto)
  int wait_states_inserted = 0;  // wait states those s_nop provide
  std::vector<Finding> findings; // Verify: every violation
};

Report run_waitcnt(std::vector<isa::MachineInst>& program, Arch arch, Mode mode,
                   BarrierRelease release = BarrierRelease::Lds);
Report run_hazards(std::vector<isa::MachineInst>& program, Arch arch, Mode mode);
// run_waitcnt, then run_hazards, with the same results; when the wait-count pass leaves
// the program as it was (an author who placed every wait), the hazard pass reuses its
// CFG and register accesses instead of working them out again.
// `first_same` (isa/same_instruction.hpp), if given, describes `program` on entry: equal
// instructions get their register accesses and classes worked out once. On return it
// describes the program as it is then, or is emptied when the passes changed the program in
// a way it does not follow (the caller works it out again).
// Without `lds_dma_findings`, the wait-count Verify report leaves out the findings of rule
// "waitcnt-lds-dma" (for a caller that places those waits itself and would drop them: their
// messages are not written); every other finding is reported as before.
void run_waitcnt_and_hazards(std::vector<isa::MachineInst>& program, Arch arch, Mode waitcnt, Mode hazards,
                             Report& waitcnt_report, Report& hazards_report,
                             BarrierRelease release = BarrierRelease::Lds,
                             std::vector<uint32_t>* first_same = nullptr, bool lds_dma_findings = true);

// Every s_waitcnt in `program` that a dataflow check shows is already satisfied where it
// stands (all counters it names are already at or below its thresholds on every path).
std::vector<Finding> find_redundant_waits(const std::vector<isa::MachineInst>& program, Arch arch);

}  // namespace cdnajit::passes
