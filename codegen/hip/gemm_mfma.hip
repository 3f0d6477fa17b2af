// HIP C++ reference of the MFMA GEMM (codegen/gemm.cpp) with the same MFMA builtins, the same
// operand layout and the same accumulation order: per mfma_m x mfma_m output block,
// acc = mfma(A_ks, B_ks, acc) over the K tiles in ascending order and, inside a tile, the MFMA
// k-steps in ascending order; acc starts at +0. Epilogue: v = acc; v = alpha * v (alpha != 1);
// v = fmaf(beta, C, v) (beta != 0, C read in the output type); v = v + bias[n] (GM_BIAS); v = act(v)
// (GM_ACT: 1 relu, 2 silu, 3 gelu_tanh, the sequence of gemm_config.hpp with its fp32 constants
// GM_ACT_S_BITS (silu's scale) / GM_ACT_A_BITS, GM_ACT_B_BITS (gelu_tanh)); then bf16 or f16 RNE,
// or fp32. FP contraction is off, so each operation rounds as the JIT kernel's does.
// Written plainly (one LDS stage, element-wise C++ loads with explicit range checks), so clang
// chooses its own schedule and registers.
//
// A: M x K (GM_TA = 0) or K x M (GM_TA = 1) row-major; B: K x N (GM_NN = 1) or N x K (GM_NN = 0)
// row-major; both bf16 (GM_FP8 = 0, GM_F16 = 0), f16 (GM_F16 = 1)
// or the arch's 8-bit float (GM_FP8 = 1: E4M3, 2: E5M2; FNUZ on gfx942, OCP on gfx950). C: M x N,
// fp32 (GM_OUTF32), f16 (GM_OUTF16) or bf16.
// Flags (gemm_hip_flags): GM_M GM_N GM_K GM_TA GM_NN GM_TM GM_TN GM_TK GM_WM GM_WN GM_MB (16 | 32)
// GM_ARCH950 GM_OUTF32 GM_OUTF16 GM_FP8 GM_F16 GM_BIAS GM_ACT GM_ACT_*_BITS GM_ALPHA_BITS GM_BETA_BITS (fp32 bit patterns)
// GM_SPLIT GM_SKG GM_SKPER.
//
// Split-K (GM_SPLIT = S > 1, codegen/gemm_split_k.hpp): gemm_ref's block z multiplies K columns
// [z * K/S, (z+1) * K/S) and stores its raw fp32 accumulators to slice z of the workspace (its
// third argument, S x M x N fp32); gemm_ref_reduce then sums the slices per element in slice order
// (v = ws[0]; v = v + ws[1]; ...) and applies the same epilogue (alpha, beta, bias, activation,
// rounding). With GM_BIAS the bias is the last argument of gemm_ref_reduce, gemm_ref_sk and
// gemm_ref_sk_fixup, and gemm_ref of a split plan has none.
//
// Stream-K (GM_SKG = G > 0 workgroups, GM_SKPER = P MAC iterations each, codegen/gemm_split_k.hpp):
// iteration i is K tile i % KT of output tile i / KT (tiles M fastest); gemm_ref_sk's block w walks
// iterations [w * P, min((w + 1) * P, tiles * KT)) in segments of one tile each. A segment covering
// a whole tile stores it through the epilogue; any other stores its raw accumulators (tile-local
// row-major) to workspace slot 2w (the block's first segment) or 2w + 1 (its last).
// gemm_ref_sk_fixup (one block per tile) sums a split tile's segments in K order, then the epilogue.
#include "codegen_hip_prelude.h"

namespace {
constexpr unsigned M = GM_M, N = GM_N, K = GM_K;
constexpr int TM = GM_TM, TN = GM_TN, TK = GM_TK, WM = GM_WM, WN = GM_WN, MB = GM_MB;
constexpr int THREADS = 64 * WM * WN;
constexpr int NREG = MB * MB / 64;
constexpr int BM = TM / WM / MB, BN = TN / WN / MB;
typedef float acc_t __attribute__((ext_vector_type(NREG)));
#if GM_FP8
typedef unsigned char elem_t;
constexpr int ES = 1;
#if GM_ARCH950
constexpr int MK = MB == 16 ? 128 : 64;
typedef int frag_t __attribute__((ext_vector_type(8)));
#else
constexpr int MK = MB == 16 ? 32 : 16;
typedef long frag_t;
#endif
#else
typedef unsigned short elem_t;
constexpr int ES = 2;
#if GM_ARCH950
constexpr int MK = MB == 16 ? 32 : 16;
#if GM_F16
typedef _Float16 frag_t __attribute__((ext_vector_type(8)));
#else
typedef __bf16 frag_t __attribute__((ext_vector_type(8)));
#endif
#else
constexpr int MK = MB == 16 ? 16 : 8;
#if GM_F16
typedef _Float16 frag_t __attribute__((ext_vector_type(4)));
#else
typedef short frag_t __attribute__((ext_vector_type(4)));
#endif
#endif
#endif
constexpr int FB = MK * ES / (64 / MB);  // fragment bytes per lane
static_assert(sizeof(frag_t) == FB, "fragment size");
constexpr float ALPHA = __builtin_bit_cast(float, unsigned(GM_ALPHA_BITS));
constexpr float BETA = __builtin_bit_cast(float, unsigned(GM_BETA_BITS));
constexpr unsigned SPLIT = GM_SPLIT, KSLICE = K / SPLIT;

__device__ inline float act(float x) {
#pragma clang fp contract(off)
#if GM_ACT == 1
  return __builtin_fmaxf(x, 0.0f);
#elif GM_ACT == 2 || GM_ACT == 3
#if GM_ACT == 2
  const float z = x * __builtin_bit_cast(float, unsigned(GM_ACT_S_BITS));
#else
  const float s = __builtin_fmaf(x * x, __builtin_bit_cast(float, unsigned(GM_ACT_B_BITS)),
                                 __builtin_bit_cast(float, unsigned(GM_ACT_A_BITS)));
  const float z = x * s;
#endif
  return x * __builtin_amdgcn_rcpf(1.0f + __builtin_amdgcn_exp2f(z));
#else
  return x;
#endif
}

// C[e] (column n) = act(alpha * v (+ beta * C[e]) (+ bias[n])) in the output type.
__device__ inline void store_output(void* c, const float* bias, unsigned long e, unsigned n, float v) {
#pragma clang fp contract(off)
  if (ALPHA != 1.0f) v = ALPHA * v;
#if GM_OUTF32
  if (BETA != 0.0f) v = __builtin_fmaf(BETA, ((const float*)c)[e], v);
#elif GM_OUTF16
  if (BETA != 0.0f) v = __builtin_fmaf(BETA, (float)__builtin_bit_cast(_Float16, ((const unsigned short*)c)[e]), v);
#else
  if (BETA != 0.0f) v = __builtin_fmaf(BETA, __builtin_bit_cast(float, unsigned(((const unsigned short*)c)[e]) << 16), v);
#endif
#if GM_BIAS
  v = v + bias[n];
#endif
  v = act(v);
#if GM_OUTF32
  ((float*)c)[e] = v;
#elif GM_OUTF16
  // opaque: v is rounded to fp32 first, as in the JIT kernel; without it clang folds the last
  // multiply into the conversion (v_fma_mixlo_f16, one rounding straight to f16)
  ((unsigned short*)c)[e] = __builtin_bit_cast(unsigned short, (_Float16)opaque(v));
#else
  ((unsigned short*)c)[e] = to_bf16_bits(v);
#endif
}

__device__ inline acc_t mfma(frag_t a, frag_t b, acc_t c) {
#if GM_FP8 && GM_ARCH950
  // cbsz = blgp = format of both operands (0 E4M3, 1 E5M2); scales 0 select the unscaled instruction.
  constexpr int F = GM_FP8 - 1;
#if GM_MB == 16
  return __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, F, F, 0, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a, b, c, F, F, 0, 0, 0, 0);
#endif
#elif GM_FP8 == 1
#if GM_MB == 16
  return __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, c, 0, 0, 0);
#endif
#elif GM_FP8 == 2
#if GM_MB == 16
  return __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(a, b, c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(a, b, c, 0, 0, 0);
#endif
#elif GM_F16 && GM_ARCH950
#if GM_MB == 16
  return __builtin_amdgcn_mfma_f32_16x16x32_f16(a, b, c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_32x32x16_f16(a, b, c, 0, 0, 0);
#endif
#elif GM_F16
#if GM_MB == 16
  return __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, 0, 0, 0);
#endif
#elif GM_ARCH950
#if GM_MB == 16
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_32x32x16_bf16(a, b, c, 0, 0, 0);
#endif
#else
#if GM_MB == 16
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, 0, 0, 0);
#endif
#endif
}
// One K tile (elements k0 .. k0 + TK - 1) of the output tile at (m0, n0): A and B into LDS, then the
// MFMA k-steps in ascending order.
__device__ inline void mac_k_tile(const elem_t* __restrict__ a, const elem_t* __restrict__ b, elem_t* lds, int tid,
                                  int wm, int wn, int lane, unsigned m0, unsigned n0, unsigned k0, acc_t (&acc)[BM][BN]) {
  for (int id = tid; id < TM * TK; id += THREADS) {
    unsigned row = id / TK, kk = id % TK, m = m0 + row;
#if GM_TA
    lds[row * TK + kk] = m < M ? a[(unsigned long)(k0 + kk) * M + m] : 0;
#else
    lds[row * TK + kk] = m < M ? a[(unsigned long)(m) * K + k0 + kk] : 0;
#endif
  }
  for (int id = tid; id < TN * TK; id += THREADS) {
    unsigned row = id / TK, kk = id % TK, n = n0 + row;
#if GM_NN
    lds[(TM + row) * TK + kk] = n < N ? b[(unsigned long)(k0 + kk) * N + n] : 0;
#else
    lds[(TM + row) * TK + kk] = n < N ? b[(unsigned long)(n) * K + k0 + kk] : 0;
#endif
  }
  __syncthreads();
  const unsigned char* lb = (const unsigned char*)lds;
  for (int ks = 0; ks < TK / MK; ++ks) {
    frag_t fa[BM], fb[BN];
    for (int i = 0; i < BM; ++i)
      fa[i] = *(const frag_t*)(lb + (wm * (TM / WM) + i * MB + lane % MB) * TK * ES + ks * MK * ES + lane / MB * FB);
    for (int j = 0; j < BN; ++j)
      fb[j] = *(const frag_t*)(lb + (TM + wn * (TN / WN) + j * MB + lane % MB) * TK * ES + ks * MK * ES +
                               lane / MB * FB);
    for (int i = 0; i < BM; ++i)
      for (int j = 0; j < BN; ++j) acc[i][j] = mfma(fa[i], fb[j], acc[i][j]);
  }
  __syncthreads();
}
}  // namespace

extern "C" __global__ __launch_bounds__(THREADS) void gemm_ref(const elem_t* __restrict__ a,
                                                              const elem_t* __restrict__ b,
                                                              void* __restrict__ c
#if GM_BIAS && GM_SPLIT == 1
                                                              , const float* __restrict__ bias
#endif
) {
#pragma clang fp contract(off)
#if !GM_BIAS || GM_SPLIT > 1
  const float* bias = nullptr;  // split-K: gemm_ref_reduce adds the bias
#endif
  // LDS: A rows (m) then B rows (n), each TK elements, K-contiguous (no padding: clang's layout).
  __shared__ elem_t lds[(TM + TN) * TK];
  const int tid = opaque(int(threadIdx.x));
  const int wave = __builtin_amdgcn_readfirstlane(tid >> 6), lane = tid & 63;
  const int wm = wave % WM, wn = wave / WM;
  const unsigned m0 = blockIdx.x * TM, n0 = blockIdx.y * TN;
  acc_t acc[BM][BN];
  for (int i = 0; i < BM; ++i)
    for (int j = 0; j < BN; ++j) acc[i][j] = acc_t{};

  for (unsigned k0 = blockIdx.z * KSLICE; k0 < (blockIdx.z + 1) * KSLICE; k0 += TK)
    mac_k_tile(a, b, lds, tid, wm, wn, lane, m0, n0, k0, acc);

  for (int i = 0; i < BM; ++i)
    for (int j = 0; j < BN; ++j)
      for (int r = 0; r < NREG; ++r) {
        unsigned m = m0 + wm * (TM / WM) + i * MB + r / 4 * 8 + lane / MB * 4 + r % 4;
        unsigned n = n0 + wn * (TN / WN) + j * MB + lane % MB;
        if (m >= M || n >= N) continue;
        unsigned long e = (unsigned long)(m) * N + n;
        if (SPLIT > 1) ((float*)c)[(unsigned long)(blockIdx.z) * M * N + e] = acc[i][j][r];
        else store_output(c, bias, e, n, acc[i][j][r]);
      }
}

// Split-K: the slices' sum in slice order, then the epilogue; one element per thread.
#if GM_BIAS
#define GM_BIAS_PARAM , const float* __restrict__ bias
#else
#define GM_BIAS_PARAM
#endif
extern "C" __global__ __launch_bounds__(256) void gemm_ref_reduce(const float* __restrict__ ws,
                                                                  void* __restrict__ c GM_BIAS_PARAM) {
#pragma clang fp contract(off)
#if !GM_BIAS
  const float* bias = nullptr;
#endif
  const unsigned long e = (unsigned long)(blockIdx.x) * 256 + threadIdx.x;
  if (e >= (unsigned long)(M) * N) return;
  float v = ws[e];
  for (unsigned z = 1; z < SPLIT; ++z) v = v + ws[(unsigned long)(z) * M * N + e];
  store_output(c, bias, e, unsigned(e % N), v);
}

#if GM_SKG
namespace {
constexpr unsigned TILES_M = (M + TM - 1) / TM, TILES_N = (N + TN - 1) / TN, KT = K / TK;
constexpr unsigned ITERS = TILES_M * TILES_N * KT, SKPER = GM_SKPER;
}  // namespace

extern "C" __global__ __launch_bounds__(THREADS) void gemm_ref_sk(const elem_t* __restrict__ a,
                                                                 const elem_t* __restrict__ b, void* __restrict__ c,
                                                                 float* __restrict__ ws GM_BIAS_PARAM) {
#pragma clang fp contract(off)
#if !GM_BIAS
  const float* bias = nullptr;
#endif
  __shared__ elem_t lds[(TM + TN) * TK];
  const int tid = opaque(int(threadIdx.x));
  const int wave = __builtin_amdgcn_readfirstlane(tid >> 6), lane = tid & 63;
  const int wm = wave % WM, wn = wave / WM;
  const unsigned begin = blockIdx.x * SKPER, end = begin + SKPER < ITERS ? begin + SKPER : ITERS;
  for (unsigned it = begin; it < end;) {
    const unsigned t = it / KT, kb = it % KT, cnt = KT - kb < end - it ? KT - kb : end - it;
    const unsigned m0 = t % TILES_M * TM, n0 = t / TILES_M * TN;
    acc_t acc[BM][BN];
    for (int i = 0; i < BM; ++i)
      for (int j = 0; j < BN; ++j) acc[i][j] = acc_t{};
    for (unsigned kt = kb; kt < kb + cnt; ++kt) mac_k_tile(a, b, lds, tid, wm, wn, lane, m0, n0, kt * TK, acc);
    float* slot = ws + (unsigned long)(2 * blockIdx.x + (it == begin ? 0 : 1)) * TM * TN;
    for (int i = 0; i < BM; ++i)
      for (int j = 0; j < BN; ++j)
        for (int r = 0; r < NREG; ++r) {
          unsigned row = wm * (TM / WM) + i * MB + r / 4 * 8 + lane / MB * 4 + r % 4;
          unsigned col = wn * (TN / WN) + j * MB + lane % MB;
          if (cnt == KT) {
            if (m0 + row < M && n0 + col < N) store_output(c, bias, (unsigned long)(m0 + row) * N + n0 + col, n0 + col, acc[i][j][r]);
          } else {
            slot[row * TN + col] = acc[i][j][r];
          }
        }
    it += cnt;
  }
}

extern "C" __global__ __launch_bounds__(256) void gemm_ref_sk_fixup(const float* __restrict__ ws,
                                                                    void* __restrict__ c GM_BIAS_PARAM) {
#pragma clang fp contract(off)
#if !GM_BIAS
  const float* bias = nullptr;
#endif
  const unsigned t = blockIdx.x, first = t * KT, wlo = first / SKPER, whi = (first + KT - 1) / SKPER;
  if (wlo == whi) return;  // one block computed the whole tile
  const unsigned m0 = t % TILES_M * TM, n0 = t / TILES_M * TN;
  const unsigned lo_slot = wlo * SKPER >= first ? 2 * wlo : 2 * wlo + 1;
  for (unsigned e = threadIdx.x; e < TM * TN; e += 256) {
    const unsigned m = m0 + e / TN, n = n0 + e % TN;
    if (m >= M || n >= N) continue;
    float v = ws[(unsigned long)(lo_slot) * TM * TN + e];
    for (unsigned w = wlo + 1; w <= whi; ++w) v = v + ws[(unsigned long)(2 * w) * TM * TN + e];
    store_output(c, bias, (unsigned long)(m) * N + n, n, v);
  }
}
#endif
