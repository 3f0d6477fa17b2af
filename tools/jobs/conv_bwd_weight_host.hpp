// Host side of the conv backward-weight kernels (codegen/conv_bwd_weight.hpp): inputs, the CPU
// fp64 reference, running a code object on a Device (GPU or simulator) and reading dW back. The
// HIP references' source text, flags and grids are codegen/hip_sources.hpp's.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "codegen/conv_bwd_weight.hpp"
#include "codegen/hip_sources.hpp"  // the references' source text, flags and grids
#include "runtime/device.hpp"

namespace cdnajit::codegen {

struct BwdWeightInputs {
  BwdWeightDType dtype = BwdWeightDType::bf16;
  std::vector<uint16_t> x, dy;  // bf16 or f16 bits
};
BwdWeightInputs bwd_weight_random_inputs(const BwdWeightShape& s, BwdWeightDType dtype, uint64_t seed);
// CPU fp64 reference of dw (16-bit inputs widened exactly).
std::vector<double> bwd_weight_reference_fp64(const BwdWeightShape& s, const BwdWeightInputs& in);
// Runs a code object with the kernel arguments (x, dy, dw); returns dw's bytes (out_bytes each).
// dW starts as 0xff bytes (NaN), or zeros when `zero_dw` (split-K).
std::vector<uint8_t> run_bwd_weight(Device& dev, std::span<const uint8_t> code_object, const char* kernel_name,
                                    Dim3 grid, Dim3 block, const BwdWeightShape& s, const BwdWeightInputs& in,
                                    int out_bytes = 4, bool zero_dw = false);
// dw bytes (fp32, or 16-bit of `dtype`) as doubles.
std::vector<double> bwd_weight_values(std::span<const uint8_t> dw, int out_bytes, BwdWeightDType dtype);

}  // namespace cdnajit::codegen
