// gfx950 transposing LDS reads ds_read_b64_tr_b16 / ds_read_b64_tr_b8: every lane names 8 bytes of LDS
// (vaddr + offset) and the lanes of each group of 16 exchange them. The CDNA4 ISA guide does not print
// the lane mapping; it is taken from code that uses the instructions on MI355X:
//  - Modular's MAX kernels (structured_kernels tile_io, ds_read_tr16_b64_row): a 16-lane row reads a
//    4 x 16 tile of 16-bit elements, lane t addressing row t / 4, columns 4 (t % 4) .. + 3, "with per-lane
//    exchange so each lane gets a column of the tile" (lane i receives column i, rows 0..3 in order);
//  - the same code's FP8 V load with ds_read_b64_tr_b8 ("paired-lane addressing"): lanes 2k and 2k + 1
//    address the first and second 8 bytes of row k of an 8 x 16 tile of bytes, and after the "8x8
//    transpose" lane i holds column i.
// Both are one rule: with E = 64 / element-bits elements per lane, the 16 lanes' 8-byte chunks in lane
// order form an E x 16 row-major tile (16 / E lanes per row) and lane i of the group receives column i,
// element k (bits [k * bits, (k + 1) * bits) of its VGPR pair) from row k. ds_read_b64_tr_b4 and
// ds_read_b96_tr_b6 are not covered by that evidence and stay unimplemented.
// A group of 16 lanes must be all active or all inactive (what the hardware exchanges for an inactive
// lane is not known): a partially active group is an Error.
#include <cstring>
#include <string>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

template <int BITS>
void ds_read_b64_tr(Wave& w, const Op& op) {
  constexpr int E = 64 / BITS, lanes_per_row = 16 / E;
  constexpr uint64_t mask = (uint64_t(1) << BITS) - 1;
  const uint64_t e = w.exec();
  uint32_t* lo = w.vr(op.d[0].idx);
  uint32_t* hi = w.vr(uint16_t(op.d[0].idx + 1));
  for (int g = 0; g < 4; ++g) {
    const uint64_t group = (e >> (16 * g)) & 0xffff;
    if (!group) continue;
    if (group != 0xffff)
      fail(w, op, "transposing LDS read with lanes " + std::to_string(16 * g) + ".." + std::to_string(16 * g + 15) +
                      " partly inactive (EXEC group " + hex(group) + "): the exchange is only modelled for whole groups of 16");
    uint64_t chunk[16];
    for (int t = 0; t < 16; ++t) {
      const int l = 16 * g + t;
      const uint32_t a = lane_src(w, op.s[0], l) + uint32_t(op.offset);
      chunk[t] = 0;
      if (uint8_t* p = lds_ptr(w, op, a, 8, l)) std::memcpy(&chunk[t], p, 8);
    }
    for (int i = 0; i < 16; ++i) {
      uint64_t out = 0;
      for (int k = 0; k < E; ++k) out |= ((chunk[lanes_per_row * k + i / E] >> (BITS * (i % E))) & mask) << (BITS * k);
      lo[16 * g + i] = uint32_t(out);
      hi[16 * g + i] = uint32_t(out >> 32);
    }
  }
  mem_track(w, op, true);
}

}  // namespace

void register_ds_transpose(Registry& r) {
  r.add(O::ds_read_b64_tr_b16, &ds_read_b64_tr<16>);
  r.add(O::ds_read_b64_tr_b8, &ds_read_b64_tr<8>);
}

}  // namespace cdnajit::sim
