// Shape, tuning configuration and derived launch plan of the MFMA implicit-GEMM
// conv3d forward family (NCDHW in / out, any N, C, D, H, W, K, T x R x S kernel,
// stride, padding, dilation, optional bias).
//
// The GEMM view (per output pixel m and output channel k):
//   M = N * Do * Ho * Wo (output pixels), Ncols = K, Kdim = T * R * S * Cp
//   A[m][(t, r, s, c)] = x_ndhwc[n][do*sd - pd + t*dd][ho*sh - ph + r*dh][wo*sw - pw + s*dw][c]
//   B[(t, r, s, c)][k] = w_ktrsc[k][t][r][s][c]
// where Cp is C rounded up to a whole 16-byte chunk (8 bf16 / 16 fp8), the
// padding channels being zeros in both packed tensors, and the weight rows
// are further zero-padded to a whole number of K tiles.
//
// Everything here is plain arithmetic shared by the generator, the HIP
// references, the host driver and the tests.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit::codegen {

struct Conv3dShape {
  int N = 1, C = 1, D = 1, H = 1, W = 1;  // input [N, C, D, H, W]
  int K = 1, T = 1, R = 1, S = 1;         // weight [K, C, T, R, S]
  int stride[3] = {1, 1, 1};              // (d, h, w)
  int pad[3] = {0, 0, 0};
  int dil[3] = {1, 1, 1};
  bool bias = false;                      // bias [K] (fp32) added before the output conversion

  int Do() const { return (D + 2 * pad[0] - dil[0] * (T - 1) - 1) / stride[0] + 1; }
  int Ho() const { return (H + 2 * pad[1] - dil[1] * (R - 1) - 1) / stride[1] + 1; }
  int Wo() const { return (W + 2 * pad[2] - dil[2] * (S - 1) - 1) / stride[2] + 1; }
  int64_t out_pixels_per_image() const { return int64_t(Do()) * Ho() * Wo(); }
  int64_t gemm_m() const { return int64_t(N) * out_pixels_per_image(); }
  int taps() const { return T * R * S; }
  int64_t input_elems() const { return int64_t(N) * C * D * H * W; }
  int64_t weight_elems() const { return int64_t(K) * C * taps(); }
  int64_t output_elems() const { return gemm_m() * K; }
  double gflop() const { return 2.0 * double(output_elems()) * double(C) * taps() * 1e-9; }
  std::string str() const;  // "N1 C128 D6 H40 W40 K128 k3x3x3 s1,1,1 p1,1,1 d1,1,1 bias"
};

// The seed's shape: 3x3x3, stride 1, pad 1, C = K = 128, D = 6, N = 1, H = W = 40 (the
// larger seed rows use H = W = 56, 72, 104, 144, 168).
Conv3dShape conv3d_seed_shape(int hw = 40);

enum class Conv3dDType : uint8_t { bf16, fp8 };
std::string_view dtype_name(Conv3dDType t);
Conv3dDType parse_dtype(std::string_view name);  // "bf16" | "fp8"; Error otherwise

enum class Conv3dOutput : uint8_t { bf16, f32 };

// Workgroup order: which tile index varies fastest with the workgroup id.
enum class Conv3dMapping : uint8_t { m_fastest, n_fastest };

// The tunable parameters. Defaults are the seed's structure.
struct Conv3dConfig {
  int tile_m = 128, tile_n = 128;
  int tile_k = 0;              // elements; 0 = default (bf16 32, fp8 128 on gfx950 / 64 on gfx942)
  int waves_m = 2, waves_n = 4;
  int stages = 2;              // LDS stages: 1 = load, barrier, compute; 2 = prefetch + double buffer
  int split_k = 1;             // K-tile ranges summed with fp32 atomics into a workspace
  Conv3dMapping mapping = Conv3dMapping::m_fastest;
  // Global -> LDS directly (global_load_lds_dwordx4, gfx950 only) instead of through registers:
  // -1 = default (on for fp8 on gfx950, as the seed), 0 = off, 1 = on.
  int lds_dma = -1;
  // MFMA block: 16 (16x16xK forms, the seed's) or 32 (32x32xK forms: one instruction covers a
  // 32x32 block, twice the K per fragment byte read; each wave sub-tile side a multiple of 32).
  int mfma_m = 16;
  // K tiles whose global loads are in flight ahead of the tile being multiplied (register-staged
  // 2-stage pipeline): 1 = the next tile's (the seed's double buffer), 2 = the next two tiles' (two
  // staging register sets; hides a global latency longer than one tile's MFMAs), 0 = default
  // (2 on the register-staged 2-stage pipeline, else 1).
  int prefetch = 0;
  std::string str() const;     // "128x128x32 w2x4 st2 sk1 m [dma] [mfma32] [pf2]"
};

// MFMA used per arch and dtype.
struct MfmaShape {
  std::string_view mnemonic;   // as LLVM 22 spells it
  int k = 0;                   // K of one instruction
  int a_bytes = 0;             // bytes of A (and B) per lane
  int m = 16;                  // block side (M = N); lanes l % m are rows, l / m the K groups
  int acc_regs() const { return m * m / 64; }  // fp32 accumulators per lane (4 or 16)
};
// m = 16 or 32 (Conv3dConfig::mfma_m); Error for other values.
MfmaShape conv3d_mfma(Arch a, Conv3dDType t, int m = 16);

// Everything derived from (shape, dtype, output, config, arch), validated.
struct Conv3dPlan {
  Conv3dShape shape;
  Conv3dDType dtype = Conv3dDType::bf16;
  Conv3dOutput output = Conv3dOutput::bf16;
  Conv3dConfig cfg;
  Arch arch = Arch::gfx950;
  MfmaShape mfma;

  int esize = 2;               // bytes per element of A/B (2 bf16, 1 fp8)
  int chunk_elems = 8;         // elements per 16-byte global/LDS chunk
  int Cp = 0;                  // channels padded to chunk_elems
  int64_t kdim = 0;            // T*R*S*Cp
  int64_t kdim_padded = 0;     // kdim rounded up to tile_k (weight row length)
  int k_tiles = 0;             // kdim_padded / tile_k
  int tiles_per_split = 0;
  int splits = 1;              // effective split count (every split has >= 1 K tile)
  int tiles_m = 0, tiles_n = 0;
  int threads = 0;
  int wave_m = 0, wave_n = 0;  // wave sub-tile
  int blocks_m = 0, blocks_n = 0;  // mfma.m x mfma.m MFMA blocks per wave
  int mfma_per_tile = 0;       // MFMA k-steps per K tile
  int chunks_per_row = 0;      // 16-byte chunks per tile row (tile_k*esize/16)
  int a_chunks = 0, b_chunks = 0;  // chunks per thread per K tile
  int lds_row_bytes = 0;       // tile row + padding (bank-conflict-free reads)
  int lds_pad_bytes = 0;
  bool lds_dma = false;        // A/B chunks go global -> LDS by DMA; rows unpadded, chunks XOR-swizzled
  int swizzle_rows = 1;        // DMA: rows sharing one 128-byte line (128 / row bytes, at least 1)
  uint32_t lds_stage_bytes = 0, lds_bytes = 0;
  uint32_t grid[3] = {1, 1, 1};

  bool uses_workspace() const { return splits > 1; }
  // DMA only: 16 zero bytes must follow xt and wt in memory (out-of-range chunks read them,
  // as global loads have no range check); the host driver allocates them.
  static constexpr int kZeroTailBytes = 16;
  int64_t xt_bytes() const;    // packed NDHWC input
  int64_t wt_bytes() const;    // packed K x kdim_padded weight
  int out_esize() const { return output == Conv3dOutput::f32 ? 4 : 2; }
};

// The tiling checks every MFMA GEMM-shaped plan shares (conv3d, gemm): tile sides 16..256, at most
// 16 waves, each wave's sub-tile whole MFMA blocks; throws cdnajit::Error "<who>: ..." otherwise.
void check_mfma_tiling(std::string_view who, int tile_m, int tile_n, int waves_m, int waves_n, const MfmaShape& mfma);
// The wave geometry such a plan (Conv3dPlan, GemmPlan) derives from its checked tiling and K tile:
// threads, the wave sub-tile, MFMA blocks per wave, MFMA k-steps per K tile.
template <class Plan, class Config>
void derive_mfma_waves(Plan& p, const Config& c) {
  p.threads = 64 * c.waves_m * c.waves_n;
  p.wave_m = c.tile_m / c.waves_m;
  p.wave_n = c.tile_n / c.waves_n;
  p.blocks_m = p.wave_m / p.mfma.m;
  p.blocks_n = p.wave_n / p.mfma.m;
  p.mfma_per_tile = c.tile_k / p.mfma.k;
}

// Validates and derives; throws cdnajit::Error naming the field or limit (registers,
// LDS, alignment, 32-bit offsets) and what would be valid.
Conv3dPlan make_conv3d_plan(const Conv3dShape& s, Conv3dDType t, Arch a, const Conv3dConfig& cfg = {},
                            Conv3dOutput out = Conv3dOutput::bf16);

// Largest immediate LDS offset the GEMM kernel's ds_read/ds_write instructions use for the plan
// (fragment reads past their base register, the B tile after the A tile); it must fit the
// 16-bit DS offset field, which make_conv3d_plan checks.
int conv3d_max_ds_offset(const Conv3dPlan& p);

// Every valid configuration of a (small) search space for the tuner: tiles
// {64,128,256}^2, tile_k {1,2,4}x the 16x16 MFMA's K, waves {1,2,4}^2, stages {1,2}, split_k {1,2,4},
// both mappings, mfma_m {16,32}. Invalid combinations are skipped (make_conv3d_plan says why).
std::vector<Conv3dConfig> enumerate_conv3d_configs(const Conv3dShape& s, Conv3dDType t, Arch a);

}  // namespace cdnajit::codegen
