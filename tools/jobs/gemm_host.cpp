#include "tools/jobs/gemm_host.hpp"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>

#include "codegen/bf16.hpp"
#include "codegen/gemm_split_k.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "codegen/hip_sources.hpp"
#include "jit/isa/error.hpp"
#include "jit/lib/host_convert.hpp"

namespace cdnajit::codegen {

namespace {

// The arch's 8-bit float of the plan's input type: FNUZ on gfx942, OCP on gfx950 (gemm_config.hpp).
host::Fp8 gemm_fp8_format(const GemmPlan& p) {
  const bool e5m2 = p.shape.dtype == GemmDType::e5m2, fnuz = p.arch == Arch::gfx942;
  return e5m2 ? (fnuz ? host::Fp8::e5m2_fnuz : host::Fp8::e5m2_ocp) : (fnuz ? host::Fp8::e4m3_fnuz : host::Fp8::e4m3_ocp);
}

}  // namespace

double gemm_input_value(const GemmPlan& p, std::span<const uint8_t> bytes, size_t i) {
  if (p.esize == 1) return host::fp8_to_f32(bytes[i], gemm_fp8_format(p));
  uint16_t b;
  std::memcpy(&b, &bytes[2 * i], 2);
  return p.shape.dtype == GemmDType::f16 ? f16_to_f32(b) : bf16_to_f32(b);
}

GemmInputs gemm_random_inputs(const GemmPlan& p, uint64_t seed) {
  const GemmShape& s = p.shape;
  GemmInputs in;
  auto input = [&](size_t n, uint64_t sd) {
    const std::vector<uint16_t> v = random_bf16(n, sd);
    std::vector<uint8_t> out(n * size_t(p.esize));
    if (p.shape.dtype == GemmDType::f16) {
      // the bf16 value (exact in f16) with its 3 mantissa bits below bf16's filled in, so the
      // products use f16's whole significand
      for (size_t i = 0; i < n; ++i) {
        uint16_t h = f32_to_f16_rne(bf16_to_f32(v[i]));
        if (h & 0x7fff) h = uint16_t(h | ((i * 0x9e3779b9u + sd) >> 7 & 7));
        std::memcpy(&out[2 * i], &h, 2);
      }
    } else if (p.esize == 2) {
      std::memcpy(out.data(), v.data(), out.size());
    } else {
      const host::Fp8 f = gemm_fp8_format(p);
      for (size_t i = 0; i < n; ++i) out[i] = host::f32_to_fp8(bf16_to_f32(v[i]), f);
    }
    return out;
  };
  in.a = input(size_t(s.M) * size_t(s.K), seed);
  in.b = input(size_t(s.K) * size_t(s.N), seed + 1000);
  if (s.bias != GemmBias::none) {  // bf16 test values as fp32
    const std::vector<uint16_t> b = random_bf16(size_t(s.N), seed + 3000);
    in.bias.resize(size_t(p.bias_bytes()));
    for (size_t i = 0; i < b.size(); ++i) {
      const float f = bf16_to_f32(b[i]);
      std::memcpy(&in.bias[4 * i], &f, 4);
    }
  }
  if (s.beta != 0.0f) {
    std::vector<uint16_t> c = random_bf16(size_t(s.M) * size_t(s.N), seed + 2000);
    in.c.resize(size_t(p.c_bytes()));
    for (size_t i = 0; i < c.size(); ++i) {
      if (s.output == GemmOutput::f32) {
        float f = bf16_to_f32(c[i]);
        std::memcpy(&in.c[4 * i], &f, 4);
      } else if (s.output == GemmOutput::f16) {
        const uint16_t h = f32_to_f16_rne(bf16_to_f32(c[i]));  // exact: the values are f16 normals
        std::memcpy(&in.c[2 * i], &h, 2);
      } else {
        std::memcpy(&in.c[2 * i], &c[i], 2);
      }
    }
  }
  return in;
}

double output_element(std::span<const uint8_t> c, size_t e, bool f32) {
  return output_element(c, e, f32 ? GemmOutput::f32 : GemmOutput::bf16);
}

double output_element(std::span<const uint8_t> c, size_t e, GemmOutput o) {
  if (o == GemmOutput::f32) {
    float f;
    std::memcpy(&f, &c[4 * e], 4);
    return f;
  }
  uint16_t b;
  std::memcpy(&b, &c[2 * e], 2);
  return o == GemmOutput::f16 ? f16_to_f32(b) : bf16_to_f32(b);
}

double gemm_bias_value(const GemmInputs& in, size_t n) {
  float f;
  std::memcpy(&f, &in.bias[4 * n], 4);
  return f;
}

double activation_fp64(GemmActivation a, double x) {
  switch (a) {
    case GemmActivation::none: return x;
    case GemmActivation::relu: return x > 0 ? x : 0.0;
    case GemmActivation::silu: return x / (1 + std::exp(-x));
    case GemmActivation::gelu_tanh: return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  }
  return x;
}

double activation_bound(GemmActivation a, double x, double y, double bound) {
  if (a == GemmActivation::none || a == GemmActivation::relu) return bound;  // exact and 1-Lipschitz
  // y = x * rcp(1 + exp2(z)) in fp32 (gemm_config.hpp): z carries at most ~5 roundings (constants
  // included), an absolute error exp2 turns into a relative one (times ln 2, at most 1 in y after the
  // 1 + e and the rcp); exp2, the add, rcp and the multiply add a few ulps more.
  const double z = a == GemmActivation::silu ? -x / std::log(2.0)
                                             : x * (double(kGeluTanhA) + double(kGeluTanhB) * x * x);
  return kActivationLipschitz * bound + std::fabs(y) * (2 * std::fabs(z) + 8) * 0x1p-22 + 0x1p-126;
}

GemmReference gemm_reference_fp64(const GemmPlan& p, const GemmInputs& in) {
  const GemmShape& s = p.shape;
  const size_t M = size_t(s.M), N = size_t(s.N), K = size_t(s.K);
  std::vector<double> a(M * K), bt(K * N);  // bt: N x K
  for (size_t m = 0; m < M; ++m)
    for (size_t k = 0; k < K; ++k) a[m * K + k] = gemm_input_value(p, in.a, gemm_a_k_rows(s.layout) ? k * M + m : m * K + k);
  for (size_t k = 0; k < K; ++k)
    for (size_t n = 0; n < N; ++n)
      bt[n * K + k] = gemm_input_value(p, in.b, gemm_b_k_rows(s.layout) ? k * N + n : n * K + k);
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
      const double cin = s.beta != 0.0f ? output_element(in.c, m * N + n, s.output) : 0.0;
      const double bias = s.bias == GemmBias::col ? gemm_bias_value(in, n) : 0.0;
      const double x = alpha * sum + beta * cin + bias;
      double bound = double(K) * 0x1p-23 * std::fabs(alpha) * mag +
                     0x1p-23 * (std::fabs(alpha * sum) + std::fabs(beta * cin));
      if (s.bias != GemmBias::none)  // the bias add's rounding
        bound += 0x1p-24 * (std::fabs(alpha * sum) + std::fabs(beta * cin) + std::fabs(bias) + bound);
      const double v = activation_fp64(s.act, x);
      bound = activation_bound(s.act, x, v, bound);
      if (s.output == GemmOutput::bf16) bound += (std::fabs(v) + bound) * 0x1p-8 + 0x1p-133;  // half an ulp of the fp32 result
      if (s.output == GemmOutput::f16) bound += (std::fabs(v) + bound) * 0x1p-11 + 0x1p-25;  // half an f16 ulp (normal or subnormal)
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

GemmBoundCheck check_output_bound(std::span<const uint8_t> c, bool f32, std::span<const double> value,
                                  std::span<const double> bound) {
  return check_output_bound(c, f32 ? GemmOutput::f32 : GemmOutput::bf16, value, bound);
}

GemmBoundCheck check_output_bound(std::span<const uint8_t> c, GemmOutput out, std::span<const double> value,
                                  std::span<const double> bound) {
  GemmBoundCheck chk;
  chk.elements = value.size();
  for (size_t e = 0; e < chk.elements; ++e) {
    const double err = std::fabs(output_element(c, e, out) - value[e]);
    const double ratio = bound[e] > 0 ? err / bound[e] : (err == 0 ? 0 : INFINITY);
    if (!(err <= bound[e]) && chk.violations++ == 0) chk.first = e;  // NaN counts as a violation
    if (ratio > chk.worst_ratio || std::isnan(ratio)) chk.worst_ratio = std::isnan(ratio) ? INFINITY : ratio;
  }
  return chk;
}

GemmBoundCheck gemm_check_bound(const GemmPlan& p, std::span<const uint8_t> c, const GemmReference& ref) {
  if (c.size() != size_t(p.c_bytes()))
    throw Error(fmt::format("gemm: output has {} bytes, the shape {} needs {}", c.size(), p.shape.str(), p.c_bytes()));
  return check_output_bound(c, p.shape.output, ref.value, ref.bound);
}

namespace {

// Launches `kernel` of `m` on (A, B, C[, bias]) with C poisoned (0xff bytes: NaN) or holding the input C.
// Split-K: `kernel` on (A, B, workspace), the workspace poisoned too (every slice element must be
// written), then `reduce` (its grid and threads) on (workspace, C[, bias]); stream-K: `kernel` on
// (A, B, C, workspace[, bias]), then `reduce`; host_ms and stats cover both.
void add_stats(sim::Stats& to, const sim::Stats& s) {
  for (size_t u = 0; u < std::size(to.by_unit); ++u) to.by_unit[u] += s.by_unit[u];
  to.wave_instructions += s.wave_instructions;
  to.lane_ops += s.lane_ops;
  to.waves += s.waves;
  to.workgroups += s.workgroups;
  to.seconds += s.seconds;
}
struct Reduce {
  const Module* module = nullptr;
  std::string kernel;
  Dim3 grid;
  uint32_t threads = 0;
};
GemmRunResult run(Device& dev, const GemmPlan& p, const Module& m, const std::string& kernel, const GemmInputs& in,
                  Dim3 grid, const Reduce& reduce = {}) {
  Buffer a = dev.upload(in.a, "a");
  Buffer b = dev.upload(in.b, "b");
  std::vector<uint8_t> c0 = p.shape.beta != 0.0f ? in.c : std::vector<uint8_t>(size_t(p.c_bytes()), 0xff);
  Buffer c = dev.upload(c0, "c");
  const bool second = p.split() || p.stream();
  Buffer ws;
  if (second)
    ws = dev.upload(std::vector<uint8_t>(size_t(p.split() ? p.workspace_bytes() : p.sk_workspace_bytes()), 0xff),
                    "workspace");
  GemmRunResult r;
  auto t0 = std::chrono::steady_clock::now();
  KernelArgs args = KernelArgs().ptr(a).ptr(b).ptr(p.split() ? ws : c);
  if (p.stream()) args.ptr(ws);
  // the bias: the last argument of the GEMM kernel (but a split-K one's) and of the second kernel
  std::optional<Buffer> bias;
  if (p.shape.bias != GemmBias::none) bias = dev.upload(in.bias, "bias");
  if (bias && !p.split()) args.ptr(*bias);
  LaunchResult lr = dev.launch(m.kernel(kernel), grid, {uint32_t(p.threads)}, 0, args);
  r.stats = lr.sim_stats;
  if (second) {
    if (!reduce.module) throw Error("gemm: a split-K or stream-K plan needs its reduction / fix-up kernel");
    KernelArgs args2 = KernelArgs().ptr(ws).ptr(c);
    if (bias) args2.ptr(*bias);
    LaunchResult lr2 = dev.launch(reduce.module->kernel(reduce.kernel), reduce.grid, {reduce.threads}, 0, args2);
    if (r.stats && lr2.sim_stats) add_stats(*r.stats, *lr2.sim_stats);
  }
  r.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.c = dev.download<uint8_t>(c);
  for (const Buffer& x : {a, b, c}) dev.free(x);
  if (bias) dev.free(*bias);
  if (second) dev.free(ws);
  return r;
}

}  // namespace

GemmRunResult run_gemm_jit(Device& dev, const GemmPlan& p, const BuildResult& k, const GemmInputs& in) {
  Module m = dev.load(k.code_object);
  if (!p.split() && !p.stream()) return run(dev, p, m, k.name, in, {p.grid[0], p.grid[1], p.grid[2]});
  const BuildResult rk = p.split() ? build_gemm_split_k_reduce(p) : build_gemm_stream_k_fixup(p);
  Module rm = dev.load(rk.code_object);
  return run(dev, p, m, k.name, in, {p.grid[0], p.grid[1], p.grid[2]},
             {&rm, rk.name, {p.split() ? gemm_reduce_grid(p) : gemm_fixup_grid(p)}, uint32_t(kGemmReduceThreads)});
}

GemmRunResult run_gemm_hip(Device& dev, const GemmPlan& p, std::span<const uint8_t> code_object, const GemmInputs& in) {
  Module m = dev.load(code_object);
  // The reference's grid: workgroup (x, y, z) computes tile (x, y) of K slice z, whatever the JIT
  // kernel's order; its reduction runs one element per thread.
  const uint32_t elems = uint32_t(int64_t(p.shape.M) * p.shape.N);
  if (p.stream())  // the same persistent grid, then one fix-up workgroup per tile
    return run(dev, p, m, "gemm_ref_sk", in, {p.grid[0], 1, 1}, {&m, "gemm_ref_sk_fixup", {gemm_fixup_grid(p)}, 256});
  return run(dev, p, m, "gemm_ref", in, {uint32_t(p.tiles_m), uint32_t(p.tiles_n), uint32_t(p.cfg.split_k)},
             {&m, "gemm_ref_reduce", {(elems + 255) / 256}, 256});
}

}  // namespace cdnajit::codegen
