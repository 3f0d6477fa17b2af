// The fused dot2 arithmetic shared by the simulator (v_dot2_f32_bf16 / _f16 in
// its default FusedSingleRounding mode) and the CPU models of codegen/: the
// exact value of a0*b0 + a1*b1 + c, rounded once to f32 (round to nearest even).
#pragma once
#include <cstdint>

namespace cdnajit::sim {

// Exact three-term sum rounded once. Products of 16-bit floats are exact in
// double; when both additions are exact too (TwoSum errors are zero) the double
// sum is returned rounded once, otherwise a 640-bit fixed-point sum is rounded.
// Non-finite inputs follow IEEE double arithmetic (NaN/inf propagate).
float dot2_fused(float a0, float b0, float a1, float b1, float c);

// dot2_fused on 64 lanes: r[l] = bits of dot2_fused(a0[l], b0[l], a1[l], b1[l], c[l]) for every lane
// set in `lanes` (others untouched). The common case (finite products and sums exact in double)
// runs as one vector loop; the rest lane by lane through dot2_fused. Same bits as the scalar form.
void dot2_fused_lanes(const float* a0, const float* b0, const float* a1, const float* b1, const float* c,
                      uint64_t lanes, uint32_t* r);

// dot2_fused_lanes on packed bf16 pairs as v_dot2_f32_bf16 reads them: a0 / a1 the low / high bf16 of
// A[l], b0 / b1 those of B[l], c the f32 bits (C[l] ^ c_xor) & c_and, and each bf16's f32 sign bit
// flipped by its mask (neg_lo / neg_hi). r[l] for every lane of `lanes`; r may be A, B or C. The
// same bits as dot2_fused_lanes on those floats (one vector pass on AVX-512 hosts).
struct Dot2Bf16Signs {
  uint32_t a0 = 0, a1 = 0, b0 = 0, b1 = 0, c_xor = 0, c_and = ~0u;
};
void dot2_fused_bf16_rows(const uint32_t* A, const uint32_t* B, const uint32_t* C, const Dot2Bf16Signs& s, uint64_t lanes,
                          uint32_t* r);

}  // namespace cdnajit::sim
