// Modelled GPU time of the implicit-GEMM conv3d pipeline (transpose, igemm, finalize for
// split-K) from the project's timing model (runtime/model): for each kernel the simulator
// runs only the workgroups the model records (those one CU receives first; every workgroup
// computes what it computes in the full grid), and the CU model times the full grid from
// them. So a shape of any size costs a few workgroups of simulation. Every figure is
// modelled, labelled with the model's name; none is a GPU measurement.
#pragma once
#include <optional>
#include <string>

#include "codegen/conv3d_igemm_config.hpp"
#include "runtime/model/launch_model.hpp"

namespace cdnajit::codegen {

struct Conv3dModelled {
  std::string model;                          // product name ("mi355x")
  Conv3dShape shape;
  std::string config;
  double gflop = 0;
  model::ModelReport igemm, transpose;        // per kernel, full grid
  std::optional<model::ModelReport> finalize; // split-K only
  double host_seconds = 0;                    // data, simulation of the recorded workgroups, replay
  double gemm_ms() const { return igemm.ms + (finalize ? finalize->ms : 0.0); }
  double total_ms() const { return gemm_ms() + transpose.ms; }
  double gemm_tflops() const { return gflop / gemm_ms(); }    // GFLOP per ms = TFLOP/s; the convolution without the transpose
  double total_tflops() const { return gflop / total_ms(); }  // transpose + GEMM (+ finalize)
};

// The seed's measurements on MI355X (gfx950) for its shapes (3x3x3, stride 1, pad 1, C = K = 128,
// D = 6, N = 1, H = W = hw): TFLOP/s of its BF16 and FP8 kernels and of PyTorch (BF16), quoted
// from the seed's performance table (conv3d-implicit-gemm-fp8-pr). nullptr for other H.
struct Conv3dSeedMeasured {
  int hw;
  double bf16_tflops, fp8_tflops, pytorch_tflops;
};
const Conv3dSeedMeasured* conv3d_seed_measured(int hw);
inline constexpr int kConv3dSeedHw[] = {40, 56, 72, 104, 144, 168};

// Builds the plan's kernels for `hw`'s arch and models them on shape `s` (data: normal, `seed`).
// Throws cdnajit::Error for invalid configurations or a product/arch mismatch.
Conv3dModelled model_conv3d(const model::Hardware& hw, Conv3dDType t, const Conv3dShape& s,
                            const Conv3dConfig& cfg = {}, uint64_t seed = 1);

}  // namespace cdnajit::codegen
