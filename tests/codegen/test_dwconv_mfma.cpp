// The banded-MFMA depthwise conv3d (codegen/dwconv_mfma.hpp) on the simulator, both archs, on
// reduced shapes (the full seed shape is `cdnajit seed --variant mfma_band`):
//  - bit-for-bit equal to its same-order HIP reference (clang, same MFMA builtin and operands);
//  - bit-for-bit equal to the host model (the operands element for element, the simulator's
//    MFMA accumulation rule);
//  - within the bound of a bf16 output of an fp32 sum against fp64;
//  - shape rules the design cannot meet are errors naming the field.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cmath>
#include <iostream>

#include "codegen/bf16.hpp"
#include "codegen/dwconv3d.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "codegen/dwconv_mfma.hpp"
#include "jit/isa/error.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {

DwConvShape shape(int N, int C, int D, int H, int W, int KD, int KH, int KW, int pd, int ph, int pw) {
  DwConvShape s;
  s.N = N; s.C = C; s.D = D; s.H = H; s.W = W; s.KD = KD; s.KH = KH; s.KW = KW;
  s.padD = pd; s.padH = ph; s.padW = pw;
  return s;
}

std::vector<uint16_t> run(Device& dev, std::span<const uint8_t> co, const std::string& kernel, const DwConvShape& s,
                          std::span<const uint16_t> x, std::span<const uint16_t> w) {
  Buffer in = dev.upload(x, "input");
  Buffer wt = dev.upload(w, "weight");
  Buffer out = dev.alloc(size_t(s.output_elems()) * 2, "output");
  std::vector<uint16_t> poison(size_t(s.output_elems()), 0x7fbf);  // NaN: unwritten outputs show up
  dev.copy_to_device(out, poison.data(), poison.size() * 2);
  Module m = dev.load(co);
  dev.launch(m.kernel(kernel), {uint32_t(plan_dwconv_mfma(s, dev.arch()).grid_x)}, {256}, 0,
             KernelArgs().ptr(in).ptr(wt).ptr(out));
  auto got = dev.download<uint16_t>(out);
  for (const Buffer& b : {in, wt, out}) dev.free(b);
  return got;
}

struct Case {
  DwConvShape s;
  const char* what;
};

void check(Arch arch, const Case& c, uint64_t seed) {
  const DwConvShape& s = c.s;
  INFO(fmt::format("{} on {}: {}", s.str(), arch_name(arch), c.what));
  auto x = random_bf16(size_t(s.input_elems()), seed);
  auto w = random_bf16(size_t(s.weight_elems()), seed + 1000);
  auto dev = open_sim_device(arch);
  BuildResult b = build_dwconv3d(s, DwVariant::mfma_band, arch);
  auto got = run(*dev, b.code_object, b.name, s, x, w);
  auto ref_co = compile_hip(dwconv_mfma_hip_source(), arch, dwconv_mfma_hip_flags(s, arch));
  auto ref = run(*dev, ref_co, kDwconvMfmaHipKernel, s, x, w);
  BitCompare vs_ref = compare_bits(got, ref);
  INFO("JIT vs HIP mfma_band reference: " << describe_mismatch(vs_ref, s));
  CHECK(vs_ref.equal());
  BitCompare vs_model = compare_bits(got, dwconv_mfma_model(s, arch, x, w));
  INFO("JIT vs host model: " << describe_mismatch(vs_model, s));
  CHECK(vs_model.equal());
  // fp64: a bf16 output of an fp32 sum is within 2^-8 |ref| (the output rounding, with room
  // for the sum's) + 2^-20 sum|w x| (the fp32 accumulation: at most 4 x steps roundings of
  // 2^-24 relative to a partial sum bounded by sum|w x|; steps <= 21 here).
  std::vector<double> ref64 = dwconv3d_reference_fp64(s, x, w);
  std::vector<uint16_t> ax(x.begin(), x.end()), aw(w.begin(), w.end());
  for (auto& v : ax) v &= 0x7fff;
  for (auto& v : aw) v &= 0x7fff;
  std::vector<double> abs_sum = dwconv3d_reference_fp64(s, ax, aw);
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double err = std::fabs(double(bf16_to_f32(got[i])) - ref64[i]);
    double bound = std::ldexp(std::fabs(ref64[i]), -8) + std::ldexp(abs_sum[i], -20);
    worst = std::max(worst, err / bound);
  }
  std::cout << fmt::format("  {} {:<44} worst error / bound {:.3f}, calc_diff {:.3e}\n", arch_name(arch), s.str(),
                           worst, calc_diff(got, ref64));
  CHECK(worst <= 1.0);
  CHECK(calc_diff(got, ref64) < 1e-5);
}

const Case kCases[] = {
    {shape(1, 2, 4, 20, 32, 3, 5, 5, 0, 2, 2), "seed filter and padding: 2 x 2 blocks, the second row block partial"},
    {shape(1, 1, 3, 9, 18, 3, 3, 3, 1, 1, 0), "KH = 3 (column steps only), depth padding, padW = 0"},
    {shape(1, 1, 2, 10, 22, 1, 7, 7, 0, 3, 2), "KH = KW = 7: row steps and three column-step rows"},
};

}  // namespace

TEST_CASE("mfma_band equals its HIP reference and host model on gfx950", "[codegen][sim][gfx950][mfma_band]") {
  uint64_t seed = 40;
  for (const Case& c : kCases) check(Arch::gfx950, c, seed++);
}

TEST_CASE("mfma_band equals its HIP reference and host model on gfx942", "[codegen][sim][gfx942][mfma_band]") {
  uint64_t seed = 50;
  for (const Case& c : kCases) check(Arch::gfx942, c, seed++);
}

TEST_CASE("mfma_band shape rules are errors naming the field", "[codegen][errors][mfma_band]") {
  DwConvShape s = shape(1, 1, 3, 9, 80, 3, 5, 5, 0, 2, 2);
  CHECK_NOTHROW(plan_dwconv_mfma(s, Arch::gfx950));
  DwConvShape odd = s;
  odd.W = 81;
  CHECK_THROWS_WITH(build_dwconv3d(odd, DwVariant::mfma_band, Arch::gfx950), Catch::Contains("must both be even"));
  DwConvShape w_out = s;
  w_out.W = 78;  // W_out 78
  CHECK_THROWS_WITH(build_dwconv3d(w_out, DwVariant::mfma_band, Arch::gfx950), Catch::Contains("multiple of 4"));
  CHECK_THROWS_WITH(build_dwconv3d(s, DwVariant::mfma_band, Arch::gfx950, DwMapping::wave_rows),
                    Catch::Contains("one work mapping"));
  DwConvShape big = shape(1, 1, 3, 200, 80, 3, 5, 5, 0, 2, 2);
  CHECK_THROWS_WITH(plan_dwconv_mfma(big, Arch::gfx950), Catch::Contains("64 KiB"));
}

TEST_CASE("mfma_band seed-shape plan", "[codegen][mfma_band]") {
  // The arithmetic of dwconv_mfma.hpp: 12 MFMAs per 16 x 16 block on gfx950 (9 four-row steps, 3
  // column steps), 21 on gfx942 (15 + 6); 3 x 5 blocks per workgroup.
  DwMfmaPlan p950 = plan_dwconv_mfma(seed_shape(), Arch::gfx950);
  CHECK(p950.steps.size() == 12);
  CHECK(p950.blocks == 15);
  DwMfmaPlan p942 = plan_dwconv_mfma(seed_shape(), Arch::gfx942);
  CHECK(p942.steps.size() == 21);
  CHECK(p942.lds_bytes <= 32768);  // two workgroups per CU on gfx942's 64 KiB
}
