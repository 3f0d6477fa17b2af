#include "runtime/tune/outlier_filter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "jit/isa/error.hpp"

namespace cdnajit::tune {

double median_of(std::vector<double> v) {
  size_t n = v.size(), h = n / 2;
  std::nth_element(v.begin(), v.begin() + h, v.end());
  double hi = v[h];
  if (n % 2) return hi;
  double lo = *std::max_element(v.begin(), v.begin() + h);
  return (lo + hi) / 2;
}

FilteredSamples reject_outliers(std::span<const double> samples, double threshold) {
  if (samples.empty()) throw Error("outlier filter: no samples");
  // >= 1 keeps the median's half of the samples (their scores are <= 0.6745).
  if (!(threshold >= 1)) throw Error(fmt::format("outlier filter: threshold {} (must be >= 1)", threshold));
  FilteredSamples r;
  std::vector<double> v(samples.begin(), samples.end());
  r.median = median_of(v);
  std::vector<double> dev;
  for (double x : v) dev.push_back(std::fabs(x - r.median));
  r.mad = median_of(dev);
  double sum = 0;
  for (double x : v) {
    bool keep = r.mad > 0 ? std::fabs(0.6745 * (x - r.median) / r.mad) <= threshold : x == r.median;
    (keep ? r.kept : r.rejected).push_back(x);
    if (keep) sum += x;
  }
  r.mean_kept = sum / double(r.kept.size());  // never empty (threshold >= 1)
  return r;
}

}  // namespace cdnajit::tune
