// A host library with its own kernel (tests/hip_sim/check_static_lib.sh): built into a static
// archive by cdnajit-hipcc --emit-static-lib, linked into a program that knows only scale_on_device().
#include <hip/hip_runtime.h>

__global__ void scale_kernel(float* v, int n, float s) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) v[i] *= s;
}

// Scales v[0..n) by s on the device; returns 0, or the HIP error.
int scale_on_device(float* v, int n, float s) {
  float* d = nullptr;
  hipError_t e = hipMalloc(&d, n * sizeof(float));
  if (e == hipSuccess) e = hipMemcpy(d, v, n * sizeof(float), hipMemcpyHostToDevice);
  if (e == hipSuccess) {
    scale_kernel<<<(n + 63) / 64, 64>>>(d, n, s);
    e = hipGetLastError();
  }
  if (e == hipSuccess) e = hipMemcpy(v, d, n * sizeof(float), hipMemcpyDeviceToHost);
  (void)hipFree(d);
  return int(e);
}
