#include "tools/jobs/conv3d_igemm_host.hpp"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>

#include "codegen/bf16.hpp"
#include "codegen/conv3d_igemm.hpp"
#include "codegen/hip_sources.hpp"
#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

namespace {
uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
double uniform01(uint64_t& s) { return (double(splitmix(s) >> 11) + 0.5) * 0x1p-53; }
std::vector<uint16_t> normal_bf16(size_t n, uint64_t seed) {
  std::vector<uint16_t> v(n);
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    double g = std::sqrt(-2.0 * std::log(uniform01(s))) * std::cos(2.0 * M_PI * uniform01(s));
    v[i] = f32_to_bf16_rne(float(g));
  }
  return v;
}
bool fnuz_of(const Conv3dPlan& p) { return p.arch == Arch::gfx942; }
}  // namespace

Conv3dInputs conv3d_random_inputs(const Conv3dShape& s, uint64_t seed) {
  Conv3dInputs in;
  in.x = normal_bf16(size_t(s.input_elems()), seed);
  in.w = normal_bf16(size_t(s.weight_elems()), seed + 1000);
  if (s.bias) {
    auto b = normal_bf16(size_t(s.K), seed + 2000);
    for (uint16_t v : b) in.bias.push_back(bf16_to_f32(v));
  }
  return in;
}

// Independent host encoder (also the packing step): round the magnitude to the E4M3
// grid of its binade (or the subnormal grid), nearest even, saturate to the largest finite.
uint8_t fp8_e4m3_encode(float v, bool fnuz) {
  const int bias = fnuz ? 8 : 7;
  const double maxv = fnuz ? 240.0 : 448.0;
  if (std::isnan(v)) return fnuz ? 0x80 : 0x7f;
  uint8_t sign = std::signbit(v) ? 0x80 : 0;
  double a = std::fabs(double(v));
  const int emin = 1 - bias;
  int e = a >= std::ldexp(1.0, emin) ? std::ilogb(a) : emin;
  double quantum = std::ldexp(1.0, e - 3);
  double q = std::nearbyint(a / quantum) * quantum;  // default rounding: nearest even
  if (q > maxv) q = maxv;
  if (q == 0) return fnuz ? 0 : sign;  // FNUZ has no -0 (0x80 is NaN)
  uint8_t code;
  if (q < std::ldexp(1.0, emin)) {
    code = uint8_t(q / std::ldexp(1.0, emin - 3));
  } else {
    int qe = std::ilogb(q);
    int m = int(q / std::ldexp(1.0, qe - 3)) - 8;
    code = uint8_t(((qe + bias) << 3) | m);
  }
  return uint8_t(sign | code);
}

double fp8_e4m3_decode(uint8_t b, bool fnuz) {
  const int bias = fnuz ? 8 : 7;
  if (fnuz && b == 0x80) return std::nan("");
  if (!fnuz && (b & 0x7f) == 0x7f) return std::nan("");
  int e = (b >> 3) & 15, m = b & 7;
  double v = e == 0 ? std::ldexp(double(m), -bias - 2) : std::ldexp(double(8 + m), e - bias - 3);
  return (b & 0x80) ? -v : v;
}

namespace {
void put_elem(const Conv3dPlan& p, uint8_t* dst, uint16_t bf16) {
  if (p.esize == 2) std::memcpy(dst, &bf16, 2);
  else *dst = fp8_e4m3_encode(bf16_to_f32(bf16), fnuz_of(p));
}
}  // namespace

std::vector<uint8_t> conv3d_pack_input(const Conv3dPlan& p, std::span<const uint16_t> x) {
  if (int64_t(x.size()) != p.shape.input_elems())
    throw Error(fmt::format("conv3d: input has {} elements, the shape {} needs {}", x.size(), p.shape.str(),
                            p.shape.input_elems()));
  std::vector<uint8_t> out(x.size() * size_t(p.esize));
  for (size_t i = 0; i < x.size(); ++i) put_elem(p, &out[i * size_t(p.esize)], x[i]);
  return out;
}

std::vector<uint8_t> conv3d_pack_weights(const Conv3dPlan& p, std::span<const uint16_t> w) {
  const Conv3dShape& s = p.shape;
  if (int64_t(w.size()) != s.weight_elems())
    throw Error(fmt::format("conv3d: weight has {} elements, the shape {} needs {}", w.size(), s.str(),
                            s.weight_elems()));
  std::vector<uint8_t> out(size_t(p.wt_bytes()), 0);
  for (int k = 0; k < s.K; ++k)
    for (int c = 0; c < s.C; ++c)
      for (int t = 0; t < s.T; ++t)
        for (int r = 0; r < s.R; ++r)
          for (int q = 0; q < s.S; ++q) {
            size_t src = (((size_t(k) * s.C + c) * s.T + t) * s.R + r) * s.S + q;
            size_t dst = size_t(k) * size_t(p.kdim_padded) + ((size_t(t) * s.R + r) * s.S + q) * size_t(p.Cp) + c;
            put_elem(p, &out[dst * size_t(p.esize)], w[src]);
          }
  return out;
}

std::vector<uint8_t> conv3d_transpose_host(const Conv3dPlan& p, std::span<const uint8_t> packed_x) {
  const Conv3dShape& s = p.shape;
  const size_t es = size_t(p.esize), dhw = size_t(s.D) * s.H * s.W;
  std::vector<uint8_t> out(size_t(p.xt_bytes()), 0);
  for (int n = 0; n < s.N; ++n)
    for (int c = 0; c < s.C; ++c)
      for (size_t sp = 0; sp < dhw; ++sp)
        std::memcpy(&out[((size_t(n) * dhw + sp) * size_t(p.Cp) + c) * es],
                    &packed_x[((size_t(n) * s.C + c) * dhw + sp) * es], es);
  return out;
}

std::vector<double> conv3d_reference_fp64(const Conv3dShape& s, const Conv3dInputs& in) {
  const int Do = s.Do(), Ho = s.Ho(), Wo = s.Wo();
  std::vector<double> y(size_t(s.output_elems()));
  std::vector<double> xv(in.x.size()), wv(in.w.size());
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = bf16_to_f32(in.x[i]);
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = bf16_to_f32(in.w[i]);
  size_t e = 0;
  for (int n = 0; n < s.N; ++n)
    for (int k = 0; k < s.K; ++k)
      for (int od = 0; od < Do; ++od)
        for (int oh = 0; oh < Ho; ++oh)
          for (int ow = 0; ow < Wo; ++ow, ++e) {
            double acc = s.bias ? double(in.bias[size_t(k)]) : 0.0;
            for (int c = 0; c < s.C; ++c)
              for (int t = 0; t < s.T; ++t) {
                int di = od * s.stride[0] - s.pad[0] + t * s.dil[0];
                if (di < 0 || di >= s.D) continue;
                for (int r = 0; r < s.R; ++r) {
                  int hi = oh * s.stride[1] - s.pad[1] + r * s.dil[1];
                  if (hi < 0 || hi >= s.H) continue;
                  const double* xr = &xv[(((size_t(n) * s.C + c) * s.D + di) * s.H + hi) * s.W];
                  const double* wr = &wv[(((size_t(k) * s.C + c) * s.T + t) * s.R + r) * s.S];
                  for (int q = 0; q < s.S; ++q) {
                    int wi = ow * s.stride[2] - s.pad[2] + q * s.dil[2];
                    if (wi < 0 || wi >= s.W) continue;
                    acc += xr[wi] * wr[q];
                  }
                }
              }
            y[e] = acc;
          }
  return y;
}

std::vector<double> conv3d_output_values(Conv3dOutput t, std::span<const uint8_t> y) {
  std::vector<double> v;
  if (t == Conv3dOutput::f32) {
    v.resize(y.size() / 4);
    for (size_t i = 0; i < v.size(); ++i) {
      float f;
      std::memcpy(&f, &y[4 * i], 4);
      v[i] = f;
    }
  } else {
    v.resize(y.size() / 2);
    for (size_t i = 0; i < v.size(); ++i) {
      uint16_t b;
      std::memcpy(&b, &y[2 * i], 2);
      v[i] = bf16_to_f32(b);
    }
  }
  return v;
}

Conv3dAccuracy conv3d_accuracy(std::span<const double> got, std::span<const double> ref) {
  if (got.size() != ref.size())
    throw Error(fmt::format("conv3d accuracy: {} values against {} reference values", got.size(), ref.size()));
  double sgr = 0, sgg = 0, srr = 0, see = 0, mx = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double g = got[i], r = ref[i], d = g - r;
    sgr += g * r;
    sgg += g * g;
    srr += r * r;
    see += d * d;
    mx = std::max(mx, std::fabs(d));
  }
  Conv3dAccuracy a;
  a.rel_err = srr > 0 ? std::sqrt(see / srr) : std::sqrt(see);
  a.cosine = (sgg > 0 && srr > 0) ? sgr / std::sqrt(sgg * srr) : (sgg == srr ? 1.0 : 0.0);
  a.snr_db = see > 0 ? 10.0 * std::log10(srr / see) : INFINITY;
  a.max_abs = mx;
  return a;
}

std::string Conv3dBitCompare::describe() const {
  if (equal()) return fmt::format("bit-exact ({} elements)", elements);
  return fmt::format("{} of {} elements differ; first at [{}]", mismatches, elements, first);
}

Conv3dBitCompare conv3d_compare_bytes(std::span<const uint8_t> got, std::span<const uint8_t> want, int elem_bytes) {
  if (got.size() != want.size())
    throw Error(fmt::format("conv3d compare: {} bytes against {} bytes", got.size(), want.size()));
  Conv3dBitCompare c;
  c.elements = got.size() / size_t(elem_bytes);
  for (size_t i = 0; i < c.elements; ++i)
    if (std::memcmp(&got[i * size_t(elem_bytes)], &want[i * size_t(elem_bytes)], size_t(elem_bytes)) != 0) {
      if (c.mismatches++ == 0) c.first = i;
    }
  return c;
}

namespace {
using Clock = std::chrono::steady_clock;

// A zero-filled device buffer (workspaces must start at +0).
Buffer zeroed(Device& dev, size_t bytes, const char* name) {
  Buffer b = dev.alloc(bytes, name);
  std::vector<uint8_t> z(bytes, 0);
  dev.copy_to_device(b, z.data(), bytes);
  return b;
}

// Output poisoned with 0xff bytes (NaN in bf16 and fp32), so unwritten elements show up.
Buffer poisoned(Device& dev, size_t bytes, const char* name) {
  Buffer b = dev.alloc(bytes, name);
  std::vector<uint8_t> z(bytes, 0xff);
  dev.copy_to_device(b, z.data(), bytes);
  return b;
}

Buffer bias_buffer(Device& dev, const Conv3dPlan& p, std::span<const float> bias) {
  if (p.shape.bias && int(bias.size()) != p.shape.K)
    throw Error(fmt::format("conv3d: bias has {} values, K is {}", bias.size(), p.shape.K));
  std::vector<float> b(size_t(p.shape.K), 0.0f);
  if (p.shape.bias) b.assign(bias.begin(), bias.end());
  return dev.upload(b, "bias");
}

// igemm (+ finalize) from an xt buffer; shared by the JIT and HIP paths.
template <class LaunchGemm, class LaunchFinalize>
Conv3dRunResult run_gemm(Device& dev, const Conv3dPlan& p, std::span<const uint8_t> packed_w, Buffer xt,
                         Buffer bias, LaunchGemm gemm, LaunchFinalize fin) {
  Conv3dRunResult res;
  const size_t out_bytes = size_t(p.shape.output_elems()) * size_t(p.out_esize());
  // 16 zero bytes after the weights: the DMA path's out-of-range chunks read them.
  std::vector<uint8_t> wbytes(packed_w.begin(), packed_w.end());
  wbytes.resize(wbytes.size() + Conv3dPlan::kZeroTailBytes, 0);
  Buffer wt = dev.upload(wbytes, "wt");
  Buffer y = poisoned(dev, out_bytes, "y");
  Buffer ws{};
  if (p.uses_workspace()) ws = zeroed(dev, size_t(p.shape.output_elems()) * 4, "workspace");
  auto t0 = Clock::now();
  LaunchResult lr = gemm(xt, wt, bias, p.uses_workspace() ? ws : y);
  res.gemm_host_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  res.gemm_stats = lr.sim_stats;
  if (p.uses_workspace()) fin(ws, bias, y);
  res.y = dev.download<uint8_t>(y);
  res.xt = dev.download<uint8_t>(xt);
  res.xt.resize(size_t(p.xt_bytes()));  // without the zero tail
  for (const Buffer& b : {wt, y}) dev.free(b);
  if (p.uses_workspace()) dev.free(ws);
  return res;
}
}  // namespace

Conv3dRunResult run_conv3d_jit(Device& dev, const Conv3dPlan& p, const Conv3dKernels& k,
                               std::span<const uint8_t> packed_x, std::span<const uint8_t> packed_w,
                               std::span<const float> bias) {
  Buffer x = dev.upload(std::vector<uint8_t>(packed_x.begin(), packed_x.end()), "x");
  Buffer xt = zeroed(dev, size_t(p.xt_bytes()) + Conv3dPlan::kZeroTailBytes, "xt");  // zero tail for DMA
  Buffer b = bias_buffer(dev, p, bias);
  Module mt = dev.load(k.transpose.code_object);
  const Conv3dTransposeLaunch tl = conv3d_transpose_launch(p);
  dev.launch(mt.kernel(k.transpose.name), {tl.grid[0], tl.grid[1], tl.grid[2]}, {tl.threads}, 0,
             KernelArgs().ptr(x).ptr(xt));
  Module mg = dev.load(k.igemm.code_object);
  std::optional<Module> mf;
  if (k.finalize) mf = dev.load(k.finalize->code_object);
  Conv3dRunResult r = run_gemm(
      dev, p, packed_w, xt, b,
      [&](Buffer xt_, Buffer wt, Buffer bias_, Buffer out) {
        return dev.launch(mg.kernel(k.igemm.name), {p.grid[0], p.grid[1], p.grid[2]}, {uint32_t(p.threads)}, 0,
                          KernelArgs().ptr(xt_).ptr(wt).ptr(bias_).ptr(out));
      },
      [&](Buffer ws, Buffer bias_, Buffer y) {
        dev.launch(mf->kernel(k.finalize->name), {conv3d_finalize_grid(p)}, {kConv3dAuxThreads}, 0,
                   KernelArgs().ptr(ws).ptr(bias_).ptr(y));
      });
  for (const Buffer& bb : {x, xt, b}) dev.free(bb);
  return r;
}

Conv3dRunResult run_conv3d_hip_mfma(Device& dev, const Conv3dPlan& p, std::span<const uint8_t> co,
                                    std::span<const uint8_t> xt_host, std::span<const uint8_t> packed_w,
                                    std::span<const float> bias) {
  Buffer xt = dev.upload(std::vector<uint8_t>(xt_host.begin(), xt_host.end()), "xt");
  Buffer b = bias_buffer(dev, p, bias);
  Module m = dev.load(co);
  Conv3dRunResult r = run_gemm(
      dev, p, packed_w, xt, b,
      [&](Buffer xt_, Buffer wt, Buffer bias_, Buffer out) {
        return dev.launch(m.kernel("conv3d_igemm_ref"), {p.grid[0], p.grid[1], p.grid[2]}, {uint32_t(p.threads)}, 0,
                          KernelArgs().ptr(xt_).ptr(wt).ptr(bias_).ptr(out));
      },
      [&](Buffer ws, Buffer bias_, Buffer y) {
        dev.launch(m.kernel("conv3d_finalize_ref"), {conv3d_finalize_grid(p)}, {256}, 0,
                   KernelArgs().ptr(ws).ptr(bias_).ptr(y));
      });
  dev.free(xt);
  dev.free(b);
  return r;
}

std::vector<uint8_t> run_conv3d_direct(Device& dev, const Conv3dPlan& p, std::span<const uint8_t> co,
                                       const Conv3dInputs& in) {
  Buffer x = dev.upload(in.x, "x");
  Buffer w = dev.upload(in.w, "w");
  Buffer b = bias_buffer(dev, p, in.bias);
  Buffer y = poisoned(dev, size_t(p.shape.output_elems()) * size_t(p.out_esize()), "y");
  Module m = dev.load(co);
  dev.launch(m.kernel("conv3d_direct"), {conv3d_finalize_grid(p)}, {256}, 0,
             KernelArgs().ptr(x).ptr(w).ptr(b).ptr(y));
  auto out = dev.download<uint8_t>(y);
  for (const Buffer& bb : {x, w, b, y}) dev.free(bb);
  return out;
}

}  // namespace cdnajit::codegen
