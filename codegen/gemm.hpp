// JIT generator of the MFMA GEMM kernel (bf16 inputs, fp32 accumulation; shapes and plan in
// codegen/gemm_config.hpp).
//
// One workgroup per tile_m x tile_n output tile, waves_m x waves_n waves, each wave a sub-tile
// of mfma_m x mfma_m MFMA blocks with fp32 accumulators in AGPRs. Per K tile every thread
// issues 16-byte buffer loads of A and B into staging registers and writes them to a padded
// LDS stage (B of layout NN is transposed on the way: each 16-byte chunk of a B row goes to
// LDS as eight 2-byte writes down a column); with 2 stages the next tile's loads are in flight
// while the current tile's fragments are read and multiplied (codegen/mfma_tile.hpp), one
// barrier per tile. Rows past M or N read at an offset past num_records (zeros). Epilogue:
// alpha * acc (+ beta * C read in the output type, one fma), converted to bf16 (RNE) or kept
// fp32, one buffer store per element (out-of-range elements dropped).
//
// Arguments: (const bf16* A, const bf16* B, out* C), or with split-K (const bf16* A, const bf16* B,
// float* workspace) and the reduction kernel of codegen/gemm_split_k.hpp after it.
#pragma once
#include "codegen/gemm_config.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

BuildResult build_gemm(const GemmPlan& p, const BuildOptions& opts = {});

}  // namespace cdnajit::codegen
