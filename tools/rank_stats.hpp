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
