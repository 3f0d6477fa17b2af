// A 128-bit fingerprint of everything a Kernel's build depends on (arch, name,
// launch shape, registers, arguments, LDS, the instruction list with call sites,
// and the build options). It keys the in-memory build memo, so that rebuilding
// an identical kernel skips regalloc, passes and printing entirely.
#pragma once
#include <cstdint>
#include <functional>

#include "jit/kernel_impl.hpp"

namespace cdnajit {

struct ProgramHash {
  uint64_t a = 0, b = 0;
  bool operator==(const ProgramHash&) const = default;
};

ProgramHash hash_program(const Kernel::Impl& k, const BuildOptions& opts);

struct ProgramHashHasher {
  size_t operator()(const ProgramHash& h) const { return size_t(h.a ^ (h.b * 0x9e3779b97f4a7c15ull)); }
};

}  // namespace cdnajit
