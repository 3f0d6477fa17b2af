// A HIP program that includes <hip/hip_fp16.h> (which failed to compile with clang 22 before
// cdnajit-hipcc supplied the rcp helpers it calls) and checks __half arithmetic and hrcp.
#include <hip/hip_fp16.h>

#include <cmath>
#include <vector>

#include "check.hpp"

__global__ void half_ops(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half x = __float2half(in[i]);
  out[2 * i] = __half2float(__hadd(x, x));
  out[2 * i + 1] = __half2float(hrcp(x));
}

int main() {
  const int n = 64;
  std::vector<float> in(n), out(2 * n);
  for (int i = 0; i < n; ++i) in[i] = float(i + 1) * 0.25f;  // exact in f16
  float *din, *dout;
  CHECK(hipMalloc(&din, n * sizeof(float)));
  CHECK(hipMalloc(&dout, 2 * n * sizeof(float)));
  CHECK(hipMemcpy(din, in.data(), n * sizeof(float), hipMemcpyHostToDevice));
  half_ops<<<1, 64>>>(din, dout, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out.data(), dout, 2 * n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    // x + x is exact; v_rcp_f16 is within 1 ulp of 1/x (f16: 2^-10 relative).
    if (out[2 * i] != 2 * in[i] || std::fabs(out[2 * i + 1] * in[i] - 1.0f) > 2e-3f) {
      std::fprintf(stderr, "x = %g: x + x = %g, hrcp(x) = %g\n", in[i], out[2 * i], out[2 * i + 1]);
      return 1;
    }
  }
  std::printf("PASS\n");
  return 0;
}
