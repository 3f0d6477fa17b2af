// A program built with -fgpu-default-stream=per-thread: clang's launch stubs call
// hipLaunchKernel_spt and ROCm's headers map hipMemcpy, hipMemset, hipStreamSynchronize,
// hipEventRecord, ... to their _spt entry points (the test checks the binary imports them).
#include <hip/hip_runtime.h>

#include <vector>

#include "check.hpp"

__global__ void axpy(float a, const float* x, float* y, int n) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) y[i] += a * x[i];
}

int main() {
  const int n = 5000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = float(i), y[i] = 1.f;
  float *dx, *dy;
  CHECK(hipMalloc(&dx, n * sizeof(float)));
  CHECK(hipMalloc(&dy, n * sizeof(float)));
  CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemset(dy, 0, n * sizeof(float)));
  CHECK(hipMemcpyAsync(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice, hipStreamPerThread));
  hipEvent_t start, stop;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventRecord(start, nullptr));
  axpy<<<(n + 255) / 256, 256>>>(2.f, dx, dy, n);
  CHECK(hipGetLastError());
  CHECK(hipEventRecord(stop, nullptr));
  CHECK(hipStreamSynchronize(nullptr));
  CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (y[i] != 1.f + 2.f * float(i)) {
      std::fprintf(stderr, "y[%d] = %g, want %g\n", i, double(y[i]), 1.0 + 2.0 * i);
      return 1;
    }
  float ms = -1;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  std::printf("per-thread default stream: %d values, event time %.4f ms\n", n, double(ms));
  return ms >= 0 ? 0 : 1;
}
