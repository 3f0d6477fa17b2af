// The CDNA3 MFMA rules as a deliberately plain test oracle (integer significands decoded from the
// raw bits, integer shifts, MPFR for the final rounding), sharing no code with the simulator; used by
// test_mfma_numerics.cpp (dense MFMAs) and test_smfmac.cpp (sparse MFMAs).
#pragma once
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <random>
#include <vector>

#include "tests/sim/sim_harness.hpp"

namespace mfma_oracle {

// ---- Independent oracle (deliberately plain; shares no code with the simulator) ----
// An element format: sign, `ebits` exponent bits, `mbits` fraction bits, `bias`.
struct ElemFmt {
  int bytes, ebits, mbits, bias;
};
// value = sign * sig * 2^(exp - mbits), sig an integer; exp clamped at the smallest normal.
struct Elem {
  int64_t sig;  // signed integer significand
  int exp;
  bool zero;
};
inline Elem decode(uint32_t raw, const ElemFmt& f) {
  uint32_t m = raw & ((1u << f.mbits) - 1), e = (raw >> f.mbits) & ((1u << f.ebits) - 1);
  bool neg = (raw >> (f.mbits + f.ebits)) & 1;
  Elem x;
  x.sig = e == 0 ? int64_t(m) : int64_t(m | (1u << f.mbits));
  x.exp = e == 0 ? 1 - f.bias : int(e) - f.bias;
  if (neg) x.sig = -x.sig;
  x.zero = x.sig == 0;
  return x;
}
inline double value(const Elem& x, const ElemFmt& f) { return std::ldexp(double(x.sig), x.exp - f.mbits); }

// Shift a signed integer right by n with truncation toward zero / with floor.
inline int64_t shr_trunc(int64_t v, int n) { return v >= 0 ? (n >= 63 ? 0 : v >> n) : -(n >= 63 ? 0 : (-v) >> n); }
inline int64_t shr_floor(int64_t v, int n) {
  if (n <= 0) return v * (int64_t(1) << -n);
  if (v >= 0) return n >= 63 ? 0 : v >> n;
  int64_t m = -v;
  int64_t q = n >= 63 ? 0 : m >> n;
  bool rem = n >= 63 ? true : (m & ((int64_t(1) << n) - 1)) != 0;
  return -(q + (rem ? 1 : 0));
}

inline float round_to_f32(int64_t units, int unit_exp) {  // units * 2^unit_exp, rounded once (MPFR)
  mpfr_t r;
  mpfr_init2(r, 64);
  mpfr_set_si_2exp(r, long(units), unit_exp, MPFR_RNDN);  // exact
  float f = mpfr_get_flt(r, MPFR_RNDN);
  mpfr_clear(r);
  return f;
}

// One group: returns the new f32 accumulator.
inline float oracle_group(const std::vector<Elem>& a, const std::vector<Elem>& b, const ElemFmt& fa, const ElemFmt& fb,
                   float c, bool fp8) {
  const int n = int(a.size());
  const int fr = fa.mbits + fb.mbits;  // fraction bits of a product significand sig_a * sig_b
  std::vector<int64_t> psig(n);
  std::vector<int> pexp(n);
  std::vector<bool> pz(n);
  for (int i = 0; i < n; ++i) {
    psig[i] = a[i].sig * b[i].sig;
    pexp[i] = a[i].exp + b[i].exp;
    pz[i] = a[i].zero || b[i].zero;
  }
  // Sum of the products of one subset, aligned at its largest exponent, each truncated to 24
  // fractional bits: result in units of 2^(emax - 24); `has` false when the subset is all zero.
  auto subset = [&](int first, int step, int& emax, bool& has) {
    has = false;
    emax = 0;
    for (int i = first; i < n; i += step)
      if (!pz[i] && (!has || pexp[i] > emax)) { emax = pexp[i]; has = true; }
    int64_t s = 0;
    if (!has) return s;
    for (int i = first; i < n; i += step) {
      if (pz[i]) continue;
      int sh = fr - 24 + (emax - pexp[i]);  // psig is in units of 2^(pexp - fr); want 2^(emax - 24)
      s += sh >= 0 ? shr_trunc(psig[i], sh) : psig[i] * (int64_t(1) << -sh);
    }
    return s;
  };
  int e = 0;
  bool has = false;
  int64_t s = 0;
  if (fp8) {
    int e0, e1;
    bool h0, h1;
    int64_t s0 = subset(0, 2, e0, h0), s1 = subset(1, 2, e1, h1);
    has = h0 || h1;
    if (has) {
      e = !h0 ? e1 : !h1 ? e0 : std::max(e0, e1);
      s = (h0 ? shr_floor(s0, e - e0) : 0) + (h1 ? shr_floor(s1, e - e1) : 0);
    }
  } else {
    s = subset(0, 1, e, has);
  }
  // C: f32 bits decoded the same way (8 exponent bits, 23 fraction bits, bias 127).
  uint32_t cb;
  std::memcpy(&cb, &c, 4);
  Elem ce = decode(cb, ElemFmt{4, 8, 23, 127});
  bool chas = !ce.zero;
  if (!has && !chas) return 0.0f;
  int E = !has ? ce.exp : !chas ? e : std::max(e, ce.exp);
  int64_t total = has ? shr_floor(s, (E - e) - 7) : 0;  // units of 2^(E - 31)
  if (chas && !(fp8 && ce.exp < E - 25)) total += shr_floor(ce.sig, 23 - 24 + (E - ce.exp)) * 128;
  return round_to_f32(total, E - 31);
}

inline float oracle_dot(const std::vector<uint32_t>& ra, const std::vector<uint32_t>& rb, const ElemFmt& fa, const ElemFmt& fb,
                 float c, bool f32, bool fp8, int group) {
  const int K = int(ra.size());
  if (f32) {
    for (int k = 0; k < K; ++k) c = std::fmaf(simtest::flt(ra[k]), simtest::flt(rb[k]), c);
    return c;
  }
  const int g = group;
  for (int k0 = 0; k0 < K; k0 += g) {
    std::vector<Elem> a, b;
    for (int k = k0; k < k0 + g; ++k) { a.push_back(decode(ra[k], fa)); b.push_back(decode(rb[k], fb)); }
    c = oracle_group(a, b, fa, fb, c, fp8);
  }
  return c;
}

// Compares an MFMA's result registers with the expected bits. Both vectors are lane-major (value
// x is lane x / nreg, register x % nreg). Returns the number of mismatches and, in `first`, the
// first `shown` of them with their lane and register.
inline size_t count_mismatches(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, int nreg,
                               std::string& first, size_t shown = 4) {
  size_t bad = 0;
  for (size_t x = 0; x < got.size() && x < want.size(); ++x)
    if (got[x] != want[x] && ++bad <= shown) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "\n  lane %zu reg %zu: got 0x%08x want 0x%08x", x / size_t(nreg), x % size_t(nreg),
                    got[x], want[x]);
      first += buf;
    }
  if (got.size() != want.size()) first += "\n  (sizes differ: got " + std::to_string(got.size()) + ", want " + std::to_string(want.size()) + ")";
  return bad + (got.size() != want.size() ? 1 : 0);
}

inline uint32_t random_code(std::mt19937& g, const ElemFmt& f, int emin_field, int emax_field) {
  for (;;) {
    uint32_t e = emin_field + g() % uint32_t(emax_field - emin_field + 1);
    if (g() % 16 == 0) e = 0;  // subnormals and zeros
    uint32_t m = g() & ((1u << f.mbits) - 1), s = g() & 1;
    uint32_t code = (s << (f.ebits + f.mbits)) | (e << f.mbits) | m;
    if (f.bytes == 1 && code == 0x80) continue;                                  // FNUZ NaN (never generated)
    if (f.bytes == 1 && e == (1u << f.ebits) - 1) continue;                      // OCP inf/NaN codes: not in this test
    return code;
  }
}

}  // namespace mfma_oracle
