#include "codegen/gemm_host.hpp"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>

#include "codegen/bf16.hpp"
#include "codegen/dwconv3d_models.hpp"
#include "codegen/hip_sources.hpp"
#include "codegen/hip_sources_embedded.hpp"
#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

GemmInputs gemm_random_inputs(const GemmPlan& p, uint64_t seed) {
  const GemmShape& s = p.shape;
  GemmInputs in;
  in.a = random_bf16(size_t(s.M) * size_t(s.K), seed);
  in.b = random_bf16(size_t(s.K) * size_t(s.N), seed + 1000);
  if (s.beta != 0.0f) {
    std::vector<uint16_t> c = random_bf16(size_t(s.M) * size_t(s.N), seed + 2000);
    in.c.resize(size_t(p.c_bytes()));
    for (size_t i = 0; i < c.size(); ++i) {
      if (s.output == GemmOutput::f32) {
        float f = bf16_to_f32(c[i]);
        std::memcpy(&in.c[4 * i], &f, 4);
      } else {
        std::memcpy(&in.c[2 * i], &c[i], 2);
      }
    }
  }
  return in;
}

namespace {

double c_value(const GemmPlan& p, std::span<const uint8_t> c, size_t e) {
  if (p.shape.output == GemmOutput::f32) {
    float f;
    std::memcpy(&f, &c[4 * e], 4);
    return f;
  }
  uint16_t b;
  std::memcpy(&b, &c[2 * e], 2);
  return bf16_to_f32(b);
}

}  // namespace

GemmReference gemm_reference_fp64(const GemmPlan& p, const GemmInputs& in) {
  const GemmShape& s = p.shape;
  const size_t M = size_t(s.M), N = size_t(s.N), K = size_t(s.K);
  std::vector<double> a(in.a.size()), bt(in.b.size());  // bt: N x K
  for (size_t i = 0; i < a.size(); ++i) a[i] = bf16_to_f32(in.a[i]);
  for (size_t k = 0; k < K; ++k)
    for (size_t n = 0; n < N; ++n)
      bt[n * K + k] = bf16_to_f32(s.layout == GemmLayout::NN ? in.b[k * N + n] : in.b[n * K + k]);
  GemmReference r;
  r.value.resize(M * N);
  r.bound.resize(M * N);
  const double alpha = s.alpha, beta = s.beta;
  for (size_t m = 0; m < M; ++m)
    for (size_t n = 0; n < N; ++n) {
      double sum = 0, mag = 0;
      const double* ar = &a[m * K];
      const double* br = &bt[n * K];
      for (size_t k = 0; k < K; ++k) {
        sum += ar[k] * br[k];
        mag += std::fabs(ar[k] * br[k]);
      }
      const double cin = s.beta != 0.0f ? c_value(p, in.c, m * N + n) : 0.0;
      const double v = alpha * sum + beta * cin;
      double bound = double(K) * 0x1p-23 * std::fabs(alpha) * mag +
                     0x1p-23 * (std::fabs(alpha * sum) + std::fabs(beta * cin));
      if (s.output == GemmOutput::bf16) bound += (std::fabs(v) + bound) * 0x1p-8 + 0x1p-133;  // half an ulp of the fp32 result
      r.value[m * N + n] = v;
      r.bound[m * N + n] = bound;
    }
  return r;
}

std::string GemmBoundCheck::describe() const {
  if (ok()) return fmt::format("within the bound ({} elements, worst error {:.3g} of the bound)", elements, worst_ratio);
  return fmt::format("{} of {} elements outside the bound; first at [{}]; worst error {:.3g}x the bound", violations,
                     elements, first, worst_ratio);
}

GemmBoundCheck gemm_check_bound(const GemmPlan& p, std::span<const uint8_t> c, const GemmReference& ref) {
  GemmBoundCheck chk;
  chk.elements = ref.value.size();
  if (c.size() != size_t(p.c_bytes()))
    throw Error(fmt::format("gemm: output has {} bytes, the shape {} needs {}", c.size(), p.shape.str(), p.c_bytes()));
  for (size_t e = 0; e < chk.elements; ++e) {
    const double err = std::fabs(c_value(p, c, e) - ref.value[e]);
    const double ratio = err / ref.bound[e];
    if (!(err <= ref.bound[e])) {  // NaN counts as a violation
      if (chk.violations++ == 0) chk.first = e;
    }
    if (ratio > chk.worst_ratio || std::isnan(ratio)) chk.worst_ratio = std::isnan(ratio) ? INFINITY : ratio;
  }
  return chk;
}

namespace {

// Launches `kernel` of `m` on (A, B, C) with C poisoned (0xff bytes: NaN) or holding the input C.
GemmRunResult run(Device& dev, const GemmPlan& p, const Module& m, const std::string& kernel, const GemmInputs& in,
                  Dim3 grid) {
  Buffer a = dev.upload(in.a, "a");
  Buffer b = dev.upload(in.b, "b");
  std::vector<uint8_t> c0 = p.shape.beta != 0.0f ? in.c : std::vector<uint8_t>(size_t(p.c_bytes()), 0xff);
  Buffer c = dev.upload(c0, "c");
  GemmRunResult r;
  auto t0 = std::chrono::steady_clock::now();
  LaunchResult lr = dev.launch(m.kernel(kernel), grid, {uint32_t(p.threads)}, 0,
                               KernelArgs().ptr(a).ptr(b).ptr(c));
  r.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.stats = lr.sim_stats;
  r.c = dev.download<uint8_t>(c);
  for (const Buffer& x : {a, b, c}) dev.free(x);
  return r;
}

}  // namespace

GemmRunResult run_gemm_jit(Device& dev, const GemmPlan& p, const BuildResult& k, const GemmInputs& in) {
  Module m = dev.load(k.code_object);
  return run(dev, p, m, k.name, in, {p.grid[0], p.grid[1], p.grid[2]});
}

std::string gemm_hip_source() { return inline_codegen_headers(embedded::kGemmMfma); }

std::vector<std::string> gemm_hip_flags(const GemmPlan& p) {
  const GemmShape& s = p.shape;
  std::vector<std::pair<const char*, int64_t>> d = {
      {"M", s.M}, {"N", s.N}, {"K", s.K}, {"NN", s.layout == GemmLayout::NN}, {"TM", p.cfg.tile_m},
      {"TN", p.cfg.tile_n}, {"TK", p.cfg.tile_k}, {"WM", p.cfg.waves_m}, {"WN", p.cfg.waves_n}, {"MB", p.mfma.m},
      {"ARCH950", p.arch == Arch::gfx950}, {"OUTF32", s.output == GemmOutput::f32},
      {"ALPHA_BITS", std::bit_cast<uint32_t>(s.alpha)}, {"BETA_BITS", std::bit_cast<uint32_t>(s.beta)}};
  std::vector<std::string> f;
  for (auto [n, v] : d) f.push_back(fmt::format("-DGM_{}={}", n, v));
  return f;
}

GemmRunResult run_gemm_hip(Device& dev, const GemmPlan& p, std::span<const uint8_t> code_object, const GemmInputs& in) {
  Module m = dev.load(code_object);
  // The reference's 2-D grid: workgroup (x, y) computes tile (x, y) whatever the JIT kernel's order.
  return run(dev, p, m, "gemm_ref", in, {uint32_t(p.tiles_m), uint32_t(p.tiles_n), 1});
}

}  // namespace cdnajit::codegen
