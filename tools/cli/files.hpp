// Reading and writing the files named on the command line without blocking
// (FIFOs, directories and devices are rejected before any read) and without
// unbounded memory (reads stop at a stated size).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cdnajit::cli {

// Code objects larger than this are rejected before reading (bytes).
constexpr uint64_t kMaxCodeObjectBytes = 256ull << 20;

// Reads at most `max_bytes` of a regular file. `what` names the option or
// argument for the message. Throws cdnajit::Error for a missing, unreadable or
// non-regular file, or (when `reject_larger`) one longer than max_bytes.
std::vector<uint8_t> read_regular_file(const std::string& path, std::string_view what, uint64_t max_bytes,
                                       bool reject_larger);

void write_file(const std::string& path, const void* data, size_t n);

}  // namespace cdnajit::cli
