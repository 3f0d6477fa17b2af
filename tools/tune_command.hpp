// `cdnajit tune`: the options as plain data (independent of the argument
// parser) and the command itself.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "jit/isa/isa.hpp"

namespace cdnajit {

// The wall-clock budget of a search when --budget is not given: 10 minutes, counted from the
// start of the tune (building and checking included). Long enough for every family's seed
// space on a quiet machine (the 660 conv3d_igemm configurations were checked and modelled in
// about 4 minutes with --jobs 2), short enough that a loaded machine or a larger space ends
// with the best configuration found so far instead of running for an hour. --budget 0 searches
// every configuration; --shuffle makes a cut search sample the whole space.
inline constexpr double kDefaultTuneBudgetS = 600;

struct TuneCommand {
  std::string family;                 // --family (required unless --list/--export/--import/--replay)
  std::string problem;                // --problem ("": the family's default_problem())
  std::string device = "sim:gfx950";  // --device
  std::string model;                  // --model (timing model for sim devices; "": tune_model_name())
  std::string strategy;               // --strategy (empty: the default)
  int samples = 10;                   // --samples per survivor
  int patience = 0;                   // --patience
  std::optional<double> budget_s;     // --budget seconds (unset: kDefaultTuneBudgetS; 0: none)
  int jobs = 0;                       // --jobs build threads and simulator workers
  uint64_t shuffle_seed = 0;          // --shuffle SEED (0: declared order)
  int cus = 0;                        // --cus
  std::string db;                     // --db (empty: default_perf_db_path())
  bool no_db = false;                 // --no-db
  bool force = false;                 // --force
  bool check_only = false;            // --check-only
  bool lookup = false;                // --lookup: print the stored winner, tune nothing
  bool quiet = false;                 // --quiet: no per-decision lines
  bool list = false;                  // --list families and their spaces
  std::string export_path;            // --export FILE
  std::string import_path;            // --import FILE
  bool overwrite = false;             // --overwrite (with --import)
  std::string replay;                 // --replay SCENARIO: one search on replayed times (never stored)
  unsigned long long seed = 1;        // --seed (with --replay)
};

// The timing-model product a tune on a simulator of `arch` uses without --model: mi355x on
// gfx950, mi300x on gfx942.
std::string tune_model_name(const std::string& model, Arch arch);

// Checks the option values that need no work (family, problem, model product and its arch
// against the device's, database path, files); throws cdnajit::Error naming the option. The
// command line calls it while parsing, so a bad value is status 2 before anything is built.
void check_tune_command(const TuneCommand& c);

// $CDNAJIT_PERFDB, else $XDG_CACHE_HOME/cdnajit/perf.db, else ~/.cache/cdnajit/perf.db.
std::string default_perf_db_path();

int run_tune_command(const TuneCommand& c);

}  // namespace cdnajit
