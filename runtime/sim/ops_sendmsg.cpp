// s_sendmsg: a message to the SPI / host (gfx9 / CDNA message ids, SIMM16[3:0]; LLVM's SIDefines.h
// SendMsg IDs). For a compute wave the modelled messages change no state the program can observe:
// MSG_INTERRUPT (1, raises a host interrupt) and MSG_SAVEWAVE (4) and MSG_STALL_WAVE_GEN (5, scheduling
// hints) run as no-ops. The message counts on lgkmcnt like the hardware's (retired by s_waitcnt). Every
// other id (the graphics GS / GS_DONE / ORDERED_PS_DONE / EARLY_PRIM_DEALLOC / GS_ALLOC_REQ messages,
// MSG_HALT_WAVES, MSG_GET_DOORBELL / MSG_GET_DDID, which return data, MSG_SYSMSG) is an Error naming it.
#include <string>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

void register_sendmsg(Registry& r) {
  r.add(O::s_sendmsg, +[](Wave& w, const Op& op) {
    const uint32_t id = op.imm & 15;
    if (id != 1 && id != 4 && id != 5)
      fail(w, op, std::string(op.info->mnemonic) + " message id " + std::to_string(id) +
                      " is not modelled (modelled: MSG_INTERRUPT 1, MSG_SAVEWAVE 4, MSG_STALL_WAVE_GEN 5, no-ops for a compute wave)");
    pend_add(w, op, 2, 0, 0, 0);  // lgkmcnt, in order, no destination
  });
}

}  // namespace cdnajit::sim
