#include "runtime/tune/noise_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "jit/isa/error.hpp"

namespace cdnajit::tune {

namespace {

// Core (non-outlier) mean factor and CV such that the mixture "core, or core
// times M (M uniform in [lo, hi]) with probability q" has mean `mean` and CV `cv`:
//   E[X]  = E[core]  * (1 - q + q E[M]),   E[X^2] = E[core^2] * (1 - q + q E[M^2]).
struct Moments {
  double mean, cv;
};
Moments core_without_outliers(double mean, double cv, double q, double lo, double hi) {
  double em = (lo + hi) / 2;
  double em2 = hi > lo ? (hi * hi * hi - lo * lo * lo) / (3 * (hi - lo)) : lo * lo;
  double k1 = 1 - q + q * em, k2 = 1 - q + q * em2;
  double core_mean = mean / k1;
  double core_second = mean * mean * (1 + cv * cv) / k2;
  double core_var = core_second - core_mean * core_mean;
  if (core_var <= 0) throw Error(fmt::format("noise model: outliers (rate {}, x{}..{}) alone exceed the target CV {}", q, lo, hi, cv));
  return {core_mean, std::sqrt(core_var) / core_mean};
}

}  // namespace

NoiseModel seed_calibrated(double outlier_probability) {
  using S = SeedStats;
  const double T = S::true_ms, p = S::cold_fraction;
  NoiseModel m;
  // Run 0 = a warm run plus, with probability p, a cold-start delay D:
  //   mean = T + p E[D]            -> E[D] = (1.537 - T) / p            = 4.83 ms
  //   var  ~ p Var[D] + p(1-p) E[D]^2  (the warm part's variance is ~1e-5 ms^2)
  //                                -> sd[D] = sqrt((3.835^2 - p(1-p)E[D]^2) / p) = 5.72 ms
  m.cold_probability = p;
  m.cold_mean_ms = (S::warmup_mean_ms - T) / p;
  m.cold_sd_ms = std::sqrt((S::warmup_sd_ms * S::warmup_sd_ms - p * (1 - p) * m.cold_mean_ms * m.cold_mean_ms) / p);
  // Run 1: after a warm run 0 it runs at the reviewer's "fast warm-up" mean
  // (0.0896 ms); after a cold one, at the factor that makes the overall mean
  // 0.0959 ms (this gives 0.1106 ms; the reviewer measured 0.1114 ms). The
  // within-group CV makes the overall sd 0.0114 ms:
  //   Var = p(1-p)(a_c - a_w)^2 + cv^2 (p a_c^2 + (1-p) a_w^2).
  double m1 = S::s1_mean_ms / T, v1 = (S::s1_sd_ms / T) * (S::s1_sd_ms / T);
  m.run1_factor_after_warm = S::s1_after_fast_ms / T;
  m.run1_factor_after_cold = (m1 - (1 - p) * m.run1_factor_after_warm) / p;
  double gap = m.run1_factor_after_cold - m.run1_factor_after_warm;
  m.run1_cv = std::sqrt((v1 - p * (1 - p) * gap * gap) /
                        (p * m.run1_factor_after_cold * m.run1_factor_after_cold +
                         (1 - p) * m.run1_factor_after_warm * m.run1_factor_after_warm));
  // Outliers (run 2 on): rare and moderate; larger ones would already exceed
  // sample 2's CV of 3.1%.
  m.outlier_probability = outlier_probability;
  m.outlier_min = 1.1;
  m.outlier_max = 1.4;
  // Run 2: mean 0.0902 ms, CV 3.1%, outliers included.
  double m2 = S::s2_mean_ms / T, c2 = S::s2_sd_ms / S::s2_mean_ms;
  Moments r2 = core_without_outliers(m2, c2, m.outlier_probability, m.outlier_min, m.outlier_max);
  m.run2_factor = r2.mean;
  m.run2_cv = r2.cv;
  // Runs 3..10: samples 2..10 pooled have mean T and CV 0.0038/0.0873, so
  //   m3 = (9 - m2) / 8,   E[X3^2] = (9 E[pooled^2] - E[X2^2]) / 8.
  double pooled_second = 1 + (S::s2_10_sd_ms / S::s2_10_mean_ms) * (S::s2_10_sd_ms / S::s2_10_mean_ms);
  double m3 = (9 - m2) / 8;
  double second3 = (9 * pooled_second - m2 * m2 * (1 + c2 * c2)) / 8;
  double c3 = std::sqrt(second3 / (m3 * m3) - 1);
  Moments r3 = core_without_outliers(m3, c3, m.outlier_probability, m.outlier_min, m.outlier_max);
  m.steady_factor = r3.mean;
  m.steady_cv = r3.cv;
  m.run0_cv = m.steady_cv;
  return m;
}

std::string NoiseModel::describe() const {
  return fmt::format(
      "cold starts {:.0f}% (+{:.3f} ms mean, sd {:.3f} ms); run 1 x{:.4f} after cold / x{:.4f} after warm, CV {:.2f}%; "
      "run 2 x{:.4f} CV {:.2f}%; runs 3+ x{:.4f} CV {:.2f}%; outliers {:.2f}% x{:.2f}..{:.2f} from run 2; additive sd {:.4f} ms",
      100 * cold_probability, cold_mean_ms, cold_sd_ms, run1_factor_after_cold, run1_factor_after_warm, 100 * run1_cv,
      run2_factor, 100 * run2_cv, steady_factor, 100 * steady_cv, 100 * outlier_probability, outlier_min, outlier_max,
      additive_sd_ms);
}

double NoisyKernel::lognormal(double mean, double cv) {
  if (mean <= 0) return 0;
  if (cv <= 0) return mean;
  double s2 = std::log1p(cv * cv);
  std::lognormal_distribution<double> d(std::log(mean) - s2 / 2, std::sqrt(s2));
  return d(rng_);
}

double NoisyKernel::next() {
  int k = run_++;
  double t;
  if (k == 0) {
    t = true_ms_ * lognormal(m_.steady_factor, m_.run0_cv);
    cold_ = std::uniform_real_distribution<double>(0, 1)(rng_) < m_.cold_probability;
    if (cold_) t += lognormal(m_.cold_mean_ms, m_.cold_sd_ms / std::max(m_.cold_mean_ms, 1e-12));
  } else if (k == 1) {
    t = true_ms_ * lognormal(cold_ ? m_.run1_factor_after_cold : m_.run1_factor_after_warm, m_.run1_cv);
  } else {
    t = true_ms_ * (k == 2 ? lognormal(m_.run2_factor, m_.run2_cv) : lognormal(m_.steady_factor, m_.steady_cv));
    if (std::uniform_real_distribution<double>(0, 1)(rng_) < m_.outlier_probability)
      t *= std::uniform_real_distribution<double>(m_.outlier_min, m_.outlier_max)(rng_);
  }
  if (m_.additive_sd_ms > 0) t += std::normal_distribution<double>(0, m_.additive_sd_ms)(rng_);
  return std::max(t, 0.01 * true_ms_);
}

}  // namespace cdnajit::tune
