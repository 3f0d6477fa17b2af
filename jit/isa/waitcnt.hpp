// The gfx9 s_waitcnt immediate: vmcnt bits [3:0] + [15:14], expcnt [6:4],
// lgkmcnt [11:8]. A counter at its maximum (63 / 7 / 15) is not waited for.
#pragma once
#include <cstdint>

#include "jit/isa/target.hpp"

namespace cdnajit::isa {

using target::kMaxVmcnt, target::kMaxExpcnt, target::kMaxLgkmcnt;

struct WaitcntFields {
  int vmcnt = kMaxVmcnt, expcnt = kMaxExpcnt, lgkmcnt = kMaxLgkmcnt;
};

// Throws cdnajit::Error when a count is out of range; -1 means "do not wait" (maximum).
uint16_t encode_waitcnt(int vmcnt, int expcnt, int lgkmcnt);
WaitcntFields decode_waitcnt(uint16_t simm16);

}  // namespace cdnajit::isa
