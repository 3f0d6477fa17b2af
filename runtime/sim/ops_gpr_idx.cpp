// VGPR indexing mode (gfx9 / CDNA): the index and the operand-select bits live in M0 (M0[7:0] the
// index, M0[15:12] which of SRC0, SRC1, SRC2, DST it offsets: bits 0..3, LLVM's gpr_idx(SRC0,SRC1,SRC2,DST)),
// and MODE.GPR_IDX_EN (MODE bit 27) turns the offsetting of VALU VGPR operands on (AMD "Vega" / CDNA3
// ISA guides, S_SET_GPR_IDX_*: ON writes M0[7:0] = S0[7:0] and M0[15:12] = SIMM4 and sets GPR_IDX_EN,
// IDX writes M0[7:0], MODE writes M0[15:12], OFF clears GPR_IDX_EN).
// While GPR_IDX_EN is set the wave runs through run_in_mode (ops_mode.cpp), which sends VALU and MFMA
// instructions here. Modelled for every vector ALU instruction, one operand path for all handlers:
// the instruction's operands are mapped to the encoding's slots by the ISA table's operand names
// (src0/src1/src2 -> SRC0..2, vdst -> DST, so v_fmamk's "src0, k, src1" offsets src1 under SRC1),
// and each enabled slot that names a VGPR is offset by M0[7:0] (a 64-bit operand as a whole: its
// first register). SGPRs, constants and literals are never offset. The offset register must stay
// inside the VGPRs the descriptor allocates (an Error otherwise: the guides do not say what the
// hardware reads there). Errors instead of guesses: MFMA (whether its operands are offset is not
// established here), AGPR operands, and VGPR operands whose slot the table does not name
// (e.g. the scale operand of v_cvt_scalef32_*). DPP offsets the permuted source register, SDWA
// selects from the offset register. The wait-count check (Options::check_waitcnt) runs on the
// offset registers (for VALU under the mode it runs here instead of before dispatch).
#include <string>
#include <string_view>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

void run_gpr_indexed(Wave& w, const Op& op) {
  const uint32_t idx = w.s[kM0] & 0xffu, sel = (w.s[kM0] >> 12) & 15u;
  const std::string mode = "VGPR indexing mode is on (s_set_gpr_idx_on, M0 index " + std::to_string(idx) + ")";
  if (op.unit != isa::Unit::VALU || !op.info)
    fail(w, op, mode + ": the simulator models it for vector ALU instructions only (whether MFMA operands are offset is not established)");
  const KernelInfo& k = w.L->dk->info;
  const uint32_t total = isa::target::descriptor_vector_regs(k.rsrc1), vlimit = std::min<uint32_t>(k.accum_offset ? k.accum_offset : total, 256);
  const auto& specs = op.info->operands;
  if (size_t(op.nd) + op.ns > specs.size()) fail(w, op, mode + ": operands do not match the instruction table's row");
  Op x = op;
  const bool dpp = op.inner && op.s[0].idx == kDppScratch;
  auto shift = [&](uint16_t& reg, uint8_t n, size_t spec) {
    const int slot = isa::gpr_idx_slot(specs[spec]);
    if (slot < 0)
      fail(w, op, mode + ": operand '" + std::string(specs[spec].name) + "' is a VGPR the simulator cannot map to a SRC0/SRC1/SRC2/DST slot");
    if (!((sel >> slot) & 1)) return;
    if (reg >= 256) fail(w, op, mode + ": AGPR operands under VGPR indexing are not modelled");
    const uint32_t r = reg + idx;
    if (r + n > vlimit)
      fail(w, op, "VGPR indexing: v" + std::to_string(reg) + " + M0 index " + std::to_string(idx) + " is beyond the " +
                      std::to_string(vlimit) + " VGPRs the descriptor allocates");
    reg = uint16_t(r);
  };
  for (int j = 0; j < op.nd; ++j)
    if (x.d[j].k == SrcKind::V) shift(x.d[j].idx, x.d[j].n, size_t(j));
  for (int j = 0; j < op.ns; ++j) {
    if (dpp && j == 0) shift(x.dpp_src, x.s[0].n, size_t(op.nd));  // the register(s) DPP permutes
    else if (x.s[j].k == SrcKind::V) shift(x.s[j].idx, x.s[j].n, size_t(op.nd + j));
  }
  if (w.L->opt.check_waitcnt && !w.pend.empty()) {
    x.vmask = 0;
    auto add = [&](const Src& s) {
      if (s.k == SrcKind::V) for (int r = s.idx; r < s.idx + s.n; ++r) x.vmask |= 1ull << (r & 63);
    };
    for (int j = 0; j < x.nd; ++j) add(x.d[j]);
    for (int j = 0; j < x.ns; ++j) add(x.s[j]);
    Op checked = x;
    if (dpp) {
      checked.s[0].idx = x.dpp_src;
      for (int r = x.dpp_src; r < x.dpp_src + x.s[0].n; ++r) checked.vmask |= 1ull << (r & 63);
    }
    check_pending(w, checked);
  }
  run_in_float_mode(w, x);
}

void register_gpr_idx(Registry& r) {
  // s_set_gpr_idx_on s0, gpr_idx(...): operand 1 is the 4-bit mode (an immediate in the SOPC encoding's SSRC1).
  r.add(O::s_set_gpr_idx_on, +[](Wave& w, const Op& op) {
    w.s[kM0] = (w.s[kM0] & ~0xf0ffu) | (read_s32(w, op.s[0]) & 0xffu) | (uint32_t(op.s[1].val & 15u) << 12);
    set_mode(w, w.mode | kModeGprIdxEn);
  });
  r.add(O::s_set_gpr_idx_idx, +[](Wave& w, const Op& op) { w.s[kM0] = (w.s[kM0] & ~0xffu) | (read_s32(w, op.s[0]) & 0xffu); });
  r.add(O::s_set_gpr_idx_mode, +[](Wave& w, const Op& op) { w.s[kM0] = (w.s[kM0] & ~0xf000u) | ((op.imm & 15u) << 12); });
  r.add(O::s_set_gpr_idx_off, +[](Wave& w, const Op&) { set_mode(w, w.mode & ~kModeGprIdxEn); });
}

}  // namespace cdnajit::sim
