// HIP C++ reference of the V97 depthwise conv3d design (bf16 NCDHW, groups = C,
// stride 1) with exactly the arithmetic of the JIT `lds_fmac` kernel:
//   * one workgroup of 256 threads per (n, c, d_out), grid = N*C*D_out;
//   * a zero-padded LDS tile [KD][H+2*padH][even(W+2*padW)] of bf16, input rows
//     moved in by global_load_lds_dword like the seed's V97 (element copies when a
//     row is not whole dwords at a dword-aligned column);
//   * the KD*KH*KW weights converted to fp32 registers;
//   * KW_PACK = 2: each thread computes outputs (h, w) and (h, w+1), w even,
//     from (KW+1)/2 dword reads (bf16 pairs) per filter row, all reads first;
//   * per output: acc = +0, then acc = fma(w, x, acc) over kd, kh, kw ascending;
//   * output = bf16(acc), round to nearest even.
// Shape comes from -D flags: DW_N DW_C DW_D DW_H DW_W DW_KD DW_KH DW_KW DW_PD DW_PH DW_PW.
// Arguments: (const bf16* input, const bf16* weight, bf16* output), bf16 as unsigned short.
#include "codegen_hip_prelude.h"
#include "dwconv3d_v97_common.h"

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(256, 256))) void dwconv3d_v97(
    const unsigned short* __restrict__ input, const unsigned short* __restrict__ weight,
    unsigned short* __restrict__ output) {
  __shared__ unsigned tile[TILE_DWORDS];
  const int t = opaque(int(threadIdx.x));
  const int b = blockIdx.x;
  const int d = b % DO, nc = b / DO, c = nc % C;
  float wr[KD][KH][KW];
  v97_setup(tile, wr, input, weight, nc, d, c, t);
  __syncthreads();

  unsigned short* out = output + unsigned(nc * DO + d) * HO * WO;
#pragma unroll 1
  for (int item = t; item < ITEMS; item += 256) {
    const int h = item / PAIRS, w = 2 * (item % PAIRS);
    unsigned a[KD][KH][R];
#pragma unroll
    for (int kd = 0; kd < KD; ++kd)
#pragma unroll
      for (int kh = 0; kh < KH; ++kh)
#pragma unroll
        for (int j = 0; j < R; ++j) a[kd][kh][j] = tile[((kd * TH + h + kh) * TW + w) / 2 + j];
    float acc0 = 0.0f, acc1 = 0.0f;
#pragma unroll
    for (int kd = 0; kd < KD; ++kd)
#pragma unroll
      for (int kh = 0; kh < KH; ++kh) {
        const unsigned* row = a[kd][kh];
        // Taps left to right; output 0 reads columns w+kw, output 1 columns w+1+kw.
#pragma unroll
        for (int kw = 0; kw < KW; ++kw) {
          acc0 = __builtin_fmaf(wr[kd][kh][kw], col(row, kw), acc0);
          acc1 = __builtin_fmaf(wr[kd][kh][kw], col(row, kw + 1), acc1);
        }
      }
    out[h * WO + w] = to_bf16_bits(acc0);
    if (WO % 2 == 0 || w + 1 < WO) out[h * WO + w + 1] = to_bf16_bits(acc1);
  }
}
