// The fused dot2 arithmetic shared by the simulator (v_dot2_f32_bf16 / _f16 in
// its default FusedSingleRounding mode) and the CPU models of codegen/: the
// exact value of a0*b0 + a1*b1 + c, rounded once to f32 (round to nearest even).
#pragma once

namespace cdnajit::sim {

// Exact three-term sum rounded once. Products of 16-bit floats are exact in
// double; when both additions are exact too (TwoSum errors are zero) the double
// sum is returned rounded once, otherwise a 640-bit fixed-point sum is rounded.
// Non-finite inputs follow IEEE double arithmetic (NaN/inf propagate).
float dot2_fused(float a0, float b0, float a1, float b1, float c);

}  // namespace cdnajit::sim
