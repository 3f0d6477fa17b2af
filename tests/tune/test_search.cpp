// The outlier filter, every early-stop strategy's rule, and the search's
// decisions, patience and budget on scripted times; then every strategy on
// the seed-calibrated replay source.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdio>
#include <random>

#include "jit/isa/error.hpp"
#include "runtime/tune/evaluation.hpp"
#include "runtime/tune/outlier_filter.hpp"
#include "runtime/tune/search.hpp"
#include "tests/tune/test_seed.hpp"

using namespace cdnajit;
using namespace cdnajit::tune;

TEST_CASE("outlier filter: modified z-score by MAD", "[tune][outlier]") {
  // median 1.0, |dev| sorted = {0,0,0,.01,.01,.01,.01,.02,.02,.5,2.0} -> MAD 0.01;
  // 1.02 scores 0.6745*0.02/0.01 = 1.349 (kept), 1.5 scores 33.7, 3.0 scores 134.9.
  std::vector<double> s = {1.0, 1.0, 1.0, 0.99, 1.01, 0.99, 1.01, 1.02, 0.98, 1.5, 3.0};
  FilteredSamples f = reject_outliers(s);
  CHECK(f.median == Approx(1.0));
  CHECK(f.mad == Approx(0.01));
  CHECK(f.rejected == std::vector<double>{1.5, 3.0});
  CHECK(f.kept.size() == 9);
  CHECK(f.mean_kept == Approx(1.0));
  // Exactly at the boundary: 0.6745 * d / MAD = 2 is kept, a hair above is not.
  double mad = 0.1, d = 2 * mad / 0.6745;
  std::vector<double> b = {10 - mad, 10 - mad, 10, 10, 10, 10 + mad, 10 + mad, 10 + d * 0.999, 10 + d * 1.001};
  FilteredSamples fb = reject_outliers(b);
  CHECK(fb.mad == Approx(mad));
  CHECK(fb.rejected.size() == 1);
  CHECK(fb.rejected[0] == Approx(10 + d * 1.001));
  // A looser threshold keeps both.
  CHECK(reject_outliers(b, 3.0).rejected.empty());
  // MAD 0: identical samples kept, the rest rejected.
  FilteredSamples z = reject_outliers(std::vector<double>{2, 2, 2, 2, 2, 2, 7});
  CHECK(z.mad == 0);
  CHECK(z.rejected == std::vector<double>{7});
  CHECK(z.mean_kept == 2);
  // Even count: median is the mean of the middle two.
  CHECK(median_of({4, 1, 3, 2}) == 2.5);
  CHECK_THROWS_WITH(reject_outliers(std::vector<double>{}), Catch::Contains("no samples"));
  CHECK_THROWS_WITH(reject_outliers(s, 0.5), Catch::Contains("must be >= 1"));
}

TEST_CASE("early-stop rules of every strategy", "[tune][strategy]") {
  const double best = 1.0;
  // original and warm1x1.1: one sample against 1.1x.
  for (Strategy s : {Strategy::original, Strategy::warm1x1p1}) {
    CHECK(early_stop(s, {1.09}, best).verdict == Verdict::keep);
    CHECK(early_stop(s, {1.10}, best).verdict == Verdict::discard);
  }
  CHECK(warms_up(Strategy::original, 0));
  CHECK_FALSE(warms_up(Strategy::original, 1));
  for (Strategy s : {Strategy::warm1x1p1, Strategy::min2x1p2, Strategy::two_level, Strategy::short_kernel})
    CHECK(warms_up(s, 7));
  // min2x1.2: always two samples, decided on their minimum.
  CHECK(early_stop(Strategy::min2x1p2, {5.0}, best).verdict == Verdict::need_second_sample);
  CHECK(early_stop(Strategy::min2x1p2, {5.0, 1.19}, best).verdict == Verdict::keep);
  CHECK(early_stop(Strategy::min2x1p2, {1.25, 1.2}, best).verdict == Verdict::discard);
  CHECK(early_stop(Strategy::min2x1p2, {1.25, 1.2}, best).measured == 1.2);
  // two-level: 1.8x on s1, then 1.2x on the min.
  CHECK(early_stop(Strategy::two_level, {1.8}, best).verdict == Verdict::discard);
  CHECK(early_stop(Strategy::two_level, {1.79}, best).verdict == Verdict::need_second_sample);
  CHECK(early_stop(Strategy::two_level, {1.79, 1.19}, best).verdict == Verdict::keep);
  CHECK(early_stop(Strategy::two_level, {1.79, 1.21}, best).verdict == Verdict::discard);
  // short-kernel: f = 0.15 / (t + 0.05) in [1.6, 2.5].
  CHECK(short_kernel_factor(1.0) == 1.6);
  CHECK(short_kernel_factor(0.0) == 2.5);
  CHECK(short_kernel_factor(0.0375) == Approx(0.15 / 0.0875));  // 1.714
  CHECK(early_stop(Strategy::short_kernel, {1.7 * 0.0375}, 0.0375).verdict == Verdict::need_second_sample);
  CHECK(early_stop(Strategy::short_kernel, {1.72 * 0.0375}, 0.0375).verdict == Verdict::discard);
  CHECK(early_stop(Strategy::short_kernel, {2.4 * 0.005}, 0.005).verdict == Verdict::need_second_sample);
  CHECK(early_stop(Strategy::short_kernel, {1.7}, 1.0).verdict == Verdict::discard);
  // Names round-trip; bad names list the valid ones.
  for (Strategy s : all_strategies()) CHECK(parse_strategy(strategy_name(s)) == s);
  CHECK_THROWS_WITH(parse_strategy("fast"), Catch::Contains("valid: original, warm1x1.1, min2x1.2, two-level, short-kernel"));
  CHECK_THROWS_AS(early_stop(Strategy::two_level, {}, best), Error);
}

namespace {
std::vector<double> tens(double v, int n = 10) { return std::vector<double>(n, v); }
std::vector<double> cat(std::vector<double> a, const std::vector<double>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
}  // namespace

TEST_CASE("search: the seed's cold-start story, original vs warm-up for all", "[tune][search]") {
  // The seed's 4 kernels: #2 is the best (0.099 ms) but its first run is a 3.027 ms cold start.
  auto runs = [] {
    return std::vector<std::vector<double>>{cat({0.35}, tens(0.343, 11)), cat({1.219}, tens(0.45, 11)),
                                            cat({3.027}, tens(0.099, 11)), cat({0.482}, tens(0.40, 11))};
  };
  std::vector<std::string> lines;
  SearchOptions o;
  o.log = [&](const std::string& l) { lines.push_back(l); };
  o.strategy = Strategy::original;
  auto src = scripted_source(runs());
  SearchResult r = search(*src, o);
  REQUIRE(r.best);
  CHECK(*r.best == 0);  // the seed's wrong pick
  CHECK(r.records[2].outcome == Outcome::discarded);
  CHECK_FALSE(r.records[2].warmup_ms);
  CHECK(lines[2].find("no warm-up") != std::string::npos);
  CHECK(lines[2].find("discarded: s1 = 3.0270 ms") != std::string::npos);
  for (Strategy s : {Strategy::warm1x1p1, Strategy::min2x1p2, Strategy::two_level, Strategy::short_kernel}) {
    o.strategy = s;
    lines.clear();
    auto src2 = scripted_source(runs());
    SearchResult r2 = search(*src2, o);
    INFO(strategy_name(s));
    REQUIRE(r2.best);
    CHECK(*r2.best == 2);
    CHECK(r2.best_ms == Approx(0.099));
    CHECK(*r2.records[2].warmup_ms == 3.027);
    CHECK(lines.size() == 4);
  }
}

TEST_CASE("search: sample counts, log lines and outliers", "[tune][search]") {
  // #0 first (full set), #1 discarded by two-level's first level, #2 discarded on the min,
  // #3 survives with one outlier and wins.
  std::vector<std::vector<double>> runs = {
      cat({9.0}, tens(1.0)),
      {9.0, 1.85},
      {9.0, 1.5, 1.25},
      cat({9.0}, cat(tens(0.9, 9), {2.0})),
  };
  std::vector<std::string> lines;
  SearchOptions o;
  o.strategy = Strategy::two_level;
  o.log = [&](const std::string& l) { lines.push_back(l); };
  std::vector<size_t> done;
  o.progress = [&](size_t d, size_t t) { done.push_back(d * 100 + t); };
  auto src = scripted_source(runs);
  SearchResult r = search(*src, o, {"a=1", "a=2", "a=3", "a=4"});
  REQUIRE(r.best);
  CHECK(*r.best == 3);
  CHECK(r.best_ms == Approx(0.9));
  CHECK(r.records[3].rejected == std::vector<double>{2.0});
  CHECK(r.runs == 4 + 10 + 1 + 2 + 10);
  CHECK(r.samples == 10 + 1 + 2 + 10);
  CHECK(r.survivors == 2);
  CHECK(r.survivor_samples == 20);
  CHECK(done == std::vector<size_t>{104, 204, 304, 404});
  REQUIRE(lines.size() == 4);
  for (auto& l : lines) std::printf("%s\n", l.c_str());
  CHECK(lines[0].find("[1/4] a=1: warm-up 9.0000 ms; first candidate") != std::string::npos);
  CHECK(lines[1].find("discarded: s1 = 1.8500 ms = 1.850x best 1.0000 ms >= 1.80x") != std::string::npos);
  CHECK(lines[2].find("discarded: min(s1,s2) = 1.2500 ms = 1.250x best 1.0000 ms >= 1.20x") != std::string::npos);
  CHECK(lines[3].find("1 rejected [2.0000]") != std::string::npos);
  CHECK(lines[3].find("new best (0.9000 ms < 1.0000 ms)") != std::string::npos);
}

TEST_CASE("search: a candidate whose source throws is recorded as failed and the search goes on", "[tune][search]") {
  // #1 throws on its warm-up (no scripted runs), #2 after its first sample; #3 is the best.
  // Patience 2 would stop after two non-improving candidates: failures do not count.
  std::vector<std::vector<double>> runs = {cat({1.0}, tens(1.0)), {}, {1.0, 0.5}, cat({1.0}, tens(0.5))};
  std::vector<std::string> lines;
  SearchOptions o;
  o.patience = 2;
  o.log = [&](const std::string& l) { lines.push_back(l); };
  auto src = scripted_source(runs);
  SearchResult r = search(*src, o, {"a", "b", "c", "d"});
  REQUIRE(r.best);
  CHECK(*r.best == 3);
  CHECK(r.best_ms == Approx(0.5));
  CHECK(r.failed == 2);
  CHECK(r.ended == "all candidates");
  REQUIRE(r.records.size() == 4);
  CHECK(r.records[1].outcome == Outcome::failed);
  CHECK(r.records[1].reason == "failed: scripted time source: candidate 1 has only 0 scripted runs");
  CHECK(r.records[2].outcome == Outcome::failed);
  CHECK(r.records[2].samples == std::vector<double>{0.5});
  REQUIRE(lines.size() == 4);
  CHECK(lines[1] == "[2/4] b: failed: scripted time source: candidate 1 has only 0 scripted runs");
  CHECK(lines[2] == "[3/4] c: warm-up 1.0000 ms; failed: scripted time source: candidate 2 has only 2 scripted runs");
  // Without a log the reason is still kept.
  SearchOptions quiet;
  auto src2 = scripted_source(runs);
  SearchResult q = search(*src2, quiet);
  CHECK(q.records[1].reason == r.records[1].reason);
}

TEST_CASE("search: patience and time budget", "[tune][search]") {
  std::vector<std::vector<double>> runs(6, cat({1.0}, tens(1.0)));
  runs[0] = cat({1.0}, tens(0.5));
  SearchOptions o;
  o.strategy = Strategy::min2x1p2;
  o.patience = 2;
  auto src = scripted_source(runs);
  SearchResult r = search(*src, o);
  CHECK(r.records.size() == 3);
  CHECK(r.ended == "patience 2");
  // Budget: a fake clock that advances 1 s per reading.
  double t = 0;
  o.patience = 0;
  o.time_budget_s = 3;
  o.now_s = [&] { return t++; };
  auto src2 = scripted_source(runs);
  SearchResult r2 = search(*src2, o);
  CHECK(r2.ended == "time budget 3 s");
  CHECK(r2.records.size() == 2);
  // A budget whose clock started before the search (the tuner's build phase spent it).
  t = 10;
  o.budget_start_s = 7.0;
  auto src3 = scripted_source(runs);
  SearchResult r3 = search(*src3, o);
  CHECK(r3.records.empty());
  CHECK_FALSE(r3.best);
  o.budget_start_s.reset();
  o.time_budget_s = -1;
  CHECK_THROWS_WITH(search(*src2, o), Catch::Contains("time budget"));
  o.time_budget_s = 0;
  o.full_samples = 1;
  CHECK_THROWS_WITH(search(*src2, o), Catch::Contains("full_samples 1 (valid: 2..1000)"));
}

TEST_CASE("every strategy on the seed-calibrated replay source", "[tune][search][replay]") {
  // A configuration set with a known best (0.0873 ms, the seed's kernel) and
  // competitors 10%..235% slower, shuffled per search. 300 searches each.
  const std::vector<double> ladder = {1.0, 1.10, 1.15, 1.20, 1.30, 1.50, 2.0, 3.35};
  NoiseModel m = seed_calibrated();
  std::mt19937_64 rng(tune_test_seed());
  for (Strategy s : all_strategies()) {
    int right = 0;
    double survivor_samples = 0, survivors = 0;
    for (int k = 0; k < 300; ++k) {
      std::vector<double> t;
      for (double f : ladder) t.push_back(f * SeedStats::true_ms);
      std::vector<size_t> order(t.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::shuffle(order.begin(), order.end(), rng);
      auto src = replay_source(t, m, rng());
      SearchOptions o;
      o.strategy = s;
      SearchResult r = search(*src, order, o);
      right += r.best && *r.best == 0;
      survivor_samples += double(r.survivor_samples);
      survivors += double(r.survivors);
    }
    std::printf("%-13s %3d/300 right, %.1f samples per survivor\n", std::string(strategy_name(s)).c_str(), right,
                survivor_samples / survivors);
    CHECK(survivor_samples / survivors == 10.0);
    // One noisy sample against 1.1x loses the best often (and cold starts
    // without a warm-up more often); the others practically never do.
    if (s == Strategy::original || s == Strategy::warm1x1p1) CHECK(right < 290);
    else CHECK(right >= 298);
  }
}

TEST_CASE("evaluation: reproducible, and the seed's qualitative result", "[tune][evaluation]") {
  // Wilson interval of the seed's 6/10 (checked by hand: 0.3127..0.8318).
  auto [lo, hi] = wilson_interval(6, 10);
  CHECK(lo == Approx(0.3127).margin(1e-4));
  CHECK(hi == Approx(0.8318).margin(1e-4));
  const Scenario& sc = scenario("seed-4-kernels");
  StrategyStats a = evaluate(sc, Strategy::original, 400, tune_test_seed());
  StrategyStats b = evaluate(sc, Strategy::original, 400, tune_test_seed());
  CHECK(a.right == b.right);
  std::printf("seed-4-kernels, 400 searches: original %d right, default %d right\n", a.right,
              evaluate(sc, default_strategy(), 400, tune_test_seed()).right);
  // Original: ~70% right (cold starts at 30%); 400 searches put it within +-7% with >99.9% confidence.
  CHECK(a.right_rate() > 0.63);
  CHECK(a.right_rate() < 0.77);
  CHECK(evaluate(sc, default_strategy(), 400, tune_test_seed()).right == 400);
  CHECK_THROWS_WITH(scenario("nope"), Catch::Contains("valid: seed-4-kernels"));
}
