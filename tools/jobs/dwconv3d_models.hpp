// CPU models of the depthwise conv3d kernels, and comparison helpers.
//
// Every model walks the taps in the order the kernels do: for each output,
// filter rows (kd, kh) in ascending order, and inside a row the taps from left
// to right. Padding reads as +0.0. Outputs are rounded to bf16 with RNE.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "codegen/dwconv3d_shape.hpp"

namespace cdnajit::codegen {

// fp64 reference: exact products, fp64 sums (the "truth" for tolerance checks).
std::vector<double> dwconv3d_reference_fp64(const DwConvShape& s, std::span<const uint16_t> input,
                                            std::span<const uint16_t> weight);

// How v_dot2_f32_bf16 d = a.lo*b.lo + a.hi*b.hi + c rounds. Must match the
// simulator's sim::Options::Dot2 (runtime/sim/simulator.hpp):
//   fused_single_rounding: the three-term sum is formed exactly and rounded once to f32 (RNE);
//   products_then_sum:     fma(a.hi, b.hi, fma(a.lo, b.lo, c)), two f32 roundings, lo first.
// Assumption for both: f32 denormals are kept (no flush), as in the kernels' float mode.
enum class Dot2Rounding : uint8_t { fused_single_rounding, products_then_sum };
float dot2_f32_bf16(uint32_t a, uint32_t b, float c, Dot2Rounding r);

// The fmac arithmetic (lds_fmac everywhere, row_interleaved on gfx942, the HIP V97 reference):
// acc = +0; acc = fma(w, x, acc) for every tap in order.
std::vector<uint16_t> dwconv3d_model_fmac(const DwConvShape& s, std::span<const uint16_t> input,
                                          std::span<const uint16_t> weight);
// The dot2 arithmetic (lds_dot2, and row_interleaved on gfx950): per filter row,
// acc = dot2((w[2q], w[2q+1]), (x[o+2q], x[o+2q+1]), acc) for q = 0 .. KW/2-1, then
// acc = fma(w[KW-1], x[o+KW-1], acc); acc starts at +0.
std::vector<uint16_t> dwconv3d_model_dot2(const DwConvShape& s, std::span<const uint16_t> input,
                                          std::span<const uint16_t> weight, Dot2Rounding r);
// The banded-MFMA arithmetic (mfma_band, codegen/dwconv_mfma.hpp): the kernel's operands, element for element (the LDS
// tile's flat layout included, so padding groups read the same values), through the
// simulator's MFMA accumulation rule (runtime/sim/mfma_numerics.hpp, Cdna3 numerics), then
// bf16 RNE. Independent of the generated code, not of the simulator's numerics; the
// independent check is the clang-compiled HIP reference.
std::vector<uint16_t> dwconv_mfma_model(const DwConvShape& s, Arch a, std::span<const uint16_t> input,
                                        std::span<const uint16_t> weight);

// The model whose bits a generated kernel must reproduce.
std::vector<uint16_t> dwconv3d_model(const DwConvShape& s, DwVariant v, Arch a, std::span<const uint16_t> input,
                                     std::span<const uint16_t> weight,
                                     Dot2Rounding r = Dot2Rounding::fused_single_rounding);

// ---- comparisons ----
struct BitCompare {
  size_t count = 0;        // elements compared
  size_t mismatches = 0;
  size_t first = 0;        // first mismatching index (valid when mismatches > 0)
  uint16_t got = 0, want = 0;
  bool equal() const { return mismatches == 0; }
  // "bit-exact (N elements)" or "K of N differ; first at [i]: got 0x.. (v) want 0x.. (v)"
  std::string describe() const;
};
// Throws cdnajit::Error when the sizes differ.
BitCompare compare_bits(std::span<const uint16_t> got, std::span<const uint16_t> want);
// Same, with the flat index decoded as (n, c, d, h, w) of the output shape in describe().
std::string describe_mismatch(const BitCompare& c, const DwConvShape& s);

double max_abs_error(std::span<const uint16_t> got_bf16, std::span<const double> ref);
// calc_diff = 1 - 2*sum(x*y) / sum(x*x + y*y) (0 for identical, ~1e-6 for bf16 rounding).
double calc_diff(std::span<const uint16_t> got_bf16, std::span<const double> ref);

// Deterministic test data: bf16 values in [-2, 2] with magnitudes >= 2^-8 (or zero),
// so every product and partial sum stays well inside f32's range.
std::vector<uint16_t> random_bf16(size_t n, uint64_t seed);

}  // namespace cdnajit::codegen
