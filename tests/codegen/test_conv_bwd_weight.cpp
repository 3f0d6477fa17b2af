// Grouped conv backward-weight (codegen/conv_bwd_weight.hpp): the three forms
// (baseline, wavelet (4,4), wavelet (4,2)) on small 2D and 3D shapes for gfx942 and gfx950,
// bit for bit against the HIP-source reference with the same MFMA order on the
// simulator, and against the CPU fp64 reference with a stated tolerance.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "tools/jobs/conv3d_igemm_host.hpp"
#include "codegen/conv_bwd_weight.hpp"
#include "tools/jobs/conv_bwd_weight_host.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"
#include "tests/test_support.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {

struct Case {
  BwdWeightShape s;
  const char* what;
};

BwdWeightShape shape(int N, int G, int C, int K, int Hi, int Wi, int Y, int X, std::array<int, 2> st,
                     std::array<int, 2> pad, std::array<int, 2> dil) {
  BwdWeightShape s;
  s.N = N, s.G = G, s.C = C, s.K = K, s.Hi = Hi, s.Wi = Wi, s.Y = Y, s.X = X;
  s.stride[0] = st[0], s.stride[1] = st[1], s.pad[0] = pad[0], s.pad[1] = pad[1], s.dil[0] = dil[0], s.dil[1] = dil[1];
  return s;
}

BwdWeightShape shape3d(BwdWeightShape s, int Di, int Z, int stride_d, int pad_d, int dil_d) {
  s.Di = Di, s.Z = Z, s.stride_d = stride_d, s.pad_d = pad_d, s.dil_d = dil_d;
  return s;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {shape(3, 2, 4, 6, 5, 5, 3, 3, {1, 1}, {1, 1}, {1, 1}), "G=2, 3 K tiles (the stage loop runs twice)"},
      {shape(1, 1, 8, 36, 9, 9, 3, 3, {2, 2}, {1, 1}, {1, 1}), "K=36 like RetinaNet's head, stride 2, 2 N tiles"},
      {shape(2, 3, 2, 70, 7, 6, 3, 2, {1, 2}, {2, 1}, {2, 1}), "2 M tiles, dilation 2, asymmetric stride/pad"},
      {shape(1, 1, 16, 8, 8, 8, 1, 1, {1, 1}, {0, 0}, {1, 1}), "1x1 filter, gemm-K exactly 2 tiles"},
      {shape3d(shape(1, 2, 4, 6, 5, 4, 3, 3, {1, 1}, {1, 1}, {1, 1}), 4, 3, 1, 1, 1), "3D NDHWGC, 4 K tiles"},
      {shape3d(shape(2, 1, 2, 10, 3, 3, 2, 1, {1, 2}, {1, 0}, {1, 1}), 5, 2, 2, 1, 2), "3D: depth stride and dilation 2"},
  };
  return c;
}

Device& sim_device(Arch a) {
  static std::map<Arch, std::unique_ptr<Device>> devs;
  auto& d = devs[a];
  if (!d) d = open_device(a == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
  return *d;
}

// Relative L2 error bound against fp64: fp32 accumulation of exact 16-bit products stays
// far below 1e-6 on these sums; a 16-bit dW adds its rounding (bf16 2^-9, f16 2^-12 relative).
double tolerance(const BwdWeightConfig& cfg) {
  if (cfg.out_f32) return 1e-6;
  return cfg.dtype == BwdWeightDType::bf16 ? 4e-3 : 5e-4;
}

// Every form of `cfg` on `c` for `arch`: bit-exact vs the HIP reference, close to fp64.
void check_case(Arch arch, const Case& c, const BwdWeightConfig& cfg, uint64_t seed) {
  INFO(arch_name(arch) << " " << c.s.str() << " [" << cfg.str() << "]: " << c.what);
  BwdWeightInputs in = bwd_weight_random_inputs(c.s, cfg.dtype, seed);
  Device& dev = sim_device(arch);
  auto co = compile_hip(bwd_weight_hip_source(), arch, bwd_weight_hip_flags(c.s, arch, cfg));
  std::vector<uint8_t> ref = run_bwd_weight(dev, co, kBwdWeightHipKernelName, bwd_weight_hip_grid(c.s), Dim3{64, 1, 1},
                                            c.s, in, cfg.out_bytes());
  std::vector<double> ref64 = bwd_weight_reference_fp64(c.s, in);
  Conv3dAccuracy racc = conv3d_accuracy(bwd_weight_values(ref, cfg.out_bytes(), cfg.dtype), ref64);
  INFO("HIP reference vs fp64: rel_err " << racc.rel_err << " max_abs " << racc.max_abs);
  CHECK(racc.rel_err < tolerance(cfg));
  for (BwdWeightVariant v : kBwdWeightVariants) {
    if (v == BwdWeightVariant::wavelet_4_2 && cfg.tile_m == 128 && cfg.tile_n == 128) continue;  // not offered
    INFO("variant " << variant_name(v));
    BwdWeightKernel k = build_conv_bwd_weight(c.s, v, arch, cfg);
    std::vector<uint8_t> got = run_bwd_weight(dev, k.build.code_object, kBwdWeightKernelName, k.grid, k.block, c.s, in,
                                              cfg.out_bytes(), /*zero_dw=*/k.splits > 1);
    Conv3dBitCompare cmp = conv3d_compare_bytes(got, ref, cfg.out_bytes());
    INFO("JIT vs HIP-MFMA reference: " << cmp.describe() << " (" << k.splits << " K splits)");
    // More than two splits add in an order that depends on workgroup timing: no bit target.
    if (k.splits <= 2) CHECK(cmp.equal());
    Conv3dAccuracy acc = conv3d_accuracy(bwd_weight_values(got, cfg.out_bytes(), cfg.dtype), ref64);
    INFO("JIT vs fp64: rel_err " << acc.rel_err << " max_abs " << acc.max_abs);
    CHECK(acc.rel_err < tolerance(cfg));
  }
}

}  // namespace

TEST_CASE("conv bwd-weight: every form is bit-exact with the HIP MFMA reference and close to fp64", "[bwd_weight]") {
  uint64_t seed = test::test_seed("conv bwd-weight inputs", 5652);
  for (Arch arch : {Arch::gfx942, Arch::gfx950})
    for (const Case& c : cases()) check_case(arch, c, BwdWeightConfig{}, seed);
}

TEST_CASE("conv bwd-weight: tiles 128x128 / 128x64 / 64x128, f16 inputs, 16-bit dW, split-K", "[bwd_weight]") {
  uint64_t seed = test::test_seed("conv bwd-weight inputs (configurations)", 5653);
  std::vector<BwdWeightConfig> cfgs;
  for (auto [m, n] : {std::pair{128, 128}, {128, 64}, {64, 128}}) cfgs.push_back({m, n, BwdWeightDType::bf16, true});
  cfgs.push_back({64, 64, BwdWeightDType::f16, true});
  cfgs.push_back({64, 64, BwdWeightDType::bf16, false});
  cfgs.push_back({128, 64, BwdWeightDType::f16, false});
  cfgs.push_back({64, 64, BwdWeightDType::bf16, true, 2});  // split-K 2: still bit-exact
  cfgs.push_back({64, 64, BwdWeightDType::f16, true, 4});   // split-K 4: accuracy only
  // Tiles on the shape with partial M tiles and G = 3; element types on the 3-K-tile shape;
  // split-K on the 3-K-tile shape (2 splits: one padded with a zero tile) and the 3D one.
  for (Arch arch : {Arch::gfx942, Arch::gfx950})
    for (const BwdWeightConfig& cfg : cfgs) {
      // 128x64 on gfx942 and 64x128 on gfx950 only (the tile logic is the same on both; keeps the test short).
      if (cfg.tile_m != cfg.tile_n && (cfg.tile_m == 128) != (arch == Arch::gfx942)) continue;
      size_t i = cfg.tile_m == 64 && cfg.tile_n == 64 ? 0 : 2;
      check_case(arch, cases()[i], cfg, seed);
      if (cfg.splits > 1) check_case(arch, cases()[4], cfg, seed);
    }
}

TEST_CASE("conv bwd-weight: the plain HIP reference (fp32 fma, no MFMA) agrees with fp64 and the JIT kernels",
          "[bwd_weight]") {
  uint64_t seed = test::test_seed("conv bwd-weight inputs (plain reference)", 5654);
  for (Arch arch : {Arch::gfx942, Arch::gfx950})
    for (size_t i : {size_t(0), size_t(2), size_t(4)}) {
      // bf16 and f16 take turns over the (arch, shape) pairs.
      BwdWeightDType dt = (i / 2 + (arch == Arch::gfx950)) % 2 ? BwdWeightDType::f16 : BwdWeightDType::bf16;
      const Case& c = cases()[i];
        BwdWeightConfig cfg;
        cfg.dtype = dt;
        INFO(arch_name(arch) << " " << c.s.str() << " [" << cfg.str() << "]");
        BwdWeightInputs in = bwd_weight_random_inputs(c.s, dt, seed);
        Device& dev = sim_device(arch);
        auto co = compile_hip(bwd_weight_plain_hip_source(), arch, bwd_weight_hip_flags(c.s, arch, cfg));
        std::vector<uint8_t> plain = run_bwd_weight(dev, co, kBwdWeightPlainKernelName, bwd_weight_plain_grid(c.s),
                                                    Dim3{256, 1, 1}, c.s, in);
        std::vector<double> ref64 = bwd_weight_reference_fp64(c.s, in);
        Conv3dAccuracy pacc = conv3d_accuracy(bwd_weight_values(plain, 4, dt), ref64);
        INFO("plain HIP vs fp64: rel_err " << pacc.rel_err);
        CHECK(pacc.rel_err < 1e-6);
        BwdWeightKernel k = build_conv_bwd_weight(c.s, BwdWeightVariant::wavelet_4_4, arch, cfg);
        std::vector<uint8_t> got = run_bwd_weight(dev, k.build.code_object, kBwdWeightKernelName, k.grid, k.block, c.s, in);
        std::vector<double> gotd = bwd_weight_values(got, 4, dt);
        Conv3dAccuracy jacc = conv3d_accuracy(gotd, bwd_weight_values(plain, 4, dt));
        INFO("wavelet (4,4) vs plain HIP: rel_err " << jacc.rel_err);
        CHECK(jacc.rel_err < 2e-6);
    }
}

TEST_CASE("conv bwd-weight: wave-specialised forms keep per-role registers and the (4,4)/(4,2) shapes", "[bwd_weight]") {
  BwdWeightShape s = cases()[0].s;
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    BwdWeightKernel base = build_conv_bwd_weight(s, BwdWeightVariant::baseline, arch);
    BwdWeightKernel w44 = build_conv_bwd_weight(s, BwdWeightVariant::wavelet_4_4, arch);
    BwdWeightKernel w42 = build_conv_bwd_weight(s, BwdWeightVariant::wavelet_4_2, arch);
    CHECK(base.block.x == 256);
    CHECK(w44.block.x == 512);
    CHECK(w42.block.x == 384);
    for (const BwdWeightKernel* k : {&w44, &w42}) {
      REQUIRE(k->roles.roles.size() == 2);
      const RoleStats& math = k->roles.roles[0];
      const RoleStats& load = k->roles.roles[1];
      CHECK(math.name == "math");
      CHECK(load.name == "load");
      // The split the kernels exist for: MFMA only in the math role, global loads only in the load role.
      CHECK(math.by_unit[int(isa::Unit::MFMA)] > 0);
      CHECK(load.by_unit[int(isa::Unit::MFMA)] == 0);
      CHECK(load.by_unit[int(isa::Unit::VMEM)] > 0);
      CHECK(math.by_unit[int(isa::Unit::VMEM)] == int(k == &w44 ? 16 : 32));  // the dW stores only
      INFO("VGPRs " << k->build.stats.vgprs << " math " << math.peak_vgprs << " load " << load.peak_vgprs << " shared "
                    << k->roles.shared_vgprs);
      CHECK(k->build.stats.vgprs <= k->roles.max_role_vgprs() + k->roles.shared_vgprs);
    }
  }
}

TEST_CASE("conv bwd-weight: bad shapes are errors that say what is valid", "[bwd_weight]") {
  BwdWeightShape s = cases()[0].s;
  s.C = 3;
  CHECK_THROWS_WITH(build_conv_bwd_weight(s, BwdWeightVariant::baseline, Arch::gfx942),
                    Catch::Matchers::Contains("C = 3 must be even"));
  s = cases()[0].s;
  s.pad[0] = 5;
  CHECK_THROWS_WITH(build_conv_bwd_weight(s, BwdWeightVariant::wavelet_4_4, Arch::gfx950),
                    Catch::Matchers::Contains("padding must be in"));
  s = cases()[0].s;
  CHECK_THROWS_WITH(build_conv_bwd_weight(s, BwdWeightVariant::wavelet_4_4, Arch::gfx950, {96, 64}),
                    Catch::Matchers::Contains("must be 64 or 128"));
  CHECK_THROWS_WITH(build_conv_bwd_weight(s, BwdWeightVariant::wavelet_4_2, Arch::gfx950, {128, 128}),
                    Catch::Matchers::Contains("(4,2) is offered for 64x64, 128x64 and 64x128"));
  CHECK_THROWS_WITH(build_conv_bwd_weight(s, BwdWeightVariant::baseline, Arch::gfx942, {64, 64, BwdWeightDType::bf16, true, 3}),
                    Catch::Matchers::Contains("power of two"));
  CHECK_THROWS_WITH(build_conv_bwd_weight(s, BwdWeightVariant::baseline, Arch::gfx942, {64, 64, BwdWeightDType::bf16, false, 2}),
                    Catch::Matchers::Contains("needs fp32 dW"));
}
