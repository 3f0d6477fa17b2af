// The module API with both kernel-argument conventions: hipModuleLoad /
// hipModuleLoadData of a code object file (argv[1]), hipModuleGetFunction,
// hipModuleLaunchKernel with kernelParams and with extra
// (HIP_LAUNCH_PARAM_BUFFER_POINTER), and the error for a missing kernel.
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

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
  CHECK(hipModuleUnload(from_file));
  CHECK(hipModuleUnload(from_memory));
  std::printf("PASS\n");
  return 0;
}
