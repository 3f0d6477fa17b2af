// Which instructions the simulator can execute: the mnemonics (without encoding
// suffix) that have semantics bound to them. Used by coverage checks and reports.
#pragma once
#include <string>
#include <vector>

namespace cdnajit::sim {

// Sorted, unique.
std::vector<std::string> executable_mnemonics();

}  // namespace cdnajit::sim
