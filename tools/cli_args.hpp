// Minimal command-line parsing for the cdnajit tool: --flag value pairs and
// positional words, with errors that list what is valid.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "jit/isa/error.hpp"

namespace cdnajit::cli {

struct Args {
  std::vector<std::string> positional;
  std::multimap<std::string, std::string> flags;  // "--arch" → "gfx950"

  static Args parse(int argc, char** argv, int first, const std::vector<std::string>& switches = {});
  bool has(const std::string& f) const { return flags.count(f) > 0; }
  std::string get(const std::string& f, const std::string& fallback) const;
  std::string require(const std::string& f) const;
  std::vector<std::string> all(const std::string& f) const;
};

}  // namespace cdnajit::cli
