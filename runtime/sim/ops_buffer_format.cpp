// Formatted buffer access: buffer_load/store_format_* (MUBUF, format from the V#), tbuffer_load/
// store_format_* (MTBUF, format from the instruction's format: field), and their d16 forms.
//
// One element = the components of DATA_FORMAT, each of NUM_FORMAT (gfx9 / CDNA buffer resource layout,
// AMD's CDNA3 ISA reference "Vector Memory Buffer Instructions"): the V#'s word3 [18:15] / [14:12] for
// MUBUF, the MTBUF encoding's DFMT (word0 [22:19]) / NFMT ([25:23]) for tbuffer (the decoder puts
// dfmt | nfmt << 4 in Op::imm; LLVM prints it as format:[BUF_DATA_FORMAT_*,BUF_NUM_FORMAT_*] and omits
// the default 8 / UNORM). DATA_FORMAT: 1 8, 2 16, 3 8_8, 4 32, 5 16_16, 10 8_8_8_8, 11 32_32, 12
// 16_16_16_16, 13 32_32_32, 14 32_32_32_32; NUM_FORMAT: 4 UINT, 5 SINT, 7 FLOAT.
// Modelled (anything else is an Error naming the format, never a guess):
//   loads, 32-bit results: 32-bit components copied; 8/16-bit UINT/SINT zero/sign-extended; 16-bit
//     FLOAT converted to f32 (exact);
//   loads, d16 (packed: component c in VGPR c / 2, half c % 2; d16_x and d16_xyz keep the untouched
//     half of their last VGPR, d16_hi_x writes the high half and keeps the low one): 16-bit components
//     copied, 8-bit UINT/SINT zero/sign-extended to 16 bits;
//   stores: 32-bit components (non-d16) and 16-bit components (d16) copied; the conversions a narrower
//     store would need (clamping or rounding) are not documented precisely enough and are refused.
// Components the format lacks read as 0, and w as 1 (1.0 for FLOAT). DST_SEL (V# word3 [11:0]) must be
// the identity (x, y, z, w) for both encodings; anything else fails rather than guessing (whether MTBUF
// honours the V#'s DST_SEL is not stated in the CDNA3 guide). Addressing and the num_records range rule
// are the MUBUF ones (mem_buffer_addr, ops_mem.cpp) with the element's bytes as the access size.
#include <algorithm>
#include <string>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

// aux: 4 x the components the instruction moves (low 8 bits), and these flags.
enum : uint32_t { kD16 = 0x100, kD16Hi = 0x200, kTyped = 0x400 };

struct BufFormat {
  uint32_t comps = 0, bytes = 0;  // components per element, bytes per component
  bool sgn = false, flt = false;
};

BufFormat buf_format(Wave& w, const Op& op, const Src& rsrc, bool store) {
  const uint32_t d3 = w.s[rsrc.idx + 3];
  const bool typed = op.aux & kTyped, d16 = op.aux & kD16;
  const uint32_t dfmt = typed ? op.imm & 15 : (d3 >> 15) & 15, nfmt = typed ? (op.imm >> 4) & 7 : (d3 >> 12) & 7;
  BufFormat f;
  switch (dfmt) {
    case 1: f = {1, 1}; break;
    case 2: f = {1, 2}; break;
    case 3: f = {2, 1}; break;
    case 4: f = {1, 4}; break;
    case 5: f = {2, 2}; break;
    case 10: f = {4, 1}; break;
    case 11: f = {2, 4}; break;
    case 12: f = {4, 2}; break;
    case 13: f = {3, 4}; break;
    case 14: f = {4, 4}; break;
    default: break;
  }
  f.sgn = nfmt == 5;
  f.flt = nfmt == 7;
  const bool num_ok = nfmt == 4 || nfmt == 5 || (f.flt && f.bytes >= 2);
  const bool size_ok = store ? f.bytes == (d16 ? 2u : 4u) : d16 ? f.bytes <= 2 && !(f.flt && f.bytes == 1) : true;
  if (!f.comps || !num_ok || !size_ok)
    fail(w, op, std::string(typed ? "tbuffer format:" : "buffer V# format") + " DATA_FORMAT " + std::to_string(dfmt) +
                    " NUM_FORMAT " + std::to_string(nfmt) + " is not modelled for this " + (d16 ? "d16 " : "") +
                    (store ? "store" : "load") +
                    " (modelled: DATA_FORMAT 8/16/32 with 1-4 components and NUM_FORMAT UINT(4)/SINT(5), FLOAT(7) "
                    "for 16/32-bit; loads widen, d16 loads take 8/16-bit components, stores need 32-bit (d16: "
                    "16-bit) components)");
  if ((d3 & 0xfff) != 0xfac)
    fail(w, op, "buffer V# DST_SEL " + hex(d3 & 0xfff) + " is not the identity (x, y, z, w); swizzles are not modelled");
  return f;
}

// One component as the instruction's register width sees it (32 bits, or 16 for d16).
uint32_t widen(const BufFormat& f, uint32_t raw, bool d16) {
  if (f.bytes == 4) return raw;
  if (f.flt) return d16 ? raw : bits_of(f16_to_f32(uint16_t(raw)));  // 16-bit float
  if (f.sgn) raw = f.bytes == 1 ? uint32_t(int32_t(int8_t(raw))) : uint32_t(int32_t(int16_t(raw)));
  return d16 ? raw & 0xffff : raw;
}

// What a format load and a format store share: the element's format and size and the operands that
// address it (a load's vaddr, V#, soffset are s[0..2]; a store's follow its data in s[0]).
struct FormatAccess {
  bool store = false;
  uint32_t n = 0;  // components the instruction moves
  bool d16 = false, hi = false;
  const Src* vaddr = nullptr;  // none when the instruction has no vaddr operand
  const Src* rsrc = nullptr;
  BufFormat f;
  uint32_t soff = 0, size = 0;  // soffset; bytes per element
  uint32_t all = 0;             // mem_buffer_addr's in-range mask when the whole element is in range

  FormatAccess(Wave& w, const Op& op, bool is_store) : store(is_store) {
    const int first = store ? 1 : 0;
    n = (op.aux & 0xff) / 4;
    d16 = op.aux & kD16;
    hi = op.aux & kD16Hi;
    vaddr = op.s[first].k == SrcKind::None ? nullptr : &op.s[first];
    rsrc = &op.s[first + 1];
    f = buf_format(w, op, *rsrc, store);
    soff = read_s32(w, op.s[first + 2]);
    size = f.comps * f.bytes;
    all = (1u << std::max<uint32_t>(1, size / 4)) - 1;
  }

  // Lane l's element address in `a`, and mem_buffer_addr's in-range dword mask. An element not wholly in
  // range is an Error under Options::check_buffer_range; otherwise the hardware's rule applies (the
  // caller's: a load reads 0, a store drops the out-of-range dwords).
  uint32_t address(Wave& w, const Op& op, int l, uint64_t& a) const {
    const uint32_t in = mem_buffer_addr(w, op, l, vaddr, *rsrc, soff, size, a);
    if (in != all && w.L->opt.check_buffer_range)
      fail(w, op, "out-of-range buffer access at " + hex(a) + (store ? " (hardware drops the store" : " (hardware returns 0") +
                      "; Options::check_buffer_range is on)", l);
    return in;
  }
};

void buf_load_format(Wave& w, const Op& op) {
  const FormatAccess acc(w, op, false);
  const BufFormat& f = acc.f;
  const uint32_t one = f.flt ? (acc.d16 ? 0x3c00u : 0x3f800000u) : 1u;  // the w a format lacks
  const uint64_t e = w.exec();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a;
    uint8_t raw[16] = {};
    if (acc.address(w, op, l, a) == acc.all)
      if (uint8_t* p = global_ptr(w, op, a, acc.size, l, false)) std::memcpy(raw, p, acc.size);
    for (uint32_t c = 0; c < acc.n; ++c) {
      uint32_t x = 0;
      if (c < f.comps) {
        std::memcpy(&x, raw + c * f.bytes, f.bytes);
        x = widen(f, x, acc.d16);
      } else if (c == 3) {
        x = one;
      }
      if (!acc.d16) { w.vr(uint16_t(op.d[0].idx + c))[l] = x; continue; }
      uint32_t& d = w.vr(uint16_t(op.d[0].idx + c / 2))[l];
      const bool high = acc.hi || (c % 2) == 1;
      d = high ? (d & 0xffffu) | (x << 16) : (d & 0xffff0000u) | (x & 0xffffu);
    }
  }
  mem_track(w, op, true);
}

void buf_store_format(Wave& w, const Op& op) {
  const FormatAccess acc(w, op, true);
  const uint32_t bytes = acc.f.bytes, written = std::min(acc.n, acc.f.comps);
  const uint64_t e = w.exec();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a;
    const uint32_t in = acc.address(w, op, l, a);
    for (uint32_t c = 0; c < written; ++c) {
      const uint32_t at = c * bytes;  // byte offset in the element; out-of-range dwords are dropped
      if (!((in >> (acc.size < 4 ? 0 : at / 4)) & 1)) continue;
      uint32_t x;
      if (!acc.d16) x = lane_src(w, op.s[0], l, int(c));
      else x = (lane_src(w, op.s[0], l, int(c / 2)) >> ((acc.hi || c % 2) ? 16 : 0)) & 0xffffu;
      if (uint8_t* p = global_ptr(w, op, a + at, bytes, l, true)) std::memcpy(p, &x, bytes);
    }
  }
  mem_track(w, op, false);
}

}  // namespace

void register_buffer_format(Registry& r) {
  // Per component count: the buffer and typed-buffer format loads and stores, 32-bit and d16.
  struct Forms { uint32_t c; O load, store, load_d16, store_d16, tload, tstore, tload_d16, tstore_d16; };
  static const Forms forms[] = {
      {1, O::buffer_load_format_x, O::buffer_store_format_x, O::buffer_load_format_d16_x, O::buffer_store_format_d16_x,
       O::tbuffer_load_format_x, O::tbuffer_store_format_x, O::tbuffer_load_format_d16_x, O::tbuffer_store_format_d16_x},
      {2, O::buffer_load_format_xy, O::buffer_store_format_xy, O::buffer_load_format_d16_xy, O::buffer_store_format_d16_xy,
       O::tbuffer_load_format_xy, O::tbuffer_store_format_xy, O::tbuffer_load_format_d16_xy, O::tbuffer_store_format_d16_xy},
      {3, O::buffer_load_format_xyz, O::buffer_store_format_xyz, O::buffer_load_format_d16_xyz, O::buffer_store_format_d16_xyz,
       O::tbuffer_load_format_xyz, O::tbuffer_store_format_xyz, O::tbuffer_load_format_d16_xyz, O::tbuffer_store_format_d16_xyz},
      {4, O::buffer_load_format_xyzw, O::buffer_store_format_xyzw, O::buffer_load_format_d16_xyzw, O::buffer_store_format_d16_xyzw,
       O::tbuffer_load_format_xyzw, O::tbuffer_store_format_xyzw, O::tbuffer_load_format_d16_xyzw, O::tbuffer_store_format_d16_xyzw},
  };
  for (const Forms& f : forms) {
    r.add(f.load, &buf_load_format, FType::Int, 4 * f.c);
    r.add(f.store, &buf_store_format, FType::Int, 4 * f.c);
    r.add(f.load_d16, &buf_load_format, FType::Int, 4 * f.c | kD16);
    r.add(f.store_d16, &buf_store_format, FType::Int, 4 * f.c | kD16);
    r.add(f.tload, &buf_load_format, FType::Int, 4 * f.c | kTyped);
    r.add(f.tstore, &buf_store_format, FType::Int, 4 * f.c | kTyped);
    r.add(f.tload_d16, &buf_load_format, FType::Int, 4 * f.c | kD16 | kTyped);
    r.add(f.tstore_d16, &buf_store_format, FType::Int, 4 * f.c | kD16 | kTyped);
  }
  r.add(O::buffer_load_format_d16_hi_x, &buf_load_format, FType::Int, 4 | kD16 | kD16Hi);
  r.add(O::buffer_store_format_d16_hi_x, &buf_store_format, FType::Int, 4 | kD16 | kD16Hi);
}

}  // namespace cdnajit::sim
