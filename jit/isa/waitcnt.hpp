// The gfx9 s_waitcnt immediate: vmcnt bits [3:0] + [15:14], expcnt [6:4],
// lgkmcnt [11:8]. A counter at its maximum (63 / 7 / 15) is not waited for.
#pragma once
#include <cstdint>
#include <string>

#include "jit/isa/target.hpp"

namespace cdnajit::isa {

using target::kMaxVmcnt, target::kMaxExpcnt, target::kMaxLgkmcnt;

struct WaitcntFields {
  int vmcnt = kMaxVmcnt, expcnt = kMaxExpcnt, lgkmcnt = kMaxLgkmcnt;
};

// Throws cdnajit::Error when a count is out of range; -1 means "do not wait" (maximum).
uint16_t encode_waitcnt(int vmcnt, int expcnt, int lgkmcnt);
WaitcntFields decode_waitcnt(uint16_t simm16);

// The instruction as assembly text, its mnemonic from the table: "s_waitcnt vmcnt(1) lgkmcnt(0)".
// -1 leaves a counter out; with every counter left out, the no-wait form with all three at their
// maximum. The one place messages (passes, simulator) spell a wait.
std::string waitcnt_text(int vmcnt, int expcnt, int lgkmcnt);

}  // namespace cdnajit::isa
