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

// True when `a` and `b` name the same file: the same device and inode when both exist (hard
// links, symbolic links, "f" and "./f"), else the same path once made absolute with ".", ".."
// and the symbolic links of its existing part resolved. A character device (/dev/null) is
// never "the same file": writing it twice loses nothing.
bool same_file(const std::string& a, const std::string& b);

// One file a command reads or writes, for same_file checks: `what` names the option
// ("--out b", "--trace", "code object").
struct NamedFile {
  std::string what, path;
};
// Throws cdnajit::Error when an output is the same file as another output or as an input
// ("--out b: './f' is the same file as --out a ('f')"): each would silently overwrite the other.
void check_distinct_files(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs = {});

}  // namespace cdnajit::cli
