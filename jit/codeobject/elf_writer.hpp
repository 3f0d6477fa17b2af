// The linked code object written directly from the relocatable object, without
// lld: the same job as link_code_object() for the one shape of object a
// Kernel::build() produces (one kernel: its code symbol in .text, its `.kd`
// descriptor in .rodata with one R_AMDGPU_REL64 to the code, the metadata note),
// laid out the way `ld.lld -shared` lays it out (tests require the bytes to be
// identical to lld's for every built-in kernel).
//
// The layout, as ld.lld 22 produces it for such an object (observed on its
// output; the section order and page rules are lld's defaults for a shared
// object with no linker script):
//   ELF header, 8 program headers (PHDR, LOAD r, LOAD rx, LOAD rw, DYNAMIC,
//   GNU_RELRO, GNU_STACK, NOTE), then .note .dynsym .gnu.hash .hash .dynstr
//   .rodata in the first (read-only) segment, .text in the second, .dynamic
//   (and a NOBITS .relro_padding up to the page end) in the third; then the
//   non-loaded .comment, .symtab, .shstrtab, .strtab and the section headers.
//   Each new segment starts on a fresh 4 KiB page in memory at the same offset
//   within the page as in the file.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit {

// Code object bytes for `relocatable_object` (from assemble() or
// assemble_direct()). Throws cdnajit::Error naming the field if the input is not
// an AMDGPU relocatable ELF of `arch`. Returns nullopt, with `why` set, for a
// valid object outside the one shape above (more symbols, other relocations or
// sections): link_code_object() (lld) handles those.
std::optional<std::vector<uint8_t>> write_code_object_direct(std::span<const uint8_t> relocatable_object, Arch arch,
                                                             std::string* why = nullptr);

}  // namespace cdnajit
