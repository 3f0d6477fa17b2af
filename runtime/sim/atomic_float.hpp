// Arithmetic of the float memory atomics (ds_add/min/max/cmpst_f32/f64, ds_pk_add_f16/bf16,
// global/flat/buffer *_add_f32/f64, *_pk_add_f16/bf16, *_min/max_f64) on raw bits, as the
// CDNA4 ISA guide states it in section 9.2 "Float Memory Atomics" (applied to gfx942 too: the
// CDNA3 guide's text was not available here; LLVM 22 states the rounding and LDS facts for both):
//  - Rounding: every float atomic add rounds to nearest even, whatever MODE's round mode says
//    ("All float atomic ADD opcodes use Round to Nearest-Even"; LLVM 22 SIISelLowering.cpp,
//    shouldExpandAtomicRMWInIR, on the LDS adds: "the rounding mode is fixed to
//    round-to-nearest-even").
//  - NaN: an add with a NaN operand gives that NaN made quiet; both NaN: the first operand's
//    ("Float Add rules"). Min/max: a signalling NaN operand gives itself made quiet (src0 before
//    src1); otherwise a quiet NaN loses to any number (it sorts below -inf for max and above
//    +inf for min), and -0 < +0 ("FP Max/Min Selection Rules"). Compare-store never matches a
//    NaN and takes +0 == -0.
//  - Denormals: flushed to zero with their sign kept where the caller says (which atomic flushes
//    what depends on where it runs: ops_atomic.cpp). Min/max/compare flush only for the
//    comparison; min/max then return the selected operand unmodified.
// Assumed where the guide leaves it open (runtime/sim/README.md, "Known and assumed"): src0 /
// the first operand is the memory value (the pseudo-code's `tmp`, listed first), visible only
// when both operands are NaN; a min/max tie (equal after flushing) keeps the memory value, as
// the pseudo-code `MEM = src < tmp ? src : tmp` does; the NaN an add creates (inf + -inf) is the
// positive quiet NaN (the guide gives only its mantissa, "all zeros except MSB").
#pragma once
#include <cstdint>
#include <cstring>

#include "runtime/sim/fp.hpp"

namespace cdnajit::sim {

enum class AtomicFloat : uint8_t { F16, BF16, F32, F64 };

struct AtomicDenormals {
  bool flush_in = false, flush_out = false;
};

namespace atomic_float_detail {
struct Format {
  uint64_t sign, exp, quiet;  // bit masks; the mantissa is quiet * 2 - 1
  uint64_t mantissa() const { return quiet * 2 - 1; }
};
constexpr Format format(AtomicFloat t) {
  switch (t) {
    case AtomicFloat::F16: return {0x8000, 0x7c00, 0x0200};
    case AtomicFloat::BF16: return {0x8000, 0x7f80, 0x0040};
    case AtomicFloat::F32: return {0x80000000u, 0x7f800000u, 0x00400000u};
    case AtomicFloat::F64: break;
  }
  return {1ull << 63, 0x7ffull << 52, 1ull << 51};
}
inline bool is_nan(uint64_t u, Format f) { return (u & f.exp) == f.exp && (u & f.mantissa()) != 0; }
inline bool is_snan(uint64_t u, Format f) { return is_nan(u, f) && !(u & f.quiet); }
inline uint64_t flushed(uint64_t u, Format f) { return (u & f.exp) == 0 ? u & f.sign : u; }
// A signed integer that orders non-NaN values as the floats they encode, with -0 below +0.
inline int64_t order_key(uint64_t u, Format f) {
  const int64_t mag = int64_t(u & (f.exp | f.mantissa()));
  return (u & f.sign) ? -mag - 1 : mag;
}
// a + b rounded to nearest even once (f16/bf16 through the exact-enough f32 sum: 24 >= 2p + 2).
inline uint64_t add_rne(uint64_t a, uint64_t b, AtomicFloat t) {
  switch (t) {
    case AtomicFloat::F16: return f32_to_f16(bits_of(f16_to_f32(uint16_t(a)) + f16_to_f32(uint16_t(b))));
    case AtomicFloat::BF16: return f32_to_bf16(bits_of(f32_of(bf16_to_f32(uint16_t(a))) + f32_of(bf16_to_f32(uint16_t(b)))));
    case AtomicFloat::F32: return bits_of(f32_of(uint32_t(a)) + f32_of(uint32_t(b)));
    case AtomicFloat::F64: break;
  }
  double x, y;
  std::memcpy(&x, &a, 8);
  std::memcpy(&y, &b, 8);
  const double s = x + y;
  uint64_t r;
  std::memcpy(&r, &s, 8);
  return r;
}
}  // namespace atomic_float_detail

inline bool atomic_is_denormal(uint64_t u, AtomicFloat t) {
  const auto f = atomic_float_detail::format(t);
  return (u & f.exp) == 0 && (u & f.mantissa()) != 0;
}

// The new memory value of an atomic add of `data` to `mem`.
inline uint64_t atomic_fadd(uint64_t mem, uint64_t data, AtomicFloat t, AtomicDenormals d) {
  using namespace atomic_float_detail;
  const Format f = format(t);
  if (is_nan(mem, f)) return mem | f.quiet;
  if (is_nan(data, f)) return data | f.quiet;
  if (d.flush_in) {
    mem = flushed(mem, f);
    data = flushed(data, f);
  }
  const uint64_t r = add_rne(mem, data, t);
  if (is_nan(r, f)) return f.exp | f.quiet;  // inf + -inf
  return d.flush_out ? flushed(r, f) : r;
}

// The new memory value of an atomic min (max = false) or max of `mem` and `data`.
inline uint64_t atomic_fminmax(uint64_t mem, uint64_t data, AtomicFloat t, bool max, bool flush_in) {
  using namespace atomic_float_detail;
  const Format f = format(t);
  if (is_snan(mem, f)) return mem | f.quiet;
  if (is_snan(data, f)) return data | f.quiet;
  if (is_nan(data, f)) return mem;  // a quiet NaN loses; two quiet NaNs keep the memory value
  if (is_nan(mem, f)) return data;
  const int64_t km = order_key(flush_in ? flushed(mem, f) : mem, f), kd = order_key(flush_in ? flushed(data, f) : data, f);
  return (max ? kd > km : kd < km) ? data : mem;
}

// Whether compare-store finds `mem` equal to `cmp` (never for a NaN; +0 == -0).
inline bool atomic_fequal(uint64_t mem, uint64_t cmp, AtomicFloat t, bool flush_in) {
  using namespace atomic_float_detail;
  const Format f = format(t);
  if (is_nan(mem, f) || is_nan(cmp, f)) return false;
  if (flush_in) {
    mem = flushed(mem, f);
    cmp = flushed(cmp, f);
  }
  const uint64_t magnitude = f.exp | f.mantissa();
  return mem == cmp || ((mem & magnitude) == 0 && (cmp & magnitude) == 0);
}

}  // namespace cdnajit::sim
