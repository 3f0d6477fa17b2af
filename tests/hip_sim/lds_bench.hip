// An LDS microbenchmark in the style of the public ones: a dependent chain of
// LDS reads timed inside the kernel with clock64() (cycles per access), and two
// access patterns timed with events: conflict-free (consecutive words) and
// 32-way bank-conflicted (a stride of 32 words). Checks the chain's result and,
// when the runtime models time, that clock64() counts modelled cycles and that the
// conflicted pattern takes longer.
#include <cstring>
#include <vector>

#include "check.hpp"

constexpr int kWords = 4096;
constexpr int kSteps = 256;

__global__ void chase(const unsigned* next, unsigned* out, long long* cycles) {
  __shared__ unsigned lds[kWords];
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) lds[i] = next[i];
  __syncthreads();
  unsigned j = threadIdx.x;
  long long t0 = clock64();
  for (int s = 0; s < kSteps; ++s) j = lds[j];
  long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = j;
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

// Each lane reads word (lane * stride + s) % kWords: stride 1 touches 64 consecutive
// words (no two lanes of a half-wave in one bank), stride 32 puts every lane in one bank.
__global__ void pattern(unsigned* out, int stride, int repeats) {
  __shared__ unsigned lds[kWords];
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) lds[i] = i;
  __syncthreads();
  unsigned acc = 0;
  for (int r = 0; r < repeats; ++r) acc += lds[(threadIdx.x * stride + r) % kWords];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  const int blocks = 8, threads = 64, pattern_threads = 256;
  std::vector<unsigned> next(kWords);
  for (int i = 0; i < kWords; ++i) next[i] = (i * 97 + 13) % kWords;
  unsigned *dnext, *dout;
  long long* dcycles;
  CHECK(hipMalloc(&dnext, kWords * sizeof(unsigned)));
  CHECK(hipMalloc(&dout, blocks * pattern_threads * sizeof(unsigned)));
  CHECK(hipMalloc(&dcycles, blocks * sizeof(long long)));
  CHECK(hipMemcpy(dnext, next.data(), kWords * sizeof(unsigned), hipMemcpyHostToDevice));

  chase<<<blocks, threads>>>(dnext, dout, dcycles);
  CHECK(hipDeviceSynchronize());
  std::vector<unsigned> out(blocks * threads);
  std::vector<long long> cycles(blocks);
  CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(cycles.data(), dcycles, blocks * sizeof(long long), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) {
      unsigned j = t;
      for (int s = 0; s < kSteps; ++s) j = next[j];
      if (out[b * threads + t] != j) {
        std::fprintf(stderr, "chase: block %d thread %d ended at %u, want %u\n", b, t, out[b * threads + t], j);
        return 1;
      }
    }
  if (cycles[0] <= 0) return 1;
  std::printf("LDS dependent read: %.2f clock64 ticks per access (%lld over %d reads)\n",
              double(cycles[0]) / kSteps, cycles[0], kSteps);
  const char* model = std::getenv("CDNAJIT_HIP_MODEL");
  const bool modelled = !(model && std::strcmp(model, "off") == 0);
  // With a model clock64() reads modelled cycles: each dependent read waits for the LDS latency
  // (about 52 cycles measured on gfx942), far above the 4 ticks per instruction of the unmodelled count.
  if (modelled && !(double(cycles[0]) / kSteps >= 40 && double(cycles[0]) / kSteps <= 200)) {
    std::fprintf(stderr, "a dependent LDS read took %.1f clock64 ticks, not modelled cycles (40..200)\n",
                 double(cycles[0]) / kSteps);
    return 1;
  }

  hipEvent_t e0, e1, e2;
  CHECK(hipEventCreate(&e0));
  CHECK(hipEventCreate(&e1));
  CHECK(hipEventCreate(&e2));
  const int repeats = 256;
  CHECK(hipEventRecord(e0, 0));
  pattern<<<blocks, pattern_threads>>>(dout, 1, repeats);
  CHECK(hipEventRecord(e1, 0));
  pattern<<<blocks, pattern_threads>>>(dout, 32, repeats);
  CHECK(hipEventRecord(e2, 0));
  CHECK(hipEventSynchronize(e2));
  float ms_free = 0, ms_conflict = 0;
  CHECK(hipEventElapsedTime(&ms_free, e0, e1));
  CHECK(hipEventElapsedTime(&ms_conflict, e1, e2));
  std::printf("LDS reads, stride 1:  %.5f ms\nLDS reads, stride 32: %.5f ms (%.1fx)\n", ms_free, ms_conflict,
              ms_conflict / ms_free);
  if (modelled && !(ms_conflict > 1.5f * ms_free)) {
    std::fprintf(stderr, "the bank-conflicted pattern is not slower in the modelled times\n");
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
