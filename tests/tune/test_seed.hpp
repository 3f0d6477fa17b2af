// The seed of the randomised tune tests: $CDNAJIT_TEST_SEED, else a fixed value.
// Printed so a failing run can be repeated.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

inline uint64_t tune_test_seed() {
  static const uint64_t seed = [] {
    const char* e = std::getenv("CDNAJIT_TEST_SEED");
    uint64_t s = e ? std::stoull(e) : 20251007ull;
    std::printf("tune tests: CDNAJIT_TEST_SEED=%llu\n", (unsigned long long)s);
    return s;
  }();
  return seed;
}
