// Plain HIP C++ depthwise conv3d: one thread per output, inputs and weights
// straight from global memory. Same per-output arithmetic as the V97 reference
// (acc = +0, acc = fma(w, x, acc) over kd, kh, kw ascending, bf16 RNE), so its
// bits equal the fmac CPU model too.
// Shape from -D flags (see dwconv3d_v97.hip); grid = ceil(outputs / 256), 256 threads.
#include "codegen_hip_prelude.h"

namespace {
constexpr int N = DW_N, C = DW_C, D = DW_D, H = DW_H, W = DW_W;
constexpr int KD = DW_KD, KH = DW_KH, KW = DW_KW, PD = DW_PD, PH = DW_PH, PW = DW_PW;
constexpr int DO = D + 2 * PD - KD + 1, HO = H + 2 * PH - KH + 1, WO = W + 2 * PW - KW + 1;
constexpr long long OUTPUTS = (long long)N * C * DO * HO * WO;
}  // namespace

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(256, 256))) void dwconv3d_naive(
    const unsigned short* __restrict__ input, const unsigned short* __restrict__ weight,
    unsigned short* __restrict__ output) {
  // Tensors are below 4 GiB (the generator's limit too): 32-bit indices suffice.
  unsigned o = blockIdx.x * 256 + threadIdx.x;
  if (o >= OUTPUTS) return;
  unsigned w = opaque(o % WO), h = opaque(o / WO % HO), d = opaque(o / WO / HO % DO);
  unsigned nc = o / WO / HO / DO;
  unsigned c = nc % C;
  const unsigned short* wc = weight + c * KD * KH * KW;
  float acc = 0.0f;
  for (int kd = 0; kd < KD; ++kd)
    for (int kh = 0; kh < KH; ++kh)
      for (int kw = 0; kw < KW; ++kw) {
        int di = int(d) - PD + kd, hi = int(h) - PH + kh, wi = int(w) - PW + kw;
        unsigned short x = 0;
        if (di >= 0 && di < D && hi >= 0 && hi < H && wi >= 0 && wi < W)
          x = input[((nc * D + unsigned(di)) * H + unsigned(hi)) * W + unsigned(wi)];
        float wf = __builtin_bit_cast(float, unsigned(wc[(kd * KH + kh) * KW + kw]) << 16);
        acc = __builtin_fmaf(wf, __builtin_bit_cast(float, unsigned(x) << 16), acc);
      }
  output[o] = to_bf16_bits(acc);
}
