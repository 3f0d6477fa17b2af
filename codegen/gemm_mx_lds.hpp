// The MX-scaled GEMM's LDS read-ahead kernel (GemmMxConfig::read_ahead): operands and their
// E8M0 scales go global -> LDS by DMA, the waves run the shared read-ahead schedule
// (codegen/read_ahead_schedule.hpp) with v_mfma_scale_f32_16x16x128_f8f6f4. Layout and why:
// gemm_mx_lds.cpp.
#pragma once
#include "codegen/gemm_mx.hpp"

namespace cdnajit::codegen {

// Emits the whole kernel into `k` (a plan with cfg.read_ahead, checked by make_gemm_mx_plan).
void emit_gemm_mx_lds(Kernel& k, const GemmMxPlan& p);

}  // namespace cdnajit::codegen
