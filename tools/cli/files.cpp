#include "tools/cli/files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

}  // namespace cdnajit::cli
