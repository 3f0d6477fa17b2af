#include "tools/rank_stats.hpp"

#include <algorithm>
#include <cmath>

#include "jit/isa/error.hpp"

namespace cdnajit::report {

std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<size_t> idx(v.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (size_t i = 0; i < idx.size();) {  // average ranks for ties
    size_t j = i;
    while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
    for (size_t k = i; k <= j; ++k) r[idx[k]] = 0.5 * double(i + j) + 1;
    i = j + 1;
  }
  return r;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  auto ra = ranks(a), rb = ranks(b);
  const double n = double(a.size());
  double ma = 0, mb = 0;
  for (size_t i = 0; i < a.size(); ++i) ma += ra[i] / n, mb += rb[i] / n;
  double num = 0, da = 0, db = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    num += (ra[i] - ma) * (rb[i] - mb);
    da += (ra[i] - ma) * (ra[i] - ma);
    db += (rb[i] - mb) * (rb[i] - mb);
  }
  return da > 0 && db > 0 ? num / std::sqrt(da * db) : std::nan("");
}

double median_abs_error(const std::vector<double>& measured, const std::vector<double>& modelled) {
  std::vector<double> e;
  for (size_t i = 0; i < measured.size(); ++i) e.push_back(std::fabs(modelled[i] / measured[i] - 1));
  std::sort(e.begin(), e.end());
  if (e.empty()) return std::nan("");
  return e.size() % 2 ? e[e.size() / 2] : 0.5 * (e[e.size() / 2 - 1] + e[e.size() / 2]);
}

PairOrder ordered_pairs(const std::vector<double>& measured, const std::vector<double>& modelled, double min_ratio) {
  if (measured.size() != modelled.size())
    throw Error("ordered_pairs: " + std::to_string(measured.size()) + " measured and " + std::to_string(modelled.size()) +
                " modelled rows");
  PairOrder p;
  for (size_t i = 0; i < measured.size(); ++i)
    for (size_t j = 0; j < measured.size(); ++j) {
      if (!(measured[j] >= min_ratio * measured[i])) continue;  // i measured faster than j by min_ratio
      ++p.pairs;
      if (modelled[i] < modelled[j]) ++p.right;
      else p.wrong.emplace_back(i, j);
    }
  return p;
}

ClusterOrders cluster_orders(const std::vector<double>& measured, const std::vector<size_t>& cluster, double target,
                             const std::vector<std::pair<size_t, size_t>>& keep_after) {
  if (cluster.size() > 9) throw Error("cluster_orders: at most 9 rows (9! orders), got " + std::to_string(cluster.size()));
  for (size_t c : cluster)
    if (c >= measured.size()) throw Error("cluster_orders: row " + std::to_string(c) + " out of range");
  double lo = measured[cluster.empty() ? 0 : cluster[0]], hi = lo;
  for (size_t c : cluster) lo = std::min(lo, measured[c]), hi = std::max(hi, measured[c]);
  for (size_t i = 0; i < measured.size(); ++i)
    if (std::find(cluster.begin(), cluster.end(), i) == cluster.end() && measured[i] >= lo && measured[i] <= hi)
      throw Error("cluster_orders: row " + std::to_string(i) + " lies inside the cluster's measured range but is not in it");
  // Rows outside the cluster keep their measured value; the cluster's rows get the cluster's
  // smallest measured value plus a small step per position, so they stay together at their block of ranks.
  double base = 0;
  for (size_t k = 0; k < cluster.size(); ++k) base = k ? std::min(base, measured[cluster[k]]) : measured[cluster[k]];
  double step = 1e-9 * std::max(1.0, std::fabs(base));
  std::vector<size_t> order(cluster.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  ClusterOrders out;
  out.best_spearman = -1;
  std::vector<double> model = measured;
  double sum = 0;
  do {
    for (size_t k = 0; k < cluster.size(); ++k) model[cluster[order[k]]] = base + step * double(k);
    bool kept = true;
    for (auto [a, b] : keep_after) kept &= model[a] > model[b];
    if (!kept) continue;
    const double s = spearman(measured, model);
    ++out.orders;
    out.reaching += s >= target;
    sum += s;
    out.best_spearman = std::max(out.best_spearman, s);
  } while (std::next_permutation(order.begin(), order.end()));
  out.mean_spearman = out.orders ? sum / double(out.orders) : std::nan("");
  return out;
}

}  // namespace cdnajit::report
