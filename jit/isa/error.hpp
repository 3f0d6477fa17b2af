// The one exception type every layer throws for bad input. Its message says
// what was wrong, where (builder call site, instruction, wave/lane/address)
// and what would be valid. Callers catch it; nothing aborts the process.
#pragma once
#include <source_location>
#include <stdexcept>
#include <string>

namespace cdnajit {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "file.cpp:42" of a builder call site, for messages and .s comments.
inline std::string where(const std::source_location& loc) {
  std::string f = loc.file_name();
  auto slash = f.find_last_of('/');
  if (slash != std::string::npos) f = f.substr(slash + 1);
  return f + ":" + std::to_string(loc.line());
}

}  // namespace cdnajit
