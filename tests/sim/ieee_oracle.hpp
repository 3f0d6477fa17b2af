// IEEE 754 rounding and bit encoding as a test oracle: a deliberate independent re-implementation
// (scale by a power of two, std::nearbyint in the default round-to-nearest-even mode, scale back;
// subnormals by a floor on the quantum; overflow to infinity; bit fields packed by hand), sharing no
// code with the simulator. Used by the clang-kernel corpus tests (test_clang_conversions.cpp,
// test_clang_atomics.cpp, test_clang_special_math.cpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace ieee_oracle {

// A binary floating-point format: `prec` significand bits (with the hidden one), smallest normal
// exponent emin (|x| >= 2^emin), overflow at 2^emax; ebits exponent field bits.
struct Fmt {
  int prec, emin, emax, ebits;
};
const Fmt kF16{11, -14, 16, 5}, kBF16{8, -126, 128, 8}, kF32{24, -126, 128, 8}, kF64{53, -1022, 1024, 11};

// x (exact, a double) rounded to nearest-even in format f; infinities for overflow, signed zeros.
inline double round_to(double x, const Fmt& f) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  int e;
  (void)std::frexp(x, &e);                        // |x| in [2^(e-1), 2^e)
  const int q = std::max(e - f.prec, f.emin - f.prec + 1);  // exponent of the last significand bit
  double r = std::ldexp(std::nearbyint(std::ldexp(x, -q)), q);
  if (std::fabs(r) >= std::ldexp(1.0, f.emax)) r = std::copysign(INFINITY, x);
  if (r == 0) r = std::copysign(0.0, x);
  return r;
}

// Bits of a value exactly representable in f (or inf / zero), f at most 32 bits wide; NaN -> the
// canonical quiet NaN.
inline uint32_t encode(double r, const Fmt& f) {
  const int mbits = f.prec - 1, bias = (1 << (f.ebits - 1)) - 1;
  const uint32_t sign = std::signbit(r) ? 1u << (f.ebits + mbits) : 0u;
  const uint32_t inf = ((1u << f.ebits) - 1) << mbits;
  if (std::isnan(r)) return inf | (1u << (mbits - 1));
  r = std::fabs(r);
  if (std::isinf(r)) return sign | inf;
  if (r == 0) return sign;
  if (r < std::ldexp(1.0, f.emin)) return sign | uint32_t(std::ldexp(r, f.prec - 1 - f.emin));  // subnormal: units of the last bit
  int e;
  double m = std::frexp(r, &e);  // r = m * 2^e, m in [0.5, 1)
  return sign | uint32_t(e - 1 + bias) << mbits | (uint32_t(std::ldexp(m, f.prec)) & ((1u << mbits) - 1));
}

inline double decode(uint32_t b, const Fmt& f) {
  const int mbits = f.prec - 1, bias = (1 << (f.ebits - 1)) - 1;
  const uint32_t m = b & ((1u << mbits) - 1), e = (b >> mbits) & ((1u << f.ebits) - 1);
  const double s = (b >> (f.ebits + mbits)) & 1 ? -1.0 : 1.0;
  if (e == (1u << f.ebits) - 1) return m ? NAN : s * INFINITY;
  return e == 0 ? s * std::ldexp(double(m), f.emin - mbits) : s * std::ldexp(double(m | (1u << mbits)), int(e) - bias - mbits);
}

inline bool is_nan(uint64_t b, const Fmt& f) {
  const int mbits = f.prec - 1;
  return ((b >> mbits) & ((uint64_t(1) << f.ebits) - 1)) == (uint64_t(1) << f.ebits) - 1 && (b & ((uint64_t(1) << mbits) - 1)) != 0;
}

// The ISA guide's float -> int32 / uint32: truncate toward zero, saturate, NaN -> 0.
inline uint32_t to_int(double v, bool is_signed) {
  if (std::isnan(v)) return 0;
  const double t = std::trunc(v);
  if (is_signed) return t >= 2147483647.0 ? 0x7fffffffu : t <= -2147483648.0 ? 0x80000000u : uint32_t(int32_t(t));
  return t >= 4294967295.0 ? 0xffffffffu : t <= 0 ? 0u : uint32_t(t);
}

// ---- Reporting ----

inline uint64_t dbits(double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; }
inline double dval(uint64_t u) { double d; std::memcpy(&d, &u, 8); return d; }

inline std::string hex(uint64_t v) { char b[24]; std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v); return b; }

// Counts mismatches, keeping the first few with their context; `nan_fmt` set: any NaN of that format matches any NaN.
struct Tally {
  size_t checked = 0, bad = 0;
  std::string first;
  void check(uint64_t got, uint64_t want, const Fmt* nan_fmt, const std::string& what) {
    ++checked;
    if (got == want || (nan_fmt && is_nan(got, *nan_fmt) && is_nan(want, *nan_fmt))) return;
    if (++bad <= 16) first += "\n  " + what + ": got " + hex(got) + " want " + hex(want);
  }
};

}  // namespace ieee_oracle
