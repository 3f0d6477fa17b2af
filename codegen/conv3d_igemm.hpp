// JIT generator of the MFMA implicit-GEMM conv3d forward kernels (bf16 and fp8).
//
// Three kernels per plan (codegen/conv3d_igemm_config.hpp):
//  1. transpose  NCDHW -> NDHWC with the channels padded to Cp (zeros), element type kept
//                (bf16, or fp8 bytes packed once on the host); LDS-tiled (64 pixels x up to 8
//                16-byte channel chunks per workgroup), coalesced reads and writes, conflict-free
//                LDS (layout in conv3d_igemm.cpp).
//  2. igemm      the implicit GEMM: one workgroup per (tile_m x tile_n) output tile and K split,
//                waves_m x waves_n waves, 16x16 (or 32x32, Conv3dConfig::mfma_m) MFMA blocks with
//                fp32 accumulators in AGPRs.
//                Each K tile: every thread decodes its im2col addresses (tap t, r, s and channel
//                from its k, input coordinates from its output pixel), issues 16-byte buffer
//                loads; taps in the padding, pixels past M and the K tail get the offset
//                0x80000000, past num_records, so the hardware returns zeros. Data is staged
//                in registers and written to a padded LDS stage; with 2 stages the loads of
//                tile i+1 are in flight while tile i's fragments are read and multiplied.
//                Epilogue: + bias[k] (fp32), converted to bf16 (RNE) or kept fp32, stored NCDHW
//                with one buffer store per element (out-of-range elements go past num_records);
//                with split-K, fp32 global atomics into a zeroed workspace, each guarded by an
//                explicit lane mask (range suppression does not apply to atomics).
//  3. finalize   (split-K only) workspace + bias -> output type.
//
// Arguments:
//   transpose: (const elem* x_ncdhw, elem* xt_ndhwc)
//   igemm:     (const elem* xt, const elem* wt, const float* bias, out* y_or_workspace)
//   finalize:  (const float* workspace, const float* bias, out* y)
// `bias` may be any valid pointer when the shape has no bias (it is not read).
#pragma once
#include <optional>
#include <string>

#include "codegen/conv3d_igemm_config.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

BuildResult build_conv3d_igemm(const Conv3dPlan& p, const BuildOptions& opts = {});
BuildResult build_conv3d_transpose(const Conv3dPlan& p, const BuildOptions& opts = {});
BuildResult build_conv3d_finalize(const Conv3dPlan& p, const BuildOptions& opts = {});

// The JIT kernels of a plan (finalize only for split-K).
struct Conv3dKernels {
  BuildResult transpose, igemm;
  std::optional<BuildResult> finalize;
};
Conv3dKernels build_conv3d_kernels(const Conv3dPlan& p, const BuildOptions& opts = {});

inline constexpr int kConv3dAuxThreads = 256;  // finalize workgroup size
// The LDS-tiled transpose's launch: a workgroup per 64 pixels x `chunks` 16-byte channel chunks
// of one image (chunks = min(8, Cp/chunk_elems rounded up to a power of two)), 64*min(chunks, 4)
// threads; grid (pixel tiles, chunk tiles, N).
inline constexpr int kConv3dTransposePixels = 64;
struct Conv3dTransposeLaunch {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t threads = 64;
  int chunks = 1;
};
Conv3dTransposeLaunch conv3d_transpose_launch(const Conv3dPlan& p);
uint32_t conv3d_finalize_grid(const Conv3dPlan& p);

}  // namespace cdnajit::codegen
