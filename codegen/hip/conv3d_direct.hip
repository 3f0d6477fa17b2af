// Plain direct conv3d in HIP C++ (accuracy reference, not a bit-for-bit target): one
// thread per output element of y[N][K][DO][HO][WO], reading the bf16 NCDHW input and the
// bf16 [K][C][T][R][S] weight straight from global memory, fp32 fmaf accumulation over
// (c, t, r, s) ascending, + bias[k], output bf16 (RNE) or fp32.
// Shape from the same -D flags as conv3d_igemm_mfma.hip (CV_*).
#include "codegen_hip_prelude.h"

namespace {
constexpr int N = CV_N, C = CV_C, D = CV_D, H = CV_H, W = CV_W, K = CV_K, T = CV_T, R = CV_R, S = CV_S;
constexpr int SD = CV_SD, SH = CV_SH, SW = CV_SW, PD = CV_PD, PH = CV_PH, PW = CV_PW, DD = CV_DD, DH = CV_DH,
              DW = CV_DW;
constexpr int DO = (D + 2 * PD - DD * (T - 1) - 1) / SD + 1;
constexpr int HO = (H + 2 * PH - DH * (R - 1) - 1) / SH + 1;
constexpr int WO = (W + 2 * PW - DW * (S - 1) - 1) / SW + 1;
}  // namespace

extern "C" __global__ __launch_bounds__(256) void conv3d_direct(const unsigned short* __restrict__ x,
                                                               const unsigned short* __restrict__ w,
                                                               const float* __restrict__ bias, void* __restrict__ y) {
  unsigned e = blockIdx.x * 256 + opaque(unsigned(threadIdx.x));
  if (e >= unsigned(N) * K * DO * HO * WO) return;
  unsigned ow = e % WO, oh = e / WO % HO, od = e / (WO * HO) % DO, k = e / (WO * HO * DO) % K,
           n = e / (WO * HO * DO * K);
  float acc = 0.0f;
  for (int c = 0; c < C; ++c)
    for (int t = 0; t < T; ++t) {
      int di = int(od) * SD - PD + t * DD;
      if (unsigned(di) >= unsigned(D)) continue;
      for (int r = 0; r < R; ++r) {
        int hi = int(oh) * SH - PH + r * DH;
        if (unsigned(hi) >= unsigned(H)) continue;
        for (int s = 0; s < S; ++s) {
          int wi = int(ow) * SW - PW + s * DW;
          if (unsigned(wi) >= unsigned(W)) continue;
          float xv = cdna_bf16_bits_to_float(x[(((unsigned long)(n) * C + c) * D + di) * H * W + (unsigned long)(hi) * W + wi]);
          float wv = cdna_bf16_bits_to_float(w[((((unsigned long)(k) * C + c) * T + t) * R + r) * S + s]);
          acc = fmaf(xv, wv, acc);
        }
      }
    }
#if CV_BIAS
  acc = acc + bias[k];
#endif
#if CV_OUTF32
  ((float*)y)[e] = acc;
#else
  ((unsigned short*)y)[e] = to_bf16_bits(acc);
#endif
}
