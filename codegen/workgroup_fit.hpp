// A built kernel's workgroup must be resident on one CU: its waves share the CU's SIMDs
// (isa::target::kSimdsPerCu), so each SIMD must hold ceil(waves / SIMDs) of them with the registers
// each wave uses. A kernel that fails this cannot launch on the GPU (the simulator refuses it too,
// runtime/sim/residency.hpp); the generators refuse it at build time with the way out.
#pragma once

#include <fmt/format.h>

#include <string>

#include "jit/isa/error.hpp"
#include "jit/isa/target.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

inline void require_workgroup_fits(const BuildResult& r, int threads, const std::string& what,
                                   const std::string& advice) {
  namespace tg = isa::target;
  const int waves = (threads + tg::kWaveSize - 1) / tg::kWaveSize, need = (waves + tg::kSimdsPerCu - 1) / tg::kSimdsPerCu;
  if (r.stats.occupancy.waves_per_simd_regs < need)
    throw Error(fmt::format("{}: the kernel needs {} VGPRs and {} AGPRs per wave, so a SIMD holds {} of its waves but "
                            "the workgroup's {} waves need {} per SIMD; {}",
                            what, r.stats.vgprs, r.stats.agprs, r.stats.occupancy.waves_per_simd_regs, waves, need,
                            advice));
}

}  // namespace cdnajit::codegen
