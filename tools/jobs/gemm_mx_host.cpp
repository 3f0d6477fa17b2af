#include "tools/jobs/gemm_mx_host.hpp"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <random>

#include "codegen/hip_sources.hpp"
#include "jit/isa/mfma_rate.hpp"
#include "tools/jobs/model_launch.hpp"
#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

GemmMxInputs gemm_mx_random_inputs(const GemmMxPlan& p, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto codes = [&](int64_t bytes) {
    std::vector<uint8_t> v(static_cast<size_t>(bytes));
    for (auto& x : v) {
      do x = uint8_t(rng());
      while ((p.shape.format == MxFormat::fp8 && (x & 0x7f) == 0x7f) ||   // E4M3 NaN
             (p.shape.format == MxFormat::bf8 && (x & 0x7c) == 0x7c));   // E5M2 inf/NaN
    }
    return v;
  };
  auto scales = [&](int64_t bytes) {
    std::vector<uint8_t> v(static_cast<size_t>(bytes));
    for (auto& x : v) x = uint8_t(123 + rng() % 9);
    return v;
  };
  GemmMxInputs in;
  in.a = codes(p.a_bytes());
  in.b = codes(p.b_bytes());
  in.sa = scales(p.sa_bytes());
  in.sb = scales(p.sb_bytes());
  return in;
}

double mx_element_value(MxFormat f, uint8_t code) {
  const bool neg = (code >> (mx_format_bits(f) - 1)) & 1;
  double v;
  if (f == MxFormat::fp4) {  // S EE M, bias 1
    const int e = (code >> 1) & 3, m = code & 1;
    v = e == 0 ? m * 0.5 : std::ldexp(1.0 + m * 0.5, e - 1);
  } else if (f == MxFormat::fp6) {  // S EE MMM, bias 1
    const int e = (code >> 3) & 3, m = code & 7;
    v = e == 0 ? m / 8.0 : std::ldexp(1.0 + m / 8.0, e - 1);
  } else if (f == MxFormat::bf6) {  // S EEE MM, bias 3
    const int e = (code >> 2) & 7, m = code & 3;
    v = e == 0 ? std::ldexp(double(m), -4) : std::ldexp(1.0 + m / 4.0, e - 3);
  } else if (f == MxFormat::bf8) {  // S EEEEE MM, bias 15, exponent 31 inf/NaN
    const int e = (code >> 2) & 31, m = code & 3;
    if (e == 31) return m ? NAN : (neg ? -INFINITY : INFINITY);
    v = e == 0 ? std::ldexp(double(m), -16) : std::ldexp(1.0 + m / 4.0, e - 15);
  } else {  // S EEEE MMM, bias 7
    const int e = (code >> 3) & 15, m = code & 7;
    if (e == 15 && m == 7) return NAN;
    v = e == 0 ? std::ldexp(double(m), -9) : std::ldexp(1.0 + m / 8.0, e - 7);
  }
  return neg ? -v : v;
}

double e8m0_value(uint8_t s) { return s == 0xff ? NAN : std::ldexp(1.0, int(s) - 127); }

namespace {

// Decoded, scaled values of `rows` rows of K elements.
std::vector<double> decode_rows(const GemmMxPlan& p, const std::vector<uint8_t>& codes,
                                const std::vector<uint8_t>& scales, int rows) {
  const size_t K = size_t(p.shape.K);
  std::vector<double> v(size_t(rows) * K);
  for (size_t r = 0; r < size_t(rows); ++r)
    for (size_t k = 0; k < K; ++k) {
      // Element k of the row: bits [w*k, w*k + w) of the row's little-endian bit string.
      const int w = mx_format_bits(p.shape.format);
      const size_t bit = k * size_t(w), at = r * size_t(p.row_bytes()) + bit / 8;
      const unsigned window = codes[at] | (bit % 8 + size_t(w) > 8 ? unsigned(codes[at + 1]) << 8 : 0u);
      const uint8_t code = uint8_t((window >> (bit % 8)) & ((1u << w) - 1));
      v[r * K + k] = mx_element_value(p.shape.format, code) *
                     e8m0_value(scales[size_t(p.shape.scale_index(int64_t(r), int64_t(k / kMxBlock), rows))]);
    }
  return v;
}

GemmMxRunResult run(Device& dev, const GemmMxPlan& p, const Module& m, const std::string& kernel,
                    const GemmMxInputs& in, bool reference = false) {
  Buffer a = dev.upload(in.a, "a");
  Buffer b = dev.upload(in.b, "b");
  Buffer sa = dev.upload(in.sa, "sa");
  Buffer sb = dev.upload(in.sb, "sb");
  Buffer c = dev.upload(std::vector<uint8_t>(size_t(p.c_bytes()), 0xff), "c");  // poisoned: NaN
  // the HIP reference takes a 2-D grid of tiles whatever the JIT kernel's order (group_m)
  const Dim3 grid = reference ? Dim3{uint32_t(p.tiles_m), uint32_t(p.tiles_n), 1} : Dim3{p.grid[0], p.grid[1], p.grid[2]};
  LaunchResult lr = dev.launch(m.kernel(kernel), grid, {uint32_t(p.threads)}, 0,
                               KernelArgs().ptr(a).ptr(b).ptr(sa).ptr(sb).ptr(c));
  GemmMxRunResult r;
  r.stats = lr.sim_stats;
  r.c = dev.download<uint8_t>(c);
  for (const Buffer& x : {a, b, sa, sb, c}) dev.free(x);
  return r;
}

}  // namespace

GemmMxReference gemm_mx_reference_fp64(const GemmMxPlan& p, const GemmMxInputs& in) {
  const GemmMxShape& s = p.shape;
  const size_t M = size_t(s.M), N = size_t(s.N), K = size_t(s.K);
  const std::vector<double> a = decode_rows(p, in.a, in.sa, s.M), b = decode_rows(p, in.b, in.sb, s.N);
  GemmMxReference r;
  r.value.resize(M * N);
  r.bound.resize(M * N);
  for (size_t m = 0; m < M; ++m)
    for (size_t n = 0; n < N; ++n) {
      double sum = 0, mag = 0;
      for (size_t k = 0; k < K; ++k) {
        const double x = a[m * K + k] * b[n * K + k];
        sum += x;
        mag += std::fabs(x);
      }
      double bound = double(K) * 0x1p-23 * mag;
      if (s.output == GemmMxOutput::bf16) bound += (std::fabs(sum) + bound) * 0x1p-8 + 0x1p-133;
      r.value[m * N + n] = sum;
      r.bound[m * N + n] = bound;
    }
  return r;
}

GemmMxBoundCheck gemm_mx_check_bound(const GemmMxPlan& p, std::span<const uint8_t> c, const GemmMxReference& ref) {
  if (c.size() != size_t(p.c_bytes()))
    throw Error(fmt::format("gemm-mx: output has {} bytes, the shape {} needs {}", c.size(), p.shape.str(), p.c_bytes()));
  return check_output_bound(c, p.shape.output == GemmMxOutput::f32, ref.value, ref.bound);
}

GemmMxRunResult run_gemm_mx_jit(Device& dev, const GemmMxPlan& p, const BuildResult& k, const GemmMxInputs& in) {
  Module m = dev.load(k.code_object);
  return run(dev, p, m, k.name, in);
}

GemmMxRunResult run_gemm_mx_hip(Device& dev, const GemmMxPlan& p, std::span<const uint8_t> code_object,
                                const GemmMxInputs& in) {
  Module m = dev.load(code_object);
  return run(dev, p, m, "gemm_mx_ref", in, true);
}

std::string GemmMxModelled::describe() const {
  return fmt::format(
      "modelled (model {}): {} [{}]: {:.4f} ms, {:.1f} TFLOP/s = {:.1f}% of the {} peak {:.1f} TFLOP/s for {} as "
      "the ISA table's pass count for the format gives it; modelled clock {:.3f} GHz at MFMA busy {:.0f}%; limiter {}; "
      "{} of {} workgroups replayed",
      model, shape, config, report.ms, tflops(), 100 * peak_share(), model, peak_tflops, mfma, report.clock_ghz,
      100 * report.mfma_busy, report.limiter,
      report.replayed_workgroups, report.plan.workgroups);
}

GemmMxModelled model_gemm_mx(const model::Hardware& hw, const GemmMxShape& s, const GemmMxConfig& cfg, uint64_t seed) {
  const GemmMxPlan p = make_gemm_mx_plan(s, hw.arch, cfg);
  GemmMxModelled m;
  m.model = hw.name;
  m.shape = s.str();
  m.config = p.cfg.str();
  m.mfma = std::string(p.mnemonic);
  m.gflop = s.gflop();
  const isa::InstrInfo* mi = isa::find(p.mnemonic);
  if (!mi) throw Error(fmt::format("gemm-mx model: {} is not in the ISA table", p.mnemonic));
  const uint8_t format = uint8_t(s.format);  // A's and B's CBSZ/BLGP format code: fp4/fp6 take fewer passes
  m.peak_tflops =
      hw.peak_mfma_flops(2 * p.cfg.mfma_m * p.cfg.mfma_m * p.mfma_k, isa::mfma_passes(*mi, hw.arch, format, format)) /
      1e12;
  const BuildResult k = build_gemm_mx(p);
  const GemmMxInputs in = gemm_mx_random_inputs(p, seed);
  auto dev = open_sim_device(hw.arch);
  Buffer a = dev->upload(in.a, "a");
  Buffer b = dev->upload(in.b, "b");
  Buffer sa = dev->upload(in.sa, "sa");
  Buffer sb = dev->upload(in.sb, "sb");
  Buffer c = dev->alloc(size_t(p.c_bytes()), "c");
  m.report = model_launch_of(*dev, hw, k, {p.grid[0], p.grid[1], p.grid[2]}, uint32_t(p.threads),
                             KernelArgs().ptr(a).ptr(b).ptr(sa).ptr(sb).ptr(c), m.gflop * 1e9);
  return m;
}

}  // namespace cdnajit::codegen
