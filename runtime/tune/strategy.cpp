#include "runtime/tune/strategy.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "jit/isa/error.hpp"

namespace cdnajit::tune {

std::string_view strategy_name(Strategy s) {
  switch (s) {
    case Strategy::original: return "original";
    case Strategy::warm1x1p1: return "warm1x1.1";
    case Strategy::min2x1p2: return "min2x1.2";
    case Strategy::two_level: return "two-level";
    case Strategy::short_kernel: return "short-kernel";
  }
  return "?";
}

const std::vector<Strategy>& all_strategies() {
  static const std::vector<Strategy> all = {Strategy::original, Strategy::warm1x1p1, Strategy::min2x1p2,
                                            Strategy::two_level, Strategy::short_kernel};
  return all;
}

// Chosen from tools/report_tune.md: see the README's tuning section.
Strategy default_strategy() { return Strategy::two_level; }

Strategy parse_strategy(std::string_view s) {
  std::string valid;
  for (Strategy k : all_strategies()) {
    if (strategy_name(k) == s) return k;
    valid += (valid.empty() ? "" : ", ") + std::string(strategy_name(k));
  }
  throw Error(fmt::format("unknown strategy '{}' (valid: {})", s, valid));
}

double short_kernel_factor(double best_ms) { return std::clamp(0.15 / (best_ms + 0.05), 1.6, 2.5); }

bool warms_up(Strategy s, size_t order) { return s != Strategy::original || order == 0; }

Decision early_stop(Strategy s, const std::vector<double>& samples, double best_ms) {
  if (samples.empty() || samples.size() > 2)
    throw Error(fmt::format("early_stop: {} samples (expected 1 or 2)", samples.size()));
  auto single = [&](double f, const char* rule) {
    return Decision{samples[0] < f * best_ms ? Verdict::keep : Verdict::discard, samples[0], f, rule};
  };
  auto min_of_two = [&](double f) {
    if (samples.size() < 2) return Decision{Verdict::need_second_sample, samples[0], f, "min(s1,s2)"};
    double m = std::min(samples[0], samples[1]);
    return Decision{m < f * best_ms ? Verdict::keep : Verdict::discard, m, f, "min(s1,s2)"};
  };
  auto two_level = [&](double first) {
    if (samples[0] >= first * best_ms) return Decision{Verdict::discard, samples[0], first, "s1"};
    return min_of_two(1.2);
  };
  switch (s) {
    case Strategy::original:
    case Strategy::warm1x1p1: return single(1.1, "s1");
    case Strategy::min2x1p2: return min_of_two(1.2);
    case Strategy::two_level: return two_level(1.8);
    case Strategy::short_kernel: return two_level(short_kernel_factor(best_ms));
  }
  throw Error("early_stop: unknown strategy");
}

}  // namespace cdnajit::tune
