// HIP C++ reference of the MX-scaled GEMM (codegen/gemm_mx.cpp) with the same scaled MFMA
// builtin, the same operand layout and the same accumulation order: per mfma_m x mfma_m output
// block, acc = mfma_scale(A_ks, B_ks, acc, SA_ks, SB_ks) over the k-steps in ascending order,
// acc starting at +0; then fp32 or bf16 RNE. Written plainly (element-wise loads from global
// memory with explicit range checks), so clang chooses its own schedule and registers.
//
// A: M x K codes, B: N x K codes (fp6/fp4: little-endian bit strings per row), SA: M x K/32 and
// SB: N x K/32 E8M0 bytes, all row-major; C: M x N.
// Flags (gemm_mx_hip_flags): MX_M MX_N MX_K MX_TM MX_TN MX_WM MX_WN MX_MB (16 | 32)
// MX_FMT (the f8f6f4 format code: 0 fp8 E4M3, 1 bf8 E5M2, 2 fp6 E2M3, 3 bf6 E3M2, 4 fp4 E2M1) MX_OUTF32
// MX_SKM (1: scales K/32 x rows, SA[k/32][m]; 0: rows x K/32, SA[m][k/32]).
#include "codegen_hip_prelude.h"

#ifndef MX_SKM
#define MX_SKM 0  // mk scales unless the flags say otherwise
#endif

namespace {
constexpr unsigned M = MX_M, N = MX_N, K = MX_K;
constexpr int TM = MX_TM, TN = MX_TN, WM = MX_WM, WN = MX_WN, MB = MX_MB;
constexpr int THREADS = 64 * WM * WN;
constexpr int NREG = MB * MB / 64;
constexpr int BM = TM / WM / MB, BN = TN / WN / MB;
constexpr int MK = MB == 16 ? 128 : 64;           // K of one MFMA
constexpr int BITS = MX_FMT == 4 ? 4 : MX_FMT >= 2 ? 6 : 8;  // bits per element
constexpr unsigned ROWB = K * BITS / 8, SROW = K / 32;  // bytes per row of A/B and of SA/SB
constexpr int FB = 32 * BITS / 8;                 // fragment bytes per lane (32 elements)
typedef float acc_t __attribute__((ext_vector_type(NREG)));
typedef int frag_t __attribute__((ext_vector_type(8)));

__device__ inline acc_t mfma(frag_t a, frag_t b, acc_t c, int sa, int sb) {
#if MX_MB == 16
  return __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, MX_FMT, MX_FMT, 0, sa, 0, sb);
#else
  return __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a, b, c, MX_FMT, MX_FMT, 0, sa, 0, sb);
#endif
}

// The lane's 32 elements of `row` at K element k0 (zeros past the last row).
__device__ inline frag_t fragment(const unsigned char* p, unsigned row, unsigned rows, unsigned k0) {
  frag_t f = {};
  if (row < rows) {
    const int* src = (const int*)(p + (unsigned long)(row) * ROWB + k0 * BITS / 8);
    for (int d = 0; d < FB / 4; ++d) f[d] = src[d];
  }
  return f;
}
}  // namespace

extern "C" __global__ __launch_bounds__(THREADS) void gemm_mx_ref(const unsigned char* __restrict__ a,
                                                                 const unsigned char* __restrict__ b,
                                                                 const unsigned char* __restrict__ sa,
                                                                 const unsigned char* __restrict__ sb,
                                                                 void* __restrict__ c) {
  const int tid = opaque(int(threadIdx.x));
  const int wave = __builtin_amdgcn_readfirstlane(tid >> 6), lane = tid & 63;
  const int wm = wave % WM, wn = wave / WM;
  const unsigned m0 = blockIdx.x * TM + wm * (TM / WM), n0 = blockIdx.y * TN + wn * (TN / WN);
  const unsigned lrow = lane % MB, lk = lane / MB;  // row in the block, 32-element K block in the k-step
  acc_t acc[BM][BN];
  for (int i = 0; i < BM; ++i)
    for (int j = 0; j < BN; ++j) acc[i][j] = acc_t{};
  for (unsigned k0 = 0; k0 < K; k0 += MK) {
    const unsigned kl = k0 + lk * 32;
    frag_t fa[BM], fb[BN];
    int xa[BM], xb[BN];
    for (int i = 0; i < BM; ++i) {
      const unsigned m = m0 + i * MB + lrow;
      fa[i] = fragment(a, m, M, kl);
      xa[i] = m < M ? sa[MX_SKM ? (unsigned long)(kl / 32) * M + m : (unsigned long)(m) * SROW + kl / 32] : 0;
    }
    for (int j = 0; j < BN; ++j) {
      const unsigned n = n0 + j * MB + lrow;
      fb[j] = fragment(b, n, N, kl);
      xb[j] = n < N ? sb[MX_SKM ? (unsigned long)(kl / 32) * N + n : (unsigned long)(n) * SROW + kl / 32] : 0;
    }
    for (int i = 0; i < BM; ++i)
      for (int j = 0; j < BN; ++j) acc[i][j] = mfma(fa[i], fb[j], acc[i][j], xa[i], xb[j]);
  }
  for (int i = 0; i < BM; ++i)
    for (int j = 0; j < BN; ++j)
      for (int r = 0; r < NREG; ++r) {
        const unsigned m = m0 + i * MB + r / 4 * 8 + lane / MB * 4 + r % 4;
        const unsigned n = n0 + j * MB + lane % MB;
        if (m >= M || n >= N) continue;
        const unsigned long e = (unsigned long)(m) * N + n;
#if MX_OUTF32
        ((float*)c)[e] = acc[i][j][r];
#else
        ((unsigned short*)c)[e] = to_bf16_bits(acc[i][j][r]);
#endif
      }
}
