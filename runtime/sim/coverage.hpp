// Which instructions the simulator can execute: the mnemonics (without encoding
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

// The table rows whose wait counter, as the simulator's handler registration restates it, differs
// from the ISA table's (jit/isa: Counter, SMEM's lgkmcnt being the out-of-order kind): one line per
// row, "mnemonic: registry <c>, table <c>". The table is the one source; an entry here is a
// registration to correct. Sorted.
std::vector<std::string> counter_disagreements();

}  // namespace cdnajit::sim
