// The conv3d seed job: build the implicit-GEMM kernels for the seed's shape (3x3x3, stride 1,
// pad 1, C = K = 128, D = 6, N = 1, H = W = 40 by default), write the GEMM kernel's .s, run
// the JIT pipeline and the clang-compiled HIP-MFMA reference (GPU of that arch if present,
// else the simulator), check the bits, measure accuracy against fp64 and print the stats.
// Used by `cdnajit conv3d` and tools/report_conv3d.
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "codegen/conv3d_igemm_config.hpp"
#include "tools/jobs/conv3d_igemm_model.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

struct Conv3dJobOptions {
  std::string device;      // open_device() spec; "" = a GPU of that arch if usable, else "sim:<arch>"
  int hw = 40;             // H = W of the seed shape
  Conv3dConfig cfg;        // default: the seed's structure
  uint64_t seed = 1;       // data
  int warm_builds = 11;    // uncached JIT builds timed after one warm-up (median reported)
  // Timing model (runtime/model) product for the modelled times: "" = the arch's default product
  // (model::default_product: mi350x on gfx950, mi300x on gfx942; the seed's GPU was an MI355X, so
  // report_conv3d passes mi355x); "none" = no modelled times.
  std::string model;
  std::vector<int> model_hw{40, 56, 72, 104, 144, 168};  // H = W of the modelled seed shapes
  bool model_only = false;  // skip build timing, runs, checks: modelled times only
  bool model_detail = false;  // also log the timing model's full report (units, stalls, per-wave mix) of each igemm
  bool build_only = false;  // only the JIT build times (no runs, checks or models)
};

// The product the job models for `arch` ("" -> the default above); nullptr for "none".
// Throws cdnajit::Error when the product is unknown or of another arch.
const model::Hardware* conv3d_job_model(Arch arch, const std::string& name);

// Main-loop instruction mix, measured on the simulator by difference: the GEMM kernel runs on
// one output tile with C = 2*c0 and with C = c0 channels (same everything else), and the extra
// wave-instructions of the longer run are the K-tile loop's (prologue and epilogue cancel).
// Works the same for the JIT kernel and for clang's code, whatever its block layout.
struct LoopMix {
  double instructions_per_tile = 0, mfma_per_tile = 0;  // per workgroup and K tile, all waves
  double mfma_share() const { return instructions_per_tile ? mfma_per_tile / instructions_per_tile : 0; }
};
struct LoopMixes {
  LoopMix jit, hip;
};
LoopMixes main_loop_mix(Arch arch, Conv3dDType dtype, const Conv3dConfig& cfg);

struct Conv3dKernelStats {
  int vgprs = 0, agprs = 0, sgprs = 0;
  uint32_t lds_bytes = 0;
  int waves_per_simd = 0;         // min of the register and LDS limits
  LoopMix loop;
  double dyn_mfma_share = 0;      // MFMA / all wave-instructions issued (whole GEMM kernel, simulator)
  uint64_t wave_instructions = 0;
  double sim_seconds = 0;         // simulator wall time of the GEMM launch
};

struct Conv3dJobResult {
  std::string shape, config, arch, dtype, device;
  double gflop = 0;
  bool bit_exact = false;
  std::string compare;            // describe() of the JIT vs HIP-MFMA comparison
  double rel_err = 0, cosine = 0, snr_db = 0;          // JIT vs fp64
  std::optional<double> snr_vs_bf16_rounded_db;       // bf16: JIT vs fp64 rounded to bf16
  Conv3dKernelStats jit, hip;
  double jit_build_ms_warm = 0, jit_build_ms_first = 0, clang_compile_ms = 0;
  double jit_wall_ms_warm = 0;           // build_conv3d_igemm wall time (generator + pipeline), warm median
  KernelStats igemm_stats;               // the last timed build's stage times
  std::vector<Conv3dModelled> modelled;  // one per Conv3dJobOptions::model_hw (empty without a model)
};

// The modelled-time table (every line labelled with the model's name) beside the seed's
// measured MI355X figures; Markdown when `markdown`.
std::string format_conv3d_modelled(const std::vector<Conv3dModelled>& ms, Conv3dDType t, bool markdown);

// Prints progress and the tables to `log`; writes the GEMM kernel's .s to asm_path when not empty.
// Throws cdnajit::Error for build/compile/device failures.
Conv3dJobResult run_conv3d_job(std::ostream& log, Arch arch, Conv3dDType dtype, const std::string& asm_path,
                               const Conv3dJobOptions& opt = {});

}  // namespace cdnajit::codegen
