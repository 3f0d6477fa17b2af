// Host side of the MFMA GEMM: test data, the fp64 reference with its error bound, and drivers
// that run the JIT kernel and the clang-compiled HIP reference on a Device (GPU or simulator).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "codegen/gemm_config.hpp"
#include "codegen/hip_sources.hpp"  // the reference's source text and flags
#include "jit/kernel.hpp"
#include "runtime/device.hpp"

namespace cdnajit::codegen {

// Bytes of A (M x K for NN/NT, K x M for TN/TT), B (K x N for NN/TN, N x K for NT/TT), in the input type (bf16 little-endian, or
// one byte per fp8 element), and, with beta != 0, the input C (M x N, in the output type's bytes).
struct GemmInputs {
  std::vector<uint8_t> a, b;
  std::vector<uint8_t> c;
  std::vector<uint8_t> bias;  // GemmBias::col: N fp32 values (the kernel's fourth argument)
};
// Deterministic data (random_bf16: values in [-2, 2], magnitudes >= 2^-8 or zero); fp8 inputs are
// those values rounded to nearest even in the arch's format (gemm_fp8_format); f16 inputs are those
// values (exact in f16) with the 3 mantissa bits below bf16's set pseudo-randomly. An f16 input C
// holds the bf16 test values (exact in f16).
GemmInputs gemm_random_inputs(const GemmPlan& p, uint64_t seed);
// Element i of an input (A or B bytes) as a double.
double gemm_input_value(const GemmPlan& p, std::span<const uint8_t> bytes, size_t i);

// fp64 reference: ref = alpha * sum_k a*b + beta * c (exact products, fp64 sums), and the
// per-element bound the kernel's result must meet:
//   |got - ref| <= K * 2^-23 * |alpha| * sum_k |a*b|     (fp32 accumulation: twice the textbook
//                                                         recursive-summation bound (K-1) * 2^-24,
//                                                         covering the MFMA's unspecified internal
//                                                         sum order and rounding)
//                + 2^-23 * (|alpha * s| + |beta * c|)     (the alpha product and the fma)
//                + (|ref| + the two terms above) * 2^-8   (bf16 output rounding: half an ulp of the fp32
//                  + 2^-133                               result, plus the subnormal floor; bf16 output only)
//                + (|ref| + the first two terms) * 2^-11  (f16 output rounding: half an f16 ulp, plus half the
//                  + 2^-25                                smallest f16 subnormal; f16 output only)
// With a bias and an activation the reference is act(alpha * s + beta * c + bias[n]) in fp64 (silu
// x / (1 + e^-x), gelu_tanh 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))), and the bound before the
// output rounding grows by
//                + 2^-24 * (|alpha * s| + |beta * c| + |bias| + bound)   (the bias add)
//   relu: unchanged (exact, 1-Lipschitz); silu, gelu_tanh: bound * kActivationLipschitz (the largest
//   |act'| is 1.10 for silu, 1.13 for gelu_tanh) + |act| * (2|z| + 8) * 2^-22 + 2^-126 (z = the
//   exponent of gemm_config.hpp's sequence: the fp32 roundings of z, exp2, the add, rcp, the multiply).
struct GemmReference {
  std::vector<double> value, bound;
};
inline constexpr double kActivationLipschitz = 1.2;
double gemm_bias_value(const GemmInputs& in, size_t n);          // bias[n] as a double
double activation_fp64(GemmActivation a, double x);               // the activation in fp64
double activation_bound(GemmActivation a, double x, double y, double bound);  // bound after y = act(x)
GemmReference gemm_reference_fp64(const GemmPlan& p, const GemmInputs& in);

// Elements outside the bound (the first one described), over all of C.
struct GemmBoundCheck {
  size_t elements = 0, violations = 0, first = 0;
  double worst_ratio = 0;  // max |got - ref| / bound
  bool ok() const { return violations == 0; }
  std::string describe() const;
};
GemmBoundCheck gemm_check_bound(const GemmPlan& p, std::span<const uint8_t> c, const GemmReference& ref);
// The same verdict for any output of fp32 (`f32`) or bf16 elements against value +- bound (the MX
// GEMM's too); an element whose bound is zero (every product zero) passes only with an exact zero.
GemmBoundCheck check_output_bound(std::span<const uint8_t> c, bool f32, std::span<const double> value,
                                  std::span<const double> bound);
GemmBoundCheck check_output_bound(std::span<const uint8_t> c, GemmOutput out, std::span<const double> value,
                                  std::span<const double> bound);
// Element e of an output of fp32 (`f32`) or bf16 elements (or of the output type `o`), as a double.
double output_element(std::span<const uint8_t> c, size_t e, bool f32);
double output_element(std::span<const uint8_t> c, size_t e, GemmOutput o);

struct GemmRunResult {
  std::vector<uint8_t> c;               // output bytes
  std::optional<sim::Stats> stats;      // simulator statistics of the launch (split-K: both launches)
  double host_ms = 0;                   // host wall time of the launch (simulator: CPU time)
};
// Split-K plans (split_k > 1): the GEMM kernel `k` into a workspace, then the reduction kernel
// (built here, codegen/gemm_split_k.hpp) into C.
GemmRunResult run_gemm_jit(Device& dev, const GemmPlan& p, const BuildResult& k, const GemmInputs& in);

// The reference compiled by compile_hip(gemm_hip_source(), arch, gemm_hip_flags(p)) (split-K:
// gemm_ref into a workspace, then gemm_ref_reduce).
GemmRunResult run_gemm_hip(Device& dev, const GemmPlan& p, std::span<const uint8_t> code_object, const GemmInputs& in);

}  // namespace cdnajit::codegen
