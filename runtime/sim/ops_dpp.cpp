// DPP (data-parallel primitives on VOP1/VOP2 src0) and ds_swizzle_b32.
#include <bit>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

// Source lane for lane l under a DPP_CTRL value; -1 when out of range.
static int dpp_source(int l, uint16_t c) {
  int row = l & ~15, in = l & 15;
  if (c <= 0xff) return (l & ~3) + ((c >> (2 * (l & 3))) & 3);  // quad_perm
  if (c >= 0x101 && c <= 0x10f) { int s = in + (c & 15); return s < 16 ? row + s : -1; }  // row_shl
  if (c >= 0x111 && c <= 0x11f) { int s = in - (c & 15); return s >= 0 ? row + s : -1; }  // row_shr
  if (c >= 0x121 && c <= 0x12f) return row + ((in - (c & 15)) & 15);                      // row_ror
  if (c == 0x130) return l + 1 < 64 ? l + 1 : -1;  // wave_shl:1
  if (c == 0x134) return (l + 1) & 63;             // wave_rol:1
  if (c == 0x138) return l >= 1 ? l - 1 : -1;      // wave_shr:1
  if (c == 0x13c) return (l - 1) & 63;             // wave_ror:1
  if (c == 0x140) return row + (15 - in);          // row_mirror
  if (c == 0x141) return row + ((in & 8) | (7 - (in & 7)));  // row_half_mirror
  if (c == 0x142) return row > 0 ? row - 1 : -1;  // row_bcast:15: lane 15 of the previous row
  if (c == 0x143) return l >= 32 ? 31 : -1;        // row_bcast:31: lane 31 to rows 2 and 3
  return -3;
}

// The permuted src0 goes to kDppScratch (which op.s[0] names); h runs with EXEC narrowed to the lanes
// DPP writes. h is op.inner, or under a non-default MODE the instruction's MODE handler (run_in_float_mode).
void dpp_run(Wave& w, const Op& op, Handler h) {
  uint64_t e = w.exec(), write = 0;
  uint32_t* scratch = w.vr(kDppScratch);
  const uint32_t* src = w.vr(op.dpp_src);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    if (!((op.row_mask >> (l >> 4)) & 1) || !((op.bank_mask >> ((l >> 2) & 3)) & 1)) continue;
    int s = dpp_source(l, op.dpp_ctrl);
    if (s == -3) fail(w, op, "DPP control " + hex(op.dpp_ctrl) + " is not implemented by the simulator");
    if (s < 0 || !((e >> s) & 1)) {
      if (!op.bound_ctrl) continue;  // lane keeps its old destination value
      scratch[l] = 0;
    } else {
      scratch[l] = src[s];
    }
    write |= 1ull << l;
  }
  w.set_exec(write);
  h(w, op);
  w.set_exec(e);
}

void dpp_exec(Wave& w, const Op& op) { dpp_run(w, op, op.inner); }

// ds_swizzle_b32 d, addr offset:N (the address operand is unused).
void ds_swizzle(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  uint32_t src[64], r[64];
  const uint32_t* in = w.vr(op.s[1].k == SrcKind::V ? op.s[1].idx : op.s[0].idx);
  for (int l = 0; l < 64; ++l) src[l] = ((e >> l) & 1) ? in[l] : 0;
  uint32_t off = uint32_t(op.offset) & 0xffff;
  for (int l = 0; l < 64; ++l) {
    int s;
    if (off & 0x8000) s = (l & ~3) | int((off >> (2 * (l & 3))) & 3);  // quad permute
    else {
      int and_m = int(off & 31), or_m = int((off >> 5) & 31), xor_m = int((off >> 10) & 31);
      s = (l & 32) | ((((l & 31) & and_m) | or_m) ^ xor_m);
    }
    r[l] = src[s];
  }
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) d[l] = r[l];
  pend_add(w, op, 2, 1, op.d[0].idx, 1);
}

}  // namespace cdnajit::sim
