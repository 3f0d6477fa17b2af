#include "codegen/dwconv3d_models.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <fmt/format.h>

#include "codegen/bf16.hpp"
#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

namespace {

// Value of input element (n, c, di, hi, wi) or +0 outside the tensor (padding).
struct InputView {
  const DwConvShape& s;
  std::span<const uint16_t> in;
  uint16_t at(int n, int c, int di, int hi, int wi) const {
    if (di < 0 || di >= s.D || hi < 0 || hi >= s.H || wi < 0 || wi >= s.W) return 0;
    return in[((((size_t(n) * s.C + c) * s.D + di) * s.H + hi) * s.W) + wi];
  }
};

void check_sizes(const DwConvShape& s, std::span<const uint16_t> input, std::span<const uint16_t> weight) {
  if (int64_t(input.size()) != s.input_elems() || int64_t(weight.size()) != s.weight_elems())
    throw Error(fmt::format("depthwise conv3d model {}: got {} input and {} weight elements, expected {} and {}",
                            s.str(), input.size(), weight.size(), s.input_elems(), s.weight_elems()));
}

// Calls f(n, c, d, h, w, out_index) for every output element.
template <class F>
void for_each_output(const DwConvShape& s, F&& f) {
  size_t o = 0;
  for (int n = 0; n < s.N; ++n)
    for (int c = 0; c < s.C; ++c)
      for (int d = 0; d < s.D_out(); ++d)
        for (int h = 0; h < s.H_out(); ++h)
          for (int w = 0; w < s.W_out(); ++w) f(n, c, d, h, w, o++);
}

// ---- exact three-term sum rounded once to f32 ----
// A signed fixed-point number with its least significant bit worth 2^-kFracBits,
// wide enough for any f32 and any product of two bf16 values.
constexpr int kFracBits = 320;
constexpr int kLimbs = 10;  // 640 bits
struct Fixed {
  std::array<uint64_t, kLimbs> limb{};
  void add_shifted(uint64_t mant, int bit, bool negative) {
    // Two's complement add of (+/-) mant << bit.
    std::array<uint64_t, kLimbs> t{};
    int li = bit / 64, sh = bit % 64;
    t[li] = mant << sh;
    if (sh && li + 1 < kLimbs) t[li + 1] = mant >> (64 - sh);
    if (negative) {
      uint64_t carry = 1;
      for (auto& x : t) { x = ~x; uint64_t y = x + carry; carry = (y < x); x = y; }
    }
    uint64_t carry = 0;
    for (int i = 0; i < kLimbs; ++i) {
      uint64_t a = limb[i], b = t[i];
      uint64_t s1 = a + b, c1 = s1 < a;
      uint64_t s2 = s1 + carry, c2 = s2 < s1;
      limb[i] = s2;
      carry = c1 | c2;
    }
  }
  bool negative() const { return limb[kLimbs - 1] >> 63; }
  void negate() {
    uint64_t carry = 1;
    for (auto& x : limb) { x = ~x; uint64_t y = x + carry; carry = (y < x); x = y; }
  }
  bool bit(int i) const { return i >= 0 && ((limb[i / 64] >> (i % 64)) & 1); }
  bool any_below(int i) const {  // any set bit at positions < i
    for (int k = 0; k < kLimbs && k * 64 < i; ++k) {
      uint64_t m = (i - k * 64 >= 64) ? ~0ull : ((1ull << (i - k * 64)) - 1);
      if (limb[k] & m) return true;
    }
    return false;
  }
  int msb() const {
    for (int k = kLimbs - 1; k >= 0; --k)
      if (limb[k]) return k * 64 + 63 - std::countl_zero(limb[k]);
    return -1;
  }
};

// Significand and exponent of a finite float: f = mant * 2^exp.
void decompose(float f, uint64_t& mant, int& exp, bool& neg) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  neg = u >> 31;
  int e = (u >> 23) & 0xff;
  mant = u & 0x7fffff;
  if (e) mant |= 0x800000;
  exp = (e ? e : 1) - 150;
}

float round_fixed_to_f32(Fixed acc) {
  bool neg = acc.negative();
  if (neg) acc.negate();
  int p = acc.msb();
  if (p < 0) return 0.0f;
  int lsb = std::max(p - 23, kFracBits - 149);  // subnormals keep their LSB at 2^-149
  uint64_t m = 0;
  for (int i = p; i >= lsb; --i) m = (m << 1) | uint64_t(acc.bit(i));
  bool round = acc.bit(lsb - 1), sticky = acc.any_below(lsb - 1);
  if (round && (sticky || (m & 1))) ++m;
  float r = std::ldexp(float(m), lsb - kFracBits);  // exact, or inf on overflow
  return neg ? -r : r;
}

float dot2_fused_exact(float a0, float b0, float a1, float b1, float c) {
  if (!std::isfinite(a0) || !std::isfinite(b0) || !std::isfinite(a1) || !std::isfinite(b1) || !std::isfinite(c))
    return float(double(a0) * b0 + double(a1) * b1 + double(c));
  Fixed acc;
  bool all_neg_zero = true;
  auto add_product = [&](float x, float y) {
    uint64_t mx, my; int ex, ey; bool nx, ny;
    decompose(x, mx, ex, nx);
    decompose(y, my, ey, ny);
    if (mx && my) acc.add_shifted(mx * my, ex + ey + kFracBits, nx != ny);
    all_neg_zero &= (mx == 0 || my == 0) && (nx != ny);
  };
  add_product(a0, b0);
  add_product(a1, b1);
  uint64_t mc; int ec; bool nc;
  decompose(c, mc, ec, nc);
  if (mc) acc.add_shifted(mc, ec + kFracBits, nc);
  all_neg_zero &= (mc == 0) && nc;
  float r = round_fixed_to_f32(acc);
  if (r == 0.0f && acc.msb() < 0) return all_neg_zero ? -0.0f : 0.0f;
  return r;
}

}  // namespace

float dot2_f32_bf16(uint32_t a, uint32_t b, float c, Dot2Rounding r) {
  float a0 = bf16_to_f32(uint16_t(a)), a1 = bf16_to_f32(uint16_t(a >> 16));
  float b0 = bf16_to_f32(uint16_t(b)), b1 = bf16_to_f32(uint16_t(b >> 16));
  if (r == Dot2Rounding::products_then_sum) return std::fma(a1, b1, std::fma(a0, b0, c));
  // Fast path: the products are exact in double; when both additions are exact
  // too (the TwoSum errors are zero), the double sum is the exact sum and one
  // conversion rounds it once. Otherwise the fixed-point path below.
  double p0 = double(a0) * double(b0), p1 = double(a1) * double(b1);
  if (std::isfinite(p0) && std::isfinite(p1) && std::isfinite(c)) {
    auto two_sum_err = [](double x, double y, double s) {
      double yy = s - x, xx = s - yy;
      return (x - xx) + (y - yy);
    };
    double s1 = p0 + p1;
    double s2 = s1 + double(c);
    if (two_sum_err(p0, p1, s1) == 0.0 && two_sum_err(s1, double(c), s2) == 0.0) return float(s2);
  }
  return dot2_fused_exact(a0, b0, a1, b1, c);
}

std::vector<double> dwconv3d_reference_fp64(const DwConvShape& s, std::span<const uint16_t> input,
                                            std::span<const uint16_t> weight) {
  dwconv_geometry(s, Arch::gfx950);  // validates the shape
  check_sizes(s, input, weight);
  InputView x{s, input};
  std::vector<double> out(size_t(s.output_elems()));
  for_each_output(s, [&](int n, int c, int d, int h, int w, size_t o) {
    double acc = 0;
    const uint16_t* wt = weight.data() + size_t(c) * s.taps();
    for (int kd = 0; kd < s.KD; ++kd)
      for (int kh = 0; kh < s.KH; ++kh)
        for (int kw = 0; kw < s.KW; ++kw)
          acc += double(bf16_to_f32(wt[(kd * s.KH + kh) * s.KW + kw])) *
                 double(bf16_to_f32(x.at(n, c, d - s.padD + kd, h - s.padH + kh, w - s.padW + kw)));
    out[o] = acc;
  });
  return out;
}

std::vector<uint16_t> dwconv3d_model_fmac(const DwConvShape& s, std::span<const uint16_t> input,
                                          std::span<const uint16_t> weight) {
  dwconv_geometry(s, Arch::gfx950);
  check_sizes(s, input, weight);
  InputView x{s, input};
  std::vector<uint16_t> out(size_t(s.output_elems()));
  for_each_output(s, [&](int n, int c, int d, int h, int w, size_t o) {
    float acc = 0.0f;
    const uint16_t* wt = weight.data() + size_t(c) * s.taps();
    for (int kd = 0; kd < s.KD; ++kd)
      for (int kh = 0; kh < s.KH; ++kh)
        for (int kw = 0; kw < s.KW; ++kw)
          acc = std::fma(bf16_to_f32(wt[(kd * s.KH + kh) * s.KW + kw]),
                         bf16_to_f32(x.at(n, c, d - s.padD + kd, h - s.padH + kh, w - s.padW + kw)), acc);
    out[o] = f32_to_bf16_rne(acc);
  });
  return out;
}

std::vector<uint16_t> dwconv3d_model_dot2(const DwConvShape& s, std::span<const uint16_t> input,
                                          std::span<const uint16_t> weight, Dot2Rounding r) {
  dwconv_geometry(s, Arch::gfx950);
  check_sizes(s, input, weight);
  InputView x{s, input};
  std::vector<uint16_t> out(size_t(s.output_elems()));
  for_each_output(s, [&](int n, int c, int d, int h, int w, size_t o) {
    float acc = 0.0f;
    const uint16_t* wt = weight.data() + size_t(c) * s.taps();
    for (int kd = 0; kd < s.KD; ++kd)
      for (int kh = 0; kh < s.KH; ++kh) {
        const uint16_t* wrow = wt + (kd * s.KH + kh) * s.KW;
        int di = d - s.padD + kd, hi = h - s.padH + kh, w0 = w - s.padW;
        for (int q = 0; q + 1 < s.KW; q += 2) {
          uint32_t wp = wrow[q] | (uint32_t(wrow[q + 1]) << 16);
          uint32_t xp = x.at(n, c, di, hi, w0 + q) | (uint32_t(x.at(n, c, di, hi, w0 + q + 1)) << 16);
          acc = dot2_f32_bf16(wp, xp, acc, r);
        }
        acc = std::fma(bf16_to_f32(wrow[s.KW - 1]), bf16_to_f32(x.at(n, c, di, hi, w0 + s.KW - 1)), acc);
      }
    out[o] = f32_to_bf16_rne(acc);
  });
  return out;
}

std::vector<uint16_t> dwconv3d_model(const DwConvShape& s, DwVariant v, Arch a, std::span<const uint16_t> input,
                                     std::span<const uint16_t> weight, Dot2Rounding r) {
  if (!variant_available(v, a))
    throw Error(fmt::format("depthwise conv3d variant {} does not exist on {} (it needs gfx950)", variant_name(v),
                            arch_name(a)));
  return uses_dot2(v, a) ? dwconv3d_model_dot2(s, input, weight, r) : dwconv3d_model_fmac(s, input, weight);
}

// ---- comparisons ----

std::string BitCompare::describe() const {
  if (equal()) return fmt::format("bit-exact ({} elements)", count);
  return fmt::format("{} of {} elements differ; first at [{}]: got 0x{:04x} ({}) want 0x{:04x} ({})", mismatches,
                     count, first, got, bf16_to_f32(got), want, bf16_to_f32(want));
}

BitCompare compare_bits(std::span<const uint16_t> got, std::span<const uint16_t> want) {
  if (got.size() != want.size())
    throw Error(fmt::format("compare_bits: sizes differ (got {} elements, want {})", got.size(), want.size()));
  BitCompare c;
  c.count = got.size();
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    if (c.mismatches++ == 0) {
      c.first = i;
      c.got = got[i];
      c.want = want[i];
    }
  }
  return c;
}

std::string describe_mismatch(const BitCompare& c, const DwConvShape& s) {
  if (c.equal()) return c.describe();
  size_t i = c.first;
  int w = int(i % s.W_out()); i /= s.W_out();
  int h = int(i % s.H_out()); i /= s.H_out();
  int d = int(i % s.D_out()); i /= s.D_out();
  int ch = int(i % s.C); i /= s.C;
  return fmt::format("{} = output (n{}, c{}, d{}, h{}, w{})", c.describe(), i, ch, d, h, w);
}

double max_abs_error(std::span<const uint16_t> got, std::span<const double> ref) {
  if (got.size() != ref.size()) throw Error("max_abs_error: sizes differ");
  double m = 0;
  for (size_t i = 0; i < got.size(); ++i) m = std::max(m, std::fabs(double(bf16_to_f32(got[i])) - ref[i]));
  return m;
}

double calc_diff(std::span<const uint16_t> got, std::span<const double> ref) {
  if (got.size() != ref.size()) throw Error("calc_diff: sizes differ");
  double xy = 0, sq = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double x = bf16_to_f32(got[i]), y = ref[i];
    xy += x * y;
    sq += x * x + y * y;
  }
  return sq == 0 ? 0.0 : 1.0 - 2.0 * xy / sq;
}

std::vector<uint16_t> random_bf16(size_t n, uint64_t seed) {
  std::vector<uint16_t> v(n);
  uint64_t st = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& x : v) {
    st ^= st << 13; st ^= st >> 7; st ^= st << 17;  // xorshift64
    uint32_t r = uint32_t(st >> 16);
    if ((r & 63) == 0) { x = 0; continue; }                 // some exact zeros
    uint32_t exp = 127 - 8 + (r >> 8) % 10;                 // 2^-8 .. 2^1
    uint32_t mant = (r >> 20) & 0x7f;
    x = uint16_t(((r >> 6) & 1) << 15 | exp << 7 | mant);
  }
  return v;
}

}  // namespace cdnajit::codegen
