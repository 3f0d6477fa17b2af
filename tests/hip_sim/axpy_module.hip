// The drop-in runtime's cost over a direct `cdnajit run` of the same kernel:
// loads module_kernels.co, launches axpy once on n elements (x = 0, 1, 2, ...,
// y = 0, as `cdnajit run ... --arg buf:x:N:iota --arg buf:y:N:zero` fills them)
// and checks y = a * x. README.md, "HIP programs on the simulator", gives the
// commands that compare the two.
//   axpy_module CODE_OBJECT [N]
#include <cstdlib>
#include <vector>

#include "check.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: axpy_module CODE_OBJECT [N]\n");
    return 2;
  }
  int n = argc > 2 ? std::atoi(argv[2]) : 1 << 16;
  hipModule_t m;
  hipFunction_t f;
  CHECK(hipModuleLoad(&m, argv[1]));
  CHECK(hipModuleGetFunction(&f, m, "axpy"));
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = float(i);
  float *dx, *dy;
  CHECK(hipMalloc(&dx, n * sizeof(float)));
  CHECK(hipMalloc(&dy, n * sizeof(float)));
  CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemset(dy, 0, n * sizeof(float)));
  float a = 2.f;
  void* params[] = {&a, &dx, &dy, &n};
  hipEvent_t start, stop;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventRecord(start, nullptr));
  CHECK(hipModuleLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  CHECK(hipEventRecord(stop, nullptr));
  CHECK(hipEventSynchronize(stop));
  float ms = 0;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  std::vector<float> y(n);
  CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (y[i] != 2.f * i) {
      std::fprintf(stderr, "y[%d] = %g, want %g\n", i, y[i], 2.f * i);
      return 1;
    }
  std::printf("axpy on %d elements: correct; event time %.4f ms\n", n, ms);
  return 0;
}
