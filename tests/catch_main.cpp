// One Catch2 main for every test executable, with the seed and skip support of
// test_support.hpp.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tests/test_support.hpp"

namespace cdnajit::test {

namespace {
std::vector<std::string>& skips() {
  static std::vector<std::string> s;
  return s;
}
}  // namespace

uint64_t test_seed(const std::string& name, uint64_t fallback) {
  uint64_t seed = fallback;
  if (const char* env = std::getenv("CDNAJIT_TEST_SEED"); env && *env) {
    char* end = nullptr;
    seed = std::strtoull(env, &end, 0);
    if (*end) FAIL("CDNAJIT_TEST_SEED='" << env << "' is not an unsigned integer (decimal or 0x-hex)");
  }
  std::printf("%s: seed %llu (CDNAJIT_TEST_SEED=%llu repeats it)\n", name.c_str(), (unsigned long long)seed,
              (unsigned long long)seed);
  std::fflush(stdout);
  return seed;
}

void note_skip(const std::string& test_case, const std::string& reason) {
  skips().push_back(test_case + ": " + reason);
}
int skip_count() { return int(skips().size()); }

}  // namespace cdnajit::test

int main(int argc, char* argv[]) {
  int failed = Catch::Session().run(argc, argv);
  for (const std::string& s : cdnajit::test::skips()) std::printf("SKIPPED %s\n", s.c_str());
  // Catch2 2.x returns the number of failed assertions, which could be 4; any failure is 1 here
  // so that it can never read as ctest's SKIP_RETURN_CODE.
  if (failed != 0) return 1;
  return cdnajit::test::skip_count() > 0 ? cdnajit::test::kSkipExitCode : 0;
}
