// MX-scaled GEMM kernels (codegen/gemm_mx.cpp) on the gfx950 simulator:
//  - JIT output bit-for-bit equal to the clang-compiled HIP reference (codegen/hip/gemm_mx.hip:
//    the same scaled MFMA builtin, same order) for MXFP8 (E4M3, E5M2), MXFP6 (E2M3, E3M2) and MXFP4, 16x16x128 and 32x32x64
//    blocks, fp32 and bf16 output, partial tiles in M and N, odd and even k-step counts;
//  - every element within the fp64 reference's stated bound (tools/jobs/gemm_mx_host.hpp), and the
//    bound rejects a perturbed element;
//  - the host decoder agrees with the OCP formats on hand-picked codes;
//  - the LDS read-ahead pipeline (gemm_mx_lds.cpp) bit for bit the same, MXFP8 (E4M3, E5M2) and
//    MXFP4, both scale layouts (mk, km), one and two k-steps per K tile, the grouped order, partial
//    tiles, 4 and 8 waves, the K loop with its loads spread between the MFMAs, transposed
//    accumulators stored during the last K tile and the per-element stores when N % 4 != 0; by the
//    timing model's bank model its fragment reads are conflict free and not without the chunk
//    swizzle; its instruction stream has no long non-MFMA runs or s_nop in the K loop;
//  - persistent workgroups (several output tiles per workgroup, one K pipeline) bit for bit the same,
//    MXFP4 and MXFP8, with and without the loop of K-tile pairs, uneven tile counts per workgroup; and
//    modelled from sampled workgroups;
//  - invalid plans (gfx942, K, tiles, read-ahead limits, persistent limits, registers) are errors naming the limit;
//  - the modelled time is produced from recorded workgroups only.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "codegen/gemm_mx.hpp"
#include "tools/jobs/gemm_mx_host.hpp"
#include "jit/isa/error.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"
#include "runtime/model/hardware.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {

Device& sim950() {
  static std::unique_ptr<Device> d = open_sim_device(Arch::gfx950);
  return *d;
}

GemmMxShape shape(int m, int n, int k, MxFormat f, GemmMxOutput o = GemmMxOutput::f32,
                  GemmMxScaleLayout sc = GemmMxScaleLayout::mk) {
  GemmMxShape s;
  s.M = m; s.N = n; s.K = k; s.format = f; s.output = o; s.scales = sc;
  return s;
}

GemmMxConfig config(int tm, int tn, int wm, int wn, int mb) {
  GemmMxConfig c;
  c.tile_m = tm; c.tile_n = tn; c.waves_m = wm; c.waves_n = wn; c.mfma_m = mb;
  return c;
}

// The LDS read-ahead pipeline (mfma 16).
GemmMxConfig lds_config(int tm, int tn, int wm, int wn, int tile_k = 0, int group_m = 0) {
  GemmMxConfig c = config(tm, tn, wm, wn, 16);
  c.tile_k = tile_k;
  c.group_m = group_m;
  c.read_ahead = true;
  return c;
}

void check_case(const GemmMxShape& s, const GemmMxConfig& cfg, const char* what) {
  const GemmMxPlan p = make_gemm_mx_plan(s, Arch::gfx950, cfg);
  INFO(fmt::format("{} [{}]: {}", s.str(), p.cfg.str(), what));
  const GemmMxInputs in = gemm_mx_random_inputs(p, 11);
  const GemmMxRunResult jit = run_gemm_mx_jit(sim950(), p, build_gemm_mx(p), in);
  const auto co = compile_hip(gemm_mx_hip_source(), Arch::gfx950, gemm_mx_hip_flags(p));
  const GemmMxRunResult hip = run_gemm_mx_hip(sim950(), p, co, in);
  REQUIRE(jit.c.size() == hip.c.size());
  size_t diff = 0;
  for (size_t i = 0; i < jit.c.size(); ++i) diff += jit.c[i] != hip.c[i];
  INFO(diff << " bytes differ from the HIP reference");
  CHECK(diff == 0);
  const GemmMxBoundCheck b = gemm_mx_check_bound(p, jit.c, gemm_mx_reference_fp64(p, in));
  INFO("JIT vs fp64: " << b.describe());
  CHECK(b.ok());
  std::cout << fmt::format("  {:<28} {:<20} {}; fp64: {}\n", s.str(), p.cfg.str(),
                           diff == 0 ? "bit-exact vs HIP" : "MISMATCH", b.describe());
}

}  // namespace

TEST_CASE("gemm-mx MXFP8: JIT equals the HIP scaled-MFMA reference bit for bit and meets the fp64 bound",
          "[gemm_mx]") {
  check_case(shape(64, 64, 256, MxFormat::fp8), config(64, 64, 2, 2, 16), "two k-steps, 4 waves");
  check_case(shape(80, 72, 384, MxFormat::fp8, GemmMxOutput::bf16), config(64, 64, 2, 2, 16),
             "three k-steps (loop + tail), partial tiles, bf16 out");
  check_case(shape(64, 96, 320, MxFormat::fp8), config(64, 64, 1, 1, 32), "32x32x64, five k-steps");
  check_case(shape(64, 64, 256, MxFormat::bf8), config(64, 64, 2, 2, 16), "E5M2");
}

TEST_CASE("gemm-mx MXFP4: JIT equals the HIP scaled-MFMA reference bit for bit and meets the fp64 bound",
          "[gemm_mx]") {
  check_case(shape(64, 64, 512, MxFormat::fp4), config(64, 64, 2, 2, 16), "four k-steps");
  check_case(shape(40, 64, 192, MxFormat::fp4, GemmMxOutput::bf16), config(64, 64, 1, 1, 32),
             "32x32x64, partial tile, bf16 out");
}

TEST_CASE("gemm-mx MXFP6: JIT equals the HIP scaled-MFMA reference bit for bit and meets the fp64 bound",
          "[gemm_mx]") {
  check_case(shape(64, 64, 256, MxFormat::fp6), config(64, 64, 2, 2, 16), "E2M3, 24-byte fragments");
  check_case(shape(48, 64, 192, MxFormat::bf6, GemmMxOutput::bf16), config(64, 64, 1, 1, 32),
             "E3M2, 32x32x64, partial tile, bf16 out");
}

TEST_CASE("gemm-mx LDS read-ahead: JIT equals the HIP reference bit for bit and meets the fp64 bound",
          "[gemm_mx]") {
  const GemmMxScaleLayout km = GemmMxScaleLayout::km;
  check_case(shape(200, 136, 512, MxFormat::fp4, GemmMxOutput::f32, km), lds_config(128, 128, 2, 2),
             "MXFP4 km scales, 4 K tiles, partial tiles");
  check_case(shape(128, 128, 768, MxFormat::fp4), lds_config(128, 128, 2, 2, 256, 1),
             "MXFP4 mk scales, two k-steps per K tile, 3 K tiles, grouped order");
  check_case(shape(160, 128, 384, MxFormat::fp8, GemmMxOutput::bf16), lds_config(128, 128, 2, 2),
             "MXFP8 mk scales, 3 K tiles, partial tile, bf16 out");
  check_case(shape(128, 256, 256, MxFormat::bf8, GemmMxOutput::f32, km), lds_config(128, 128, 2, 2),
             "MXFP8 E5M2 km scales, 2 K tiles");
}

TEST_CASE("gemm-mx LDS read-ahead: the main loop and the overlapped epilogue, bit for bit", "[gemm_mx]") {
  // 10 and 5 K tiles: the loop of tile pairs runs, its K-tile loads spread between the MFMAs
  check_case(shape(136, 132, 1280, MxFormat::fp4, GemmMxOutput::bf16, GemmMxScaleLayout::km), lds_config(128, 128, 2, 2),
             "MXFP4 km, 10 K tiles, transposed accumulators stored during the last K tile");
  check_case(shape(72, 130, 640, MxFormat::fp8), lds_config(128, 128, 2, 2),
             "MXFP8 mk, 5 K tiles, N % 4 != 0: per-element stores after the loop");
}

// The kernel's instruction stream (the wait-count and hazard passes have run): in the K loop no
// more than a few instructions lie between two MFMAs (a K tile's loads are spread between them,
// not issued in one block after the barrier, where the wave's single MFMA pipe would idle), no
// s_nop, and most output stores issue before the last MFMA (the last K tile stores each quadrant's
// finished accumulators while the next quadrant's MFMAs run).
TEST_CASE("gemm-mx LDS read-ahead: loads and stores are spread between the MFMAs", "[gemm_mx]") {
  const GemmMxShape s = shape(512, 512, 2048, MxFormat::fp4, GemmMxOutput::bf16, GemmMxScaleLayout::km);
  const GemmMxPlan p = make_gemm_mx_plan(s, Arch::gfx950, lds_config(256, 256, 2, 2, 256, 8));
  const std::string a = build_gemm_mx(p).assembly;
  REQUIRE(!a.empty());
  std::vector<std::string> ops;  // mnemonics, in order
  size_t loop_begin = 0, loop_end = 0;
  for (size_t at = 0; at < a.size();) {
    size_t nl = a.find('\n', at);
    if (nl == std::string::npos) nl = a.size();
    std::string line = a.substr(at, nl - at);
    at = nl + 1;
    line = line.substr(0, line.find(';'));
    const size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    line = line.substr(b);
    if (line.rfind(".Lloop", 0) == 0 && line.back() == ':') loop_begin = ops.size();
    if (line.rfind("s_cbranch", 0) == 0 && line.find(".Lloop") != std::string::npos) loop_end = ops.size();
    if (line[0] == '.' || line.back() == ':') continue;
    ops.push_back(line.substr(0, line.find(' ')));
  }
  REQUIRE(loop_end > loop_begin);
  int run = 0, longest = 0, nops = 0;
  for (size_t i = loop_begin; i < loop_end; ++i) {
    const bool mfma = ops[i].rfind("v_mfma", 0) == 0;
    run = mfma ? 0 : run + 1;
    longest = std::max(longest, run);
    nops += ops[i] == "s_nop";
  }
  size_t last_mfma = 0, stores = 0, stores_after = 0;
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].rfind("v_mfma", 0) == 0) last_mfma = i;
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].rfind("buffer_store", 0) == 0) {
      ++stores;
      stores_after += i > last_mfma;
    }
  INFO("longest run of non-MFMA instructions in the K loop " << longest << ", s_nop " << nops << "; stores " << stores
                                                             << ", after the last MFMA " << stores_after);
  CHECK(longest <= 8);
  CHECK(nops == 0);
  CHECK(stores == size_t(p.blocks_m * p.blocks_n));  // one 4-column store per accumulator block
  CHECK(stores_after * 3 < stores);  // about the last quadrant's quarter
}

TEST_CASE("gemm-mx LDS read-ahead: 256x256 tiles, 8 waves, bit for bit", "[gemm_mx]") {
  check_case(shape(300, 264, 384, MxFormat::fp4, GemmMxOutput::f32, GemmMxScaleLayout::km),
             lds_config(256, 256, 2, 4, 0, 8), "MXFP4 km, grouped order, partial tiles, 3 K tiles");
  check_case(shape(256, 256, 128, MxFormat::fp8), lds_config(256, 256, 2, 4), "MXFP8 mk, one K tile");
}

// Persistent workgroups (GemmMxConfig::persistent): each workgroup's output tiles are one K pipeline
// (ReadAheadSchedule::emit_dma_persistent), so the next tile's first K tiles are loaded, and this
// tile's stores issued, while MFMAs run; accumulators restart from one zeroed block.
GemmMxConfig persistent_config(int tile_k, int tiles_per_workgroup, int tile = 256) {
  GemmMxConfig c = lds_config(tile, tile, 2, 2, tile_k, 8);
  c.persistent = tiles_per_workgroup;
  return c;
}

TEST_CASE("gemm-mx persistent: a workgroup's output tiles as one K pipeline, bit for bit", "[gemm_mx]") {
  const GemmMxScaleLayout km = GemmMxScaleLayout::km;
  check_case(shape(512, 512, 1024, MxFormat::fp4, GemmMxOutput::bf16, km), persistent_config(256, 2),
             "MXFP4 km, 4 K tiles, 2 output tiles per workgroup");
  check_case(shape(256, 384, 2560, MxFormat::fp4, GemmMxOutput::bf16, km), persistent_config(256, 4, 128),
             "MXFP4 km, 10 K tiles (the loop of tile pairs inside the output tile loop), 3 output tiles per workgroup");
  check_case(shape(128, 640, 1024, MxFormat::fp8), persistent_config(128, 2, 128),
             "MXFP8 mk, f32 out, 8 K tiles, 5 output tiles on 3 workgroups (one without a second tile)");
}

// The output tile loop's body is the only copy of an output tile's code (the first tile is no
// separate copy before the loop): every MFMA of one output tile appears once in the assembly.
TEST_CASE("gemm-mx persistent: one output tile's code", "[gemm_mx]") {
  const GemmMxPlan p = make_gemm_mx_plan(shape(512, 512, 1024, MxFormat::fp4, GemmMxOutput::bf16, GemmMxScaleLayout::km),
                                         Arch::gfx950, persistent_config(256, 2));
  REQUIRE(p.k_tiles == 4);  // no loop of K tile pairs inside the output tile
  const std::string a = build_gemm_mx(p).assembly;
  int mfmas = 0;
  for (size_t at = a.find_first_not_of(" \t"); at < a.size(); at = a.find_first_not_of(" \t", a.find('\n', at) + 1)) {
    if (a.compare(at, 6, "v_mfma") == 0) ++mfmas;
    if (a.find('\n', at) == std::string::npos) break;
  }
  CHECK(mfmas == p.k_tiles * p.k_steps_per_tile * p.blocks_m * p.blocks_n);
}

// A persistent grid larger than the workgroups the sampled model runs in full: the model traces the
// first round address-only, where stores write nothing; they must still count on vmcnt, or the
// simulator reports the waits that count them as missing.
TEST_CASE("gemm-mx persistent: modelled from sampled workgroups", "[gemm_mx]") {
  const GemmMxModelled m = model_gemm_mx(model::product("mi355x"),
                                         shape(768, 768, 1024, MxFormat::fp4, GemmMxOutput::bf16, GemmMxScaleLayout::km),
                                         persistent_config(256, 2, 128));
  std::cout << "  " << m.describe() << "\n";
  CHECK(m.report.plan.workgroups == 18);
  CHECK(m.report.replayed_workgroups < m.report.plan.workgroups);
  CHECK(m.peak_share() > 0);
  CHECK(m.peak_share() < 1);
}

// The timing model's bank model (runtime/model/lds_banks.hpp) on the read-ahead kernel: each
// fragment read (ds_read_b128) takes the minimum 4 passes and each scale read (ds_read_u8, 64 lanes
// reading at most 16 distinct dwords in distinct banks) one, so the CU's LDS passes are 4 per
// fragment read plus 1 per scale read; without the chunk swizzle the fragment reads conflict.
TEST_CASE("gemm-mx LDS read-ahead: fragment and scale reads are bank-conflict free by the model", "[gemm_mx]") {
  for (MxFormat f : {MxFormat::fp4, MxFormat::fp8}) {
    GemmMxConfig c = lds_config(128, 128, 2, 2);
    const GemmMxShape s = shape(512, 512, 512, f, GemmMxOutput::f32, GemmMxScaleLayout::km);
    const GemmMxPlan p = make_gemm_mx_plan(s, Arch::gfx950, c);
    const GemmMxModelled on = model_gemm_mx(model::product("mi355x"), s, c);
    c.lds_swizzle = false;
    const GemmMxModelled off = model_gemm_mx(model::product("mi355x"), s, c);
    // per wave and K tile: (blocks_m + blocks_n) * k-steps fragments of frag_bytes / 16 reads, and as many scale reads
    const int64_t frags = int64_t(p.blocks_m + p.blocks_n) * p.k_steps_per_tile;
    const int64_t b128 = frags * (p.frag_bytes / 16), u8 = frags;
    const int64_t reads = int64_t(on.report.cu.lds_instructions), passes = int64_t(on.report.cu.lds_passes);
    INFO(mx_format_name(f) << ": " << passes << " passes for " << reads << " LDS instructions; without the swizzle "
                           << off.report.cu.lds_passes);
    std::cout << fmt::format("  {}: LDS passes {} for {} reads with the swizzle, {} without\n", mx_format_name(f), passes,
                             reads, off.report.cu.lds_passes);
    REQUIRE(reads > 0);
    REQUIRE(reads % (b128 + u8) == 0);  // whole tiles of this wave mix on the replayed CU
    CHECK(passes == reads / (b128 + u8) * (4 * b128 + u8));
    CHECK(int64_t(off.report.cu.lds_passes) > passes);
  }
}

TEST_CASE("gemm-mx: host decoding of the OCP MX formats", "[gemm_mx]") {
  CHECK(mx_element_value(MxFormat::fp8, 0x38) == 1.0);     // 0.0111.000
  CHECK(mx_element_value(MxFormat::fp8, 0x7e) == 448.0);   // largest E4M3
  CHECK(mx_element_value(MxFormat::fp8, 0x01) == 0x1p-9);  // smallest subnormal
  CHECK(mx_element_value(MxFormat::fp8, 0xc0) == -2.0);
  CHECK(std::isnan(mx_element_value(MxFormat::fp8, 0xff)));
  CHECK(mx_element_value(MxFormat::bf8, 0x3c) == 1.0);      // 0.01111.00
  CHECK(mx_element_value(MxFormat::bf8, 0x7b) == 57344.0);  // largest E5M2
  CHECK(std::isinf(mx_element_value(MxFormat::bf8, 0xfc)));
  CHECK(mx_element_value(MxFormat::fp4, 0x1) == 0.5);
  CHECK(mx_element_value(MxFormat::fp4, 0x7) == 6.0);
  CHECK(mx_element_value(MxFormat::fp4, 0xb) == -1.5);
  CHECK(mx_element_value(MxFormat::fp6, 0x1f) == 7.5);     // largest E2M3
  CHECK(mx_element_value(MxFormat::fp6, 0x21) == -0.125);  // -smallest subnormal
  CHECK(mx_element_value(MxFormat::bf6, 0x1f) == 28.0);    // largest E3M2
  CHECK(mx_element_value(MxFormat::bf6, 0x01) == 0.0625);  // smallest subnormal
  CHECK(e8m0_value(127) == 1.0);
  CHECK(e8m0_value(130) == 8.0);
  CHECK(std::isnan(e8m0_value(255)));
}

TEST_CASE("gemm-mx: the fp64 bound rejects a wrong element", "[gemm_mx]") {
  const GemmMxPlan p = make_gemm_mx_plan(shape(32, 32, 128, MxFormat::fp8), Arch::gfx950, config(32, 32, 1, 1, 16));
  const GemmMxReference ref = gemm_mx_reference_fp64(p, gemm_mx_random_inputs(p, 5));
  std::vector<uint8_t> c(size_t(p.c_bytes()));
  for (size_t e = 0; e < ref.value.size(); ++e) {
    const float f = float(ref.value[e]);
    std::memcpy(&c[4 * e], &f, 4);
  }
  CHECK(gemm_mx_check_bound(p, c, ref).ok());
  const float off = float(ref.value[100] * 1.01 + 1.0);
  std::memcpy(&c[400], &off, 4);
  const GemmMxBoundCheck b = gemm_mx_check_bound(p, c, ref);
  CHECK(b.violations == 1);
  CHECK(b.first == 100);
}

TEST_CASE("gemm-mx: invalid plans name the limit", "[gemm_mx]") {
  auto msg = [](const GemmMxShape& s, const GemmMxConfig& c, Arch a = Arch::gfx950) -> std::string {
    try {
      make_gemm_mx_plan(s, a, c);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(msg(shape(64, 64, 128, MxFormat::fp8), {}, Arch::gfx942),
             Catch::Contains("gfx942") && Catch::Contains("valid arch: gfx950"));
  CHECK_THAT(msg(shape(64, 64, 96, MxFormat::fp8), {}), Catch::Contains("multiple of 128"));
  CHECK_THAT(msg(shape(64, 64, 128, MxFormat::fp8), config(48, 64, 2, 2, 16)), Catch::Contains("tile_m = 48"));
  CHECK_THAT(msg(shape(64, 64, 128, MxFormat::fp8), config(64, 64, 2, 2, 8)), Catch::Contains("mfma_m = 8"));
  CHECK_THROWS_AS(parse_mx_format("fp5"), Error);
  CHECK_THAT(msg(shape(256, 256, 256, MxFormat::fp6), lds_config(128, 128, 2, 2)),
             Catch::Contains("fp6/bf6") && Catch::Contains("valid: the direct pipeline"));
  GemmMxConfig m32 = lds_config(128, 128, 2, 2);
  m32.mfma_m = 32;
  CHECK_THAT(msg(shape(256, 256, 256, MxFormat::fp8), m32), Catch::Contains("valid: mfma 16"));
  CHECK_THAT(msg(shape(256, 256, 256, MxFormat::fp8), lds_config(128, 128, 2, 2, 384)), Catch::Contains("tile_k = 384"));
  CHECK_THAT(msg(shape(256, 256, 256, MxFormat::fp8), lds_config(48, 64, 1, 1)), Catch::Contains("quadrants"));
  CHECK_THAT(msg(shape(250, 256, 256, MxFormat::fp4, GemmMxOutput::f32, GemmMxScaleLayout::km), lds_config(128, 128, 2, 2)),
             Catch::Contains("multiples of 4"));
  GemmMxConfig tk = config(64, 64, 2, 2, 16);
  tk.tile_k = 256;
  CHECK_THAT(msg(shape(256, 256, 256, MxFormat::fp8), tk), Catch::Contains("read-ahead pipeline only"));
  CHECK_THROWS_AS(parse_gemm_mx_scale_layout("nk"), Error);
  GemmMxConfig pd = config(64, 64, 2, 2, 16);
  pd.persistent = 2;
  CHECK_THAT(msg(shape(256, 256, 256, MxFormat::fp8), pd), Catch::Contains("persistent = 2") && Catch::Contains("read-ahead pipeline only"));
  const GemmMxShape p4 = shape(512, 512, 1024, MxFormat::fp4, GemmMxOutput::bf16, GemmMxScaleLayout::km);
  GemmMxConfig pg = persistent_config(256, 2);
  pg.group_m = 0;
  CHECK_THAT(msg(p4, pg), Catch::Contains("group_m >= 1"));
  CHECK_THAT(msg(shape(500, 512, 1024, MxFormat::fp4, GemmMxOutput::bf16, GemmMxScaleLayout::km), persistent_config(256, 2)),
             Catch::Contains("M = 500") && Catch::Contains("multiples of the tile"));
  CHECK_THAT(msg(shape(512, 512, 768, MxFormat::fp4, GemmMxOutput::bf16, GemmMxScaleLayout::km), persistent_config(256, 2)),
             Catch::Contains("even number of K tiles, at least 4"));
  CHECK_THAT(msg(shape(512, 510, 1024, MxFormat::fp4), persistent_config(256, 2)), Catch::Contains("transposed accumulators"));
  // two k-steps of fp4 per K tile at 256x256 with 8 waves: too many registers for 2 waves per SIMD
  try {
    build_gemm_mx(make_gemm_mx_plan(shape(256, 256, 2048, MxFormat::fp4), Arch::gfx950, lds_config(256, 256, 2, 4, 256)));
    FAIL("expected an Error naming the registers");
  } catch (const Error& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("VGPRs") && Catch::Contains("2 per SIMD"));
  }
}

TEST_CASE("gemm-mx: modelled time of a 512^3 MXFP8 GEMM (recorded workgroups only)", "[gemm_mx]") {
  const GemmMxModelled m = model_gemm_mx(model::product("mi355x"), shape(512, 512, 512, MxFormat::fp8));
  std::cout << "  " << m.describe() << "\n";
  CHECK(m.report.ms > 0);
  CHECK(m.report.replayed_workgroups < m.report.plan.workgroups);  // the model did not simulate the whole grid
  CHECK(m.peak_share() > 0);
  CHECK(m.peak_share() < 1);  // no modelled kernel beats the MFMA peak
}
