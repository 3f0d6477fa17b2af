// Test helper: compile a small HIP kernel source with clang++-22 to a code object
// (run-time subprocess), through runtime/hip_source with its device header runtime/hip_device.h.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"

namespace simtest {

// Short names the test kernels use for runtime/hip_device.h's API: tid(), bid(), bdim(), sync().
extern const char* const kPrelude;

// Compiles `source` (prelude prepended) for `arch`; throws std::runtime_error
// with clang's output on failure. Results are cached per (arch, source, flags) in-process.
// `flags`: extra clang options (e.g. -ffast-math).
std::vector<uint8_t> compile_hip(const std::string& source, cdnajit::Arch arch, const std::vector<std::string>& flags = {});

// Assembles + links hand-written AMDGPU assembly with llvm-mc-22 and ld.lld-22.
std::vector<uint8_t> assemble(const std::string& asm_text, cdnajit::Arch arch);

}  // namespace simtest
