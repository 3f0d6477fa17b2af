#include "tools/jobs/dwconv3d_models.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <bit>
#include <cmath>
#include <fmt/format.h>

#include "codegen/bf16.hpp"
#include "jit/isa/error.hpp"
#include "codegen/reference/exact_dot.hpp"

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
  // The input row (n, c, di, hi, 0..W-1), or nullptr when the row is padding: the
  // bounds and index work done once per kernel row instead of once per tap.
  const uint16_t* row(int n, int c, int di, int hi) const {
    if (di < 0 || di >= s.D || hi < 0 || hi >= s.H) return nullptr;
    return in.data() + (((size_t(n) * s.C + c) * s.D + di) * s.H + hi) * s.W;
  }
  uint16_t at_row(const uint16_t* r, int wi) const { return r && wi >= 0 && wi < s.W ? r[wi] : 0; }
};

void check_sizes(const DwConvShape& s, std::span<const uint16_t> input, std::span<const uint16_t> weight) {
  if (int64_t(input.size()) != s.input_elems() || int64_t(weight.size()) != s.weight_elems())
    throw Error(fmt::format("depthwise conv3d model {}: got {} input and {} weight elements, expected {} and {}",
                            s.str(), input.size(), weight.size(), s.input_elems(), s.weight_elems()));
}

// Calls f(n, c, first_out_index) for every (n, c) slice of the output. Every output element is
// computed on its own, so the slices are spread over the host's threads (taken in turn from a
// shared counter); the result does not depend on the thread count. The first exception a slice
// throws is rethrown here once every thread has stopped.
template <class F>
void for_each_slice(const DwConvShape& s, F&& f) {
  const int slices = s.N * s.C;
  const size_t per_slice = size_t(s.D_out()) * s.H_out() * s.W_out();
  std::atomic<int> next{0};
  std::mutex m;
  std::exception_ptr error;
  auto work = [&] {
    try {
      for (int sl = next++; sl < slices; sl = next++) f(sl / s.C, sl % s.C, size_t(sl) * per_slice);
    } catch (...) {
      std::lock_guard<std::mutex> g(m);
      if (!error) error = std::current_exception();
      next = slices;
    }
  };
  const int threads = std::min<int>(slices, int(std::max(1u, std::thread::hardware_concurrency())));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

// Calls f(n, c, d, h, w, out_index) for every output element (slices over threads as above).
template <class F>
void for_each_output(const DwConvShape& s, F&& f) {
  for_each_slice(s, [&](int n, int c, size_t o) {
    for (int d = 0; d < s.D_out(); ++d)
      for (int h = 0; h < s.H_out(); ++h)
        for (int w = 0; w < s.W_out(); ++w) f(n, c, d, h, w, o++);
  });
}

// Calls f(weight bits, input bits) for the taps of output (n, c, d, h, w) in kd, kh, kw
// order — the order the fmac kernels accumulate in.
template <class F>
void for_each_tap(const DwConvShape& s, const InputView& x, std::span<const uint16_t> weight, int n, int c, int d,
                  int h, int w, F&& f) {
  const uint16_t* wt = weight.data() + size_t(c) * s.taps();
  for (int kd = 0; kd < s.KD; ++kd)
    for (int kh = 0; kh < s.KH; ++kh)
      for (int kw = 0; kw < s.KW; ++kw)
        f(wt[(kd * s.KH + kh) * s.KW + kw], x.at(n, c, d - s.padD + kd, h - s.padH + kh, w - s.padW + kw));
}

}  // namespace

float dot2_f32_bf16(uint32_t a, uint32_t b, float c, Dot2Rounding r) {
  float a0 = bf16_to_f32(uint16_t(a)), a1 = bf16_to_f32(uint16_t(a >> 16));
  float b0 = bf16_to_f32(uint16_t(b)), b1 = bf16_to_f32(uint16_t(b >> 16));
  if (r == Dot2Rounding::products_then_sum) return std::fma(a1, b1, std::fma(a0, b0, c));
  // The independent MPFR-backed oracle, not the simulator's sim::dot2_fused: a
  // bit-exact match then checks the simulator's arithmetic as well as the kernel's
  // pairing and order.
  return reference::exact_dot2_f32(a0, b0, a1, b1, c);
}

std::vector<double> dwconv3d_reference_fp64(const DwConvShape& s, std::span<const uint16_t> input,
                                            std::span<const uint16_t> weight) {
  dwconv_geometry(s, Arch::gfx950);  // validates the shape
  check_sizes(s, input, weight);
  InputView x{s, input};
  std::vector<double> out(size_t(s.output_elems()));
  auto one_output = [&](int n, int c, int d, int h, int w) {
    // Taps in kd, kh, kw order as before. Padding taps are skipped: they add a
    // signed zero to an accumulator that starts at +0, which never changes it.
    double acc = 0;
    const uint16_t* wt = weight.data() + size_t(c) * s.taps();
    for (int kd = 0; kd < s.KD; ++kd)
      for (int kh = 0; kh < s.KH; ++kh) {
        const uint16_t* r = x.row(n, c, d - s.padD + kd, h - s.padH + kh);
        if (!r) continue;
        const uint16_t* wrow = wt + (kd * s.KH + kh) * s.KW;
        int w0 = w - s.padW, kw_lo = std::max(0, -w0), kw_hi = std::min(s.KW, s.W - w0);
        for (int kw = kw_lo; kw < kw_hi; ++kw) acc += double(bf16_to_f32(wrow[kw])) * double(bf16_to_f32(r[w0 + kw]));
      }
    return acc;
  };
  // Eight adjacent outputs whose taps all lie inside the row at once (the same products and sums
  // in the same order per output, so the same values; the loop over the eight vectorises); the
  // others one by one.
  const int W_out = s.W_out();
  for_each_slice(s, [&](int n, int c, size_t o) {
    const uint16_t* wt = weight.data() + size_t(c) * s.taps();
    for (int d = 0; d < s.D_out(); ++d)
      for (int h = 0; h < s.H_out(); ++h, o += size_t(W_out))
        for (int w = 0; w < W_out;) {
          const int w0 = w - s.padW;
          if (w + 8 > W_out || w0 < 0 || w0 + 7 + s.KW > s.W) {
            out[o + size_t(w)] = one_output(n, c, d, h, w);
            ++w;
            continue;
          }
          double acc[8] = {};
          for (int kd = 0; kd < s.KD; ++kd)
            for (int kh = 0; kh < s.KH; ++kh) {
              const uint16_t* r = x.row(n, c, d - s.padD + kd, h - s.padH + kh);
              if (!r) continue;
              const uint16_t* wrow = wt + (kd * s.KH + kh) * s.KW;
              for (int kw = 0; kw < s.KW; ++kw) {
                const double wv = double(bf16_to_f32(wrow[kw]));
                const uint16_t* xr = r + w0 + kw;
                for (int l = 0; l < 8; ++l) acc[l] += wv * double(bf16_to_f32(xr[l]));
              }
            }
          for (int l = 0; l < 8; ++l) out[o + size_t(w + l)] = acc[l];
          w += 8;
        }
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
    for_each_tap(s, x, weight, n, c, d, h, w,
                 [&](uint16_t wt, uint16_t in) { acc = std::fma(bf16_to_f32(wt), bf16_to_f32(in), acc); });
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
  auto one_output = [&](int n, int c, int d, int h, int w) {
    float acc = 0.0f;
    const uint16_t* wt = weight.data() + size_t(c) * s.taps();
    for (int kd = 0; kd < s.KD; ++kd)
      for (int kh = 0; kh < s.KH; ++kh) {
        const uint16_t* wrow = wt + (kd * s.KH + kh) * s.KW;
        const uint16_t* xr = x.row(n, c, d - s.padD + kd, h - s.padH + kh);
        int w0 = w - s.padW;
        for (int q = 0; q + 1 < s.KW; q += 2) {
          uint32_t wp = wrow[q] | (uint32_t(wrow[q + 1]) << 16);
          uint32_t xp = x.at_row(xr, w0 + q) | (uint32_t(x.at_row(xr, w0 + q + 1)) << 16);
          acc = dot2_f32_bf16(wp, xp, acc, r);
        }
        acc = std::fma(bf16_to_f32(wrow[s.KW - 1]), bf16_to_f32(x.at_row(xr, w0 + s.KW - 1)), acc);
      }
    return f32_to_bf16_rne(acc);
  };
  if (r != Dot2Rounding::fused_single_rounding) {
    for_each_output(s, [&](int n, int c, int d, int h, int w, size_t o) { out[o] = one_output(n, c, d, h, w); });
    return out;
  }
  // The fused rule on eight adjacent outputs of a row at once (reference::exact_dot2_f32_x8: the
  // same steps in the same order per output, so the same bits); a row's last W_out % 8 outputs
  // one by one. Each kernel row's inputs as floats with the padding's zeros around them.
  const int W_out = s.W_out(), blocks = W_out / 8, taps_row = s.KD * s.KH, padded = s.W + 2 * s.padW + s.KW + 8;
  for_each_slice(s, [&](int n, int c, size_t o) {
    const uint16_t* wt = weight.data() + size_t(c) * s.taps();
    std::vector<float> rows(size_t(taps_row) * padded);
    for (int d = 0; d < s.D_out(); ++d)
      for (int h = 0; h < s.H_out(); ++h, o += size_t(W_out)) {
        for (int kd = 0; kd < s.KD; ++kd)
          for (int kh = 0; kh < s.KH; ++kh) {
            const uint16_t* xr = x.row(n, c, d - s.padD + kd, h - s.padH + kh);
            float* fr = rows.data() + size_t(kd * s.KH + kh) * padded;  // fr[j] = input column j - padW
            for (int j = 0; j < padded; ++j) fr[j] = bf16_to_f32(x.at_row(xr, j - s.padW));
          }
        for (int b = 0; b < blocks; ++b) {
          float acc[8] = {};
          for (int kd = 0; kd < s.KD; ++kd)
            for (int kh = 0; kh < s.KH; ++kh) {
              const uint16_t* wrow = wt + (kd * s.KH + kh) * s.KW;
              const float* fr = rows.data() + size_t(kd * s.KH + kh) * padded + 8 * b;  // lane l: output 8b + l
              for (int q = 0; q + 1 < s.KW; q += 2)
                reference::exact_dot2_f32_x8(bf16_to_f32(wrow[q]), bf16_to_f32(wrow[q + 1]), fr + q, fr + q + 1, acc);
              const float wl = bf16_to_f32(wrow[s.KW - 1]);
              for (int l = 0; l < 8; ++l) acc[l] = std::fma(wl, fr[s.KW - 1 + l], acc[l]);
            }
          for (int l = 0; l < 8; ++l) out[o + size_t(8 * b + l)] = f32_to_bf16_rne(acc[l]);
        }
        for (int w = 8 * blocks; w < W_out; ++w) out[o + size_t(w)] = one_output(n, c, d, h, w);
      }
  });
  return out;
}

std::vector<uint16_t> dwconv3d_model(const DwConvShape& s, DwVariant v, Arch a, std::span<const uint16_t> input,
                                     std::span<const uint16_t> weight, Dot2Rounding r) {
  if (!variant_available(v, a))
    throw Error(fmt::format("depthwise conv3d variant {} does not exist on {} (it needs gfx950)", variant_name(v),
                            arch_name(a)));
  if (variant_info(v).arithmetic == DwArithmetic::mfma) return dwconv_mfma_model(s, a, input, weight);
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
