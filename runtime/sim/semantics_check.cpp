#include "runtime/sim/semantics_check.hpp"

#include <cstdio>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

std::vector<UnboundInstruction> unbound_instructions(const CodeObject& co) {
  std::vector<UnboundInstruction> out;
  for (const KernelInfo& k : co.kernels) {
    std::unique_ptr<DecodedKernel> dk = decode_kernel(co, k);
    // Words after the last s_endpgm* are alignment padding, never executed.
    auto ends_program = [](const Op& op) {
      return op.info && op.info->family == isa::Family::SOPP && isa::is(*op.info, isa::kClassTerminator);
    };
    size_t end = dk->ops.size();
    while (end > 0 && !ends_program(dk->ops[end - 1])) --end;
    if (end == 0) end = dk->ops.size();
    for (size_t i = 0; i < end; ++i) {
      const Op& op = dk->ops[i];
      if (op.fn) continue;
      out.push_back({k.name, op.pc, op.text, unbound_reason(op)});
    }
  }
  return out;
}

std::string format_unbound(const std::vector<UnboundInstruction>& list) {
  std::string s;
  char pc[32];
  for (const auto& u : list) {
    std::snprintf(pc, sizeof pc, "0x%x", u.pc);
    s += "kernel " + u.kernel + " pc " + pc + ": '" + u.text + "' has no simulator semantics\n";
  }
  return s;
}

}  // namespace cdnajit::sim
