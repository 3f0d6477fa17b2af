#include "tools/tune_families/conv3d_igemm_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "codegen/bf16.hpp"
#include "tools/jobs/conv3d_igemm_host.hpp"
#include "jit/isa/error.hpp"

namespace cdnajit::tune {

using codegen::Conv3dPlan;
using codegen::Conv3dShape;

Conv3dPlan conv3d_check_plan(const Conv3dPlan& p) {
  const Conv3dShape& big = p.shape;
  Conv3dShape s = big;
  s.N = 1;
  s.C = std::min(big.C, 13);  // odd: exercises the channel padding
  s.K = std::min(big.K, p.cfg.tile_n) + 8;
  // Output extent per dimension -> input extent: in = (out - 1) * stride - 2 pad + dil (k - 1) + 1.
  auto input_for = [](int out, int stride, int pad, int dil, int k) {
    return std::max(1, (out - 1) * stride - 2 * pad + dil * (k - 1) + 1);
  };
  const int do_ = std::min(big.Do(), 2);
  const int m_needed = p.cfg.tile_m + p.cfg.tile_m / 2;
  const int hw = int(std::ceil(std::sqrt(double(m_needed) / do_)));
  s.D = input_for(do_, s.stride[0], s.pad[0], s.dil[0], s.T);
  s.H = input_for(hw, s.stride[1], s.pad[1], s.dil[1], s.R);
  s.W = input_for(hw, s.stride[2], s.pad[2], s.dil[2], s.S);
  return codegen::make_conv3d_plan(s, p.dtype, p.arch, p.cfg, p.output);
}

double conv3d_output_tolerance(double ref, double abs_sum, int64_t terms) {
  return std::ldexp(std::fabs(ref), -8) + double(terms) * std::ldexp(abs_sum, -23) + std::ldexp(std::fabs(ref), -23);
}

std::string conv3d_compare_with_tolerance(std::span<const double> got, std::span<const double> ref,
                                          std::span<const double> abs_sum, int64_t terms) {
  if (got.size() != ref.size() || abs_sum.size() != ref.size())
    return fmt::format("{} outputs, the reference has {}", got.size(), ref.size());
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    bool ok = std::isfinite(got[i]) && std::fabs(got[i] - ref[i]) <= conv3d_output_tolerance(ref[i], abs_sum[i], terms);
    if (!ok && bad++ == 0) first = i;
  }
  if (bad == 0) return "";
  return fmt::format("{} of {} outputs outside the rounding bound; first at {}: got {} want {} (bound {:.3g})", bad,
                     got.size(), first, got[first], ref[first],
                     conv3d_output_tolerance(ref[first], abs_sum[first], terms));
}

std::string conv3d_check_small(Device& dev, codegen::Conv3dDType t, const Conv3dPlan& big) {
  const Conv3dPlan p = conv3d_check_plan(big);
  return conv3d_check(dev, t, p, codegen::build_conv3d_kernels(p));
}

std::string conv3d_check(Device& dev, codegen::Conv3dDType t, const Conv3dPlan& p, const codegen::Conv3dKernels& k) {
  const Conv3dShape& s = p.shape;
  codegen::Conv3dInputs in = codegen::conv3d_random_inputs(s, 7);
  if (t == codegen::Conv3dDType::fp8) {
    // E4M3 values are bf16 values: quantise once, and the kernel's packing is then exact.
    const bool fnuz = p.arch == Arch::gfx942;
    for (auto* v : {&in.x, &in.w})
      for (uint16_t& e : *v)
        e = codegen::f32_to_bf16_rne(
            float(codegen::fp8_e4m3_decode(codegen::fp8_e4m3_encode(codegen::bf16_to_f32(e), fnuz), fnuz)));
  }
  codegen::Conv3dRunResult r = codegen::run_conv3d_jit(dev, p, k, codegen::conv3d_pack_input(p, in.x),
                                                       codegen::conv3d_pack_weights(p, in.w), in.bias);
  std::vector<double> ref = codegen::conv3d_reference_fp64(s, in);
  codegen::Conv3dInputs abs_in = in;
  for (auto* v : {&abs_in.x, &abs_in.w})
    for (uint16_t& e : *v) e &= 0x7fff;
  for (float& b : abs_in.bias) b = 0;
  std::vector<double> abs_sum = codegen::conv3d_reference_fp64(s, abs_in);
  std::string why = conv3d_compare_with_tolerance(codegen::conv3d_output_values(p.output, r.y), ref, abs_sum,
                                                  int64_t(s.taps()) * s.C);
  return why.empty() ? "" : fmt::format("on {}: {}", s.str(), why);
}

}  // namespace cdnajit::tune
