// SDWA (sub-dword addressing, VOP1/VOP2/VOPC _sdwa forms): the source select and the destination
// field merge, shared by the generic fetch/store path (ops_valu.cpp) and by the adapter that runs
// a handler reading its lanes directly on selected copies of its sources (ops_sdwa_direct.cpp).
// Fields as in AMD's CDNA3 ISA guide, "SDWA" (VOP_SDWA): SRC0_SEL / SRC1_SEL / DST_SEL pick
// BYTE_0..3 (0..3), WORD_0/1 (4/5) or DWORD (6); SEXT sign-extends a selected source; DST_UNUSED
// fills the bits outside the destination field with zeros (PAD), the field's sign bit (SEXT) or
// keeps them (PRESERVE).
#pragma once
#include <cstdint>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

// The selected byte/word of a 32-bit source, zero- or (sext) sign-extended; DWORD returns v.
inline uint32_t sdwa_extract(uint32_t v, uint8_t sel, bool sext) {
  switch (sel) {
    case 0: case 1: case 2: case 3: { uint32_t b = (v >> (8 * sel)) & 0xff; return sext ? uint32_t(int32_t(int8_t(b))) : b; }
    case 4: case 5: { uint32_t h = (v >> (16 * (sel - 4))) & 0xffff; return sext ? uint32_t(int32_t(int16_t(h))) : h; }
    default: return v;
  }
}

// Writes the low bits of each active lane's result r into op's destination field of dst
// (op.sdwa with dst_sel != DWORD), the other bits per dst_unused.
inline void sdwa_merge_dst(const Op& op, uint64_t exec, const uint32_t* r, uint32_t* dst) {
  const uint8_t sel = op.sdwa_dst_sel;
  const uint32_t sh = sel < 4 ? 8 * sel : 16 * (sel - 4), bits = sel < 4 ? 8 : 16;
  const uint32_t mask = ((1u << bits) - 1) << sh;
  for (int l = 0; l < 64; ++l) {
    if (!((exec >> l) & 1)) continue;
    uint32_t v = (r[l] << sh) & mask;
    if (op.sdwa_dst_unused == 2) v |= dst[l] & ~mask;  // UNUSED_PRESERVE
    // UNUSED_SEXT: the bits above the field repeat its sign bit (the bits below stay zero).
    if (op.sdwa_dst_unused == 1 && sh + bits < 32 && ((v >> (sh + bits - 1)) & 1)) v |= ~0u << (sh + bits);
    dst[l] = v;
  }
}

// Handler of an _sdwa instruction whose semantics read lanes directly (op.inner): runs op.inner
// with SDWA-selected copies of sources 0/1 and, for a destination field, merges its result.
void sdwa_direct_exec(Wave& w, const Op& op);
// The same around any handler: runs `inner` on SDWA-selected copies of op's sources 0/1 and merges
// its result into op's destination field (the MODE handlers' _sdwa forms, ops_mode.cpp).
void sdwa_run_selected(Wave& w, const Op& op, Handler inner);

}  // namespace cdnajit::sim
