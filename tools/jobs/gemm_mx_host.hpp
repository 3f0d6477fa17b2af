// Host side of the MX-scaled GEMM (codegen/gemm_mx.hpp): test data, the fp64 reference decoding
// the MX values with its error bound, drivers that run the JIT kernel and the clang-compiled HIP
// reference (codegen/hip/gemm_mx.hip) on a Device, and the modelled time.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "codegen/gemm_mx.hpp"
#include "codegen/hip_sources.hpp"  // the reference's source text and flags
#include "tools/jobs/gemm_host.hpp"
#include "runtime/device.hpp"
#include "runtime/model/launch_model.hpp"

namespace cdnajit::codegen {

// Bytes of A, B (packed codes), SA, SB (E8M0) in the layout of gemm_mx.hpp.
struct GemmMxInputs {
  std::vector<uint8_t> a, b, sa, sb;
};
// Deterministic data: every element code of the format except inf/NaN (fp8 0x7F/0xFF, bf8 exponent 31), scales
// 127 +- 4 (values 2^-4 .. 2^4).
GemmMxInputs gemm_mx_random_inputs(const GemmMxPlan& p, uint64_t seed);

// Value of an element code, decoded here from the OCP formats (independent of the simulator):
// fp8 E4M3 (bias 7, S.1111.111 NaN, no inf), bf8 E5M2 (bias 15, inf/NaN at exponent 31), fp6 E2M3 (bias 1), bf6 E3M2 (bias 3), fp4 E2M1
// (bias 1); fp6/bf6/fp4 have no inf/NaN (OCP MX v1.0).
double mx_element_value(MxFormat f, uint8_t code);
// 2^(s - 127); s = 0xFF is NaN (OCP MX v1.0).
double e8m0_value(uint8_t s);

// fp64 reference: ref[m][n] = sum_k (A[m][k] * 2^(SA-127)) * (B[n][k] * 2^(SB-127)) (exact
// products, fp64 sums), and the bound the kernel's result must meet:
//   |got - ref| <= K * 2^-23 * sum_k |a*b|     (fp32 accumulation: twice the textbook recursive
//                                              summation bound, covering the MFMA's internal order)
//                + (|ref| + that) * 2^-8 + 2^-133  (bf16 output only: half an ulp, subnormal floor)
struct GemmMxReference {
  std::vector<double> value, bound;
};
GemmMxReference gemm_mx_reference_fp64(const GemmMxPlan& p, const GemmMxInputs& in);

using GemmMxBoundCheck = GemmBoundCheck;  // the same per-element bound verdict as the bf16 gemm's
GemmMxBoundCheck gemm_mx_check_bound(const GemmMxPlan& p, std::span<const uint8_t> c, const GemmMxReference& ref);

struct GemmMxRunResult {
  std::vector<uint8_t> c;
  std::optional<sim::Stats> stats;
};
GemmMxRunResult run_gemm_mx_jit(Device& dev, const GemmMxPlan& p, const BuildResult& k, const GemmMxInputs& in);

// The reference compiled by compile_hip(gemm_mx_hip_source(), gfx950, gemm_mx_hip_flags(p)).
GemmMxRunResult run_gemm_mx_hip(Device& dev, const GemmMxPlan& p, std::span<const uint8_t> code_object,
                                const GemmMxInputs& in);

// Modelled time (runtime/model; the simulator runs only the workgroups the model records, so
// large sizes cost a few workgroups). Every figure is modelled, labelled with the model's name.
struct GemmMxModelled {
  std::string model, shape, config, mfma;
  double gflop = 0;
  model::ModelReport report;
  double peak_tflops = 0;  // the product's dense peak for this MFMA as the ISA table's pass count gives it
  double tflops() const { return gflop / report.ms; }
  double peak_share() const { return peak_tflops > 0 ? tflops() / peak_tflops : 0; }
  std::string describe() const;
};
// `hw` must be a gfx950 product (Error naming it otherwise).
GemmMxModelled model_gemm_mx(const model::Hardware& hw, const GemmMxShape& s, const GemmMxConfig& cfg = {},
                             uint64_t seed = 1);

}  // namespace cdnajit::codegen
