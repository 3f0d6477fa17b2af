// The MODE hardware register: s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 (the hwreg fields
// themselves, MODE and the other registers, are in ops_hwreg.cpp), and set_mode, which derives the
// per-wave round and denormal flags the VALU handlers read.
#include "runtime/sim/sdwa.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

namespace {

}  // namespace

void set_mode(Wave& w, uint32_t mode) {
  w.mode = mode;
  const uint32_t d32 = (mode >> 4) & 3, d64 = (mode >> 6) & 3;
  w.flush_in_f32 = d32 == 0 || d32 == 2;
  w.flush_out_f32 = d32 == 0 || d32 == 1;
  w.flush_in_f16_64 = d64 == 0 || d64 == 2;
  w.flush_out_f16_64 = d64 == 0 || d64 == 1;
  w.dx10_clamp = (mode >> 8) & 1;
  w.round_f32 = uint8_t(mode & 3);
  w.round_f16_64 = uint8_t((mode >> 2) & 3);
  w.nondefault_mode = w.round_f32 != 0 || w.round_f16_64 != 0 || d64 != 3 || (mode & kModeGprIdxEn) != 0;
}

void run_in_mode(Wave& w, const Op& op) {
  if (w.mode & kModeGprIdxEn) {  // VGPR indexing mode: VALU operands are offset; others as usual
    if (op.unit == isa::Unit::VALU || op.unit == isa::Unit::MFMA) return run_gpr_indexed(w, op);
  }
  run_in_float_mode(w, op);
}

void run_in_float_mode(Wave& w, const Op& op) {
  if (w.round_f32 == 0 && w.round_f16_64 == 0 && ((w.mode >> 6) & 3) == 3) return op.fn(w, op);
  if (op.moded) {
    if (op.sdwa) return sdwa_run_selected(w, op, op.moded);  // selects around it
    if (op.fn == &dpp_exec) return dpp_run(w, op, op.moded);  // on the permuted src0, the lanes DPP writes
    return op.moded(w, op);
  }
  if (op.ft == FType::Int || op.mode_free) return op.fn(w, op);
  fail(w, op, "MODE is not the default (f32 round mode " + std::to_string(w.round_f32) + ", f16/f64 round mode " +
                  std::to_string(w.round_f16_64) + ", f16/f64 denorm mode " + std::to_string((w.mode >> 6) & 3) +
                  ") and the simulator does not model this instruction under it: its behaviour under a non-default MODE "
                  "is not published (tests/isa/llvm_coverage_sim_mode_not_yet.txt lists each such instruction with "
                  "the reason); valid: the default MODE (s_setreg back to round to nearest even with f16/f64 denormals kept)");
}

void register_mode(Registry& r) {
  r.add(O::s_getreg_b32, +[](Wave& w, const Op& op) { write_s32(w, op.d[0], hwreg_read(w, op)); });
  // s_setreg_b32 hwreg, sN: the low `size` bits of sN go to the field.
  r.add(O::s_setreg_b32, +[](Wave& w, const Op& op) { hwreg_write(w, op, read_s32(w, op.s[op.ns - 1])); });
  // s_setreg_imm32_b32 hwreg, literal.
  r.add(O::s_setreg_imm32_b32, +[](Wave& w, const Op& op) { hwreg_write(w, op, read_s32(w, op.s[op.ns - 1])); });
}

}  // namespace cdnajit::sim
