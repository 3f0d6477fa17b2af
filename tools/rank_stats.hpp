// Rank statistics of the timing-model report: Spearman's rank correlation and what a
// rank-correlation target asks of a model when several measured times are nearly equal.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace cdnajit::report {

// Ranks 1..n, ties given their average rank.
std::vector<double> ranks(const std::vector<double>& v);

// Spearman's rank correlation (Pearson correlation of the ranks); NaN when either side is constant.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

// Median of |model / measured - 1|; NaN for no rows.
double median_abs_error(const std::vector<double>& measured, const std::vector<double>& modelled);

// The seed's rank target (issue 26, item 8): every pair of rows whose measured times differ by
// `min_ratio` or more (slower / faster >= min_ratio) must be ordered the same way by the model.
struct PairOrder {
  size_t pairs = 0;                                // pairs measured at least min_ratio apart
  size_t right = 0;                                // of those, pairs the model orders the same way
  std::vector<std::pair<size_t, size_t>> wrong;    // (measured faster, measured slower) rows ordered wrongly
};
PairOrder ordered_pairs(const std::vector<double>& measured, const std::vector<double>& modelled, double min_ratio);

// Every order of the `cluster` rows (indices into `measured`), the other rows placed at their
// measured ranks: how often the rank correlation with `measured` reaches `target`.
// `keep_after` pairs (a, b) restrict the orders to those with row a after row b.
struct ClusterOrders {
  size_t orders = 0;           // orders counted (after the keep_after restriction)
  size_t reaching = 0;         // of those, orders with Spearman >= target
  double mean_spearman = 0;    // over the orders counted
  double best_spearman = 0;
};
ClusterOrders cluster_orders(const std::vector<double>& measured, const std::vector<size_t>& cluster, double target,
                             const std::vector<std::pair<size_t, size_t>>& keep_after = {});

}  // namespace cdnajit::report
