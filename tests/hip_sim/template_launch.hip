// What a program defines before it includes <hip/hip_runtime.h> configures ROCm's header, as with
// clang's own HIP driver: HIP_TEMPLATE_KERNEL_LAUNCH makes hipLaunchKernelGGL a function template,
// so a kernel template with two arguments can be named in it (with the macro form the comma splits
// the macro's arguments and the source does not compile). atomicInc and assert() still come from
// cdnajit-hipcc's replacements once the header is included.
#define HIP_TEMPLATE_KERNEL_LAUNCH
#include <hip/hip_runtime.h>

#include <cassert>
#include <vector>

#include "check.hpp"

template <int Scale, int Offset>
__global__ void scale_add(int* out, unsigned int* count, int n) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = i * Scale + Offset;
  assert(i < n + int(blockDim.x));
  atomicInc(count, 1000000u);
}

int main() {
  const int n = 1000;
  int* out;
  unsigned int* count;
  CHECK(hipMalloc(&out, n * sizeof(int)));
  CHECK(hipMalloc(&count, sizeof(unsigned int)));
  CHECK(hipMemset(count, 0, sizeof(unsigned int)));
  hipLaunchKernelGGL(scale_add<3, 7>, dim3((n + 255) / 256), dim3(256), 0, nullptr, out, count, n);
  CHECK(hipGetLastError());
  std::vector<int> got(n);
  unsigned int launched = 0;
  CHECK(hipMemcpy(got.data(), out, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&launched, count, sizeof launched, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += got[i] != 3 * i + 7;
  if (bad || launched != 1024) {
    std::fprintf(stderr, "%d wrong values, %u work-items counted (want 1024)\n", bad, launched);
    return 1;
  }
  std::printf("template launch: %d values, %u work-items counted\n", n, launched);
  return 0;
}
