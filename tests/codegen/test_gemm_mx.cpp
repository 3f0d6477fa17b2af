// MX-scaled GEMM kernels (codegen/gemm_mx.cpp) on the gfx950 simulator:
//  - JIT output bit-for-bit equal to the clang-compiled HIP reference (codegen/hip/gemm_mx.hip:
//    the same scaled MFMA builtin, same order) for MXFP8 (E4M3, E5M2), MXFP6 (E2M3, E3M2) and MXFP4, 16x16x128 and 32x32x64
//    blocks, fp32 and bf16 output, partial tiles in M and N, odd and even k-step counts;
//  - every element within the fp64 reference's stated bound (tools/jobs/gemm_mx_host.hpp), and the
//    bound rejects a perturbed element;
//  - the host decoder agrees with the OCP formats on hand-picked codes;
//  - invalid plans (gfx942, K, tiles) are errors naming the limit;
//  - the modelled time is produced from recorded workgroups only.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <iostream>

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

GemmMxShape shape(int m, int n, int k, MxFormat f, GemmMxOutput o = GemmMxOutput::f32) {
  GemmMxShape s;
  s.M = m; s.N = n; s.K = k; s.format = f; s.output = o;
  return s;
}

GemmMxConfig config(int tm, int tn, int wm, int wn, int mb) {
  GemmMxConfig c;
  c.tile_m = tm; c.tile_n = tn; c.waves_m = wm; c.waves_n = wn; c.mfma_m = mb;
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
}

TEST_CASE("gemm-mx: modelled time of a 512^3 MXFP8 GEMM (recorded workgroups only)", "[gemm_mx]") {
  const GemmMxModelled m = model_gemm_mx(model::product("mi355x"), shape(512, 512, 512, MxFormat::fp8));
  std::cout << "  " << m.describe() << "\n";
  CHECK(m.report.ms > 0);
  CHECK(m.report.replayed_workgroups < m.report.plan.workgroups);  // the model did not simulate the whole grid
  CHECK(m.peak_share() > 0);
  CHECK(m.peak_share() < 1);  // no modelled kernel beats the MFMA peak
}
