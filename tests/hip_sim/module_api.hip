// The module API with both kernel-argument conventions: hipModuleLoad /
// hipModuleLoadData of a code object file (argv[1]), hipModuleGetFunction,
// hipModuleLaunchKernel with kernelParams and with extra
// (HIP_LAUNCH_PARAM_BUFFER_POINTER), the error for a missing kernel, and
// hipModuleGetGlobal (a module's global variable, one copy per loaded module), and
// hipExtModuleLaunchKernel.
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <hip/hip_ext.h>

#include "check.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: module_api CODE_OBJECT\n");
    return 2;
  }
  hipModule_t from_file, from_memory;
  CHECK(hipModuleLoad(&from_file, argv[1]));
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<char> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(hipModuleLoadData(&from_memory, image.data()));
  hipFunction_t f1, f2, missing;
  CHECK(hipModuleGetFunction(&f1, from_file, "axpy"));
  CHECK(hipModuleGetFunction(&f2, from_memory, "axpy"));
  if (hipModuleGetFunction(&missing, from_file, "no_such_kernel") != hipErrorNotFound) return 1;

  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = float(i), y[i] = 1.f;
  float *dx, *dy;
  CHECK(hipMalloc(&dx, n * sizeof(float)));
  CHECK(hipMalloc(&dy, n * sizeof(float)));
  CHECK(hipMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  CHECK(hipMemcpyHtoD(dy, y.data(), n * sizeof(float)));

  // y = 2x + 1 through kernelParams.
  float a = 2.f;
  int count = n;
  void* params[] = {&a, &dx, &dy, &count};
  CHECK(hipModuleLaunchKernel(f1, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));

  // y += 3x through one argument buffer laid out as the kernel's metadata says
  // (a: 0, x: 8, y: 16, n: 24).
  struct {
    float a;
    float pad;
    const float* x;
    float* y;
    int n;
  } args{3.f, 0.f, dx, dy, n};
  size_t size = sizeof args;
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  CHECK(hipModuleLaunchKernel(f2, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra));

  CHECK(hipMemcpyDtoH(y.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    if (y[i] != 5.f * i + 1.f) {
      std::fprintf(stderr, "y[%d] = %g, want %g\n", i, y[i], 5.f * i + 1.f);
      return 1;
    }
  // A module global: its initial value, then one set through its address (y = 5x + 1 + 0.5 + 4x + 0.25).
  hipDeviceptr_t bias;
  size_t bias_bytes = 0;
  CHECK(hipModuleGetGlobal(&bias, &bias_bytes, from_file, "bias"));
  if (bias_bytes != sizeof(float)) return 1;
  if (hipModuleGetGlobal(&bias, &bias_bytes, from_file, "no_such_global") != hipErrorNotFound) return 1;
  float initial = 0.f;
  CHECK(hipMemcpyDtoH(&initial, bias, sizeof initial));
  if (initial != 0.5f) {
    std::fprintf(stderr, "bias = %g, want its initial value 0.5\n", initial);
    return 1;
  }
  hipFunction_t fb;
  CHECK(hipModuleGetFunction(&fb, from_file, "axpy_bias"));
  a = 1.f;
  CHECK(hipModuleLaunchKernel(fb, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  const float quarter = 0.25f;
  CHECK(hipMemcpyHtoD(bias, const_cast<float*>(&quarter), sizeof quarter));
  a = 3.f;
  CHECK(hipModuleLaunchKernel(fb, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  CHECK(hipMemcpyDtoH(y.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    if (y[i] != ((5.f * i + 1.f) + 1.f * i + 0.5f) + 3.f * i + 0.25f) {
      std::fprintf(stderr, "after axpy_bias: y[%d] = %g\n", i, y[i]);
      return 1;
    }
  // The other module's copy of the variable is its own.
  hipDeviceptr_t other;
  CHECK(hipModuleGetGlobal(&other, nullptr, from_memory, "bias"));
  CHECK(hipMemcpyDtoH(&initial, other, sizeof initial));
  if (other == bias || initial != 0.5f) return 1;

  // hip_ext.h's hipExtModuleLaunchKernel: sizes in work-items, between two events. y = 2x.
  hipEvent_t start, stop;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipMemset(dy, 0, n * sizeof(float)));
  a = 2.f;
  CHECK(hipExtModuleLaunchKernel(f1, 1024, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr, start, stop, 0));
  CHECK(hipMemcpyDtoH(y.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    if (y[i] != 2.f * i) {
      std::fprintf(stderr, "after hipExtModuleLaunchKernel: y[%d] = %g\n", i, y[i]);
      return 1;
    }
  float ms = -1;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  if (hipExtModuleLaunchKernel(f1, 1000, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr, nullptr, nullptr, 0) !=
      hipErrorInvalidValue)  // not a whole number of workgroups
    return 1;

  CHECK(hipModuleUnload(from_file));
  CHECK(hipModuleUnload(from_memory));
  std::printf("PASS\n");
  return 0;
}
