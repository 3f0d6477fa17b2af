// VGPR indexing mode (gfx9 / CDNA): the index and the operand-select bits live in M0 (M0[7:0] the
// index, M0[15:12] which of SRC0, SRC1, SRC2, DST it offsets), MODE.gpr_idx_en turns the offsetting of
// VALU operands on (AMD "Vega" / CDNA3 ISA guides, S_SET_GPR_IDX_*: IDX writes M0[7:0] = S0[7:0], MODE
// writes M0[15:12] = SIMM16[3:0], OFF clears MODE.gpr_idx_en, ON does both writes and sets it).
// Modelled: the M0 writes of s_set_gpr_idx_idx / s_set_gpr_idx_mode and s_set_gpr_idx_off. Not modelled:
// s_set_gpr_idx_on (it would make VALU instructions address registers through M0, which the simulator's
// pre-decoded operands do not do); it stays unimplemented, so the mode is never on here and _off
// has nothing to clear.
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

void register_gpr_idx(Registry& r) {
  using U = isa::Unit;
  r.add("s_set_gpr_idx_idx", +[](Wave& w, const Op& op) { w.s[kM0] = (w.s[kM0] & ~0xffu) | (read_s32(w, op.s[0]) & 0xffu); }, U::SALU);
  r.add("s_set_gpr_idx_mode", +[](Wave& w, const Op& op) { w.s[kM0] = (w.s[kM0] & ~0xf000u) | ((op.imm & 15u) << 12); }, U::SALU);
  r.add("s_set_gpr_idx_off", +[](Wave&, const Op&) {}, U::SALU);
}

}  // namespace cdnajit::sim
