// Split-K of the MFMA GEMM (GemmConfig::split_k = S > 1): K is cut into S equal slices of whole
// K tiles. The GEMM kernel (gemm.cpp) runs one workgroup per (output tile, slice), grid z = slice:
// slice z multiplies K columns [z * K/S, (z+1) * K/S) from +0 accumulators, exactly as the
// unsplit kernel would for that K range, and stores its fp32 partial tile, unscaled, to slice z of
// a workspace (S x M x N fp32, row-major per slice). The reduction kernel here then computes per
// element, in this fixed order,
//   v = ws[0]; v = v + ws[1]; ...; v = v + ws[S-1];   (fp32 adds, slice order)
//   v = alpha * v (alpha != 1); v = fma(beta, C, v) (beta != 0); C = v as bf16 (RNE) or fp32,
// the arithmetic of the unsplit epilogue after the slice sum. No atomics: the result does not
// depend on which workgroup finishes first, so it is bit-exact against the HIP reference
// (codegen/hip/gemm_mfma.hip, GM_SPLIT), which does the same two steps in the same order.
// A split-K GEMM is two launches, GEMM then reduction; its modelled time is the sum of both
// (tools/jobs/gemm_model.hpp).
//
// Reduction kernel arguments: (const float* workspace, out* C).
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

// In the GEMM kernel of a split-K plan: A, B and the workspace pointers moved to this
// workgroup's slice (grid z): A and B (NT) by slice * K/S elements along K, B (NN) by
// slice * K/S rows, the workspace by slice * M * N fp32. All offsets stay below 1 GiB (plan).
struct GemmSlicePointers {
  Reg a, b, workspace;
};
GemmSlicePointers gemm_slice_pointers(Kernel& k, DslEmitter& e, const GemmPlan& p, Reg a, Reg b, Reg workspace);

}  // namespace cdnajit::codegen
