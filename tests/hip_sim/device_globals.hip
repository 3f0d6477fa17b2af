// __device__ and __constant__ variables: initialised from the code object (.rodata, .data and
// .bss, the first placed before .text, so clang's PC-relative offsets run both ways), a pointer
// initialised to another variable's address (a dynamic relocation), values kept from one launch
// to the next, hipMemcpyToSymbol / FromSymbol (with offsets), hipGetSymbolAddress / Size, and
// the errors for a pointer that is not a variable and a range that leaves one.
#include <cstring>

#include "check.hpp"

__constant__ float coef[4] = {1.5f, -2.f, 3.25f, 4.f};
__constant__ int scale[8];  // set by hipMemcpyToSymbol
__device__ unsigned counter;  // zero (.bss)
__device__ int table[3] = {10, 20, 30};
__device__ unsigned* counter_ptr = &counter;  // R_AMDGPU_RELATIVE64

__global__ void use_globals(float* out, int* scaled) {
  const int i = threadIdx.x;
  out[i] = coef[i & 3] * float(i);
  scaled[i] = scale[i & 7] + table[i % 3];
  atomicAdd(&counter, 1u);
  atomicAdd(counter_ptr, 2u);  // the same variable through the relocated pointer
}

__global__ void bump_table() { table[0] += 1; }  // kept for the next launch

static int bad = 0;
#define EXPECT(cond)                                                 \
  do {                                                               \
    if (!(cond)) {                                                   \
      std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++bad;                                                         \
    }                                                                \
  } while (0)

int main() {
  const int n = 128;
  float* out;
  int* scaled;
  CHECK(hipMalloc(&out, n * sizeof(float)));
  CHECK(hipMalloc(&scaled, n * sizeof(int)));
  const int s[8] = {100, 200, 300, 400, 500, 600, 700, 800};
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(scale), s, 4 * sizeof(int)));                        // elements 0..3
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(scale), s + 4, 4 * sizeof(int), 4 * sizeof(int)));  // 4..7 at an offset

  use_globals<<<1, n>>>(out, scaled);
  bump_table<<<1, 1>>>();
  use_globals<<<1, n>>>(out, scaled);
  CHECK(hipDeviceSynchronize());

  float h_out[n];
  int h_scaled[n];
  CHECK(hipMemcpy(h_out, out, sizeof h_out, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(h_scaled, scaled, sizeof h_scaled, hipMemcpyDeviceToHost));
  const float c[4] = {1.5f, -2.f, 3.25f, 4.f};
  // The second launch sees table[0] = 11, bump_table's increment.
  for (int i = 0; i < n; ++i) {
    EXPECT(h_out[i] == c[i & 3] * float(i));
    const int t = i % 3 == 0 ? 11 : i % 3 == 1 ? 20 : 30;
    EXPECT(h_scaled[i] == s[i & 7] + t);
  }
  unsigned count = 0;
  CHECK(hipMemcpyFromSymbol(&count, HIP_SYMBOL(counter), sizeof count));
  EXPECT(count == 2u * n * 3u);
  int t[3];
  CHECK(hipMemcpyFromSymbol(t, HIP_SYMBOL(table), sizeof t));
  EXPECT(t[0] == 11 && t[1] == 20 && t[2] == 30);
  int t2 = 0;
  CHECK(hipMemcpyFromSymbol(&t2, HIP_SYMBOL(table), sizeof t2, 2 * sizeof(int)));
  EXPECT(t2 == 30);

  // The symbol's device address is ordinary device memory, and the relocated pointer holds it.
  void* addr = nullptr;
  size_t size = 0;
  CHECK(hipGetSymbolAddress(&addr, HIP_SYMBOL(counter)));
  CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(counter)));
  EXPECT(size == sizeof(unsigned));
  unsigned via_address = 0;
  CHECK(hipMemcpy(&via_address, addr, sizeof via_address, hipMemcpyDeviceToHost));
  EXPECT(via_address == count);
  unsigned* ptr_value = nullptr;
  CHECK(hipMemcpyFromSymbol(&ptr_value, HIP_SYMBOL(counter_ptr), sizeof ptr_value));
  EXPECT(ptr_value == addr);
  CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(coef)));
  EXPECT(size == sizeof coef);

  // Device to device into a symbol.
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), scaled, sizeof(int), 0, hipMemcpyDeviceToDevice));
  CHECK(hipMemcpyFromSymbol(&t2, HIP_SYMBOL(table), sizeof t2));
  EXPECT(t2 == h_scaled[0]);

  // Errors: not a registered variable; a range that leaves the variable.
  int not_a_symbol = 0;
  EXPECT(hipMemcpyToSymbol(&not_a_symbol, &t2, sizeof t2) == hipErrorInvalidSymbol);
  EXPECT(hipMemcpyToSymbol(HIP_SYMBOL(table), t, sizeof t, sizeof(int)) == hipErrorInvalidValue);
  EXPECT(hipGetLastError() == hipErrorInvalidValue);
  if (bad) return 1;
  std::printf("PASS\n");
  return 0;
}
