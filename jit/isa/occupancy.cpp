// Occupancy (waves per SIMD) of a wave64 kernel on gfx942 / gfx950.
//
// Hardware facts, checked against LLVM's AMDGPU backend
// (llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp, IsaInfo namespace;
//  AMDGPUSubtarget.cpp getOccupancyWithWorkGroupSizes) and AMDGPUUsage.rst:
//  - gfx90a and later (FeatureGFX90AInsts: gfx942, gfx950): unified file of
//    512 registers per lane (getTotalNumVGPRs), allocation granule 8
//    (getVGPRAllocGranule), at most 8 waves per SIMD (getMaxWavesPerEU).
//    AGPRs start at accum_offset = VGPRs rounded up to 4; total = accum_offset
//    + AGPRs (or just the VGPRs when no AGPR is used);
//    waves = min(8, 512 / round_up(total, 8)); fewer than 8 registers -> 8.
//    (LLVM test agpr-register-count.ll: 40 VGPRs + 16 AGPRs -> 56 -> 8 waves;
//    9 VGPRs + 32 AGPRs -> accum_offset 12, total 44.)
//  - SGPRs (gfx8+): 800 per SIMD (getTotalNumSGPRs), allocation granule 16
//    (getSGPRAllocGranule). Besides the allocated SGPRs every wave holds VCC,
//    FLAT_SCRATCH and XNACK_MASK: getNumExtraSGPRs returns 6 on targets with
//    architected flat scratch (gfx940 family, gfx950). waves = min(8, 800 /
//    round_up(sgprs + 6, 16)). Note: LLVM's getOccupancyWithNumSGPRs uses an
//    older table (<= 100 SGPRs -> 8 waves) that disagrees with its own
//    getMaxNumSGPRs (8 waves -> at most alignDown(800/8, 16) = 96). We use the
//    granule rule, which is the more conservative of the two (they differ
//    only for 97..100 total SGPRs).
//  - LDS per CU: 64 KiB on gfx942, 160 KiB on gfx950 (LLVM's gfx950 CodeGen
//    tests: "local memory (163844) exceeds limit (163840)").
//    The hardware allocates LDS per workgroup in blocks (AMDGPUUsage,
//    COMPUTE_PGM_RSRC2.LDS_SIZE): 128 dwords = 512 bytes on gfx942, 320 dwords
//    = 1280 bytes on gfx950; we round up to the block (LLVM's occupancy
//    estimate has a FIXME for this and does not).
//  - Workgroup slots per CU (getMaxWorkGroupsPerCU): 4 SIMDs x 8 waves = 32
//    for single-wave workgroups, otherwise min(32 / waves_per_group, 16)
//    (16 barrier resources). This is our cap on workgroups_per_cu_lds.
//  - waves per SIMD from LDS = floor(workgroups * waves_per_group / 4),
//    clamped to 1..8 (a launchable kernel runs at least one wave; LLVM clamps
//    the same way).
#include "jit/isa/occupancy.hpp"

#include <algorithm>
#include <string>

#include "jit/isa/error.hpp"
#include "jit/isa/target.hpp"

namespace cdnajit::isa::target {

namespace {

// The hardware facts listed above live in jit/isa/target.hpp.
constexpr int kUnifiedRegsPerLane = kUnifiedVectorRegs;
constexpr int kExtraSgprs = kReservedSgprs;

int round_up(int x, int g) { return (x + g - 1) / g * g; }

uint32_t lds_per_cu(Arch arch) { return lds_bytes(arch); }
uint32_t lds_block(Arch arch) { return lds_block_bytes(arch); }
const char* arch_text(Arch arch) { return arch == Arch::gfx950 ? "gfx950" : "gfx942"; }

int waves_from_vector_regs(int vgprs, int agprs) {
  const int total = agprs > 0 ? round_up(vgprs, kAccumOffsetGranule) + agprs : vgprs;
  if (total < kVgprGranule) return kMaxWavesPerSimd;
  return std::clamp(kUnifiedRegsPerLane / round_up(total, kVgprGranule), 1, kMaxWavesPerSimd);
}

int waves_from_sgprs(int sgprs) {
  return std::clamp(kSgprsPerSimd / round_up(sgprs + kExtraSgprs, kSgprGranule), 1, kMaxWavesPerSimd);
}

}  // namespace

Occupancy occupancy(Arch arch, int vgprs, int agprs, int sgprs, uint32_t lds_bytes, uint32_t workgroup_size) {
  auto range = [](const char* what, int v, int hi) {
    if (v < 0 || v > hi)
      throw Error(std::string("occupancy: ") + what + " = " + std::to_string(v) + " is outside 0.." +
                  std::to_string(hi));
  };
  range("vgprs", vgprs, kVgprs);
  range("agprs", agprs, kAgprs);
  range("sgprs", sgprs, kAddressableSgprs);
  if (workgroup_size < 1 || workgroup_size > kMaxWorkgroupSize)
    throw Error("occupancy: workgroup size " + std::to_string(workgroup_size) + " is outside 1.." +
                std::to_string(kMaxWorkgroupSize) + " threads");
  if (lds_bytes > lds_per_cu(arch))
    throw Error("occupancy: " + std::to_string(lds_bytes) + " bytes of LDS per workgroup exceed the " +
                std::to_string(lds_per_cu(arch)) + " bytes of a " + arch_text(arch) + " CU");

  Occupancy o;
  o.waves_per_simd_regs = std::min(waves_from_vector_regs(vgprs, agprs), waves_from_sgprs(sgprs));

  const int waves_per_group = int((workgroup_size + kWaveSize - 1) / kWaveSize);
  const int slots = waves_per_group == 1 ? kMaxWavesPerSimd * kSimdsPerCu
                                         : std::min(kMaxWavesPerSimd * kSimdsPerCu / waves_per_group,
                                                    kMaxBarriersPerCu);
  int groups = slots;
  if (lds_bytes > 0) {
    const uint32_t allocated = (lds_bytes + lds_block(arch) - 1) / lds_block(arch) * lds_block(arch);
    groups = std::min<int>(slots, int(lds_per_cu(arch) / allocated));
  }
  o.workgroups_per_cu_lds = groups;
  o.waves_per_simd_lds = std::clamp(groups * waves_per_group / kSimdsPerCu, 1, kMaxWavesPerSimd);
  o.waves_per_simd = std::min(o.waves_per_simd_regs, o.waves_per_simd_lds);
  o.waves_per_group = waves_per_group;
  o.waves_per_simd_needed = (waves_per_group + kSimdsPerCu - 1) / kSimdsPerCu;
  return o;
}

}  // namespace cdnajit::isa::target
