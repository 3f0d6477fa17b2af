// A built kernel's workgroup must be resident on one CU: its waves share the CU's SIMDs
// (isa::target::Occupancy::waves_per_simd_needed: ceil(waves / SIMDs) on one SIMD) with the registers
// each wave uses. A kernel that fails this cannot launch on the GPU (the simulator refuses it too,
// runtime/sim/residency.hpp); the generators refuse it at build time with the way out.
#pragma once

#include <fmt/format.h>

#include <string>

#include "jit/isa/error.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

inline void require_workgroup_fits(const BuildResult& r, const std::string& what, const std::string& advice) {
  const isa::target::Occupancy& o = r.stats.occupancy;
  if (!o.workgroup_fits_registers())
    throw Error(fmt::format("{}: the kernel needs {} VGPRs and {} AGPRs per wave, so a SIMD holds {} of its waves but "
                            "the workgroup's {} waves need {} per SIMD; {}",
                            what, r.stats.vgprs, r.stats.agprs, o.waves_per_simd_regs, o.waves_per_group,
                            o.waves_per_simd_needed, advice));
}

}  // namespace cdnajit::codegen
