// The device functions a HIP program calls beyond plain arithmetic, as cdnajit-hipcc supplies
// them: ROCm's math library (ocml.bc) checked in ulps against the host's long-double libm, the
// workgroup reductions behind __syncthreads_count / _and / _or, atomicInc / atomicDec (ROCm
// 5.2's headers call LLVM intrinsics LLVM has removed; both failed to link before), the other
// atomics, and the wave shuffles and votes, each against what the host computes.
#include <algorithm>
#include <cmath>
#include <vector>

#include "check.hpp"

static int bad = 0;
#define EXPECT(cond, ...)                                             \
  do {                                                                \
    if (!(cond)) {                                                    \
      std::fprintf(stderr, "%s:%d: failed: %s: ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                              \
      std::fprintf(stderr, "\n");                                     \
      ++bad;                                                          \
    }                                                                 \
  } while (0)

constexpr int kF32 = 13, kF64 = 5;
__global__ void math(const float* in, float* f, double* d, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = in[i];
  float* o = f + i * kF32;
  o[0] = sinf(x), o[1] = cosf(x), o[2] = tanf(x), o[3] = atan2f(x, 1.3f), o[4] = asinf(x / 20.0f);
  o[5] = erff(x), o[6] = expm1f(x * 0.25f), o[7] = log1pf(fabsf(x)), o[8] = cbrtf(x);
  o[9] = hypotf(x, 2.5f), o[10] = powf(fabsf(x) + 0.5f, 1.7f);
  float s, c;
  sincosf(x * 3.0f, &s, &c);
  o[11] = s, o[12] = c;
  const double y = double(x) * 1.37;
  double* p = d + i * kF64;
  p[0] = sin(y), p[1] = exp(y * 0.1), p[2] = log(fabs(y) + 1.0), p[3] = pow(fabs(y) + 0.5, 1.7), p[4] = atan2(y, -0.7);
}

// The exact function value (in long double) at the arguments the device computed: each argument
// rounded to the device's type as the kernel rounds it.
static long double reference(int k, float x, bool f64) {
  using L = long double;
  if (f64) {
    const double y = double(x) * 1.37;
    switch (k) {
      case 0: return sinl(L(y));
      case 1: return expl(L(y * 0.1));
      case 2: return logl(L(std::fabs(y) + 1.0));
      case 3: return powl(L(std::fabs(y) + 0.5), L(1.7));
      default: return atan2l(L(y), L(-0.7));
    }
  }
  switch (k) {
    case 0: return sinl(L(x));
    case 1: return cosl(L(x));
    case 2: return tanl(L(x));
    case 3: return atan2l(L(x), L(1.3f));
    case 4: return asinl(L(x / 20.0f));
    case 5: return erfl(L(x));
    case 6: return expm1l(L(x * 0.25f));
    case 7: return log1pl(L(std::fabs(x)));
    case 8: return cbrtl(L(x));
    case 9: return hypotl(L(x), L(2.5f));
    case 10: return powl(L(std::fabs(x) + 0.5f), L(1.7f));
    case 11: return sinl(L(x * 3.0f));
    default: return cosl(L(x * 3.0f));
  }
}

template <class T>
static double ulps(T got, long double want) {
  const T w = static_cast<T>(want);
  const T ulp = std::nextafter(std::fabs(w), T(INFINITY)) - std::fabs(w);
  return double(std::fabs(static_cast<long double>(got) - want) / ulp);
}

__global__ void reductions(int* out) {
  const int t = threadIdx.x;
  const int a = __syncthreads_count(t % 3 == 0);
  const int b = __syncthreads_count(t % 7 == 0);  // a second call right after the first
  const int c = __syncthreads_and(t < 1000);
  const int d = __syncthreads_and(t != 200);
  const int e = __syncthreads_or(t == blockDim.x - 1);
  const int f = __syncthreads_or(0);
  if (t == 0) {
    int* o = out + blockIdx.x * 6;
    o[0] = a, o[1] = b, o[2] = c, o[3] = d, o[4] = e, o[5] = f;
  }
}

__global__ void atomics(unsigned* inc, unsigned* dec, int* add, float* fadd, double* dadd, unsigned* mx, int* cas) {
  atomicInc(inc, 50u);
  atomicDec(dec, 50u);
  atomicAdd(add, 3);
  atomicAdd(fadd, 0.25f);
  atomicAdd(dadd, 0.125);
  atomicMax(mx, threadIdx.x * 7u + blockIdx.x);
  int old = *cas, assumed;
  do {
    assumed = old;
    old = atomicCAS(cas, assumed, assumed + 2);
  } while (old != assumed);
}

__global__ void wave_ops(int* out) {
  const int lane = threadIdx.x % 64, v = lane * 3 + 1;
  int* o = out + threadIdx.x * 8;
  o[0] = __shfl_xor(v, 5);
  o[1] = __shfl_down(v, 3);
  o[2] = __shfl_up(v, 9);
  o[3] = __shfl(v, 17);
  o[4] = __shfl_xor(v, 1, 16);
  const unsigned long long ballot = __ballot(lane % 5 == 0);
  o[5] = int(ballot & 0xffffffffu) ^ int(ballot >> 32);
  o[6] = __any(lane == 40) * 10 + __all(lane < 64) * 100 + __all(lane < 63);
  o[7] = __popcll(ballot);
}

int main() {
  // Math: ocml's f32 functions within 4 ulps (its documented bounds are 1-4), f64 within 2.
  const int n = 2048;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = (float(i) - n / 2) * 0.0117f;
  float *dx, *df;
  double* dd;
  CHECK(hipMalloc(&dx, n * sizeof(float)));
  CHECK(hipMalloc(&df, n * kF32 * sizeof(float)));
  CHECK(hipMalloc(&dd, n * kF64 * sizeof(double)));
  CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  math<<<n / 256, 256>>>(dx, df, dd, n);
  CHECK(hipGetLastError());
  std::vector<float> f(n * kF32);
  std::vector<double> d(n * kF64);
  CHECK(hipMemcpy(f.data(), df, f.size() * sizeof(float), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(d.data(), dd, d.size() * sizeof(double), hipMemcpyDeviceToHost));
  double worst32[kF32] = {}, worst64[kF64] = {};
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < kF32; ++k) worst32[k] = std::max(worst32[k], ulps(f[i * kF32 + k], reference(k, x[i], false)));
    for (int k = 0; k < kF64; ++k) worst64[k] = std::max(worst64[k], ulps(d[i * kF64 + k], reference(k, x[i], true)));
  }
  const char* names32[kF32] = {"sinf", "cosf", "tanf", "atan2f", "asinf", "erff", "expm1f", "log1pf", "cbrtf", "hypotf", "powf", "sincosf (sin)", "sincosf (cos)"};
  const char* names64[kF64] = {"sin", "exp", "log", "pow", "atan2"};
  for (int k = 0; k < kF32; ++k) EXPECT(worst32[k] <= 4.0, "%s: %.2f ulp", names32[k], worst32[k]);
  for (int k = 0; k < kF64; ++k) EXPECT(worst64[k] <= 2.0, "%s: %.2f ulp", names64[k], worst64[k]);

  // Workgroup reductions, in workgroups of 320 (5 waves) and 64 work-items.
  int* dr;
  CHECK(hipMalloc(&dr, 2 * 6 * sizeof(int)));
  for (int size : {320, 64}) {
    reductions<<<2, size>>>(dr);
    CHECK(hipGetLastError());
    int r[12];
    CHECK(hipMemcpy(r, dr, sizeof r, hipMemcpyDeviceToHost));
    for (int b = 0; b < 2; ++b) {
      const int* o = r + b * 6;
      EXPECT(o[0] == (size + 2) / 3 && o[1] == (size + 6) / 7, "size %d: counts %d %d", size, o[0], o[1]);
      EXPECT(o[2] == 1 && o[3] == (size > 200 ? 0 : 1), "size %d: and %d %d", size, o[2], o[3]);
      EXPECT(o[4] == 1 && o[5] == 0, "size %d: or %d %d", size, o[4], o[5]);
    }
  }

  // Atomics from 4 x 256 work-items.
  unsigned *inc, *dec, *mx;
  int *add, *cas;
  float* fadd;
  double* dadd;
  CHECK(hipMalloc(&inc, 4));
  CHECK(hipMalloc(&dec, 4));
  CHECK(hipMalloc(&mx, 4));
  CHECK(hipMalloc(&add, 4));
  CHECK(hipMalloc(&cas, 4));
  CHECK(hipMalloc(&fadd, 4));
  CHECK(hipMalloc(&dadd, 8));
  for (void* p : {(void*)inc, (void*)dec, (void*)mx, (void*)add, (void*)cas, (void*)fadd}) CHECK(hipMemset(p, 0, 4));
  CHECK(hipMemset(dadd, 0, 8));
  atomics<<<4, 256>>>(inc, dec, add, fadd, dadd, mx, cas);
  CHECK(hipGetLastError());
  unsigned hinc, hdec, hmx;
  int hadd, hcas;
  float hfadd;
  double hdadd;
  CHECK(hipMemcpy(&hinc, inc, 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&hdec, dec, 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&hmx, mx, 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&hadd, add, 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&hcas, cas, 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&hfadd, fadd, 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&hdadd, dadd, 8, hipMemcpyDeviceToHost));
  // atomicInc wraps to 0 past its bound (1024 increments: 1024 mod 51); atomicDec goes from 0 to the
  // bound and down (1024 decrements from 0: -1024 mod 51).
  EXPECT(hinc == 1024 % 51, "atomicInc %u", hinc);
  EXPECT(hdec == (51 - 1024 % 51) % 51, "atomicDec %u", hdec);
  EXPECT(hadd == 3 * 1024 && hcas == 2 * 1024, "atomicAdd %d, atomicCAS loop %d", hadd, hcas);
  EXPECT(hfadd == 256.0f && hdadd == 128.0, "float/double atomicAdd %g %g", hfadd, hdadd);
  EXPECT(hmx == 255u * 7 + 3, "atomicMax %u", hmx);

  // Wave shuffles and votes in a workgroup of two waves.
  int* dw;
  CHECK(hipMalloc(&dw, 128 * 8 * sizeof(int)));
  wave_ops<<<1, 128>>>(dw);
  CHECK(hipGetLastError());
  std::vector<int> w(128 * 8);
  CHECK(hipMemcpy(w.data(), dw, w.size() * sizeof(int), hipMemcpyDeviceToHost));
  unsigned long long ballot = 0;
  for (int l = 0; l < 64; l += 5) ballot |= 1ull << l;
  for (int t = 0; t < 128; ++t) {
    const int l = t % 64;
    auto v = [](int lane) { return lane * 3 + 1; };
    const int want[8] = {v(l ^ 5), v(l + 3 < 64 ? l + 3 : l), v(l >= 9 ? l - 9 : l), v(17), v(l ^ 1),
                         int(ballot & 0xffffffffu) ^ int(ballot >> 32), 110, 13};
    for (int k = 0; k < 8; ++k) EXPECT(w[t * 8 + k] == want[k], "work-item %d, value %d: %d, expected %d", t, k, w[t * 8 + k], want[k]);
  }
  std::printf("device library: f32 worst %.2f ulp, f64 worst %.2f ulp; %s\n",
              *std::max_element(worst32, worst32 + kF32), *std::max_element(worst64, worst64 + kF64), bad ? "FAILED" : "passed");
  return bad ? 1 : 0;
}
