// Test helper: compile a small HIP kernel source with clang++-22 to a code object
// (run-time subprocess), with a minimal device header of our own.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"

namespace simtest {

// Device-side prelude: __global__, __shared__, thread/block ids, barrier.
extern const char* const kPrelude;

// Compiles `source` (prelude prepended) for `arch`; throws std::runtime_error
// with clang's output on failure. Results are cached per (arch, source, flags) in-process.
// `flags`: extra clang options (e.g. -ffast-math).
std::vector<uint8_t> compile_hip(const std::string& source, cdnajit::Arch arch, const std::vector<std::string>& flags = {});

// Assembles + links hand-written AMDGPU assembly with llvm-mc-22 and ld.lld-22.
std::vector<uint8_t> assemble(const std::string& asm_text, cdnajit::Arch arch);

}  // namespace simtest
