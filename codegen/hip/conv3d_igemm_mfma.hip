// HIP C++ reference of the implicit-GEMM conv3d with the same MFMA builtins, the same
// operand layout and the same accumulation order as the JIT kernel
// (codegen/conv3d_igemm.cpp): per 16x16 output block, acc = mfma(A_ks, B_ks, acc) for the
// K tiles of the split in ascending order and, inside a tile, the MFMA k-steps in
// ascending order; acc starts at +0; epilogue acc + bias[k] (fp32), then bf16 RNE or fp32.
// With split-K: fp32 atomic adds into a zeroed workspace, then conv3d_finalize_ref.
// It is written plainly (one LDS stage, plain C++ loads with explicit range checks), so
// clang chooses its own schedule and registers.
//
// Inputs: xt = NDHWC input with Cp channels (zero padded), wt = [K][KDIM_PADDED] weights
// (zero padded), both bf16 (ES = 2) or fp8 (ES = 1) bytes. Shape and plan from -D flags
// (conv3d_igemm_hip_flags): CV_N CV_C CV_D CV_H CV_W CV_K CV_T CV_R CV_S CV_SD CV_SH CV_SW
// CV_PD CV_PH CV_PW CV_DD CV_DH CV_DW CV_CP CV_KDIM CV_KDIMP CV_ES CV_TM CV_TN CV_TK CV_WM
// CV_WN CV_TPS CV_KTILES CV_MFASTEST CV_BIAS CV_SPLIT CV_OUTF32 CV_MFMA (0 gfx942 bf16,
// 1 gfx950 bf16, 2 gfx942 fp8, 3 gfx950 fp8) CV_MB (MFMA block: 16 = 16x16xK, 32 = 32x32xK).
#include "codegen_hip_prelude.h"

namespace {
constexpr int N = CV_N, C = CV_C, D = CV_D, H = CV_H, W = CV_W, K = CV_K, T = CV_T, R = CV_R, S = CV_S;
constexpr int SD = CV_SD, SH = CV_SH, SW = CV_SW, PD = CV_PD, PH = CV_PH, PW = CV_PW, DD = CV_DD, DH = CV_DH,
              DW = CV_DW;
constexpr int DO = (D + 2 * PD - DD * (T - 1) - 1) / SD + 1;
constexpr int HO = (H + 2 * PH - DH * (R - 1) - 1) / SH + 1;
constexpr int WO = (W + 2 * PW - DW * (S - 1) - 1) / SW + 1;
constexpr unsigned P = unsigned(DO) * HO * WO;
constexpr unsigned M = unsigned(N) * P;
constexpr int CP = CV_CP, ES = CV_ES, TM = CV_TM, TN = CV_TN, TK = CV_TK, WM = CV_WM, WN = CV_WN;
constexpr unsigned KDIM = CV_KDIM, KDIMP = CV_KDIMP;
constexpr int THREADS = 64 * WM * WN;
constexpr int ROWB = TK * ES;           // bytes per LDS row (no padding: clang's layout)
constexpr int CE = 16 / ES;             // elements per 16-byte chunk
constexpr int CPR = ROWB / 16;          // chunks per row
constexpr int MB = CV_MB;              // MFMA block side: lane l has row l % MB, K group l / MB
constexpr int NREG = MB * MB / 64;      // accumulators per lane
constexpr int BM = TM / WM / MB, BN = TN / WN / MB;
typedef float acc_t __attribute__((ext_vector_type(NREG)));
// K of one instruction: 16x16: 16 / 32 / 32 / 128; 32x32: half of that (same bytes per lane
// for the bf16 and f8f6f4 forms).
#if CV_MFMA == 0
constexpr int MK = MB == 16 ? 16 : 8;
typedef short frag_t __attribute__((ext_vector_type(4)));
#elif CV_MFMA == 1
constexpr int MK = MB == 16 ? 32 : 16;
typedef __bf16 frag_t __attribute__((ext_vector_type(8)));
#elif CV_MFMA == 2
constexpr int MK = MB == 16 ? 32 : 16;
typedef long frag_t;
#else
constexpr int MK = MB == 16 ? 128 : 64;
typedef int frag_t __attribute__((ext_vector_type(8)));
#endif
constexpr int FB = MK * ES / (64 / MB);  // fragment bytes per lane
static_assert(sizeof(frag_t) == FB, "fragment size");

__device__ inline acc_t mfma(frag_t a, frag_t b, acc_t c) {
#if CV_MB == 16
#if CV_MFMA == 0
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0);
#elif CV_MFMA == 1
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, 0, 0, 0);
#elif CV_MFMA == 2
  return __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, c, 0, 0, 0);
#else
  // cbsz = blgp = 0: both operands fp8 (E4M3FN); scales 0 select the unscaled instruction.
  return __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, 0, 0, 0, 0, 0, 0);
#endif
#else
#if CV_MFMA == 0
  return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, 0, 0, 0);
#elif CV_MFMA == 1
  return __builtin_amdgcn_mfma_f32_32x32x16_bf16(a, b, c, 0, 0, 0);
#elif CV_MFMA == 2
  return __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a, b, c, 0, 0, 0, 0, 0, 0);
#endif
#endif
}

__device__ inline void store_out(void* y, unsigned e, float v) {
#if CV_OUTF32
  ((float*)y)[e] = v;
#else
  ((unsigned short*)y)[e] = to_bf16_bits(v);
#endif
}
}  // namespace

extern "C" __global__ __launch_bounds__(THREADS) void conv3d_igemm_ref(const unsigned char* __restrict__ xt,
                                                                      const unsigned char* __restrict__ wt,
                                                                      const float* __restrict__ bias,
                                                                      void* __restrict__ y) {
  __shared__ uint4 lds[(TM + TN) * ROWB / 16];
  const unsigned char* lb = (const unsigned char*)lds;
  const int tid = opaque(int(threadIdx.x));
  const int wave = __builtin_amdgcn_readfirstlane(tid >> 6), lane = tid & 63;
  const int wm = wave % WM, wn = wave / WM;
#if CV_MFASTEST
  const unsigned m0 = blockIdx.x * TM, n0 = blockIdx.y * TN;
#else
  const unsigned m0 = blockIdx.y * TM, n0 = blockIdx.x * TN;
#endif
  const int kt0 = blockIdx.z * CV_TPS;
  const int kt1 = kt0 + CV_TPS < CV_KTILES ? kt0 + CV_TPS : CV_KTILES;
  acc_t acc[BM][BN];
  for (int i = 0; i < BM; ++i)
    for (int j = 0; j < BN; ++j) acc[i][j] = acc_t{};

  for (int kt = kt0; kt < kt1; ++kt) {
    for (int id = tid; id < TM * CPR; id += THREADS) {  // A: im2col gather
      unsigned row = id / CPR, ch = id % CPR;
      unsigned m = m0 + row, k = kt * TK + ch * CE;
      uint4 v = {0, 0, 0, 0};
      if (m < M && k < KDIM) {
        unsigned n = m / P, p = m % P, od = p / (HO * WO), oh = p % (HO * WO) / WO, ow = p % WO;
        unsigned tap = k / CP, c = k % CP, t = tap / (R * S), r = tap % (R * S) / S, s = tap % S;
        int di = int(od * SD) - PD + int(t) * DD, hi = int(oh * SH) - PH + int(r) * DH,
            wi = int(ow * SW) - PW + int(s) * DW;
        if (unsigned(di) < unsigned(D) && unsigned(hi) < unsigned(H) && unsigned(wi) < unsigned(W))
          v = *(const uint4*)(xt + (((((unsigned long)(n) * D + di) * H + hi) * W + wi) * CP + c) * ES);
      }
      lds[(row * ROWB + ch * 16) / 16] = v;
    }
    for (int id = tid; id < TN * CPR; id += THREADS) {  // B: weight rows
      unsigned row = id / CPR, ch = id % CPR;
      unsigned kc = n0 + row, k = kt * TK + ch * CE;
      uint4 v = {0, 0, 0, 0};
      if (kc < unsigned(K)) v = *(const uint4*)(wt + ((unsigned long)(kc) * KDIMP + k) * ES);
      lds[((TM + row) * ROWB + ch * 16) / 16] = v;
    }
    __syncthreads();
    for (int ks = 0; ks < TK / MK; ++ks) {
      frag_t a[BM], b[BN];
      for (int i = 0; i < BM; ++i)
        a[i] = *(const frag_t*)(lb + (wm * (TM / WM) + i * MB + lane % MB) * ROWB + ks * MK * ES + lane / MB * FB);
      for (int j = 0; j < BN; ++j)
        b[j] = *(const frag_t*)(lb + (TM + wn * (TN / WN) + j * MB + lane % MB) * ROWB + ks * MK * ES + lane / MB * FB);
      for (int i = 0; i < BM; ++i)
        for (int j = 0; j < BN; ++j) acc[i][j] = mfma(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }

  for (int i = 0; i < BM; ++i)
    for (int j = 0; j < BN; ++j)
      for (int r = 0; r < NREG; ++r) {
        unsigned m = m0 + wm * (TM / WM) + i * MB + r / 4 * 8 + lane / MB * 4 + r % 4;
        unsigned kc = n0 + wn * (TN / WN) + j * MB + lane % MB;
        if (m >= M || kc >= unsigned(K)) continue;
        unsigned e = (m / P) * K * P + kc * P + m % P;
        float v = acc[i][j][r];
#if CV_SPLIT
        atomicAdd((float*)y + e, v);
#else
#if CV_BIAS
        v = v + bias[kc];
#endif
        store_out(y, e, v);
#endif
      }
}

// Split-K: workspace + bias -> output type.
extern "C" __global__ __launch_bounds__(256) void conv3d_finalize_ref(const float* __restrict__ ws,
                                                                     const float* __restrict__ bias,
                                                                     void* __restrict__ y) {
  unsigned e = blockIdx.x * 256 + opaque(unsigned(threadIdx.x));
  if (e >= M * K) return;
  float v = ws[e];
#if CV_BIAS
  v = v + bias[e / P % K];
#endif
  store_out(y, e, v);
}
