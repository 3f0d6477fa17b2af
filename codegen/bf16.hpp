// bf16 (and f16) <-> f32 bit conversions used by the CPU models and the tests.
#pragma once
#include <bit>
#include <cstdint>

namespace cdnajit::codegen {

inline float bf16_to_f32(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

// Round to nearest even, the conversion the kernels apply to their fp32 sums
// (v_cvt_pk_bf16_f32 on gfx950, the integer sequence on gfx942, (__bf16)x in HIP).
// NaN becomes a quiet NaN keeping the sign and top payload bits.
inline uint16_t f32_to_bf16_rne(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

// IEEE half <-> f32: exact widening; narrowing rounds to nearest even (denormals kept), as
// v_cvt_f16_f32 in the kernels' default mode and (_Float16)x in HIP.
inline float f16_to_f32(uint16_t b) { return float(std::bit_cast<_Float16>(b)); }
inline uint16_t f32_to_f16_rne(float f) { return std::bit_cast<uint16_t>(static_cast<_Float16>(f)); }

}  // namespace cdnajit::codegen
