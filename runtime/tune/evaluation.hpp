// Evaluation of the search on replayed configuration sets with a known true
// best: many seeded searches per strategy, counting how often the true best is
// picked, how much slower the pick is when it is not, and what it cost.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/tune/noise_model.hpp"
#include "runtime/tune/strategy.hpp"

namespace cdnajit::tune {

// One configuration set. `draw` gives the true times (ms), noise models and
// search order of search number k (fixed sets ignore k; random ones use it).
struct ReplayCase {
  std::vector<double> true_ms;
  std::vector<NoiseModel> noise;
  std::vector<size_t> order;
};
struct Scenario {
  std::string name;
  std::string description;  // what it models and which numbers are assumed
  ReplayCase (*draw)(uint64_t seed);
};
// The report's scenarios: seed-4-kernels (p = 0.30 and the reviewer's 0.45
// cold-start rate), seed-ladder, seed-close, short-kernels, wide-space.
const std::vector<Scenario>& scenarios();
const Scenario& scenario(const std::string& name);  // throws Error listing the names

struct StrategyStats {
  Strategy strategy;
  int full_samples = 10;
  int searches = 0, right = 0;
  double mean_slowdown = 0;      // E[true(pick) / true(best)] - 1 over all searches
  double worst_slowdown = 0;
  double runs_per_search = 0;    // launches, warm-ups included
  double samples_per_search = 0; // timed samples
  double samples_per_survivor = 0;
  double survivors_per_search = 0;
  double right_rate() const { return searches ? double(right) / searches : 0; }
};
// Runs `searches` searches of `s` with strategy `strategy`; search k uses seed
// (seed, k) for both the case and the time source, so every strategy sees the
// same cases and the result is reproducible.
StrategyStats evaluate(const Scenario& s, Strategy strategy, int searches, uint64_t seed, int full_samples = 10);

// Wilson score interval of a binomial proportion (95%: z = 1.96).
std::pair<double, double> wilson_interval(int successes, int trials, double z = 1.959964);

}  // namespace cdnajit::tune
