// The implicit-GEMM conv3d family's correctness check (tools/tune_families/conv3d_igemm.cpp):
// a small problem that exercises a configuration's tiles, and the comparison of its output
// with the fp64 reference within a rounding bound.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "codegen/conv3d_igemm_config.hpp"
#include "tools/jobs/conv3d_igemm_host.hpp"
#include "runtime/device.hpp"

namespace cdnajit::tune {

// Same dtype, filter, stride, padding, dilation and bias as `p`; N = 1, C <= 13, and the
// output sized so that the plan's tile has a partial M tile (M >= 1.5 tile_m) and a partial N
// tile (K = min(K, tile_n) + 8). Throws cdnajit::Error when `p`'s configuration is invalid for it.
codegen::Conv3dPlan conv3d_check_plan(const codegen::Conv3dPlan& p);

// Largest |y - ref| allowed for one output: a bf16 output is ref rounded to nearest (at most
// 2^-9 |ref| away; allowed 2^-8 |ref|) of an fp32 accumulation of `terms` products whose
// rounding errors are each at most 2^-24 of the running sum, bounded by sum |x w| (allowed
// terms * 2^-23 * abs_sum), plus the fp32 output's own rounding.
double conv3d_output_tolerance(double ref, double abs_sum, int64_t terms);

// "" when every output is within conv3d_output_tolerance of ref; else the first offender and the count.
std::string conv3d_compare_with_tolerance(std::span<const double> got, std::span<const double> ref,
                                          std::span<const double> abs_sum, int64_t terms);

// Runs `p`'s kernels `k` (JIT transpose, GEMM, finalize) on `dev` and compares with the fp64
// reference of the same inputs (fp8: the inputs quantised to E4M3 first, so the reference sees
// exactly the kernel's values). "" when it matches.
std::string conv3d_check(Device& dev, codegen::Conv3dDType t, const codegen::Conv3dPlan& p,
                         const codegen::Conv3dKernels& k);
// conv3d_check of `p`'s configuration on conv3d_check_plan(p).
std::string conv3d_check_small(Device& dev, codegen::Conv3dDType t, const codegen::Conv3dPlan& p);

}  // namespace cdnajit::tune
