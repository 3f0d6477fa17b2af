// Early-stop strategies: when a candidate's first samples may discard it
// without taking its full sample set. Each compares against the best time so
// far (the mean of the best survivor's filtered samples).
//
//   original      MIOpen GenericSearch before PR #1978/#1993: only the first
//                 candidate is warmed up; one sample; keep if s1 < 1.1 x best.
//   warm1x1.1     the same rule with a warm-up for every candidate (PR #1978 alone).
//   min2x1.2      PR #1993: warm-up; two samples; keep if min(s1, s2) < 1.2 x best.
//   two-level     the reviewer's rule: warm-up; discard if s1 >= 1.8 x best;
//                 else a second sample, keep if min(s1, s2) < 1.2 x best.
//   short-kernel  two-level with the first factor adaptive to the best time t
//                 (ms): f = 0.15 / (t + 0.05) clamped to [1.6, 2.5] (the
//                 reviewer's suggestion for kernels under ~0.01 ms).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cdnajit::tune {

enum class Strategy : uint8_t { original, warm1x1p1, min2x1p2, two_level, short_kernel };
std::string_view strategy_name(Strategy s);
Strategy parse_strategy(std::string_view s);  // throws Error listing the valid names
const std::vector<Strategy>& all_strategies();
Strategy default_strategy();

// The first-sample cut-off of the short-kernel rule.
double short_kernel_factor(double best_ms);

// What the strategy asks for after seeing `samples` (1 or 2 so far).
enum class Verdict : uint8_t { need_second_sample, discard, keep };
struct Decision {
  Verdict verdict;
  double measured = 0;  // the value compared (s1, or min(s1, s2))
  double factor = 0;    // the cut-off factor it was compared against
  std::string rule;     // "s1 vs 1.1x", "min(s1,s2) vs 1.2x", ...
};
Decision early_stop(Strategy s, const std::vector<double>& samples, double best_ms);

// Whether the strategy warms up candidate number `order` (0 = first timed).
bool warms_up(Strategy s, size_t order);

}  // namespace cdnajit::tune
