// Host work inside an event-timed region (CDNAJIT_HIP_HOST_WORK): the program's own work between
// HIP calls is on the modelled timeline at its measured CPU time when the device waits for it, and
// hidden when a kernel is still running. Checks, with the host work on (default):
//   (a) nothing but 2 ms of host work between the events: about 2 ms;
//   (b) a launch, a synchronize, then 2 ms of host work (BabelStream's Dot: the host adds the
//       partial sums before the end event): the launch's time plus about 2 ms;
//   (c) a long kernel, 0.2 ms of host work while it runs, then the synchronize: the kernel's time;
//   (d) 2 ms of host work, then a launch: the launch alone (the host work that submits a launch is
//       inside the launch's fitted overhead, which was measured with it);
// and with CDNAJIT_HIP_HOST_WORK=0 (argument "off") that (a) is 0 and (b) the launch's time.
//   host_work on|off
#include <cmath>
#include <cstring>
#include <ctime>

#include "check.hpp"

__global__ void spin(float* x, int iterations) {
  float v = x[threadIdx.x];
  for (int i = 0; i < iterations; ++i) v = v * 0.999f + 1.0f;
  x[threadIdx.x] = v;
}

// Busy host work of `ms` of this thread's CPU time.
static double host_work(double ms) {
  auto cpu_ms = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
  };
  const double start = cpu_ms();
  volatile double sink = 0;
  while (cpu_ms() - start < ms) sink = sink + 1.0;
  return cpu_ms() - start;
}

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "on") != 0 && std::strcmp(argv[1], "off") != 0)) {
    std::fprintf(stderr, "usage: %s on|off (the CDNAJIT_HIP_HOST_WORK in effect: on = unset or 1)\n", argv[0]);
    return 2;
  }
  const bool on = std::strcmp(argv[1], "on") == 0;
  float* x;
  CHECK(hipMalloc(&x, 64 * sizeof(float)));
  CHECK(hipMemset(x, 0, 64 * sizeof(float)));
  hipEvent_t t0, t1;
  CHECK(hipEventCreate(&t0));
  CHECK(hipEventCreate(&t1));
  auto elapsed = [&] {
    float ms = 0;
    CHECK(hipEventElapsedTime(&ms, t0, t1));
    return double(ms);
  };
  int bad = 0;
  auto expect = [&](const char* what, double got, double lo, double hi) {
    const bool ok = got >= lo && got <= hi;
    std::printf("%s: %.4f ms (expected %.4f to %.4f)%s\n", what, got, lo, hi, ok ? "" : "  WRONG");
    bad += !ok;
  };

  // A short launch alone, for (b) and (d): after a warm-up launch (the first one loads the kernel),
  // the least of three, so that a preempted or page-faulting host between the calls (this thread's
  // CPU time, on a loaded machine) cannot inflate the reference.
  spin<<<1, 64>>>(x, 1);
  CHECK(hipDeviceSynchronize());
  double launch_ms = 1e30;
  for (int i = 0; i < 3; ++i) {
    CHECK(hipEventRecord(t0));
    spin<<<1, 64>>>(x, 1);
    CHECK(hipDeviceSynchronize());
    CHECK(hipEventRecord(t1));
    launch_ms = std::fmin(launch_ms, elapsed());
  }
  // (a) host work only. The tolerance above covers the calls' own few microseconds.
  CHECK(hipEventRecord(t0));
  const double worked_a = host_work(2.0);
  CHECK(hipEventRecord(t1));
  expect("(a) 2 ms of host work", elapsed(), on ? worked_a - 0.01 : 0, on ? worked_a + 0.05 : 0);
  // (b) launch, synchronize, host work.
  CHECK(hipEventRecord(t0));
  spin<<<1, 64>>>(x, 1);
  CHECK(hipDeviceSynchronize());
  const double worked_b = host_work(2.0);
  CHECK(hipEventRecord(t1));
  expect("(b) launch + synchronize + 2 ms of host work", elapsed(), launch_ms + (on ? worked_b - 0.01 : 0),
         launch_ms + (on ? worked_b + 0.05 : 0.001));
  // (d) host work before a launch.
  CHECK(hipEventRecord(t0));
  const double worked_d = host_work(2.0);
  spin<<<1, 64>>>(x, 1);
  CHECK(hipDeviceSynchronize());
  CHECK(hipEventRecord(t1));
  (void)worked_d;
  expect("(d) 2 ms of host work + launch + synchronize", elapsed(), launch_ms - 0.001, launch_ms + 0.002);
  // (c) host work while a long kernel runs is hidden.
  const int iterations = 200000;  // about 2 ms modelled on MI300X (one wave, a dependent loop)
  CHECK(hipEventRecord(t0));
  spin<<<1, 64>>>(x, iterations);
  CHECK(hipDeviceSynchronize());
  CHECK(hipEventRecord(t1));
  const double kernel_ms = elapsed();
  if (!(kernel_ms > 0.3)) {
    std::fprintf(stderr, "the long kernel is modelled at %.4f ms, not above 0.3 ms: (c) cannot hide 0.2 ms in it\n", kernel_ms);
    return 1;
  }
  CHECK(hipEventRecord(t0));
  spin<<<1, 64>>>(x, iterations);
  host_work(0.2);
  CHECK(hipDeviceSynchronize());
  CHECK(hipEventRecord(t1));
  expect("(c) 0.2 ms of host work while the kernel runs", elapsed(), kernel_ms - 0.01, kernel_ms + 0.01);
  CHECK(hipFree(x));
  return bad ? 1 : 0;
}
