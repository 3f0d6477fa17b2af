#include "runtime/sim/coverage.hpp"

#include <algorithm>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

std::vector<std::string> executable_mnemonics() {
  std::vector<std::string> out;
  const Registry& r = registry();
  for (const isa::InstrInfo& row : isa::table())  // sorted by mnemonic
    if (r.by_opcode[size_t(isa::opcode_of(row))].fn) out.push_back(std::string(row.mnemonic));
  for (const auto& [name, def] : r.unlisted) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> mode_unmodelled_mnemonics() {
  std::vector<std::string> out;
  const Registry& r = registry();
  for (const isa::InstrInfo& row : isa::table()) {  // sorted by mnemonic
    const size_t op = size_t(isa::opcode_of(row));
    if (r.by_opcode[op].fn && r.by_opcode[op].ft != FType::Int && !r.moded[op] && !r.mode_free.test(op))
      out.push_back(std::string(row.mnemonic));
  }
  return out;
}

std::vector<std::string> counter_disagreements() {
  // The registry's counter codes (Op::counter): 0 none, 1 vm, 2 lgkm (in order), 3 lgkm (SMEM,
  // out of order), 4 vm + lgkm (FLAT).
  auto table_code = [](const isa::InstrInfo& row) -> int {
    switch (row.counter) {
      case isa::Counter::Vm: return 1;
      case isa::Counter::Lgkm: return row.unit == isa::Unit::SMEM ? 3 : 2;
      case isa::Counter::VmLgkm: return 4;
      default: return 0;
    }
  };
  std::vector<std::string> out;
  const Registry& r = registry();
  for (const isa::InstrInfo& row : isa::table()) {
    const OpDef& d = r.by_opcode[size_t(isa::opcode_of(row))];
    if (d.fn && d.counter != table_code(row))
      out.push_back(std::string(row.mnemonic) + ": registry " + std::to_string(d.counter) + ", table " +
                    std::to_string(table_code(row)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace cdnajit::sim
