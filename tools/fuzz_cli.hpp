// Mutated code objects through the command line itself: each mutant is written
// to a file and given to a separate `cdnajit run` or `cdnajit check` process
// (alternately), exactly as a user would. A process that dies of a signal, ends
// with a status other than 0 (done) or 1 (a named error / check findings), or is
// still running after the per-input timeout is a finding, saved as a
// reproducer. This covers what the in-process fuzzers cannot: option handling,
// file reading, device set-up, output and the process's exit.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cdnajit {

// One code object the mutants are made from, and the `cdnajit run` options
// (after FILE) that fit its first kernel.
struct CliFuzzSeed {
  std::string label;  // e.g. "vector_add.gfx950" or a file name
  std::vector<uint8_t> code_object;
  std::vector<std::string> run_args;
};

// Derives `run_args` from the (unmutated) code object's metadata: its first
// kernel (or `kernel`), one small grid, a buffer per pointer argument, a small
// value per scalar argument, short simulator limits. Throws cdnajit::Error if
// the seed itself does not load.
CliFuzzSeed make_cli_fuzz_seed(std::string label, std::vector<uint8_t> code_object, const std::string& kernel = "");

// "cdnajit run FILE <seed.run_args>": the command that runs `file` (a mutant of the
// seed, e.g. a saved reproducer) as the fuzzers do.
std::string cli_run_command(const CliFuzzSeed& seed, const std::string& file);

struct CliFuzzOptions {
  std::string cdnajit;  // the program to run (the fuzz command passes its own executable)
  uint64_t iterations = 1000;
  double seconds = 3600;            // stop early after this much wall-clock time
  uint32_t rng_seed = 0;
  double per_input_seconds = 30;    // a child still running after this is a hang (killed)
  int jobs = 1;                     // children running at once
  std::string work_dir = "fuzz-cli-work";    // mutant files while they run
  std::string crash_dir = "fuzz-crashes";    // reproducers: <crash_dir>/cli-<kind>-<seed>-<iteration>.co
  uint64_t progress_every = 0;                // call `progress` after every this many mutants (0: never)
  std::function<void(const struct CliFuzzReport&)> progress;
};

struct CliFuzzFinding {
  std::string kind;  // "crash", "hang", "bad-exit"
  std::string what;  // signal / status and the end of the child's stderr
  std::string command;  // the command line, with the reproducer's path
};

struct CliFuzzReport {
  uint64_t iterations = 0;
  uint64_t run_ok = 0, run_error = 0;          // `cdnajit run`: status 0 / status 1
  uint64_t check_ok = 0, check_nonzero = 0;    // `cdnajit check`: status 0 / status 1 (findings or an error)
  std::string example_error;                    // the first named error seen (stderr's first line)
  std::vector<CliFuzzFinding> findings;
};

// Runs `opt.iterations` mutants (round robin over `seeds`); deterministic
// mutants for a given rng seed, whatever `jobs` is.
CliFuzzReport fuzz_through_cli(const std::vector<CliFuzzSeed>& seeds, const CliFuzzOptions& opt);

}  // namespace cdnajit
