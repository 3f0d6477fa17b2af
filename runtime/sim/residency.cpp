// Workgroup residency on one CU (residency.hpp).
//
// Facts and their sources (the numbers themselves live in jit/isa/target.hpp, the arithmetic in
// jit/isa/occupancy.cpp; nothing is restated here):
//  - All waves of a workgroup must be resident on one CU at once; the CU places them on its 4
//    SIMDs, so a workgroup of W waves needs ceil(W / 4) waves' registers on a SIMD. LLVM's AMDGPU
//    backend uses the same rule to bound a kernel's registers by its flat workgroup size
//    (AMDGPUBaseInfo.cpp IsaInfo::getWavesPerEUForWorkGroup = divideCeil(waves per workgroup,
//    getEUsPerCU), getEUsPerCU = 4 before gfx10: "'Per CU' really means 'per whatever functional
//    block the waves of a workgroup must share'", LLVM review D76861; GCNSubtarget
//    getMaxNumVGPRs then allows the unified file divided by that many waves).
//  - The registers a wave holds are what its kernel descriptor allocates:
//    COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT counts the unified VGPR+AGPR allocation
//    (accum_offset + AGPRs) in granules of 8 on gfx90a+ (AMDGPUUsage, "compute_pgm_rsrc1 for
//    GFX6-GFX12"; isa::target::descriptor_vector_regs); the SGPRs are the metadata's .sgpr_count
//    (read from the descriptor when the code object has no metadata).
//  - What a GPU does with a dispatch whose workgroup does not fit: ROCm's HIP runtime does not
//    check registers at launch (ROCm/hip issue 3248: "the compiler ... only uses registers that
//    are available. If a kernel launch fails due to insufficient registers, that is a compiler
//    bug"); the command processor rejects the packet and the queue enters an error state:
//    ROCR-Runtime amd_aql_queue.cpp maps queue error "Out of VGPRs" to
//    HSA_STATUS_ERROR_OUT_OF_REGISTERS ("Kernel has requested more VGPRs than are available on
//    this agent") and, with KFD exception codes, EC_QUEUE_PACKET_DISPATCH_REGISTER_SIZE_INVALID to
//    HSA_STATUS_ERROR_INVALID_ISA, as ROCm/hip issue 1185 reports from a gfx906 ("Queue error
//    state ... (Out of VGPRs;)"). So a dispatch that does not fit never runs; the simulator refuses
//    it before any workgroup starts, with LaunchError::Kind::OutOfResources.
//  - Assumed, not modelled: threadgroup-split mode (COMPUTE_PGM_RSRC3.TG_SPLIT) may place a
//    workgroup's waves on several CUs; the check here still asks that one CU hold the workgroup.
#include "runtime/sim/residency.hpp"

#include <algorithm>

#include "jit/codeobject/kernel_occupancy.hpp"
#include "jit/isa/error.hpp"
#include "jit/isa/occupancy.hpp"
#include "jit/isa/target.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit::sim {

namespace {

namespace tg = isa::target;

// The occupancy arithmetic for a wave holding `vector_regs` of the unified file. The split into
// VGPRs and AGPRs is immaterial once the total is known: occupancy() counts accum_offset + AGPRs,
// and 256 VGPRs (a multiple of the accum_offset granule) + the rest is that total.
tg::Occupancy occupancy_of(Arch arch, int vector_regs, int sgprs, uint64_t lds_bytes, uint64_t threads) {
  const int vgprs = std::min(vector_regs, tg::kVgprs);
  return tg::occupancy(arch, vgprs, vector_regs - vgprs, sgprs, uint32_t(lds_bytes), uint32_t(threads));
}

std::string n_waves(int n) { return std::to_string(n) + (n == 1 ? " wave" : " waves"); }

}  // namespace

CuResidency cu_residency(Arch arch, const KernelInfo& k, uint64_t threads, uint64_t lds_bytes) {
  const int vector_regs = int(tg::descriptor_vector_regs(k.rsrc1));
  const int sgprs = allocated_sgprs(k);
  tg::Occupancy occ;
  try {
    occ = occupancy_of(arch, vector_regs, sgprs, lds_bytes, threads);
  } catch (const Error& e) {
    throw Error("simulator: kernel " + k.name + ": " + e.what());
  }
  CuResidency r;
  r.waves_per_workgroup = occ.waves_per_group;
  const int by_registers = occ.waves_per_simd_regs * tg::kSimdsPerCu / r.waves_per_workgroup;
  r.workgroups_per_cu = uint64_t(std::min(by_registers, occ.workgroups_per_cu_lds));
  r.why = std::to_string(r.workgroups_per_cu) + " workgroups per CU (" + std::to_string(by_registers) +
          " by registers, " + std::to_string(occ.workgroups_per_cu_lds) + " by wave slots, barriers and LDS)";
  if (r.workgroups_per_cu > 0) return r;

  // Not even one workgroup fits: only registers can cause it (the LDS was checked against the CU's
  // before, and a 1024-item workgroup's 16 waves need 4 of a SIMD's 8 wave slots).
  const int per_simd = occ.waves_per_simd_needed;
  const int vector_waves = occupancy_of(arch, vector_regs, 0, 0, tg::kWaveSize).waves_per_simd_regs;
  const int sgpr_waves = occupancy_of(arch, 0, sgprs, 0, tg::kWaveSize).waves_per_simd_regs;
  const int max_waves = std::min(occ.waves_per_simd_regs * tg::kSimdsPerCu, int(tg::kMaxWorkgroupSize) / tg::kWaveSize);
  int max_regs = 0;  // the most vector registers a wave of this workgroup size may hold
  for (int t = tg::kUnifiedVectorRegs; t >= tg::kVgprGranule && !max_regs; t -= tg::kVgprGranule)
    if (occupancy_of(arch, t, sgprs, 0, tg::kWaveSize).waves_per_simd_regs >= per_simd) max_regs = t;
  std::string valid = "at most " + n_waves(max_waves) + " (" + std::to_string(max_waves * tg::kWaveSize) +
                      " work-items) per workgroup";
  if (max_regs)
    valid += ", or at most " + std::to_string(max_regs) + " vector registers per wave for workgroups of " +
             n_waves(r.waves_per_workgroup);
  throw LaunchError(
      LaunchError::Kind::OutOfResources,
      "simulator: kernel " + k.name + " does not fit on a " + std::string(arch_name(arch)) +
          " compute unit: its workgroup of " + std::to_string(threads) + " work-items is " +
          n_waves(r.waves_per_workgroup) + ", which must all be resident on the CU's " +
          std::to_string(tg::kSimdsPerCu) + " SIMDs, " + n_waves(per_simd) + " on a SIMD; a wave holds " +
          std::to_string(vector_regs) + " of a SIMD's " + std::to_string(tg::kUnifiedVectorRegs) +
          " vector registers per lane (the descriptor's COMPUTE_PGM_RSRC1 allocation in granules of " +
          std::to_string(tg::kVgprGranule) + ", VGPRs and then AGPRs from accum_offset " +
          std::to_string(k.accum_offset) + ") and " + std::to_string(sgprs) + " SGPRs (+" +
          std::to_string(tg::kReservedSgprs) + " reserved), so a SIMD holds " + n_waves(occ.waves_per_simd_regs) +
          " of it (" + std::to_string(vector_waves) + " by vector registers, " + std::to_string(sgpr_waves) +
          " by SGPRs); LDS " + std::to_string(lds_bytes) + " bytes. Valid: " + valid +
          ". A GPU rejects this dispatch (ROCm: queue error 'Out of VGPRs')");
}

}  // namespace cdnajit::sim
