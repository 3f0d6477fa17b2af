// libFuzzer target: the cdnajit command line. The input is split at NUL bytes
// into argv words and parsed by the same CommandLine the tool uses (options,
// typed values, cross-option checks); nothing is run. A bad command line must
// end in CLI::ParseError or cdnajit::Error. Only the command families the words
// name are registered (CommandLine::for_words: the same parse, test_cli_partial
// checks it), so an input costs one command's options, not every command's.
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
    auto cl = cdnajit::cli::CommandLine::for_words(args);
    (void)cl.parse(args);
  } catch (const CLI::ParseError&) {
  } catch (const cdnajit::Error&) {
  }
  return 0;
}
