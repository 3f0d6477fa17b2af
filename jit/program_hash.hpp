// A 128-bit fingerprint of everything a Kernel's build depends on (arch, name,
// launch shape, registers, arguments, LDS, the instruction list with call sites,
// and the build options). It keys the in-memory build memo, so that rebuilding
// an identical kernel skips regalloc, passes and printing entirely
// (tests/jit/test_memo_key.cpp changes each input in turn and expects a miss).
#pragma once
#include <cstdint>
#include <functional>

#include "jit/kernel_impl.hpp"

namespace cdnajit {

// The kernel's own fields are packed and hashed here; its register declarations and
// instructions enter through the digests their DigestedLists keep (digest_of below), so
// a memo hit hashes 16 bytes per entry, whatever the entry holds.
ProgramHash hash_program(const Kernel::Impl& k, const BuildOptions& opts);

struct ProgramHashHasher {
  size_t operator()(const ProgramHash& h) const { return size_t(h.a ^ (h.b * 0x9e3779b97f4a7c15ull)); }
};

}  // namespace cdnajit
