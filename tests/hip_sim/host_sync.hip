// A host synchronize inside an event-timed region (CDNAJIT_HIP_HOST_SYNC_US). Times the same
// launch three ways and checks the modelled event times against the value given:
//   host_sync EXPECTED_US
// (a) launch between the events; (b) launch then hipDeviceSynchronize between them: (a) plus
// EXPECTED_US; (c) a second synchronize with no kernel since the first: costs nothing. Also
// hipStreamSynchronize and hipEventSynchronize after a launch each cost EXPECTED_US once.
#include <cmath>
#include <cstdlib>

#include "check.hpp"

__global__ void scale(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s EXPECTED_US (the CDNAJIT_HIP_HOST_SYNC_US in effect, 0 if unset)\n", argv[0]);
    return 2;
  }
  const double expected_ms = std::atof(argv[1]) * 1e-3;
  const int n = 1024;
  float* x;
  CHECK(hipMalloc(&x, n * sizeof(float)));
  CHECK(hipMemset(x, 0, n * sizeof(float)));
  hipEvent_t t0, t1, t2;
  CHECK(hipEventCreate(&t0));
  CHECK(hipEventCreate(&t1));
  CHECK(hipEventCreate(&t2));
  auto elapsed = [&](hipEvent_t a, hipEvent_t b) {
    float ms = 0;
    CHECK(hipEventElapsedTime(&ms, a, b));
    return double(ms);
  };
  int bad = 0;
  auto expect = [&](const char* what, double got, double want) {
    const bool ok = std::fabs(got - want) <= 1e-5 + 1e-5 * std::fabs(want);
    std::printf("%s: %.6f ms (expected %.6f)%s\n", what, got, want, ok ? "" : "  WRONG");
    bad += !ok;
  };

  // (a) launch only.
  CHECK(hipEventRecord(t0));
  scale<<<n / 256, 256>>>(x, n);
  CHECK(hipEventRecord(t1));
  CHECK(hipEventSynchronize(t1));  // after the region: not in (a)
  const double launch_ms = elapsed(t0, t1);
  if (!(launch_ms > 0)) {
    std::fprintf(stderr, "no modelled launch time (%.6f ms): run with CDNAJIT_HIP_MODEL set\n", launch_ms);
    return 1;
  }
  // (b) launch and a synchronize inside the region; (c) a synchronize with nothing in flight.
  CHECK(hipEventRecord(t0));
  scale<<<n / 256, 256>>>(x, n);
  CHECK(hipDeviceSynchronize());
  CHECK(hipEventRecord(t1));
  CHECK(hipDeviceSynchronize());
  CHECK(hipEventRecord(t2));
  expect("launch + hipDeviceSynchronize", elapsed(t0, t1), launch_ms + expected_ms);
  expect("hipDeviceSynchronize with nothing in flight", elapsed(t1, t2), 0);
  // hipStreamSynchronize and hipEventSynchronize wait the same way.
  CHECK(hipEventRecord(t0));
  scale<<<n / 256, 256>>>(x, n);
  CHECK(hipStreamSynchronize(nullptr));
  scale<<<n / 256, 256>>>(x, n);
  CHECK(hipEventSynchronize(t0));
  CHECK(hipEventRecord(t1));
  expect("2 x (launch + stream or event synchronize)", elapsed(t0, t1), 2 * (launch_ms + expected_ms));
  CHECK(hipFree(x));
  return bad ? 1 : 0;
}
