// A stream benchmark in the style of the public ones (copy, scale, add, triad
// over double arrays, best of several timed runs, results validated), reduced
// in size for the simulator. Its GB/s come from hipEvent timings: on the drop-in
// runtime with a model set those are modelled times (the runtime says so on stderr).
#include <cmath>
#include <vector>

#include "check.hpp"

constexpr int kBlock = 256;

__global__ void copy(const double* a, double* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i];
}
__global__ void scale(double* b, const double* c, double s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = s * c[i];
}
__global__ void add(const double* a, const double* b, double* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void triad(double* a, const double* b, const double* c, double s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 17;
  const int times = 3;
  const double s = 3.0;
  const size_t bytes = size_t(n) * sizeof(double);
  double *a, *b, *c;
  CHECK(hipMalloc(&a, bytes));
  CHECK(hipMalloc(&b, bytes));
  CHECK(hipMalloc(&c, bytes));
  std::vector<double> h(n, 1.0);
  CHECK(hipMemcpy(a, h.data(), bytes, hipMemcpyHostToDevice));
  std::fill(h.begin(), h.end(), 2.0);
  CHECK(hipMemcpy(b, h.data(), bytes, hipMemcpyHostToDevice));
  CHECK(hipMemset(c, 0, bytes));

  hipEvent_t start, stop;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  const dim3 grid((n + kBlock - 1) / kBlock), block(kBlock);
  const char* names[4] = {"Copy", "Scale", "Add", "Triad"};
  const double moved[4] = {2.0 * bytes, 2.0 * bytes, 3.0 * bytes, 3.0 * bytes};
  double best[4] = {1e30, 1e30, 1e30, 1e30};
  for (int t = 0; t < times; ++t)
    for (int k = 0; k < 4; ++k) {
      CHECK(hipEventRecord(start, 0));
      if (k == 0) copy<<<grid, block>>>(a, c, n);
      if (k == 1) scale<<<grid, block>>>(b, c, s, n);
      if (k == 2) add<<<grid, block>>>(a, b, c, n);
      if (k == 3) triad<<<grid, block>>>(a, b, c, s, n);
      CHECK(hipGetLastError());
      CHECK(hipEventRecord(stop, 0));
      CHECK(hipEventSynchronize(stop));
      float ms = 0;
      CHECK(hipEventElapsedTime(&ms, start, stop));
      best[k] = std::min(best[k], double(ms));
    }

  // Validation as the public benchmark does it: replay the recurrences on scalars.
  double ea = 1.0, eb = 2.0, ec = 0.0;
  for (int t = 0; t < times; ++t) {
    ec = ea;
    eb = s * ec;
    ec = ea + eb;
    ea = eb + s * ec;
  }
  std::vector<double> ha(n), hb(n), hc(n);
  CHECK(hipMemcpy(ha.data(), a, bytes, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(hb.data(), b, bytes, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(hc.data(), c, bytes, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (ha[i] != ea || hb[i] != eb || hc[i] != ec) {
      std::fprintf(stderr, "validation failed at %d: a %g b %g c %g, want %g %g %g\n", i, ha[i], hb[i], hc[i], ea, eb, ec);
      return 1;
    }

  std::printf("Array size %d doubles (%.1f MiB each), best of %d\n", n, bytes / 1048576.0, times);
  std::printf("Function    Best Rate GB/s   Time (ms)\n");
  for (int k = 0; k < 4; ++k) {
    const double gbps = moved[k] / (best[k] * 1e-3) / 1e9;
    std::printf("%-10s  %14.1f   %9.5f\n", names[k], gbps, best[k]);
    if (!(best[k] > 0) || !std::isfinite(gbps)) return 1;
  }
  std::printf("Solution validates\nPASS\n");
  return 0;
}
