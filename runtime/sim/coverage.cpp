#include "runtime/sim/coverage.hpp"

#include <algorithm>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

std::vector<std::string> executable_mnemonics() {
  std::vector<std::string> out;
  const Registry& r = registry();
  for (const isa::InstrInfo& row : isa::table())  // sorted by mnemonic
    if (r.by_opcode[size_t(isa::opcode_of(row))].fn) out.push_back(std::string(row.mnemonic));
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

std::vector<UnboundRow> rows_without_semantics() {
  std::vector<UnboundRow> out;
  const Registry& r = registry();
  for (const isa::InstrInfo& row : isa::table()) {  // sorted by mnemonic
    const size_t op = size_t(isa::opcode_of(row));
    if (!r.by_opcode[op].fn) out.push_back({std::string(row.mnemonic), std::string(r.refused[op])});
  }
  return out;
}

}  // namespace cdnajit::sim
