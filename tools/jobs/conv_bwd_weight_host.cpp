// Host side of the conv backward-weight kernels: inputs, the CPU fp64 reference,
// running a code object.
#include "tools/jobs/conv_bwd_weight_host.hpp"

#include <cstring>
#include <random>

#include "codegen/bf16.hpp"
#include "runtime/sim/fp.hpp"

namespace cdnajit::codegen {

namespace {

double to_double(uint16_t bits, BwdWeightDType t) {
  return t == BwdWeightDType::f16 ? double(sim::f16_to_f32(bits)) : double(bf16_to_f32(bits));
}

}  // namespace

BwdWeightInputs bwd_weight_random_inputs(const BwdWeightShape& s, BwdWeightDType dtype, uint64_t seed) {
  s.validate();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  BwdWeightInputs in;
  in.dtype = dtype;
  auto draw = [&] {
    float f = u(rng);
    return dtype == BwdWeightDType::f16 ? sim::f32_to_f16(sim::bits_of(f)) : f32_to_bf16_rne(f);
  };
  in.x.resize(size_t(s.x_elems()));
  in.dy.resize(size_t(s.dy_elems()));
  for (auto& v : in.x) v = draw();
  for (auto& v : in.dy) v = draw();
  return in;
}

std::vector<double> bwd_weight_values(std::span<const uint8_t> dw, int out_bytes, BwdWeightDType dtype) {
  std::vector<double> v(dw.size() / size_t(out_bytes));
  for (size_t i = 0; i < v.size(); ++i) {
    if (out_bytes == 4) {
      uint32_t u;
      std::memcpy(&u, dw.data() + 4 * i, 4);
      v[i] = double(sim::f32_of(u));
    } else {
      uint16_t h;
      std::memcpy(&h, dw.data() + 2 * i, 2);
      v[i] = to_double(h, dtype);
    }
  }
  return v;
}

std::vector<double> bwd_weight_reference_fp64(const BwdWeightShape& s, const BwdWeightInputs& in) {
  const int Do = s.Do(), Ho = s.Ho(), Wo = s.Wo();
  std::vector<double> dw(size_t(s.dw_elems()), 0.0);
  size_t out = 0;  // dw is [G][K][Z][Y][X][C]: visited in that order
  for (int g = 0; g < s.G; ++g)
    for (int k = 0; k < s.K; ++k)
      for (int z = 0; z < s.Z; ++z)
        for (int y = 0; y < s.Y; ++y)
          for (int x = 0; x < s.X; ++x)
            for (int c = 0; c < s.C; ++c, ++out) {
              double sum = 0;
              for (int n = 0; n < s.N; ++n)
                for (int od = 0; od < Do; ++od) {
                  int di = od * s.stride_d - s.pad_d + z * s.dil_d;
                  if (di < 0 || di >= s.Di) continue;
                  for (int ho = 0; ho < Ho; ++ho) {
                    int hi = ho * s.stride[0] - s.pad[0] + y * s.dil[0];
                    if (hi < 0 || hi >= s.Hi) continue;
                    for (int wo = 0; wo < Wo; ++wo) {
                      int wi = wo * s.stride[1] - s.pad[1] + x * s.dil[1];
                      if (wi < 0 || wi >= s.Wi) continue;
                      size_t opix = ((size_t(n) * Do + od) * Ho + ho) * Wo + wo;
                      size_t ipix = ((size_t(n) * s.Di + di) * s.Hi + hi) * s.Wi + wi;
                      double d = to_double(in.dy[opix * s.G * s.K + size_t(g) * s.K + k], in.dtype);
                      double v = to_double(in.x[ipix * s.G * s.C + size_t(g) * s.C + c], in.dtype);
                      sum += d * v;
                    }
                  }
                }
              dw[out] = sum;
            }
  return dw;
}

std::vector<uint8_t> run_bwd_weight(Device& dev, std::span<const uint8_t> code_object, const char* kernel_name,
                                    Dim3 grid, Dim3 block, const BwdWeightShape& s, const BwdWeightInputs& in,
                                    int out_bytes, bool zero_dw) {
  Module m = dev.load(code_object);
  Buffer x = dev.upload(in.x, "x"), dy = dev.upload(in.dy, "dy");
  // Filled with 0xff bytes (a NaN in fp32, bf16 and f16) so an element the kernel never writes cannot pass as a result.
  std::vector<uint8_t> poison(size_t(s.dw_elems()) * size_t(out_bytes), zero_dw ? 0 : 0xff);
  Buffer dw = dev.upload(poison, "dw");
  KernelArgs args;
  args.ptr(x).ptr(dy).ptr(dw);
  dev.launch(m.kernel(kernel_name), grid, block, 0, args);
  return dev.download<uint8_t>(dw);
}

}  // namespace cdnajit::codegen
