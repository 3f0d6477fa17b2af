// MFMA accumulation numerics (runtime/sim/mfma_numerics.cpp):
//  1. the CDNA3 rules on hand-built probes whose expected bits are worked out in
//     the comments (cancellation, alignment truncation, floor toward -inf,
//     subnormal inputs, group boundaries at K = 8 and 16, fp8 even/odd split);
//  2. clang-compiled MFMA kernels of each input type, bit-exact against an
//     independent oracle: a deliberately plain second implementation of the same
//     published rules (integer significands decoded from the raw bits, integer
//     shifts, MPFR for the final rounding), sharing no code with the simulator.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <random>

#include "runtime/sim/mfma_numerics.hpp"
#include "tests/sim/mfma_cdna3_oracle.hpp"
#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;
using cdnajit::sim::MfmaFormat;
using cdnajit::sim::MfmaKind;

namespace {

uint32_t fbits(float f) { return simtest::bits(f); }

float cdna3(std::vector<double> a, std::vector<double> b, float c, MfmaKind kind = MfmaKind::Fused, int min_exp = -14) {
  return cdnajit::sim::mfma_dot_cdna3(a.data(), b.data(), int(a.size()), c, MfmaFormat{kind, min_exp, min_exp});
}
float exact(std::vector<double> a, std::vector<double> b, float c) {
  return cdnajit::sim::mfma_dot_exact(a.data(), b.data(), int(a.size()), c);
}

}  // namespace

TEST_CASE("CDNA3 MFMA rules on hand-built probes", "[sim][numerics][mfma]") {
  const double t = std::ldexp(1.0, -12), s16 = std::ldexp(1.0, -16);  // f16 2^-12 (normal), 2^-16 (subnormal)
  SECTION("cancellation: a product below 2^-24 of the group's largest is truncated away") {
    // products 1, -1, 2^-25 (= 2^-12 * 2^-13): aligned at 2^0 with 24 fractional bits, 2^-25 -> 0.
    std::vector<double> a = {1, -1, t, 0, 0, 0, 0, 0}, b = {1, 1, std::ldexp(1.0, -13), 0, 0, 0, 0, 0};
    CHECK(fbits(cdna3(a, b, 0.0f)) == 0x00000000u);
    CHECK(fbits(exact(a, b, 0.0f)) == 0x33000000u);  // 2^-25
  }
  SECTION("alignment truncation is toward zero") {
    // 1 - 3*2^-26: the small product is -0.75 units of 2^-24 -> truncated to 0 -> exactly 1.0;
    // the exact sum 1 - 0.75*2^-24 rounds to 1 - 2^-24 (0x3f7fffff).
    std::vector<double> a = {1, -3 * t}, b = {1, std::ldexp(1.0, -14)};
    a.resize(8); b.resize(8);
    CHECK(fbits(cdna3(a, b, 0.0f)) == 0x3f800000u);
    CHECK(fbits(exact(a, b, 0.0f)) == 0x3f7fffffu);
  }
  SECTION("group sum floored toward -inf at 31 fractional bits: asymmetric around zero") {
    // C = 1, products 2^-24 and 2^-32 (subnormal f16 squared): group sum 2^-24 + 2^-32 floored to
    // 2^-31 units -> 2^-24 exactly -> 1 + 2^-24 is a tie -> RNE -> 1.0. Exact: 0x3f800001.
    std::vector<double> a = {t, s16}, b = {t, s16};
    a.resize(8); b.resize(8);
    CHECK(fbits(cdna3(a, b, 1.0f)) == 0x3f800000u);
    CHECK(fbits(exact(a, b, 1.0f)) == 0x3f800001u);
    // Mirrored: floor(-(128.5)) = -129 units of 2^-31 -> beyond the tie -> -(1 + 2^-23).
    std::vector<double> an = {-t, -s16}, bn = {t, s16};
    an.resize(8); bn.resize(8);
    CHECK(fbits(cdna3(an, bn, -1.0f)) == 0xbf800001u);
  }
  SECTION("C floored to 24 fractional bits at the products' exponent") {
    // products 2^4 (4*4) and C = 1 + 2^-23: at E = 4, C keeps 24 - 4 = 20 fractional bits -> 1.0;
    // 16 + 1 = 17 exactly (0x41880000). Exact: 17 + 2^-23 rounds to 17 as well, so also check
    // C = -(1 + 2^-23): floored toward -inf to -(1 + 2^-20) -> 15 - 2^-20 -> RNE f32 -> 0x416fffff;
    // exact 15 - 2^-23 rounds to 15 (0x41700000).
    std::vector<double> a = {4}, b = {4};
    a.resize(8); b.resize(8);
    CHECK(fbits(cdna3(a, b, 1.0f + 0x1p-23f)) == 0x41880000u);
    CHECK(fbits(cdna3(a, b, -(1.0f + 0x1p-23f))) == 0x416fffffu);
    CHECK(fbits(exact(a, b, -(1.0f + 0x1p-23f))) == 0x41700000u);
  }
  SECTION("subnormal inputs are kept") {
    // f16 min subnormal 2^-24 times 1 -> 2^-24 (0x33800000); 2^-24 * 2^-24 = 2^-48 (0x27800000).
    std::vector<double> a = {std::ldexp(1.0, -24)}, b = {1.0};
    a.resize(8); b.resize(8);
    CHECK(fbits(cdna3(a, b, 0.0f)) == 0x33800000u);
    b[0] = std::ldexp(1.0, -24);
    CHECK(fbits(cdna3(a, b, 0.0f)) == 0x27800000u);
  }
  SECTION("group boundaries: 16-bit inputs in groups of 8") {
    // K = 16: group 0 = {1, ..., -1} cancels exactly to 0; group 1 = {2^-25}: kept -> 2^-25.
    std::vector<double> a(16, 0.0), b(16, 0.0);
    a[0] = 1; b[0] = 1; a[7] = -1; b[7] = 1; a[8] = t; b[8] = std::ldexp(1.0, -13);
    CHECK(fbits(cdna3(a, b, 0.0f)) == 0x33000000u);
    // The same three products inside one group of 8 (k = 0, 6, 7): 2^-25 is truncated away.
    std::vector<double> a8(8, 0.0), b8(8, 0.0);
    a8[0] = 1; b8[0] = 1; a8[6] = -1; b8[6] = 1; a8[7] = t; b8[7] = std::ldexp(1.0, -13);
    CHECK(fbits(cdna3(a8, b8, 0.0f)) == 0x00000000u);
  }
  SECTION("fp8: groups of 16, even and odd products summed apart") {
    const int me = -15;  // bf8 FNUZ smallest normal exponent
    // Same group of 16: 1 (k=0) and -1 (k=2) cancel in the even sum; 2^-25 at k=1 (odd sum) is
    // floored to 24 fractional bits at the larger exponent 2^0 -> floor(0.5) = 0 -> result 0.
    std::vector<double> a(32, 0.0), b(32, 0.0);
    a[0] = 1; b[0] = 1; a[2] = -1; b[2] = 1; a[1] = std::ldexp(1.0, -15); b[1] = std::ldexp(1.0, -10);
    CHECK(fbits(cdna3(a, b, 0.0f, MfmaKind::Fp8, me)) == 0x00000000u);
    // 2^-24 at k=1 survives that floor (floor(1.0) = 1).
    b[1] = std::ldexp(1.0, -9);
    CHECK(fbits(cdna3(a, b, 0.0f, MfmaKind::Fp8, me)) == 0x33800000u);
    // Group boundary at 16: 1 (k=0) and -1 (k=15) cancel; 2^-25 at k=16 starts group 2 -> kept.
    std::vector<double> g(32, 0.0), h(32, 0.0);
    g[0] = 1; h[0] = 1; g[15] = -1; h[15] = 1; g[16] = std::ldexp(1.0, -15); h[16] = std::ldexp(1.0, -10);
    CHECK(fbits(cdna3(g, h, 0.0f, MfmaKind::Fp8, me)) == 0x33000000u);
    // fp8: C far below the group (exponent more than 25 below) is dropped: 1 + 2^-40 -> 1.0
    // even in the exact sense, so use a cancelling group: 1 - 1 + C(2^-40) -> 0, exact 2^-40.
    std::vector<double> p(16, 0.0), q(16, 0.0);
    p[0] = 1; q[0] = 1; p[2] = -1; q[2] = 1;
    CHECK(fbits(cdna3(p, q, 0x1p-40f, MfmaKind::Fp8, me)) == 0x00000000u);
    CHECK(fbits(cdna3(p, q, 0x1p-40f, MfmaKind::Fused, me)) == 0x00000000u);  // 16-bit: floored to 2^-24 units -> 0 too
    CHECK(fbits(exact(p, q, 0x1p-40f)) == 0x2b800000u);
  }
  SECTION("f32 inputs: a K-ordered chain of RNE FMAs") {
    // fma(1, 1, 2^-24 * ...): C = 2^-25, products 1 and 2^-25: chain 1 + 2^-25 -> 1, then + 2^-25 -> 1;
    // exact: 1 + 2^-24 -> tie -> 1 as well; use 3*2^-26: chain -> 1, 1; exact 1 + 3*2^-25 -> 0x3f800001.
    std::vector<double> a = {1, 3 * std::ldexp(1.0, -26)}, b = {1, 1};
    CHECK(fbits(cdna3(a, b, 3 * 0x1p-26f, MfmaKind::F32, -126)) == 0x3f800000u);
    CHECK(fbits(exact(a, b, 3 * 0x1p-26f)) == 0x3f800001u);
  }
  SECTION("infinities and NaN") {
    std::vector<double> a = {INFINITY, 1}, b = {1, 1};
    a.resize(8); b.resize(8);
    CHECK(std::isinf(cdna3(a, b, 0.0f)));
    a[1] = -INFINITY;
    CHECK(std::isnan(cdna3(a, b, 0.0f)));
  }
}

namespace {

using namespace mfma_oracle;

struct MfmaCase {
  const char* kernel;
  int M, K;
  ElemFmt fa, fb;
  bool f32, fp8;
  int group;          // products per fused group (MMA-Sim: 8 for 16-bit, 16 for 8-bit, 4 for xf32)
  bool xf32 = false;  // elements are xf32 codes stored in the high 19 bits of an f32 register
};

}  // namespace

TEST_CASE("clang MFMA kernels are bit-exact against an independent CDNA3-rule oracle", "[sim][numerics][mfma][kernels]") {
  const char* src = R"(
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef _Float16 half8 __attribute__((ext_vector_type(8)));
typedef short short4_ __attribute__((ext_vector_type(4)));
typedef float float4_ __attribute__((ext_vector_type(4)));
typedef float float16_ __attribute__((ext_vector_type(16)));
extern "C" __global__ void f16k16(const half4* a, const half4* b, const float4_* c, float4_* d) {
  unsigned t = tid(); d[t] = __builtin_amdgcn_mfma_f32_16x16x16f16(a[t], b[t], c[t], 0, 0, 0); }
extern "C" __global__ void bf16k8(const short4_* a, const short4_* b, const float16_* c, float16_* d) {
  unsigned t = tid(); d[t] = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a[t], b[t], c[t], 0, 0, 0); }
extern "C" __global__ void f32k4(const float* a, const float* b, const float4_* c, float4_* d) {
  unsigned t = tid(); d[t] = __builtin_amdgcn_mfma_f32_16x16x4f32(a[t], b[t], c[t], 0, 0, 0); }
extern "C" __global__ void fp8k32(const long* a, const long* b, const float4_* c, float4_* d) {
  unsigned t = tid(); d[t] = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a[t], b[t], c[t], 0, 0, 0); }
extern "C" __global__ void bf8k32(const long* a, const long* b, const float4_* c, float4_* d) {
  unsigned t = tid(); d[t] = __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(a[t], b[t], c[t], 0, 0, 0); }
#if defined(__gfx942__)
typedef float float2_ __attribute__((ext_vector_type(2)));
extern "C" __global__ void xf32k8(const float2_* a, const float2_* b, const float4_* c, float4_* d) {
  unsigned t = tid(); d[t] = __builtin_amdgcn_mfma_f32_16x16x8_xf32(a[t], b[t], c[t], 0, 0, 0); }
extern "C" __global__ void xf32k4(const float2_* a, const float2_* b, const float16_* c, float16_* d) {
  unsigned t = tid(); d[t] = __builtin_amdgcn_mfma_f32_32x32x4_xf32(a[t], b[t], c[t], 0, 0, 0); }
#endif
#if defined(__gfx950__)
extern "C" __global__ void f16k32(const half8* a, const half8* b, const float4_* c, float4_* d) {
  unsigned t = tid(); d[t] = __builtin_amdgcn_mfma_f32_16x16x32_f16(a[t], b[t], c[t], 0, 0, 0); }
#endif
)";
  const char* env = std::getenv("CDNAJIT_TEST_SEED");
  uint32_t seed = env ? uint32_t(std::strtoul(env, nullptr, 0)) : 8u;
  INFO("seed " << seed << " (CDNAJIT_TEST_SEED)");
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    const bool fnuz = arch == Arch::gfx942;
    const ElemFmt f16{2, 5, 10, 15}, bf16{2, 8, 7, 127}, f32{4, 8, 23, 127};
    const ElemFmt e4m3{1, 4, 3, fnuz ? 8 : 7}, e5m2{1, 5, 2, fnuz ? 16 : 15};
    std::vector<MfmaCase> cases = {{"f16k16", 16, 16, f16, f16, false, false, 8}, {"bf16k8", 32, 8, bf16, bf16, false, false, 8},
                                   {"f32k4", 16, 4, f32, f32, true, false, 1},     {"fp8k32", 16, 32, e4m3, e4m3, false, true, 16},
                                   {"bf8k32", 16, 32, e5m2, e5m2, false, true, 16}};
    if (arch == Arch::gfx950) cases.push_back({"f16k32", 16, 32, f16, f16, false, false, 8});
    // xf32 (gfx942 only): sign, 8 exponent bits, 10 fraction bits in bits 31..13 of each f32; the
    // low 13 bits are random junk the instruction must ignore (truncation toward zero).
    const ElemFmt xf32{4, 8, 10, 127};
    if (arch == Arch::gfx942) {
      cases.push_back({"xf32k8", 16, 8, xf32, xf32, false, false, 4, true});
      cases.push_back({"xf32k4", 32, 4, xf32, xf32, false, false, 4, true});
    }
    auto co = load_hip(src, arch);
    for (const MfmaCase& mc : cases) {
      INFO("arch " << cdnajit::arch_name(arch) << " kernel " << mc.kernel);
      const int M = mc.M, N = mc.M, K = mc.K, kpl = K / (64 / M), nreg = M * N / 64, eb = mc.fa.bytes;
      std::mt19937 g(seed * 31 + uint32_t(K) + uint32_t(arch));
      // Exponent fields in a window wide enough for alignment truncation, narrow enough for overlap.
      int emax_field = (1 << mc.fa.ebits) - 2, lo = std::max(1, emax_field / 2 - 6), hi = std::min(emax_field, emax_field / 2 + 6);
      std::vector<uint32_t> A(M * K), B(K * N);
      for (auto& x : A) x = random_code(g, mc.fa, lo, hi);
      for (auto& x : B) x = random_code(g, mc.fb, lo, hi);
      std::vector<float> C(M * N);
      for (auto& x : C) x = std::ldexp(float(int(g() % 2001) - 1000), int(g() % 12) - 16);
      // Lane fragments: A[l % M][(l / M) * kpl + j], B[(l / N) * kpl + j][l % N], packed little-endian.
      std::vector<uint8_t> fa(64 * kpl * eb), fb(64 * kpl * eb);
      for (int l = 0; l < 64; ++l)
        for (int j = 0; j < kpl; ++j) {
          uint32_t va = A[(l % M) * K + (l / M) * kpl + j], vb = B[((l / N) * kpl + j) * N + l % N];
          if (mc.xf32) { va = va << 13 | (g() & 0x1fffu); vb = vb << 13 | (g() & 0x1fffu); }
          std::memcpy(&fa[(l * kpl + j) * eb], &va, eb);
          std::memcpy(&fb[(l * kpl + j) * eb], &vb, eb);
        }
      auto row_of = [&](int l, int r) { return M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4; };
      std::vector<float> fc(64 * nreg);
      std::vector<uint32_t> want(64 * nreg), want_exact(64 * nreg);
      for (int l = 0; l < 64; ++l)
        for (int r = 0; r < nreg; ++r) {
          int i = row_of(l, r), j = l % N;
          fc[l * nreg + r] = C[i * N + j];
          std::vector<uint32_t> ra(K), rb(K);
          for (int k = 0; k < K; ++k) { ra[k] = A[i * K + k]; rb[k] = B[k * N + j]; }
          want[l * nreg + r] = fbits(oracle_dot(ra, rb, mc.fa, mc.fb, C[i * N + j], mc.f32, mc.fp8, mc.group));
          // Exact reference for the Exact mode: MPFR sum of all products and C, rounded once.
          mpfr_t acc, p;
          mpfr_inits2(2000, acc, p, (mpfr_ptr)0);
          mpfr_set_flt(acc, C[i * N + j], MPFR_RNDN);
          for (int k = 0; k < K; ++k) {
            double x = mc.f32 ? double(simtest::flt(ra[k])) : value(decode(ra[k], mc.fa), mc.fa);
            double y = mc.f32 ? double(simtest::flt(rb[k])) : value(decode(rb[k], mc.fb), mc.fb);
            mpfr_set_d(p, x, MPFR_RNDN);
            mpfr_mul_d(p, p, y, MPFR_RNDN);
            mpfr_add(acc, acc, p, MPFR_RNDN);
          }
          want_exact[l * nreg + r] = fbits(mpfr_get_flt(acc, MPFR_RNDN));
          mpfr_clears(acc, p, (mpfr_ptr)0);
        }
      Device dev(arch);
      uint64_t da = dev.upload(fa, "a"), db = dev.upload(fb, "b"), dc = dev.upload(fc, "c"),
               dd = dev.upload(std::vector<float>(64 * nreg), "d");
      for (auto mode : {cdnajit::sim::Options::MfmaNumerics::Cdna3, cdnajit::sim::Options::MfmaNumerics::Exact}) {
        bool is_exact = mode == cdnajit::sim::Options::MfmaNumerics::Exact;
        INFO("mode " << (is_exact ? "exact" : "cdna3"));
        cdnajit::sim::Options o;
        o.mfma_numerics = mode;
        dev.run(co, mc.kernel, ArgPack().add(da).add(db).add(dc).add(dd), dims1(1, 64), o);
        auto got = dev.download<uint32_t>(dd, 64 * nreg);
        const auto& w = is_exact ? want_exact : want;
        std::string first;
        const size_t bad = count_mismatches(got, w, nreg, first);
        INFO("mismatches: " << bad << first);
        REQUIRE(bad == 0);
      }
      // The two models must really differ on these inputs, or the CDNA3 check proves little.
      size_t differ = 0;
      for (size_t x = 0; x < want.size(); ++x) differ += want[x] != want_exact[x];
      INFO("outputs where the CDNA3 rules and the exact sum differ: " << differ);
      if (!mc.f32) CHECK(differ > 0);
    }
  }
}

namespace {

// The f64 MFMA test cases share this set-up and check: operands with all 53 mantissa bits random
// and exponents in a narrow window (so the chain's roundings differ from one rounding of the exact
// sum); the kernel `plain` (clang's builtin) and `negated` (the instruction with neg modifiers
// through inline assembly: C always, A and/or B as neg_a / neg_b say) each checked against
// std::fma in increasing k, written here. `lanes(l, r, k, la, lb)` gives, for the output in lane
// l, VGPR pair r, the lanes holding its A[i][k] and B[k][j]; `single_block_lanes`, when set, the
// lanes a single 16x16-style product would read instead, which must give a different answer for
// some output (the blocks are independent).
using LanesFn = std::function<void(int l, int r, int k, int& la, int& lb)>;
struct F64MfmaCase {
  const char* mnemonic;  // what clang's builtin must compile to
  const char* src;
  const char* plain;
  const char* negated;
  int nreg;  // VGPR pairs of C/D per lane
  bool neg_a, neg_b;
  LanesFn lanes;
  LanesFn single_block_lanes;
  uint32_t seed_mul;
};

void check_f64_mfma(const F64MfmaCase& t) {
  const char* env = std::getenv("CDNAJIT_TEST_SEED");
  uint32_t seed = env ? uint32_t(std::strtoul(env, nullptr, 0)) : 8u;
  INFO("seed " << seed << " (CDNAJIT_TEST_SEED)");
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    auto co = load_hip(t.src, arch);
    Device dev(arch);
    REQUIRE(dev.sim.disassemble(co, t.plain).find(t.mnemonic) != std::string::npos);
    std::mt19937_64 g(seed * t.seed_mul + uint32_t(arch));
    auto rnd = [&] { return std::ldexp(double(int64_t(g() >> 11) - (int64_t(1) << 52)), int(g() % 9) - 4 - 52); };
    const int nc = 64 * t.nreg;
    std::vector<double> a(64), b(64), c(static_cast<size_t>(nc));
    for (auto& x : a) x = rnd();
    for (auto& x : b) x = rnd();
    for (auto& x : c) x = rnd();
    uint64_t da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c), dd = dev.upload(std::vector<double>(size_t(nc)));
    for (bool neg : {false, true}) {
      INFO("arch " << cdnajit::arch_name(arch) << " " << (neg ? t.negated : t.plain));
      dev.run(co, neg ? t.negated : t.plain, ArgPack().add(da).add(db).add(dc).add(dd), dims1(1, 64));
      auto got = dev.download<uint64_t>(dd, size_t(nc));
      const double sa = neg && t.neg_a ? -1 : 1, sb = neg && t.neg_b ? -1 : 1, sc = neg ? -1 : 1;
      auto chain = [&](int l, int r, const LanesFn& lanes) {
        double acc = sc * c[size_t(l * t.nreg + r)];
        for (int k = 0; k < 4; ++k) {
          int la, lb;
          lanes(l, r, k, la, lb);
          acc = std::fma(sa * a[size_t(la)], sb * b[size_t(lb)], acc);
        }
        return acc;
      };
      size_t bad = 0, differs_from_exact = 0, block_mixing = 0;
      for (int l = 0; l < 64; ++l)
        for (int r = 0; r < t.nreg; ++r) {
          const double acc = chain(l, r, t.lanes);
          uint64_t want;
          std::memcpy(&want, &acc, 8);
          bad += got[size_t(l * t.nreg + r)] != want;
          // One rounding of the exact sum (MPFR) differs somewhere, or this test proves little.
          mpfr_t e, p;
          mpfr_inits2(4000, e, p, (mpfr_ptr)0);
          mpfr_set_d(e, sc * c[size_t(l * t.nreg + r)], MPFR_RNDN);
          for (int k = 0; k < 4; ++k) {
            int la, lb;
            t.lanes(l, r, k, la, lb);
            mpfr_set_d(p, sa * a[size_t(la)], MPFR_RNDN);
            mpfr_mul_d(p, p, sb * b[size_t(lb)], MPFR_RNDN);
            mpfr_add(e, e, p, MPFR_RNDN);
          }
          differs_from_exact += mpfr_get_d(e, MPFR_RNDN) != acc;
          mpfr_clears(e, p, (mpfr_ptr)0);
          if (t.single_block_lanes) block_mixing += chain(l, r, t.single_block_lanes) != acc;
        }
      CHECK(bad == 0);
      CHECK(differs_from_exact > 0);
      if (t.single_block_lanes) CHECK(block_mixing > 0);
    }
  }
}

}  // namespace

TEST_CASE("v_mfma_f64_16x16x4_f64: a K-ordered chain of f64 FMAs, with neg modifiers", "[sim][numerics][mfma][kernels]") {
  // clang's builtin, and the same instruction with neg:[1,0,1] (A and C negated) through inline
  // assembly. Oracle: the documented layout (A[i][k] in lane 16k + i, B[k][j] in lane 16k + j,
  // D[4r + l / 16][l % 16] in lane l, VGPR pair r, as AMD's matrix instruction calculator gives it
  // for CDNA3) and std::fma in increasing k, written here.
  const char* src = R"(
typedef double double4_ __attribute__((ext_vector_type(4)));
extern "C" __global__ void f64k4(const double* a, const double* b, const double4_* c, double4_* d) {
  unsigned t = tid(); d[t] = __builtin_amdgcn_mfma_f64_16x16x4f64(a[t], b[t], c[t], 0, 0, 0); }
extern "C" __global__ void f64neg(const double* a, const double* b, const double4_* c, double4_* d) {
  unsigned t = tid();
  double4_ r;
  asm volatile("v_mfma_f64_16x16x4_f64 %0, %1, %2, %3 neg:[1,0,1]\n s_nop 15" : "=&v"(r) : "v"(a[t]), "v"(b[t]), "v"(c[t]));
  d[t] = r;
}
)";
  check_f64_mfma({"v_mfma_f64_16x16x4_f64", src, "f64k4", "f64neg", 4, true, false,
                  [](int l, int r, int k, int& la, int& lb) { la = 16 * k + 4 * r + l / 16; lb = 16 * k + l % 16; }, nullptr, 7});
}

TEST_CASE("v_mfma_f64_4x4x4_4b_f64: four blocks, a K-ordered chain of f64 FMAs, with neg modifiers", "[sim][numerics][mfma][kernels]") {
  // clang's builtin, and neg:[0,1,1] (B and C negated) through inline assembly. Oracle, written
  // here: A[b][i][k] in lane 16k + 4b + i, B[b][k][j] in lane 16k + 4b + j, D[b][i][j] in lane
  // 16i + 4b + j (the layout the simulator documents), std::fma in increasing k.
  const char* src = R"(
extern "C" __global__ void f64b4(const double* a, const double* b, const double* c, double* d) {
  unsigned t = tid(); d[t] = __builtin_amdgcn_mfma_f64_4x4x4f64(a[t], b[t], c[t], 0, 0, 0); }
extern "C" __global__ void f64b4neg(const double* a, const double* b, const double* c, double* d) {
  unsigned t = tid();
  double r;
  asm volatile("v_mfma_f64_4x4x4_4b_f64 %0, %1, %2, %3 neg:[0,1,1]\n s_nop 15" : "=&v"(r) : "v"(a[t]), "v"(b[t]), "v"(c[t]));
  d[t] = r;
}
)";
  check_f64_mfma({"v_mfma_f64_4x4x4_4b_f64", src, "f64b4", "f64b4neg", 1, false, true,
                  [](int l, int, int k, int& la, int& lb) {
                    const int i = l / 16, blk = (l / 4) % 4, j = l % 4;
                    la = 16 * k + 4 * blk + i;
                    lb = 16 * k + 4 * blk + j;
                  },
                  [](int l, int, int k, int& la, int& lb) { la = 16 * k + l / 16; lb = 16 * k + l % 4; }, 11});
}
