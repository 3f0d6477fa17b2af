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
// One LLVM-C disassembler context for `arch`.
class Disassembler {
 public:
  explicit Disassembler(Arch arch);
  ~Disassembler();
  Disassembler(const Disassembler&) = delete;
  Disassembler& operator=(const Disassembler&) = delete;
  // Decodes one instruction at `pc`; returns its size (0 if undecodable) and its text.
  size_t decode(const uint8_t* bytes, size_t size, uint64_t pc, std::string& text);
 private:
  void* ctx_;
};

// LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", arch) + LLVMDisasmInstruction over `code`. Throws on undecodable bytes.
std::vector<DisasmLine> disassemble(const std::vector<uint8_t>& code, Arch arch);

// Decodes at every 4-byte offset of `code` (up to 16 bytes each) in a forked
// child, because LLVM's decoder crashes on some garbage words; offsets whose
// decode crashed are listed in `crashed`. Returns the decodable offsets' text.
std::vector<DisasmLine> decode_every_word_isolated(const std::vector<uint8_t>& code, Arch arch,
                                                   std::vector<uint64_t>& crashed);

}  // namespace cdnajit::isa::test
