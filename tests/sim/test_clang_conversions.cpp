// Conversions clang-22 compiles from plain C++ casts (f32 <-> f16, f32 <-> bf16 (gfx950:
// v_cvt_pk_bf16_f32; gfx942: an integer sequence), packed pairs, f32 / f64 -> i32 / u32 with
// truncation, rint / floor / ceil / round, i32 / u32 -> f32 / f64, f32 <-> f64, f64 -> f16 / bf16,
// f16 <-> i32, f16 -> f64,
// f16 / bf16 -> f32) on gfx942 and gfx950, over special values (+-0, +-denormal min / max, +-inf,
// quiet and signalling NaN, max finite, ties at every target precision, saturation edges) and a
// seeded random sweep (CDNAJIT_TEST_SEED, printed), bit-exact against an oracle written here.
// fp8 / bf8 conversions have their own tests (test_fp8_convert.cpp, test_numerics.cpp,
// test_scalef32_convert.cpp).
//
// Oracle: a deliberate independent re-implementation of IEEE 754 round-to-nearest-even (scale by a
// power of two, std::nearbyint in the default rounding mode, scale back; subnormals by a floor on the
// quantum; overflow to infinity) and of the ISA guide's float -> integer rule (truncate, saturate
// to the integer range, NaN -> 0: CDNA3 ISA guide, V_CVT_I32_F32 / V_CVT_U32_F32 / V_CVT_I32_F64 /
// V_CVT_U32_F64), with its own bit encoders; it shares no code with the simulator. NaN results are
// compared as "any NaN" (the NaN payload the hardware returns is not documented).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "tests/sim/ieee_oracle.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace simtest;
using cdnajit::Arch;
using namespace ieee_oracle;

namespace {

const char* kSrc = R"(
typedef _Float16 h2 __attribute__((ext_vector_type(2)));
typedef __bf16 y2 __attribute__((ext_vector_type(2)));
static __device__ inline unsigned hb(_Float16 h) { return __builtin_bit_cast(unsigned short, h); }
static __device__ inline unsigned yb(__bf16 h) { return __builtin_bit_cast(unsigned short, h); }
static __device__ inline unsigned fb(float f) { return __builtin_bit_cast(unsigned, f); }
extern "C" __global__ void cvt32(const unsigned* xin, const unsigned short* hin, unsigned* o, unsigned long long* o64) {
  unsigned i = bid() * 64 + tid();
  float x = __builtin_bit_cast(float, xin[i]), x2 = __builtin_bit_cast(float, xin[i ^ 1]);
  unsigned* p = o + i * 16;
  p[0] = hb((_Float16)x);
  p[1] = yb((__bf16)x);
  p[2] = (unsigned)(int)x;
  p[3] = (unsigned)x;
  p[4] = (unsigned)(int)__builtin_rintf(x);
  p[5] = (unsigned)(int)__builtin_floorf(x);
  p[6] = (unsigned)(int)__builtin_ceilf(x);
  p[7] = fb(__builtin_roundf(x));
  p[8] = fb((float)(int)xin[i]);
  p[9] = fb((float)xin[i]);
  h2 ph = {(_Float16)x, (_Float16)x2};
  y2 py = {(__bf16)x, (__bf16)x2};
  p[10] = __builtin_bit_cast(unsigned, ph);
  p[11] = __builtin_bit_cast(unsigned, py);
  p[12] = fb((float)__builtin_bit_cast(_Float16, hin[i]));
  p[13] = fb((float)__builtin_bit_cast(__bf16, hin[i]));
  p[14] = (unsigned)(int)__builtin_bit_cast(_Float16, hin[i]);
  p[15] = hb((_Float16)(int)xin[i]);
  unsigned long long* q = o64 + i * 4;
  q[0] = __builtin_bit_cast(unsigned long long, (double)x);
  q[1] = __builtin_bit_cast(unsigned long long, (double)(int)xin[i]);
  q[2] = __builtin_bit_cast(unsigned long long, (double)xin[i]);
  q[3] = __builtin_bit_cast(unsigned long long, (double)__builtin_bit_cast(_Float16, hin[i]));
}
extern "C" __global__ void cvt64(const unsigned long long* yin, unsigned* o) {
  unsigned i = bid() * 64 + tid();
  double y = __builtin_bit_cast(double, yin[i]);
  unsigned* p = o + i * 8;
  p[0] = fb((float)y);
  p[1] = (unsigned)(int)y;
  p[2] = (unsigned)y;
  p[3] = hb((_Float16)y);
  p[4] = yb((__bf16)y);
  p[5] = (unsigned)(int)__builtin_rint(y);
  p[6] = (unsigned)(int)__builtin_floor(y);
}
)";
const int kOut32 = 16, kOut64 = 4, kOutD = 8;

double fval(uint32_t u) { return double(simtest::flt(u)); }

}  // namespace

TEST_CASE("clang-compiled conversions over special values and a random sweep are bit-exact", "[sim][numerics][convert]") {
  std::string why;
  if (!load_hip_or_skip(kSrc, Arch::gfx942, why)) CDNAJIT_SKIP(why);
  const uint64_t seed = cdnajit::test::test_seed("test_clang_conversions", 20261126u);
  std::mt19937_64 g(seed);
  const int n = 1024;
  // f32 inputs (also read as int32 / uint32): specials first, then random bit patterns.
  const uint32_t x_special[] = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,  // zeros, denormals, min normal
      0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fa00000, 0x7f7fffff, 0xff7fffff,
      0x3f801000, 0x3f803000, 0x3f801001, 0x477fe000, 0x477fefff, 0x477ff000, 0xc77ff000,  // f16 ties, overflow edge
      0x33000000, 0x33000001, 0x33400000, 0x33800000, 0x38800000, 0x387fc000, 0x387fe000, 0xb3400000,  // f16 subnormal ties
      0x3f808000, 0x3f818000, 0x3f808001, 0x7f7f8000, 0x7f7f7fff, 0x00008000, 0x00018000, 0x80018000,  // bf16 ties
      0x3f000000, 0x3fc00000, 0x40200000, 0xbf000000, 0xbfc00000, 0xc0200000, 0x3f7fffff, 0xbf800000, 0xbf7fffff,  // int rounding
      0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001, 0x4f7fffff, 0x4f800000, 0xcb000001,  // int saturation edges
      0x7fffffff, 0x80000001, 0xffffffff, 0x01000001, 0x01000003, 0xfeffffff, 0x7fffffbf, 0x7fffffc0,  // as ints: f32 ties
      0xffffff80, 0xffffff7f, 0x00ffffff, 0x4b000001, 0x4b7fffff, 0x4b800001};
  std::vector<uint32_t> xin(n);
  for (int i = 0; i < n; ++i) xin[size_t(i)] = i < int(std::size(x_special)) ? x_special[i] : uint32_t(g());
  // Random f32 values in the integer range too (the raw patterns are mostly huge or tiny).
  for (int i = 512; i < 768; ++i) xin[size_t(i)] = simtest::bits(std::ldexp(float(int64_t(g() % 2000001) - 1000000), int(g() % 40) - 20));
  // 16-bit inputs read as f16 and as bf16.
  const uint16_t h_special[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
                                0x7e00, 0xfe00, 0x7c01, 0x7d00, 0x3c00, 0x3555, 0x0080, 0x007f, 0x7f7f, 0x7f80, 0xff80,
                                0x7fc0, 0x7f81, 0xffc1, 0x8080};
  std::vector<uint16_t> hin(n);
  for (int i = 0; i < n; ++i) hin[size_t(i)] = i < int(std::size(h_special)) ? h_special[i] : uint16_t(g());
  // f64 inputs: specials, then random patterns and random values in the integer range.
  const uint64_t y_special[] = {
      0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001, 0x000fffffffffffff, 0x0010000000000000,
      0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0x7ff4000000000000,
      0x7fefffffffffffff, 0xffefffffffffffff,
      0x3ff0000010000000, 0x3ff0000030000000, 0x3ff0000010000001, 0x47efffffe0000000, 0x47efffffdfffffff,  // f32 ties, overflow edge
      0x3690000000000000, 0x36a8000000000000, 0x3690000000000001, 0x380fffffe0000000, 0x3810000000000000,  // f32 subnormal ties
      0x3ff0020000000000, 0x3ff0020000000001, 0x3ff0060000000000, 0x40effe0000000000, 0x40effdffffffffff,  // f16 ties (double-rounding traps)
      0x3e70000000000000, 0x3e70000000000001, 0x3e78000000000000,                                          // f16 subnormal ties
      0x3ff0100000000000, 0x3ff0100000000001, 0x3ff0300000000000, 0x47efe00000000000,                    // bf16 ties
      0x41dfffffffffffff, 0x41dfffffffc00000, 0x41e0000000000000, 0xc1e0000000000000, 0xc1e0000000200000,  // int32 edges
      0xc1e00000001fffff, 0x41efffffffe00000, 0x41effffffff00000, 0x41f0000000000000, 0xbfeccccccccccccd,  // uint32 edges, -0.9
      0x3fe0000000000000, 0x3ff8000000000000, 0x4004000000000000, 0xc004000000000000, 0xbff0000000000000};
  std::vector<uint64_t> yin(n);
  for (int i = 0; i < n; ++i) yin[size_t(i)] = i < int(std::size(y_special)) ? y_special[i] : g();
  for (int i = 512; i < 768; ++i) yin[size_t(i)] = dbits(std::ldexp(double(int64_t(g() % 2000000001) - 1000000000), int(g() % 40) - 16));
  for (int i = 768; i < 896; ++i) yin[size_t(i)] = dbits(std::ldexp(1.0 + double(g() >> 12) / 0x1p52, int(g() % 300) - 150));
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO("arch " << cdnajit::arch_name(arch));
    auto co = load_hip(kSrc, arch);
    Device dev(arch);
    const std::string dis = dev.sim.disassemble(co, "cvt32") + dev.sim.disassemble(co, "cvt64");
    REQUIRE(dis.find("<not implemented>") == std::string::npos);
    for (const char* m : {"v_cvt_f16_f32", "v_cvt_i32_f32", "v_cvt_u32_f32", "v_cvt_f32_i32", "v_cvt_f32_u32", "v_cvt_f64_f32",
                          "v_cvt_f32_f64", "v_cvt_i32_f64", "v_cvt_u32_f64", "v_cvt_f64_i32", "v_cvt_f64_u32", "v_cvt_f32_f16"}) {
      INFO(m);
      CHECK(dis.find(m) != std::string::npos);
    }
    if (arch == Arch::gfx950) CHECK(dis.find("v_cvt_pk_bf16_f32") != std::string::npos);
    uint64_t dx = dev.upload(xin), dh = dev.upload(hin), dy = dev.upload(yin);
    uint64_t do32 = dev.upload(std::vector<uint32_t>(size_t(n) * kOut32)), do64 = dev.upload(std::vector<uint64_t>(size_t(n) * kOut64));
    uint64_t dod = dev.upload(std::vector<uint32_t>(size_t(n) * kOutD));
    dev.run(co, "cvt32", ArgPack().add(dx).add(dh).add(do32).add(do64), dims1(n / 64, 64));
    dev.run(co, "cvt64", ArgPack().add(dy).add(dod), dims1(n / 64, 64));
    auto o32 = dev.download<uint32_t>(do32, size_t(n) * kOut32);
    auto o64 = dev.download<uint64_t>(do64, size_t(n) * kOut64);
    auto od = dev.download<uint32_t>(dod, size_t(n) * kOutD);
    Tally t;
    for (int i = 0; i < n; ++i) {
      const uint32_t xb = xin[size_t(i)], x2b = xin[size_t(i ^ 1)];
      const double x = fval(xb), x2 = fval(x2b);
      const uint32_t* p = &o32[size_t(i) * kOut32];
      const std::string xs = " of f32 " + hex(xb);
      t.check(p[0], encode(round_to(x, kF16), kF16), &kF16, "(half)x" + xs);
      t.check(p[1], encode(round_to(x, kBF16), kBF16), &kBF16, "(bf16)x" + xs);
      t.check(p[2], to_int(x, true), nullptr, "(int)x" + xs);
      t.check(p[3], to_int(x, false), nullptr, "(unsigned)x" + xs);
      t.check(p[4], to_int(std::nearbyint(x), true), nullptr, "(int)rintf(x)" + xs);
      t.check(p[5], to_int(std::floor(x), true), nullptr, "(int)floorf(x)" + xs);
      t.check(p[6], to_int(std::ceil(x), true), nullptr, "(int)ceilf(x)" + xs);
      t.check(p[7], encode(std::isnan(x) ? x : std::round(x), kF32), &kF32, "roundf(x)" + xs);  // half away from zero, exact
      t.check(p[8], encode(round_to(double(int32_t(xb)), kF32), kF32), nullptr, "(float)(int)" + hex(xb));
      t.check(p[9], encode(round_to(double(xb), kF32), kF32), nullptr, "(float)(unsigned)" + hex(xb));
      t.check(p[10] & 0xffff, encode(round_to(x, kF16), kF16), &kF16, "half2 pair, low" + xs);
      t.check(p[10] >> 16, encode(round_to(x2, kF16), kF16), &kF16, "half2 pair, high, of f32 " + hex(x2b));
      t.check(p[11] & 0xffff, encode(round_to(x, kBF16), kBF16), &kBF16, "bf16x2 pair, low" + xs);
      t.check(p[11] >> 16, encode(round_to(x2, kBF16), kBF16), &kBF16, "bf16x2 pair, high, of f32 " + hex(x2b));
      const uint16_t hb = hin[size_t(i)];
      t.check(p[12], encode(decode(hb, kF16), kF32), &kF32, "(float)half " + hex(hb));
      t.check(p[13], encode(decode(hb, kBF16), kF32), &kF32, "(float)bf16 " + hex(hb));
      t.check(p[14], to_int(decode(hb, kF16), true), nullptr, "(int)half " + hex(hb));
      t.check(p[15], encode(round_to(double(int32_t(xb)), kF16), kF16), nullptr, "(half)(int)" + hex(xb));
      const uint64_t* q = &o64[size_t(i) * kOut64];
      t.check(q[0], std::isnan(x) ? dbits(NAN) : dbits(x), &kF64, "(double)x" + xs);
      t.check(q[1], dbits(double(int32_t(xb))), nullptr, "(double)(int)" + hex(xb));
      t.check(q[2], dbits(double(xb)), nullptr, "(double)(unsigned)" + hex(xb));
      t.check(q[3], std::isnan(decode(hb, kF16)) ? dbits(NAN) : dbits(decode(hb, kF16)), &kF64, "(double)half " + hex(hb));
      const uint64_t yb = yin[size_t(i)];
      const double y = dval(yb);
      const uint32_t* d = &od[size_t(i) * kOutD];
      const std::string ys = " of f64 " + hex(yb);
      t.check(d[0], encode(round_to(y, kF32), kF32), &kF32, "(float)y" + ys);
      t.check(d[1], to_int(y, true), nullptr, "(int)y" + ys);
      t.check(d[2], to_int(y, false), nullptr, "(unsigned)y" + ys);
      t.check(d[3], encode(round_to(y, kF16), kF16), &kF16, "(half)y" + ys);
      t.check(d[4], encode(round_to(y, kBF16), kBF16), &kBF16, "(bf16)y" + ys);
      t.check(d[5], to_int(std::nearbyint(y), true), nullptr, "(int)rint(y)" + ys);
      t.check(d[6], to_int(std::floor(y), true), nullptr, "(int)floor(y)" + ys);
    }
    INFO("checked " << t.checked << ", mismatches " << t.bad << t.first);
    CHECK(t.bad == 0);
  }
}
