// Numerics the hardware defines exactly, checked against independent CPU
// references: v_fma_mix* with f32 and f16 sources (op_sel_hi), f32 division and
// square root over denormal / infinite / NaN / zero operands. The references use
// MPFR (correct rounding at the target precision, with subnormals), an
// implementation independent of the simulator's own rounding code.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <cmath>
#include <cstdlib>
#include <random>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;

namespace {

const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};

uint32_t test_seed() {
  const char* s = std::getenv("CDNAJIT_TEST_SEED");
  uint32_t seed = s ? uint32_t(std::strtoul(s, nullptr, 0)) : 20261126u;
  return seed;
}

// Independent oracle: an exact MPFR value rounded to nearest-even at `prec` bits
// with quantum at least 2^min_q (subnormals), overflowing to infinity at 2^max_e.
// Written plainly from the IEEE 754 definition; shares nothing with the simulator.
double ref_round(const mpfr_t exact, int prec, int min_q, int max_e) {
  if (mpfr_nan_p(exact)) return NAN;
  if (mpfr_inf_p(exact) || mpfr_zero_p(exact)) return mpfr_get_d(exact, MPFR_RNDN);
  long e = mpfr_get_exp(exact);  // |exact| in [2^(e-1), 2^e)
  long q = std::max<long>(e - prec, min_q);
  mpfr_t t;
  mpfr_init2(t, 800);
  mpfr_mul_2si(t, exact, -q, MPFR_RNDN);  // exact
  mpfr_rint(t, t, MPFR_RNDN);             // ties to even
  mpfr_mul_2si(t, t, q, MPFR_RNDN);
  double r = mpfr_zero_p(t) ? (mpfr_signbit(exact) ? -0.0 : 0.0) : mpfr_get_d(t, MPFR_RNDN);
  mpfr_clear(t);
  if (std::fabs(r) >= std::ldexp(1.0, max_e)) r = std::copysign(INFINITY, r);
  return r;
}

// x * y + z for f32 inputs, exact, then rounded once to binary16 (11 bits, quantum >= 2^-24, max < 2^16).
uint16_t ref_fma_to_f16(float x, float y, float z) {
  if (std::isnan(x) || std::isnan(y) || std::isnan(z)) return 0x7e00;
  mpfr_t a, b, c, p;
  mpfr_inits2(800, a, b, c, p, (mpfr_ptr)0);
  mpfr_set_flt(a, x, MPFR_RNDN);
  mpfr_set_flt(b, y, MPFR_RNDN);
  mpfr_set_flt(c, z, MPFR_RNDN);
  mpfr_fma(p, a, b, c, MPFR_RNDN);  // exact at 800 bits for f32 operands
  // v_fma_mixlo_f16 rounds twice: the fma to f32, then that f32 to f16 (CDNA3 ISA guide pseudo-code,
  // f32_to_f16(fma(in[0], in[1], in[2])) over 32'F inputs; LLVM treats it as fptrunc(fma f32)).
  mpfr_set_d(p, ref_round(p, 24, -149, 128), MPFR_RNDN);
  double r = ref_round(p, 11, -24, 16);
  mpfr_clears(a, b, c, p, (mpfr_ptr)0);
  _Float16 h = static_cast<_Float16>(r);  // exact: r is a binary16 value, inf or NaN
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}

bool f16_is_nan(uint32_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
bool f32_is_nan(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu); }

std::string hex32(uint32_t u) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", u);
  return b;
}

// Float with a random 24-bit significand and exponent in [lo, hi] (may be subnormal when lo < -126).
float rand_float(std::mt19937& g, int lo, int hi) {
  std::uniform_int_distribution<int> ed(lo, hi);
  std::uniform_int_distribution<uint32_t> md(0, (1u << 23) - 1);
  float v = std::ldexp(1.0f + float(md(g)) / float(1u << 23), ed(g));
  return (g() & 1) ? -v : v;
}

void require_same_bits(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want,
                       const std::vector<std::string>& what) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0;
  std::string first;  // up to 8 mismatches, each with its operands
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && ++bad <= 24)
      first += "\n  [" + std::to_string(i) + "] " + what[i] + ": got " + hex32(got[i]) + " want " + hex32(want[i]);
  INFO("mismatches: " << bad << first);
  REQUIRE(bad == 0);
}

}  // namespace

TEST_CASE("v_fma_mixlo_f16 with f32 sources: (half)(x * s) and (half)(x * s + y), rounded to f32 then to f16", "[sim][numerics][mix]") {
  const char* src = R"(
extern "C" __global__ void mix(const float* x, float s, _Float16* o, const float* y) {
  unsigned i = bid() * 64 + tid();
  o[i] = (_Float16)(x[i] * s);
  o[i + 256] = (_Float16)(x[i] * s + y[i]);
})";
  uint32_t seed = test_seed();
  INFO("seed " << seed << " (CDNAJIT_TEST_SEED)");
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    std::string dis = dev.sim.disassemble(co, "mix");
    INFO(dis);
    REQUIRE(dis.find("v_fma_mixlo_f16") != std::string::npos);  // the instruction under test is really emitted
    const int n = 256;
    std::mt19937 g(seed);
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = rand_float(g, -30, 14);
      y[i] = rand_float(g, -26, 14);
    }
    // Special operands: f16 overflow, subnormal f16 results, ties at f16 precision, zero, inf, NaN.
    x[0] = 65504.0f; x[1] = 70000.0f; x[2] = 3e-6f; x[3] = 1.0f + 1.0f / 2048; x[4] = 1.0f + 3.0f / 2048;
    x[5] = 0.0f; x[6] = INFINITY; x[7] = NAN; x[8] = -6e-8f; x[9] = 1e-10f;
    const float s = 1.0f;
    uint64_t dx = dev.upload(x, "x"), dy = dev.upload(y, "y"), dout = dev.upload(std::vector<uint16_t>(2 * n), "o");
    dev.run(co, "mix", ArgPack().add(dx).add(s).add(dout).add(dy), dims1(n / 64, 64));
    auto out = dev.download<uint16_t>(dout, 2 * n);
    std::vector<uint32_t> got(2 * n), want(2 * n);
    std::vector<std::string> what(2 * n);
    for (int i = 0; i < n; ++i) {
      got[i] = out[i];
      want[i] = ref_fma_to_f16(x[i], s, 0.0f);
      got[n + i] = out[n + i];
      want[n + i] = ref_fma_to_f16(x[i], s, y[i]);
      what[i] = "x*s, x=" + std::to_string(x[i]);
      what[n + i] = "x*s+y, x=" + std::to_string(x[i]) + " y=" + std::to_string(y[i]);
      for (int j : {i, n + i})  // NaN payloads are not compared: any NaN matches any NaN
        if (f16_is_nan(want[j]) && f16_is_nan(got[j])) got[j] = want[j];
    }
    INFO("arch " << cdnajit::arch_name(arch));
    require_same_bits(got, want, what);
  }
}

TEST_CASE("f32 a / b and sqrtf over denormal, infinite, NaN and zero operands are correctly rounded", "[sim][numerics][div]") {
  const char* src = R"(
extern "C" __global__ void fdiv(const float* a, const float* b, float* q, float* r) {
  unsigned i = bid() * 64 + tid();
  q[i] = a[i] / b[i];
  r[i] = __builtin_sqrtf(a[i]);
})";
  uint32_t seed = test_seed();
  INFO("seed " << seed << " (CDNAJIT_TEST_SEED)");
  const int n = 1024;
  std::mt19937 g(seed);
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    switch (i % 4) {
      case 0:  // quotient in the denormal range [2^-150, 2^-126)
        b[i] = rand_float(g, -20, 100);
        a[i] = b[i] * std::ldexp(1.0f, -60) * std::ldexp(1.0f + float(g() % 1000) / 1000.0f, -70 - int(g() % 20));
        if (a[i] == 0) a[i] = std::ldexp(1.0f, -149);
        break;
      case 1:  // denormal numerator or denominator
        a[i] = rand_float(g, -149, -127);
        b[i] = rand_float(g, -30, 30);
        if (g() & 1) std::swap(a[i], b[i]);
        break;
      case 2:  // huge quotients and huge denominators (exponent gap >= 96, 1/b below 2^-126)
        a[i] = rand_float(g, 60, 127);
        b[i] = rand_float(g, -40, 127);
        break;
      default:  // anything
        a[i] = rand_float(g, -149, 127);
        b[i] = rand_float(g, -149, 127);
    }
  }
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-45f, -1e-45f, 1.17549435e-38f, 3.4028235e38f, 1.0f, -3.0f};
  int k = 0;
  for (float x : specials)
    for (float y : specials) { a[k] = x; b[k] = y; ++k; }
  for (Arch arch : kArchs) {
    INFO("arch " << cdnajit::arch_name(arch));
    Device dev(arch);
    auto co = load_hip(src, arch);
    std::string dis = dev.sim.disassemble(co, "fdiv");
    REQUIRE(dis.find("v_div_fmas_f32") != std::string::npos);
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b");
    uint64_t dq = dev.upload(std::vector<float>(n), "q"), dr = dev.upload(std::vector<float>(n), "r");
    dev.run(co, "fdiv", ArgPack().add(da).add(db).add(dq).add(dr), dims1(n / 64, 64));
    auto q = dev.download<uint32_t>(dq, n), r = dev.download<uint32_t>(dr, n);
    std::vector<uint32_t> got, want;
    std::vector<std::string> what;
    for (int i = 0; i < n; ++i) {
      // The host's IEEE division and square root are correctly rounded (x86 SSE, denormals kept).
      uint32_t wq = bits(a[i] / b[i]), wr = bits(std::sqrt(a[i]));
      got.push_back(f32_is_nan(wq) && f32_is_nan(q[i]) ? wq : q[i]);
      want.push_back(wq);
      what.push_back("a / b, a=" + hex32(bits(a[i])) + " b=" + hex32(bits(b[i])));
      got.push_back(f32_is_nan(wr) && f32_is_nan(r[i]) ? wr : r[i]);
      want.push_back(wr);
      what.push_back("sqrt(a), a=" + hex32(bits(a[i])));
    }
    require_same_bits(got, want, what);
  }
}

TEST_CASE("f64 a / b with subnormal and overflowing quotients is correctly rounded", "[sim][numerics][div]") {
  const char* src = R"(
extern "C" __global__ void ddiv(const double* a, const double* b, double* q) {
  unsigned i = bid() * 64 + tid();
  q[i] = a[i] / b[i];
})";
  uint32_t seed = test_seed();
  INFO("seed " << seed << " (CDNAJIT_TEST_SEED)");
  const int n = 512;
  std::mt19937_64 g(seed);
  std::vector<double> a(n), b(n);
  auto rnd = [&](int lo, int hi) {
    double m = 1.0 + double(g() >> 12) / double(1ull << 52);
    double v = std::ldexp(m, lo + int(g() % uint64_t(hi - lo + 1)));
    return (g() & 1) ? -v : v;
  };
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0) {  // quotient in the subnormal range
      b[i] = rnd(-100, 900);
      a[i] = b[i] * std::ldexp(1.0 + double(g() % 1000) / 1000.0, -1023 - int(g() % 50));
      if (a[i] == 0) a[i] = 4.9e-324;
    } else {
      a[i] = rnd(-1074, 1023);
      b[i] = rnd(-1074, 1023);
    }
  }
  a[1] = 1.7976931348623157e308; b[1] = 4.9e-324;
  a[3] = 1.0; b[3] = 1.7976931348623157e308;
  a[5] = 0.0; b[5] = -0.0;
  a[7] = INFINITY; b[7] = 3.0;
  for (Arch arch : kArchs) {
    INFO("arch " << cdnajit::arch_name(arch));
    Device dev(arch);
    auto co = load_hip(src, arch);
    REQUIRE(dev.sim.disassemble(co, "ddiv").find("v_div_fmas_f64") != std::string::npos);
    uint64_t da = dev.upload(a, "a"), db = dev.upload(b, "b"), dq = dev.upload(std::vector<double>(n), "q");
    dev.run(co, "ddiv", ArgPack().add(da).add(db).add(dq), dims1(n / 64, 64));
    auto q = dev.download<uint64_t>(dq, n);
    size_t bad = 0;
    std::string first;
    for (int i = 0; i < n; ++i) {
      double w = a[i] / b[i];
      uint64_t wb;
      std::memcpy(&wb, &w, 8);
      double gq;
      std::memcpy(&gq, &q[i], 8);
      bool same = q[i] == wb || (std::isnan(w) && std::isnan(gq));
      if (!same && ++bad <= 8)
        first += "\n  [" + std::to_string(i) + "] " + std::to_string(a[i]) + " / " + std::to_string(b[i]) + " got " +
                 std::to_string(gq) + " want " + std::to_string(w);
    }
    INFO("mismatches: " << bad << first);
    REQUIRE(bad == 0);
  }
}

namespace {
// Hardware rule for a raw buffer (stride 0): dword c of an access at byte offset `off` is
// in range iff off + 4c + 4 <= num_records; a sub-dword access iff off + size <= num_records.
bool raw_in_range(uint32_t off, uint32_t size, uint32_t num_records) { return off + size <= num_records; }
}  // namespace

TEST_CASE("raw buffer loads and stores straddling num_records: zeros in, stores dropped, per dword", "[sim][numerics][buffer]") {
  const char* src = R"(
typedef __amdgpu_buffer_rsrc_t rsrc_t;
typedef int v2i __attribute__((ext_vector_type(2)));
typedef int v4i __attribute__((ext_vector_type(4)));
extern "C" __global__ void rawbuf(int* p, int nrec, int* out, int* dst) {
  unsigned t = tid();
  rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(p, 0, nrec, 0x00020000);
  int a = __builtin_amdgcn_raw_buffer_load_b32(r, t * 4, 0, 0);
  v2i b = __builtin_amdgcn_raw_buffer_load_b64(r, t * 8, 0, 0);
  v4i c = __builtin_amdgcn_raw_buffer_load_b128(r, t * 16, 0, 0);
  int* o = out + t * 8;
  o[0] = a; o[1] = b.x; o[2] = b.y; o[3] = c.x; o[4] = c.y; o[5] = c.z; o[6] = c.w;
  o[7] = __builtin_amdgcn_raw_buffer_load_b16(r, t * 4 + 2, 0, 0);
  rsrc_t d = __builtin_amdgcn_make_buffer_rsrc(dst, 0, nrec, 0x00020000);
  v2i s = {int(t), int(~t)};
  __builtin_amdgcn_raw_buffer_store_b64(s, d, t * 8, 0, 0);
  __builtin_amdgcn_raw_buffer_store_b32(int(t) + 1000, d, t * 4 + 128, 0, 0);
})";
  for (Arch arch : kArchs) {
    INFO("arch " << cdnajit::arch_name(arch));
    Device dev(arch);
    auto co = load_hip(src, arch);
    std::string dis = dev.sim.disassemble(co, "rawbuf");
    for (const char* m : {"buffer_load_dwordx2", "buffer_load_dwordx4", "buffer_load_dword ", "buffer_load_ushort",
                          "buffer_store_dwordx2", "buffer_store_dword "})
      REQUIRE(dis.find(m) != std::string::npos);
    for (uint32_t nrec : {252u, 250u, 256u, 0u}) {
      INFO("num_records " << nrec);
      std::vector<int> src_data(1024), dst_init(1024, -7);
      for (int i = 0; i < 1024; ++i) src_data[i] = 0x1000 + i;
      uint64_t dp = dev.upload(src_data, "p"), dout = dev.upload(std::vector<int>(512, -1), "out"),
               dd = dev.upload(dst_init, "dst");
      dev.run(co, "rawbuf", ArgPack().add(dp).add(int(nrec)).add(dout).add(dd), dims1(1, 64));
      auto out = dev.download<int>(dout, 512), dst = dev.download<int>(dd, 1024);
      std::vector<uint32_t> got, want;
      std::vector<std::string> what;
      auto load = [&](uint32_t byte) { return raw_in_range(byte, 4, nrec) ? src_data[byte / 4] : 0; };
      for (uint32_t t = 0; t < 64; ++t) {
        int w[8] = {load(4 * t), load(8 * t), load(8 * t + 4), load(16 * t), load(16 * t + 4), load(16 * t + 8),
                    load(16 * t + 12), raw_in_range(4 * t + 2, 2, nrec) ? (src_data[t] >> 16) & 0xffff : 0};
        for (int k = 0; k < 8; ++k) {
          got.push_back(uint32_t(out[t * 8 + k]));
          want.push_back(uint32_t(w[k]));
          what.push_back("lane " + std::to_string(t) + " load " + std::to_string(k));
        }
      }
      for (uint32_t i = 0; i < 1024; ++i) {
        int w = -7;
        if (i < 128 && raw_in_range(4 * i, 4, nrec)) w = (i % 2 == 0) ? int(i / 2) : ~int(i / 2);
        if (i >= 32 && i < 96 && raw_in_range(4 * i, 4, nrec)) w = int(i - 32) + 1000;
        got.push_back(uint32_t(dst[i]));
        want.push_back(uint32_t(w));
        what.push_back("dst dword " + std::to_string(i));
      }
      require_same_bits(got, want, what);
    }
  }
}

TEST_CASE("s_trap stops the launch with the trap id and where it was raised", "[sim][trap]") {
  const char* src = R"(
extern "C" __global__ void trapk(const int* x, int* y) {
  unsigned i = tid();
  if (x[i] == 7) __builtin_trap();
  y[i] = x[i] + 1;
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    REQUIRE(dev.sim.disassemble(co, "trapk").find("s_trap 2") != std::string::npos);
    std::vector<int> x(64);
    for (int i = 0; i < 64; ++i) x[i] = i;
    uint64_t dx = dev.upload(x, "x"), dy = dev.upload(std::vector<int>(64), "y");
    std::string msg;
    try {
      dev.run(co, "trapk", ArgPack().add(dx).add(dy), dims1(1, 64));
    } catch (const cdnajit::Error& e) {
      msg = e.what();
    }
    CHECK_THAT(msg, Catch::Matchers::Contains("trap raised: s_trap 2") && Catch::Matchers::Contains("kernel trapk") &&
                        Catch::Matchers::Contains("pc 0x") && Catch::Matchers::Contains("EXEC 0x80"));
    // Without the trapping value the kernel runs to the end.
    x[7] = 70;
    dx = dev.upload(x, "x2");
    dev.run(co, "trapk", ArgPack().add(dx).add(dy), dims1(1, 64));
    CHECK(dev.download<int>(dy, 64)[7] == 71);
  }
}

namespace {
// Independent decoding of an 8-bit float code from the format definitions: FNUZ on gfx942
// (E4M3 bias 8, E5M2 bias 16, 0x80 the only NaN, no infinities), OCP on gfx950 (E4M3FN bias 7,
// S.1111.111 NaN, no infinities; E5M2 bias 15, exponent 31 = inf (m = 0) or NaN).
double ref_fp8(unsigned code, bool e5m2, bool fnuz) {
  const int mb = e5m2 ? 2 : 3, eb = e5m2 ? 5 : 4;
  const int bias = fnuz ? (e5m2 ? 16 : 8) : (e5m2 ? 15 : 7);
  const unsigned exp = (code >> mb) & ((1u << eb) - 1), man = code & ((1u << mb) - 1);
  const double sign = (code & 0x80) ? -1.0 : 1.0;
  if (fnuz && code == 0x80) return NAN;
  if (!fnuz && e5m2 && exp == 31) return man ? NAN : sign * INFINITY;
  if (!fnuz && !e5m2 && exp == 15 && man == 7) return NAN;
  double frac = double(man) / double(1u << mb);
  return exp == 0 ? sign * frac * std::pow(2.0, 1 - bias) : sign * (1.0 + frac) * std::pow(2.0, int(exp) - bias);
}
}  // namespace

TEST_CASE("fp8 / bf8 to f32 conversions on all 256 codes: FNUZ on gfx942, OCP on gfx950", "[sim][numerics][fp8]") {
  const char* src = R"(
typedef float float2_ __attribute__((ext_vector_type(2)));
extern "C" __global__ void cvt(const int* x, float* o) {
  unsigned i = tid();
  int v = x[i];
  float* p = o + i * 12;
  p[0] = __builtin_amdgcn_cvt_f32_fp8(v, 0);
  p[1] = __builtin_amdgcn_cvt_f32_fp8(v, 1);
  p[2] = __builtin_amdgcn_cvt_f32_fp8(v, 2);
  p[3] = __builtin_amdgcn_cvt_f32_fp8(v, 3);
  p[4] = __builtin_amdgcn_cvt_f32_bf8(v, 0);
  p[5] = __builtin_amdgcn_cvt_f32_bf8(v, 3);
  float2_ q = __builtin_amdgcn_cvt_pk_f32_fp8(v, false);
  float2_ r = __builtin_amdgcn_cvt_pk_f32_bf8(v, true);
  p[6] = q.x; p[7] = q.y; p[8] = r.x; p[9] = r.y;
})";
  for (Arch arch : kArchs) {
    INFO("arch " << cdnajit::arch_name(arch));
    const bool fnuz = arch == Arch::gfx942;
    Device dev(arch);
    auto co = load_hip(src, arch);
    std::string dis = dev.sim.disassemble(co, "cvt");
    for (const char* m : {"v_cvt_f32_fp8", "v_cvt_f32_bf8", "v_cvt_pk_f32_fp8", "v_cvt_pk_f32_bf8_sdwa"})
      REQUIRE(dis.find(m) != std::string::npos);
    REQUIRE(dis.find("<not implemented>") == std::string::npos);
    REQUIRE(dis.find("<private parser>") == std::string::npos);  // decoded through the ISA table's rows
    // Lane t of launch k holds the codes 4t+0..3 (k = 0) and their rotations, so every code
    // passes through every byte position of every form.
    std::vector<uint32_t> got, want;
    std::vector<std::string> what;
    for (int rot = 0; rot < 4; ++rot) {
      std::vector<int> x(64);
      for (unsigned t = 0; t < 64; ++t) {
        uint32_t w = 0;
        for (unsigned b = 0; b < 4; ++b) w |= ((4 * t + (b + rot) % 4) & 0xff) << (8 * b);
        x[t] = int(w);
      }
      uint64_t dx = dev.upload(x, "x"), dout = dev.upload(std::vector<float>(64 * 12), "o");
      dev.run(co, "cvt", ArgPack().add(dx).add(dout), dims1(1, 64));
      auto o = dev.download<uint32_t>(dout, 64 * 12);
      for (unsigned t = 0; t < 64; ++t) {
        uint32_t w = uint32_t(x[t]);
        auto byte = [&](int b) { return (w >> (8 * b)) & 0xff; };
        const struct { int slot, byte; bool e5m2; } checks[] = {{0, 0, false}, {1, 1, false}, {2, 2, false}, {3, 3, false},
                                                                 {4, 0, true},  {5, 3, true},  {6, 0, false}, {7, 1, false},
                                                                 {8, 2, true},  {9, 3, true}};
        for (const auto& c : checks) {
          double v = ref_fp8(byte(c.byte), c.e5m2, fnuz);
          uint32_t g = o[t * 12 + c.slot];
          uint32_t wv = std::isnan(v) ? 0x7fc00000u : bits(float(v));
          if (std::isnan(v) && f32_is_nan(g)) g = wv;  // NaN payloads are not compared
          got.push_back(g);
          want.push_back(wv);
          what.push_back(std::string(c.e5m2 ? "bf8" : "fp8") + " code " + std::to_string(byte(c.byte)) + " slot " +
                         std::to_string(c.slot));
        }
      }
    }
    require_same_bits(got, want, what);
  }
}
