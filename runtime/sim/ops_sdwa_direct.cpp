// SDWA for handlers that read their lanes directly (ops_f64.cpp, ops_dot_int.cpp, ops_vcmp_ext.cpp,
// ops_valu_bytes.cpp, ops_valu_legacy.cpp): instead of teaching each handler the selects, the
// decoder binds sdwa_direct_exec and keeps the handler in op.inner. The selects themselves are the
// generic path's (sdwa.hpp): each selected source is copied, select and sext applied, into a
// scratch row; the handler runs on a copy of the instruction that names those rows and, for a
// destination field, a scratch result row, which is then merged into the real destination.
// neg/abs stay on the copied sources, so the handler applies them after the select, as the generic
// fetch does; clamp/omod stay with the handler, which applies them to its whole result before the
// merge, as the generic store does (output_modifiers.hpp; lane_op.hpp refuses them where the result
// type leaves their meaning open). The MODE handlers of ops_rounding.cpp run their _sdwa forms the
// same way (sdwa_run_selected, from run_in_float_mode in ops_mode.cpp).
#include <cstring>

#include "runtime/sim/sdwa.hpp"

namespace cdnajit::sim {

void sdwa_run_selected(Wave& w, const Op& op, Handler inner) {
  Op x = op;
  x.fn = inner;
  x.inner = nullptr;
  x.sdwa = false;
  x.sdwa_src_sel[0] = x.sdwa_src_sel[1] = 6;
  x.sdwa_dst_sel = 6;
  x.sdwa_sext = 0;
  for (int i = 0; i < 2 && i < op.ns; ++i) {
    const Src& s = op.s[i];
    if (op.sdwa_src_sel[i] == 6) continue;
    if (s.n != 1) fail(w, op, "SDWA select on a 64-bit source is not an encoding of gfx942/gfx950");
    const bool sext = (op.sdwa_sext >> i) & 1;
    uint32_t* row = w.vr(uint16_t(kSdwaScratch + i));
    for (int l = 0; l < 64; ++l) row[l] = sdwa_extract(lane_src(w, s, l), op.sdwa_src_sel[i], sext);
    x.s[i].k = SrcKind::V;
    x.s[i].idx = uint16_t(kSdwaScratch + i);
  }
  const bool field = op.sdwa_dst_sel != 6 && op.nd >= 1 && op.d[0].k == SrcKind::V;
  const uint64_t exec = w.exec();
  if (field) {
    // Which bits of the destination an accumulating op (v_pk_fmac_f16: D = S0 * S1 + D) reads
    // under a destination field is not stated by the ISA guide: refused rather than guessed.
    if (op.info && !op.info->operands.empty() && op.info->operands[0].also_read)
      fail(w, op, "SDWA dst_sel other than DWORD on an instruction that also reads its destination is not "
                  "modelled (the ISA guide does not say which destination bits it reads); use dst_sel:DWORD");
    std::memcpy(w.vr(uint16_t(kSdwaScratch + 2)), w.vr(op.d[0].idx), 256);
    x.d[0].idx = uint16_t(kSdwaScratch + 2);
  }
  inner(w, x);
  if (field) sdwa_merge_dst(op, exec, w.vr(uint16_t(kSdwaScratch + 2)), w.vr(op.d[0].idx));
}

void sdwa_direct_exec(Wave& w, const Op& op) { sdwa_run_selected(w, op, op.inner); }

}  // namespace cdnajit::sim
