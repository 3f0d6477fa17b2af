// Deliberate independent oracle for fused dot products (v_dot2_f32_bf16 /
// v_dot2_f32_f16 in the simulator's FusedSingleRounding mode, and any
// "exact sum of products + c, rounded once to f32" rule an MFMA model needs).
//
// It shares no code with runtime/sim: the slow path is MPFR (exact products
// and sums at 640 bits, then one round-to-nearest-even to binary32 including
// subnormals), the fast path is plain double arithmetic used only when an
// exponent-window bound computed from the inputs' bits proves every operation
// exact. The simulator's dot2 uses a different method (a TwoSum exactness test
// and a hand-written 640-bit fixed-point accumulator), so a shared mistake
// would have to be made twice, in two different ways.
#pragma once
#include <cstddef>
#include <span>

namespace cdnajit::reference {

// The exact value of sum_i a[i]*b[i] + c rounded once to f32 (round to nearest,
// ties to even; results below 2^-126 rounded to the subnormal grid; |result|
// that rounds past FLT_MAX becomes inf). The sign of an exact zero follows IEEE
// 754 addition in order (a0*b0 + a1*b1 + ... + c): -0 only when every term is -0.
// Non-finite inputs: inf*0 and inf-inf give NaN, other infinities propagate
// (the NaN's payload is not specified). a and b must have the same length.
float exact_dot_f32(std::span<const float> a, std::span<const float> b, float c);

// The same value computed by MPFR alone, never through the double fast path.
// For testing the fast path; slower.
float exact_dot_f32_mpfr(std::span<const float> a, std::span<const float> b, float c);

// The two-term case, a0*b0 + a1*b1 + c: the same value as exact_dot_f32 on
// {a0, a1}, {b0, b1}, c, through a specialised form of the same exponent-window
// test (no spans or loops: it is the host dot2 model's inner step, called once
// per v_dot2_f32_bf16 the model evaluates).
float exact_dot2_f32(float a0, float b0, float a1, float b1, float c);
// exact_dot2_f32 on eight lanes with a0, a1 shared: c[l] = exact_dot2_f32(a0, b0[l], a1, b1[l], c[l]).
// The exponent-window test and the double sum run on whole vectors where the host has AVX2; a lane
// the test does not admit goes through exact_dot2_f32 (MPFR). Same bits as eight scalar calls.
void exact_dot2_f32_x8(float a0, float a1, const float* b0, const float* b1, float* c);
inline float exact_dot2_f32_mpfr(float a0, float b0, float a1, float b1, float c) {
  float a[2] = {a0, a1}, b[2] = {b0, b1};
  return exact_dot_f32_mpfr(a, b, c);
}

// True when exact_dot_f32 would answer from its double fast path (for tests
// that must state how many cases reached the MPFR path).
bool exact_dot_uses_fast_path(std::span<const float> a, std::span<const float> b, float c);

}  // namespace cdnajit::reference
