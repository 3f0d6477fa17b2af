// LLVM as the oracle for "which instructions exist": sweeps the encoding space
// of gfx9-family words through LLVM 22's disassembler and keeps the mnemonics
// whose disassembly LLVM's own assembler accepts again for the same arch.
#pragma once
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "jit/isa/isa.hpp"

namespace cdnajit::isa::test {

struct SweepResult {
  // Mnemonic (encoding suffix _e32/_e64/_sdwa/_dpp stripped) -> one disassembled
  // instruction text that llvm-mc accepts again for the arch.
  std::map<std::string, std::string> accepted;
  std::map<std::string, std::string> disassembler_only;  // decoded, but no sample re-assembled -> first sample
  size_t candidates = 0;                     // words tried
  size_t decoded = 0;                        // words LLVM decoded
  size_t crashed = 0;                        // words on which LLVM's decoder crashed (skipped)
};

// Tries every value of the upper 16 bits of the first instruction dword, with a
// few operand patterns in the low bits and the second dword, plus every opcode
// of the two formats whose opcode field lies in the low 16 bits (SOP1, VOP1).
// Decoding runs in forked children because LLVM's decoder crashes on some words.
SweepResult sweep_llvm_mnemonics(Arch arch);

// "v_add_f32_e64" -> "v_add_f32"; the table and the simulator key on the bare name.
std::string_view strip_encoding_suffix(std::string_view mnemonic);

}  // namespace cdnajit::isa::test
