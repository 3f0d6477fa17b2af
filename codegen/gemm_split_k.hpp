// Split-K of the MFMA GEMM (GemmConfig::split_k = S > 1): K is cut into S equal slices of whole
// K tiles. The GEMM kernel (gemm.cpp) runs one workgroup per (output tile, slice), grid z = slice:
// slice z multiplies K columns [z * K/S, (z+1) * K/S) from +0 accumulators, exactly as the
// unsplit kernel would for that K range, and stores its fp32 partial tile, unscaled, to slice z of
// a workspace (S x M x N fp32, row-major per slice). The reduction kernel here then computes per
// element, in this fixed order,
//   v = ws[0]; v = v + ws[1]; ...; v = v + ws[S-1];   (fp32 adds, slice order)
//   v = alpha * v (alpha != 1); v = fma(beta, C, v) (beta != 0); v = v + bias[n]; v = act(v);
//   C = v as bf16 / f16 (RNE) or fp32,
// the arithmetic of the unsplit epilogue after the slice sum. No atomics: the result does not
// depend on which workgroup finishes first, so it is bit-exact against the HIP reference
// (codegen/hip/gemm_mfma.hip, GM_SPLIT), which does the same two steps in the same order.
// After the sum the reduction applies the rest of the GEMM epilogue in its order: + bias[n], the
// activation, then bf16 / f16 RNE or fp32 (gemm_epilogue.hpp); the bias is its third argument (the
// split GEMM kernel has none).
// A split-K GEMM is two launches, GEMM then reduction; its modelled time is the sum of both
// (tools/jobs/gemm_model.hpp).
//
// Reduction kernel arguments: (const float* workspace, out* C[, const float* bias]).
#pragma once
#include <cstdint>

#include "codegen/dsl_emitter.hpp"
#include "codegen/gemm_config.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

// Threads per reduction workgroup; each thread sums 4 consecutive elements of C.
inline constexpr int kGemmReduceThreads = 256;
inline constexpr int kGemmReduceElemsPerThread = 4;

// Workgroups of the reduction launch (1-D grid of kGemmReduceThreads threads).
uint32_t gemm_reduce_grid(const GemmPlan& p);

// The split-K reduction kernel of a plan with split_k > 1 (Error otherwise).
BuildResult build_gemm_split_k_reduce(const GemmPlan& p, const BuildOptions& opts = {});

// Stream-K (GemmConfig::stream_k > 0): the GEMM kernel (gemm.cpp, emit_stream_k; arguments
// (A, B, C, workspace[, bias])) runs sk_groups persistent workgroups; workgroup w walks the MAC iterations
// [w * P, min((w + 1) * P, tiles * KT)) (P = sk_per; iteration i = K tile i % KT of output tile
// i / KT, tiles M fastest), one tile's consecutive K tiles per segment, accumulators from +0 per
// segment in ascending K. A segment that is a whole tile goes through the epilogue into C; any
// other stores its raw fp32 accumulators to workspace slot 2w (w's first segment) or 2w + 1 (its
// last; tile-local row-major, 2 x sk_groups slots). The fix-up kernel, one workgroup per tile
// (arguments (workspace, C[, bias])), sums a split tile's segments in K order, v = slot(wlo); v = v +
// slot(2w) for w = wlo + 1 .. whi, and applies the epilogue. Fixed order, no atomics: bit-exact
// against the HIP reference (GM_SKG, gemm_ref_sk + gemm_ref_sk_fixup).
BuildResult build_gemm_stream_k_fixup(const GemmPlan& p, const BuildOptions& opts = {});
inline uint32_t gemm_fixup_grid(const GemmPlan& p) { return uint32_t(p.tiles_m * p.tiles_n); }

// In the GEMM kernel of a split-K plan: A, B and the workspace pointers moved to this
// workgroup's slice (grid z): a K-contiguous operand (A of NN/NT, B of NT/TT) by slice * K/S
// elements along K, one stored with K as the row index (B of NN/TN, A of TN/TT) by slice * K/S rows,
// the workspace by slice * M * N fp32. All offsets stay below 1 GiB (plan).
struct GemmSlicePointers {
  Reg a, b, workspace;
};
GemmSlicePointers gemm_slice_pointers(Kernel& k, DslEmitter& e, const GemmPlan& p, Reg a, Reg b, Reg workspace);

}  // namespace cdnajit::codegen
