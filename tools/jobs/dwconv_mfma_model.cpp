// Host model of the banded-MFMA depthwise conv3d (codegen/dwconv_mfma.hpp): the kernel's A and B
// operands element for element, accumulated by the simulator's MFMA rule.
#include <vector>

#include "codegen/bf16.hpp"
#include "codegen/dwconv_mfma.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "runtime/sim/mfma_numerics.hpp"

namespace cdnajit::codegen {

std::vector<uint16_t> dwconv_mfma_model(const DwConvShape& s, Arch a, std::span<const uint16_t> input,
                                        std::span<const uint16_t> weight) {
  const DwMfmaPlan p = plan_dwconv_mfma(s, a);
  const int G = p.G, K = 4 * G, taps = s.taps();
  // bf16 MFMA inputs: 8-product fused groups, smallest normal exponent -126 (runtime/sim/mfma_operands.hpp).
  const sim::MfmaFormat fmt{sim::MfmaKind::Fused, -126, -126};
  std::vector<uint16_t> out(size_t(s.output_elems()));
  std::vector<double> tile(p.tile_bytes / 2 + p.slack_bytes / 2);
  std::vector<double> av(static_cast<size_t>(K)), bv(static_cast<size_t>(K));
  const int Ho = s.H_out(), Wo = s.W_out(), Do = s.D_out();
  for (int n = 0; n < s.N; ++n)
    for (int c = 0; c < s.C; ++c)
      for (int d = 0; d < Do; ++d) {
        // The LDS tile as the kernel fills it: zeros, then the input rows at (hi + padH, wi + padW).
        std::fill(tile.begin(), tile.end(), 0.0);
        for (int kd = 0; kd < s.KD; ++kd) {
          const int di = d - s.padD + kd;
          if (di < 0 || di >= s.D) continue;
          for (int hi = 0; hi < s.H; ++hi)
            for (int wi = 0; wi < s.W; ++wi)
              tile[size_t((kd * p.tile_h + hi + s.padH) * p.tile_w + wi + s.padW)] =
                  bf16_to_f32(input[size_t((((int64_t(n) * s.C + c) * s.D + di) * s.H + hi) * s.W + wi)]);
        }
        const uint16_t* wc = weight.data() + size_t(c) * taps;
        for (int hb = 0; hb < p.hblocks; ++hb)
          for (int st = 0; st < p.strips; ++st)
            for (int m = 0; m < 16; ++m)      // output column w0 + m
              for (int nn = 0; nn < 16; ++nn) {  // output row h0 + nn
                const int h = hb * 16 + nn, w = st * 16 + m;
                if (h >= Ho || w >= Wo) continue;
                float acc = 0.0f;
                for (const DwMfmaStep& step : p.steps) {
                  for (int g = 0; g < 4; ++g) {
                    const int row = step.row_of(g), cg = step.group_of(g);
                    for (int e = 0; e < G; ++e) {
                      const int tap = G * cg + e - m;
                      av[size_t(G * g + e)] =
                          tap >= 0 && tap < s.KW ? bf16_to_f32(wc[(step.kd * s.KH + row) * s.KW + tap]) : 0.0;
                      bv[size_t(G * g + e)] =
                          tile[size_t((step.kd * p.tile_h + h + row) * p.tile_w + st * 16 + G * cg + e)];
                    }
                  }
                  acc = sim::mfma_dot_cdna3(av.data(), bv.data(), K, acc, fmt);
                }
                out[size_t(((int64_t(n) * s.C + c) * Do + d) * Ho * Wo + int64_t(h) * Wo + w)] = f32_to_bf16_rne(acc);
              }
      }
  return out;
}

}  // namespace cdnajit::codegen
