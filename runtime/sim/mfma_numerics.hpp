// How an MFMA accumulates one output element, D = C + sum_k A[k] * B[k], per
// arch model (Options::mfma_numerics). See mfma_numerics_reference.cpp for the
// rules and their source, runtime/sim/README.md for what is known and assumed.
#pragma once
#include <cstdint>

namespace cdnajit::sim {

// The input formats an MFMA multiplies, with what the arithmetic needs of them.
enum class MfmaKind : uint8_t {
  F32,    // one f32 per element: a K-ordered chain of f32 FMAs
  Fused,  // 16-bit floats: groups of min(8, K) products, fused (see the reference .cpp)
  Fp8,    // 8-bit floats: groups of 16, even and odd products summed apart
  Xf32,   // xf32 (f32 inputs truncated to 10 fraction bits by the caller): groups of 4, fused
};

// Products per fused group of a kind (K: the instruction's K).
inline int mfma_group_size(MfmaKind kind, int K) {
  return kind == MfmaKind::Fp8 ? 16 : kind == MfmaKind::Xf32 ? 4 : kind == MfmaKind::F32 ? 1 : (K < 8 ? K : 8);
}

struct MfmaFormat {
  MfmaKind kind;
  int min_exp_a, min_exp_b;  // exponent of the smallest normal of A's / B's element format
};

// One element decoded for the fast CDNA3 path: value = sig * 2^(exp - 24), exp clamped at the
// format's smallest normal exponent (so |sig| < 2^25); a zero has exp = kMfmaNoExponent.
inline constexpr int kMfmaNoExponent = -100000;
struct MfmaTerm {
  int32_t sig;
  int32_t exp;
};

// Decodes x[0, n) with smallest normal exponent min_exp into out[0, n). Returns false when some
// element is not finite or its significand has more than 25 bits (then the dot product below
// takes the reference path for that operand).
bool mfma_decode(const double* x, int n, int min_exp, MfmaTerm* out);

// An operand vector (a row of A or a column of B): its exact values and, when `decoded`, the
// same values decoded by mfma_decode with the format's smallest normal exponent.
struct MfmaOperand {
  const double* value;
  const MfmaTerm* term;
  bool decoded;
};

// c + sum of a[k] * b[k] for k in [0, K), as the CDNA3 matrix cores compute it (a, b: exact
// element values; c: f32). Returns the f32 result. Integer arithmetic on the decoded operands;
// bit-identical to mfma_dot_cdna3_reference, whose group function it calls for the groups it
// does not handle itself.
float mfma_dot_cdna3(const MfmaOperand& a, const MfmaOperand& b, int K, float c, const MfmaFormat& f);
// The same from values only (decodes them first).
float mfma_dot_cdna3(const double* a, const double* b, int K, float c, const MfmaFormat& f);

// The fast path's group sums use the host's AVX2 (when it has it) or portable integer code; both
// give the same bits. Selects the portable code (false) or AVX2 where available (true, the
// default); returns whether AVX2 is now used. For the equivalence test; not thread-safe.
bool mfma_vector_path(bool on);

// Reference implementation of the same rules (mfma_numerics_reference.cpp): double arithmetic
// per product, slow; the fast path's fallback and its test oracle.
float mfma_dot_cdna3_reference(const double* a, const double* b, int K, float c, const MfmaFormat& f);
// One group of n products (n <= 16) accumulated into c by the reference rules.
float mfma_group_cdna3_reference(const double* a, const double* b, int n, float c, const MfmaFormat& f);

// The same sum computed exactly and rounded once to f32 (round to nearest even).
float mfma_dot_exact(const double* a, const double* b, int K, float c);

}  // namespace cdnajit::sim
