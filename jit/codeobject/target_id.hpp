// How LLVM names the two targets: triple, -mcpu, the `.amdgcn_target` string
// and the ELF e_flags machine value. Kept here so assembler, linker, emitter
// and subprocess toolchain agree (and need no ISA table to do so).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "jit/isa/isa.hpp"

namespace cdnajit {

inline constexpr std::string_view kAmdgpuTriple = "amdgcn-amd-amdhsa";

// LLVM -mcpu name.
constexpr std::string_view mcpu_name(Arch arch) {
  return arch == Arch::gfx942 ? "gfx942" : "gfx950";
}

// Target ID with the default (any) xnack/sramecc settings, as LLVM prints it
// in `.amdgcn_target` and `amdhsa.target`.
inline std::string amdgcn_target_id(Arch arch) {
  return std::string(kAmdgpuTriple) + "--" + std::string(mcpu_name(arch));
}

// EF_AMDGPU_MACH_* value in the low byte of e_flags (LLVM's ELF.h).
constexpr uint32_t elf_mach(Arch arch) { return arch == Arch::gfx942 ? 0x04c : 0x04f; }

}  // namespace cdnajit
