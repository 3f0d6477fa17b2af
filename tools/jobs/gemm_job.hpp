// The gemm job behind `cdnajit gemm`: build the JIT kernel for a shape and configuration, run it
// and the clang-compiled HIP reference (same MFMA builtins, same order) on the simulator or a GPU
// of that arch, compare the bits, check the result against the fp64 reference's bound, print the
// kernel's statistics and its modelled time ("modelled (model <product>)").
#pragma once
#include <optional>
#include <ostream>
#include <string>

#include "codegen/gemm_config.hpp"
#include "tools/jobs/gemm_host.hpp"
#include "tools/jobs/gemm_model.hpp"

namespace cdnajit::codegen {

struct GemmJobOptions {
  std::string device;      // open_device() spec; "" = "sim:<arch>"
  std::string model;       // timing-model product; "" = gemm_model_product's default, "none" = no model
  std::string asm_path;    // write the kernel's .s here when not empty
  uint64_t seed = 1;
  bool model_only = false; // no runs or checks: build and model only (sizes the simulator cannot run whole)
  bool model_details = false;  // also print the model's full report (traffic per level, busy units, stalls)
};

struct GemmJobResult {
  std::string shape, config, mfma, device;
  bool ran = false;            // false with model_only
  bool bit_exact = false;
  std::string compare;         // JIT vs HIP reference
  GemmBoundCheck bound;        // JIT vs fp64
  int vgprs = 0, agprs = 0, sgprs = 0, waves_per_simd = 0;
  uint32_t lds_bytes = 0;
  double build_ms = 0, sim_seconds = 0;
  uint64_t wave_instructions = 0;
  double mfma_share = 0;       // MFMA / all wave-instructions (simulator)
  std::optional<GemmModelled> modelled;
  bool ok() const { return !ran || (bit_exact && bound.ok()); }
};

// Throws cdnajit::Error for invalid plans and build/compile/device failures.
GemmJobResult run_gemm_job(std::ostream& log, Arch arch, const GemmShape& s, const GemmConfig& cfg,
                           const GemmJobOptions& opt = {});

// One-line summary of a modelled run: time, TFLOP/s, share of the MFMA peak, limiter.
std::string format_gemm_modelled(const GemmModelled& m);

}  // namespace cdnajit::codegen
