// Depthwise conv3d on the matrix cores: per channel, a banded (Toeplitz) GEMM.
//
// For one channel c and output depth d, every filter row (kd, kh) contributes
//   O[h][w] += sum_j X[d+kd][h+kh][j] * T_{kd,kh}[j][w],  T[j][w] = Wt[kd][kh][j-w] (0 <= j-w < KW)
// so a 16 x 16 block of outputs is one MFMA accumulator with
//   M = 16 output columns w0 .. w0+15 (A = the channel's weight band, built once per workgroup),
//   N = 16 output rows    h0 .. h0+15 (B = input rows read from the LDS tile),
//   K = (kd, kh, input column) groups of G columns (G = 8 on gfx950's v_mfma_f32_16x16x32_bf16,
//       4 on gfx942's v_mfma_f32_16x16x16_bf16): a filter row needs 16 + KW - 1 input columns,
//       ncg = ceil((16 + KW - 1) / G) groups.
// The four K groups of an MFMA (lanes 16g .. 16g+15) are laid out so that each lane's LDS
// address is a lane base plus an immediate (no address arithmetic per MFMA):
//   "rows" steps: lane group g takes filter row kh + g (four rows, one column group);
//   "cols" steps: lane group g takes column group cg + g of one filter row (the KH % 4 rows
//                 left over); groups past ncg are padding, whose weight band reads +0.
// Seed shape on gfx950: 9 rows + 3 cols steps = 12 MFMAs (K = 384, 75 useful taps of 16
// outputs' 16 x 24 = 384 products: 5.1x the direct convolution's multiply-adds, on a unit that
// does 512 bf16 multiply-adds per SIMD per cycle, 16x the packed dot2 VALU's 32).
//
// Workgroup = one (n, c, d_out) (the V97 grid, so the same launch and channel chunking); LDS =
// [zero-padded input tile KD x tile_h x tile_w][zero slack][weight band source: G shifted copies
// of the zero-padded filter rows, so every lane's 8 (4) band elements are one aligned
// ds_read_b128 (b64)]. A wave takes 16 x 16 output blocks t = wave, wave + 4, ...
//
// Accumulation order (the HIP reference codegen/hip/dwconv_mfma_band.hip repeats it): acc = +0,
// then the MFMA steps in plan order; inside an MFMA the matrix core's own order (K = 32 or 16
// products of which the band's zeros are exact +-0 products). Note: a band zero multiplies real
// input values, so an Inf or NaN input turns outputs up to 16 columns away into NaN, where the
// direct convolution only touches the outputs whose window holds it (inputs are assumed finite).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/dwconv3d_shape.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

// One MFMA of the K loop: lane group g (lanes 16g .. 16g+15) reads filter row
// (kd, kh + g) column group cg ("rows"), or filter row (kd, kh) column group cg + g ("cols").
struct DwMfmaStep {
  bool rows = true;
  int kd = 0, kh = 0, cg = 0;
  // Filter row and column group of lane group g.
  int row_of(int g) const { return rows ? kh + g : kh; }
  int group_of(int g) const { return rows ? cg : cg + g; }
};

struct DwMfmaPlan {
  DwConvShape s;
  Arch arch = Arch::gfx950;
  std::string_view mnemonic;  // v_mfma_f32_16x16x32_bf16 (gfx950) / v_mfma_f32_16x16x16_bf16 (gfx942)
  int G = 8;                  // bf16 per lane and K group (K = 4G)
  int ncg = 0;                // column groups per filter row: ceil((16 + KW - 1) / G)
  int strips = 0, hblocks = 0, blocks = 0;  // 16-column strips, 16-row blocks, blocks per workgroup
  int tile_h = 0, tile_w = 0;               // LDS tile rows (hblocks*16 + KH - 1) and columns (multiple of G)
  uint32_t tile_bytes = 0;    // KD * tile_h * tile_w * 2
  uint32_t slack_bytes = 0;   // zeroed bytes after the tile that padding groups may read
  int zlen = 0;               // bf16 per band-source row: 15 leading zeros, the KW taps, zeros
  uint32_t z_off = 0, z_row_bytes = 0, z_copy_bytes = 0;  // band source: G copies of KD*KH rows
  uint32_t lds_bytes = 0;     // whole allocation (multiple of 16)
  std::vector<DwMfmaStep> steps;
  int grid_x = 0;             // N * C * D_out workgroups
};

// Validates (throws cdnajit::Error naming the field and the valid range: W and padW even for
// the dword DMA, W_out a multiple of 4 for the 8-byte stores, the LDS limit) and plans.
DwMfmaPlan plan_dwconv_mfma(const DwConvShape& s, Arch a);

// Kernel "dwconv3d_mfma_band"; arguments as kArgOrder, grid plan.grid_x x 256 threads.
BuildResult build_dwconv_mfma(const DwConvShape& s, Arch a, const BuildOptions& opts = {});

// The HIP reference's source (codegen/hip/dwconv_mfma_band.hip, headers inlined), its kernel
// symbol, and its -D flags for this shape and arch. Same grid and arguments as the JIT kernel.
std::string dwconv_mfma_hip_source();
inline constexpr const char* kDwconvMfmaHipKernel = "dwconv3d_mfma_band_ref";
std::vector<std::string> dwconv_mfma_hip_flags(const DwConvShape& s, Arch a);

}  // namespace cdnajit::codegen
