// HIP C++ reference of the banded-MFMA depthwise conv3d (codegen/dwconv_mfma.hpp) with the same
// MFMA builtin, the same operands element for element and the same accumulation order: per
// 16 x 16 output block (M = 16 output columns, N = 16 output rows), acc = +0, then one MFMA per
// step in the plan's order (four filter rows per MFMA while four are left, then the remaining
// rows column group by column group). The LDS tile has the JIT kernel's flat layout (tile_h x
// tile_w per depth slice, then zeroed slack), so the padding K groups, whose weights are +0,
// multiply the same input values. Written plainly: element-wise loads, the weight band computed
// per lane from global memory; clang chooses its own schedule and registers.
//
// Flags (dwconv_mfma_hip_flags): DW_C DW_D DW_H DW_W DW_KD DW_KH DW_KW DW_PD DW_PH DW_PW
// DM_TILE_H DM_TILE_W DM_SLACK (bf16 elements) DM_ARCH950.
#include "codegen_hip_prelude.h"

namespace {
constexpr int C = DW_C, D = DW_D, H = DW_H, W = DW_W, KD = DW_KD, KH = DW_KH, KW = DW_KW;
constexpr int PD = DW_PD, PH = DW_PH, PW = DW_PW;
constexpr int DO = D + 2 * PD - KD + 1, HO = H + 2 * PH - KH + 1, WO = W + 2 * PW - KW + 1;
constexpr int TH = DM_TILE_H, TW = DM_TILE_W, TILE = KD * TH * TW + DM_SLACK;
constexpr int STRIPS = (WO + 15) / 16, HBLOCKS = (HO + 15) / 16, BLOCKS = STRIPS * HBLOCKS;
typedef float acc_t __attribute__((ext_vector_type(4)));
#if DM_ARCH950
constexpr int G = 8;
typedef __bf16 frag_t __attribute__((ext_vector_type(8)));
#else
constexpr int G = 4;
typedef short frag_t __attribute__((ext_vector_type(4)));
#endif
constexpr int NCG = (15 + KW + G - 1) / G;  // column groups per filter row
constexpr int FULL_ROWS = KH / 4 * 4, CHUNKS = (NCG + 3) / 4;
constexpr int STEPS = KD * (FULL_ROWS / 4) * NCG + KD * (KH - FULL_ROWS) * CHUNKS;

// Step i of the plan: depth kd, filter row and column group of lane group g.
struct Step {
  int kd, row, cg;
};
__device__ inline Step step_of(int i, int g) {
  constexpr int rows_steps = KD * (FULL_ROWS / 4) * NCG;
  if (i < rows_steps) {
    int cg = i % NCG, kh4 = i / NCG % (FULL_ROWS / 4 > 0 ? FULL_ROWS / 4 : 1), kd = i / NCG / (FULL_ROWS / 4 > 0 ? FULL_ROWS / 4 : 1);
    return {kd, 4 * kh4 + g, cg};
  }
  i -= rows_steps;
  constexpr int left = KH - FULL_ROWS;
  int ch = i % CHUNKS, r = i / CHUNKS % (left > 0 ? left : 1), kd = i / CHUNKS / (left > 0 ? left : 1);
  return {kd, FULL_ROWS + r, 4 * ch + g};
}

__device__ inline acc_t mfma(frag_t a, frag_t b, acc_t c) {
#if DM_ARCH950
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0);
#endif
}
}  // namespace

extern "C" __global__ __launch_bounds__(256) void dwconv3d_mfma_band_ref(const unsigned short* __restrict__ input,
                                                                         const unsigned short* __restrict__ weight,
                                                                         unsigned short* __restrict__ output) {
  __shared__ __attribute__((aligned(16))) unsigned short tile[TILE];
  const int tid = opaque(int(threadIdx.x));
  const int wave = __builtin_amdgcn_readfirstlane(tid >> 6), lane = tid & 63;
  const int wg = blockIdx.x, d = wg % DO, nc = wg / DO, c = nc % C;
  for (int i = tid; i < TILE; i += 256) tile[i] = 0;
  __syncthreads();
  for (int i = tid; i < KD * H * W; i += 256) {
    int kd = i / (H * W), hi = i / W % H, wi = i % W, di = d - PD + kd;
    if (di >= 0 && di < D)
      tile[(kd * TH + hi + PH) * TW + wi + PW] = input[((long)nc * D + di) * H * W + hi * W + wi];
  }
  __syncthreads();

  const int n = lane % 16, g = lane / 16;
  const unsigned short* wc = weight + (long)c * KD * KH * KW;
  frag_t band[STEPS];
#pragma unroll
  for (int i = 0; i < STEPS; ++i) {
    Step s = step_of(i, g);
    unsigned short e16[G];
    for (int e = 0; e < G; ++e) {
      int tap = G * s.cg + e - n;  // output column n of the block, input column G*cg + e
      e16[e] = tap >= 0 && tap < KW ? wc[(s.kd * KH + s.row) * KW + tap] : 0;
    }
    __builtin_memcpy(&band[i], e16, sizeof(frag_t));
  }
  for (int t = wave; t < BLOCKS; t += 4) {
    const int h0 = t / STRIPS * 16, w0 = t % STRIPS * 16;
    acc_t acc = acc_t{};
#pragma unroll
    for (int i = 0; i < STEPS; ++i) {
      Step s = step_of(i, g);
      frag_t b = *(const frag_t*)&tile[(s.kd * TH + h0 + n + s.row) * TW + w0 + G * s.cg];
      acc = mfma(band[i], b, acc);
    }
    // D[m][n] in lane 16 (m / 4) + n, register m % 4: row h0 + n, column w0 + 4g + r.
    const int h = h0 + n;
    for (int r = 0; r < 4; ++r) {
      const int w = w0 + 4 * g + r;
      if (h < HO && w < WO) output[(long)wg * HO * WO + h * WO + w] = to_bf16_bits(acc[r]);
    }
  }
}
