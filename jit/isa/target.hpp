// Facts about the gfx942 / gfx950 targets that more than one layer needs, one
// TargetInfo per architecture at the end: register files, reserved SGPRs, special-register numbers, LDS, allocation
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

// --- s_waitcnt simm16 (gfx9) ---------------------------------------------------
// vmcnt bits [3:0] and [15:14], expcnt [6:4], lgkmcnt [11:8]. A counter at its
// maximum is not waited for.
constexpr int kMaxVmcnt = 63, kMaxExpcnt = 7, kMaxLgkmcnt = 15;
constexpr int kVmcntLoShift = 0, kVmcntLoBits = 4, kVmcntHiShift = 14, kVmcntHiBits = 2;
constexpr int kExpcntShift = 4, kExpcntBits = 3;
constexpr int kLgkmcntShift = 8, kLgkmcntBits = 4;

// --- One description per architecture ---------------------------------------------
// The s_waitcnt simm16 field layout and counter limits as data (the constants above).
struct WaitcntLayout {
  int vmcnt_lo_shift, vmcnt_lo_bits, vmcnt_hi_shift, vmcnt_hi_bits;
  int expcnt_shift, expcnt_bits, lgkmcnt_shift, lgkmcnt_bits;
  int max_vmcnt, max_expcnt, max_lgkmcnt;
};
inline constexpr WaitcntLayout kGfx9Waitcnt{kVmcntLoShift, kVmcntLoBits, kVmcntHiShift, kVmcntHiBits, kExpcntShift,
                                            kExpcntBits,   kLgkmcntShift, kLgkmcntBits, kMaxVmcnt,     kMaxExpcnt,
                                            kMaxLgkmcnt};

// What a layer needs to know about one target. Facts the two targets share come from the
// constants above; the ones that differ are stated only in kGfx942Target / kGfx950Target below.
struct TargetInfo {
  Arch arch;
  int wave_size;
  // Register files (per lane) and their allocation granules.
  int addressable_sgprs, reserved_sgprs, vgprs, agprs, unified_vector_regs;
  int vgpr_granule, accum_offset_granule, sgprs_per_simd, sgpr_granule;
  // Occupancy inputs.
  int max_waves_per_simd, simds_per_cu, max_barriers_per_cu;
  uint32_t max_workgroup_size;
  // LDS per CU, which is also the most one workgroup may allocate, and its allocation block
  // (COMPUTE_PGM_RSRC2.LDS_SIZE granule).
  uint32_t lds_bytes, lds_block_bytes;
  // The most compute units a product of the target has (the simulator's bound on resident
  // workgroups; the product table runtime/model/hardware.cpp gives each product's own count).
  int max_compute_units;
  WaitcntLayout waitcnt;
  // Matrix and dot instructions beyond the common CDNA3 set (each instruction's own
  // availability is its ISA table row; these name the families a generator chooses between):
  // gfx950 adds the scaled f8f6f4 MFMAs, the doubled-K bf16/f16 MFMA shapes and v_dot2_f32_bf16;
  // its fp8/bf8 are the OCP formats, gfx942's the FNUZ ones.
  bool has_mfma, has_scaled_mfma, has_double_k_mfma, has_dot2_f32_bf16, fp8_is_fnuz;
};

// gfx942 (CDNA3: MI300X, MI325X): 64 KiB LDS in 128-dword blocks; 304 CUs (AMD's data sheets).
inline constexpr TargetInfo kGfx942Target{
    Arch::gfx942,      kWaveSize,       kAddressableSgprs, kReservedSgprs, kVgprs,        kAgprs,
    kUnifiedVectorRegs, kVgprGranule,   kAccumOffsetGranule, kSgprsPerSimd, kSgprGranule, kMaxWavesPerSimd,
    kSimdsPerCu,       kMaxBarriersPerCu, kMaxWorkgroupSize, 64u * 1024u,  512u,          304,
    kGfx9Waitcnt,      /*has_mfma=*/true, /*has_scaled_mfma=*/false, /*has_double_k_mfma=*/false,
    /*has_dot2_f32_bf16=*/false, /*fp8_is_fnuz=*/true};
// gfx950 (CDNA4: MI350X, MI355X): 160 KiB LDS (LLVM's gfx950 CodeGen tests: "local memory
// (163844) exceeds limit (163840)") in 320-dword blocks; 256 CUs (AMD's data sheets).
inline constexpr TargetInfo kGfx950Target{
    Arch::gfx950,      kWaveSize,       kAddressableSgprs, kReservedSgprs, kVgprs,        kAgprs,
    kUnifiedVectorRegs, kVgprGranule,   kAccumOffsetGranule, kSgprsPerSimd, kSgprGranule, kMaxWavesPerSimd,
    kSimdsPerCu,       kMaxBarriersPerCu, kMaxWorkgroupSize, 160u * 1024u, 1280u,         256,
    kGfx9Waitcnt,      /*has_mfma=*/true, /*has_scaled_mfma=*/true, /*has_double_k_mfma=*/true,
    /*has_dot2_f32_bf16=*/true, /*fp8_is_fnuz=*/false};

constexpr const TargetInfo& target_info(Arch a) { return a == Arch::gfx950 ? kGfx950Target : kGfx942Target; }

// The per-architecture facts by name (tests/model checks the product table against
// max_compute_units).
constexpr int max_compute_units(Arch a) { return target_info(a).max_compute_units; }
constexpr uint32_t lds_bytes(Arch a) { return target_info(a).lds_bytes; }
constexpr uint32_t lds_block_bytes(Arch a) { return target_info(a).lds_block_bytes; }
// The largest LDS of any target: the bound a code-object reader puts on a descriptor.
constexpr uint32_t kMaxLdsBytes =
    kGfx950Target.lds_bytes > kGfx942Target.lds_bytes ? kGfx950Target.lds_bytes : kGfx942Target.lds_bytes;

// Vector registers (VGPRs + AGPRs) a kernel descriptor allocates from its
// COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT ([5:0], gfx90a+: allocation / 8 - 1).
constexpr uint32_t descriptor_vector_regs(uint32_t rsrc1) { return ((rsrc1 & 63) + 1) * uint32_t(kVgprGranule); }

// The s_waitcnt immediate's vmcnt and lgkmcnt fields (the full decode with expcnt is
// isa::decode_waitcnt in waitcnt.hpp).
constexpr int waitcnt_vmcnt(uint32_t simm16) {
  return int(((simm16 >> kVmcntLoShift) & ((1u << kVmcntLoBits) - 1)) |
             ((simm16 >> kVmcntHiShift) & ((1u << kVmcntHiBits) - 1)) << kVmcntLoBits);
}
constexpr int waitcnt_lgkmcnt(uint32_t simm16) { return int((simm16 >> kLgkmcntShift) & ((1u << kLgkmcntBits) - 1)); }

}  // namespace cdnajit::isa::target
