// Memory instructions: SMEM loads, global/flat/buffer loads, stores and
// atomics (including LDS DMA), and LDS (DS) operations. Loads deliver their
// data at issue; the wait-count checker makes early use an error.
#include <atomic>
#include <bit>
#include <type_traits>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "runtime/sim/fp.hpp"
#include "runtime/sim/host_cpu.hpp"
#include "runtime/sim/sim_internal.hpp"
#include "runtime/sim/write_journal.hpp"

namespace cdnajit::sim {
namespace {

enum : uint8_t { kCntVm = 1, kCntLgkm = 2, kCntSmem = 3, kCntFlat = 4 };

inline void track(Wave& w, const Op& op, bool has_dst) {
  uint16_t first = 0, count = 0, file = 1;
  if (has_dst && op.nd) {
    const Src& d = op.d[0];
    file = d.k == SrcKind::S ? 0 : 1;
    first = d.idx;
    count = d.n;
  }
  if (op.counter == kCntFlat) {
    pend_add(w, op, kCntVm, file, first, count);
    pend_add(w, op, kCntLgkm, 1, 0, 0);
  } else {
    pend_add(w, op, op.counter, file, first, count);
  }
}

// ---- copies ------------------------------------------------------------------------
// A whole lane row (256 bytes) and one lane's 1 to 16 bytes as fixed-size moves: at these sizes
// the compiler's inline `rep movs` for a std::memcpy costs more than the copy itself.
inline void copy_row(void* d, const void* s) {
#ifdef __SSE2__
  auto* dd = static_cast<__m128i*>(d);
  auto* ss = static_cast<const __m128i*>(s);
  for (int i = 0; i < 16; ++i) _mm_storeu_si128(dd + i, _mm_loadu_si128(ss + i));
#else
  std::memcpy(d, s, 256);
#endif
}
inline void copy_lane(void* d, const void* s, uint32_t n) {
  switch (n) {
    case 1: std::memcpy(d, s, 1); break;
    case 2: std::memcpy(d, s, 2); break;
    case 4: std::memcpy(d, s, 4); break;
    case 8: std::memcpy(d, s, 8); break;
    case 12: std::memcpy(d, s, 12); break;
    case 16: std::memcpy(d, s, 16); break;
    default: std::memcpy(d, s, n); break;
  }
}

// ---- per-lane data forms shared by the loads and stores below ---------------------
// op.aux: bytes per lane (low 8 bits), 0x100 sign-extend, 0x200 d16 (low half), 0x400 d16_hi.
// A sub-dword value as a dword: sign- or zero-extended.
uint32_t widen(const Op& op, uint32_t x, uint32_t bytes) {
  if (bytes < 4 && (op.aux & 0x100)) return bytes == 1 ? uint32_t(int32_t(int8_t(x))) : uint32_t(int32_t(int16_t(x)));
  return x;
}
// Lane l of the destination from the loaded dwords v: a sub-dword value widened into the whole
// register or merged into one half (d16 / d16_hi, the other half kept); dword values as they are.
void load_lane(Wave& w, const Op& op, int l, const uint32_t* v, uint32_t bytes, int first_dword = 0) {
  if (bytes < 4) {
    const uint32_t x = widen(op, v[0], bytes);
    uint32_t& d = w.vr(op.d[0].idx)[l];
    if (op.aux & 0x400) d = (d & 0xffff) | (x << 16);
    else if (op.aux & 0x200) d = (d & 0xffff0000u) | (x & 0xffff);
    else d = x;
    return;
  }
  for (uint32_t i = 0; i < bytes / 4; ++i) w.vr(uint16_t(op.d[0].idx + first_dword + i))[l] = v[i];
}
// Lane l's store data (d16_hi forms store the high half) written to p.
void store_lane(Wave& w, const Op& op, const Src& data, int l, uint8_t* p, uint32_t bytes) {
  uint32_t v[4];
  for (uint32_t i = 0; i < std::max<uint32_t>(1, bytes / 4); ++i) v[i] = lane_src(w, data, l, int(i));
  if (op.aux & 0x400) v[0] >>= 16;
  copy_lane(p, v, bytes);
}
// LDS DMA (global_load_lds, scratch_load_lds, buffer_load ... lds): lane l's widened data written
// at M0 + inst_offset + l * stride, and the written range for the wait-count bookkeeping.
struct LdsDma {
  uint32_t m0;
  uint64_t lo = ~0ull, hi = 0;
  explicit LdsDma(const Wave& w) : m0(w.s[kM0] & 0x3ffff) {}
  void write(Wave& w, const Op& op, int l, const uint32_t* v, uint32_t stride) {
    const uint64_t la = uint64_t(m0) + uint32_t(op.offset) + uint32_t(l) * stride;
    if (uint8_t* q = lds_ptr(w, op, la, stride, l)) copy_lane(q, v, stride);
    lo = std::min(lo, la);
    hi = std::max(hi, la + stride);
  }
  // After track(): the entry it added covers the LDS bytes written.
  void finish(Wave& w) const {
    if (hi > lo) pend_set_lds_range(w, uint32_t(lo), uint32_t(std::min<uint64_t>(hi, w.lds_size)));
  }
};

// The lane-at-a-time forms of the global and scratch loads, stores and LDS DMAs (the whole-vector
// paths of the global ones come first where they apply): `where(l)` gives lane l's host pointer,
// or null when the access was refused (it has reported why; a refused load lane reads zeros).
template <class Where>
void load_lanes(Wave& w, const Op& op, uint32_t bytes, Where where) {
  const uint64_t e = w.exec();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t v[4] = {};
    if (const uint8_t* p = where(l)) copy_lane(v, p, bytes);
    load_lane(w, op, l, v, bytes);
  }
  track(w, op, true);
}
template <class Where>
void store_lanes(Wave& w, const Op& op, const Src& data, uint32_t bytes, Where where) {
  const uint64_t e = w.exec();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    if (uint8_t* p = where(l)) store_lane(w, op, data, l, p, bytes);
  }
  track(w, op, false);
}
// LDS DMA: the lane's data, widened to a dword when narrower, at its LDS address (LdsDma).
template <class Where>
void dma_lanes(Wave& w, const Op& op, uint32_t bytes, Where where) {
  const uint64_t e = w.exec();
  LdsDma dma(w);
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t v[4] = {};
    if (const uint8_t* p = where(l)) copy_lane(v, p, bytes);
    v[0] = widen(op, v[0], bytes);
    dma.write(w, op, l, v, std::max<uint32_t>(bytes, 4));
  }
  track(w, op, false);
  dma.finish(w);
}

// ---- SMEM -------------------------------------------------------------------
}  // namespace

uint64_t smem_address(Wave& w, const Op& op, int sbase) {
  uint64_t base = read_s64(w, op.s[sbase]);
  if (op.aux & 0x100) base &= 0xffffffffffffull;  // s_buffer_*: V# base (48 bits)
  const uint64_t off = op.ns > sbase + 1 ? read_s32(w, op.s[sbase + 1]) : 0;
  return (base + off + int64_t(op.offset)) & ~3ull;
}

namespace {
void s_load(Wave& w, const Op& op) {
  const uint64_t addr = smem_address(w, op, 0);
  uint32_t n = op.aux & 0xff;
  uint8_t* p = global_ptr(w, op, addr, n * 4, -1, false);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = 0;
    if (p) std::memcpy(&v, p + 4 * i, 4);
    w.s[op.d[0].idx + i] = v;
  }
  track(w, op, true);
}

// s_store_dword{,x2,x4} / s_buffer_store_dword{,x2,x4} sdata, sbase, offset: the s_load address
// rule (base + offset, dword aligned; s_buffer_*: the V#'s 48-bit base), data from sdata.
void s_store(Wave& w, const Op& op) {
  const uint64_t addr = smem_address(w, op, 1);
  uint32_t n = op.aux & 0xff;
  uint8_t* p = global_ptr(w, op, addr, n * 4, -1, true);
  if (p)
    for (uint32_t i = 0; i < n; ++i) std::memcpy(p + 4 * i, &w.s[op.s[0].idx + i], 4);
  track(w, op, false);
}

// ---- global / flat ----------------------------------------------------------
uint64_t vaddr_of(Wave& w, const Op& op, const Src& va, const Src* saddr, int l) {
  if (saddr && saddr->k == SrcKind::S)
    return read_s64(w, *saddr) + uint64_t(lane_src(w, va, l)) + int64_t(op.offset);
  uint64_t a = uint64_t(lane_src(w, va, l)) | uint64_t(lane_src(w, va, l, 1)) << 32;
  return a + int64_t(op.offset);
}

// The lowest and highest of 64 lane addresses: eight-lane unsigned compares where the host has
// AVX-512 (the baseline ISA has no 64-bit vector min/max), the scalar loop elsewhere (same answer).
void full_min_max_portable(const uint64_t* a, uint64_t& lo, uint64_t& hi) {
  for (int l = 0; l < 64; ++l) lo = std::min(lo, a[l]), hi = std::max(hi, a[l]);
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f"))) void full_min_max_avx512(const uint64_t* a, uint64_t& lo, uint64_t& hi) {
  __m512i mn = _mm512_loadu_si512(a), mx = mn;
  for (int i = 8; i < 64; i += 8) {
    const __m512i x = _mm512_loadu_si512(a + i);
    mn = _mm512_maskz_min_epu64(0xff, mn, x);  // maskz forms: GCC 12 warns on the plain ones' undefined source
    mx = _mm512_maskz_max_epu64(0xff, mx, x);
  }
  alignas(64) uint64_t m[16];
  _mm512_store_si512(m, mn);
  _mm512_store_si512(m + 8, mx);
  for (int i = 0; i < 8; ++i) lo = std::min(lo, m[i]), hi = std::max(hi, m[8 + i]);
}
const bool kMinMaxAvx512 = host_cpu().avx512f;
inline void full_min_max(const uint64_t* a, uint64_t& lo, uint64_t& hi) {
  if (kMinMaxAvx512) full_min_max_avx512(a, lo, hi);
  else full_min_max_portable(a, lo, hi);
}
#else
inline void full_min_max(const uint64_t* a, uint64_t& lo, uint64_t& hi) { full_min_max_portable(a, lo, hi); }
#endif

// All active lanes' addresses; returns the host pointer base for them when one
// allocation covers every access (the common case), else nullptr (the caller then
// takes the per-lane checked path, which reports the exact failing lane). `store`: the caller writes
// there (a write journal saves the pages first).
uint8_t* lanes_in_one_block(Wave& w, const Op& op, const Src& va, const Src* saddr, uint32_t bytes, uint64_t* addr,
                            bool store = false) {
  uint64_t e = w.exec();
  if (!e) return nullptr;
  uint64_t lo = ~0ull, hi = 0;
  if (saddr && saddr->k == SrcKind::S && va.k == SrcKind::V) {
    uint64_t base = read_s64(w, *saddr) + int64_t(op.offset);
    const uint32_t* v = w.vr(va.idx);
    for (int l = 0; l < 64; ++l) addr[l] = base + v[l];
  } else if (va.k == SrcKind::V && va.n >= 2) {
    const uint32_t *v0 = w.vr(va.idx), *v1 = w.vr(uint16_t(va.idx + 1));
    for (int l = 0; l < 64; ++l) addr[l] = (uint64_t(v0[l]) | uint64_t(v1[l]) << 32) + int64_t(op.offset);
  } else {
    return nullptr;
  }
  if (e == ~0ull) {  // full EXEC: branch-free
    full_min_max(addr, lo, hi);
  } else {
    for (int l = 0; l < 64; ++l)
      if ((e >> l) & 1) { lo = std::min(lo, addr[l]); hi = std::max(hi, addr[l]); }
  }
  const Memory::Block* b = w.T->last_block;
  if (!b || lo < b->base || hi + bytes > b->base + b->size || hi + bytes < hi) {
    b = w.L->mem->find(lo, size_t(hi - lo + bytes));
    if (!b) return nullptr;
    w.T->last_block = b;
  }
  if (w.track_global)  // store visibility (store_visibility.cpp)
    for (int l = 0; l < 64; ++l)
      if ((e >> l) & 1) global_store_access(w, op, addr[l], bytes, l);
  if (store && w.L->opt.write_journal) [[unlikely]] w.L->opt.write_journal->before_write(lo, hi - lo + bytes);
  return b->data.get() - b->base;  // host pointer = this + device address
}

// aux: bytes per lane (low 8 bits), bit 8 = sign-extend, bit 9 = d16, bit 10 = d16_hi
void g_load(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  uint32_t bytes = op.aux & 0xff;
  const Src* saddr = op.ns > 1 ? &op.s[1] : nullptr;
  uint64_t addr[64];
  if (uint8_t* host = lanes_in_one_block(w, op, op.s[0], saddr, bytes, addr)) {
    uint32_t ndw = std::max<uint32_t>(1, bytes / 4);
    if (bytes >= 4) {
      for (uint32_t i = 0; i < ndw; ++i) {
        uint32_t* d = w.vr(uint16_t(op.d[0].idx + i));
        for (int l = 0; l < 64; ++l)
          if ((e >> l) & 1) std::memcpy(&d[l], host + addr[l] + 4 * i, 4);
      }
    } else {
      // Sub-dword: the lane's bytes widened (sign or zero) and placed (whole register, low or high
      // half), with a fixed-size read per width.
      uint32_t* d = w.vr(op.d[0].idx);
      auto place = [&](auto narrow) {
        using T = decltype(narrow);
        for (int l = 0; l < 64; ++l) {
          if (!((e >> l) & 1)) continue;
          T n;
          std::memcpy(&n, host + addr[l], sizeof n);
          const uint32_t x = (op.aux & 0x100) ? uint32_t(int32_t(std::make_signed_t<T>(n))) : uint32_t(n);
          if (op.aux & 0x400) d[l] = (d[l] & 0xffff) | (x << 16);
          else if (op.aux & 0x200) d[l] = (d[l] & 0xffff0000u) | (x & 0xffff);
          else d[l] = x;
        }
      };
      if (bytes == 1) place(uint8_t{});
      else place(uint16_t{});
    }
    track(w, op, true);
    return;
  }
  load_lanes(w, op, bytes, [&](int l) { return global_ptr(w, op, vaddr_of(w, op, op.s[0], saddr, l), bytes, l, false); });
}

void g_store(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  uint32_t bytes = op.aux & 0xff;
  const Src* saddr = op.ns > 2 ? &op.s[2] : nullptr;
  const Src& data = op.s[1];
  uint64_t addr[64];
  if (data.k == SrcKind::V) {
    if (uint8_t* host = lanes_in_one_block(w, op, op.s[0], saddr, bytes, addr, true)) {
      uint32_t ndw = std::max<uint32_t>(1, bytes / 4);
      for (uint32_t i = 0; i < ndw; ++i) {
        const uint32_t* v = w.vr(uint16_t(data.idx + i));
        for (int l = 0; l < 64; ++l) {
          if (!((e >> l) & 1)) continue;
          uint32_t x = v[l];
          if (op.aux & 0x400) x >>= 16;
          std::memcpy(host + addr[l] + 4 * i, &x, std::min<uint32_t>(bytes, 4));
        }
      }
      track(w, op, false);
      return;
    }
  }
  store_lanes(w, op, data, bytes, [&](int l) { return global_ptr(w, op, vaddr_of(w, op, op.s[0], saddr, l), bytes, l, true); });
}

// global_load_lds_dword{,x3,x4} / global_load_lds_{u,i}{byte,short}:
// LDS address = M0 + inst_offset + lane * bytes (per-lane data size stride).
void g_load_lds(Wave& w, const Op& op) {
  const uint32_t bytes = op.aux & 0xff;
  const Src* saddr = op.ns > 1 ? &op.s[1] : nullptr;
  // Every lane in one allocation (as g_load): the addresses once, no per-lane lookup. Not while
  // global stores are tracked, whose per-lane checks must stay interleaved with the LDS writes (the
  // first error in lane order is the one reported).
  uint64_t addr[64];
  if (!w.track_global)
    if (uint8_t* host = lanes_in_one_block(w, op, op.s[0], saddr, bytes, addr))
      return dma_lanes(w, op, bytes, [&](int l) -> const uint8_t* { return host + addr[l]; });
  dma_lanes(w, op, bytes, [&](int l) { return global_ptr(w, op, vaddr_of(w, op, op.s[0], saddr, l), bytes, l, false); });
}

// Atomics (32-bit): aux low byte = kind.
template <int K>
void g_atomic(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  bool ret = op.nd > 0;
  int di = ret ? 1 : 0;  // operand positions shift when there is a return value
  (void)di;
  const Src& va = op.s[0];
  const Src& data = op.s[1];
  const Src* saddr = op.ns > 2 ? &op.s[2] : nullptr;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a = vaddr_of(w, op, va, saddr, l);
    uint8_t* p = global_ptr(w, op, a, 4, l, true);
    if (!p) continue;
    uint32_t v = lane_src(w, data, l), old = 0;
    auto* ap = reinterpret_cast<uint32_t*>(p);
    switch (K) {
      case 0: old = __atomic_fetch_add(ap, v, __ATOMIC_RELAXED); break;
      case 1: old = __atomic_fetch_sub(ap, v, __ATOMIC_RELAXED); break;
      case 2: old = __atomic_exchange_n(ap, v, __ATOMIC_RELAXED); break;
      case 3: old = __atomic_fetch_and(ap, v, __ATOMIC_RELAXED); break;
      case 4: old = __atomic_fetch_or(ap, v, __ATOMIC_RELAXED); break;
      case 5: old = __atomic_fetch_xor(ap, v, __ATOMIC_RELAXED); break;
      case 6: {  // umax
        old = __atomic_load_n(ap, __ATOMIC_RELAXED);
        while (old < v && !__atomic_compare_exchange_n(ap, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
        break;
      }
      case 7: {  // umin
        old = __atomic_load_n(ap, __ATOMIC_RELAXED);
        while (old > v && !__atomic_compare_exchange_n(ap, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
        break;
      }
      case 9: {  // smax
        old = __atomic_load_n(ap, __ATOMIC_RELAXED);
        while (int32_t(old) < int32_t(v) && !__atomic_compare_exchange_n(ap, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
        break;
      }
      case 10: {  // smin
        old = __atomic_load_n(ap, __ATOMIC_RELAXED);
        while (int32_t(old) > int32_t(v) && !__atomic_compare_exchange_n(ap, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
        break;
      }
      case 11: {  // cmpswap: data = {new, compare}
        uint32_t cmp = lane_src(w, data, l, 1);
        old = cmp;
        __atomic_compare_exchange_n(ap, &old, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        break;
      }
      default: break;  // (the float atomics are in ops_atomic.cpp)
    }
    if (ret) w.vr(op.d[0].idx)[l] = old;
  }
  track(w, op, ret);
}

// ---- scratch_* (private memory, per-lane byte addresses from 0) ------------------
uint8_t* scratch_ptr(Wave& w, const Op& op, const Src& va, const Src& sa, uint32_t bytes, int l) {
  int64_t a = int64_t(op.offset);
  if (va.k == SrcKind::V) a += w.vr(va.idx)[l];
  if (sa.k == SrcKind::S) a += int32_t(read_s32(w, sa));
  if (a < 0 || uint64_t(a) + bytes > w.scratch_size) {
    if (w.L->opt.check_bounds)
      fail(w, op, "out-of-bounds scratch access of " + std::to_string(bytes) + " bytes at private address " + hex(uint64_t(a)) +
                      "; the kernel has " + std::to_string(w.scratch_size) + " bytes of scratch per lane", l,
           LaunchError::Kind::OutOfBounds);
    return nullptr;
  }
  return w.scratch + size_t(l) * w.scratch_size + size_t(a);
}
// scratch_load vdst, vaddr|off, saddr|off
void scratch_load(Wave& w, const Op& op) {
  const uint32_t bytes = op.aux & 0xff;
  const Src none{};
  const Src& sa = op.ns > 1 ? op.s[1] : none;
  load_lanes(w, op, bytes, [&](int l) { return scratch_ptr(w, op, op.s[0], sa, bytes, l); });
}
// scratch_store vaddr|off, vdata, saddr|off
void scratch_store(Wave& w, const Op& op) {
  const uint32_t bytes = op.aux & 0xff;
  const Src none{};
  const Src& sa = op.ns > 2 ? op.s[2] : none;
  store_lanes(w, op, op.s[1], bytes, [&](int l) { return scratch_ptr(w, op, op.s[0], sa, bytes, l); });
}

// scratch_load_lds_* vaddr|off, saddr|off: LDS DMA from private memory, the LDS address rule of
// global_load_lds above (M0 + inst_offset + lane * 4; the instruction offset applies to both addresses).
void scratch_load_lds(Wave& w, const Op& op) {
  const uint32_t bytes = op.aux & 0xff;
  const Src none{};
  const Src& sa = op.ns > 1 ? op.s[1] : none;
  dma_lanes(w, op, bytes, [&](int l) { return scratch_ptr(w, op, op.s[0], sa, bytes, l); });
}

// ---- MUBUF (buffer_*) ----------------------------------------------------------
struct VSharp {
  uint64_t base;
  uint32_t stride, num_records;
  bool swizzle, add_tid;  // V# word1 bit 31 (SWIZZLE_ENABLE), word3 bit 23 (ADD_TID_ENABLE)
  bool cache_swizzle;     // V# word1 bit 30 (CACHE_SWIZZLE)
  uint32_t element_size, index_stride;  // swizzle: 2 << word3[20:19] bytes, 8 << word3[22:21] indices
};
VSharp vsharp(Wave& w, const Src& s) {
  uint32_t d0 = w.s[s.idx], d1 = w.s[s.idx + 1], d2 = w.s[s.idx + 2], d3 = w.s[s.idx + 3];
  return VSharp{uint64_t(d0) | uint64_t(d1 & 0xffff) << 32, (d1 >> 16) & 0x3fff, d2, bool(d1 >> 31), bool((d3 >> 23) & 1),
                bool((d1 >> 30) & 1), 2u << ((d3 >> 19) & 3), 8u << ((d3 >> 21) & 3)};
}
// The MI300 cache-swizzle mode (LLVM's MLIR AMDGPUToROCDL, makeBufferRsrc: "on MI-300 and onward,
// you can enable a cache swizzling mode by setting bit 14 of the stride field and setting that
// stride to a cache stride") places lines in the cache and leaves addresses linear. A V# that sets
// SWIZZLE_ENABLE together with CACHE_SWIZZLE, on an access without idxen or ADD_TID, is taken as that
// mode (assumed: HipKittens' released GEMMs, github.com/HazyResearch/HipKittens include/ops/warp/
// memory/util/util.cuh make_srsrc, set both bits with a row stride and use raw offen loads, so any
// address swizzle there would make their results wrong).
bool linear_cache_swizzle(const Op& op, const VSharp& v) { return v.swizzle && v.cache_swizzle && !op.idxen && !v.add_tid; }

// Byte address of one lane's access and which of its dwords are in range (bit c = dword c;
// bit 0 only for sub-dword accesses). index = the idxen VGPR (else 0) + the lane id when the V#
// sets ADD_TID_ENABLE; offset = the offen VGPR (else 0) + inst_offset.
// Address (the ISA guides, "Buffer Addressing": linear, and swizzled when SWIZZLE_ENABLE is set
// outside the cache-swizzle mode above):
//  linear:   base + soffset + offset + stride * index
//  swizzled: base + soffset + (index / IS * stride + offset / ES * ES) * IS + index % IS * ES + offset % ES,
//            IS = index_stride, ES = element_size, at the V# positions of the GCN3 guide (which
//            gem5's Vega model also uses; assumed for CDNA). An access that crosses an element (its
//            bytes would not be contiguous) is an Error, not modelled.
// Range rule (gfx9 / CDNA), on index and offset before swizzling:
//  stride == 0 (raw) or the cache-swizzle mode: dword c is in range iff offset + 4c + 4 <= num_records
//    (a sub-dword access: offset + size <= num_records). Multi-dword
//    accesses are checked per dword (ISA guides: "Load/store-DWORD-x{2,3,4} range-check per
//    component"; LLVM AMDGPUUsage, "Relaxed Buffer OOB Mode": each 32-bit word is checked,
//    so a word straddling num_records is out of range).
//  stride != 0 (structured): every dword is in range iff index < num_records (records of
//    `stride` bytes); the offset within a record is not checked.
// soffset is added to the address but excluded from the check. Assumed, not documented for
// CDNA: the same range rule with swizzling and ADD_TID as without.
uint32_t buf_addr(Wave& w, const Op& op, int l, const Src* vaddr, const VSharp& v, uint32_t soff, uint32_t size, uint64_t& addr) {
  uint32_t index = 0, voff = 0;
  int part = 0;
  if (vaddr && op.idxen) index = lane_src(w, *vaddr, l, part++);
  if (vaddr && op.offen) voff = lane_src(w, *vaddr, l, part);
  if (v.add_tid) index += uint32_t(l);
  uint64_t off = uint64_t(voff) + uint32_t(op.offset);
  const bool cache_stride = linear_cache_swizzle(op, v);
  if (v.swizzle && !cache_stride) {
    const uint64_t es = v.element_size, is = v.index_stride;
    if (off % es + size > es)
      fail(w, op, "buffer resource with SWIZZLE_ENABLE set: swizzled / thread-id addressing is not modelled for an "
                      "access that crosses an element (" + std::to_string(size) + " bytes at offset " + std::to_string(off) +
                      ", the V#'s ELEMENT_SIZE is " + std::to_string(es) + " bytes: its bytes are not contiguous)", l);
    addr = v.base + soff + (index / is * v.stride + off / es * es) * is + index % is * es + off % es;
  } else {
    addr = v.base + soff + off + uint64_t(v.stride) * index;
  }
  uint32_t ndw = std::max<uint32_t>(1, size / 4), all = (1u << ndw) - 1;
  if (v.stride != 0 && !cache_stride) return index < v.num_records ? all : 0;  // the cache stride is no record size
  if (size < 4) return off + size <= v.num_records ? 1 : 0;
  uint32_t in = 0;
  for (uint32_t c = 0; c < ndw; ++c)
    if (off + 4 * c + 4 <= v.num_records) in |= 1u << c;
  return in;
}

std::string buf_oob(uint64_t addr, const VSharp& v) {
  return "buffer access at address " + hex(addr) + " outside the V# range (base " + hex(v.base) + ", stride " +
         std::to_string(v.stride) + ", num_records " + std::to_string(v.num_records) + ")";
}

// Operands: [vdata,] vaddr|off, srsrc, soffset
void buf_load(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  uint32_t bytes = op.aux & 0xff;
  bool to_lds = op.lds;
  const Src* vaddr = op.s[0].k == SrcKind::None ? nullptr : &op.s[0];
  VSharp v = vsharp(w, op.s[1]);
  uint32_t soff = read_s32(w, op.s[2]);
  LdsDma dma(w);
  uint32_t ndw = std::max<uint32_t>(1, bytes / 4), all = (1u << ndw) - 1;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a;
    uint32_t val[4] = {};
    uint32_t in = buf_addr(w, op, l, vaddr, v, soff, bytes, a);
    if (in != all && w.L->opt.check_buffer_range)
      fail(w, op, "out-of-range " + buf_oob(a, v) + " (hardware returns 0; Options::check_buffer_range is on)", l);
    if (in == all) {
      uint8_t* p = global_ptr(w, op, a, bytes, l, false);
      if (p) copy_lane(val, p, bytes);
    } else {
      for (uint32_t c = 0; c < ndw; ++c) {  // out-of-range dwords read as 0
        if (!((in >> c) & 1)) continue;
        uint8_t* p = global_ptr(w, op, a + 4 * c, 4, l, false);
        if (p) std::memcpy(&val[c], p, 4);
      }
    }
    if (to_lds) {
      val[0] = widen(op, val[0], bytes);
      dma.write(w, op, l, val, std::max<uint32_t>(bytes, 4));
    } else {
      load_lane(w, op, l, val, bytes);
    }
  }
  track(w, op, !to_lds);
  if (to_lds) dma.finish(w);
}
void buf_load_dispatch(Wave& w, const Op& op) {
  // Without lds, the data register is a destination: shift operand view.
  if (op.lds) return buf_load(w, op);
  buf_load(w, op);
}
void buf_store(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  uint32_t bytes = op.aux & 0xff;
  const Src& data = op.s[0];
  const Src* vaddr = op.s[1].k == SrcKind::None ? nullptr : &op.s[1];
  VSharp v = vsharp(w, op.s[2]);
  uint32_t soff = read_s32(w, op.s[3]);
  uint32_t ndw = std::max<uint32_t>(1, bytes / 4), all = (1u << ndw) - 1;
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint64_t a;
    uint32_t in = buf_addr(w, op, l, vaddr, v, soff, bytes, a);
    if (in != all && w.L->opt.check_buffer_range)
      fail(w, op, "out-of-range " + buf_oob(a, v) + " (hardware drops the store; Options::check_buffer_range is on)", l);
    uint32_t val[4];
    for (uint32_t i = 0; i < ndw; ++i) val[i] = lane_src(w, data, l, int(i));
    if (op.aux & 0x400) val[0] >>= 16;  // buffer_store_short_d16_hi / byte_d16_hi store the high half
    for (uint32_t c = 0; c < ndw; ++c) {  // out-of-range dwords are dropped
      if (!((in >> c) & 1)) continue;
      uint32_t n = std::min<uint32_t>(bytes, 4);
      uint8_t* p = global_ptr(w, op, a + 4 * c, n, l, true);
      if (p) std::memcpy(p, &val[c], n);
    }
  }
  track(w, op, false);
}

// ---- DS (LDS) ------------------------------------------------------------------
// aux: bytes (low 8), 0x100 sign-extend, 0x200 d16 (low half), 0x400 d16_hi, 0x800 read2/write2, 0x1000 st64
// The commonest case, with nothing to check lane by lane: ds_read_b32 / ds_write_b32 of all 64
// lanes at consecutive dwords, in range, no LDS DMA outstanding, no other wave's store pending
// (what ds_fast does for it: the store's tags, one copy, the wait-count entry). Kept apart from
// ds_fast, whose per-lane address arrays make a large stack frame, and inlined into the handlers.
// Whether the 64 lane addresses are a[0], a[0] + 4, ..., a[0] + 252 (mod 2^32): eight 8-lane
// compares on an AVX2 host, the portable loop elsewhere (same answer).
bool unit_dwords_portable(const uint32_t* a) {
  uint32_t dev = 0;
  for (int l = 1; l < 64; ++l) dev |= (a[l] - a[l - 1]) ^ 4u;
  return dev == 0;
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) bool unit_dwords_avx2(const uint32_t* a) {
  __m256i want = _mm256_add_epi32(_mm256_set1_epi32(int(a[0])), _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28));
  const __m256i step = _mm256_set1_epi32(32);
  __m256i dev = _mm256_setzero_si256();
  for (int i = 0; i < 8; ++i) {
    dev = _mm256_or_si256(dev, _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 8 * i)), want));
    want = _mm256_add_epi32(want, step);
  }
  return _mm256_testz_si256(dev, dev);
}
// Four 16-lane compares: half the instructions of the AVX2 form, on a hot path of every
// whole-row ds_read/write_b32.
__attribute__((target("avx512f"))) bool unit_dwords_avx512(const uint32_t* a) {
  const __m512i iota = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
  const __m512i want = _mm512_add_epi32(_mm512_set1_epi32(int(a[0])), iota), step = _mm512_set1_epi32(64);
  const __m512i w1 = _mm512_add_epi32(want, step), w2 = _mm512_add_epi32(w1, step), w3 = _mm512_add_epi32(w2, step);
  const __m512i d01 = _mm512_or_si512(_mm512_xor_si512(_mm512_loadu_si512(a), want), _mm512_xor_si512(_mm512_loadu_si512(a + 16), w1));
  const __m512i d23 = _mm512_or_si512(_mm512_xor_si512(_mm512_loadu_si512(a + 32), w2), _mm512_xor_si512(_mm512_loadu_si512(a + 48), w3));
  const __m512i dev = _mm512_or_si512(d01, d23);
  return _mm512_test_epi32_mask(dev, dev) == 0;
}
const int kUnitDwordsIsa = host_cpu().avx512f ? 2 : host_cpu().avx2 ? 1 : 0;
inline bool unit_dwords(const uint32_t* a) {
  return kUnitDwordsIsa == 2 ? unit_dwords_avx512(a) : kUnitDwordsIsa == 1 ? unit_dwords_avx2(a) : unit_dwords_portable(a);
}
#else
inline bool unit_dwords(const uint32_t* a) { return unit_dwords_portable(a); }
#endif

template <bool WRITE>
inline bool ds_b32_row(Wave& w, const Op& op) {
  if ((op.aux & 0xfff) != 4 || op.s[0].k != SrcKind::V || w.exec() != ~0ull || (w.wg_dma_pending && *w.wg_dma_pending) ||
      (w.lds_tags && lds_stores_elsewhere(w)) || (WRITE && op.s[1].k != SrcKind::V) || w.lds_size < 4)
    return false;
  const uint32_t* addr = w.vr(op.s[0].idx);
  const uint32_t first = addr[0] + uint32_t(op.offset), limit = w.lds_size - 4;
  if (first > limit || limit - first < 63 * 4 || !unit_dwords(addr)) return false;
  if (WRITE && w.lds_tags) lds_store_lanes(w, op, &first, ~0ull, 4, true);
  if (WRITE) copy_row(w.lds + first, w.vr(op.s[1].idx));
  else copy_row(w.vr(op.d[0].idx), w.lds + first);
  track(w, op, !WRITE);
  return true;
}

// A full-EXEC gather of one dword per lane, reg[l] = the 4 bytes at base + ek[l] (every lane in
// range, checked by the caller): four 16-lane gathers where the host has AVX-512, the same loads
// as the scalar loop. Reads only: a scatter's order among lanes that hit one address is left to
// the scalar loop, whose last lane wins.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f"))) void gather_row_avx512(uint32_t* reg, const uint8_t* base, const uint32_t* ek) {
  for (int l = 0; l < 64; l += 16) {
    const __m512i idx = _mm512_loadu_si512(ek + l);
    _mm512_storeu_si512(reg + l, _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xffff, idx, base, 1));
  }
}
const bool kGatherAvx512 = host_cpu().avx512f;
#else
constexpr bool kGatherAvx512 = false;
inline void gather_row_avx512(uint32_t*, const uint8_t*, const uint32_t*) {}
#endif

// Full EXEC, the per-lane LDS addresses of ds_fast: ek[l] = a[l] + off (mod 2^32), and whether any
// lane starts past `limit`; and whether lane l's raw address is a[0] + l * stride (mod 2^32). Four
// 16-lane steps where the host has AVX-512, the scalar loops of ds_fast elsewhere (same answers).
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f"))) bool lane_addresses_out_avx512(const uint32_t* a, uint32_t off, uint32_t limit, uint32_t* ek) {
  const __m512i o = _mm512_set1_epi32(int(off)), lim = _mm512_set1_epi32(int(limit));
  __mmask16 out = 0;
  for (int l = 0; l < 64; l += 16) {
    const __m512i x = _mm512_add_epi32(_mm512_loadu_si512(a + l), o);
    _mm512_storeu_si512(ek + l, x);
    out |= _mm512_cmpgt_epu32_mask(x, lim);
  }
  return out != 0;
}
__attribute__((target("avx512f"))) bool lanes_unit_stride_avx512(const uint32_t* a, uint32_t stride) {
  alignas(64) uint32_t first[16];
  for (uint32_t l = 0; l < 16; ++l) first[l] = a[0] + l * stride;
  const __m512i step = _mm512_set1_epi32(int(stride * 16));
  __m512i want = _mm512_load_si512(first);
  __mmask16 dev = 0;
  for (int l = 0; l < 64; l += 16) {
    dev |= _mm512_cmpneq_epi32_mask(_mm512_loadu_si512(a + l), want);
    want = _mm512_add_epi32(want, step);
  }
  return dev == 0;
}
const bool kDsLanesAvx512 = host_cpu().avx512f;
#else
constexpr bool kDsLanesAvx512 = false;
inline bool lane_addresses_out_avx512(const uint32_t*, uint32_t, uint32_t, uint32_t*) { return false; }
inline bool lanes_unit_stride_avx512(const uint32_t*, uint32_t) { return false; }
#endif

// Fast path for dword-multiple reads/writes with a VGPR address, done on whole lane vectors: the
// addresses, the bounds check (one reduction) and, for the unit-stride full-EXEC access, one block
// copy per register; any out-of-range lane falls back to the checked per-lane path, which reports it.
template <bool WRITE>
bool ds_fast(Wave& w, const Op& op) {
  uint32_t bytes = op.aux & 0xff;
  if ((bytes & 3) || (op.aux & 0x700) || op.s[0].k != SrcKind::V) return false;
  bool two = op.aux & 0x800;
  uint32_t scale = (op.aux & 0x1000) ? bytes * 64 : bytes;
  uint32_t ndw = bytes / 4;
  const int nk = two ? 2 : 1;
  uint64_t e = w.exec();
  const uint32_t* addr = w.vr(op.s[0].idx);  // read before any register is written
  const uint64_t size = w.lds_size;
  if (size < bytes) return false;
  if (WRITE)
    for (int k = 0; k < nk; ++k)
      if (op.s[1 + k].k != SrcKind::V) return false;
  // Per-lane addresses are needed for the DMA check and the store-visibility check against other
  // waves; a unit-stride access that needs neither never builds them.
  const bool dma = w.wg_dma_pending && *w.wg_dma_pending;
  const bool lanes_checked = dma || (w.lds_tags && lds_stores_elsewhere(w));
  const uint32_t limit = uint32_t(size - bytes);  // the highest address an access may start at
  // Unit stride (all 64 lanes on, lane l at addr[0] + l * bytes, mod 2^32), from the raw addresses.
  bool raw_unit = false;
  if (e == ~0ull && kDsLanesAvx512) {
    raw_unit = lanes_unit_stride_avx512(addr, bytes);
  } else if (e == ~0ull) {
    uint32_t dev = 0;
    for (int l = 1; l < 64; ++l) dev |= (addr[l] - addr[l - 1]) ^ bytes;
    raw_unit = dev == 0;
  }
  // LDS addresses are 32-bit: VGPR + offset wraps (clang folds negative bases into offsets).
  uint32_t eff[2][64];
  uint32_t first[2] = {0, 0};
  bool unit[2] = {false, false};  // lane l at first[k] + l * bytes, all 64 lanes on, no wrap
  for (int k = 0; k < nk; ++k) {
    uint32_t off = two ? uint32_t(k ? op.offset1 : op.offset0) * scale : uint32_t(op.offset);
    uint32_t* ek = eff[k];
    first[k] = addr[0] + off;
    if (raw_unit && first[k] <= limit && limit - first[k] >= 63 * bytes) {  // every lane in range
      unit[k] = true;
      if (lanes_checked)
        for (int l = 0; l < 64; ++l) ek[l] = first[k] + uint32_t(l) * bytes;
    } else if (e == ~0ull && kDsLanesAvx512) {
      if (lane_addresses_out_avx512(addr, off, limit, ek)) return false;
    } else if (e == ~0ull) {
      // Branch-free over 64 lanes (vectorises): any lane out of range.
      uint32_t out = 0;
      for (int l = 0; l < 64; ++l) {
        const uint32_t x = addr[l] + off;
        ek[l] = x;
        out |= uint32_t(x > limit);
      }
      if (out) return false;
    } else {
      for (int l = 0; l < 64; ++l) {
        ek[l] = addr[l] + off;
        if (((e >> l) & 1) && ek[l] > limit) return false;
      }
    }
  }
  // The fast path does not go through lds_ptr: check reads and writes against outstanding LDS DMA here.
  if (dma)
    for (int k = 0; k < nk; ++k)
      for (int l = 0; l < 64; ++l)
        if ((e >> l) & 1) check_lds_dma(w, op, eff[k][l], uint64_t(eff[k][l]) + bytes, l);
  // ... and against the other waves' pending stores, marking this one's (store_visibility.cpp).
  if (w.lds_tags && (WRITE || lds_stores_elsewhere(w)))
    for (int k = 0; k < nk; ++k) lds_store_lanes(w, op, unit[k] ? (lanes_checked ? eff[k] : &first[k]) : eff[k], e, bytes, unit[k]);
  for (int k = 0; k < nk; ++k) {
    for (uint32_t i = 0; i < ndw; ++i) {
      uint32_t* reg = WRITE ? w.vr(uint16_t(op.s[1 + k].idx + i)) : w.vr(uint16_t(op.d[0].idx + k * ndw + i));
      uint8_t* base = w.lds + 4 * i;
      const uint32_t* ek = eff[k];
      if (unit[k]) {
        uint8_t* p = base + first[k];
        if (ndw == 1) {  // 64 consecutive dwords
          if (WRITE) copy_row(p, reg);
          else copy_row(reg, p);
          continue;
        }
        for (int l = 0; l < 64; ++l) {  // dword i of 64 consecutive ndw-dword elements
          if (WRITE) std::memcpy(p + size_t(l) * bytes, &reg[l], 4);
          else std::memcpy(&reg[l], p + size_t(l) * bytes, 4);
        }
        continue;
      }
      if (e == ~0ull) {  // full EXEC: branch-free loop
        if (!WRITE && kGatherAvx512) {
          gather_row_avx512(reg, base, ek);
          continue;
        }
        for (int l = 0; l < 64; ++l) {
          if (WRITE) std::memcpy(base + ek[l], &reg[l], 4);
          else std::memcpy(&reg[l], base + ek[l], 4);
        }
        continue;
      }
      for (int l = 0; l < 64; ++l) {
        if (!((e >> l) & 1)) continue;
        if (WRITE) std::memcpy(base + ek[l], &reg[l], 4);
        else std::memcpy(&reg[l], base + ek[l], 4);
      }
    }
  }
  track(w, op, !WRITE);
  return true;
}

// The generic (per-lane) DS access pattern shared by reads and writes: op.aux holds the
// access size (bits 7:0), read2/write2 (0x800) and the stride-64 forms (0x1000). Calls
// f(lane, k, address) for each active lane and each of its one or two accesses.
struct DsAccess {
  uint32_t bytes, scale, ndw;
  bool two;
  explicit DsAccess(const Op& op)
      : bytes(op.aux & 0xff),
        scale((op.aux & 0x1000) ? (op.aux & 0xff) * 64 : (op.aux & 0xff)),
        ndw(std::max<uint32_t>(1, (op.aux & 0xff) / 4)),
        two(op.aux & 0x800) {}
  template <class F>
  void for_each(Wave& w, const Op& op, F&& f) const {
    uint64_t e = w.exec();
    for (int l = 0; l < 64; ++l) {
      if (!((e >> l) & 1)) continue;
      uint32_t base = lane_src(w, op.s[0], l);
      for (int k = 0; k < (two ? 2 : 1); ++k) {
        uint32_t a = two ? base + uint32_t(k ? op.offset1 : op.offset0) * scale : base + uint32_t(op.offset);  // 32-bit wrap
        f(l, k, a);
      }
    }
  }
};

void ds_read(Wave& w, const Op& op) {
  if (ds_b32_row<false>(w, op) || ds_fast<false>(w, op)) return;
  const DsAccess ds(op);
  ds.for_each(w, op, [&](int l, int k, uint32_t a) {
    uint8_t* p = lds_ptr(w, op, a, ds.bytes, l);
    uint32_t v[4] = {};
    if (p) copy_lane(v, p, ds.bytes);
    load_lane(w, op, l, v, ds.bytes, k * int(ds.ndw));
  });
  track(w, op, true);
}
void ds_write(Wave& w, const Op& op) {
  if (op.s[1].k == SrcKind::V && (op.ns < 3 || op.s[2].k == SrcKind::V) && (ds_b32_row<true>(w, op) || ds_fast<true>(w, op)))
    return;
  const DsAccess ds(op);
  ds.for_each(w, op, [&](int l, int k, uint32_t a) {
    if (uint8_t* p = lds_ptr(w, op, a, ds.bytes, l)) store_lane(w, op, op.s[1 + k], l, p, ds.bytes);
  });
  track(w, op, false);
}
// LDS atomics (32-bit); with a return value when nd == 1.
template <int K>
void ds_atomic(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  for (int l = 0; l < 64; ++l) {
    if (!((e >> l) & 1)) continue;
    uint32_t a = lane_src(w, op.s[0], l) + uint32_t(op.offset);
    uint8_t* p = lds_ptr(w, op, a, 4, l);
    if (!p) continue;
    uint32_t old, v = lane_src(w, op.s[1], l), n;
    std::memcpy(&old, p, 4);
    switch (K) {
      case 0: n = old + v; break;
      case 1: n = old - v; break;
      case 2: n = std::max(old, v); break;
      case 3: n = std::min(old, v); break;
      case 4: n = old & v; break;
      case 5: n = old | v; break;
      case 6: n = old ^ v; break;
      case 7: n = v; break;
      case 8: n = uint32_t(std::max(int32_t(old), int32_t(v))); break;
      default: n = uint32_t(std::min(int32_t(old), int32_t(v))); break;  // 9; the float atomics are in ops_atomic.cpp
    }
    std::memcpy(p, &n, 4);
    if (op.nd) w.vr(op.d[0].idx)[l] = old;
  }
  track(w, op, op.nd > 0);
}
// ds_bpermute_b32 d, addr, data: d[lane] = data[(addr[lane] + offset) / 4 % 64] (reads inactive lanes as 0).
void ds_bpermute(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  uint32_t src[64], r[64];
  for (int l = 0; l < 64; ++l) src[l] = ((e >> l) & 1) ? lane_src(w, op.s[1], l) : 0;
  for (int l = 0; l < 64; ++l) r[l] = src[((lane_src(w, op.s[0], l) + uint32_t(op.offset)) >> 2) & 63];
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) d[l] = r[l];
  track(w, op, true);
}
void ds_permute(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  uint32_t r[64] = {};
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) r[((lane_src(w, op.s[0], l) + uint32_t(op.offset)) >> 2) & 63] = lane_src(w, op.s[1], l);
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) d[l] = r[l];
  track(w, op, true);
}

}  // namespace

namespace {
// Op::aux of the memory handlers above: bytes per lane per address, then the data form.
enum : uint32_t { kSext = 0x100, kD16Lo = 0x200, kD16Hi = 0x400, kTwoAddresses = 0x800, kStride64 = 0x1000 };
// A plain load or store row's access as its table row declares it (InstrInfo::access_bytes and the
// sign / D16 flags after it).
uint32_t declared_access(const isa::InstrInfo& row) {
  return row.access_bytes | (row.sign_extends ? kSext : 0u) | (row.d16 ? kD16Lo : 0u) | (row.d16_hi ? kD16Hi : 0u);
}
// SMEM: the data's dwords, and 0x100 when the base is a 4-dword buffer resource (s_buffer_*).
uint32_t smem_aux(O op) {
  const isa::InstrInfo& row = isa::info(op);
  return row.operands[0].dwords | (row.operands[1].dwords == 4 ? 0x100u : 0u);
}
}  // namespace

void register_mem(Registry& r) {
  using isa::Family;
  for (O op : {O::s_load_dword, O::s_load_dwordx2, O::s_load_dwordx4, O::s_load_dwordx8, O::s_load_dwordx16,
               O::s_buffer_load_dword, O::s_buffer_load_dwordx2, O::s_buffer_load_dwordx4, O::s_buffer_load_dwordx8,
               O::s_buffer_load_dwordx16})
    r.add(op, &s_load, FType::Int, smem_aux(op));
  for (O op : {O::s_store_dword, O::s_store_dwordx2, O::s_store_dwordx4, O::s_buffer_store_dword,
               O::s_buffer_store_dwordx2, O::s_buffer_store_dwordx4})
    r.add(op, &s_store, FType::Int, smem_aux(op));
  // Scalar cache control: the model has no scalar cache (every SMEM access reads and writes
  // memory directly), so write-back, invalidate and discard only take their lgkmcnt slot. LLVM
  // counts all of them on lgkmcnt (SMInstructions.td: SM_Inval_Pseudo and SM_Discard_Pseudo keep
  // SM_Pseudo's LGKM_CNT = 1), as the table does.
  for (O op : {O::s_dcache_wb, O::s_dcache_inv, O::s_dcache_wb_vol, O::s_dcache_inv_vol, O::s_dcache_discard,
               O::s_dcache_discard_x2})
    r.add(op, +[](Wave& w, const Op& op) { pend_add(w, op, kCntSmem, 0, 0, 0); });
  // VMEM loads and stores (LDS DMA included): every row of the GLOBAL, FLAT, MUBUF and SCRATCH
  // families with a declared access (plain loads and stores; atomics and format forms are below
  // and in ops_buffer_format.cpp), the handler chosen by family and direction.
  for (const isa::InstrInfo& row : isa::table()) {
    if (!row.access_bytes) continue;
    const bool dma = isa::is(row, isa::kClassLdsDma);
    Handler h = nullptr;
    switch (row.family) {
      case Family::GLOBAL: h = dma ? &g_load_lds : row.is_load ? &g_load : &g_store; break;
      case Family::FLAT: h = row.is_load ? &g_load : &g_store; break;
      case Family::MUBUF: h = row.is_load ? &buf_load_dispatch : &buf_store; break;
      case Family::SCRATCH: h = dma ? &scratch_load_lds : row.is_load ? &scratch_load : &scratch_store; break;
      default: continue;
    }
    r.add(isa::opcode_of(row), h, FType::Int, declared_access(row));
  }
  // LDS reads and writes: every DS row with a declared access; two-address forms by their
  // offset0/offset1 modifiers.
  for (const isa::InstrInfo& row : isa::table()) {
    if (row.family != Family::DS || !row.access_bytes) continue;
    const O op = isa::opcode_of(row);
    uint32_t aux = declared_access(row);
    if (row.mods & isa::kModOffset01) aux |= kTwoAddresses;
    if (op == O::ds_read2st64_b32 || op == O::ds_read2st64_b64 || op == O::ds_write2st64_b32 || op == O::ds_write2st64_b64)
      aux |= kStride64;
    r.add(op, row.is_load ? &ds_read : &ds_write, FType::Int, aux);
  }
  // ds_nop: counted on lgkmcnt as the table (and LLVM: DS_VOID keeps DS_Pseudo's LGKM_CNT = 1) says.
  r.add(O::ds_nop, +[](Wave& w, const Op& op) { pend_add(w, op, kCntLgkm, 1, 0, 0); });
  struct At { O global, flat; Handler h; };
  static const At at[] = {{O::global_atomic_add, O::flat_atomic_add, &g_atomic<0>},
                          {O::global_atomic_sub, O::flat_atomic_sub, &g_atomic<1>},
                          {O::global_atomic_swap, O::flat_atomic_swap, &g_atomic<2>},
                          {O::global_atomic_and, O::flat_atomic_and, &g_atomic<3>},
                          {O::global_atomic_or, O::flat_atomic_or, &g_atomic<4>},
                          {O::global_atomic_xor, O::flat_atomic_xor, &g_atomic<5>},
                          {O::global_atomic_umax, O::flat_atomic_umax, &g_atomic<6>},
                          {O::global_atomic_umin, O::flat_atomic_umin, &g_atomic<7>},
                          {O::global_atomic_smax, O::flat_atomic_smax, &g_atomic<9>},
                          {O::global_atomic_smin, O::flat_atomic_smin, &g_atomic<10>},
                          {O::global_atomic_cmpswap, O::flat_atomic_cmpswap, &g_atomic<11>}};
  for (const auto& a : at) {
    r.add(a.global, a.h, FType::Int, 4);
    r.add(a.flat, a.h, FType::Int, 4);
  }
  struct DsAt { O plain, rtn; Handler h; };
  static const DsAt da[] = {{O::ds_add_u32, O::ds_add_rtn_u32, &ds_atomic<0>}, {O::ds_sub_u32, O::ds_sub_rtn_u32, &ds_atomic<1>},
                            {O::ds_max_u32, O::ds_max_rtn_u32, &ds_atomic<2>}, {O::ds_min_u32, O::ds_min_rtn_u32, &ds_atomic<3>},
                            {O::ds_and_b32, O::ds_and_rtn_b32, &ds_atomic<4>}, {O::ds_or_b32, O::ds_or_rtn_b32, &ds_atomic<5>},
                            {O::ds_xor_b32, O::ds_xor_rtn_b32, &ds_atomic<6>}, {O::ds_max_i32, O::ds_max_rtn_i32, &ds_atomic<8>},
                            {O::ds_min_i32, O::ds_min_rtn_i32, &ds_atomic<9>}};
  for (const auto& a : da) {
    r.add(a.plain, a.h, FType::Int, 4);
    r.add(a.rtn, a.h, FType::Int, 4);
  }
  r.add(O::ds_wrxchg_rtn_b32, &ds_atomic<7>, FType::Int, 4);
  r.add(O::ds_bpermute_b32, &ds_bpermute, FType::Int, 4);
  r.add(O::ds_permute_b32, &ds_permute, FType::Int, 4);
  // Cache maintenance: simulated memory is coherent, so only the vmcnt bookkeeping remains.
  for (O op : {O::buffer_wbl2, O::buffer_inv})
    r.add(op, +[](Wave& w, const Op& op) { pend_add(w, op, kCntVm, 1, 0, 0); });
  r.add(O::ds_swizzle_b32, &ds_swizzle, FType::Int, 4);
}

// ---- timing-model recording -------------------------------------------------------
// The same address arithmetic as the handlers above (vaddr_of, buf_addr, DsAccess),
// evaluated before the instruction runs (its destination may overwrite the address).
int memory_addresses(Wave& w, const Op& op, uint64_t* out) {
  const uint64_t e = w.exec();
  auto lanes = [&](auto&& addr_of) {
    for (int l = 0; l < 64; ++l) out[l] = ((e >> l) & 1) ? addr_of(l) : kNoAddress;
    return 64;
  };
  // The same for an address that any lane may compute (no memory read, no fault): every lane
  // computed, then the lanes outside EXEC cleared (the loop vectorizes).
  auto all_lanes = [&](auto&& addr_of) {
    for (int l = 0; l < 64; ++l) out[l] = addr_of(l);
    if (e != ~0ull)
      for (int l = 0; l < 64; ++l)
        if (!((e >> l) & 1)) out[l] = kNoAddress;
    return 64;
  };
  if (op.fn == &ds_read || op.fn == &ds_write ||
      (op.unit == isa::Unit::DS && op.fn != &ds_bpermute && op.fn != &ds_permute && op.fn != &ds_swizzle &&
       op.s[0].k == SrcKind::V)) {
    const DsAccess ds(op);
    std::fill(out, out + (ds.two ? 128 : 64), kNoAddress);
    ds.for_each(w, op, [&](int l, int k, uint32_t a) { out[k * 64 + l] = a; });
    return ds.two ? 128 : 64;
  }
  if (op.fn == &g_load || op.fn == &g_load_lds || op.fn == &g_store) {
    const Src* saddr = op.ns > (op.fn == &g_store ? 2 : 1) ? &op.s[op.fn == &g_store ? 2 : 1] : nullptr;
    const Src& va = op.s[0];
    if (va.k == SrcKind::V) {  // vaddr_of's two forms with the lane loop's invariants hoisted (it vectorizes)
      const uint32_t* lo = &w.v[size_t(va.idx) * 64];
      if (saddr && saddr->k == SrcKind::S) {
        const uint64_t base = read_s64(w, *saddr) + int64_t(op.offset);
        return all_lanes([&](int l) { return base + lo[l]; });
      }
      if (size_t(va.idx) + 1 < size_t(kVFile)) {
        const uint32_t* hi = &w.v[(size_t(va.idx) + 1) * 64];
        const uint64_t off = uint64_t(int64_t(op.offset));
        return all_lanes([&](int l) { return (uint64_t(lo[l]) | uint64_t(hi[l]) << 32) + off; });
      }
    }
    return lanes([&](int l) { return vaddr_of(w, op, va, saddr, l); });
  }
  if (op.fn == &buf_load || op.fn == &buf_load_dispatch || op.fn == &buf_store) {
    const bool store = op.fn == &buf_store;
    const Src* vaddr = op.s[store ? 1 : 0].k == SrcKind::None ? nullptr : &op.s[store ? 1 : 0];
    const VSharp v = vsharp(w, op.s[store ? 2 : 1]);
    const uint32_t soff = read_s32(w, op.s[store ? 3 : 2]);
    // A lane with no dword in range touches no line (the range rule at buf_addr; CDNA3 ISA guide,
    // buffer range checking: out-of-range stores are dropped and out-of-range loads return zero
    // without a memory read), so it records no address, as an inactive lane. The instruction itself
    // still issues (the model charges its issue and its vmcnt slot).
    return lanes([&](int l) {
      uint64_t a = 0;
      return buf_addr(w, op, l, vaddr, v, soff, op.aux & 0xff, a) ? a : kNoAddress;
    });
  }
  return 0;  // SMEM, atomics on global memory, scratch, LDS permutes: no per-lane addresses recorded
}

uint32_t memory_lane_bytes(const Op& op) {
  if (op.unit == isa::Unit::DS || op.unit == isa::Unit::VMEM) return op.aux & 0xff;
  return 0;
}
bool memory_is_lds_dma(const Op& op) { return op.fn == &g_load_lds || op.fn == &scratch_load_lds || ((op.fn == &buf_load || op.fn == &buf_load_dispatch) && op.lds); }
bool memory_is_scratch(const Op& op) { return op.fn == &scratch_load || op.fn == &scratch_store || op.fn == &scratch_load_lds; }

}  // namespace cdnajit::sim

namespace cdnajit::sim {
// For the handler files outside this one (ops_atomic.cpp): the same wait-count
// bookkeeping and per-lane global address as the handlers above.
void mem_track(Wave& w, const Op& op, bool has_dst) { track(w, op, has_dst); }
uint64_t mem_vaddr(Wave& w, const Op& op, const Src& va, const Src* saddr, int l) { return vaddr_of(w, op, va, saddr, l); }
uint32_t mem_buffer_addr(Wave& w, const Op& op, int l, const Src* vaddr, const Src& rsrc, uint32_t soff, uint32_t bytes,
                         uint64_t& addr) {
  return buf_addr(w, op, l, vaddr, vsharp(w, rsrc), soff, bytes, addr);
}
}  // namespace cdnajit::sim
