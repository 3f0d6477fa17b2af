#pragma once
// Wall-clock measurement shared by the jobs and the reports that time JIT builds and clang
// compiles: elapsed milliseconds, and the median that those timings report (robust to one slow
// run on a shared machine).
#include <algorithm>
#include <chrono>
#include <vector>

namespace cdnajit::wall_clock {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// The middle value, or the mean of the two middle ones for an even count; `v` must not be empty.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace cdnajit::wall_clock
