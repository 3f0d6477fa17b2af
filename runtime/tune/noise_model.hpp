// A noise model of GPU kernel timings, for replaying searches without a GPU.
//
// One candidate's runs are numbered from 0 in the order they happen:
//   run 0       the first launch in the process: sometimes a cold start (code
//               object upload, clocks ramping up), which adds milliseconds;
//   run 1       "sample 1": slower and noisier than later runs, and slower
//               still when run 0 was cold (the seed's reviewer measured
//               0.1114 ms after a slow warm-up vs 0.0896 ms after a fast one);
//   run 2       "sample 2": close to steady state;
//   run 3..     steady state.
// Each run is  true_ms * factor(run) * lognormal(1, cv(run)) + additive noise,
// with a small rate of long-tail outliers from run 2 on. Log-normal noise has
// the hard lower bound and the right tail real kernel times show.
#pragma once
#include <cstdint>
#include <random>
#include <string>

namespace cdnajit::tune {

struct NoiseModel {
  // Run 0 (the warm-up when a search warms up).
  double cold_probability = 0;  // chance that run 0 is a cold start
  double cold_mean_ms = 0;      // extra time of a cold start (log-normal), mean
  double cold_sd_ms = 0;        //   and standard deviation
  double run0_cv = 0;           // run 0 when warm: steady state with this CV
  // Run 1, as factors of the true time, after a cold / a warm run 0.
  double run1_factor_after_cold = 1, run1_factor_after_warm = 1;
  double run1_cv = 0;
  // Run 2 and the steady state (runs >= 3): mean factor and CV of the core
  // distribution (outliers excluded; see seed_calibrated()).
  double run2_factor = 1, run2_cv = 0;
  double steady_factor = 1, steady_cv = 0;
  // Outliers from run 2 on: with this probability a run is multiplied by a
  // factor uniform in [outlier_min, outlier_max].
  double outlier_probability = 0, outlier_min = 1, outlier_max = 1;
  // Time-independent noise (ms, normal, sd) added to every run: what makes
  // short kernels noisier in relative terms. Results are clamped at 1% of the
  // true time (a kernel never takes less than its clock cycles).
  double additive_sd_ms = 0;

  std::string describe() const;
};

// Calibrated to the seed's 100 runs of one kernel on MI355X (MIOpen PR #1993):
// warm-up mean 1.537 ms, sd 3.835 ms, ~30% cold starts; sample 1 mean 0.0959 ms,
// CV 11.9%; sample 2 mean 0.0902 ms, CV 3.1%; samples 2-10 mean 0.0873 ms, CV 4.4%.
// The derivation is in noise_model.cpp; tests/tune/test_noise_model.cpp
// re-measures these statistics from 100,000 replayed runs.
NoiseModel seed_calibrated(double outlier_probability = 0.005);

// The seed's figures as constants (one place), relative to its kernel.
struct SeedStats {
  static constexpr double true_ms = 0.0873;  // samples 2-10 mean
  static constexpr double warmup_mean_ms = 1.537, warmup_sd_ms = 3.835, cold_fraction = 0.30;
  static constexpr double s1_mean_ms = 0.0959, s1_sd_ms = 0.0114;
  static constexpr double s2_mean_ms = 0.0902, s2_sd_ms = 0.0028;
  static constexpr double s2_10_mean_ms = 0.0873, s2_10_sd_ms = 0.0038;
  // The reviewer's split of sample 1 by warm-up speed.
  static constexpr double s1_after_slow_ms = 0.1114, s1_after_fast_ms = 0.0896;
};

// A small, fast 64-bit generator (SplitMix64, Steele, Lea and Flood, OOPSLA
// 2014): replayed searches create one per candidate, millions of times, where
// seeding a Mersenne twister would dominate the cost.
struct SplitMix64 {
  using result_type = uint64_t;
  uint64_t state;
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  static constexpr uint64_t min() { return 0; }
  static constexpr uint64_t max() { return ~uint64_t(0); }
  uint64_t operator()() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// Draws the runs of one candidate. Not thread-safe; one per candidate.
class NoisyKernel {
 public:
  NoisyKernel(double true_ms, const NoiseModel& m, uint64_t seed) : true_ms_(true_ms), m_(m), rng_(seed) {}
  double next();                  // the next run's time (ms)
  int runs() const { return run_; }
  bool run0_was_cold() const { return cold_; }
  double true_ms() const { return true_ms_; }

 private:
  double lognormal(double mean, double cv);
  double true_ms_;
  NoiseModel m_;
  SplitMix64 rng_;
  int run_ = 0;
  bool cold_ = false;
};

}  // namespace cdnajit::tune
