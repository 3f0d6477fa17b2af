// CPU models, bf16 rounding, comparison helpers and shape validation (no device needed).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>

#include "codegen/bf16.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "jit/isa/error.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {
uint16_t bf(float f) { return uint16_t(std::bit_cast<uint32_t>(f) >> 16); }  // exact for bf16-representable f
uint32_t pair(float lo, float hi) { return bf(lo) | (uint32_t(bf(hi)) << 16); }
DwConvShape shape(int N, int C, int D, int H, int W, int KD, int KH, int KW, int pd, int ph, int pw) {
  DwConvShape s;
  s.N = N; s.C = C; s.D = D; s.H = H; s.W = W; s.KD = KD; s.KH = KH; s.KW = KW;
  s.padD = pd; s.padH = ph; s.padW = pw;
  return s;
}
}  // namespace

TEST_CASE("bf16 round to nearest even", "[codegen][models]") {
  CHECK(f32_to_bf16_rne(1.0f) == 0x3f80);
  // 1 + 2^-8 is exactly half an ulp of bf16 1.0: ties to even (down).
  CHECK(f32_to_bf16_rne(1.0f + std::ldexp(1.0f, -8)) == 0x3f80);
  // 1 + 3*2^-8 is a tie between 1+2^-7 (odd) and 1+2^-6 (even): up.
  CHECK(f32_to_bf16_rne(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3f82);
  CHECK(f32_to_bf16_rne(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)) == 0x3f81);
  CHECK(f32_to_bf16_rne(-2.5f) == 0xc020);
  CHECK((f32_to_bf16_rne(std::nanf("")) & 0x7fc0) == 0x7fc0);
  CHECK(bf16_to_f32(0x3f80) == 1.0f);
}

TEST_CASE("dot2 rounding modes differ exactly where a single rounding matters", "[codegen][models]") {
  // 1 + 2^-24 + 2^-30: one rounding goes up to 1 + 2^-23; two roundings
  // (1 + 2^-30 -> 1, then 1 + 2^-24 is a tie -> 1) stay at 1.
  uint32_t a = pair(1.0f, 1.0f), b = pair(1.0f, std::ldexp(1.0f, -24));
  float c = std::ldexp(1.0f, -30);
  CHECK(dot2_f32_bf16(a, b, c, Dot2Rounding::fused_single_rounding) == 1.0f + std::ldexp(1.0f, -23));
  CHECK(dot2_f32_bf16(a, b, c, Dot2Rounding::products_then_sum) == 1.0f);
  // The exact path: a tiny addend 2^-80 decides the tie (a double sum would lose it).
  float tiny = std::ldexp(1.0f, -80);
  CHECK(dot2_f32_bf16(a, b, tiny, Dot2Rounding::fused_single_rounding) == 1.0f + std::ldexp(1.0f, -23));
  CHECK(dot2_f32_bf16(a, b, -tiny, Dot2Rounding::fused_single_rounding) == 1.0f);
  // Huge cancelling products leave the addend exactly.
  uint32_t big = pair(std::ldexp(1.0f, 60), std::ldexp(1.0f, 60));
  uint32_t pm = pair(std::ldexp(1.0f, 40), -std::ldexp(1.0f, 40));
  CHECK(dot2_f32_bf16(big, pm, std::ldexp(1.0f, -100), Dot2Rounding::fused_single_rounding) ==
        std::ldexp(1.0f, -100));
  // Plain values: 1.5*2 + 0.25*4 + 0.5 = 4.5 in both modes.
  CHECK(dot2_f32_bf16(pair(1.5f, 0.25f), pair(2.0f, 4.0f), 0.5f, Dot2Rounding::fused_single_rounding) == 4.5f);
  CHECK(dot2_f32_bf16(pair(1.5f, 0.25f), pair(2.0f, 4.0f), 0.5f, Dot2Rounding::products_then_sum) == 4.5f);
}

TEST_CASE("fused dot2 model agrees with a double sum where that sum is exact", "[codegen][models]") {
  auto v = random_bf16(3000, 7);
  for (size_t i = 0; i + 5 < v.size(); i += 5) {
    uint32_t a = v[i] | (uint32_t(v[i + 1]) << 16), b = v[i + 2] | (uint32_t(v[i + 3]) << 16);
    float c = bf16_to_f32(v[i + 4]) * 3.0f;
    // Products are multiples of 2^-30 below 2^4 and c a multiple of 2^-15 below 2^3, so the double sum is exact.
    double exact = double(bf16_to_f32(v[i])) * bf16_to_f32(v[i + 2]) +
                   double(bf16_to_f32(v[i + 1])) * bf16_to_f32(v[i + 3]) + double(c);
    REQUIRE(dot2_f32_bf16(a, b, c, Dot2Rounding::fused_single_rounding) == float(exact));
  }
}

// (Where the models' bits differ is tested by "a crafted row tells the three arithmetics apart":
// on this small random tensor all three round to the same bf16 outputs.)
TEST_CASE("CPU models are within tolerance of fp64", "[codegen][models]") {
  DwConvShape s = shape(1, 2, 4, 6, 20, 3, 5, 5, 1, 2, 2);
  auto x = random_bf16(size_t(s.input_elems()), 1), w = random_bf16(size_t(s.weight_elems()), 2);
  auto ref = dwconv3d_reference_fp64(s, x, w);
  auto fm = dwconv3d_model_fmac(s, x, w);
  auto d2 = dwconv3d_model_dot2(s, x, w, Dot2Rounding::fused_single_rounding);
  auto d2b = dwconv3d_model_dot2(s, x, w, Dot2Rounding::products_then_sum);
  REQUIRE(fm.size() == size_t(s.output_elems()));
  CHECK(calc_diff(fm, ref) < 1e-5);
  CHECK(calc_diff(d2, ref) < 1e-5);
  CHECK(calc_diff(d2b, ref) < 1e-5);
  double bound = 0;  // bf16 output rounding: half an ulp of the largest |output|
  for (double r : ref) bound = std::max(bound, std::fabs(r));
  CHECK(max_abs_error(fm, ref) <= bound * std::ldexp(1.0, -8) * 1.01);
  CHECK(max_abs_error(d2, ref) <= bound * std::ldexp(1.0, -8) * 1.01);
  // The fp64 sums themselves: spot check one output by hand.
  // Output (n0, c0, d0, h0, w0): padD=1 so kd=0 reads depth -1 (zero).
  double acc = 0;
  for (int kd = 1; kd < 3; ++kd)
    for (int kh = 2; kh < 5; ++kh)
      for (int kw = 2; kw < 5; ++kw)
        acc += double(bf16_to_f32(w[size_t((kd * 5 + kh) * 5 + kw)])) *
               bf16_to_f32(x[size_t(((kd - 1) * 6 + (kh - 2)) * 20 + (kw - 2))]);
  CHECK(ref[0] == acc);
}

TEST_CASE("a crafted row tells the three arithmetics apart", "[codegen][models]") {
  // Channel 0, output 0 sums 1*1 + 0 + 2^-24 + 2^-30 - 1 (all weights 1): one rounding
  // per dot2 keeps 2^-23, rounding after every product loses it (1 + 2^-24 ties to 1).
  // Channel 1 holds the same row one column later, so its output 1 takes the
  // shifted-pair (v_alignbit) path of the kernels.
  DwConvShape s = shape(1, 2, 1, 1, 6, 1, 1, 5, 0, 0, 0);
  const uint16_t one = 0x3f80, m_one = 0xbf80, e24 = 0x3380, e30 = 0x3080;
  std::vector<uint16_t> x = {one, 0, e24, e30, m_one, 0, 0, one, 0, e24, e30, m_one};
  std::vector<uint16_t> w(10, one);
  auto fused = dwconv3d_model_dot2(s, x, w, Dot2Rounding::fused_single_rounding);
  auto seq = dwconv3d_model_dot2(s, x, w, Dot2Rounding::products_then_sum);
  auto fmac = dwconv3d_model_fmac(s, x, w);
  REQUIRE(fused.size() == 4);
  CHECK(fused[0] == 0x3400);  // 2^-23
  CHECK(fused[3] == 0x3400);
  CHECK(seq[0] == 0);
  CHECK(seq[3] == 0);
  CHECK(fmac[0] == 0);
  auto ref = dwconv3d_reference_fp64(s, x, w);
  CHECK(ref[0] == std::ldexp(1.0, -24) + std::ldexp(1.0, -30));
}

TEST_CASE("bit comparison reports count, first index and both values", "[codegen][models]") {
  std::vector<uint16_t> a = {1, 2, 3, 4, 5}, b = {1, 2, 9, 4, 7};
  BitCompare c = compare_bits(a, b);
  CHECK_FALSE(c.equal());
  CHECK(c.mismatches == 2);
  CHECK(c.first == 2);
  CHECK(c.got == 3);
  CHECK(c.want == 9);
  CHECK(c.describe().find("2 of 5") != std::string::npos);
  CHECK(compare_bits(a, a).equal());
  CHECK_THROWS_AS(compare_bits(a, std::vector<uint16_t>{1}), Error);
  std::vector<double> ref = {1.0, -2.0};
  std::vector<uint16_t> same = {bf(1.0f), bf(-2.0f)}, neg = {bf(-1.0f), bf(2.0f)};
  CHECK(calc_diff(same, ref) == 0.0);
  CHECK(calc_diff(neg, ref) == Approx(2.0));
  CHECK(max_abs_error(neg, ref) == 4.0);
}

TEST_CASE("shape validation names the limit", "[codegen][models]") {
  DwConvShape s = shape(1, 1, 3, 5, 8, 3, 4, 3, 1, 1, 1);
  CHECK_THROWS_WITH(dwconv_geometry(s, Arch::gfx950), Catch::Contains("KH = 4 is even"));
  s.KH = 3;
  s.padW = 3;
  CHECK_THROWS_WITH(dwconv_geometry(s, Arch::gfx950), Catch::Contains("padW = 3"));
  s.padW = 1;
  s.KW = 9;
  CHECK_THROWS_WITH(dwconv_geometry(s, Arch::gfx950), Catch::Contains("KW = 9"));
  // 3 x 200 x 60 bf16 = 72000 bytes: over gfx942's 64 KiB, within gfx950's 160 KiB.
  DwConvShape big = shape(1, 1, 3, 198, 58, 3, 3, 3, 1, 1, 1);
  CHECK_THROWS_WITH(dwconv_geometry(big, Arch::gfx942), Catch::Contains("65536"));
  CHECK(dwconv_geometry(big, Arch::gfx950).tile_bytes == 3u * 200 * 60 * 2);
  DwConvShape huge = shape(1, 1, 7, 400, 40, 7, 3, 3, 3, 1, 1);
  CHECK_THROWS_WITH(dwconv_geometry(huge, Arch::gfx950), Catch::Contains("163840"));
  // Geometry of the seed shape.
  DwConvGeometry g = dwconv_geometry(seed_shape(), Arch::gfx950);
  CHECK(g.grid_x == 512 * 59);
  CHECK(g.tile_h == 49);
  CHECK(g.tile_w == 84);
  CHECK(g.tile_bytes == 3u * 49 * 84 * 2);
  CHECK(g.items == 45 * 40);
  CHECK(g.steps == 8);
  CHECK(g.reads_per_row == 3);
  CHECK(g.lds_dma);
  CHECK(parse_variant("lds_dot2") == DwVariant::lds_dot2);
  CHECK_THROWS_WITH(parse_variant("dot3"), Catch::Contains("row_interleaved"));
}
