// Occupancy (waves per SIMD) of a wave64 kernel on gfx942 / gfx950: the target's
// arithmetic over register, LDS and workgroup-slot use (the hardware facts and their
// sources are listed in occupancy.cpp; the numbers come from target.hpp). Read by the
// build's statistics, the runtime, the timing model and the tuner alike.
#pragma once
#include <cstdint>

#include "jit/isa/isa.hpp"

namespace cdnajit::isa::target {

// Occupancy in waves per SIMD for a wave64 kernel on gfx942/gfx950.
//  vgprs/agprs: allocated counts (highest index + 1), 0..256 each.
//  sgprs: allocated SGPRs (highest index + 1), 0..96, WITHOUT VCC/FLAT_SCRATCH/XNACK_MASK:
//         the 6 SGPRs the hardware reserves for them are added here.
//  lds_bytes: static LDS per workgroup; workgroup_size: threads per workgroup, 1..1024.
// Throws cdnajit::Error if an argument is out of range or the LDS does not fit on a CU.
struct Occupancy {
  int waves_per_simd_regs = 0;    // from VGPR+AGPR and SGPR use
  int waves_per_simd_lds = 0;     // from LDS bytes, workgroup size and workgroup slots
  int workgroups_per_cu_lds = 0;  // from LDS, capped by the hardware's workgroup slots per CU
  int waves_per_simd = 0;         // min of both
  int waves_per_group = 0;        // waves of one workgroup
  int waves_per_simd_needed = 0;  // the workgroup's waves spread over the CU's SIMDs: ceil(waves / SIMDs) on one
  // Whether one workgroup can be resident on a CU as far as registers go (the LDS is checked above).
  bool workgroup_fits_registers() const { return waves_per_simd_regs >= waves_per_simd_needed; }
};
Occupancy occupancy(Arch arch, int vgprs, int agprs, int sgprs, uint32_t lds_bytes, uint32_t workgroup_size);

}  // namespace cdnajit::isa::target
