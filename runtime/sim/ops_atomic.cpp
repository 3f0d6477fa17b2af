// Atomics beyond the 32-bit integer set of ops_mem.cpp: LDS (ds_*) and global /
// flat atomics on 32- and 64-bit integers, f32/f64 adds and min/max, packed
// f16/bf16 adds, inc/dec with wrap, compare-store and mask-or. Semantics follow
// the pseudo-code of AMD's CDNA3 ISA reference, chapter "LDS / GDS instructions"
// and "FLAT, Scratch and Global instructions" (per-op descriptions):
//   inc: MEM = (old >= DATA) ? 0 : old + 1        dec: MEM = (old == 0 || old > DATA) ? DATA : old - 1
//   rsub: MEM = DATA - old                         mskor: MEM = (old & ~DATA) | DATA2
//   ds_wrap: MEM = (old >= DATA) ? old - DATA : old + DATA2
//   ds_cmpst: MEM = (old == DATA) ? DATA2 : old    (DATA is the compare value, DATA2 the new one)
//   global/flat cmpswap: DATA = {src, cmp}: MEM = (old == cmp) ? src : old
// Float adds, min/max and compare-store follow the guide's "Float Memory Atomics" rules
// (atomic_float.hpp: nearest-even rounding, NaN selection, -0 < +0). Their denormals depend on
// where the atomic runs (CDNA4 ISA guide, table "Denorm Handling Rules for Memory Ops"):
// in LDS (ds_*, and flat_* whose address is in the shared aperture) the f32 add follows MODE's
// f32 field for its inputs and result, min/max/compare-store flush only for the comparison
// (f32: the f32 field, f64: the f16/f64 field), the f64 add never flushes (LLVM 22
// SIISelLowering.cpp agrees: "DS F32 FP atomics do respect the denormal mode", f64 "ignores
// denormal mode"); outside LDS (global/flat/buffer, executed in the L2) f64 add/min/max and the
// packed f16/bf16 adds never flush, and the f32 add follows Options::memory_atomic_add_f32_denormals
// (the guide's table says it flushes its inputs; LLVM 22 treats gfx942/gfx950 as keeping them).
// The LDS packed f16/bf16 adds and compare-store are refused (Error) where a denormal meets a
// flushing MODE field, where the published evidence leaves the result open (lds_undetermined below).
// Lanes run in lane order within a wave, so a wave's lanes that hit one address
// see each other's updates in that order (the hardware order is unspecified).
// Every returning form writes the old value to vdst.
#include <cmath>
#include <cstring>
#include <type_traits>
#include <string>

#include "runtime/sim/atomic_float.hpp"
#include "runtime/sim/fp.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

constexpr uint8_t kCntFlat = 4;  // counter_code of a FLAT row (sim_internal.hpp)

enum class K : uint8_t {
  Add, Sub, Rsub, MinU, MaxU, MinI, MaxI, And, Or, Xor, Swap, Inc, Dec, CmpSwap, CmpSt, CmpStF, Mskor,
  AddF, MinF, MaxF, PkAddF16, PkAddBF16, Wrap,
};

int64_t as_signed(uint64_t v, int bytes) { return bytes == 8 ? int64_t(v) : int64_t(int32_t(uint32_t(v))); }
AtomicFloat float_type(int bytes) { return bytes == 8 ? AtomicFloat::F64 : AtomicFloat::F32; }

// Both 16-bit halves of a packed add.
uint64_t pk_add(uint64_t old, uint64_t a, AtomicFloat t, AtomicDenormals d) {
  return atomic_fadd(old & 0xffff, a & 0xffff, t, d) | atomic_fadd((old >> 16) & 0xffff, (a >> 16) & 0xffff, t, d) << 16;
}

// New memory value from the old one and the instruction's data (`b`: DATA2 / cmp); `d`: the
// denormal flushing where the atomic runs (lds_denormals / memory_denormals).
template <K k>
uint64_t update(uint64_t old, uint64_t a, uint64_t b, int bytes, AtomicDenormals d = {}) {
  const uint64_t mask = bytes == 8 ? ~0ull : 0xffffffffull;
  switch (k) {
    case K::Add: return (old + a) & mask;
    case K::Sub: return (old - a) & mask;
    case K::Rsub: return (a - old) & mask;
    case K::MinU: return old < a ? old : a;
    case K::MaxU: return old > a ? old : a;
    case K::MinI: return as_signed(old, bytes) < as_signed(a, bytes) ? old : a;
    case K::MaxI: return as_signed(old, bytes) > as_signed(a, bytes) ? old : a;
    case K::And: return old & a;
    case K::Or: return old | a;
    case K::Xor: return old ^ a;
    case K::Swap: return a;
    case K::Inc: return old >= a ? 0 : (old + 1) & mask;
    case K::Dec: return (old == 0 || old > a) ? a : old - 1;
    case K::CmpSwap: return old == b ? a : old;                       // a = src, b = cmp
    case K::CmpSt: return old == a ? b : old;                         // a = cmp, b = new
    case K::CmpStF: return atomic_fequal(old, a, float_type(bytes), d.flush_in) ? b : old;
    case K::Mskor: return (old & ~a) | b;
    case K::Wrap: return old >= a ? old - a : (old + b) & mask;
    case K::AddF: return atomic_fadd(old, a, float_type(bytes), d);
    case K::MinF: return atomic_fminmax(old, a, float_type(bytes), false, d.flush_in);
    case K::MaxF: return atomic_fminmax(old, a, float_type(bytes), true, d.flush_in);
    case K::PkAddF16: return pk_add(old, a, AtomicFloat::F16, d);
    case K::PkAddBF16: return pk_add(old, a, AtomicFloat::BF16, d);
  }
  return old;
}

// Denormal flushing of a float atomic executed in LDS: MODE, as the guide's table says (file comment).
template <K k, int B>
AtomicDenormals lds_denormals(const Wave& w) {
  if (k == K::AddF && B == 4) return {w.flush_in_f32, w.flush_out_f32};
  if (k == K::MinF || k == K::MaxF || k == K::CmpStF) return {B == 4 ? w.flush_in_f32 : w.flush_in_f16_64, false};
  return {};  // the f64 add never flushes; the packed adds: lds_undetermined
}

// ... and of one executed outside LDS: fixed, except the f32 add, which the published evidence
// leaves open (Options::memory_atomic_add_f32_denormals).
template <K k, int B>
AtomicDenormals memory_denormals(const Wave& w) {
  using Choice = Options::MemoryAtomicAddF32Denormals;
  if (k == K::AddF && B == 4 && w.L->opt.memory_atomic_add_f32_denormals == Choice::FlushInputs) return {true, false};
  return {};
}

// Why the result of an LDS float atomic is not known from the published evidence, or null.
// Packed f16/bf16 adds: the CDNA4 ISA guide's table says LDS follows MODE for them (and
// does not say which field governs bf16); LLVM 22 (SIISelLowering.cpp) says they "never flush".
// The two agree unless a denormal operand or sum meets a flushing field. Compare-store: the
// guide says it "flushes the result when input denormal flushing occurs" without saying what is
// stored; open only when it stores a denormal while inputs are flushed.
template <K k, int B>
const char* lds_undetermined(const Wave& w, uint64_t old, uint64_t a, uint64_t b) {
  if constexpr (k == K::PkAddF16 || k == K::PkAddBF16) {
    const bool bf = k == K::PkAddBF16;
    const AtomicFloat t = bf ? AtomicFloat::BF16 : AtomicFloat::F16;
    if (!(w.flush_in_f16_64 || w.flush_out_f16_64 || (bf && (w.flush_in_f32 || w.flush_out_f32)))) return nullptr;
    for (uint64_t v : {old, a, update<k>(old, a, 0, B)})
      if (atomic_is_denormal(v & 0xffff, t) || atomic_is_denormal((v >> 16) & 0xffff, t))
        return "packed f16/bf16 LDS atomic add with a denormal operand or sum under a flushing MODE denormal field: "
               "the CDNA4 ISA guide says LDS flushes these per MODE, LLVM 22 says they never flush; the "
               "simulator does not guess (runtime/sim/README.md, Known and assumed)";
  } else if constexpr (k == K::CmpStF) {
    const bool flushing = B == 4 ? w.flush_in_f32 : w.flush_in_f16_64;
    if (flushing && atomic_is_denormal(b, float_type(B)) && atomic_fequal(old, a, float_type(B), true))
      return "LDS float compare-store of a denormal while MODE flushes input denormals: the CDNA4 ISA guide says it "
             "\"flushes the result\" without saying what is stored; the simulator does not guess "
             "(runtime/sim/README.md, Known and assumed)";
  }
  return nullptr;
}

// Options::memory_atomic_add_f32_denormals = Refuse: an Error for an f32 add outside LDS whose
// operands or result include a denormal.
template <K k, int B>
void refuse_memory_denormal(Wave& w, const Op& op, uint64_t old, uint64_t src, int lane) {
  if constexpr (k == K::AddF && B == 4) {
    if (w.L->opt.memory_atomic_add_f32_denormals != Options::MemoryAtomicAddF32Denormals::Refuse) return;
    for (uint64_t v : {old, src, update<k>(old, src, 0, B)})
      if (atomic_is_denormal(v, AtomicFloat::F32))
        fail(w, op, "f32 atomic add outside LDS with a denormal operand or result: whether it is flushed is not "
                    "settled (the ISA guide's table: flushed; LLVM 22: kept on gfx942/gfx950) and "
                    "Options::memory_atomic_add_f32_denormals is Refuse", lane);
  }
}

// Read-modify-write of global memory, which workgroups running on other host threads may update
// at the same time: a compare-and-swap loop, so concurrent atomics never lose an update (the
// hardware performs them at the L2 one after another). A misaligned address (no host atomic)
// falls back to a plain read and write.
template <K k, int B>
uint64_t global_rmw(uint8_t* p, uint64_t src, uint64_t cmp, AtomicDenormals d) {
  using T = std::conditional_t<B == 8, uint64_t, uint32_t>;
  static_assert(B == 4 || B == 8);
  if (reinterpret_cast<uintptr_t>(p) % B != 0) {
    uint64_t old = 0;
    std::memcpy(&old, p, B);
    const uint64_t n = update<k>(old, src, cmp, B, d);
    std::memcpy(p, &n, B);
    return old;
  }
  T* ap = reinterpret_cast<T*>(p);
  T old = __atomic_load_n(ap, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(ap, &old, T(update<k>(old, src, cmp, B, d)), false, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
  return old;
}

uint64_t lane_value(Wave& w, const Src& s, int l, int bytes, int first_dword = 0) {
  uint64_t v = lane_src(w, s, l, first_dword);
  if (bytes == 8) v |= uint64_t(lane_src(w, s, l, first_dword + 1)) << 32;
  return v;
}

void write_old(Wave& w, const Op& op, int l, uint64_t old, int bytes) {
  w.vr(op.d[0].idx)[l] = uint32_t(old);
  if (bytes == 8) w.vr(uint16_t(op.d[0].idx + 1))[l] = uint32_t(old >> 32);
}

// ds_<op>[_rtn]_<type> vdst?, addr, data0[, data1]
template <K k, int B>
void ds_atomic_ext(Wave& w, const Op& op) {
  const uint64_t e = w.exec();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t a = lane_src(w, op.s[0], l) + uint32_t(op.offset);
    uint8_t* p = lds_ptr(w, op, a, B, l);
    if (!p) continue;
    uint64_t old = 0;
    std::memcpy(&old, p, B);
    uint64_t d0 = lane_value(w, op.s[1], l, B);
    uint64_t d1 = op.ns > 2 ? lane_value(w, op.s[2], l, B) : 0;
    if (const char* why = lds_undetermined<k, B>(w, old, d0, d1)) fail(w, op, why, l);
    uint64_t n = update<k>(old, d0, d1, B, lds_denormals<k, B>(w));
    std::memcpy(p, &n, B);
    if (op.nd) write_old(w, op, l, old, B);
  }
  mem_track(w, op, op.nd > 0);
}

// global_atomic_* / flat_atomic_* vdst?, vaddr, data[, saddr]; cmpswap data = {src, cmp}.
template <K k, int B>
void g_atomic_ext(Wave& w, const Op& op) {
  const uint64_t e = w.exec();
  const Src* saddr = op.ns > 2 ? &op.s[2] : nullptr;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a = mem_vaddr(w, op, op.s[0], saddr, l);
    uint8_t* p = global_ptr(w, op, a, B, l, true);
    if (!p) continue;
    uint64_t src = lane_value(w, op.s[1], l, B);
    uint64_t cmp = k == K::CmpSwap ? lane_value(w, op.s[1], l, B, B / 4) : 0;
    uint64_t old = 0;
    if (op.counter == kCntFlat && (a >> 32) == kSharedApertureHi) {  // flat_* reaching LDS: the LDS rules
      std::memcpy(&old, p, B);
      if (const char* why = lds_undetermined<k, B>(w, old, src, cmp)) fail(w, op, why, l);
      const uint64_t n = update<k>(old, src, cmp, B, lds_denormals<k, B>(w));
      std::memcpy(p, &n, B);
    } else {
      old = global_rmw<k, B>(p, src, cmp, memory_denormals<k, B>(w));
      refuse_memory_denormal<k, B>(w, op, old, src, l);
    }
    if (op.nd) write_old(w, op, l, old, B);
  }
  mem_track(w, op, op.nd > 0);
}

// ds_wrxchg2[st64]_rtn_b{32,64} vdst, addr, data0, data1 offset0:o0 offset1:o1: two exchanges at
// addr + o0 * s and addr + o1 * s (s = the data size, times 64 for st64); vdst = {old0, old1}.
template <int B, int scale>
void ds_wrxchg2(Wave& w, const Op& op) {
  const uint64_t e = w.exec();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t base = lane_src(w, op.s[0], l);
    for (int k = 0; k < 2; ++k) {
      uint32_t a = base + uint32_t(k ? op.offset1 : op.offset0) * uint32_t(B * scale);  // 32-bit wrap as all DS
      uint8_t* p = lds_ptr(w, op, a, B, l);
      if (!p) continue;
      uint64_t old = 0, n = lane_value(w, op.s[1 + k], l, B);
      std::memcpy(&old, p, B);
      std::memcpy(p, &n, B);
      for (int i = 0; i < B / 4; ++i) w.vr(uint16_t(op.d[0].idx + k * (B / 4) + i))[l] = uint32_t(old >> (32 * i));
    }
  }
  mem_track(w, op, true);
}

// s_atomic_* / s_buffer_atomic_* sdata, sbase, offset [glc|sc0]: one read-modify-write at the
// s_load address (base + offset, dword aligned; s_buffer_*: the V#'s 48-bit base). sdata holds
// the data ({src, cmp} for cmpswap); with glc/sc0 its first B bytes receive the old value.
template <K k, int B, bool buffer>
void s_atomic_ext(Wave& w, const Op& op) {
  uint64_t base = read_s64(w, op.s[0]);
  if (buffer) base &= 0xffffffffffffull;
  uint64_t addr = (base + (op.ns > 1 ? read_s32(w, op.s[1]) : 0) + int64_t(op.offset)) & ~3ull;
  uint8_t* p = global_ptr(w, op, addr, B, -1, true);
  const Src& data = op.d[0];  // sdata: read, and written back under glc
  uint64_t src = read_s64(w, data) & (B == 8 ? ~0ull : 0xffffffffull);
  uint64_t cmp = 0;
  if (k == K::CmpSwap) {
    const uint32_t* r = &w.s[data.idx];
    src = B == 8 ? (uint64_t(r[0]) | uint64_t(r[1]) << 32) : r[0];
    cmp = B == 8 ? (uint64_t(r[2]) | uint64_t(r[3]) << 32) : r[1];
  }
  uint64_t old = 0;
  if (p) {
    std::memcpy(&old, p, B);
    uint64_t n = update<k>(old, src, cmp, B);
    std::memcpy(p, &n, B);
  }
  if (op.sc0) {
    w.s[data.idx] = uint32_t(old);
    if (B == 8) w.s[data.idx + 1] = uint32_t(old >> 32);
  }
  mem_track(w, op, op.sc0);
}

// buffer_atomic_* vdata, vaddr|off, srsrc, soffset [offen|idxen] [sc0]: per lane at the MUBUF
// address; vdata holds the data ({src, cmp} for cmpswap) and, with sc0, receives the old value.
// Out-of-range lanes change nothing and return 0 (or fail under Options::check_buffer_range).
template <K k, int B>
void buf_atomic_ext(Wave& w, const Op& op) {
  const bool ret = op.nd > 0;  // the decoder lists vdata as a destination for the returning form
  const Src& data = ret ? op.d[0] : op.s[0];
  const int b = ret ? 0 : 1;
  const Src* vaddr = op.s[b].k == SrcKind::None ? nullptr : &op.s[b];
  const uint32_t soff = read_s32(w, op.s[b + 2]);
  const uint64_t e = w.exec();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a = 0, old = 0;
    uint32_t in = mem_buffer_addr(w, op, l, vaddr, op.s[b + 1], soff, B, a);
    if (in != (B == 8 ? 3u : 1u)) {
      if (w.L->opt.check_buffer_range)
        fail(w, op, "out-of-range buffer atomic at address " + hex(a) + " (hardware skips it; Options::check_buffer_range is on)", l);
    } else if (uint8_t* p = global_ptr(w, op, a, B, l, true)) {
      uint64_t src = lane_value(w, data, l, B);
      uint64_t cmp = k == K::CmpSwap ? lane_value(w, data, l, B, B / 4) : 0;
      old = global_rmw<k, B>(p, src, cmp, memory_denormals<k, B>(w));
      refuse_memory_denormal<k, B>(w, op, old, src, l);
    }
    if (ret) write_old(w, op, l, old, B);
  }
  mem_track(w, op, ret);
}

}  // namespace

void register_atomic(Registry& r) {
  // The files before this one may have defined a row (ops_mem.cpp's 32-bit integer atomics): those keep theirs.
  auto add = [&](O op, Handler h) {
    if (!r.has(op)) r.add(op, h);
  };
  // The f32 adds, once in ops_mem.cpp, keep the 4-byte lane size it gave them (aux; the timing recording reads it).
  for (O op : {O::ds_add_f32, O::ds_add_rtn_f32}) r.add(op, &ds_atomic_ext<K::AddF, 4>, FType::Int, 4);
  r.add(O::global_atomic_add_f32, &g_atomic_ext<K::AddF, 4>, FType::Int, 4);
  r.add(O::flat_atomic_add_f32, &g_atomic_ext<K::AddF, 4>, FType::Int, 4);
  // LDS: each operation without and with the returned value (_rtn), 32- and 64-bit.
  struct DsPair { O plain, rtn; Handler h; };
  const DsPair ds[] = {
      {O::ds_add_u32, O::ds_add_rtn_u32, &ds_atomic_ext<K::Add, 4>},
      {O::ds_add_u64, O::ds_add_rtn_u64, &ds_atomic_ext<K::Add, 8>},
      {O::ds_sub_u32, O::ds_sub_rtn_u32, &ds_atomic_ext<K::Sub, 4>},
      {O::ds_sub_u64, O::ds_sub_rtn_u64, &ds_atomic_ext<K::Sub, 8>},
      {O::ds_rsub_u32, O::ds_rsub_rtn_u32, &ds_atomic_ext<K::Rsub, 4>},
      {O::ds_rsub_u64, O::ds_rsub_rtn_u64, &ds_atomic_ext<K::Rsub, 8>},
      {O::ds_inc_u32, O::ds_inc_rtn_u32, &ds_atomic_ext<K::Inc, 4>},
      {O::ds_inc_u64, O::ds_inc_rtn_u64, &ds_atomic_ext<K::Inc, 8>},
      {O::ds_dec_u32, O::ds_dec_rtn_u32, &ds_atomic_ext<K::Dec, 4>},
      {O::ds_dec_u64, O::ds_dec_rtn_u64, &ds_atomic_ext<K::Dec, 8>},
      {O::ds_min_u32, O::ds_min_rtn_u32, &ds_atomic_ext<K::MinU, 4>},
      {O::ds_min_u64, O::ds_min_rtn_u64, &ds_atomic_ext<K::MinU, 8>},
      {O::ds_max_u32, O::ds_max_rtn_u32, &ds_atomic_ext<K::MaxU, 4>},
      {O::ds_max_u64, O::ds_max_rtn_u64, &ds_atomic_ext<K::MaxU, 8>},
      {O::ds_min_i32, O::ds_min_rtn_i32, &ds_atomic_ext<K::MinI, 4>},
      {O::ds_min_i64, O::ds_min_rtn_i64, &ds_atomic_ext<K::MinI, 8>},
      {O::ds_max_i32, O::ds_max_rtn_i32, &ds_atomic_ext<K::MaxI, 4>},
      {O::ds_max_i64, O::ds_max_rtn_i64, &ds_atomic_ext<K::MaxI, 8>},
      {O::ds_and_b32, O::ds_and_rtn_b32, &ds_atomic_ext<K::And, 4>},
      {O::ds_and_b64, O::ds_and_rtn_b64, &ds_atomic_ext<K::And, 8>},
      {O::ds_or_b32, O::ds_or_rtn_b32, &ds_atomic_ext<K::Or, 4>},
      {O::ds_or_b64, O::ds_or_rtn_b64, &ds_atomic_ext<K::Or, 8>},
      {O::ds_xor_b32, O::ds_xor_rtn_b32, &ds_atomic_ext<K::Xor, 4>},
      {O::ds_xor_b64, O::ds_xor_rtn_b64, &ds_atomic_ext<K::Xor, 8>},
      {O::ds_mskor_b32, O::ds_mskor_rtn_b32, &ds_atomic_ext<K::Mskor, 4>},
      {O::ds_mskor_b64, O::ds_mskor_rtn_b64, &ds_atomic_ext<K::Mskor, 8>},
      {O::ds_cmpst_b32, O::ds_cmpst_rtn_b32, &ds_atomic_ext<K::CmpSt, 4>},
      {O::ds_cmpst_b64, O::ds_cmpst_rtn_b64, &ds_atomic_ext<K::CmpSt, 8>},
      {O::ds_cmpst_f32, O::ds_cmpst_rtn_f32, &ds_atomic_ext<K::CmpStF, 4>},
      {O::ds_cmpst_f64, O::ds_cmpst_rtn_f64, &ds_atomic_ext<K::CmpStF, 8>},
      {O::ds_min_f32, O::ds_min_rtn_f32, &ds_atomic_ext<K::MinF, 4>},
      {O::ds_min_f64, O::ds_min_rtn_f64, &ds_atomic_ext<K::MinF, 8>},
      {O::ds_max_f32, O::ds_max_rtn_f32, &ds_atomic_ext<K::MaxF, 4>},
      {O::ds_max_f64, O::ds_max_rtn_f64, &ds_atomic_ext<K::MaxF, 8>},
      {O::ds_add_f32, O::ds_add_rtn_f32, &ds_atomic_ext<K::AddF, 4>},
      {O::ds_add_f64, O::ds_add_rtn_f64, &ds_atomic_ext<K::AddF, 8>},
      {O::ds_pk_add_f16, O::ds_pk_add_rtn_f16, &ds_atomic_ext<K::PkAddF16, 4>},
      {O::ds_pk_add_bf16, O::ds_pk_add_rtn_bf16, &ds_atomic_ext<K::PkAddBF16, 4>},
  };
  for (const auto& d : ds) {
    add(d.plain, d.h);
    add(d.rtn, d.h);
  }
  add(O::ds_wrxchg_rtn_b32, &ds_atomic_ext<K::Swap, 4>);
  add(O::ds_wrxchg_rtn_b64, &ds_atomic_ext<K::Swap, 8>);

  // Global and flat: <op> is 32-bit, <op>_x2 64-bit; float forms by type suffix.
  struct G { O global, flat; Handler h; };
  const G gs[] = {
      {O::global_atomic_add, O::flat_atomic_add, &g_atomic_ext<K::Add, 4>},
      {O::global_atomic_add_x2, O::flat_atomic_add_x2, &g_atomic_ext<K::Add, 8>},
      {O::global_atomic_sub, O::flat_atomic_sub, &g_atomic_ext<K::Sub, 4>},
      {O::global_atomic_sub_x2, O::flat_atomic_sub_x2, &g_atomic_ext<K::Sub, 8>},
      {O::global_atomic_swap, O::flat_atomic_swap, &g_atomic_ext<K::Swap, 4>},
      {O::global_atomic_swap_x2, O::flat_atomic_swap_x2, &g_atomic_ext<K::Swap, 8>},
      {O::global_atomic_and, O::flat_atomic_and, &g_atomic_ext<K::And, 4>},
      {O::global_atomic_and_x2, O::flat_atomic_and_x2, &g_atomic_ext<K::And, 8>},
      {O::global_atomic_or, O::flat_atomic_or, &g_atomic_ext<K::Or, 4>},
      {O::global_atomic_or_x2, O::flat_atomic_or_x2, &g_atomic_ext<K::Or, 8>},
      {O::global_atomic_xor, O::flat_atomic_xor, &g_atomic_ext<K::Xor, 4>},
      {O::global_atomic_xor_x2, O::flat_atomic_xor_x2, &g_atomic_ext<K::Xor, 8>},
      {O::global_atomic_umin, O::flat_atomic_umin, &g_atomic_ext<K::MinU, 4>},
      {O::global_atomic_umin_x2, O::flat_atomic_umin_x2, &g_atomic_ext<K::MinU, 8>},
      {O::global_atomic_umax, O::flat_atomic_umax, &g_atomic_ext<K::MaxU, 4>},
      {O::global_atomic_umax_x2, O::flat_atomic_umax_x2, &g_atomic_ext<K::MaxU, 8>},
      {O::global_atomic_smin, O::flat_atomic_smin, &g_atomic_ext<K::MinI, 4>},
      {O::global_atomic_smin_x2, O::flat_atomic_smin_x2, &g_atomic_ext<K::MinI, 8>},
      {O::global_atomic_smax, O::flat_atomic_smax, &g_atomic_ext<K::MaxI, 4>},
      {O::global_atomic_smax_x2, O::flat_atomic_smax_x2, &g_atomic_ext<K::MaxI, 8>},
      {O::global_atomic_inc, O::flat_atomic_inc, &g_atomic_ext<K::Inc, 4>},
      {O::global_atomic_inc_x2, O::flat_atomic_inc_x2, &g_atomic_ext<K::Inc, 8>},
      {O::global_atomic_dec, O::flat_atomic_dec, &g_atomic_ext<K::Dec, 4>},
      {O::global_atomic_dec_x2, O::flat_atomic_dec_x2, &g_atomic_ext<K::Dec, 8>},
      {O::global_atomic_cmpswap, O::flat_atomic_cmpswap, &g_atomic_ext<K::CmpSwap, 4>},
      {O::global_atomic_cmpswap_x2, O::flat_atomic_cmpswap_x2, &g_atomic_ext<K::CmpSwap, 8>},
      {O::global_atomic_add_f32, O::flat_atomic_add_f32, &g_atomic_ext<K::AddF, 4>},
      {O::global_atomic_add_f64, O::flat_atomic_add_f64, &g_atomic_ext<K::AddF, 8>},
      {O::global_atomic_min_f64, O::flat_atomic_min_f64, &g_atomic_ext<K::MinF, 8>},
      {O::global_atomic_max_f64, O::flat_atomic_max_f64, &g_atomic_ext<K::MaxF, 8>},
      {O::global_atomic_pk_add_f16, O::flat_atomic_pk_add_f16, &g_atomic_ext<K::PkAddF16, 4>},
      {O::global_atomic_pk_add_bf16, O::flat_atomic_pk_add_bf16, &g_atomic_ext<K::PkAddBF16, 4>},
  };
  for (const auto& g : gs) {
    add(g.global, g.h);
    add(g.flat, g.h);
  }
  add(O::ds_wrap_rtn_b32, &ds_atomic_ext<K::Wrap, 4>);
  add(O::ds_wrxchg2_rtn_b32, &ds_wrxchg2<4, 1>);
  add(O::ds_wrxchg2_rtn_b64, &ds_wrxchg2<8, 1>);
  add(O::ds_wrxchg2st64_rtn_b32, &ds_wrxchg2<4, 64>);
  add(O::ds_wrxchg2st64_rtn_b64, &ds_wrxchg2<8, 64>);

  // Scalar and buffer atomics: the integer set (32- and 64-bit), and for buffers the float forms.
  struct SA { O s32, s64, sb32, sb64, b32, b64; Handler hs32, hs64, hsb32, hsb64, hb32, hb64; };
#define CDNAJIT_SIM_ATOMIC_ROW(name, kind)                                                                          \
  SA{O::s_atomic_##name, O::s_atomic_##name##_x2, O::s_buffer_atomic_##name, O::s_buffer_atomic_##name##_x2,         \
     O::buffer_atomic_##name, O::buffer_atomic_##name##_x2, &s_atomic_ext<K::kind, 4, false>,                        \
     &s_atomic_ext<K::kind, 8, false>, &s_atomic_ext<K::kind, 4, true>, &s_atomic_ext<K::kind, 8, true>,             \
     &buf_atomic_ext<K::kind, 4>, &buf_atomic_ext<K::kind, 8>}
  const SA sas[] = {
      CDNAJIT_SIM_ATOMIC_ROW(add, Add),
      CDNAJIT_SIM_ATOMIC_ROW(sub, Sub),
      CDNAJIT_SIM_ATOMIC_ROW(swap, Swap),
      CDNAJIT_SIM_ATOMIC_ROW(and, And),
      CDNAJIT_SIM_ATOMIC_ROW(or, Or),
      CDNAJIT_SIM_ATOMIC_ROW(xor, Xor),
      CDNAJIT_SIM_ATOMIC_ROW(umin, MinU),
      CDNAJIT_SIM_ATOMIC_ROW(umax, MaxU),
      CDNAJIT_SIM_ATOMIC_ROW(smin, MinI),
      CDNAJIT_SIM_ATOMIC_ROW(smax, MaxI),
      CDNAJIT_SIM_ATOMIC_ROW(inc, Inc),
      CDNAJIT_SIM_ATOMIC_ROW(dec, Dec),
      CDNAJIT_SIM_ATOMIC_ROW(cmpswap, CmpSwap),
  };
#undef CDNAJIT_SIM_ATOMIC_ROW
  for (const auto& s : sas) {
    add(s.s32, s.hs32);
    add(s.s64, s.hs64);
    add(s.sb32, s.hsb32);
    add(s.sb64, s.hsb64);
    add(s.b32, s.hb32);
    add(s.b64, s.hb64);
  }
  add(O::buffer_atomic_add_f32, &buf_atomic_ext<K::AddF, 4>);
  add(O::buffer_atomic_add_f64, &buf_atomic_ext<K::AddF, 8>);
  add(O::buffer_atomic_min_f64, &buf_atomic_ext<K::MinF, 8>);
  add(O::buffer_atomic_max_f64, &buf_atomic_ext<K::MaxF, 8>);
  add(O::buffer_atomic_pk_add_f16, &buf_atomic_ext<K::PkAddF16, 4>);
  add(O::buffer_atomic_pk_add_bf16, &buf_atomic_ext<K::PkAddBF16, 4>);
}

}  // namespace cdnajit::sim
