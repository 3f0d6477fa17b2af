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

// Why a register (or the requested bits of it) is not modelled; empty when it is.
std::string refusal(const HwReg& h) {
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
    case kLdsAlloc:
      return "not modelled: the base fields say where the wave's registers / LDS sit in the physical file (cannot be "
             "known without hardware); the size fields follow from the kernel descriptor, but their units on "
             "gfx942/gfx950 are not established from a published source (still to do)";
    case kTrapSts:
      return "not modelled (still to do): TRAPSTS.EXCP holds sticky IEEE exception flags (invalid, denormal, "
             "divide by zero, overflow, underflow, inexact, ...) that every float instruction would have to record";
    default:
      if (h.id >= kPerfSnapshotFirst && h.id <= kPerfSnapshotLast)
        return no_hw + "performance snapshots sample the hardware's counters and program counters";
      return "not a hardware register of gfx942/gfx950 that the simulator knows (LLVM 22 names ids 1-7 and 15-24)";
  }
}

uint32_t status_bits(const Wave& w) {
  return (w.scc ? kStatusScc : 0) | (w.exec() == 0 ? kStatusExecz : 0) | (w.vcc() == 0 ? kStatusVccz : 0);
}

}  // namespace

uint32_t hwreg_read(Wave& w, const Op& op) {
  const HwReg h = hwreg_of(op.imm);
  if (std::string why = refusal(h); !why.empty()) fail(w, op, "s_getreg of " + field(h) + ": " + why);
  uint32_t reg = 0;
  switch (h.id) {
    case kMode: reg = w.mode; break;
    case kStatus: reg = status_bits(w); break;
    // SH_MEM_BASES: PRIVATE_BASE [15:0] and SHARED_BASE [31:16] are the high 16 bits of the apertures'
    // upper dwords (LLVM SIDefines.h Hwreg OFFSET_SRC_PRIVATE_BASE 0 / OFFSET_SRC_SHARED_BASE 16, width 16;
    // LLVM's getSegmentAperture shifts the field left by 16 to form the aperture's high dword), here the
    // simulator's fixed apertures, the same ones src_shared_base / src_private_base read.
    case kShMemBases: reg = (kSharedApertureHi >> 16) << 16 | (kPrivateApertureHi >> 16); break;
  }
  return (reg & h.mask()) >> h.offset;
}

void hwreg_write(Wave& w, const Op& op, uint32_t value) {
  const HwReg h = hwreg_of(op.imm);
  if (h.id != kMode) {
    const std::string why = refusal(h);
    fail(w, op, "s_setreg of " + field(h) + " is not modelled (only HW_REG_MODE, id 1, is written)" +
                    (why.empty() ? std::string() : "; " + why));
  }
  set_mode(w, (w.mode & ~h.mask()) | ((value << h.offset) & h.mask()));
}

}  // namespace cdnajit::sim
