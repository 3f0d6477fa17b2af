// Clang offload bundles (the "fat binary" a HIP program embeds): reading the
// device code objects out of one, and writing one (cdnajit-hipcc does, since
// Debian's clang-22 ships without clang-offload-bundler).
//
// Layout of an uncompressed bundle (clang/lib/Driver/OffloadBundler.cpp,
// "Binary format"): the 24-byte magic "__CLANG_OFFLOAD_BUNDLE__", a u64 entry
// count, then per entry u64 offset, u64 size, u64 id length and the id text
// ("hipv4-amdgcn-amd-amdhsa--gfx942", "host-x86_64-unknown-linux-gnu-"),
// and the entries' bytes at their offsets. All integers little-endian.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cdnajit::hip_sim {

struct BundleEntry {
  std::string id;  // "hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"
  std::span<const uint8_t> bytes;
};

inline constexpr char kBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__";  // 24 characters

// Parses the bundle at `data`. `size` bounds the read when known; HIP's
// registration hands over only a pointer, so the entry table itself is what
// limits how far is read (pass SIZE_MAX then). Throws cdnajit::Error on a
// compressed or malformed bundle.
std::vector<BundleEntry> read_offload_bundle(const uint8_t* data, size_t size);

// The processor of a HIP device entry ("gfx942" of "hipv4-amdgcn-amd-amdhsa--gfx942:xnack-"),
// empty for any other entry (the host's).
std::string bundle_entry_processor(const std::string& id);

// A bundle holding an empty host entry and one HIP entry per (processor, code object),
// entries aligned to 4096 bytes as clang's driver asks for (-bundle-align=4096).
std::vector<uint8_t> write_offload_bundle(const std::vector<std::pair<std::string, std::vector<uint8_t>>>& code_objects);

}  // namespace cdnajit::hip_sim
