#include "tools/cli_args.hpp"

#include <algorithm>

namespace cdnajit::cli {

Args Args::parse(int argc, char** argv, int first, const std::vector<std::string>& switches) {
  Args a;
  for (int i = first; i < argc; ++i) {
    std::string s = argv[i];
    if (s.rfind("--", 0) == 0 || (s.size() == 2 && s[0] == '-')) {
      auto eq = s.find('=');
      if (eq != std::string::npos) {
        a.flags.emplace(s.substr(0, eq), s.substr(eq + 1));
      } else if (std::find(switches.begin(), switches.end(), s) != switches.end()) {
        a.flags.emplace(s, "1");
      } else {
        if (i + 1 >= argc) throw Error("option " + s + " needs a value");
        a.flags.emplace(s, argv[++i]);
      }
    } else {
      a.positional.push_back(s);
    }
  }
  return a;
}

std::string Args::get(const std::string& f, const std::string& fallback) const {
  auto it = flags.find(f);
  return it == flags.end() ? fallback : it->second;
}

std::string Args::require(const std::string& f) const {
  auto it = flags.find(f);
  if (it == flags.end()) throw Error("missing required option " + f);
  return it->second;
}

std::vector<std::string> Args::all(const std::string& f) const {
  std::vector<std::string> v;
  auto [b, e] = flags.equal_range(f);
  for (auto it = b; it != e; ++it) v.push_back(it->second);
  return v;
}

}  // namespace cdnajit::cli
