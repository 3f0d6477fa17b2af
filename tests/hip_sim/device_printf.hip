// Device printf and assert on the drop-in runtime (buffered printf, runtime/device_printf.hpp).
// `device_printf print`: one work-item prints every kind of conversion, then 8 workgroups of 64
// print a line each; the test compares stdout with the lines the C library prints for the same
// formats and values (printed here, after the kernel, to stderr prefixed "want: ").
// `device_printf assert`: a kernel whose assert fails; the launch fails and ROCm's message is printed.
#include <cassert>
#include <cstdarg>
#include <cstring>

#include "check.hpp"

__global__ void print_kinds(int i, long long ll, unsigned u, float f, double d, const char* msg) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  printf("ints: %d %i %5d|%-5d|%05d %+d\n", i, -i, i, i, i, i);
  printf("wide: %lld %llx %lu %hd %hhu\n", ll, ll, (unsigned long)u, (short)-2, (unsigned char)300);
  printf("unsigned: %u %x %X %o %#x\n", u, u, u, u, u);
  printf("floats: %f %.3f %e %g %8.2f|%-8.1f|\n", f, f, d, d, d, f);
  printf("chars: %c%c %s [%10s] [%-6s] %%\n", 'o', 'k', "literal", "right", "left");
  printf("star: [%*d] [%.*f]\n", 6, i, 2, d);
  printf("no arguments\n");
}

__global__ void print_lines() {
  if (threadIdx.x % 16 == 0) printf("workgroup %d work-item %d\n", int(blockIdx.x), int(threadIdx.x));
}

__global__ void failing_assert(int* out, int n) {
  out[threadIdx.x] = threadIdx.x;
  assert(threadIdx.x < n);
}

static void want(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static void want(const char* fmt, ...) {
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "want: %s", line);
}

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "print";
  if (std::strcmp(what, "print") == 0) {
    const int i = 42;
    const long long ll = -1234567890123LL;
    const unsigned u = 3000000000u;
    const float f = 3.25f;
    const double d = -0.000123456;
    print_kinds<<<2, 64>>>(i, ll, u, f, d, "unused");
    CHECK(hipDeviceSynchronize());
    print_lines<<<8, 64>>>();
    CHECK(hipDeviceSynchronize());
    std::fflush(stdout);
    want("ints: %d %i %5d|%-5d|%05d %+d\n", i, -i, i, i, i, i);
    want("wide: %lld %llx %lu %hd %hhu\n", ll, ll, (unsigned long)u, (short)-2, (unsigned char)300);
    want("unsigned: %u %x %X %o %#x\n", u, u, u, u, u);
    want("floats: %f %.3f %e %g %8.2f|%-8.1f|\n", f, f, d, d, d, f);
    want("chars: %c%c %s [%10s] [%-6s] %%\n", 'o', 'k', "literal", "right", "left");
    want("star: [%*d] [%.*f]\n", 6, i, 2, d);
    want("no arguments\n");
    for (int b = 0; b < 8; ++b)
      for (int t = 0; t < 64; t += 16) want("workgroup %d work-item %d\n", b, t);
    return 0;
  }
  int* out;
  CHECK(hipMalloc(&out, 64 * sizeof(int)));
  failing_assert<<<1, 64>>>(out, 40);
  const hipError_t e = hipDeviceSynchronize();
  std::fprintf(stderr, "launch: %s\n", hipGetErrorName(e));
  return e == hipErrorLaunchFailure ? 0 : 1;
}
