// Cooperative launches on the drop-in runtime: hipLaunchCooperativeKernel with grid.sync() between
// phases in which every workgroup reads what all the others wrote (5 rounds, so the sync words are
// reused), grid.is_valid() (1 in a cooperative launch, 0 in a <<<>>> launch), the co-residency
// limit (the largest grid the occupancy API allows runs, one workgroup more is
// hipErrorCooperativeLaunchTooLarge), and grid.sync() in a kernel not launched cooperatively
// (the launch fails instead of hanging).
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

#include <cstring>
#include <vector>

#include "check.hpp"

namespace cg = cooperative_groups;

// Round r: workgroup b writes (b + 1) * (r + 1) into its slot; after the sync every workgroup sums
// all slots into its own row of `sums` (each must see every other workgroup's write of this round);
// a second sync keeps the next round's writes after every read of this one.
__global__ void phases(int* slots, int* sums, int rounds) {
  cg::grid_group grid = cg::this_grid();
  const int groups = int(gridDim.x);
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) slots[blockIdx.x] = int(blockIdx.x + 1) * (r + 1);
    grid.sync();
    if (threadIdx.x == 0) {
      int s = 0;
      for (int b = 0; b < groups; ++b) s += slots[b];
      sums[blockIdx.x * rounds + r] = s;
    }
    grid.sync();
  }
}

__global__ void validity(int* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = cg::this_grid().is_valid() ? 1 : 0;
}

__global__ void sync_outside(int* out) {
  cg::this_grid().sync();
  out[threadIdx.x] = 1;
}

int main() {
  int coop = 0;
  CHECK(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0));
  if (coop != 1) {
    std::fprintf(stderr, "hipDeviceAttributeCooperativeLaunch is %d\n", coop);
    return 1;
  }
  int bad = 0;
  const int groups = 40, rounds = 5, block = 128;
  int *slots, *sums;
  CHECK(hipMalloc(&slots, groups * sizeof(int)));
  CHECK(hipMalloc(&sums, groups * rounds * sizeof(int)));
  int n = rounds;
  void* args[] = {&slots, &sums, &n};
  CHECK(hipLaunchCooperativeKernel(reinterpret_cast<const void*>(phases), dim3(groups), dim3(block), args, 0, nullptr));
  std::vector<int> got(groups * rounds);
  CHECK(hipMemcpy(got.data(), sums, got.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < groups; ++b)
    for (int r = 0; r < rounds; ++r) {
      const int want = (r + 1) * groups * (groups + 1) / 2;
      if (got[b * rounds + r] != want) {
        if (bad < 5) std::fprintf(stderr, "workgroup %d round %d: sum %d, want %d\n", b, r, got[b * rounds + r], want);
        ++bad;
      }
    }

  // The largest co-resident grid of `validity` (occupancy x CUs) runs; one more workgroup is refused.
  int per_cu = 0;
  CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, reinterpret_cast<const void*>(validity), 64, 0));
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 0));
  const int most = per_cu * prop.multiProcessorCount;
  int* flags;
  CHECK(hipMalloc(&flags, (most + 1) * sizeof(int)));
  CHECK(hipMemset(flags, 0, (most + 1) * sizeof(int)));
  void* vargs[] = {&flags};
  CHECK(hipLaunchCooperativeKernel(reinterpret_cast<const void*>(validity), dim3(most), dim3(64), vargs, 0, nullptr));
  std::vector<int> valid(most);
  CHECK(hipMemcpy(valid.data(), flags, most * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < most; ++b) bad += valid[b] != 1;
  const hipError_t too_large =
      hipLaunchCooperativeKernel(reinterpret_cast<const void*>(validity), dim3(most + 1), dim3(64), vargs, 0, nullptr);
  if (too_large != hipErrorCooperativeLaunchTooLarge) {
    std::fprintf(stderr, "%d workgroups: %s, want hipErrorCooperativeLaunchTooLarge\n", most + 1, hipGetErrorName(too_large));
    ++bad;
  }
  if (std::strcmp(hipGetErrorName(too_large), "hipErrorCooperativeLaunchTooLarge") != 0) {
    std::fprintf(stderr, "hipGetErrorName: %s\n", hipGetErrorName(too_large));
    ++bad;
  }
  (void)hipGetLastError();
  validity<<<4, 64>>>(flags);  // not cooperative: is_valid() is false
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(valid.data(), flags, 4 * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < 4; ++b) bad += valid[b] != 0;

  // grid.sync() without a cooperative launch: the launch fails (the device is then unusable).
  sync_outside<<<2, 64>>>(flags);
  const hipError_t outside = hipDeviceSynchronize();
  if (outside != hipErrorLaunchFailure) {
    std::fprintf(stderr, "grid.sync() outside a cooperative launch: %s, want hipErrorLaunchFailure\n", hipGetErrorName(outside));
    ++bad;
  }
  if (bad) {
    std::fprintf(stderr, "%d wrong\n", bad);
    return 1;
  }
  std::printf("cooperative launches: %d workgroups x %d grid syncs; %d co-resident at most (%d per CU)\n", groups,
              2 * rounds, most, per_cu);
  return 0;
}
