// `cdnajit fuzz`: a bounded mutation fuzzer for the code-object reader and the
// simulator's decoder. Every mutated input must either load or be rejected with
// cdnajit::Error; anything else (another exception type, a crash) is a bug.
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace cdnajit {

struct FuzzReport {
  uint64_t iterations = 0, accepted = 0, rejected = 0;
  std::string first_rejection;  // an example message
};

// Mutates `seed` (byte flips, truncations, splices of random bytes, header-field
// stomps) for `seconds` or `max_iterations`, deterministic for a given rng seed.
FuzzReport fuzz_code_object(std::span<const uint8_t> seed, double seconds, uint64_t max_iterations, uint32_t rng_seed);

}  // namespace cdnajit
