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

// 16-bit float (f16 / bf16) operands of one MFMA for the row-vector form of the fast CDNA3 path
// (mfma_half_row8): both A and B stored by K, sig_a[k * lda + i] for row i of A and
// sig_b[k * ldb + j] for column j of B, so that eight consecutive columns are one load. An element
// is sig * 2^(exp - F - S), F its format's fraction bits (10 f16, 7 bf16), exp clamped at the
// format's smallest normal exponent (zero: sig 0, exp kMfmaNoExponent), S = mfma_half_preshift(bf16):
// sig is pre-shifted left by S so that a product of two lands in the units the group sum adds
// (2^(e - 24) at its largest product exponent e). sig's 16-bit two's complement sits in the low half
// of the dword, the high half is 0. raw_a / raw_b: the elements' bits, same layouts (reference path).
struct MfmaHalfOperands {
  bool bf16;
  int K, lda, ldb;
  const uint32_t* sig_a;
  const int32_t* exp_a;
  const uint32_t* sig_b;
  const int32_t* exp_b;
  const uint16_t* raw_a;
  const uint16_t* raw_b;
};
constexpr int mfma_half_preshift(bool bf16) { return bf16 ? 5 : 2; }
// Decodes n elements (the low halves of dwords[0, n) when hi is false, else the high halves) into
// sig[0, n) and exp[0, n) as above; returns false when one is an infinity or NaN.
bool mfma_half_decode(const uint32_t* dwords, int n, bool hi, bool bf16, uint32_t* sig, int32_t* exp, uint16_t* raw);
// Whether mfma_half_row8 is available (a host with AVX2 and the vector path on, mfma_vector_path).
bool mfma_half_rows_available();
// c[0, 8) = c[0, 8) accumulated with row i of A times columns j0 .. j0 + 7 of B by the CDNA3 rules
// (groups of 8 along K; K a multiple of 8; every element finite): the same bits as mfma_dot_cdna3
// on each of the eight outputs.
void mfma_half_row8(const MfmaHalfOperands& t, int i, int j0, float* c);
// The same for rows i and i + 1: c[0, 8) row i, c[8, 16) row i + 1 (faster than two calls).
void mfma_half_rows8x2(const MfmaHalfOperands& t, int i, int j0, float* c);
// The same for rows i and i + 1 and sixteen columns j0 .. j0 + 15: c[0, 16) row i, c[16, 32) row
// i + 1 (one AVX-512 vector per row where the host has AVX-512 F/BW/DQ, else two mfma_half_rows8x2).
void mfma_half_rows16x2(const MfmaHalfOperands& t, int i, int j0, float* c);

// Reference implementation of the same rules (mfma_numerics_reference.cpp): double arithmetic
// per product, slow; the fast path's fallback and its test oracle.
float mfma_dot_cdna3_reference(const double* a, const double* b, int K, float c, const MfmaFormat& f);
// One group of n products (n <= 16) accumulated into c by the reference rules.
float mfma_group_cdna3_reference(const double* a, const double* b, int n, float c, const MfmaFormat& f);

// The same sum computed exactly and rounded once to f32 (round to nearest even).
float mfma_dot_exact(const double* a, const double* b, int K, float c);

}  // namespace cdnajit::sim
