// Shared by every test executable (linked through catch2_main):
//  - test_seed(): the seed of a randomized test, from CDNAJIT_TEST_SEED when set,
//    printed so a failure can be repeated;
//  - CDNAJIT_SKIP(reason): ends the current test case as skipped. Catch2 2.x
//    (Debian 12) has no SKIP(), so catch_main.cpp counts these and, when the run
//    skipped something and failed nothing, exits with kSkipExitCode, which the
//    ctest registration declares as SKIP_RETURN_CODE: ctest shows "Not Run"
//    with the reason in the log instead of "Passed".
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

namespace cdnajit::test {

constexpr int kSkipExitCode = 4;  // the code Catch2 3.x uses when every test was skipped

// CDNAJIT_TEST_SEED (decimal or 0x-hex) if set, else fallback. Prints
// "<name>: seed N (CDNAJIT_TEST_SEED=N repeats it)".
uint64_t test_seed(const std::string& name, uint64_t fallback);

void note_skip(const std::string& test_case, const std::string& reason);
int skip_count();

}  // namespace cdnajit::test

#define CDNAJIT_SKIP(reason)                                                                              \
  do {                                                                                                    \
    std::string cdnajit_skip_reason_ = (reason);                                                          \
    ::cdnajit::test::note_skip(Catch::getResultCapture().getCurrentTestName(), cdnajit_skip_reason_);     \
    WARN("SKIPPED: " << cdnajit_skip_reason_);                                                            \
    return;                                                                                               \
  } while (0)
