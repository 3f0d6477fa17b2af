// Test helpers around LLVM: compile HIP with clang, read ELF sections,
// disassemble with the LLVM-C API exactly as the simulator does.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit::isa::test {

struct DisasmLine {
  uint64_t address;
  std::vector<uint8_t> bytes;
  std::string text;  // as LLVM-C printed it (leading tab included)
};

// clang++ -x hip --cuda-device-only for `arch`; returns the code object bytes. Throws on failure.
std::vector<uint8_t> compile_hip(const std::string& source_path, Arch arch);
// Contents of the named section of an ELF64 file; empty if absent.
std::vector<uint8_t> elf_section(const std::vector<uint8_t>& elf, std::string_view name);
// LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", arch) + LLVMDisasmInstruction over `code`. Throws on undecodable bytes.
std::vector<DisasmLine> disassemble(const std::vector<uint8_t>& code, Arch arch);

}  // namespace cdnajit::isa::test
