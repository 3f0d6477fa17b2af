// Plain HIP C++ reference of grouped conv backward-weight, for accuracy only: one thread
// per dW element, fp32 multiply-adds over (n, do, ho, wo) in ascending order, no MFMA, so
// its bits differ from the MFMA kernels' (compared against fp64 with a tolerance).
// Layouts and -D flags as conv_bwd_weight_mfma.hip (BW_KSTEPS, BW_MFMA, BW_F16=0 only,
// BW_OUTF32 unused: dw is always fp32 here). Inputs are bf16 bits (BW_F16 0) or f16 (1).
#include "codegen_hip_prelude.h"

namespace {
constexpr int N = BW_N, G = BW_G, C = BW_C, K = BW_K, HI = BW_HI, WI = BW_WI, Y = BW_Y, X = BW_X;
constexpr int SH = BW_SH, SW = BW_SW, PH = BW_PH, PW = BW_PW, DH = BW_DH, DW = BW_DW;
constexpr int DI = BW_DI, Z = BW_Z, SD = BW_SD, PD = BW_PD, DD = BW_DD;
constexpr int DO = (DI + 2 * PD - DD * (Z - 1) - 1) / SD + 1;
constexpr int HO = (HI + 2 * PH - DH * (Y - 1) - 1) / SH + 1;
constexpr int WO = (WI + 2 * PW - DW * (X - 1) - 1) / SW + 1;
constexpr unsigned ZYXC = unsigned(Z) * Y * X * C;

__device__ inline float widen(unsigned short b) {
#if BW_F16
  return float(__builtin_bit_cast(_Float16, b));
#else
  return __builtin_bit_cast(float, unsigned(b) << 16);
#endif
}
}  // namespace

extern "C" __global__ __launch_bounds__(256) void conv_bwd_weight_plain(const unsigned short* __restrict__ x,
                                                                       const unsigned short* __restrict__ dy,
                                                                       float* __restrict__ dw) {
  const unsigned e = blockIdx.x * 256 + opaque(unsigned(threadIdx.x));
  if (e >= unsigned(G) * K * ZYXC) return;
  const unsigned g = e / (K * ZYXC), k = e / ZYXC % K, r = e % ZYXC;
  const int z = int(r / (Y * X * C)), y = int(r / (X * C) % Y), xx = int(r / C % X), c = int(r % C);
  float sum = 0.0f;
  for (int n = 0; n < N; ++n)
    for (int od = 0; od < DO; ++od) {
      int di = od * SD - PD + z * DD;
      if (unsigned(di) >= unsigned(DI)) continue;
      for (int ho = 0; ho < HO; ++ho) {
        int hi = ho * SH - PH + y * DH;
        if (unsigned(hi) >= unsigned(HI)) continue;
        for (int wo = 0; wo < WO; ++wo) {
          int wi = wo * SW - PW + xx * DW;
          if (unsigned(wi) >= unsigned(WI)) continue;
          unsigned long op = ((unsigned long)(n * DO + od) * HO + ho) * WO + wo;
          unsigned long ip = ((unsigned long)(n * DI + di) * HI + hi) * WI + wi;
          sum = __builtin_fmaf(widen(dy[(op * G + g) * K + k]), widen(x[(ip * G + g) * C + c]), sum);
        }
      }
    }
  dw[e] = sum;
}
