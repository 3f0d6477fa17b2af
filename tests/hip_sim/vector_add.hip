// A HIP program as users write them: hipMalloc, <<<>>> and hipLaunchKernelGGL,
// hipMemcpy, events, hipGetErrorString, device properties. It checks its own
// results and the device it was given (argv[1]: the expected gcnArchName prefix).
#include <cstring>
#include <vector>

#include "check.hpp"

__global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void scale2d(float* m, int width, int height, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) m[y * width + x] *= s;
}

// Reverses each block's slice through dynamic LDS (the launch's shared-memory size).
__global__ void reverse_blocks(const int* in, int* out) {
  extern __shared__ int slice[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  slice[t] = in[base + t];
  __syncthreads();
  out[base + t] = slice[blockDim.x - 1 - t];
}

int main(int argc, char** argv) {
  const char* want_arch = argc > 1 ? argv[1] : "gfx942";
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  hipDeviceProp_t p;
  CHECK(hipGetDeviceProperties(&p, 0));
  std::printf("device: %s, %s, %d CUs, warpSize %d, LDS %zu bytes\n", p.name, p.gcnArchName, p.multiProcessorCount,
              p.warpSize, p.sharedMemPerBlock);
  if (count != 1 || std::strncmp(p.gcnArchName, want_arch, std::strlen(want_arch)) != 0 || p.warpSize != 64) {
    std::fprintf(stderr, "unexpected device: %d devices, %s (want %s)\n", count, p.gcnArchName, want_arch);
    return 1;
  }

  const int n = 10000;  // not a multiple of the block size
  std::vector<float> a(n), b(n), c(n, -1.f);
  for (int i = 0; i < n; ++i) a[i] = 0.5f * i, b[i] = 1000.f - i;
  float *da, *db, *dc;
  CHECK(hipMalloc(&da, n * sizeof(float)));
  CHECK(hipMalloc(&db, n * sizeof(float)));
  CHECK(hipMalloc(&dc, n * sizeof(float)));
  CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemset(dc, 0, n * sizeof(float)));

  hipEvent_t start, stop;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventRecord(start, 0));
  vadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  CHECK(hipGetLastError());
  CHECK(hipEventRecord(stop, 0));
  CHECK(hipEventSynchronize(stop));
  float ms = 0;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) {
      std::fprintf(stderr, "<<<>>>: c[%d] = %g, want %g\n", i, c[i], a[i] + b[i]);
      return 1;
    }
  std::printf("vadd <<<>>>: %d elements correct, event time %.6f ms\n", n, ms);
  if (!(ms > 0)) {
    std::fprintf(stderr, "event time %g ms is not positive\n", ms);
    return 1;
  }

  // The same through hipLaunchKernelGGL on a stream, into host-visible memory.
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  float* hc;
  CHECK(hipHostMalloc(&hc, n * sizeof(float), 0));
  hipLaunchKernelGGL(vadd, dim3((n + 127) / 128), dim3(128), 0, s, da, db, hc, n);
  CHECK(hipGetLastError());
  CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < n; ++i)
    if (hc[i] != a[i] + b[i]) {
      std::fprintf(stderr, "hipLaunchKernelGGL: hc[%d] = %g, want %g\n", i, hc[i], a[i] + b[i]);
      return 1;
    }
  std::printf("vadd hipLaunchKernelGGL into hipHostMalloc memory: correct\n");

  // A 2-D grid over managed memory, with an async copy back.
  const int w = 100, h = 37;
  float* m;
  CHECK(hipMallocManaged(&m, w * h * sizeof(float), hipMemAttachGlobal));
  for (int i = 0; i < w * h; ++i) m[i] = float(i);
  scale2d<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16), 0, s>>>(m, w, h, 3.f);
  std::vector<float> back(w * h);
  CHECK(hipMemcpyAsync(back.data(), m, w * h * sizeof(float), hipMemcpyDeviceToHost, s));
  CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < w * h; ++i)
    if (m[i] != 3.f * i || back[i] != 3.f * i) {
      std::fprintf(stderr, "scale2d: m[%d] = %g, copy %g, want %g\n", i, m[i], back[i], 3.f * i);
      return 1;
    }
  std::printf("scale2d on a 2-D grid over hipMallocManaged memory: correct\n");

  // Dynamic LDS: 3 blocks of 192 work-items, 192 ints of LDS each.
  const int rb = 192, rn = 3 * rb;
  std::vector<int> rin(rn), rout(rn);
  for (int i = 0; i < rn; ++i) rin[i] = i * 7 + 1;
  int *drin, *drout;
  CHECK(hipMalloc(&drin, rn * sizeof(int)));
  CHECK(hipMalloc(&drout, rn * sizeof(int)));
  CHECK(hipMemcpy(drin, rin.data(), rn * sizeof(int), hipMemcpyHostToDevice));
  reverse_blocks<<<3, rb, rb * sizeof(int)>>>(drin, drout);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(rout.data(), drout, rn * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < rn; ++i) {
    int want = rin[(i / rb) * rb + rb - 1 - i % rb];
    if (rout[i] != want) {
      std::fprintf(stderr, "reverse_blocks: out[%d] = %d, want %d\n", i, rout[i], want);
      return 1;
    }
  }
  std::printf("reverse_blocks with dynamic LDS: correct\n");
  CHECK(hipFree(drin));
  CHECK(hipFree(drout));

  // Errors are reported, and named.
  hipError_t bad = hipMemcpy(dc, a.data(), (n + 1) * sizeof(float), hipMemcpyHostToDevice);
  std::printf("copy past the end: %s (%s)\n", hipGetErrorName(bad), hipGetErrorString(bad));
  if (bad != hipErrorInvalidValue || hipGetLastError() != hipErrorInvalidValue || hipGetLastError() != hipSuccess) return 1;

  CHECK(hipStreamDestroy(s));
  CHECK(hipHostFree(hc));
  CHECK(hipFree(m));
  CHECK(hipFree(da));
  CHECK(hipFree(db));
  CHECK(hipFree(dc));
  CHECK(hipEventDestroy(start));
  CHECK(hipEventDestroy(stop));
  std::printf("PASS\n");
  return 0;
}
