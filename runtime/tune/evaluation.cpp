#include "runtime/tune/evaluation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "jit/isa/error.hpp"
#include "runtime/tune/search.hpp"

namespace cdnajit::tune {

namespace {

std::vector<size_t> identity(size_t n) {
  std::vector<size_t> o(n);
  std::iota(o.begin(), o.end(), size_t(0));
  return o;
}

std::vector<size_t> shuffled(size_t n, uint64_t seed) {
  std::vector<size_t> o = identity(n);
  std::mt19937_64 rng(seed);
  std::shuffle(o.begin(), o.end(), rng);
  return o;
}

// The seed's production log (MIOpen #1978): kernel #2 is the best (~0.099 ms)
// and its first run was a 3.027 ms cold start; #0 averaged 0.343 ms. The true
// times of #1 and #3 are not in the log (only their cold first runs, 1.219 and
// 0.482 ms): 0.45 and 0.40 ms are assumptions. Searched in the log's order.
ReplayCase seed_4_kernels(double cold_probability) {
  ReplayCase c;
  c.true_ms = {0.343, 0.45, 0.099, 0.40};
  NoiseModel m = seed_calibrated();
  m.cold_probability = cold_probability;
  c.noise.assign(4, m);
  // The best's cold start as in the log: +2.928 ms (3.027 - 0.099), with a little spread.
  c.noise[2].cold_mean_ms = 3.027 - 0.099;
  c.noise[2].cold_sd_ms = 0.1;
  c.order = identity(4);
  return c;
}

ReplayCase ladder(const std::vector<double>& factors, double best_ms, const NoiseModel& m, uint64_t seed) {
  ReplayCase c;
  for (double f : factors) c.true_ms.push_back(f * best_ms);
  c.noise.assign(factors.size(), m);
  c.order = shuffled(factors.size(), seed);
  return c;
}

const std::vector<Scenario> kScenarios = {
    {"seed-4-kernels",
     "the seed's 4-kernel log (best 0.099 ms, 3.4x faster than the runner-up, with a 2.93 ms cold start); "
     "cold starts 30% (the seed's warm-up statistics); log order",
     [](uint64_t) { return seed_4_kernels(0.30); }},
    {"seed-4-kernels-45",
     "the same with 45% cold starts (the reviewer's count of slow warm-ups in the 100 runs)",
     [](uint64_t) { return seed_4_kernels(0.45); }},
    {"seed-ladder",
     "the seed's kernel (0.0873 ms, seed-calibrated noise) and 7 competitors 1.10x..3.35x slower, shuffled",
     [](uint64_t s) { return ladder({1.0, 1.10, 1.15, 1.20, 1.30, 1.50, 2.0, 3.35}, 0.0873, seed_calibrated(), s); }},
    {"seed-close",
     "the seed's kernel and 4 close competitors 1.03x..1.10x slower, shuffled: the final 10-sample means "
     "decide, so no cut-off strategy can be exact here",
     [](uint64_t s) { return ladder({1.0, 1.03, 1.05, 1.07, 1.10}, 0.0873, seed_calibrated(), s); }},
    {"short-kernels",
     "a 0.006 ms best and 7 competitors 1.10x..3.35x slower; seed-calibrated relative noise plus 0.001 ms "
     "additive noise per run (assumed; the seed only says kernels under 0.01 ms are much noisier)",
     [](uint64_t s) {
       NoiseModel m = seed_calibrated();
       m.additive_sd_ms = 0.001;
       return ladder({1.0, 1.10, 1.15, 1.20, 1.30, 1.50, 2.0, 3.35}, 0.006, m, s);
     }},
    {"wide-space",
     "64 configurations as a JIT search sees them: best 0.2 ms, the rest 1.10x + log-normal spread "
     "(median 1.8x, up to ~10x), seed-calibrated noise, random order",
     [](uint64_t s) {
       std::mt19937_64 rng(s);
       std::lognormal_distribution<double> spread(std::log(0.7), 0.8);
       std::vector<double> f = {1.0};
       while (f.size() < 64) f.push_back(1.10 + spread(rng));
       return ladder(f, 0.2, seed_calibrated(), rng());
     }},
};

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a * 0x9E3779B97F4A7C15ull + b + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

const std::vector<Scenario>& scenarios() { return kScenarios; }

const Scenario& scenario(const std::string& name) {
  std::string valid;
  for (const Scenario& s : kScenarios) {
    if (s.name == name) return s;
    valid += (valid.empty() ? "" : ", ") + s.name;
  }
  throw Error(fmt::format("unknown scenario '{}' (valid: {})", name, valid));
}

StrategyStats evaluate(const Scenario& sc, Strategy strategy, int searches, uint64_t seed, int full_samples) {
  if (searches < 1) throw Error(fmt::format("evaluate: {} searches (need >= 1)", searches));
  StrategyStats st;
  st.strategy = strategy;
  st.full_samples = full_samples;
  double slow = 0, runs = 0, samples = 0, surv = 0, surv_samples = 0;
  for (int k = 0; k < searches; ++k) {
    ReplayCase c = sc.draw(mix(seed, uint64_t(k)));
    size_t truth = size_t(std::min_element(c.true_ms.begin(), c.true_ms.end()) - c.true_ms.begin());
    auto src = replay_source(c.true_ms, c.noise, mix(seed + 1, uint64_t(k)));
    SearchOptions o;
    o.strategy = strategy;
    o.full_samples = full_samples;
    SearchResult r = search(*src, c.order, o);
    size_t pick = *r.best;  // the first candidate always survives
    double s = c.true_ms[pick] / c.true_ms[truth] - 1;
    st.right += pick == truth;
    slow += s;
    st.worst_slowdown = std::max(st.worst_slowdown, s);
    runs += double(r.runs);
    samples += double(r.samples);
    surv += double(r.survivors);
    surv_samples += double(r.survivor_samples);
  }
  st.searches = searches;
  st.mean_slowdown = slow / searches;
  st.runs_per_search = runs / searches;
  st.samples_per_search = samples / searches;
  st.survivors_per_search = surv / searches;
  st.samples_per_survivor = surv > 0 ? surv_samples / surv : 0;
  return st;
}

std::pair<double, double> wilson_interval(int k, int n, double z) {
  if (n <= 0) return {0, 1};
  double p = double(k) / n, z2 = z * z;
  double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  double half = z * std::sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

}  // namespace cdnajit::tune
