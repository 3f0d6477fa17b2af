// Host side for one HipKittens BF16 GEMM kernel file (its Python/PyTorch harness replaced):
// C = A * B^T with A (M x K), B (N x K), C (M x N) bf16, the file's own M, N, K and launch
// (dispatch_micro). Times one launch with hipEvents and prints "<ms> ms <TFLOP/s> TFLOP/s"
// (2MNK / time). HK_CHECK=1 compares the computed part of C with a CPU product.
#include KERNEL_SOURCE
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                           \
  do {                                                                                     \
    hipError_t e_ = (x);                                                                   \
    if (e_ != hipSuccess) {                                                                \
      std::fprintf(stderr, "%s failed: %s\n", #x, hipGetErrorString(e_));                  \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

int main() {
  const size_t a_n = size_t(M) * K, b_n = size_t(N) * K, c_n = size_t(M) * N;
  bf16 *a, *b, *c;
  CHECK(hipMalloc(&a, a_n * sizeof(bf16)));
  CHECK(hipMalloc(&b, b_n * sizeof(bf16)));
  CHECK(hipMalloc(&c, c_n * sizeof(bf16)));
  // Small integers in bf16 (exact products and sums), a fixed pattern.
  std::vector<bf16> h(std::max(a_n, b_n));
  for (size_t i = 0; i < h.size(); ++i) h[i] = __float2bfloat16(float(int((i * 7919u) % 7u) - 3));
  CHECK(hipMemcpy(a, h.data(), a_n * sizeof(bf16), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(b, h.data(), b_n * sizeof(bf16), hipMemcpyHostToDevice));
  // 0xffff is a bf16 NaN: an element still NaN after the launch was not computed (with
  // CDNAJIT_HIP_MODEL_ONLY=1 only the modelled workgroups run).
  CHECK(hipMemset(c, 0xff, c_n * sizeof(bf16)));
  // A, B, C; the files that have a stream member after them get the null stream (value-initialised),
  // so the same shim builds the MI325X files as measured (no stream member) and the later ones.
  micro_globals g{make_gl<_gl_A>(uint64_t(a), 1, 1, M, K), make_gl<_gl_B>(uint64_t(b), 1, 1, N, K),
                  make_gl<_gl_C>(uint64_t(c), 1, 1, M, N)};
  hipEvent_t t0, t1;
  CHECK(hipEventCreate(&t0));
  CHECK(hipEventCreate(&t1));
  CHECK(hipEventRecord(t0));
  dispatch_micro(g);
  CHECK(hipGetLastError());
  CHECK(hipEventRecord(t1));
  CHECK(hipEventSynchronize(t1));
  float ms = 0;
  CHECK(hipEventElapsedTime(&ms, t0, t1));
  if (std::getenv("HK_CHECK")) {  // every computed element of C (at most 20000) against a CPU product
    std::vector<bf16> hc(c_n);
    CHECK(hipMemcpy(hc.data(), c, c_n * sizeof(bf16), hipMemcpyDeviceToHost));
    size_t bad = 0, checked = 0, computed = 0;
    for (size_t i = 0; i < size_t(M); ++i)
      for (size_t j = 0; j < size_t(N); ++j) {
        if (__bfloat16_as_ushort(hc[i * N + j]) == 0xffff) continue;  // bits, not isnan: -ffast-math
        const float got = __bfloat162float(hc[i * N + j]);
        if (++computed > 20000) continue;
        double s = 0;
        for (size_t k = 0; k < size_t(K); ++k)
          s += double(__bfloat162float(h[i * K + k])) * double(__bfloat162float(h[j * K + k]));
        ++checked;
        if (!(std::abs(got - s) <= 0.01 * std::abs(s) + 1e-6) && bad++ < 5)
          std::fprintf(stderr, "C[%zu][%zu] = %g, expected %g\n", i, j, got, s);
      }
    std::fprintf(stderr, "C: %zu of %zu elements computed; %zu checked against a CPU product, %zu wrong\n", computed,
                 c_n, checked, bad);
  }
  std::printf("%.6f ms %.2f TFLOP/s\n", ms, 2.0 * M * N * K / (ms * 1e-3) / 1e12);
  return 0;
}
