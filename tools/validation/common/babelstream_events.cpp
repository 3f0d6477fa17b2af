// Host side for BabelStream's HIP kernels (a checkout's src/hip/HIPStream.cpp, compiled unmodified
// beside this file): BabelStream's own main times each kernel with the host clock, which on the
// simulator measures the simulator. This times the same HIPStream calls with hipEvents, which the
// drop-in HIP runtime makes modelled times (model CDNAJIT_HIP_MODEL), and prints one line per
// kernel: its label and its bandwidth as BabelStream computes it (weight x sizeof(double) x
// array size bytes, in 10^6 bytes per second of the shortest time). As BabelStream's main, the five
// kernels run TIMES times in turn and the first round is left out of the minimum. The events
// include each call's host work (e.g. Dot's host loop over the partial sums), which the drop-in
// runtime times on this machine (CDNAJIT_HIP_HOST_WORK); the rounds give that measured part a minimum
// as BabelStream's figure is one.
//
//   babelstream_events ARRAY_SIZE [TIMES]   (TIMES >= 2, default 5; build with -DBABELSTREAM_V4_API
//                                            for checkouts before v5)
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>

#include "HIPStream.h"

int main(int argc, char** argv) {
  char* end = nullptr;
  char* end_times = nullptr;
  const long long n = argc == 2 || argc == 3 ? std::strtoll(argv[1], &end, 10) : 0;
  const long long times = argc == 3 ? std::strtoll(argv[2], &end_times, 10) : 5;
  if (n <= 0 || *end != '\0' || (argc == 3 && *end_times != '\0') || times < 2 || times > 1000) {
    std::fprintf(stderr, "usage: %s ARRAY_SIZE [TIMES] (a positive element count; TIMES from 2 to 1000, default 5)\n", argv[0]);
    return 2;
  }
#ifdef BABELSTREAM_V4_API
  HIPStream<double> stream(int(n), 0);
  stream.init_arrays(startA, startB, startC);
#else
  HIPStream<double> stream(BenchId::All, n, 0, startA, startB, startC);
#endif
  struct Kernel {
    const char* label;
    int weight;  // arrays of n doubles the kernel moves (BabelStream's weights)
    std::function<void()> run;
  };
  const Kernel kernels[] = {
      {"Copy", 2, [&] { stream.copy(); }},   {"Mul", 2, [&] { stream.mul(); }}, {"Add", 3, [&] { stream.add(); }},
      {"Triad", 3, [&] { stream.triad(); }}, {"Dot", 2, [&] { stream.dot(); }},
  };
  hipEvent_t start, stop;
  if (hipEventCreate(&start) != hipSuccess || hipEventCreate(&stop) != hipSuccess) return 1;
  constexpr int kKernels = sizeof(kernels) / sizeof(kernels[0]);
  double best_ms[kKernels];
  std::fill(best_ms, best_ms + kKernels, std::numeric_limits<double>::infinity());
  for (long long round = 0; round < times; ++round) {
    for (int k = 0; k < kKernels; ++k) {
      hipEventRecord(start, nullptr);
      kernels[k].run();
      hipEventRecord(stop, nullptr);
      hipEventSynchronize(stop);
      float ms = 0;
      if (hipEventElapsedTime(&ms, start, stop) != hipSuccess || ms <= 0) {
        std::fprintf(stderr, "%s: no event time\n", kernels[k].label);
        return 1;
      }
      if (round > 0) best_ms[k] = std::min(best_ms[k], double(ms));  // BabelStream leaves the first round out
    }
  }
  for (int k = 0; k < kKernels; ++k)
    std::printf("%s\t%.1f\n", kernels[k].label,
                1e-6 * double(kernels[k].weight) * sizeof(double) * double(n) / (best_ms[k] * 1e-3));
  return 0;
}
