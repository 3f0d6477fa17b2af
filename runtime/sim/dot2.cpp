#include "runtime/sim/dot2.hpp"

#include "runtime/sim/fixed_point.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace cdnajit::sim {

namespace {
using namespace fixed;

float dot2_fixed_point(float a0, float b0, float a1, float b1, float c) {
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

float dot2_fused(float a0, float b0, float a1, float b1, float c) {
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
  return dot2_fixed_point(a0, b0, a1, b1, c);
}

}  // namespace cdnajit::sim
