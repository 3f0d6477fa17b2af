// JIT generator of the MFMA GEMM kernel (bf16, f16 or fp8 inputs, fp32 accumulation; shapes and plan in
// codegen/gemm_config.hpp).
//
// One workgroup per tile_m x tile_n output tile, waves_m x waves_n waves, each wave a sub-tile
// of mfma_m x mfma_m MFMA blocks with fp32 accumulators in AGPRs. Per K tile every thread
// issues 16-byte buffer loads of A and B into staging registers and writes them to a padded
// LDS stage (B of layouts NN/TN and A of TN/TT, stored with K as the row index, are transposed on
// the way: each 16-byte chunk of such a row goes down 8 LDS rows, up to 4 K rows packed per write); with 2 stages the next tile's loads are in flight
// while the current tile's fragments are read and multiplied (codegen/mfma_tile.hpp), one
// barrier per tile. Rows past M or N read at an offset past num_records (zeros). Epilogue:
// alpha * acc (+ beta * C read in the output type, one fma) (+ bias[n]) then the activation, all in
// fp32 (gemm_config.hpp, GemmBias / GemmActivation), converted to bf16 or f16 (RNE) or kept fp32,
// one buffer store per element (out-of-range elements dropped).
//
// Arguments: (const in* A, const in* B, out* C[, const float* bias: with GemmBias::col]), or with
// split-K (const in* A, const in* B, float* workspace) and the reduction kernel of
// codegen/gemm_split_k.hpp after it (which takes the bias); stream-K: (A, B, C, float* workspace[,
// bias]) and the fix-up kernel.
#pragma once
#include "codegen/gemm_config.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

BuildResult build_gemm(const GemmPlan& p, const BuildOptions& opts = {});

}  // namespace cdnajit::codegen
