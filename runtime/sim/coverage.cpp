#include "runtime/sim/coverage.hpp"

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

std::vector<std::string> executable_mnemonics() {
  std::vector<std::string> out;
  for (const auto& [name, def] : registry().ops) out.push_back(name);  // std::map: already sorted
  return out;
}

}  // namespace cdnajit::sim
