// Host side of the implicit-GEMM conv3d: data packing (weight repack to (K, T, R, S, C),
// fp8 packing), the fp64 reference, accuracy metrics, and drivers that run the JIT
// pipeline and the HIP references on a Device (GPU or simulator).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "codegen/conv3d_igemm.hpp"  // build_conv3d_kernels
#include "codegen/conv3d_igemm_config.hpp"
#include "codegen/hip_sources.hpp"  // the references' source text and flags
#include "jit/kernel.hpp"
#include "runtime/device.hpp"

namespace cdnajit::codegen {

// bf16 bits of input [N,C,D,H,W] and weight [K,C,T,R,S]; bias [K] fp32 (empty without bias).
struct Conv3dInputs {
  std::vector<uint16_t> x, w;
  std::vector<float> bias;
};
// Normally distributed data (Box-Muller on splitmix64, mean 0, std 1), rounded to bf16.
Conv3dInputs conv3d_random_inputs(const Conv3dShape& s, uint64_t seed);

// fp8 E4M3: OCP E4M3FN (bias 7, max 448, S.1111.111 NaN) for gfx950, FNUZ (bias 8, max 240,
// 0x80 the only NaN) for gfx942. Encoding rounds to nearest even and saturates to +-max.
uint8_t fp8_e4m3_encode(float v, bool fnuz);
double fp8_e4m3_decode(uint8_t b, bool fnuz);

// Input elements in the kernel's type, still NCDHW: bf16 bytes as given, or fp8 (packed once).
std::vector<uint8_t> conv3d_pack_input(const Conv3dPlan& p, std::span<const uint16_t> x);
// Weight repack [K,C,T,R,S] -> [K][T][R][S][Cp] rows of kdim_padded elements (zeros in the
// padding), in the kernel's type. Done once per weight; callers cache the result.
std::vector<uint8_t> conv3d_pack_weights(const Conv3dPlan& p, std::span<const uint16_t> w);
// Host NCDHW -> NDHWC(Cp) of packed input elements: the test oracle of the transpose
// kernel and the input of the HIP-MFMA reference.
std::vector<uint8_t> conv3d_transpose_host(const Conv3dPlan& p, std::span<const uint8_t> packed_x);

// fp64 reference y[N][K][Do][Ho][Wo] from the bf16 values (exact products, fp64 sums) + bias.
std::vector<double> conv3d_reference_fp64(const Conv3dShape& s, const Conv3dInputs& in);
// Output bytes (bf16 or fp32) as doubles.
std::vector<double> conv3d_output_values(Conv3dOutput t, std::span<const uint8_t> y);

// Accuracy as the seed reports it: rel_err = ||y - ref||2 / ||ref||2, cosine similarity,
// SNR = 10 log10(sum ref^2 / sum (y - ref)^2) dB; plus the largest absolute error.
struct Conv3dAccuracy {
  double rel_err = 0, cosine = 0, snr_db = 0, max_abs = 0;
};
Conv3dAccuracy conv3d_accuracy(std::span<const double> got, std::span<const double> ref);

// Byte comparison: first differing element (of `elem_bytes`), and the count.
struct Conv3dBitCompare {
  size_t elements = 0, mismatches = 0, first = 0;
  bool equal() const { return mismatches == 0; }
  std::string describe() const;
};
Conv3dBitCompare conv3d_compare_bytes(std::span<const uint8_t> got, std::span<const uint8_t> want, int elem_bytes);

struct Conv3dRunResult {
  std::vector<uint8_t> y;                 // output bytes, NCDHW
  std::vector<uint8_t> xt;                // the transposed input the GEMM read
  std::optional<sim::Stats> gemm_stats;   // simulator statistics of the GEMM launch
  double gemm_host_ms = 0;                // host wall time of the GEMM launch (simulator: CPU time)
};
// transpose -> igemm (-> finalize): inputs already packed (conv3d_pack_input / _weights).
Conv3dRunResult run_conv3d_jit(Device& dev, const Conv3dPlan& p, const Conv3dKernels& k,
                               std::span<const uint8_t> packed_x, std::span<const uint8_t> packed_w,
                               std::span<const float> bias);

// HIP references compiled by clang (runtime/hip_source.hpp) from conv3d_igemm_hip_source() /
// conv3d_direct_hip_source() with conv3d_hip_flags(p) (codegen/hip_sources.hpp).
// Same MFMA builtins and order as the JIT kernel; reads the host-transposed input.
Conv3dRunResult run_conv3d_hip_mfma(Device& dev, const Conv3dPlan& p, std::span<const uint8_t> co,
                                    std::span<const uint8_t> xt, std::span<const uint8_t> packed_w,
                                    std::span<const float> bias);
// Plain direct conv (bf16 inputs, fp32 fmaf accumulation).
std::vector<uint8_t> run_conv3d_direct(Device& dev, const Conv3dPlan& p, std::span<const uint8_t> co,
                                       const Conv3dInputs& in);

}  // namespace cdnajit::codegen
