// The configuration search: every candidate is warmed up (unless the strategy
// is the historical "original"), sampled once or twice, compared with the best
// so far by the strategy's early-stop rule, and, if it survives, sampled to the
// full set whose outliers are rejected (modified z-score, outlier_filter.hpp)
// before the rest is averaged. The lowest average wins.
//
// Every decision is one log line with its numbers. Patience (stop after N
// candidates in a row that did not beat the best) and a wall-clock budget can
// end the search early; the result says why it ended.
//
// A candidate whose time source throws (its build failed, its check found a
// wrong result, the launch or the model failed: a lazily prepared source
// reports all of these by throwing) is recorded as failed with the reason,
// logged, and the search goes on with the next one. A failure neither beats
// the best nor counts towards patience.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/tune/strategy.hpp"
#include "runtime/tune/time_source.hpp"

namespace cdnajit::tune {

struct SearchOptions {
  Strategy strategy = default_strategy();
  int full_samples = 10;           // samples of a survivor, the first ones included
  double outlier_threshold = 2.0;  // modified z-score
  int patience = 0;                // 0 = no limit
  double time_budget_s = 0;        // 0 = no limit; checked before each candidate
  // When the budget's clock started (a now_s() reading); unset: when the search starts. The
  // tuner sets it to its own start, so building and checking count against the budget too.
  std::optional<double> budget_start_s;
  // Clock for the budget (tests inject a fake one).
  std::function<double()> now_s = [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
  std::function<void(const std::string&)> log;            // one line per decision (no newline)
  std::function<void(size_t done, size_t total)> progress; // after each candidate
};

enum class Outcome : uint8_t { not_timed, discarded, survived, failed };

struct CandidateRecord {
  size_t index = 0;                 // in the time source
  Outcome outcome = Outcome::not_timed;
  std::optional<double> warmup_ms;  // absent when the strategy skipped the warm-up
  std::vector<double> samples;      // every timed sample, in order
  std::vector<double> rejected;     // outliers dropped from a survivor's set
  double time_ms = 0;               // survivor: mean of kept samples; discarded: the value that lost
  std::string reason;               // the decision in words, with numbers (the log line's end; only with a
                                    // log); for a failure always set: "failed: " + the source's error
};

struct SearchResult {
  std::optional<size_t> best;       // index in the time source; empty if nothing survived
  double best_ms = 0;
  std::vector<double> best_samples; // the winner's full sample set
  std::vector<CandidateRecord> records;  // in search order
  size_t runs = 0;                  // launches, warm-ups included
  size_t samples = 0;               // timed samples (warm-ups excluded)
  size_t survivors = 0;
  size_t survivor_samples = 0;      // samples spent on survivors
  size_t failed = 0;                // candidates whose time source threw
  std::string ended;                // "all candidates", "patience 5", "time budget 60 s"
};

// Searches candidates `order` (indices into `source`, in the order given)
// with labels for the log (labels[i] describes source index i; may be empty).
SearchResult search(TimeSource& source, const std::vector<size_t>& order, const SearchOptions& opt,
                    const std::vector<std::string>& labels = {});
// All candidates of the source, in index order.
SearchResult search(TimeSource& source, const SearchOptions& opt, const std::vector<std::string>& labels = {});

}  // namespace cdnajit::tune
