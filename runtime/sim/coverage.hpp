// Which instructions the simulator can execute: the table rows (mnemonics without encoding
// suffix) that have semantics bound to them. Used by coverage checks and reports.
#pragma once
#include <string>
#include <vector>

namespace cdnajit::sim {

// Sorted, unique.
std::vector<std::string> executable_mnemonics();

// The float instructions among those whose behaviour under a non-default MODE (a directed round mode,
// or an f16/f64 denormal field other than "keep") the simulator does not model: no MODE handler and
// not marked MODE-independent. Under such a MODE each is an Error. Sorted, unique.
std::vector<std::string> mode_unmodelled_mnemonics();

// The table rows without semantics, each with the reason the simulator refuses it on purpose
// (Registry::refused; empty when it is merely not implemented yet). Sorted by mnemonic.
struct UnboundRow {
  std::string mnemonic;
  std::string refused_because;
};
std::vector<UnboundRow> rows_without_semantics();

}  // namespace cdnajit::sim
