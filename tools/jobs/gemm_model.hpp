// Modelled GPU time of the MFMA GEMM from the project's timing model (runtime/model): the
// simulator runs only the workgroups the model records (tools/jobs/model_launch.hpp) and the CU
// model times the full grid from them, so large sizes cost a few workgroups of simulation.
// Every figure is modelled, labelled with the model's name; none is a GPU measurement.
#pragma once
#include <optional>
#include <string>

#include "codegen/gemm_config.hpp"
#include "runtime/model/launch_model.hpp"

namespace cdnajit::codegen {

struct GemmModelled {
  std::string model;        // product name ("mi355x")
  GemmShape shape;
  std::string config;
  std::string mfma;         // the MFMA instruction
  double gflop = 0;
  model::ModelReport report;      // the GEMM kernel's launch
  // Split-K: the reduction kernel's launch, stream-K: the fix-up kernel's (codegen/gemm_split_k.hpp),
  // modelled after the GEMM's;
  // the GEMM's time is the sum of the two kernel times (no gap between the launches is modelled).
  std::optional<model::ModelReport> reduce;
  double peak_tflops = 0;        // the product's dense MFMA peak for that instruction at its data-sheet peak clock
  double peak_clock_ghz = 0;     // that clock
  double model_clock_ghz = 0;    // the model's clock without MFMA load (Hardware::clock_ghz); the kernel's own: report.clock_ghz
  double host_seconds = 0;       // data, simulation of the recorded workgroups, replay
  double ms() const { return report.ms + (reduce ? reduce->ms : 0.0); }  // every launch of the GEMM
  double tflops() const { return gflop / ms(); }  // GFLOP per ms = TFLOP/s
  double peak_share() const { return peak_tflops > 0 ? tflops() / peak_tflops : 0; }
};

// Builds the plan's kernel for `hw`'s arch and models it (data: random_bf16, `seed`).
// Throws cdnajit::Error for invalid configurations.
GemmModelled model_gemm(const model::Hardware& hw, const GemmShape& s, const GemmConfig& cfg = {}, uint64_t seed = 1);

// The product the gemm command models for `arch` by default: mi355x (gfx950), mi300x (gfx942).
// "none" -> nullptr; Error when the product is unknown or of another arch.
const model::Hardware* gemm_model_product(Arch arch, const std::string& name);

}  // namespace cdnajit::codegen
