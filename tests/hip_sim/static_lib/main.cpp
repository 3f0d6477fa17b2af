// The program of tests/hip_sim/check_static_lib.sh: plain C++, its kernel in the static library.
#include <cstdio>
#include <vector>

int scale_on_device(float* v, int n, float s);

int main() {
  std::vector<float> v(300);
  for (int i = 0; i < 300; ++i) v[i] = float(i);
  if (int e = scale_on_device(v.data(), 300, 2.5f)) {
    std::fprintf(stderr, "scale_on_device: HIP error %d\n", e);
    return 1;
  }
  for (int i = 0; i < 300; ++i)
    if (v[i] != 2.5f * float(i)) {
      std::fprintf(stderr, "v[%d] = %g, want %g\n", i, double(v[i]), 2.5 * i);
      return 1;
    }
  std::printf("static library: 300 values scaled by its kernel\n");
  return 0;
}
