// The same assemble + link done by running the llvm-mc and ld.lld executables
// as child processes on temporary files. Exists to benchmark the in-process
// path against, and as the linker of last resort if in-process lld refuses to
// run again in this process.
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit {

struct SubprocessToolchain {
  std::filesystem::path llvm_mc;
  std::filesystem::path ld_lld;

  // Looks in the configured LLVM bin dir (CDNAJIT_LLVM_BIN at build time),
  // then for llvm-mc-22 / ld.lld-22 in /usr/bin. Throws cdnajit::Error listing
  // the places tried if either tool is missing.
  static SubprocessToolchain find();

  // `llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=<arch> -filetype=obj`.
  // Throws cdnajit::Error with llvm-mc's stderr if assembly fails.
  std::vector<uint8_t> assemble(std::string_view asm_text, Arch arch) const;
  // `ld.lld -shared --no-undefined -m elf64_amdgpu`. Throws with ld.lld's stderr.
  std::vector<uint8_t> link(std::span<const uint8_t> relocatable_object, Arch arch) const;
  std::vector<uint8_t> assemble_and_link(std::string_view asm_text, Arch arch) const;
};

}  // namespace cdnajit
