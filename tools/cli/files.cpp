#include "tools/cli/files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "jit/isa/error.hpp"

namespace cdnajit::cli {

std::vector<uint8_t> read_regular_file(const std::string& path, std::string_view what, uint64_t max_bytes,
                                       bool reject_larger) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw Error(fmt::format("{}: cannot read '{}': {}", what, path, std::strerror(errno)));
  struct Close { int fd; ~Close() { ::close(fd); } } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw Error(fmt::format("{}: '{}' is not a regular file ({}); give a file", what, path,
                            S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket"));
  uint64_t size = uint64_t(st.st_size);
  if (reject_larger && size > max_bytes)
    throw Error(fmt::format("{}: '{}' has {} bytes, more than the limit of {}", what, path, size, max_bytes));
  std::vector<uint8_t> out(std::min(size, max_bytes));
  size_t got = 0;
  while (got < out.size()) {
    ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(fmt::format("{}: reading '{}' failed: {}", what, path, std::strerror(errno)));
    if (n == 0) break;  // the file shrank while being read
    got += size_t(n);
  }
  out.resize(got);
  return out;
}

void write_file(const std::string& path, const void* data, size_t n) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  const char* p = static_cast<const char*>(data);
  size_t done = 0;
  while (done < n) {
    ssize_t w = ::write(fd, p + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      int err = errno;
      ::close(fd);
      throw Error(fmt::format("cannot write '{}' ({} of {} bytes written): {}", path, done, n, std::strerror(err)));
    }
    done += size_t(w);
  }
  if (::close(fd) != 0) throw Error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  const bool ea = ::stat(a.c_str(), &sa) == 0, eb = ::stat(b.c_str(), &sb) == 0;
  // A character device (/dev/null) takes any number of writers without losing anything.
  if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !S_ISCHR(sa.st_mode);
  if (ea != eb) return false;  // one exists, the other does not
  std::error_code e1, e2;
  auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a, e1), e1);
  auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, e2), e2);
  return !e1 && !e2 ? ca == cb : a == b;
}

void check_distinct_files(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (size_t j = 0; j < i; ++j)
      if (same_file(outputs[i].path, outputs[j].path))
        throw Error(fmt::format("{}: '{}' is the same file as {} ('{}'); each output needs its own file",
                                outputs[i].what, outputs[i].path, outputs[j].what, outputs[j].path));
    for (const NamedFile& in : inputs)
      if (same_file(outputs[i].path, in.path))
        throw Error(fmt::format("{}: '{}' is the same file as the {} ('{}'), which it would overwrite",
                                outputs[i].what, outputs[i].path, in.what, in.path));
  }
}

}  // namespace cdnajit::cli
