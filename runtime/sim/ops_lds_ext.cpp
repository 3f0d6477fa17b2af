// LDS instructions whose address does not come from a per-lane VGPR, or that write
// conditionally: ds_append / ds_consume (one counter per wave), ds_read_addtid_b32 /
// ds_write_addtid_b32 (lane-indexed), ds_condxchg32_rtn_b64. Semantics from the LDS
// instruction descriptions of AMD's CDNA3/CDNA4 ISA reference guides ("LDS Instructions").
#include <bit>
#include <cstdint>
#include <cstring>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

// ds_append / ds_consume vdst [offset:N]: add (append) or subtract (consume) the number of
// active lanes to/from the dword at M0 + offset, once for the wave; every active lane receives
// the value before the operation. The guides place the LDS counter "at instr_offset" and mention
// M0.base only for GDS; LLVM 22 passes the LDS address in M0 (s_mov_b32 m0, <ptr> before
// ds_append, offset:0 for __builtin_amdgcn_ds_append(p)), which is followed here.
template <bool consume>
void ds_append_consume(Wave& w, const Op& op) {
  const uint64_t e = w.exec();
  if (!e) return;
  const uint32_t addr = w.s[kM0] + uint32_t(op.offset);
  const int first = std::countr_zero(e);
  uint8_t* p = lds_ptr(w, op, addr, 4, first);
  if (!p) return;
  uint32_t old;
  std::memcpy(&old, p, 4);
  const uint32_t n = uint32_t(std::popcount(e)), now = consume ? old - n : old + n;
  std::memcpy(p, &now, 4);
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) d[l] = old;
  mem_track(w, op, true);
}

// ds_read_addtid_b32 vdst / ds_write_addtid_b32 data: lane l accesses M0[15:0] + offset + 4 * l.
uint32_t addtid_addr(const Wave& w, const Op& op, int l) { return (w.s[kM0] & 0xffff) + uint32_t(op.offset) + 4u * uint32_t(l); }
void ds_read_addtid(Wave& w, const Op& op) {
  const uint64_t e = w.exec();
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    const uint32_t a = addtid_addr(w, op, l);
    if (uint8_t* p = lds_ptr(w, op, a, 4, l)) std::memcpy(&d[l], p, 4);
  }
  mem_track(w, op, true);
}
void ds_write_addtid(Wave& w, const Op& op) {
  const uint64_t e = w.exec();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    const uint32_t v = lane_src(w, op.s[0], l);
    if (uint8_t* p = lds_ptr(w, op, addtid_addr(w, op, l), 4, l)) std::memcpy(p, &v, 4);
  }
  mem_track(w, op, false);
}

// ds_condxchg32_rtn_b64 vdst[2], addr, data[2]: at a = (addr + offset) & 0xfff8, for k = 0, 1:
// return the dword at a + 4k, and when bit 31 of data dword k is set, store that dword with bit
// 31 cleared. (The guide masks the address to 16 bits, as written.)
void ds_condxchg32(Wave& w, const Op& op) {
  const uint64_t e = w.exec();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    const uint32_t a = (lane_src(w, op.s[0], l) + uint32_t(op.offset)) & 0xfff8u;
    uint8_t* p = lds_ptr(w, op, a, 8, l);
    if (!p) continue;
    uint32_t old[2];
    std::memcpy(old, p, 8);
    for (int k = 0; k < 2; ++k) {
      const uint32_t data = lane_src(w, op.s[1], l, k);
      if (data >> 31) {
        const uint32_t v = data & 0x7fffffffu;
        std::memcpy(p + 4 * k, &v, 4);
      }
      w.vr(uint16_t(op.d[0].idx + k))[l] = old[k];
    }
  }
  mem_track(w, op, true);
}

}  // namespace

void register_lds_ext(Registry& r) {
  auto add = [&](O n, Handler h, uint32_t bytes) {
    if (!r.has(n)) r.add(n, h, FType::Int, bytes);
  };
  add(O::ds_append, &ds_append_consume<false>, 4);
  add(O::ds_consume, &ds_append_consume<true>, 4);
  add(O::ds_read_addtid_b32, &ds_read_addtid, 4);
  add(O::ds_write_addtid_b32, &ds_write_addtid, 4);
  add(O::ds_condxchg32_rtn_b64, &ds_condxchg32, 8);
}

}  // namespace cdnajit::sim
