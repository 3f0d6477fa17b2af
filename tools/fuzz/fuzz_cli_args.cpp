// libFuzzer target: the cdnajit command line. The input is split at NUL bytes
// into argv words and parsed by the same CommandLine the tool uses (options,
// typed values, cross-option checks); nothing is run. A bad command line must
// end in CLI::ParseError or cdnajit::Error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "jit/isa/error.hpp"
#include "tools/cli/app.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"cdnajit"};
  std::string cur;
  for (size_t i = 0; i < size && args.size() < 64; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += char(data[i]);
    }
  }
  if (!cur.empty()) args.push_back(cur);
  try {
    cdnajit::cli::CommandLine cl;
    (void)cl.parse(args);
  } catch (const CLI::ParseError&) {
  } catch (const cdnajit::Error&) {
  }
  return 0;
}
