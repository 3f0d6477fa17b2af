// What lives at an address of a code object, by its ELF section and symbol tables: for
// messages about references the simulator does not follow ("global variable 'table' (.data)",
// "function '_Z4stepi' (.text)", "the global offset table (.got)").
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace cdnajit {

// A description of virtual address `addr` in the linked code object `elf`: the OBJECT or FUNC
// symbol that covers it (with its section), else the section, else "address 0x...". Never
// throws: a table the reader cannot follow gives the plain address.
std::string describe_code_object_address(std::span<const uint8_t> elf, uint64_t addr);

}  // namespace cdnajit
