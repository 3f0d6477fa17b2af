// Errors a HIP program sees on a real device: an invalid launch configuration,
// an entry point the runtime does not implement, a kernel writing outside
// its allocation (hipErrorIllegalAddress, sticky until hipDeviceReset), and a
// kernel that deadlocks (hipErrorLaunchFailure; the simulator's finding by its kind), and a
// workgroup whose registers do not fit on a CU (hipErrorLaunchOutOfResources, not sticky).
#include <cstring>

#include "check.hpp"

__global__ void write_past_end(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i + n] = i;  // every work-item writes outside the n-element allocation
}

__global__ void fill(int* p, int v) { p[threadIdx.x] = v; }

// Clobbers v200 and a100 although its (default) launch bounds of 1024 work-items allow 128 vector
// registers: clang warns and the code object allocates 305 (201 VGPRs + 101 AGPRs after
// accum_offset 204), so one wave fits on a SIMD and a workgroup on a CU has at most 4 waves.
__global__ void too_many_registers(int* p) {
  asm volatile("v_mov_b32 v200, 0" ::: "v200");
  asm volatile("v_accvgpr_write_b32 a100, 0" ::: "a100");
  if (threadIdx.x < 256) p[threadIdx.x] = 3;  // p holds 256 ints
}

// Waits for a flag nothing sets: a GPU hangs until its watchdog; the simulator proves the deadlock.
__global__ void wait_for_flag(const int* flag) {
  while (*(volatile const int*)flag == 0) {
  }
}

static int expect(hipError_t got, hipError_t want, const char* what) {
  std::printf("%s: %s\n", what, hipGetErrorName(got));
  if (got != want) {
    std::fprintf(stderr, "%s: got %s, want %s\n", what, hipGetErrorName(got), hipGetErrorName(want));
    return 1;
  }
  return 0;
}

int main() {
  int bad = 0;
  int* p;
  const int n = 256;
  CHECK(hipMalloc(&p, n * sizeof(int)));

  fill<<<1, 2048>>>(p, 1);  // more work-items than a workgroup may hold
  bad += expect(hipGetLastError(), hipErrorInvalidConfiguration, "block of 2048 work-items");

  hipGraph_t graph;
  bad += expect(hipGraphCreate(&graph, 0), hipErrorNotSupported, "hipGraphCreate (not implemented)");
  bad += expect(hipGetLastError(), hipErrorNotSupported, "hipGetLastError after it");

  fill<<<1, 64>>>(p, 7);
  bad += expect(hipDeviceSynchronize(), hipSuccess, "a correct kernel");

  too_many_registers<<<1, 1024>>>(p);  // 16 waves: 4 on each SIMD
  bad += expect(hipGetLastError(), hipErrorLaunchOutOfResources, "workgroup whose registers do not fit on a CU");
  too_many_registers<<<1, 256>>>(p);  // 4 waves, one on each SIMD: the limit
  bad += expect(hipDeviceSynchronize(), hipSuccess, "the same kernel at the limit (not sticky)");
  int regs_back = 0;
  CHECK(hipMemcpy(&regs_back, p + 255, sizeof regs_back, hipMemcpyDeviceToHost));
  if (regs_back != 3) ++bad;

  write_past_end<<<1, 64>>>(p, n);
  bad += expect(hipGetLastError(), hipErrorIllegalAddress, "kernel writing past its allocation");
  bad += expect(hipDeviceSynchronize(), hipErrorIllegalAddress, "hipDeviceSynchronize after it");
  int back = 0;
  bad += expect(hipMemcpy(&back, p, sizeof back, hipMemcpyDeviceToHost), hipErrorIllegalAddress,
                "hipMemcpy after it (sticky)");
  bad += expect(hipDeviceReset(), hipSuccess, "hipDeviceReset");
  CHECK(hipMalloc(&p, n * sizeof(int)));
  fill<<<1, 64>>>(p, 9);
  bad += expect(hipMemcpy(&back, p, sizeof back, hipMemcpyDeviceToHost), hipSuccess, "a kernel after the reset");
  if (back != 9) ++bad;
  CHECK(hipMemset(p, 0, sizeof(int)));
  wait_for_flag<<<1, 64>>>(p);
  bad += expect(hipDeviceSynchronize(), hipErrorLaunchFailure, "a kernel that deadlocks");
  if (bad) return 1;
  std::printf("PASS\n");
  return 0;
}
