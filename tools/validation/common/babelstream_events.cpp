// Host side for BabelStream's HIP kernels (a checkout's src/hip/HIPStream.cpp, compiled unmodified
// beside this file): BabelStream's own main times each kernel with the host clock, which on the
// simulator measures the simulator. This times the same HIPStream calls with hipEvents, which the
// drop-in HIP runtime makes modelled times (model CDNAJIT_HIP_MODEL), and prints one line per
// kernel: its label and its bandwidth as BabelStream computes it (weight x sizeof(double) x
// array size bytes, in 10^6 bytes per second of kernel time).
//
//   babelstream_events ARRAY_SIZE     (build with -DBABELSTREAM_V4_API for checkouts before v5)
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <functional>

#include "HIPStream.h"

int main(int argc, char** argv) {
  char* end = nullptr;
  const long long n = argc == 2 ? std::strtoll(argv[1], &end, 10) : 0;
  if (argc != 2 || *end != '\0' || n <= 0) {
    std::fprintf(stderr, "usage: %s ARRAY_SIZE (a positive element count)\n", argv[0]);
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
  for (const Kernel& k : kernels) {
    hipEventRecord(start, nullptr);
    k.run();
    hipEventRecord(stop, nullptr);
    hipEventSynchronize(stop);
    float ms = 0;
    if (hipEventElapsedTime(&ms, start, stop) != hipSuccess || ms <= 0) {
      std::fprintf(stderr, "%s: no event time\n", k.label);
      return 1;
    }
    std::printf("%s\t%.1f\n", k.label, 1e-6 * double(k.weight) * sizeof(double) * double(n) / (ms * 1e-3));
  }
  return 0;
}
