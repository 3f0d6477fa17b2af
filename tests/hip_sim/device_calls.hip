// Device functions clang does not inline, called from kernels: the simulator runs the code
// object's functions a kernel calls (s_swappc_b64 / s_setpc_b64), their stack frames in the
// kernel's scratch. Two levels of calls, a callee with a dynamically indexed local array (a
// scratch frame) and a callee placed before the kernel in .text, against the same arithmetic on
// the host; a recursive function (a stack whose size is known only at run time) is refused before
// the kernel runs, with a message that says so.
#include <cstring>
#include <vector>

#include "check.hpp"

__device__ __attribute__((noinline)) float leaf(float a, int i) {
  float t[16];
  for (int j = 0; j < 16; ++j) t[j] = a * float(j) + float(i);
  return t[(i * 7) & 15] + t[i & 15];
}
__device__ __attribute__((noinline)) float middle(float a, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += leaf(a, i);
  return s;
}
__global__ void calls(float* out, int n) { out[blockIdx.x * blockDim.x + threadIdx.x] = middle(float(threadIdx.x) * 0.5f + float(blockIdx.x), n); }

__device__ __attribute__((noinline)) int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__global__ void recursive(int* out) { out[threadIdx.x] = fib(int(threadIdx.x) % 12); }

int main() {
  const int blocks = 2, threads = 64, n = 9;
  float* d;
  CHECK(hipMalloc(&d, blocks * threads * sizeof(float)));
  calls<<<blocks, threads>>>(d, n);
  CHECK(hipDeviceSynchronize());
  std::vector<float> got(blocks * threads);
  CHECK(hipMemcpy(got.data(), d, got.size() * sizeof(float), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) {
      const float a = float(t) * 0.5f + float(b);
      float s = 0.0f;
      for (int i = 0; i < n; ++i) {
        float tt[16];
        for (int j = 0; j < 16; ++j) tt[j] = a * float(j) + float(i);
        s += tt[(i * 7) & 15] + tt[i & 15];
      }
      if (got[size_t(b * threads + t)] != s && bad++ < 5)
        std::fprintf(stderr, "calls: workgroup %d work-item %d: %g, expected %g\n", b, t, got[size_t(b * threads + t)], s);
    }
  int* r;
  CHECK(hipMalloc(&r, threads * sizeof(int)));
  recursive<<<1, threads>>>(r);
  const hipError_t e = hipDeviceSynchronize();
  if (e != hipErrorLaunchFailure) {
    std::fprintf(stderr, "recursive: %s, expected hipErrorLaunchFailure\n", hipGetErrorName(e));
    ++bad;
  }
  std::printf("device calls: %s\n", bad ? "FAILED" : "passed");
  return bad ? 1 : 0;
}
