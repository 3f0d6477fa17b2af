// The instruction reference generated from the table: for each instruction its
// builder call with operand names, kinds and widths, the modifiers it takes,
// the archs that have it, its unit, wait counter and MFMA passes. Printed by
// `cdnajit isa` and installed as share/doc/cdnajit/isa.md.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "jit/isa/isa.hpp"

namespace cdnajit::isa {

// One instruction as a Markdown section.
std::string reference_entry(const InstrInfo& info);

// Every instruction whose mnemonic matches `pattern` (a glob: `*` any run, `?` one
// character; empty = all) and exists on `arch` (nullopt = either arch), under a heading.
// `count` (if given) receives the number of instructions listed.
std::string reference_markdown(std::optional<Arch> arch, std::string_view pattern, size_t* count = nullptr);

}  // namespace cdnajit::isa
