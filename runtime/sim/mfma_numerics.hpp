// How an MFMA accumulates one output element, D = C + sum_k A[k] * B[k], per
// arch model (Options::mfma_numerics). See mfma_numerics.cpp for the rules and
// their source, runtime/sim/README.md for what is known and what is assumed.
#pragma once
#include <cstdint>

namespace cdnajit::sim {

// The input formats an MFMA multiplies, with what the arithmetic needs of them.
enum class MfmaKind : uint8_t {
  F32,    // one f32 per element: a K-ordered chain of f32 FMAs
  Fused,  // 16-bit floats: groups of min(8, K) products, fused (see .cpp)
  Fp8,    // 8-bit floats: groups of 16, even and odd products summed apart
};

struct MfmaFormat {
  MfmaKind kind;
  int min_exp_a, min_exp_b;  // exponent of the smallest normal of A's / B's element format
};

// c + sum of a[k] * b[k] for k in [0, K), as the CDNA3 matrix cores compute it
// (a, b: exact element values; c: f32). Returns the f32 result.
float mfma_dot_cdna3(const double* a, const double* b, int K, float c, const MfmaFormat& f);

// The same sum computed exactly and rounded once to f32 (round to nearest even).
float mfma_dot_exact(const double* a, const double* b, int K, float c);

}  // namespace cdnajit::sim
