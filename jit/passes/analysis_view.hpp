// The program as the passes analyse it: raw-text entries (info == nullptr, the builder's
// escape hatch) are replaced by their parsed form when isa::parse understands the text,
// so their registers, counters and hazards are seen. The passes still emit the original
// entries; only the analysis uses this copy. Raw text that does not parse stays unknown
// (the wait-count pass then waits for everything before it).
#pragma once
#include <vector>

#include "jit/isa/machine_inst.hpp"

namespace cdnajit::passes {

std::vector<isa::MachineInst> analysis_view(const std::vector<isa::MachineInst>& program);

// True if some entry is raw text that analysis_view would re-parse; otherwise the view
// equals the program and callers that do not modify it meanwhile can skip the copy.
bool has_raw_entries(const std::vector<isa::MachineInst>& program);

}  // namespace cdnajit::passes
