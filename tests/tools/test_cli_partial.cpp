// CommandLine::for_words (only the command families the words name, what the
// fuzz_cli_args target parses with) against the full CommandLine the tool uses:
// the same outcome (chosen command, or the same exception type and message) for
// sample command lines and for seeded random mutations of them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "jit/isa/error.hpp"
#include "tests/test_support.hpp"
#include "tools/cli/app.hpp"

namespace {

using cdnajit::cli::CommandLine;

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> w{"cdnajit"};
  std::istringstream in(line);
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

// "command NAME" or "TYPE: message" of the exception parse threw.
std::string outcome(CommandLine& cl, const std::vector<std::string>& words) {
  try {
    (void)cl.parse(words);
    return "command " + cl.parsed_command();
  } catch (const CLI::Error& e) {
    return std::string(typeid(e).name()) + ": " + e.what();
  } catch (const cdnajit::Error& e) {
    return std::string("cdnajit::Error: ") + e.what();
  }
}

const std::vector<std::string> kLines = {
    "",
    "list",
    "list extra",
    "--help",
    "--help run",
    "-- run",
    "nosuchcommand --arch gfx942",
    "dump --kernel bf16_dot --arch gfx942",
    "dump --kernel bf16_dot --arch gfx942 --arch gfx950",
    "build --kernel vector_add --arch=gfx950 -o /tmp/x.co --hazards verify",
    "build --kernel vector_add -o=/tmp/x.co",
    "build --kernel vector_add",
    "stats --kernel dwconv3d_seed.row_interleaved --waitcnt off",
    "stats --kernel k --waitcnt sometimes",
    "run x.co --kernel vector_add --device sim:gfx950 --grid 4,1,1 --block 256 --arg buf:a:4096:iota "
    "--arg buf:b:4096:random --arg buf:out:4096 --arg u32:1000 --out out=/tmp/out.bin --max-instructions 100000 "
    "--timeout 2.5",
    "run x.co --kernel k --grid 4294967295 --block 1,1,1 --lds 65536 --arg i32:-5 --arg f32:1e-3 --arg i64:0x10",
    "run x.co --kernel k --grid 4x1 --block 1",
    "run x.co --kernel k --grid 4 --block 64 --arhc gfx942",
    "run x.co --kernel k --grid 4 --block 64 --out nobuf=/tmp/o.bin",
    "run list --kernel k --grid 1 --block 1",
    "seed --arch gfx950 --variant lds_dot2 --channels 1 --asm /tmp/s.s",
    "fuzz --kernel vector_add --seconds 1 --iterations 10 --seed 5 --no-launch",
    "fuzz --kernel vector_add --iterations -3",
    "tune --help",
    "conv3d --help",
    "check --help",
    "run --help",
    "list run",
    "check run",
};

}  // namespace

TEST_CASE("every command is in exactly one family of the command table", "[cli]") {
  std::vector<std::string> all = CommandLine().command_names();
  REQUIRE(all.size() >= 10);
  CHECK(CommandLine::for_words({"cdnajit"}).command_names().empty());
  for (const std::string& name : all) {
    std::vector<std::string> some = CommandLine::for_words({"cdnajit", name}).command_names();
    INFO(name);
    CHECK(std::count(some.begin(), some.end(), name) == 1);
    CHECK(some.size() < all.size());
  }
}

TEST_CASE("for_words parses sample command lines as the full command line does", "[cli]") {
  for (const std::string& line : kLines) {
    std::vector<std::string> w = words_of(line);
    CommandLine full;
    CommandLine part = CommandLine::for_words(w);
    INFO(line);
    CHECK(outcome(part, w) == outcome(full, w));
  }
}

TEST_CASE("for_words parses mutated command lines as the full command line does", "[cli]") {
  std::mt19937_64 rng(cdnajit::test::test_seed("test_cli_partial mutations", 20261126));
  std::vector<std::string> pool;  // every word of the samples, plus command names and odd words
  for (const std::string& line : kLines)
    for (const std::string& w : words_of(line)) pool.push_back(w);
  for (const char* w : {"--", "-h", "--help", "-o", "=", "", "-", "--arch=", "run", "list", "check", "--kernel=k"})
    pool.push_back(w);
  auto pick = [&](size_t n) { return size_t(rng() % n); };
  int differing = 0, commands_chosen = 0;
  const int kMutants = 3000;
  for (int i = 0; i < kMutants; ++i) {
    std::vector<std::string> w = words_of(kLines[pick(kLines.size())]);
    for (int m = 1 + int(pick(4)); m > 0; --m) {
      size_t at = 1 + pick(w.size());  // after argv[0]
      switch (pick(5)) {
        case 0: w.insert(w.begin() + at, pool[pick(pool.size())]); break;
        case 1: if (at < w.size()) w.erase(w.begin() + at); break;
        case 2: if (at < w.size()) w[at] = pool[pick(pool.size())]; break;
        case 3: if (at < w.size() && !w[at].empty()) w[at][pick(w[at].size())] = char(rng()); break;
        default: if (at < w.size()) w[at] += pool[pick(pool.size())]; break;
      }
    }
    CommandLine full;
    CommandLine part = CommandLine::for_words(w);
    std::string a = outcome(part, w), b = outcome(full, w);
    commands_chosen += b.rfind("command ", 0) == 0;
    if (a != b && ++differing <= 5) {
      std::string line;
      for (const std::string& x : w) line += "[" + x + "] ";
      FAIL_CHECK(line << "\n  for_words: " << a << "\n  full:      " << b);
    }
  }
  CHECK(differing == 0);
  CHECK(commands_chosen > 0);  // the mutants reach the commands' own parsing, not only top-level errors
}
