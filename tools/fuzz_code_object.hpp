// `cdnajit fuzz`: a bounded mutation fuzzer for the code-object reader, the
// simulator's decoder and a short simulated launch. Each mutant runs in a child
// process (fork), so a crash, an abort, a sanitizer report or a hang is really
// observed: every mutant must load (and decode and run or stop with an error)
// or be rejected with cdnajit::Error. Anything else is a finding, saved as a
// reproducer file.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace cdnajit {

struct FuzzOptions {
  double seconds = 10;              // total wall-clock budget
  uint64_t max_iterations = 1000000;
  uint32_t rng_seed = 0;
  double per_input_seconds = 10;    // a child still running after this is a hang (killed)
  bool launch = true;               // also run each loadable kernel on the simulator (1 workgroup, bounded)
  std::string crash_dir = "fuzz-crashes";  // reproducers: <crash_dir>/<kind>-<seed>-<iteration>.co
};

struct FuzzFinding {
  std::string kind;  // "crash", "hang", "exception"
  std::string what;  // signal name, exit status or message
  std::string reproducer;  // file written
};

struct FuzzReport {
  uint64_t iterations = 0, accepted = 0, rejected = 0;
  std::string first_rejection;  // an example message
  std::vector<FuzzFinding> findings;
};

// One mutant of `seed`: a few byte flips, a truncation, an ELF field stomped
// with an extreme value, a block of random bytes, or pure garbage.
std::vector<uint8_t> mutate_code_object(std::span<const uint8_t> seed, std::mt19937& rng);

// Mutates `seed` (byte flips, truncations, splices of random bytes, header-field
// stomps); deterministic for a given rng seed.
FuzzReport fuzz_code_object(std::span<const uint8_t> seed, const FuzzOptions& opt);

// Runs `fn` in a forked child process and reports how it ended: returned,
// threw cdnajit::Error (rejected), threw something else, died of a signal, or
// was still running after `timeout_seconds` (killed: a hang).
struct ChildOutcome {
  enum Kind { Returned, Rejected, OtherException, Signalled, Hung, BadExit } kind = Returned;
  std::string message;  // the exception's text, or the signal / exit status
};
ChildOutcome run_in_child(const std::function<void()>& fn, double timeout_seconds);

// What one mutant does in the child: read, decode every kernel, optionally run
// each on the simulator. Returns normally or throws cdnajit::Error.
void exercise_code_object(std::span<const uint8_t> bytes, bool launch);

}  // namespace cdnajit
