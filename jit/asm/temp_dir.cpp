#include "jit/asm/temp_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

#include <unistd.h>

#include "jit/isa/error.hpp"

namespace cdnajit {

TempDir::TempDir(std::string_view prefix) {
  // $TMPDIR if set; else /dev/shm when it is a writable tmpfs (lld's file I/O then never
  // touches a disk); else /tmp.
  const char* tmp = std::getenv("TMPDIR");
  std::string base = (tmp && *tmp) ? tmp : (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  std::string pattern = base + "/" + std::string(prefix) + "-XXXXXX";
  if (!mkdtemp(pattern.data()))
    throw Error("cannot create a temporary directory from pattern '" + pattern +
                "': " + std::strerror(errno) + " (set TMPDIR to a writable directory)");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;  // cleanup must not throw from a destructor
  std::filesystem::remove_all(path_, ignored);
}

void write_whole_file(const std::filesystem::path& p, std::span<const uint8_t> bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw Error("cannot write file '" + p.string() + "' (" + std::to_string(bytes.size()) + " bytes)");
}

std::vector<uint8_t> read_whole_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw Error("cannot open file '" + p.string() + "' for reading");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw Error("error while reading file '" + p.string() + "'");
  return bytes;
}

}  // namespace cdnajit
