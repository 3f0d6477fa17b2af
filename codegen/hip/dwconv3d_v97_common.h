// The part of the V97 design both HIP references share (dwconv3d_v97.hip and
// dwconv3d_v97_sgb.hip include it; hip_sources.cpp splices it in place of the
// #include): the shape constants, the bf16 pair helpers, and the tile and weight
// set-up, so the two references differ only in their compute loop.
// Shape comes from -D flags: DW_N DW_C DW_D DW_H DW_W DW_KD DW_KH DW_KW DW_PD DW_PH DW_PW.

namespace {
constexpr int N = DW_N, C = DW_C, D = DW_D, H = DW_H, W = DW_W;
constexpr int KD = DW_KD, KH = DW_KH, KW = DW_KW, PD = DW_PD, PH = DW_PH, PW = DW_PW;
constexpr int DO = D + 2 * PD - KD + 1, HO = H + 2 * PH - KH + 1, WO = W + 2 * PW - KW + 1;
constexpr int TH = H + 2 * PH;                 // tile rows per depth slice
constexpr int TW = (W + 2 * PW + 1) / 2 * 2;   // tile columns, even
constexpr int TILE_DWORDS = KD * TH * TW / 2;
constexpr int PAIRS = (WO + 1) / 2;            // work items per output row
constexpr int ITEMS = HO * PAIRS;
constexpr int R = (KW + 1) / 2;                // dword reads per filter row
// Input rows go to LDS by DMA (as the seed's V97 does) when a row is whole dwords at a
// dword-aligned tile column, by element copies otherwise (the JIT kernels decide the same way).
constexpr bool kRowDma = W % 2 == 0 && PW % 2 == 0;
static_assert(N >= 1 && KW % 2 == 1, "odd KW");

__device__ inline float lo_bf16(unsigned p) { return __builtin_bit_cast(float, p << 16); }
__device__ inline float hi_bf16(unsigned p) { return __builtin_bit_cast(float, p & 0xffff0000u); }
// Input column w + k of a row whose pairs start at column w (w even); k is a
// constant after unrolling, so this is one shift or one and.
__device__ inline float col(const unsigned* a, int k) { return (k & 1) ? hi_bf16(a[k >> 1]) : lo_bf16(a[k >> 1]); }

// Workgroup set-up for output depth d of (n, c) = nc, thread t (0..255): zeroes the LDS tile
// (the padding stays zero), copies the KD input depth slices in, reads channel c's filter into
// wr as fp32, and waits for the DMA writes. The caller's barrier then publishes the tile.
__device__ __attribute__((always_inline)) inline void v97_setup(unsigned* tile, float (&wr)[KD][KH][KW],
                                                                const unsigned short* input,
                                                                const unsigned short* weight, int nc, int d, int c,
                                                                int t) {
  for (int i = t; i < TILE_DWORDS; i += 256) tile[i] = 0;
  __syncthreads();
  // Input rows are spread over the 4 waves, a row's columns over the lanes.
  unsigned short* t16 = reinterpret_cast<unsigned short*>(tile);
  const int wave = __builtin_amdgcn_readfirstlane(t >> 6), lane = opaque(t & 63);
  // Depth slices outer, rows inner (as the seed's V97 and pyhip's contrib kernel): no division
  // per row, and the slice test is wave-uniform.
  for (int kd = 0; kd < KD; ++kd) {
    const int di = d - PD + kd;
    if (di < 0 || di >= D) continue;
    const unsigned short* slice = input + (unsigned(nc) * D + unsigned(di)) * H * W;
    for (int hi = wave; hi < H; hi += 4) {
      const unsigned short* src = slice + unsigned(hi) * W;
      if constexpr (kRowDma) {
        // The seed's global_load_lds_dword: lane l moves dword l of the row from global memory
        // straight into LDS at the wave-uniform row start + 4*l (no VGPR round trip).
        const unsigned* src32 = reinterpret_cast<const unsigned*>(src);
        unsigned* dst32 = tile + ((kd * TH + hi + PH) * TW + PW) / 2;
        for (int w0 = 0; w0 < W / 2; w0 += 64)
          if (lane < W / 2 - w0)
            __builtin_amdgcn_global_load_lds((__attribute__((address_space(1))) void*)(src32 + w0 + lane),
                                             (__attribute__((address_space(3))) void*)(dst32 + w0), 4, 0, 0);
      } else {
        unsigned short* dst = t16 + (kd * TH + hi + PH) * TW + PW;
        for (int wi = lane; wi < W; wi += 64) dst[wi] = src[wi];
      }
    }
  }
  // The DMA writes are counted by vmcnt: wait for them before the barrier publishes the tile.
  if constexpr (kRowDma) asm volatile("s_waitcnt vmcnt(0)" ::: "memory");
  const unsigned short* wc = weight + unsigned(c) * KD * KH * KW;
#pragma unroll
  for (int kd = 0; kd < KD; ++kd)
#pragma unroll
    for (int kh = 0; kh < KH; ++kh)
#pragma unroll
      for (int kw = 0; kw < KW; ++kw) wr[kd][kh][kw] = __builtin_bit_cast(float, unsigned(wc[(kd * KH + kh) * KW + kw]) << 16);
}
}  // namespace
