// Facts about the gfx942 / gfx950 targets that more than one layer needs:
// register files, reserved SGPRs, special-register numbers, LDS, allocation
// granules and occupancy inputs, the s_waitcnt field layout. Everything that
// used to repeat one of these numbers reads it from here.
//
// Sources: AMD "AMD Instinct MI300 (CDNA3) Instruction Set Architecture" (sections
// 3.6 "SGPRs"/"VGPRs", 4.4 "Data dependency resolution" for s_waitcnt, 9 "Microcode
// formats" for the scalar operand encoding); LLVM 22 AMDGPU backend
// (llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp IsaInfo: getAddressableNumSGPRs,
// getNumExtraSGPRs, getTotalNumSGPRs, getSGPRAllocGranule, getTotalNumVGPRs,
// getVGPRAllocGranule, getMaxWavesPerEU, getMaxWorkGroupsPerCU) and AMDGPUUsage.rst
// (COMPUTE_PGM_RSRC2.LDS_SIZE granules).
#pragma once
#include <cstdint>

#include "jit/isa/isa.hpp"
#include "jit/isa/machine_inst.hpp"

namespace cdnajit::isa::target {

// --- Register files (per lane, wave64) --------------------------------------
// s0..s101 are addressable. On gfx940-family targets and gfx950 (architected flat
// scratch) every wave also holds VCC, FLAT_SCRATCH and XNACK_MASK, which the
// hardware places at the top of the wave's SGPR allocation: 6 SGPRs
// (getNumExtraSGPRs). So a kernel may allocate at most 102 - 6 = 96 SGPRs itself
// (getMaxNumSGPRs), and the descriptor's SGPR count is allocated + 6.
constexpr int kAddressableSgprs = 102;
constexpr int kReservedSgprs = 6;  // VCC, FLAT_SCRATCH, XNACK_MASK
constexpr int kAllocatableSgprs = kAddressableSgprs - kReservedSgprs;
constexpr int kVgprs = 256;        // architectural VGPRs
constexpr int kAgprs = 256;        // architectural AGPRs (gfx90a and later)
constexpr int kUnifiedVectorRegs = 512;  // VGPRs + AGPRs per lane share one file

// Alignment of a register tuple's first register (LLVM's gfx90a+ register classes, which its
// assembler enforces: "invalid operand for instruction" otherwise): VGPR and AGPR tuples of
// 2+ dwords start at an even register; SGPR pairs at an even one, SGPR tuples of 3+ dwords
// at a multiple of 4 (SGPR_96 steps by 4 like SGPR_128).
constexpr int tuple_alignment(RegFile f, int dwords) {
  if (dwords < 2) return 1;
  if (f == RegFile::SGPR) return dwords == 2 ? 2 : 4;
  return 2;
}

// --- Special registers: numbers in the scalar operand encoding --------------
// (CDNA3 ISA, "SSRC/SDST" operand table; s106:107 and vcc name the same registers.)
constexpr int kFlatScratchLo = 102, kXnackMaskLo = 104, kVccLo = 106, kVccHi = 107, kTtmp0 = 108, kM0 = 124,
              kExecLo = 126, kExecHi = 127;
constexpr int kScalarOperandRegs = 128;  // s0..s127 in the operand encoding (incl. the specials above)

// Width in dwords of a special register operand: the 64-bit pairs (vcc, exec,
// flat_scratch, xnack_mask) and the 64-bit aperture values read as pairs; the rest 1.
constexpr int special_reg_dwords(SpecialReg r) {
  switch (r) {
    case SpecialReg::VCC:
    case SpecialReg::EXEC:
    case SpecialReg::FLAT_SCRATCH:
    case SpecialReg::XNACK_MASK:
    case SpecialReg::SRC_SHARED_BASE:
    case SpecialReg::SRC_SHARED_LIMIT:
    case SpecialReg::SRC_PRIVATE_BASE:
    case SpecialReg::SRC_PRIVATE_LIMIT: return 2;
    default: return 1;
  }
}

// --- Occupancy inputs ---------------------------------------------------------
constexpr int kWaveSize = 64;
constexpr int kMaxWavesPerSimd = 8;    // getMaxWavesPerEU
constexpr int kSimdsPerCu = 4;
constexpr int kVgprGranule = 8;        // getVGPRAllocGranule (gfx90a+)
constexpr int kAccumOffsetGranule = 4; // AGPRs start at accum_offset = VGPRs rounded up to 4
constexpr int kSgprsPerSimd = 800;     // getTotalNumSGPRs (gfx8+)
constexpr int kSgprGranule = 16;       // getSGPRAllocGranule (gfx8+)
constexpr int kMaxBarriersPerCu = 16;  // workgroup barrier resources per CU
constexpr uint32_t kMaxWorkgroupSize = 1024;

// The most compute units a product of the target has (the simulator's bound on resident
// workgroups): gfx942 304 (MI300X, MI325X), gfx950 256 (MI350X, MI355X); AMD's data sheets, the
// same figures as the product table runtime/model/hardware.cpp (tests/model checks they agree).
constexpr int max_compute_units(Arch a) { return a == Arch::gfx950 ? 256 : 304; }

// --- LDS ----------------------------------------------------------------------
// Per CU, which is also the most one workgroup may allocate: 64 KiB on gfx942,
// 160 KiB on gfx950 (LLVM's gfx950 CodeGen tests: "local memory (163844) exceeds
// limit (163840)"). Allocation block (COMPUTE_PGM_RSRC2.LDS_SIZE granule):
// 128 dwords on gfx942, 320 dwords on gfx950.
constexpr uint32_t lds_bytes(Arch a) { return a == Arch::gfx950 ? 160u * 1024u : 64u * 1024u; }
constexpr uint32_t lds_block_bytes(Arch a) { return a == Arch::gfx950 ? 1280u : 512u; }

// --- s_waitcnt simm16 (gfx9) ---------------------------------------------------
// vmcnt bits [3:0] and [15:14], expcnt [6:4], lgkmcnt [11:8]. A counter at its
// maximum is not waited for.
constexpr int kMaxVmcnt = 63, kMaxExpcnt = 7, kMaxLgkmcnt = 15;
constexpr int kVmcntLoShift = 0, kVmcntLoBits = 4, kVmcntHiShift = 14, kVmcntHiBits = 2;
constexpr int kExpcntShift = 4, kExpcntBits = 3;
constexpr int kLgkmcntShift = 8, kLgkmcntBits = 4;

}  // namespace cdnajit::isa::target
