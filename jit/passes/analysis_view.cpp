#include "jit/passes/analysis_view.hpp"

#include <string>

namespace cdnajit::passes {

std::vector<isa::MachineInst> analysis_view(const std::vector<isa::MachineInst>& program) {
  std::vector<isa::MachineInst> view = program;
  for (auto& mi : view) {
    if (mi.info || !mi.label_def.empty() || mi.raw.empty()) continue;
    isa::MachineInst parsed;
    parsed.address = mi.address;
    parsed.size_bytes = mi.size_bytes;
    std::string err;
    if (isa::parse(mi.raw, parsed, err) && parsed.info) mi = std::move(parsed);
  }
  return view;
}

bool has_raw_entries(const std::vector<isa::MachineInst>& program) {
  for (const auto& mi : program)
    if (!mi.info && mi.label_def.empty() && !mi.raw.empty()) return true;
  return false;
}

}  // namespace cdnajit::passes
