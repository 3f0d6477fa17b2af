// Registered host memory: hipHostRegister makes part of a std::vector device-visible at its own
// address, so a kernel writes it through the host pointer and through the pointer
// hipHostGetDevicePointer gives, hipMemcpy reads and writes it, and hipPointerGetAttributes calls it
// host memory. Registering an overlapping range again is hipErrorHostMemoryAlreadyRegistered,
// unregistering what was not registered hipErrorHostMemoryNotRegistered; after hipHostUnregister
// the bytes are still the program's and a kernel can no longer reach them.
#include <hip/hip_runtime.h>

#include <cstring>
#include <vector>

#include "check.hpp"

__global__ void square_plus(int* v, int n, int add) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) v[i] = v[i] * v[i] + add;
}

int main() {
  int bad = 0;
  auto expect = [&](bool ok, const char* what) {
    if (!ok) {
      std::fprintf(stderr, "failed: %s\n", what);
      ++bad;
    }
  };
  int flag = 0;
  CHECK(hipDeviceGetAttribute(&flag, hipDeviceAttributeCanUseHostPointerForRegisteredMem, 0));
  expect(flag == 1, "hipDeviceAttributeCanUseHostPointerForRegisteredMem is 1");
  // 1000 ints registered out of 1024: the 24 after them stay plain host memory.
  const int n = 1000;
  std::vector<int> host(1024);
  for (int i = 0; i < 1024; ++i) host[i] = i;
  CHECK(hipHostRegister(host.data(), n * sizeof(int), hipHostRegisterDefault));
  square_plus<<<(n + 127) / 128, 128>>>(host.data(), n, 1);
  CHECK(hipDeviceSynchronize());
  int* dev = nullptr;
  CHECK(hipHostGetDevicePointer(reinterpret_cast<void**>(&dev), host.data() + 10, 0));
  expect(dev == host.data() + 10, "the device pointer of a registered range is its host pointer");
  square_plus<<<1, 64>>>(dev, 5, 2);  // host[10..14] once more
  CHECK(hipDeviceSynchronize());
  for (int i = 0; i < 1024; ++i) {
    long long want = i >= n ? i : (long long)i * i + 1;
    if (i >= 10 && i < 15) want = want * want + 2;
    if (host[i] != want) {
      if (bad < 5) std::fprintf(stderr, "host[%d] = %d, want %lld\n", i, host[i], want);
      ++bad;
    }
  }
  // Copies to and from the registered range, and its attributes.
  int* d;
  CHECK(hipMalloc(&d, 16 * sizeof(int)));
  CHECK(hipMemcpy(d, host.data(), 16 * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(host.data() + 100, d, 16 * sizeof(int), hipMemcpyDeviceToHost));
  expect(std::memcmp(host.data(), host.data() + 100, 16 * sizeof(int)) == 0, "copies through the registered range");
  hipPointerAttribute_t attr;
  CHECK(hipPointerGetAttributes(&attr, host.data() + 7));
  expect(attr.memoryType == hipMemoryTypeHost && attr.hostPointer == host.data() + 7, "registered memory is host memory");
  // Errors.
  expect(hipHostRegister(host.data() + 500, 100 * sizeof(int), 0) == hipErrorHostMemoryAlreadyRegistered,
         "an overlapping registration is hipErrorHostMemoryAlreadyRegistered");
  std::vector<int> outer(64);  // a range enclosing a registered one (neither end inside it)
  CHECK(hipHostRegister(outer.data() + 16, 16 * sizeof(int), 0));
  expect(hipHostRegister(outer.data(), 64 * sizeof(int), 0) == hipErrorHostMemoryAlreadyRegistered,
         "a range enclosing a registered one is hipErrorHostMemoryAlreadyRegistered");
  CHECK(hipHostUnregister(outer.data() + 16));
  expect(hipHostUnregister(host.data() + 1) == hipErrorHostMemoryNotRegistered,
         "unregistering inside a range is hipErrorHostMemoryNotRegistered");
  (void)hipGetLastError();
  CHECK(hipHostUnregister(host.data()));
  expect(host[3] == 10, "the bytes stay the program's after hipHostUnregister");
  expect(hipHostGetDevicePointer(reinterpret_cast<void**>(&dev), host.data(), 0) == hipErrorInvalidValue,
         "an unregistered range has no device pointer");
  (void)hipGetLastError();
  // Registered again (a range that was registered once can be again), then freed by the vector
  // only after hipHostUnregister.
  CHECK(hipHostRegister(host.data(), 1024 * sizeof(int), hipHostRegisterMapped));
  square_plus<<<8, 128>>>(host.data(), 1024, 0);
  CHECK(hipDeviceSynchronize());
  expect(host[1023] == 1023 * 1023, "the whole vector registered the second time");
  CHECK(hipHostUnregister(host.data()));
  CHECK(hipFree(d));
  if (bad) {
    std::fprintf(stderr, "%d wrong\n", bad);
    return 1;
  }
  std::printf("hipHostRegister: a kernel wrote %d registered ints through the host pointer\n", n);
  return 0;
}
