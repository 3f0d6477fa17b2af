// `cdnajit tune` as a library call: generate a family's configurations for a
// problem, build them in parallel, check each against the reference on a
// small problem, time the ones that pass with the device's time source, search,
// and store the winner in the performance database (or reuse a stored one).
//
// Time source by device: hip:N -> hipEvents (gpu-measured); sim:ARCH -> the
// timing model named by `model` (modelled). There is no other: the simulator's
// wall clock is not a kernel time.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/tune/family.hpp"
#include "runtime/tune/perf_db.hpp"
#include "runtime/tune/search.hpp"

namespace cdnajit::tune {

struct TuneRequest {
  std::string problem;              // family-specific text ("seed", ...)
  std::string device = "sim:gfx950";
  // Timing model for sim devices: a product name or product file (model::resolve_product); "" =
  // the device arch's default product (model::default_product).
  std::string model;
  int cus = 0;                      // 0: the device's default (see default_cus)
  std::string db_path;              // empty: no database
  int db_busy_timeout_ms = 5000;    // how long to wait for another tuner's write
  bool force = false;               // re-tune even when the database has a winner
  bool check_only = false;          // build and check every configuration, time nothing
  int jobs = 0;                     // build threads and simulator workers; 0 = hardware concurrency
  // 0: search in the declared order; else in an order shuffled with this seed (std::mt19937_64),
  // so a search cut by patience or the budget samples the whole space, not its first corner.
  uint64_t shuffle_seed = 0;
  SearchOptions search;             // strategy, samples, patience, budget, log, progress
  std::function<void(const std::string&)> log;  // build/check/db lines (the search logs through search.log)
  // Where modelled times come from (tests plug in a stand-in); default open_timing_model(the model above).
  std::function<std::unique_ptr<TimingModel>(const std::string& model)> open_model = open_timing_model;
};

struct TuneOutcome {
  PerfKey key;
  TimeKind kind = TimeKind::gpu_measured;
  bool reused = false;                 // answered from the database
  std::optional<PerfRecord> winner;    // empty for check_only
  std::vector<std::string> invalid;    // configurations the validity rules excluded, with reasons
  std::vector<std::string> failed;     // build, check, bind or timing failures, with reasons
  size_t not_searched = 0;             // built configurations the search did not reach (patience, budget)
  std::vector<std::string> passed;     // configurations that passed the check
  SearchResult search;
  std::string pending_file;            // set when the database could not be written: where the record went
};

// Compute units of the device a key is stored under: the request's value if
// given, else the flagship of the arch (gfx942: MI300X, 304 CUs; gfx950:
// MI355X, 256 CUs; AMD's product data sheets).
int default_cus(Arch arch);

TuneOutcome run_tune(const Family& family, const TuneRequest& req);

// What a family builds for a problem at build time: the database's winner for
// (arch, CUs, product, family, problem, this toolchain, version and build) — GPU-measured
// before modelled — or, without one, the family's first valid configuration.
// `source` says which: "gpu-measured: hip:0 ... 0.5370 ms", "modelled: model
// mi355x (modelled) ...", or "untuned (no database record)". A stored
// configuration that is no longer valid is not used (source says why).
struct BuildChoice {
  Config config;
  std::optional<PerfRecord> record;
  std::string source;
};
// `product`: the key's product (a timing model's name such as "mi355x", or a GPU device's name;
// "" = the arch's default product, as run_tune keys a request without a model).
BuildChoice best_config(const Family& family, const std::string& problem_text, Arch arch, int cus,
                        const std::string& product, const std::string& db_path);

}  // namespace cdnajit::tune
