// A private temporary directory (mkdtemp under $TMPDIR, else /tmp) that is
// removed with its contents when the object goes out of scope. Used by the
// lld link and the subprocess toolchain, which both need real files.
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

namespace cdnajit {

class TempDir {
 public:
  explicit TempDir(std::string_view prefix);  // throws cdnajit::Error on failure
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Whole-file helpers that throw cdnajit::Error naming the file on failure.
void write_whole_file(const std::filesystem::path& p, std::span<const uint8_t> bytes);
std::vector<uint8_t> read_whole_file(const std::filesystem::path& p);

}  // namespace cdnajit
