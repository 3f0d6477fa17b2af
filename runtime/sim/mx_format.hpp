// The gfx950 narrow float element formats (OCP Microscaling Formats (MX) specification v1.0 and
// the OCP 8-bit floating point specification v1.0): fp8 E4M3FN, bf8 E5M2, fp6 E2M3, bf6 E3M2,
// fp4 E2M1, in the order of the f8f6f4 MFMAs' CBSZ/BLGP format codes (CDNA4 ISA guide; LLVM's
// MFMA f8f6f4 format operands). fp6/fp4 have no inf/NaN; biases 1, 3, 1. Decoding (the MFMAs,
// the v_cvt_scalef32_* up-conversions) and encoding (the v_cvt_scalef32_* down-conversions) live
// here, once; fp8/bf8 encoding is fp8_encode.hpp's.
#pragma once
#include <cmath>
#include <cstdint>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/fp8_encode.hpp"

namespace cdnajit::sim {

enum class MxFmt : uint8_t { FP8, BF8, FP6, BF6, FP4 };

inline int mx_bits(MxFmt f) { return f == MxFmt::FP6 || f == MxFmt::BF6 ? 6 : f == MxFmt::FP4 ? 4 : 8; }
inline int mx_mbits(MxFmt f) {
  switch (f) {
    case MxFmt::FP8: return 3;
    case MxFmt::BF8: return 2;
    case MxFmt::FP6: return 3;
    case MxFmt::BF6: return 2;
    default: return 1;
  }
}
inline int mx_bias(MxFmt f) {
  switch (f) {
    case MxFmt::FP8: return 7;
    case MxFmt::BF8: return 15;
    case MxFmt::BF6: return 3;
    default: return 1;  // FP6, FP4
  }
}
// Smallest normal exponent.
inline int mx_min_exp(MxFmt f) { return 1 - mx_bias(f); }

// Value of a code (the low mx_bits(f) bits of `code`); NaN / ±inf for the fp8/bf8 special codes.
inline double mx_value(uint32_t code, MxFmt f) {
  if (f == MxFmt::FP8 || f == MxFmt::BF8) return fp8_value(uint8_t(code), f == MxFmt::BF8, false);
  const int mb = mx_mbits(f), w = mx_bits(f), bias = mx_bias(f);
  const uint32_t e = (code >> mb) & ((1u << (w - 1 - mb)) - 1), m = code & ((1u << mb) - 1);
  double v = e == 0 ? std::ldexp(double(m), 1 - bias - mb) : std::ldexp(double(m + (1u << mb)), int(e) - bias - mb);
  return ((code >> (w - 1)) & 1) ? -v : v;
}

// Encode sign `neg` and exact magnitude `a` (may be inf or NaN). fp8/bf8: fp8_encode_magnitude with
// the OCP formats (`saturate` as there). fp6/bf6/fp4 have no inf/NaN codes: finite overflow, ±inf and
// NaN all give the largest magnitude with the input's sign, the behaviour of AMD's published
// software model of these gfx950 conversions (HIP's amd_hip_ocp_host.hpp: from_float / from_float_sr,
// whose nan() and inf() of E2M1/E2M3/E3M2 are the largest finite code); zeros keep their sign.
inline uint32_t mx_encode(bool neg, double a, MxFmt f, StochasticBits sr, bool saturate) {
  if (f == MxFmt::FP8 || f == MxFmt::BF8) return fp8_encode_magnitude(neg, a, Fp8Format{f == MxFmt::BF8, false}, sr, saturate);
  const int w = mx_bits(f);
  const uint32_t sign = neg ? 1u << (w - 1) : 0u, max_code = (1u << (w - 1)) - 1;
  if (std::isnan(a) || std::isinf(a)) return sign | max_code;
  const uint64_t code = round_magnitude(a, mx_mbits(f), mx_bias(f), sr);
  return sign | uint32_t(code > max_code ? max_code : code);
}

}  // namespace cdnajit::sim
