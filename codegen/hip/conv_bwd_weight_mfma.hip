// HIP C++ reference of the grouped conv backward-weight kernels (codegen/conv_bwd_weight.cpp)
// with the same MFMA builtin, the same fragment layout and the same accumulation order:
// per 16x16 block of (k, yxc), acc starts at +0 and takes the MFMA k-steps over gemm-K
// (pixels n, ho, wo) in ascending order, over BW_KSTEPS steps (whole 32-column K tiles,
// zeros past the end). Fragments are read straight from global memory (one wave per
// block, no LDS), so clang chooses its own schedule and registers; only the arithmetic
// order is shared with the JIT kernels.
//
// Layouts: x [N][Hi][Wi][G][C] bf16, dy [N][Ho][Wo][G][K] bf16, dw [G][K][Y][X][C] fp32.
// Shape from -D flags (bwd_weight_hip_flags): BW_N BW_G BW_C BW_K BW_HI BW_WI BW_Y BW_X
// BW_SH BW_SW BW_PH BW_PW BW_DH BW_DW BW_KSTEPS BW_MFMA (0: gfx942 16x16x16, 1: gfx950 16x16x32)
// BW_F16 (inputs f16 instead of bf16) BW_OUTF32 (dw fp32, else the input type, RNE);
// BW_SPLITS: split-K like the JIT kernel: split s runs its own chain from +0 over k-steps
// [s*KSTEPS, (s+1)*KSTEPS) (KSTEPS per split), and dw = ((0 + chain_0) + chain_1) + ...
// as the JIT kernel's fp32 atomics add them (the same bits for 1 or 2 splits);
// 3D: BW_DI BW_Z BW_SD BW_PD BW_DD (x [N][Di][Hi][Wi][G][C], dy [N][Do][Ho][Wo][G][K], dw [G][K][Z][Y][X][C]).
#include "codegen_hip_prelude.h"

namespace {
constexpr int N = BW_N, G = BW_G, C = BW_C, K = BW_K, HI = BW_HI, WI = BW_WI, Y = BW_Y, X = BW_X;
constexpr int SH = BW_SH, SW = BW_SW, PH = BW_PH, PW = BW_PW, DH = BW_DH, DW = BW_DW;
constexpr int DI = BW_DI, Z = BW_Z, SD = BW_SD, PD = BW_PD, DD = BW_DD;
constexpr int DO = (DI + 2 * PD - DD * (Z - 1) - 1) / SD + 1;
constexpr int HO = (HI + 2 * PH - DH * (Y - 1) - 1) / SH + 1;
constexpr int WO = (WI + 2 * PW - DW * (X - 1) - 1) / SW + 1;
constexpr unsigned GK = unsigned(N) * DO * HO * WO;
constexpr unsigned YXC = unsigned(Z) * Y * X * C;
constexpr int KPL = BW_MFMA == 0 ? 4 : 8;  // elements per lane and fragment
#if BW_F16
typedef _Float16 frag_t __attribute__((ext_vector_type(KPL)));
#elif BW_MFMA == 0
typedef short frag_t __attribute__((ext_vector_type(4)));
#else
typedef __bf16 frag_t __attribute__((ext_vector_type(8)));
#endif

__device__ inline float4 mfma(frag_t a, frag_t b, float4 c) {
#if BW_F16 && BW_MFMA == 0
  return __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0);
#elif BW_F16
  return __builtin_amdgcn_mfma_f32_16x16x32_f16(a, b, c, 0, 0, 0);
#elif BW_MFMA == 0
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0);
#else
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, 0, 0, 0);
#endif
}

#if BW_OUTF32
typedef float out_t;
__device__ inline out_t convert(float v) { return v; }
#elif BW_F16
typedef unsigned short out_t;
__device__ inline out_t convert(float v) { return __builtin_bit_cast(unsigned short, (_Float16)v); }
#else
typedef unsigned short out_t;
__device__ inline out_t convert(float v) { return to_bf16_bits(v); }
#endif
}  // namespace

extern "C" __global__ __launch_bounds__(64) void conv_bwd_weight_ref(const unsigned short* __restrict__ x,
                                                                    const unsigned short* __restrict__ dy,
                                                                    out_t* __restrict__ dw) {
  const int lane = opaque(int(threadIdx.x));
  const unsigned g = blockIdx.z;
  const unsigned m = blockIdx.y * 16 + lane % 16;  // A row: output channel k
  const unsigned n = blockIdx.x * 16 + lane % 16;  // B row: (y, x, c)
  const unsigned zz = n / (Y * X * C), yy = n % (Y * X * C) / (X * C), xx = n % (X * C) / C, c = n % C;
  float4 total = float4{0, 0, 0, 0};
  for (int split = 0; split < BW_SPLITS; ++split) {
  float4 acc = float4{0, 0, 0, 0};
  for (int step = split * BW_KSTEPS; step < (split + 1) * BW_KSTEPS; ++step) {
    unsigned short a[KPL], b[KPL];
    for (int e = 0; e < KPL; ++e) {
      unsigned gk = unsigned(step) * (KPL * 4) + unsigned(lane / 16) * KPL + e;
      a[e] = 0;
      b[e] = 0;
      if (gk < GK && m < unsigned(K)) a[e] = dy[((unsigned long)gk * G + g) * K + m];
      if (gk < GK && n < YXC) {
        unsigned nb = gk / (DO * HO * WO), od = gk % (DO * HO * WO) / (HO * WO), ho = gk % (HO * WO) / WO,
                 wo = gk % WO;
        int di = int(od * SD) - PD + int(zz) * DD;
        int hi = int(ho * SH) - PH + int(yy) * DH, wi = int(wo * SW) - PW + int(xx) * DW;
        if (unsigned(di) < unsigned(DI) && unsigned(hi) < unsigned(HI) && unsigned(wi) < unsigned(WI))
          b[e] = x[(((((unsigned long)nb * DI + di) * HI + hi) * WI + wi) * G + g) * C + c];
      }
    }
    frag_t fa, fb;
    __builtin_memcpy(&fa, a, sizeof fa);
    __builtin_memcpy(&fb, b, sizeof fb);
    acc = mfma(fa, fb, acc);
  }
  total = BW_SPLITS == 1 ? acc : total + acc;
  }
  for (int r = 0; r < 4; ++r) {
    unsigned mo = blockIdx.y * 16 + lane / 16 * 4 + r, no = blockIdx.x * 16 + lane % 16;
    if (mo < unsigned(K) && no < YXC) dw[((unsigned long)g * K + mo) * YXC + no] = convert(total[r]);
  }
}
