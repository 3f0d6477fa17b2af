// Forward dataflow of wait-count state over the CFG, iterated to a fixed point (loops
// carry pending loads around their back edges), reporting for every instruction the wait
// it needs and whether an s_waitcnt there is a no-op (as found by the last visit of its
// block; the blocks with a need are swept once more to list the units it protects).
#pragma once
#include <optional>
#include <vector>

#include "jit/passes/cfg.hpp"
#include "jit/passes/regs.hpp"
#include "jit/passes/waitcnt_state.hpp"

namespace cdnajit::passes {

struct WaitSweep {
  std::vector<std::optional<WaitNeed>> need;  // wait required before instruction i
  std::vector<char> redundant;                // instruction i is an s_waitcnt that changes nothing
  // With apply_needed: some visit of some instruction, in the fixed-point rounds or in the
  // re-sweep of the blocks with a need, needed (and so applied) a wait. If none did, the
  // sweep computed exactly what it computes without apply_needed.
  bool applied_needed = false;
};

// With `apply_needed` the needed waits are assumed inserted (Auto); without, only the
// program's own s_waitcnt instructions act (Verify, redundancy check).
// `first_same` (isa/same_instruction.hpp), if given: equal instructions share their facts.
WaitSweep sweep_waits(const std::vector<isa::MachineInst>& program, const Cfg& cfg,
                      const std::vector<Access>& access, bool apply_needed,
                      const std::vector<uint32_t>* first_same = nullptr);

}  // namespace cdnajit::passes
