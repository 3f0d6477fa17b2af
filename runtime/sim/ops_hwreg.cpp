// Hardware registers read and written by s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 (the
// hwreg operand: id [5:0], offset [10:6], size - 1 [15:11]). Each register is either modelled (its
// contents follow from the wave's state or from the simulator's own fixed choices), partly modelled
// (only some bits are knowable: reading any other bit is an Error that lists them), or refused with
// the reason. Register ids and names as LLVM 22 prints them for gfx942/gfx950 (SIDefines.h
// `Hwreg::Id`; checked with llvm-objdump-22 on s_getreg_b32 of every id).
#include <string>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

namespace {

enum HwRegId : uint32_t {
  kMode = 1, kStatus = 2, kTrapSts = 3, kHwId = 4, kGprAlloc = 5, kLdsAlloc = 6, kIbSts = 7,
  kShMemBases = 15, kTbaLo = 16, kTbaHi = 17, kTmaLo = 18, kTmaHi = 19, kXccId = 20,
  kPerfSnapshotFirst = 21, kPerfSnapshotLast = 24,  // SQ_PERF_SNAPSHOT_DATA/_DATA1/_PC_LO/_PC_HI
};

struct HwReg {
  uint32_t id, offset, size;
  uint32_t mask() const { return (size >= 32 ? ~0u : ((1u << size) - 1)) << offset; }
};
HwReg hwreg_of(uint32_t simm16) { return HwReg{simm16 & 63, (simm16 >> 6) & 31, ((simm16 >> 11) & 31) + 1}; }

std::string field(const HwReg& h) {
  return "hwreg(" + std::to_string(h.id) + ", " + std::to_string(h.offset) + ", " + std::to_string(h.size) + ")";
}

// STATUS bits that follow from the wave's architectural state (bit positions: AMD's ROCdbgapi,
// src/architecture.cpp, amdgcn_architecture_t: SQ_WAVE_STATUS_SCC_MASK 1 << 0, EXECZ 1 << 9,
// VCCZ 1 << 10, the same for every gfx9 target it supports incl. gfx942/gfx950). The others (SPI and
// user priority, PRIV, TRAP_EN, TTRACE_EN, HALT, PERF_EN, conditional-debug and replay bits, ...)
// are set by the dispatcher, the driver or a debugger, which the simulator does not stand in for.
constexpr uint32_t kStatusScc = 1u << 0, kStatusExecz = 1u << 9, kStatusVccz = 1u << 10;
constexpr uint32_t kStatusKnown = kStatusScc | kStatusExecz | kStatusVccz;

// GPR_ALLOC and LDS_ALLOC size fields on gfx942/gfx950, as the Linux kernel's context-save trap handler
// for these targets reads them (drivers/gpu/drm/amd/amdkfd/cwsr_trap_handler_gfx9.asm, the
// `ASIC_FAMILY >= CHIP_ALDEBARAN` and `>= CHIP_GC_9_5_0` variants, which cover gfx942 and gfx950):
//  GPR_ALLOC.VGPR_SIZE   bits [11:6]:  the wave's VGPRs, architectural and accumulation together,
//                                      are (VGPR_SIZE + 1) * 8 (get_num_acc_vgprs);
//  GPR_ALLOC.ACCV_OFFSET bits [17:12]: the architectural VGPRs are (ACCV_OFFSET + 1) * 4 (get_num_arch_vgprs);
//  GPR_ALLOC.SGPR_SIZE   bits [26:24]: the SGPRs are (SGPR_SIZE + 1) * 16 (get_sgpr_size_bytes; the handler
//                                      reads 3 bits, "SQ programming guide has 3 bits");
//  LDS_ALLOC.LDS_SIZE    bits [20:12] (gfx942, 9 bits) / [22:12] (gfx950, 11 bits) in 256-byte units
//                                      (get_lds_size_bytes: "SQ LDS granularity is 64DW").
// ROCdbgapi (src/architecture.cpp, gfx90a_t::cwsr_record_t) decodes the wave's allocation with the same
// units: VGPR blocks of 8, accumulation offset in blocks of 4, SGPR blocks of 16 less one block for the
// trap temporaries, which the handler saves apart; so SGPR_SIZE counts the program's SGPRs only. The other
// bits (VGPR_BASE [5:0], SGPR_BASE, LDS_BASE and bits whose gfx942/gfx950 layout is not published) are not
// modelled.
constexpr uint32_t bit_field(uint32_t offset, uint32_t width) { return ((1u << width) - 1) << offset; }
constexpr uint32_t kGprVgprSizeShift = 6, kGprAccvOffsetShift = 12, kGprSgprSizeShift = 24;
constexpr uint32_t kGprAllocKnown =
    bit_field(kGprVgprSizeShift, 6) | bit_field(kGprAccvOffsetShift, 6) | bit_field(kGprSgprSizeShift, 3);
constexpr uint32_t kLdsSizeShift = 12;
uint32_t lds_alloc_known(Arch arch) { return bit_field(kLdsSizeShift, arch == Arch::gfx950 ? 11 : 9); }

// The wave's allocation follows from the kernel descriptor, whose fields use the same granules:
// rsrc1 GRANULATED_WORKITEM_VGPR_COUNT [5:0] is (VGPRs incl. AGPRs) / 8 - 1 on gfx90a+ and rsrc3
// ACCUM_OFFSET [5:0] is accum_offset / 4 - 1 (LLVM AMDGPUUsage, kernel descriptor tables). rsrc1
// GRANULATED_WAVEFRONT_SGPR_COUNT [9:6] counts 8-SGPR units while gfx9 allocates 16 at a time; AMD's HIP
// runtime (getGprsLdsUsage) turns it into ((field >> 1) + 1) * 16 SGPRs, i.e. the request rounded up to 16,
// which both encodings in use give (LLVM 22 writes 5 for 48 SGPRs, AMDGPUUsage's formula 4).
uint32_t gpr_alloc(const KernelInfo& k) {
  const uint32_t vgpr_size = k.rsrc1 & 63, accv_offset = k.rsrc3 & 63, sgpr_size = ((k.rsrc1 >> 6) & 15) >> 1;
  return vgpr_size << kGprVgprSizeShift | accv_offset << kGprAccvOffsetShift | sgpr_size << kGprSgprSizeShift;
}

// LDS is allocated for the dispatch's group segment (static + dynamic bytes; the descriptor's rsrc2 LDS_SIZE
// is 0 and the packet processor uses the dispatch packet's size, LLVM AMDGPUUsage) in blocks of 512 bytes on
// gfx942 and 1280 bytes on gfx950 (Linux commit "drm/amdkfd: Handle save/restore of lds allocated in 1280B
// blocks": "gfx-950 allocates LDS in chunks of 1280 bytes"; before it every target's size was a multiple of
// 512 bytes). LDS_SIZE reports the allocation in 256-byte units.
uint32_t lds_alloc(const Wave& w) {
  const uint32_t block = isa::target::lds_block_bytes(w.L->arch);
  const uint32_t blocks = (w.lds_size + block - 1) / block;
  return (blocks * (block / 256)) << kLdsSizeShift;
}

// Why a register (or the requested bits of it) is not modelled; empty when it is.
std::string refusal(const HwReg& h, Arch arch) {
  const std::string no_hw = "cannot be known without hardware: ";
  switch (h.id) {
    case kMode: return "";
    case kStatus:
      if ((h.mask() & ~kStatusKnown) == 0) return "";
      return no_hw + "STATUS bits other than SCC (bit 0), EXECZ (bit 9) and VCCZ (bit 10) report priorities, "
             "privilege, trap, debug and replay state that the dispatcher, driver and debugger set on a real "
             "device; read those three bits one at a time (e.g. hwreg(HW_REG_STATUS, 9, 1))";
    case kShMemBases: return "";
    case kHwId:
    case kXccId: return no_hw + "it reports where the wave runs (wave slot, SIMD, CU, shader engine, XCC)";
    case kIbSts:
      return no_hw + "IB_STS counts the wave's outstanding memory and VALU instructions, which depends on how "
             "fast each access returns";
    case kTbaLo: case kTbaHi: case kTmaLo: case kTmaHi:
      return no_hw + "the trap handler's base and memory addresses are set by the driver";
    case kGprAlloc:
      if ((h.mask() & ~kGprAllocKnown) == 0) return "";
      return no_hw + "GPR_ALLOC's VGPR_BASE (bits 0-5) and SGPR_BASE say where the wave's registers sit in the "
             "physical register file, and the layout of its other bits on gfx942/gfx950 is not published; read the "
             "size fields VGPR_SIZE (bits 6-11), ACCV_OFFSET (bits 12-17) or SGPR_SIZE (bits 24-26), e.g. "
             "hwreg(HW_REG_GPR_ALLOC, 6, 6)";
    case kLdsAlloc:
      if ((h.mask() & ~lds_alloc_known(arch)) == 0) return "";
      return no_hw + "LDS_ALLOC's LDS_BASE says where the workgroup's LDS sits in the CU's LDS; read only the "
             "LDS_SIZE field, hwreg(HW_REG_LDS_ALLOC, 12, " + std::to_string(arch == Arch::gfx950 ? 11 : 9) + ")";
    // TRAPSTS (layout: ROCdbgapi src/architecture.cpp, sq_wave_trapsts_*): EXCP[5:0] are sticky float
    // exception flags, accumulated whatever MODE.EXCP_EN says (the ISA guides' TRAPSTS table). The guides
    // define each flag only in IEEE terms ("one or more operands was subnormal"; underflow when "the exact or
    // rounded result" is below the smallest normal) and do not say per instruction which ones record them,
    // so a model would guess for every float instruction. The other bits are set by faults (MEM_VIOL,
    // ILLEGAL_INST, XNACK_ERROR: with no trap handler the wave runs on with them set), by the debugger's
    // address watches, by context save / host traps, or report chip configuration (DP_RATE).
    case kTrapSts:
      return no_hw + "TRAPSTS.EXCP[5:0] are sticky IEEE flags (invalid, input denormal, divide by zero, overflow, "
             "underflow, inexact) that no published source defines per instruction: which instructions record "
             "them (MFMA, dot products, the approximate v_rcp/v_rsq/v_sqrt/v_exp/v_log, conversions), whether a "
             "denormal input that MODE flushes counts, and whether underflow is detected before or after rounding; "
             "its other bits report faults, address watches, context saves and chip configuration that the trap "
             "handler, debugger or driver set";
    default:
      if (h.id >= kPerfSnapshotFirst && h.id <= kPerfSnapshotLast)
        return no_hw + "performance snapshots sample the hardware's counters and program counters";
      if (h.id == 29 || h.id == 30)  // LLVM 22's llvm-mc: hwreg(HW_REG_SHADER_CYCLES) "not supported on this GPU"
        return "SHADER_CYCLES (ids 29-30) is a gfx10.3-and-later register that gfx942/gfx950 do not have (LLVM 22 "
               "rejects hwreg(HW_REG_SHADER_CYCLES) for them); their cycle counter is s_memtime (HIP's clock64())";
      return "not a hardware register of gfx942/gfx950 that the simulator knows (LLVM 22 names ids 1-7 and 15-24)";
  }
}

uint32_t status_bits(const Wave& w) {
  return (w.scc ? kStatusScc : 0) | (w.exec() == 0 ? kStatusExecz : 0) | (w.vcc() == 0 ? kStatusVccz : 0);
}

}  // namespace

uint32_t hwreg_read(Wave& w, const Op& op) {
  const HwReg h = hwreg_of(op.imm);
  if (std::string why = refusal(h, w.L->arch); !why.empty()) fail(w, op, std::string(op.info->mnemonic) + " of " + field(h) + ": " + why);
  uint32_t reg = 0;
  switch (h.id) {
    case kMode: reg = w.mode; break;
    case kStatus: reg = status_bits(w); break;
    // SH_MEM_BASES: PRIVATE_BASE [15:0] and SHARED_BASE [31:16] are the high 16 bits of the apertures'
    // upper dwords (LLVM SIDefines.h Hwreg OFFSET_SRC_PRIVATE_BASE 0 / OFFSET_SRC_SHARED_BASE 16, width 16;
    // LLVM's getSegmentAperture shifts the field left by 16 to form the aperture's high dword), here the
    // simulator's fixed apertures, the same ones src_shared_base / src_private_base read.
    case kShMemBases: reg = (kSharedApertureHi >> 16) << 16 | (kPrivateApertureHi >> 16); break;
    case kGprAlloc: reg = gpr_alloc(w.L->dk->info); break;
    case kLdsAlloc: reg = lds_alloc(w); break;
  }
  return (reg & h.mask()) >> h.offset;
}

void hwreg_write(Wave& w, const Op& op, uint32_t value) {
  const HwReg h = hwreg_of(op.imm);
  if (h.id != kMode) {
    const std::string why = refusal(h, w.L->arch);
    fail(w, op, std::string(op.info->mnemonic) + " of " + field(h) + " is not modelled (only HW_REG_MODE, id 1, is written)" +
                    (why.empty() ? std::string() : "; " + why));
  }
  set_mode(w, (w.mode & ~h.mask()) | ((value << h.offset) & h.mask()));
}

}  // namespace cdnajit::sim
