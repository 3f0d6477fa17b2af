// VGPR indexing mode (gfx9 / CDNA): the index and the operand-select bits live in M0 (M0[7:0] the
// index, M0[15:12] which of SRC0, SRC1, SRC2, DST it offsets: bits 0..3, LLVM's gpr_idx(SRC0,SRC1,SRC2,DST)),
// and MODE.GPR_IDX_EN (MODE bit 27) turns the offsetting of VALU VGPR operands on (AMD "Vega" / CDNA3
// ISA guides, S_SET_GPR_IDX_*: ON writes M0[7:0] = S0[7:0] and M0[15:12] = SIMM4 and sets GPR_IDX_EN,
// IDX writes M0[7:0], MODE writes M0[15:12], OFF clears GPR_IDX_EN).
// While GPR_IDX_EN is set the wave runs through run_in_mode (ops_mode.cpp), which sends VALU and MFMA
// instructions here. Modelled: v_mov_b32 (e32/e64, not SDWA/DPP) with a VGPR source and destination:
// the enabled operands are offset by M0[7:0] and must stay inside the VGPRs the descriptor allocates.
// Every other VALU/MFMA instruction under the mode is an Error (not a guess); scalar and memory
// instructions are not indexed and run as usual. Not checked: wait counts on the offset registers.
#include <string>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

void run_gpr_indexed(Wave& w, const Op& op) {
  static const size_t mov = Registry::opcode_of("v_mov_b32");
  const uint32_t idx = w.s[kM0] & 0xffu, sel = (w.s[kM0] >> 12) & 15u;
  if (!op.info || size_t(isa::opcode_of(*op.info)) != mov || op.sdwa || op.inner || op.ns != 1 || op.nd != 1 ||
      op.d[0].k != SrcKind::V || op.d[0].idx >= 256)
    fail(w, op, "VGPR indexing mode is on (s_set_gpr_idx_on, M0 index " + std::to_string(idx) +
                    "): the simulator models it for v_mov_b32 with VGPR operands only");
  const KernelInfo& k = w.L->dk->info;
  const uint32_t total = ((k.rsrc1 & 63) + 1) * 8, vlimit = std::min<uint32_t>(k.accum_offset ? k.accum_offset : total, 256);
  Op x = op;
  auto shift = [&](Src& s, const char* what) {
    if (s.k != SrcKind::V) return;
    s.idx = uint16_t(s.idx + idx);
    if (s.idx >= vlimit)
      fail(w, op, std::string("VGPR indexing: the ") + what + " v" + std::to_string(s.idx - idx) + " + M0 index " +
                      std::to_string(idx) + " is beyond the " + std::to_string(vlimit) + " VGPRs the descriptor allocates");
  };
  if (sel & 1) shift(x.s[0], "source");
  if (sel & 8) shift(x.d[0], "destination");
  x.fn(w, x);
}

void register_gpr_idx(Registry& r) {
  using U = isa::Unit;
  // s_set_gpr_idx_on s0, gpr_idx(...): operand 1 is the 4-bit mode (an immediate in the SOPC encoding's SSRC1).
  r.add("s_set_gpr_idx_on", +[](Wave& w, const Op& op) {
    w.s[kM0] = (w.s[kM0] & ~0xf0ffu) | (read_s32(w, op.s[0]) & 0xffu) | (uint32_t(op.s[1].val & 15u) << 12);
    set_mode(w, w.mode | kModeGprIdxEn);
  }, U::SALU);
  r.add("s_set_gpr_idx_idx", +[](Wave& w, const Op& op) { w.s[kM0] = (w.s[kM0] & ~0xffu) | (read_s32(w, op.s[0]) & 0xffu); }, U::SALU);
  r.add("s_set_gpr_idx_mode", +[](Wave& w, const Op& op) { w.s[kM0] = (w.s[kM0] & ~0xf000u) | ((op.imm & 15u) << 12); }, U::SALU);
  r.add("s_set_gpr_idx_off", +[](Wave& w, const Op&) { set_mode(w, w.mode & ~kModeGprIdxEn); }, U::SALU);
}

}  // namespace cdnajit::sim
