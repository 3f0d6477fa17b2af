// MFMA GEMM kernels (codegen/gemm.cpp) on the simulator, gfx942 and gfx950:
//  - JIT output bit-for-bit equal to the clang-compiled HIP reference (codegen/hip/gemm_mfma.hip:
//    same MFMA builtins, same accumulation order) for layouts NN, NT, TN and TT, bf16, f16 and fp8
//    inputs, bf16, f16 and fp32 output,
//    16x16 and 32x32 MFMA blocks, 1 and 2 LDS stages, partial tiles in M and N, alpha/beta;
//  - every element within the fp64 reference's stated bound (tools/jobs/gemm_host.hpp);
//  - invalid plans are errors naming the limit;
//  - the modelled time is produced for a size the simulator would not run whole in a test.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cstring>
#include <iostream>
#include <map>

#include "codegen/bf16.hpp"
#include "codegen/gemm.hpp"
#include "tests/codegen/gemm_check.hpp"
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

struct Case {
  GemmShape s;
  GemmConfig cfg;
  const char* what;
};

void check_case(Arch arch, const Case& c) {
  const GemmPlan p = make_gemm_plan(c.s, arch, c.cfg);
  INFO(fmt::format("{} {} [{}]: {}", arch_name(arch), c.s.str(), p.cfg.str(), c.what));
  const test::GemmCheck r = test::check_gemm_against_references(arch, p, 7);
  const size_t diff = r.diff;
  const GemmBoundCheck& b = r.bound;
  std::cout << fmt::format("  {:<6} {:<40} {:<28} {}; fp64: {}\n", arch_name(arch), c.s.str(), p.cfg.str(),
                           diff == 0 ? "bit-exact vs HIP" : "MISMATCH", b.describe());
}

GemmShape shape(int m, int n, int k, GemmLayout l, GemmOutput o = GemmOutput::bf16) {
  GemmShape s;
  s.M = m; s.N = n; s.K = k; s.layout = l; s.output = o;
  return s;
}

GemmConfig config(int tm, int tn, int tk, int wm, int wn, int stages, int mb) {
  GemmConfig c;
  c.tile_m = tm; c.tile_n = tn; c.tile_k = tk; c.waves_m = wm; c.waves_n = wn; c.stages = stages; c.mfma_m = mb;
  return c;
}

}  // namespace

namespace {

// fp8 inputs (the arch's E4M3 / E5M2: FNUZ on gfx942, OCP on gfx950), tile_k = the default (0).
void check_fp8(Arch arch) {
  for (GemmDType t : {GemmDType::e4m3, GemmDType::e5m2}) {
    GemmShape f = shape(80, 72, 256, GemmLayout::NT);
    f.dtype = t;
    check_case(arch, {f, config(64, 64, 0, 2, 2, 2, 16), "fp8 in, partial tiles"});
    f = shape(64, 128, 256, GemmLayout::NT, GemmOutput::f32);
    f.dtype = t;
    check_case(arch, {f, config(64, 128, 0, 2, 2, 1, 32), "fp8 in, 32x32 MFMA, fp32 out"});
    GemmConfig r = config(128, 128, 0, 2, 2, 1, 16);
    r.read_ahead = true;
    check_case(arch, {f, r, "fp8 in, read-ahead, one stage"});
    if (arch == Arch::gfx942) {  // 128-byte rows of fp8 with XOR-swizzled 8-byte units
      r.lds_xor = true;
      r.tile_k = 128;
      r.ra_split = 2;
      check_case(arch, {f, r, "fp8 in, XOR rows, read-ahead in 2 K sub-tiles"});
    }
    if (arch != Arch::gfx950) continue;
    GemmConfig d = config(128, 64, 0, 2, 2, 2, 16);
    d.lds_dma = true;
    f = shape(200, 136, 384, GemmLayout::NT);
    f.dtype = t;
    check_case(arch, {f, d, "fp8 in, LDS DMA"});
    d = config(128, 128, 0, 2, 2, 2, 16);
    d.lds_dma = true;
    d.read_ahead = true;
    check_case(arch, {f, d, "fp8 in, LDS DMA, read-ahead"});
    d = config(128, 128, 0, 2, 4, 2, 16);
    d.lds_dma = true;
    d.pingpong = true;
    f.K = 768;  // 6 K tiles: the loop of tile pairs once
    check_case(arch, {f, d, "fp8 in, LDS DMA, ping-pong"});
  }
}

// A stored K x M (layouts TN, TT): its K rows are transposed into the A rows of LDS as NN's B is.
void check_a_transposed(Arch arch, GemmLayout l) {
  check_case(arch, {shape(128, 128, 256, l), config(64, 64, 64, 2, 2, 2, 16), "A K x M, two stages, 4 waves"});
  check_case(arch, {shape(80, 72, 128, l, GemmOutput::f32), config(64, 64, 32, 2, 2, 1, 16),
                    "A K x M, one stage, partial tiles in M and N, fp32 out"});
  check_case(arch, {shape(64, 128, 128, l), config(64, 128, 64, 2, 2, 2, 32), "A K x M, 32x32 MFMA"});
  // 4 chunks of A per thread: 4 K rows packed per column (ds_write_b64); 2 above (ds_write_b32)
  check_case(arch, {shape(256, 128, 128, l), config(128, 128, 64, 2, 2, 1, 16), "A K x M, 4 K rows per LDS write"});
  GemmConfig r = config(128, 128, 32, 2, 2, 1, 16);
  r.read_ahead = true;
  check_case(arch, {shape(200, 136, 128, l), r, "A K x M, read-ahead, one stage, partial tiles"});
  GemmConfig g = config(64, 64, 64, 2, 2, 2, 16);
  g.group_m = 3;
  GemmShape ab = shape(256, 256, 64, l);
  ab.alpha = 0.5f;
  ab.beta = -1.25f;
  check_case(arch, {ab, g, "A K x M, grouped order with the XCD remap, alpha, beta"});
}

// f16 inputs (v_mfma_f32_*_f16, the bf16 MFMAs' shapes) and f16 output (v_cvt_f16_f32, RNE).
void check_f16(Arch arch) {
  auto f16 = [](GemmShape s, GemmDType in = GemmDType::f16) {
    s.dtype = in;
    return s;
  };
  check_case(arch, {f16(shape(128, 128, 256, GemmLayout::NT)), config(64, 64, 64, 2, 2, 2, 16), "f16 in, bf16 out"});
  check_case(arch, {f16(shape(80, 72, 128, GemmLayout::NN, GemmOutput::f16)), config(64, 64, 32, 2, 2, 1, 16),
                    "f16 in and out, one stage, partial tiles"});
  check_case(arch, {f16(shape(64, 128, 128, GemmLayout::TN, GemmOutput::f32)), config(64, 128, 64, 2, 2, 2, 32),
                    "f16 in, fp32 out, 32x32 MFMA, A K x M"});
  GemmShape ab = f16(shape(64, 64, 64, GemmLayout::TT, GemmOutput::f16));
  ab.alpha = 0.5f;
  ab.beta = -1.25f;
  check_case(arch, {ab, config(64, 64, 64, 2, 2, 2, 16), "f16 in and out, alpha, beta with f16 C"});
  ab.alpha = 0.7f;  // inexact multiply last: rounded to fp32, then to f16 (no fused mixed-precision multiply)
  ab.beta = 0.0f;
  check_case(arch, {ab, config(64, 64, 64, 2, 2, 2, 16), "f16 in and out, alpha"});
  check_case(arch, {f16(shape(200, 136, 128, GemmLayout::NT, GemmOutput::f16), GemmDType::bf16),
                    config(64, 64, 64, 2, 2, 2, 16), "bf16 in, f16 out"});
  GemmConfig r = config(128, 128, 32, 2, 2, 1, 16);
  r.read_ahead = true;
  check_case(arch, {f16(shape(200, 136, 128, GemmLayout::NT)), r, "f16 in, read-ahead, one stage"});
  if (arch != Arch::gfx950) return;
  GemmConfig d = config(128, 64, 64, 2, 2, 2, 16);
  d.lds_dma = true;
  check_case(arch, {f16(shape(200, 136, 192, GemmLayout::NT, GemmOutput::f16)), d, "f16 in and out, LDS DMA"});
}

// Epilogue: bias per output column (fp32) and the activations, in fp32 before the output rounding.
void check_epilogue(Arch arch) {
  auto with = [](GemmShape s, GemmBias b, GemmActivation a) {
    s.bias = b;
    s.act = a;
    return s;
  };
  const GemmConfig c = config(64, 64, 64, 2, 2, 2, 16);
  const GemmBias col = GemmBias::col, none = GemmBias::none;
  // partial N tile: the bias of columns past N is never read into a stored value
  check_case(arch, {with(shape(80, 72, 128, GemmLayout::NT), col, GemmActivation::none), c, "bias, bf16 out"});
  check_case(arch, {with(shape(80, 72, 128, GemmLayout::NN, GemmOutput::f32), none, GemmActivation::relu), c,
                    "relu, fp32 out"});
  GemmShape ab = with(shape(128, 64, 64, GemmLayout::TN, GemmOutput::f16), col, GemmActivation::relu);
  ab.dtype = GemmDType::f16;
  ab.alpha = 0.5f;
  ab.beta = -1.25f;
  check_case(arch, {ab, c, "alpha, beta, bias, relu, f16 in and out"});
  for (GemmActivation a : {GemmActivation::silu, GemmActivation::gelu_tanh}) {
    check_case(arch, {with(shape(80, 72, 128, GemmLayout::NT, GemmOutput::f32), col, a), c, "bias, smooth activation, fp32 out"});
    check_case(arch, {with(shape(64, 64, 64, GemmLayout::TT), none, a), c, "smooth activation, bf16 out"});
  }
  GemmShape f8 = with(shape(64, 64, 256, GemmLayout::NT, GemmOutput::f16), col, GemmActivation::gelu_tanh);
  f8.dtype = GemmDType::e4m3;
  check_case(arch, {f8, config(64, 64, 0, 2, 2, 2, 32), "fp8 in, bias, gelu_tanh, f16 out, 32x32 MFMA"});
  if (arch != Arch::gfx950) return;
  GemmConfig d = config(128, 128, 64, 2, 2, 2, 16);
  d.lds_dma = true;
  d.read_ahead = true;  // the generator places every wait (verify mode): the bias loads' wait included
  check_case(arch, {with(shape(200, 136, 128, GemmLayout::NT), col, GemmActivation::silu), d,
                    "bias, silu, LDS DMA read-ahead"});
}

// fp8 with K-row operands (B K x N, A K x M; layouts NN, TN, TT): 16 one-byte LDS writes per chunk.
void check_fp8_k_rows(Arch arch) {
  for (GemmDType t : {GemmDType::e4m3, GemmDType::e5m2}) {
    for (GemmLayout l : {GemmLayout::NN, GemmLayout::TN, GemmLayout::TT}) {
      GemmShape k = shape(80, 96, 256, l);
      k.dtype = t;
      check_case(arch, {k, config(64, 64, 0, 2, 2, 2, 16), "fp8 in, K-row operands, partial tiles"});
    }
    GemmShape k = shape(64, 128, 256, GemmLayout::TN, GemmOutput::f32);
    k.dtype = t;
    GemmConfig r = config(128, 128, 0, 2, 2, 1, 16);
    r.read_ahead = true;
    check_case(arch, {k, r, "fp8 in, K-row operands, read-ahead, one stage"});
  }
}

void check_arch(Arch arch) {
  for (GemmLayout l : {GemmLayout::NT, GemmLayout::NN}) {
    check_case(arch, {shape(128, 128, 256, l), config(64, 64, 64, 2, 2, 2, 16), "two stages, 4 waves"});
    check_case(arch, {shape(80, 72, 128, l, GemmOutput::f32), config(64, 64, 32, 2, 2, 1, 16),
                      "one stage, partial tiles in M and N, fp32 out"});
    check_case(arch, {shape(64, 128, 128, l), config(64, 128, 64, 2, 2, 2, 32), "32x32 MFMA"});
  }
  // one stage with one K tile: no prefetch loop, only the last tile
  check_case(arch, {shape(64, 64, 32, GemmLayout::NT), config(64, 64, 32, 2, 2, 1, 16), "one stage, one K tile"});
  // Register-staged read-ahead (one stage): the loop (4 K tiles) and the straight tiles alone (1, 2).
  for (GemmLayout l : {GemmLayout::NT, GemmLayout::NN}) {
    GemmConfig r = config(128, 128, 32, 2, 2, 1, 16);
    r.read_ahead = true;
    check_case(arch, {shape(200, 136, 128, l), r, "read-ahead, one stage, 4 K tiles, partial tiles"});
    check_case(arch, {shape(128, 128, 32, l, GemmOutput::f32), r, "read-ahead, one stage, 1 K tile"});
    check_case(arch, {shape(128, 128, 64, l), r, "read-ahead, one stage, 2 K tiles"});
    // 96-row tile: 3 MFMA blocks per wave along M (uneven quadrants, 1 + 2 blocks) and 384 A chunks
    // on 256 threads (the second load's chunks past row 96 masked into spare LDS rows)
    r.tile_m = 96;
    check_case(arch, {shape(200, 136, 128, l), r, "read-ahead, 3 blocks per wave along M, masked chunks"});
  }
  if (arch == Arch::gfx942) {
    // Unpadded rows with XOR-swizzled 8-byte units (register-staged, 8-byte fragment reads):
    // 256x256 tiles with 128-byte K rows in the whole 64 KiB, read-ahead in two K sub-tiles: the
    // loop (4 K tiles, partial M tile) and the straight tiles alone (1, 2).
    GemmConfig x = config(256, 256, 64, 2, 4, 1, 16);
    x.lds_xor = x.read_ahead = true;
    x.ra_split = 2;
    x.group_m = 8;
    check_case(arch, {shape(264, 256, 256, GemmLayout::NT), x, "XOR rows, read-ahead in 2 K sub-tiles, 4 K tiles"});
    check_case(arch, {shape(256, 256, 64, GemmLayout::NT), x, "XOR rows, read-ahead in 2 K sub-tiles, 1 K tile"});
    check_case(arch, {shape(256, 256, 128, GemmLayout::NT, GemmOutput::f32), x,
                      "XOR rows, read-ahead in 2 K sub-tiles, 2 K tiles"});
    // 224x256 (19 x 16 = 304 tiles at 4096^2, one per CU of a 304-CU product): 7 blocks per wave
    // along M (quadrants of 3 and 4), 224 rows of 8 chunks on 512 threads (the fourth load masked
    // past row 224); 2 tiles along M, the second partial, 4 K tiles (the loop runs)
    x.tile_m = 224;
    check_case(arch, {shape(400, 256, 256, GemmLayout::NT), x, "224x256 XOR rows, read-ahead in 2 K sub-tiles"});
    x.tile_m = 256;
    // 128x112 with 4 x 1 waves (2048^2 in 16 x 19 = 304 tiles): 7 blocks per wave along N, the B
    // tile's 896 chunks on 256 threads (the fourth load masked past row 112)
    GemmConfig n7 = config(128, 112, 64, 4, 1, 1, 16);
    n7.read_ahead = true;
    check_case(arch, {shape(256, 200, 256, GemmLayout::NT), n7, "128x112, 7 blocks per wave along N, masked B chunks"});
    x = config(128, 128, 64, 2, 2, 2, 16);
    x.lds_xor = true;
    check_case(arch, {shape(200, 136, 256, GemmLayout::NT), x, "XOR rows, two stages"});
    x.stages = 1;
    check_case(arch, {shape(200, 136, 256, GemmLayout::NT), x, "XOR rows, one stage"});
    x.read_ahead = true;
    x.group_m = 8;
    check_case(arch, {shape(256, 384, 320, GemmLayout::NT), x, "XOR rows, read-ahead, 5 K tiles"});
    x = config(128, 128, 128, 2, 2, 1, 32);  // 256-byte rows, 32x32 blocks
    x.lds_xor = true;
    check_case(arch, {shape(128, 128, 256, GemmLayout::NT), x, "XOR rows, 32x32 MFMA, tile_k 128"});
    x = config(128, 128, 64, 2, 2, 1, 16);  // padded rows, read-ahead in two K sub-tiles
    x.read_ahead = true;
    x.ra_split = 2;
    check_case(arch, {shape(200, 136, 256, GemmLayout::NN), x, "read-ahead in 2 K sub-tiles, padded rows"});
  }
  GemmShape ab = shape(64, 64, 64, GemmLayout::NT);
  ab.alpha = 0.5f;
  ab.beta = -1.25f;
  check_case(arch, {ab, config(64, 64, 64, 2, 2, 2, 16), "alpha, beta with bf16 C"});
  ab.output = GemmOutput::f32;
  check_case(arch, {ab, config(64, 64, 64, 2, 2, 2, 16), "alpha, beta with fp32 C"});
  // Grouped workgroup order: C starts as NaN, so a tile no workgroup computes (or one computed
  // twice over another's) fails the comparison.
  GemmConfig g = config(64, 64, 64, 2, 2, 2, 16);
  g.group_m = 2;  // 5 x 3 tiles: last group of one row, 15 tiles (no XCD remap)
  check_case(arch, {shape(300, 192, 128, GemmLayout::NT), g, "grouped order, partial last group"});
  g.group_m = 3;  // 4 x 4 tiles: XCD remap (16 = 2 per XCD), last group of one row
  check_case(arch, {shape(256, 256, 64, GemmLayout::NN), g, "grouped order with the XCD remap"});
  if (arch != Arch::gfx950) return;
  // Global -> LDS DMA into XOR-swizzled rows (gfx950, NT): partial M and N tiles read clamped rows.
  GemmConfig d = config(128, 64, 64, 2, 2, 2, 16);
  d.lds_dma = true;
  check_case(arch, {shape(200, 136, 192, GemmLayout::NT), d, "LDS DMA, two stages, partial tiles"});
  d = config(64, 64, 32, 2, 2, 1, 16);
  d.lds_dma = true;
  d.group_m = 2;
  check_case(arch, {shape(128, 192, 128, GemmLayout::NT, GemmOutput::f32), d, "LDS DMA, one stage, K tile 32"});
  d = config(64, 64, 128, 2, 2, 2, 16);
  d.lds_dma = true;
  d.lds_swizzle = false;
  check_case(arch, {shape(64, 64, 256, GemmLayout::NT), d, "LDS DMA without the swizzle (still correct)"});
  // 3 and 4 stages: 14 K tiles = whole groups of stages in the loop plus a tail of 2 (3 stages) or 6 (4).
  d = config(128, 64, 32, 2, 2, 3, 16);
  d.lds_dma = true;
  check_case(arch, {shape(200, 136, 448, GemmLayout::NT), d, "LDS DMA, 3 stages"});
  d.stages = 4;
  check_case(arch, {shape(200, 136, 448, GemmLayout::NT), d, "LDS DMA, 4 stages"});
  d.stages = 3;  // fewer K tiles (2) than stages - 1 loads ahead would need
  check_case(arch, {shape(64, 64, 64, GemmLayout::NT), d, "LDS DMA, 3 stages, 2 K tiles"});
  // 8-wave ping-pong: the two wave groups run one barrier apart; 4 K tiles (both groups' loops run),
  // 2 (group 1's loop is empty) and 1 (neither loop runs).
  d = config(128, 128, 64, 2, 4, 2, 16);
  d.lds_dma = true;
  d.pingpong = true;
  check_case(arch, {shape(200, 136, 256, GemmLayout::NT), d, "ping-pong, 4 K tiles, partial tiles"});
  check_case(arch, {shape(128, 128, 128, GemmLayout::NT), d, "ping-pong, 2 K tiles"});
  check_case(arch, {shape(128, 128, 64, GemmLayout::NT, GemmOutput::f32), d, "ping-pong, 1 K tile"});
  // 7 K tiles: the loop of tile pairs once, then a tail of 3; 10 K tiles: the loop three times (its
  // later iterations checked to need the first one's waits). 4 x 2 waves: fewer A blocks per wave
  // than B blocks (both B halves are read in the first read phase).
  check_case(arch, {shape(200, 136, 448, GemmLayout::NT), d, "ping-pong, 7 K tiles, partial tiles"});
  d.waves_m = 4;
  d.waves_n = 2;
  check_case(arch, {shape(128, 200, 640, GemmLayout::NT), d, "ping-pong, 10 K tiles, 4 x 2 waves"});
  // Read-ahead: the loop of tile pairs and its straight tail (5 K tiles: one pair, then 3), and
  // 1, 2 and 3 K tiles (no loop; the prologue's loads and the last tiles' waits alone).
  d = config(128, 128, 64, 2, 4, 2, 16);
  d.lds_dma = true;
  d.read_ahead = true;
  check_case(arch, {shape(200, 136, 320, GemmLayout::NT), d, "read-ahead, 5 K tiles, partial tiles"});
  check_case(arch, {shape(128, 128, 64, GemmLayout::NT), d, "read-ahead, 1 K tile"});
  check_case(arch, {shape(128, 128, 128, GemmLayout::NT, GemmOutput::f32), d, "read-ahead, 2 K tiles"});
  check_case(arch, {shape(128, 128, 192, GemmLayout::NT), d, "read-ahead, 3 K tiles"});
  d = config(128, 128, 64, 2, 2, 2, 16);  // 4 waves: a wave's quadrant is 2 x 2 blocks
  d.lds_dma = true;
  d.read_ahead = true;
  check_case(arch, {shape(256, 128, 512, GemmLayout::NT), d, "read-ahead, 4 waves, 8 K tiles"});
}

}  // namespace

TEST_CASE("gemm gfx942: JIT equals the HIP MFMA reference bit for bit and meets the fp64 bound", "[gemm]") {
  check_arch(Arch::gfx942);
}

TEST_CASE("gemm gfx950: JIT equals the HIP MFMA reference bit for bit and meets the fp64 bound", "[gemm]") {
  check_arch(Arch::gfx950);
}

TEST_CASE("gemm gfx942 fp8: JIT equals the HIP MFMA reference bit for bit and meets the fp64 bound", "[gemm]") {
  check_fp8(Arch::gfx942);
}

TEST_CASE("gemm gfx950 fp8: JIT equals the HIP MFMA reference bit for bit and meets the fp64 bound", "[gemm]") {
  check_fp8(Arch::gfx950);
}

TEST_CASE("gemm gfx942 layout TN: JIT equals the HIP MFMA reference bit for bit and meets the fp64 bound", "[gemm]") {
  check_a_transposed(Arch::gfx942, GemmLayout::TN);
}

TEST_CASE("gemm gfx942 layout TT: JIT equals the HIP MFMA reference bit for bit and meets the fp64 bound", "[gemm]") {
  check_a_transposed(Arch::gfx942, GemmLayout::TT);
}

TEST_CASE("gemm gfx950 layout TN: JIT equals the HIP MFMA reference bit for bit and meets the fp64 bound", "[gemm]") {
  check_a_transposed(Arch::gfx950, GemmLayout::TN);
}

TEST_CASE("gemm gfx950 layout TT: JIT equals the HIP MFMA reference bit for bit and meets the fp64 bound", "[gemm]") {
  check_a_transposed(Arch::gfx950, GemmLayout::TT);
}

TEST_CASE("gemm gfx942 fp8 layouts NN, TN, TT: JIT equals the HIP MFMA reference bit for bit and meets the fp64 "
          "bound",
          "[gemm]") {
  check_fp8_k_rows(Arch::gfx942);
}

TEST_CASE("gemm gfx950 fp8 layouts NN, TN, TT: JIT equals the HIP MFMA reference bit for bit and meets the fp64 "
          "bound",
          "[gemm]") {
  check_fp8_k_rows(Arch::gfx950);
}

TEST_CASE("gemm gfx942 f16: JIT equals the HIP MFMA reference bit for bit and meets the fp64 bound", "[gemm]") {
  check_f16(Arch::gfx942);
}

TEST_CASE("gemm gfx950 f16: JIT equals the HIP MFMA reference bit for bit and meets the fp64 bound", "[gemm]") {
  check_f16(Arch::gfx950);
}

TEST_CASE("gemm gfx942 epilogue (bias, relu, silu, gelu_tanh): JIT equals the HIP reference bit for bit and meets "
          "the fp64 bound",
          "[gemm]") {
  check_epilogue(Arch::gfx942);
}

TEST_CASE("gemm gfx950 epilogue (bias, relu, silu, gelu_tanh): JIT equals the HIP reference bit for bit and meets "
          "the fp64 bound",
          "[gemm]") {
  check_epilogue(Arch::gfx950);
}

TEST_CASE("gemm: invalid plans name the limit", "[gemm]") {
  auto msg = [](const GemmShape& s, const GemmConfig& c) -> std::string {
    try {
      make_gemm_plan(s, Arch::gfx950, c);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(msg(shape(64, 64, 100, GemmLayout::NT), {}), Catch::Contains("multiple of tile_k"));
  CHECK_THAT(msg(shape(64, 60, 64, GemmLayout::NN), {}), Catch::Contains("multiple of 8"));
  CHECK_THAT(msg(shape(64, 64, 64, GemmLayout::NT), config(64, 64, 64, 2, 2, 3, 16)), Catch::Contains("stages"));
  CHECK_THAT(msg(shape(0, 64, 64, GemmLayout::NT), {}), Catch::Contains("M = 0"));
  CHECK(parse_gemm_layout("TN") == GemmLayout::TN);
  CHECK(parse_gemm_layout("tt") == GemmLayout::TT);
  CHECK_THROWS_AS(parse_gemm_layout("TX"), Error);
  CHECK_THAT(msg(shape(60, 64, 64, GemmLayout::TN), {}), Catch::Contains("M = 60 must be a multiple of 8"));
  GemmShape f8tn = shape(64, 64, 128, GemmLayout::TN);
  f8tn.dtype = GemmDType::e5m2;
  GemmConfig f8dma = config(64, 64, 128, 2, 2, 2, 16);
  f8dma.lds_dma = true;
  CHECK_THAT(msg(f8tn, f8dma), Catch::Contains("valid: --layout NT, or no --dma"));
  CHECK_THROWS_AS(parse_gemm_dtype("fp6"), Error);
  CHECK(parse_gemm_dtype("f16") == GemmDType::f16);
  CHECK(parse_gemm_output("fp16") == GemmOutput::f16);
  CHECK(parse_gemm_activation("gelu_tanh") == GemmActivation::gelu_tanh);
  CHECK_THROWS_WITH(parse_gemm_bias("row"), Catch::Contains("valid: none, col"));
  CHECK_THROWS_WITH(parse_gemm_activation("gelu"), Catch::Contains("valid: none, relu, silu, gelu_tanh"));
  GemmShape f8nn = shape(64, 72, 128, GemmLayout::NN);
  f8nn.dtype = GemmDType::e4m3;
  CHECK_THAT(msg(f8nn, {}), Catch::Contains("N = 72 must be a multiple of 16"));
  GemmConfig d = config(64, 64, 64, 2, 2, 2, 16);
  d.lds_dma = true;
  CHECK_THAT(msg(shape(64, 64, 64, GemmLayout::NN), d), Catch::Contains("layout NT only"));
  CHECK_THAT(msg(shape(64, 64, 64, GemmLayout::TT), d), Catch::Contains("layout NT only"));
  d.mfma_m = 32;
  CHECK_THAT(msg(shape(64, 64, 64, GemmLayout::NT), d), Catch::Contains("16x16 MFMA"));
  d.mfma_m = 16;
  d.pingpong = true;  // 4 waves: no two groups per SIMD
  CHECK_THAT(msg(shape(64, 64, 64, GemmLayout::NT), d), Catch::Contains("8 waves"));
  d.pingpong = false;
  d.read_ahead = true;  // 64x64 with 4 x 2 waves: one MFMA block per wave along M, no quadrants
  d.waves_m = 4;
  CHECK_THAT(msg(shape(64, 64, 64, GemmLayout::NT), d), Catch::Contains("even number of MFMA blocks"));
  d.waves_m = 2;
  d.read_ahead = false;
  GemmConfig x = config(128, 128, 64, 2, 2, 1, 16);
  x.lds_xor = true;
  CHECK_THAT(msg(shape(64, 64, 64, GemmLayout::NT), x), Catch::Contains("8-byte"));  // gfx950: 16-byte fragments
  auto msg942 = [](const GemmShape& s, const GemmConfig& c) -> std::string {
    try {
      make_gemm_plan(s, Arch::gfx942, c);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  CHECK(msg942(shape(64, 64, 64, GemmLayout::NT), x) == "");
  CHECK_THAT(msg942(shape(64, 64, 64, GemmLayout::NN), x), Catch::Contains("NT only"));
  x.tile_k = 32;  // 64-byte rows: 8 units, 16 rows cannot take 16 distinct ones
  CHECK_THAT(msg942(shape(64, 64, 64, GemmLayout::NT), x), Catch::Contains("multiple of 128 bytes"));
  x.tile_k = 64;
  x.ra_split = 2;  // without read_ahead
  CHECK_THAT(msg942(shape(64, 64, 64, GemmLayout::NT), x), Catch::Contains("ra_split = 2"));
  // A 96-row tile's 384 chunks do not split over 256 threads: the register-staged path masks the
  // last load, the DMA path (whole 64-lane chunk rows per instruction) and stream-K refuse it
  GemmConfig u = config(96, 128, 32, 2, 2, 2, 16);
  CHECK(msg(shape(256, 256, 64, GemmLayout::NT), u) == "");
  u.lds_dma = true;
  CHECK_THAT(msg(shape(256, 256, 64, GemmLayout::NT), u), Catch::Contains("must split evenly over 256 threads with dma"));
  u.lds_dma = false;
  u.stream_k = 8;
  CHECK_THAT(msg(shape(256, 256, 64, GemmLayout::NT), u), Catch::Contains("with stream_k"));
  try {
    make_gemm_plan(shape(64, 64, 64, GemmLayout::NT), Arch::gfx942, d);
    FAIL("gfx942 accepted lds_dma");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Catch::Contains("only on gfx950"));
  }
}

// A kernel whose workgroup cannot be resident on one CU cannot launch on the GPU: 256x256 tiles with
// 2 x 4 waves and register-staged K tiles of 64 need 146 VGPRs + 128 AGPRs per wave (280 of the 512
// registers), so a SIMD holds one wave where the workgroup needs two. The same tile with the DMA
// read-ahead schedule fits (116 + 128).
TEST_CASE("gemm: a configuration whose workgroup cannot be resident is refused at build time", "[gemm]") {
  const GemmShape s = shape(512, 512, 256, GemmLayout::NT);
  GemmConfig c = config(256, 256, 64, 2, 4, 2, 16);
  try {
    build_gemm(make_gemm_plan(s, Arch::gfx950, c));
    FAIL("a workgroup of 8 waves x 280 registers was built");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Catch::Contains("need 2 per SIMD") && Catch::Contains("read_ahead"));
  }
  c.lds_dma = true;
  c.read_ahead = true;
  const BuildResult r = build_gemm(make_gemm_plan(s, Arch::gfx950, c));
  CHECK(r.stats.occupancy.waves_per_simd_regs >= 2);
}

TEST_CASE("gemm: modelled time of a 1024^3 NT GEMM (recorded workgroups only)", "[gemm]") {
  GemmShape s = shape(1024, 1024, 1024, GemmLayout::NT);
  const GemmModelled m = model_gemm(model::product("mi355x"), s);
  std::cout << "  modelled (model mi355x): " << s.str() << " [" << m.config << "]: " << m.report.ms << " ms, "
            << m.tflops() << " TFLOP/s, limiter " << m.report.limiter << "\n";
  CHECK(m.report.ms > 0);
  CHECK(m.report.replayed_workgroups < m.report.plan.workgroups);  // the model did not simulate the whole grid
  CHECK(m.peak_share() > 0);
  CHECK(m.peak_share() < 1);  // no modelled kernel beats the MFMA peak
}

// The DMA path's LDS layout by the timing model's bank model (runtime/model/lds_banks.hpp: 64 banks
// on gfx950, 16 lanes of a ds_read_b128 per pass in the measured lane order): with the XOR swizzle
// every fragment read takes the minimum 4 passes; the same unpadded rows without the swizzle take more.
TEST_CASE("gemm: the DMA path's fragment reads are bank-conflict free by the model, and not without the swizzle",
          "[gemm]") {
  const GemmShape s = shape(256, 256, 256, GemmLayout::NT);
  for (int tk : {32, 64, 128}) {
    GemmConfig c = config(128, 128, tk, 2, 2, 2, 16);
    c.lds_dma = true;
    const GemmModelled on = model_gemm(model::product("mi355x"), s, c);
    c.lds_swizzle = false;
    const GemmModelled off = model_gemm(model::product("mi355x"), s, c);
    INFO("tile_k " << tk << ": swizzled " << on.report.cu.lds_passes << " passes / " << on.report.cu.lds_instructions
                   << " reads; unswizzled " << off.report.cu.lds_passes << " / " << off.report.cu.lds_instructions);
    std::cout << fmt::format("  tile_k {}: LDS passes per fragment read, swizzled {:.2f}, without the swizzle {:.2f}\n", tk,
                             double(on.report.cu.lds_passes) / double(on.report.cu.lds_instructions),
                             double(off.report.cu.lds_passes) / double(off.report.cu.lds_instructions));
    REQUIRE(on.report.cu.lds_instructions > 0);
    CHECK(on.report.cu.lds_passes == 4 * on.report.cu.lds_instructions);
    CHECK(off.report.cu.lds_passes > 4 * off.report.cu.lds_instructions);
  }
  // fp8: 32-byte fragments (two chunks per lane) in 128-byte rows, the pair swizzle
  GemmShape f = s;
  f.dtype = GemmDType::e4m3;
  GemmConfig c = config(128, 128, 128, 2, 2, 2, 16);
  c.lds_dma = true;
  const GemmModelled on = model_gemm(model::product("mi355x"), f, c);
  c.lds_swizzle = false;
  const GemmModelled off = model_gemm(model::product("mi355x"), f, c);
  INFO("fp8: swizzled " << on.report.cu.lds_passes << " passes / " << on.report.cu.lds_instructions
                        << " reads; unswizzled " << off.report.cu.lds_passes << " / " << off.report.cu.lds_instructions);
  REQUIRE(on.report.cu.lds_instructions > 0);
  CHECK(on.report.cu.lds_passes == 4 * on.report.cu.lds_instructions);
  CHECK(off.report.cu.lds_passes > 4 * off.report.cu.lds_instructions);
}

// The register-staged XOR layout (gfx942, 8-byte fragment reads and writes, 16 lanes per pass on 32
// banks) by the same bank model: with the swizzle every DS instruction (fragment reads and the
// staging writes) takes the minimum 4 passes; the same unpadded rows without it put a fragment
// read's 16 lanes on the same two banks.
TEST_CASE("gemm gfx942: the XOR rows' LDS accesses are bank-conflict free by the model, and not without the swizzle",
          "[gemm]") {
  const GemmShape s = shape(512, 512, 256, GemmLayout::NT);
  GemmConfig c = config(256, 256, 64, 2, 4, 1, 16);
  c.lds_xor = c.read_ahead = true;
  c.ra_split = 2;
  const GemmModelled on = model_gemm(model::product("mi325x"), s, c);
  c.lds_swizzle = false;
  const GemmModelled off = model_gemm(model::product("mi325x"), s, c);
  INFO("swizzled " << on.report.cu.lds_passes << " passes / " << on.report.cu.lds_instructions
                   << " DS instructions; unswizzled " << off.report.cu.lds_passes << " / " << off.report.cu.lds_instructions);
  std::cout << fmt::format("  256x256x64 XOR rows: LDS passes per DS instruction, swizzled {:.2f}, without the swizzle {:.2f}\n",
                           double(on.report.cu.lds_passes) / double(on.report.cu.lds_instructions),
                           double(off.report.cu.lds_passes) / double(off.report.cu.lds_instructions));
  REQUIRE(on.report.cu.lds_instructions > 0);
  CHECK(on.report.cu.lds_passes == 4 * on.report.cu.lds_instructions);
  CHECK(off.report.cu.lds_passes > 4 * off.report.cu.lds_instructions);
}

// 4096 x 4096 in 256x256 tiles is 256 workgroups for mi325x's 304 CUs (one round, 48 CUs idle);
// 224x256 tiles make 19 x 16 = 304, one per CU with 7/8 of the MFMAs, so the busiest CU finishes
// sooner. K = 256 keeps the model run short; at K = 4096 the gain is 719 -> 812 TFLOP/s
// (tools/report_gemm.md).
TEST_CASE("gemm gfx942: 224x256 tiles fill a 304-CU product where 256x256 tiles leave CUs idle (model)", "[gemm]") {
  const GemmShape s = shape(4096, 4096, 256, GemmLayout::NT);
  GemmConfig c = config(256, 256, 64, 2, 4, 1, 16);
  c.lds_xor = c.read_ahead = true;
  c.ra_split = 2;
  c.group_m = 8;
  const GemmModelled square = model_gemm(model::product("mi325x"), s, c);
  c.tile_m = 224;
  const GemmModelled filled = model_gemm(model::product("mi325x"), s, c);
  std::cout << fmt::format("  4096x4096x256 on mi325x: 256x256 {:.4f} ms ({} workgroups), 224x256 {:.4f} ms ({})\n",
                           square.ms(), square.report.plan.workgroups, filled.ms(), filled.report.plan.workgroups);
  CHECK(square.report.plan.workgroups == 256);
  CHECK(filled.report.plan.workgroups == 304);
  CHECK(filled.ms() < 0.97 * square.ms());
}

// The register-staged read-ahead places its own waits (read_ahead_schedule.hpp): with the wait-count
// pass in verify mode it finds nothing to add, for the XOR rows in two K sub-tiles (4 K tiles: the
// loop runs), for 224x256 tiles (7 blocks per wave along M: quadrants of 3 and 4) and for padded rows.
TEST_CASE("gemm gfx942: the register-staged read-ahead's waits pass the wait-count pass in verify mode", "[gemm]") {
  BuildOptions o;
  o.waitcnt = PassMode::Verify;
  GemmConfig x = config(256, 256, 64, 2, 4, 1, 16);
  x.lds_xor = x.read_ahead = true;
  x.ra_split = 2;
  GemmConfig p = config(128, 128, 64, 2, 2, 1, 16);
  p.read_ahead = true;
  GemmConfig u = x;  // 7 blocks per wave along M: uneven quadrants
  u.tile_m = 224;
  for (const GemmConfig& c : {x, p, u}) {
    const BuildResult r = build_gemm(make_gemm_plan(shape(512, 512, 256, GemmLayout::NT), Arch::gfx942, c), o);
    INFO(c.str() << ": " << r.stats.pass_findings.size() << " findings"
                 << (r.stats.pass_findings.empty() ? "" : ", first: " + r.stats.pass_findings.front()));
    CHECK(r.stats.pass_findings.empty());
  }
}

// The read-ahead schedule against the schedule it replaces, by the timing model, on a full grid
// (2048^3, 256 workgroups of 128x128: every CU busy, so the replayed CU gets its share of the memory
// bandwidth). DMA path: the loads of the next halves are issued before the current ones are waited
// for and the LDS reads overlap the MFMAs, so "wait vmcnt" must shrink and the kernel get faster;
// register-staged path: the reads overlap the MFMAs.
TEST_CASE("gemm: the read-ahead schedule is faster than the lock-step one in the model", "[gemm]") {
  const GemmShape s = shape(2048, 2048, 2048, GemmLayout::NT);
  auto stall = [](const GemmModelled& m, const std::string& why) {
    for (const auto& [n, v] : m.report.stalls)
      if (n == why) return v;
    return 0.0;
  };
  struct Case {
    const char* product;
    GemmConfig c;
  };
  GemmConfig dma = config(128, 128, 64, 2, 2, 2, 16);
  dma.lds_dma = true;
  dma.group_m = 8;
  for (const Case& k : {Case{"mi355x", dma}, Case{"mi325x", config(128, 128, 64, 2, 2, 1, 16)}}) {
    GemmConfig c = k.c;
    const GemmModelled before = model_gemm(model::product(k.product), s, c);
    c.read_ahead = true;
    const GemmModelled after = model_gemm(model::product(k.product), s, c);
    std::cout << fmt::format("  modelled (model {}): [{}] {:.1f} TFLOP/s, wait vmcnt {:.0f}%; [{}] {:.1f} TFLOP/s, wait "
                             "vmcnt {:.0f}%\n",
                             k.product, before.config, before.tflops(), 100 * stall(before, "wait vmcnt (global memory)"),
                             after.config, after.tflops(), 100 * stall(after, "wait vmcnt (global memory)"));
    CHECK(after.report.ms < 0.95 * before.report.ms);
    if (c.lds_dma)
      CHECK(stall(after, "wait vmcnt (global memory)") < stall(before, "wait vmcnt (global memory)"));
  }
}

TEST_CASE("gemm: the fp64 bound rejects a wrong element", "[gemm]") {
  for (GemmOutput o : {GemmOutput::bf16, GemmOutput::f16}) {
    GemmShape s = shape(64, 64, 64, GemmLayout::NT, o);
    s.dtype = o == GemmOutput::f16 ? GemmDType::f16 : GemmDType::bf16;
    const GemmPlan p = make_gemm_plan(s, Arch::gfx950, config(64, 64, 64, 2, 2, 2, 16));
    const GemmInputs in = gemm_random_inputs(p, 3);
    const GemmReference ref = gemm_reference_fp64(p, in);
    auto round = [&](double v) { return o == GemmOutput::f16 ? f32_to_f16_rne(float(v)) : f32_to_bf16_rne(float(v)); };
    std::vector<uint8_t> c(size_t(p.c_bytes()));
    for (size_t e = 0; e < ref.value.size(); ++e) {
      const uint16_t b = round(ref.value[e]);
      std::memcpy(&c[2 * e], &b, 2);
    }
    INFO(gemm_output_name(o));
    CHECK(gemm_check_bound(p, c, ref).ok());  // the correctly rounded result is inside
    const uint16_t off = round(ref.value[100] * 1.05 + 0.5);
    std::memcpy(&c[200], &off, 2);
    const GemmBoundCheck b = gemm_check_bound(p, c, ref);
    CHECK(b.violations == 1);
    CHECK(b.first == 100);
  }
}
