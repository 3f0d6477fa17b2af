// Split-K and stream-K of the MFMA GEMM (codegen/gemm_split_k.hpp) on the simulator, gfx942 and gfx950:
//  - stream-K (persistent workgroups walking MAC iterations across tiles) plus its fix-up kernel
//    (split tiles summed in K order) equal the HIP reference doing the same (GM_SKG);
//  - the GEMM kernel into the fp32 workspace plus the reduction kernel (slices summed in order
//    0..S-1, then alpha / beta / rounding) equal, bit for bit, the HIP reference doing the same
//    (codegen/hip/gemm_mfma.hip, GM_SPLIT), with the workspace and C poisoned with NaN first;
//  - every element within the fp64 reference's bound (a slice read twice or skipped fails it);
//  - split-K and stream-K in the layouts TN / TT (A stored K x M) and with f16 inputs;
//  - the bias, the activations and f16 output, applied by the reduction / fix-up kernels after the sum;
//  - invalid split-K plans are errors naming the limit;
//  - the model times both launches, and splitting K speeds up a small M x N shape.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <iostream>
#include <map>

#include "codegen/gemm.hpp"
#include "tests/codegen/gemm_check.hpp"
#include "codegen/gemm_split_k.hpp"
#include "tools/jobs/gemm_host.hpp"
#include "tools/jobs/gemm_model.hpp"
#include "jit/isa/error.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"
#include "runtime/model/hardware.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {

using test::sim_device;

GemmShape shape(int m, int n, int k, GemmLayout l, GemmOutput o = GemmOutput::bf16) {
  GemmShape s;
  s.M = m; s.N = n; s.K = k; s.layout = l; s.output = o;
  return s;
}

GemmConfig config(int tm, int tn, int tk, int wm, int wn, int stages, int split_k) {
  GemmConfig c;
  c.tile_m = tm; c.tile_n = tn; c.tile_k = tk; c.waves_m = wm; c.waves_n = wn; c.stages = stages;
  c.split_k = split_k;
  return c;
}

void check_case(Arch arch, const GemmShape& s, const GemmConfig& cfg, const char* what) {
  const GemmPlan p = make_gemm_plan(s, arch, cfg);
  INFO(fmt::format("{} {} [{}]: {}", arch_name(arch), s.str(), p.cfg.str(), what));
  REQUIRE((p.split() || p.stream()));
  const test::GemmCheck r = test::check_gemm_against_references(arch, p, 11);
  const size_t diff = r.diff;
  const GemmBoundCheck& b = r.bound;
  std::cout << fmt::format("  {:<6} {:<44} {:<34} {}; fp64: {}\n", arch_name(arch), s.str(), p.cfg.str(),
                           diff == 0 ? "bit-exact vs HIP" : "MISMATCH", b.describe());
}

void check_arch(Arch arch) {
  // partial tiles in M and N, 2 slices of 2 K tiles each
  check_case(arch, shape(80, 72, 256, GemmLayout::NT), config(64, 64, 64, 2, 2, 2, 2), "split 2, partial tiles");
  // NN (B's slice is a block of K rows), fp32 out, alpha and beta applied once, after the sum
  GemmShape ab = shape(64, 128, 256, GemmLayout::NN, GemmOutput::f32);
  ab.alpha = 0.5f;
  ab.beta = -1.25f;
  check_case(arch, ab, config(64, 64, 32, 2, 2, 2, 4), "split 4, NN, alpha/beta, fp32 C");
  ab.output = GemmOutput::bf16;
  ab.layout = GemmLayout::NT;
  check_case(arch, ab, config(64, 64, 32, 2, 2, 1, 8), "split 8 (one K tile per slice), alpha/beta, bf16 C");
  // a small-M tile (16 rows, one wave along M) and the grouped order with split slices in grid z
  GemmConfig sm = config(16, 64, 64, 1, 2, 2, 4);
  sm.group_m = 2;
  check_case(arch, shape(16, 256, 512, GemmLayout::NT), sm, "split 4, 16-row tile, grouped order");
  GemmShape f8 = shape(48, 64, 512, GemmLayout::NT);
  f8.dtype = GemmDType::e4m3;
  check_case(arch, f8, config(64, 64, 0, 2, 2, 2, 2), "split 2, fp8 in");
  // A stored K x M (TN, TT): A's slice is a block of K rows too; f16 inputs
  GemmShape tn = shape(80, 72, 256, GemmLayout::TN);
  tn.dtype = GemmDType::f16;
  check_case(arch, tn, config(64, 64, 64, 2, 2, 2, 2), "split 2, TN, f16 in, partial tiles");
  check_case(arch, shape(64, 128, 256, GemmLayout::TT, GemmOutput::f32), config(64, 64, 32, 2, 2, 1, 4),
             "split 4, TT, fp32 C");
  // the rest of the epilogue after the slice sum: bias, activation, f16 output with an f16 C for beta
  GemmShape epi = shape(80, 72, 256, GemmLayout::NT, GemmOutput::f16);
  epi.alpha = 0.7f;
  epi.beta = -1.25f;
  epi.bias = GemmBias::col;
  epi.act = GemmActivation::gelu_tanh;
  check_case(arch, epi, config(64, 64, 64, 2, 2, 2, 2), "split 2, bias, gelu_tanh, f16 C, alpha/beta");
  GemmShape relu = shape(64, 128, 256, GemmLayout::NN);
  relu.beta = 0.5f;
  relu.bias = GemmBias::col;
  relu.act = GemmActivation::relu;
  check_case(arch, relu, config(64, 64, 32, 2, 2, 2, 4), "split 4, NN, bias, relu, bf16 C");
  GemmShape silu = shape(64, 64, 256, GemmLayout::TT, GemmOutput::f32);
  silu.act = GemmActivation::silu;
  check_case(arch, silu, config(64, 64, 64, 2, 2, 1, 4), "split 4, TT, silu, fp32 C");
  if (arch != Arch::gfx950) return;
  GemmConfig d = config(128, 128, 64, 2, 2, 2, 2);
  d.lds_dma = true;
  d.read_ahead = true;
  check_case(arch, shape(200, 136, 512, GemmLayout::NT), d, "split 2, LDS DMA, read-ahead");
}

GemmConfig stream(int tm, int tn, int tk, int groups) {
  GemmConfig c = config(tm, tn, tk, 2, 2, 2, 1);
  c.stream_k = groups;
  return c;
}

// 200 x 136 in 64 x 64 tiles: 4 x 3 = 12 tiles (partial in M and N) of 8 K tiles (K 512, tile_k 64),
// 96 MAC iterations.
void check_stream_k(Arch arch) {
  GemmShape ab = shape(200, 136, 512, GemmLayout::NT);
  ab.alpha = 0.5f;
  ab.beta = -1.25f;
  check_case(arch, ab, stream(64, 64, 64, 7), "stream-K, 7 x 14 iterations: tiles split between 2 workgroups");
  check_case(arch, shape(200, 136, 512, GemmLayout::NN, GemmOutput::f32), stream(64, 64, 64, 40),
             "stream-K, 3 iterations per workgroup: tiles split over 3-4 workgroups, NN, fp32 C");
  check_case(arch, shape(200, 136, 512, GemmLayout::NT), stream(64, 64, 64, 12),
             "stream-K, 12 x 8 iterations: every tile whole (no fix-up work)");
  check_case(arch, shape(200, 136, 512, GemmLayout::NT), stream(64, 64, 64, 500),
             "stream-K, more workgroups asked than iterations: 96 of one iteration each");
  GemmConfig one = stream(64, 64, 64, 7);
  one.stages = 1;
  check_case(arch, ab, one, "stream-K on the one-stage pipeline");
  GemmShape tn = shape(200, 136, 512, GemmLayout::TN);
  tn.dtype = GemmDType::f16;
  check_case(arch, tn, stream(64, 64, 64, 7), "stream-K, TN (both operands K rows), f16 in");
  // whole tiles through the GEMM kernel's epilogue, split ones through the fix-up's: the same result
  GemmShape epi = shape(200, 136, 512, GemmLayout::NT, GemmOutput::f16);
  epi.alpha = 0.7f;
  epi.beta = -1.25f;
  epi.bias = GemmBias::col;
  epi.act = GemmActivation::silu;
  check_case(arch, epi, stream(64, 64, 64, 7), "stream-K, bias, silu, f16 C, alpha/beta");
  GemmShape gelu = shape(200, 136, 512, GemmLayout::NN);
  gelu.bias = GemmBias::col;
  gelu.act = GemmActivation::gelu_tanh;
  check_case(arch, gelu, stream(64, 64, 64, 40), "stream-K over 3-4 workgroups, NN, bias, gelu_tanh, bf16 C");
}

}  // namespace

TEST_CASE("gemm stream-K: JIT + fix-up equal the HIP reference bit for bit and meet the fp64 bound",
          "[gemm][stream_k]") {
  check_stream_k(Arch::gfx942);
  check_stream_k(Arch::gfx950);
}

TEST_CASE("gemm split-K gfx942: JIT + reduction equal the HIP reference bit for bit and meet the fp64 bound",
          "[gemm][split_k]") {
  check_arch(Arch::gfx942);
}

TEST_CASE("gemm split-K gfx950: JIT + reduction equal the HIP reference bit for bit and meet the fp64 bound",
          "[gemm][split_k]") {
  check_arch(Arch::gfx950);
}

TEST_CASE("gemm split-K, stream-K: invalid plans name the limit", "[gemm][split_k]") {
  auto msg = [](const GemmShape& s, const GemmConfig& c) -> std::string {
    try {
      make_gemm_plan(s, Arch::gfx950, c);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  // 192 = 3 K tiles of 64: not 2 slices of whole tiles
  CHECK_THAT(msg(shape(64, 64, 192, GemmLayout::NT), config(64, 64, 64, 2, 2, 2, 2)),
             Catch::Contains("multiple of split_k x tile_k = 2 x 64 = 128"));
  CHECK_THAT(msg(shape(64, 64, 256, GemmLayout::NT), config(64, 64, 64, 2, 2, 2, 0)), Catch::Contains("split_k = 0"));
  CHECK_THAT(msg(shape(64, 64, 4096, GemmLayout::NT), config(64, 64, 64, 2, 2, 2, kMaxSplitK + 1)),
             Catch::Contains("valid: 1 (no split) .. 16"));
  CHECK_THAT(msg(shape(64, 66, 256, GemmLayout::NT), config(64, 64, 64, 2, 2, 2, 2)),
             Catch::Contains("multiple of 4"));
  const GemmPlan p = make_gemm_plan(shape(64, 64, 256, GemmLayout::NT), Arch::gfx950, config(64, 64, 64, 2, 2, 2, 1));
  CHECK_THROWS_AS(build_gemm_split_k_reduce(p), Error);
  CHECK_THROWS_AS(build_gemm_stream_k_fixup(p), Error);
  GemmConfig sk = config(64, 64, 64, 2, 2, 2, 1);
  sk.stream_k = 8;
  sk.lds_dma = true;
  CHECK_THAT(msg(shape(64, 64, 256, GemmLayout::NT), sk), Catch::Contains("register-staged path"));
  sk.lds_dma = false;
  sk.split_k = 2;
  CHECK_THAT(msg(shape(64, 64, 256, GemmLayout::NT), sk), Catch::Contains("without split_k"));
  sk.split_k = 1;
  GemmConfig small = config(16, 32, 64, 1, 2, 2, 1);
  small.stream_k = 8;
  CHECK_THAT(msg(shape(64, 64, 256, GemmLayout::NT), small), Catch::Contains("multiple of 1024"));
}

// M = 64, N = 1024, K = 8192 on mi300x: 16 output tiles of 64 x 64 leave most of the 304 CUs idle;
// 8 slices give 128 workgroups, each reading an eighth of K. The split is faster in the model even
// with the reduction's second launch (both kernel times summed).
TEST_CASE("gemm split-K: the model times both launches, and the split speeds up a small M x N", "[gemm][split_k]") {
  const model::Hardware& hw = model::product("mi300x");
  const GemmShape s = shape(64, 1024, 8192, GemmLayout::NT);
  const GemmModelled one = model_gemm(hw, s, config(64, 64, 64, 2, 2, 1, 1));
  const GemmModelled eight = model_gemm(hw, s, config(64, 64, 64, 2, 2, 1, 8));
  std::cout << fmt::format("  modelled (model mi300x): {} [{}]: {:.4f} ms; [{}]: {:.4f} ms = GEMM {:.4f} + reduction {:.4f}\n",
                           s.str(), one.config, one.ms(), eight.config, eight.ms(), eight.report.ms,
                           eight.reduce ? eight.reduce->ms : 0.0);
  CHECK(!one.reduce);
  REQUIRE(eight.reduce);
  CHECK(eight.reduce->ms > 0);
  CHECK(eight.ms() == eight.report.ms + eight.reduce->ms);
  CHECK(eight.ms() < 0.7 * one.ms());
}
