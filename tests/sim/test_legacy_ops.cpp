// Semantics of ops_valu_legacy.cpp, ops_lds_ext.cpp and the VOP3P integer dots, on the simulator
// against CPU computations written here (deliberate re-implementations from the ISA guides'
// descriptions, or the host's IEEE arithmetic), first in hand-written kernels over 64 lanes with
// special values, then through clang-compiled HIP kernels where clang emits the instruction
// (f16 division -> v_div_fixup_f16, __builtin_amdgcn_cvt_pknorm_{i16,u16}, cvt_pk_u8_f32,
// trig_preop, ds_append / ds_consume). The 2/pi bits of the v_trig_preop_f64 oracle come from
// MPFR here, independently of the simulator's table.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "jit/isa/error.hpp"
#include "tests/sim/ext_harness.hpp"
#include "tests/sim/hip_compile.hpp"

using cdnajit::Arch;
using namespace exttest;

namespace {

// f(x) correctly rounded to f32 by MPFR, for normal inputs and results (the legacy exp/log oracle: the
// simulator's transcendentals are correctly rounded, runtime/sim/correctly_rounded.cpp).
uint64_t mpfr_f32(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), uint64_t xbits) {
  mpfr_t x, y;
  mpfr_init2(x, 24);
  mpfr_init2(y, 24);
  mpfr_set_flt(x, as_float(uint32_t(xbits)), MPFR_RNDN);
  f(y, x, MPFR_RNDN);
  const float r = mpfr_get_flt(y, MPFR_RNDN);
  mpfr_clear(x);
  mpfr_clear(y);
  return fbits(r);
}
uint16_t f2h(double x) { return std::bit_cast<uint16_t>(static_cast<_Float16>(x)); }
bool h_is_nan(uint64_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

// Runs `body` and checks the low `mask` bits of v8 (v[8:9] when mask is 64-bit) in every lane
// against expect(lane). A NaN expectation (nan(lane)) accepts any NaN of the same width.
void check(Arch arch, const std::string& name, const std::string& body, const std::vector<uint64_t>& a,
           const std::vector<uint64_t>& b, const std::vector<uint64_t>& c, uint64_t mask,
           const std::function<uint64_t(int)>& expect, const std::function<bool(uint64_t)>& is_nan = nullptr) {
  Run r = run(arch, body, a, b, c);
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    uint64_t got = r.out[l] & mask, want = expect(l) & mask;
    if (got == want || (is_nan && is_nan(want) && is_nan(got))) continue;
    if (bad++ < 3)
      FAIL_CHECK(name << " on " << cdnajit::arch_name(arch) << " lane " << l << ": a=" << std::hex << a[l] << " b=" << b[l]
                      << " c=" << c[l] << " got " << got << " want " << want);
  }
  CHECK(bad == 0);
}

uint64_t mad16(uint64_t a, uint64_t b, uint64_t c) {
  _Float16 p = static_cast<_Float16>(h2f(uint16_t(a)) * h2f(uint16_t(b)));
  return f2h(double(p) + double(h2f(uint16_t(c))));
}
uint64_t fma16(uint64_t a, uint64_t b, uint64_t c) {
  return f2h(std::fma(double(h2f(uint16_t(a))), double(h2f(uint16_t(b))), double(h2f(uint16_t(c)))));
}
// V_DIV_FIXUP_F16 special cases, re-implemented from the guide's pseudo-code.
uint64_t fixup16(uint64_t q, uint64_t d, uint64_t n) {
  float s1 = h2f(uint16_t(d)), s2 = h2f(uint16_t(n));
  bool neg = ((d ^ n) >> 15) & 1;
  if (std::isnan(s2) || std::isnan(s1)) return 0x7e00;  // any NaN (checked by NaN-ness)
  if ((s1 == 0 && s2 == 0) || (std::isinf(s1) && std::isinf(s2))) return 0x7e00;
  if (s1 == 0 || std::isinf(s2)) return neg ? 0xfc00 : 0x7c00;
  if (std::isinf(s1) || s2 == 0) return neg ? 0x8000 : 0;
  return (q & 0x7fff) | (neg ? 0x8000 : 0);
}
uint64_t snorm16(double x) { return std::isnan(x) ? 0 : uint16_t(int16_t(std::nearbyint(std::clamp(x, -1.0, 1.0) * 32767.0))); }
uint64_t unorm16(double x) { return std::isnan(x) ? 0 : uint64_t(std::nearbyint(std::clamp(x, 0.0, 1.0) * 65535.0)); }
uint64_t u8_of(uint32_t fbits_) {
  float x = as_float(fbits_);
  return std::isnan(x) ? 0 : uint64_t(std::clamp(std::nearbyint(double(x)), 0.0, 255.0));
}

// 2/pi fraction bits from MPFR: bit k = the (k+1)-th bit after the binary point.
std::vector<int> two_over_pi_bits(int n) {
  mpfr_t x;
  mpfr_init2(x, n + 64);
  mpfr_const_pi(x, MPFR_RNDN);
  mpfr_ui_div(x, 2, x, MPFR_RNDN);
  std::vector<int> bits(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) {
    mpfr_mul_2ui(x, x, 1, MPFR_RNDN);
    bits[size_t(k)] = mpfr_cmp_ui(x, 1) >= 0;
    if (bits[size_t(k)]) mpfr_sub_ui(x, x, 1, MPFR_RNDN);
  }
  mpfr_clear(x);
  return bits;
}
// V_TRIG_PREOP_F64 oracle: the 53 fraction bits of 2/pi after the first `shift`, scaled by
// 2^(-53 - shift) (+128 for huge inputs), truncated to a double (MPFR, round toward zero); 0 once
// shift >= 1120 (the hardware's table end as LLVM 22's constant folding states it).
uint64_t trig_preop_oracle(uint64_t x, uint32_t seg) {
  static const std::vector<int> bits = two_over_pi_bits(1201);
  int exp = int((x >> 52) & 0x7ff);
  int shift = int(seg & 31) * 53 + (exp > 1077 ? exp - 1077 : 0);
  if (shift >= 1120) return 0;
  mpfr_t m;
  mpfr_init2(m, 64);
  mpfr_set_ui(m, 0, MPFR_RNDN);
  for (int i = 0; i < 53; ++i) {
    mpfr_mul_2ui(m, m, 1, MPFR_RNDN);
    if (shift + i < 1201 && bits[size_t(shift + i)]) mpfr_add_ui(m, m, 1, MPFR_RNDN);
  }
  long scale = -53 - shift + (exp >= 1968 ? 128 : 0);
  mpfr_mul_2si(m, m, scale, MPFR_RNDZ);
  mpfr_set_emin(-1073);  // double's subnormal range for the final rounding
  mpfr_set_emax(1024);
  int t = mpfr_check_range(m, 0, MPFR_RNDZ);
  mpfr_subnormalize(m, t, MPFR_RNDZ);
  double d = mpfr_get_d(m, MPFR_RNDZ);
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  mpfr_clear(m);
  return dbits(d);
}

// One dword per lane in, one out: a clang kernel `k(const T* a, const U* b, R* o)` over 64 threads.
template <class R>
std::vector<R> run_clang(Arch arch, const std::string& src, const void* a, size_t asz, const void* b, size_t bsz,
                         std::vector<R> out_init = std::vector<R>(64)) {
  auto co = cdnajit::read_code_object(simtest::compile_hip(src, arch));
  cdnajit::sim::Simulator sim(arch);
  auto& m = sim.memory();
  uint64_t pa = m.alloc(asz, "a"), pb = m.alloc(bsz, "b"), po = m.alloc(64 * sizeof(R), "o");
  m.write(pa, a, asz);
  m.write(pb, b, bsz);
  m.write(po, out_init.data(), 64 * sizeof(R));
  uint64_t args[3] = {pa, pb, po};
  std::vector<uint8_t> ka(24);
  std::memcpy(ka.data(), args, 24);
  cdnajit::sim::LaunchDims d;
  d.block[0] = 64;
  sim.launch(co, "k", ka, d);
  std::vector<R> out(64);
  m.read(po, out.data(), 64 * sizeof(R));
  return out;
}

}  // namespace

TEST_CASE("gfx8-era f16 mads, fma_legacy, pk_fmac and div_fixup_f16 against a CPU computation", "[sim][ext][legacy]") {
  std::mt19937_64 g(seed());
  for (Arch arch : kArchs) {
    auto a = values(g, 0, 1), b = values(g, 0, 2), c = values(g, 0, 3);
    auto nan16 = [](uint64_t h) { return h_is_nan(h); };
    check(arch, "v_mad_f16", "  v_mad_f16 v8, v2, v4, v6\n", a, b, c, 0xffffffff, [&](int l) { return mad16(a[l], b[l], c[l]); }, nan16);
    check(arch, "v_mad_legacy_f16", "  v_mad_legacy_f16 v8, v2, v4, v6\n", a, b, c, 0xffffffff, [&](int l) { return mad16(a[l], b[l], c[l]); }, nan16);
    check(arch, "v_mad_f16 neg/abs", "  v_mad_f16 v8, -v2, |v4|, -v6\n", a, b, c, 0xffffffff,
          [&](int l) { return mad16(a[l] ^ 0x8000, b[l] & 0x7fff, c[l] ^ 0x8000); }, nan16);
    check(arch, "v_mac_f16", "  v_mov_b32 v8, v6\n  v_mac_f16_e32 v8, v2, v4\n", a, b, c, 0xffff, [&](int l) { return mad16(a[l], b[l], c[l]); }, nan16);
    check(arch, "v_madak_f16", "  v_madak_f16 v8, v2, v4, 0x3e00\n", a, b, c, 0xffffffff, [&](int l) { return mad16(a[l], b[l], 0x3e00); }, nan16);
    check(arch, "v_madmk_f16", "  v_madmk_f16 v8, v2, 0xc100, v4\n", a, b, c, 0xffffffff, [&](int l) { return mad16(a[l], 0xc100, b[l]); }, nan16);
    check(arch, "v_fma_legacy_f16", "  v_fma_legacy_f16 v8, v2, v4, v6\n", a, b, c, 0xffffffff, [&](int l) { return fma16(a[l], b[l], c[l]); }, nan16);
    // pk_fmac: both halves; the high halves of a/b/c are the low ones of other lanes.
    std::vector<uint64_t> pa(64), pb(64), pc(64);
    for (int l = 0; l < 64; ++l) pa[l] = (a[l] & 0xffff) | (b[63 - l] & 0xffff) << 16, pb[l] = (b[l] & 0xffff) | (c[(l + 7) % 64] & 0xffff) << 16,
                                 pc[l] = (c[l] & 0xffff) | (a[(l + 3) % 64] & 0xffff) << 16;
    check(arch, "v_pk_fmac_f16", "  v_mov_b32 v8, v6\n  v_pk_fmac_f16 v8, v2, v4\n", pa, pb, pc, 0xffffffff,
          [&](int l) { return fma16(pa[l], pb[l], pc[l]) | fma16(pa[l] >> 16, pb[l] >> 16, pc[l] >> 16) << 16; },
          [](uint64_t x) { return h_is_nan(x) || h_is_nan(x >> 16); });
    for (const char* m : {"v_div_fixup_f16", "v_div_fixup_legacy_f16"})
      check(arch, m, std::string("  ") + m + " v8, v2, v4, v6\n", a, b, c, 0xffffffff, [&](int l) { return fixup16(a[l], b[l], c[l]); }, nan16);
  }
}

TEST_CASE("normalising and byte-packing conversions against a CPU computation", "[sim][ext][legacy]") {
  std::mt19937_64 g(seed() + 1);
  for (Arch arch : kArchs) {
    auto h = values(g, 0, 1), h2 = values(g, 0, 5);
    // Values near [-1, 1] too, where the scaling matters.
    for (int l = 0; l < 64; l += 3) h[l] = f2h(std::ldexp(double(int(g() % 2048) - 1024), -10));
    auto f = values(g, 1, 2), f2 = values(g, 1, 4);
    for (int l = 0; l < 64; l += 3) f[l] = fbits(float(int(g() % 4096) - 2048) / 1024.0f);
    std::vector<uint64_t> sel(64), acc(64);
    for (int l = 0; l < 64; ++l) sel[l] = g() % 8, acc[l] = uint32_t(g());
    for (int l = 0; l < 64; l += 4) f2[l] = fbits(float(int(g() % 600)) / 2.0f - 20.0f);  // ties and out-of-range bytes
    check(arch, "v_cvt_norm_i16_f16", "  v_cvt_norm_i16_f16_e32 v8, v2\n", h, h, h, 0xffffffff, [&](int l) { return snorm16(h2f(uint16_t(h[l]))); });
    check(arch, "v_cvt_norm_u16_f16", "  v_cvt_norm_u16_f16_e32 v8, v2\n", h, h, h, 0xffffffff, [&](int l) { return unorm16(h2f(uint16_t(h[l]))); });
    check(arch, "v_cvt_pknorm_i16_f16", "  v_cvt_pknorm_i16_f16 v8, v2, v4\n", h, h2, h, 0xffffffff,
          [&](int l) { return snorm16(h2f(uint16_t(h[l]))) | snorm16(h2f(uint16_t(h2[l]))) << 16; });
    check(arch, "v_cvt_pknorm_u16_f16", "  v_cvt_pknorm_u16_f16 v8, -v2, v4\n", h, h2, h, 0xffffffff,
          [&](int l) { return unorm16(-h2f(uint16_t(h[l]))) | unorm16(h2f(uint16_t(h2[l]))) << 16; });
    check(arch, "v_cvt_pknorm_i16_f32", "  v_cvt_pknorm_i16_f32 v8, v2, v4\n", f, f2, f, 0xffffffff,
          [&](int l) { return snorm16(as_float(uint32_t(f[l]))) | snorm16(as_float(uint32_t(f2[l]))) << 16; });
    check(arch, "v_cvt_pknorm_u16_f32", "  v_cvt_pknorm_u16_f32 v8, v2, |v4|\n", f, f2, f, 0xffffffff,
          [&](int l) { return unorm16(as_float(uint32_t(f[l]))) | unorm16(std::fabs(as_float(uint32_t(f2[l])))) << 16; });
    check(arch, "v_cvt_pk_u8_f32", "  v_cvt_pk_u8_f32 v8, v4, v2, v6\n", sel, f2, acc, 0xffffffff, [&](int l) {
      uint32_t sh = 8 * (uint32_t(sel[l]) & 3);
      return (uint32_t(acc[l]) & ~(0xffu << sh)) | uint32_t(u8_of(uint32_t(f2[l]))) << sh;
    });
    check(arch, "v_cvt_pkaccum_u8_f32", "  v_mov_b32 v8, v6\n  v_cvt_pkaccum_u8_f32 v8, v4, v2\n", sel, f2, acc, 0xffffffff, [&](int l) {
      uint32_t sh = 8 * (uint32_t(sel[l]) & 3);
      return (uint32_t(acc[l]) & ~(0xffu << sh)) | uint32_t(u8_of(uint32_t(f2[l]))) << sh;
    });
    if (arch == Arch::gfx950) {
      check(arch, "v_cvt_pk_f16_f32", "  v_cvt_pk_f16_f32 v8, v2, -v4\n", f, f2, f, 0xffffffff, [&](int l) {
        return uint64_t(f2h(as_float(uint32_t(f[l])))) | uint64_t(f2h(-as_float(uint32_t(f2[l])))) << 16;
      }, [](uint64_t x) { return h_is_nan(x) || h_is_nan(x >> 16); });
    }
  }
}

TEST_CASE("integer dots, exp/log legacy, gfx950 packed minimum3/maximum3 against a CPU computation", "[sim][ext][legacy]") {
  std::mt19937_64 g(seed() + 2);
  for (Arch arch : kArchs) {
    auto a = values(g, 3, 0), b = values(g, 3, 1), c = values(g, 3, 2);
    check(arch, "v_dot4_i32_i8", "  v_dot4_i32_i8 v8, v2, v4, v6\n", a, b, c, 0xffffffff, [&](int l) {
      // The sum wraps modulo 2^32 (no clamp): accumulate unsigned, so the oracle has no signed overflow.
      uint32_t s = uint32_t(c[l]);
      for (int i = 0; i < 4; ++i) s += uint32_t(int32_t(int8_t(a[l] >> (8 * i))) * int32_t(int8_t(b[l] >> (8 * i))));
      return uint64_t(s);
    });
    check(arch, "v_dot2_i32_i16", "  v_dot2_i32_i16 v8, v2, v4, v6\n", a, b, c, 0xffffffff, [&](int l) {
      uint32_t s = uint32_t(c[l]);
      for (int i = 0; i < 2; ++i) s += uint32_t(int32_t(int16_t(a[l] >> (16 * i))) * int32_t(int16_t(b[l] >> (16 * i))));
      return uint64_t(s);
    });
    // exp/log legacy on the inputs where they are modelled (positive normal for log; normal results for exp).
    std::vector<uint64_t> pos(64), x(64);
    for (int l = 0; l < 64; ++l) {
      pos[l] = fbits(std::ldexp(1.0f + float(g() % 1000) / 1000.0f, int(g() % 200) - 100));
      x[l] = fbits(float(int(g() % 20000) - 10000) / 100.0f);
    }
    check(arch, "v_log_legacy_f32", "  v_log_legacy_f32_e32 v8, v2\n", pos, pos, pos, 0xffffffff, [&](int l) { return mpfr_f32(mpfr_log2, pos[l]); });
    check(arch, "v_exp_legacy_f32", "  v_exp_legacy_f32_e32 v8, v2\n", x, x, x, 0xffffffff, [&](int l) { return mpfr_f32(mpfr_exp2, x[l]); });
    std::vector<uint64_t> zero(64, 0);
    CHECK_THROWS_WITH(run(arch, "  v_log_legacy_f32_e32 v8, v2\n", zero, zero, zero), Catch::Contains("not modelled"));
    if (arch == Arch::gfx950) {
      auto p = values(g, 0, 1), q = values(g, 0, 2), r = values(g, 0, 3);
      for (int l = 0; l < 64; ++l) p[l] |= (q[(l + 5) % 64] & 0xffff) << 16, q[l] |= (r[(l + 9) % 64] & 0xffff) << 16, r[l] |= (p[(l + 1) % 64] & 0xffff) << 16;
      auto mm = [](bool mx, float x0, float y0, float z0) {
        auto m2 = [mx](float u, float v) {
          if (std::isnan(u) || std::isnan(v)) return NAN;
          if (u == v) return (std::signbit(u) != mx) ? u : v;
          return (mx ? u > v : u < v) ? u : v;
        };
        return m2(m2(x0, y0), z0);
      };
      for (bool mx : {false, true}) {
        std::string m = mx ? "v_pk_maximum3_f16" : "v_pk_minimum3_f16";
        // op_sel:[0,1,0] takes src1's high half for the low result; neg_lo:[1,0,0] negates src0's low half.
        check(arch, m, "  " + m + " v8, v2, v4, v6 op_sel:[0,1,0] neg_lo:[1,0,0]\n", p, q, r, 0xffffffff, [&](int l) {
          float lo = mm(mx, -h2f(uint16_t(p[l])), h2f(uint16_t(q[l] >> 16)), h2f(uint16_t(r[l])));
          float hi = mm(mx, h2f(uint16_t(p[l] >> 16)), h2f(uint16_t(q[l] >> 16)), h2f(uint16_t(r[l] >> 16)));
          return uint64_t(f2h(lo)) | uint64_t(f2h(hi)) << 16;
        }, [](uint64_t v) { return h_is_nan(v) || h_is_nan(v >> 16); });
      }
    }
  }
}

TEST_CASE("ds_read/write_addtid_b32 and ds_condxchg32_rtn_b64 against a CPU computation", "[sim][ext][legacy]") {
  std::mt19937_64 g(seed() + 3);
  for (Arch arch : kArchs) {
    std::vector<uint64_t> a(64), b(64), c(64);
    for (int l = 0; l < 64; ++l) a[l] = uint32_t(g()), b[l] = g(), c[l] = g();
    // Lane l writes a[l] at 16 + 8 + 4l (M0 = 16, offset 8), then reads back lane 63 - l's slot
    // through an ordinary ds_read (v1 = 8 * lane is the harness's address register).
    check(arch, "ds_write_addtid_b32 + ds_read_b32",
          "  s_mov_b32 m0, 16\n  ds_write_addtid_b32 v2 offset:8\n  s_waitcnt lgkmcnt(0)\n"
          "  v_sub_u32 v10, 63, v0\n  v_lshlrev_b32 v10, 2, v10\n  ds_read_b32 v8, v10 offset:24\n  s_waitcnt lgkmcnt(0)\n",
          a, b, c, 0xffffffff, [&](int l) { return a[63 - l]; });
    check(arch, "ds_write_b32 + ds_read_addtid_b32",
          "  v_lshlrev_b32 v10, 2, v0\n  ds_write_b32 v10, v2 offset:40\n  s_waitcnt lgkmcnt(0)\n"
          "  s_mov_b32 m0, 0x10020\n  ds_read_addtid_b32 v8 offset:8\n  s_waitcnt lgkmcnt(0)\n",
          a, b, c, 0xffffffff, [&](int l) { return a[l]; });  // M0[15:0] = 0x20: 0x20 + 8 = 40
    // condxchg: LDS at 8l holds c[l]; data b[l] writes each dword whose bit 31 is set (bit cleared).
    Run r = run(arch,
                "  v_lshlrev_b32 v10, 3, v0\n  ds_write_b64 v10, v[6:7]\n  s_waitcnt lgkmcnt(0)\n"
                "  ds_condxchg32_rtn_b64 v[8:9], v10, v[4:5] offset:3\n  s_waitcnt lgkmcnt(0)\n"
                "  ds_read_b64 v[12:13], v10\n  s_waitcnt lgkmcnt(0)\n"
                "  v_xor_b32 v8, v8, v12\n  v_xor_b32 v9, v9, v13\n",  // out = old ^ new
                a, b, c);
    for (int l = 0; l < 64; ++l) {
      uint64_t old = c[l], nw = old;
      for (int k = 0; k < 2; ++k) {
        uint32_t d = uint32_t(b[l] >> (32 * k));
        if (d >> 31) nw = (nw & ~(0xffffffffull << (32 * k))) | uint64_t(d & 0x7fffffffu) << (32 * k);
      }
      CHECK(r.out[l] == (old ^ nw));
    }
  }
}

TEST_CASE("clang-compiled HIP: f16 division, pknorm, cvt_pk_u8, trig_preop, ds_append/consume", "[sim][ext][legacy][clang]") {
  std::mt19937_64 g(seed() + 4);
  const std::string hdr = "typedef _Float16 half;\ntypedef short short2 __attribute__((ext_vector_type(2)));\n"
                          "typedef unsigned short ushort2 __attribute__((ext_vector_type(2)));\n";
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    {  // a / b in f16 (clang: f32 reciprocal refinement, v_cvt_f16_f32, v_div_fixup_f16) against the IEEE quotient.
      std::vector<uint16_t> a(64), b(64);
      auto va = values(g, 0, 1), vb = values(g, 0, 2);
      for (int l = 0; l < 64; ++l) a[l] = uint16_t(va[l]), b[l] = uint16_t(vb[l]);
      b[3] = 0, a[4] = 0, b[4] = 0, a[5] = 0x7c00, b[5] = 0xfc00, a[6] = 0x0001, b[6] = 0x7bff, a[7] = 0x7bff, b[7] = 0x0001;
      auto o = run_clang<uint16_t>(arch, hdr + "extern \"C\" __global__ void k(const half* a, const half* b, half* o) { unsigned i = tid(); o[i] = a[i] / b[i]; }\n",
                                   a.data(), 128, b.data(), 128);
      for (int l = 0; l < 64; ++l) {
        uint16_t want = f2h(double(h2f(a[l])) / double(h2f(b[l])));  // exact quotient rounded once (53 >= 2*11+2)
        if (h_is_nan(want)) CHECK(h_is_nan(o[size_t(l)]));
        else CHECK(o[size_t(l)] == want);
      }
    }
    {  // __builtin_amdgcn_cvt_pknorm_i16 / _u16 (v_cvt_pknorm_{i16,u16}_f32).
      std::vector<uint32_t> a(64), b(64);
      for (int l = 0; l < 64; ++l) a[l] = fbits(float(int(g() % 5000) - 2500) / 2000.0f), b[l] = uint32_t(values(g, 1, 3)[size_t(l)]);
      auto oi = run_clang<uint32_t>(arch, hdr + "extern \"C\" __global__ void k(const float* a, const float* b, short2* o) { unsigned i = tid(); o[i] = __builtin_amdgcn_cvt_pknorm_i16(a[i], b[i]); }\n",
                                    a.data(), 256, b.data(), 256);
      auto ou = run_clang<uint32_t>(arch, hdr + "extern \"C\" __global__ void k(const float* a, const float* b, ushort2* o) { unsigned i = tid(); o[i] = __builtin_amdgcn_cvt_pknorm_u16(a[i], b[i]); }\n",
                                    a.data(), 256, b.data(), 256);
      for (int l = 0; l < 64; ++l) {
        CHECK(oi[size_t(l)] == (snorm16(as_float(a[l])) | snorm16(as_float(b[l])) << 16));
        CHECK(ou[size_t(l)] == (unorm16(as_float(a[l])) | unorm16(as_float(b[l])) << 16));
      }
    }
    {  // __builtin_amdgcn_cvt_pk_u8_f32(v, byte, acc): acc is the output's old value.
      std::vector<uint32_t> a(64), b(64), init(64);
      for (int l = 0; l < 64; ++l) a[l] = fbits(float(int(g() % 700)) / 2.0f - 40.0f), b[l] = uint32_t(g() % 4), init[l] = uint32_t(g());
      auto o = run_clang<uint32_t>(arch, hdr + "extern \"C\" __global__ void k(const float* a, const unsigned* b, unsigned* o) { unsigned i = tid(); o[i] = __builtin_amdgcn_cvt_pk_u8_f32(a[i], b[i], o[i]); }\n",
                                   a.data(), 256, b.data(), 256, init);
      for (int l = 0; l < 64; ++l) {
        uint32_t sh = 8 * b[l];
        CHECK(o[size_t(l)] == ((init[l] & ~(0xffu << sh)) | uint32_t(u8_of(a[l])) << sh));
      }
    }
    {  // __builtin_amdgcn_trig_preop(x, segment) over small, large and huge exponents.
      std::vector<uint64_t> x(64);
      std::vector<uint32_t> seg(64);
      for (int l = 0; l < 64; ++l) {
        int e = l < 16 ? int(g() % 60) - 30 : l < 48 ? int(g() % 1000) : 900 + int(g() % 123);
        x[l] = dbits(std::ldexp(1.0 + double(g() % 1000000) / 1e6, e));
        seg[l] = uint32_t(g() % 32);
      }
      x[0] = dbits(1.0), seg[0] = 0;
      x[1] = dbits(1e300), seg[1] = 25;
      auto o = run_clang<uint64_t>(arch, hdr + "extern \"C\" __global__ void k(const double* a, const int* b, double* o) { unsigned i = tid(); o[i] = __builtin_amdgcn_trig_preop(a[i], b[i]); }\n",
                                   x.data(), 512, seg.data(), 256);
      for (int l = 0; l < 64; ++l) {
        INFO("lane " << l << " x " << std::hex << x[l] << " segment " << std::dec << seg[l]);
        CHECK(o[size_t(l)] == trig_preop_oracle(x[l], seg[l]));
      }
      CHECK(o[0] == 0x3fe45f306dc9c882ull);  // 2/pi truncated to 53 bits
      // A second, independent oracle: LLVM 22 constant-folds llvm.amdgcn.trig.preop. A kernel
      // with the same (x, segment) pairs as literals stores LLVM's folded values.
      std::string src = "extern \"C\" __global__ void k(const double*, const int*, double* o) {\n";
      for (int l = 0; l < 64; ++l)
        src += "  o[" + std::to_string(l) + "] = __builtin_amdgcn_trig_preop(__builtin_bit_cast(double, " + std::to_string(x[l]) +
               "ull), " + std::to_string(seg[l]) + ");\n";
      src += "}\n";
      auto folded = run_clang<uint64_t>(arch, src, x.data(), 512, seg.data(), 256);
      for (int l = 0; l < 64; ++l) {
        INFO("lane " << l << " x " << std::hex << x[l] << " segment " << std::dec << seg[l]);
        // LLVM rounds denormal results to nearest even, the guide (and the simulator) toward zero.
        if (std::fpclassify(as_double(folded[size_t(l)])) == FP_SUBNORMAL)
          CHECK(o[size_t(l)] + 1 >= folded[size_t(l)]);
        else
          CHECK(o[size_t(l)] == folded[size_t(l)]);
      }
    }
    {  // ds_append / ds_consume on a counter in LDS: every lane gets the pre-operation value.
      std::vector<uint32_t> dummy(64);
      auto oa = run_clang<uint32_t>(arch, "extern \"C\" __global__ void k(const int*, const int*, int* o) { __shared__ int s[4]; unsigned i = tid(); if (i < 4) s[i] = 7; sync(); "
                                          "if (i % 3 == 0) o[i] = __builtin_amdgcn_ds_append(&s[1]); sync(); if (i == 1) o[i] = s[1]; }\n",
                                    dummy.data(), 256, dummy.data(), 256);
      auto oc = run_clang<uint32_t>(arch, "extern \"C\" __global__ void k(const int*, const int*, int* o) { __shared__ int s[4]; unsigned i = tid(); if (i < 4) s[i] = 100; sync(); "
                                          "if (i % 3 == 0) o[i] = __builtin_amdgcn_ds_consume(&s[2]); sync(); if (i == 1) o[i] = s[2]; }\n",
                                    dummy.data(), 256, dummy.data(), 256);
      for (int l = 0; l < 64; l += 3) {
        CHECK(oa[size_t(l)] == 7u);
        CHECK(oc[size_t(l)] == 100u);
      }
      CHECK(oa[1] == 7u + 22u);   // 22 lanes with i % 3 == 0
      CHECK(oc[1] == 100u - 22u);
    }
  }
}

TEST_CASE("cube-map helpers v_cube{id,sc,tc,ma}_f32 against a CPU computation", "[sim][ext][legacy]") {
  std::mt19937_64 g(seed() + 5);
  for (Arch arch : kArchs) {
    std::vector<uint64_t> x(64), y(64), z(64);
    for (int l = 0; l < 64; ++l) {
      auto pick = [&] { return fbits(float(int(g() % 9) - 4) * (g() % 2 ? 0.5f : 1.25f)); };  // ties in |x|, |y|, |z| are common
      x[l] = pick(), y[l] = pick(), z[l] = pick();
    }
    x[0] = fbits(-0.0f), y[0] = fbits(0.0f), z[0] = fbits(-0.0f);
    // Oracle, written from the guide's per-opcode pseudo-code as nested conditions.
    auto face = [&](int l, int what) -> uint64_t {
      float X = as_float(uint32_t(x[l])), Y = as_float(uint32_t(y[l])), Z = as_float(uint32_t(z[l]));
      if (std::fabs(Z) >= std::fabs(X) && std::fabs(Z) >= std::fabs(Y)) {
        float v[4] = {Z < 0 ? 5.0f : 4.0f, Z < 0 ? -X : X, -Y, 2.0f * Z};
        return fbits(v[what]);
      }
      if (std::fabs(Y) >= std::fabs(X)) {
        float v[4] = {Y < 0 ? 3.0f : 2.0f, X, Y < 0 ? -Z : Z, 2.0f * Y};
        return fbits(v[what]);
      }
      float v[4] = {X < 0 ? 1.0f : 0.0f, X < 0 ? Z : -Z, -Y, 2.0f * X};
      return fbits(v[what]);
    };
    const char* names[4] = {"v_cubeid_f32", "v_cubesc_f32", "v_cubetc_f32", "v_cubema_f32"};
    for (int what = 0; what < 4; ++what)
      check(arch, names[what], std::string("  ") + names[what] + " v8, v2, v4, v6\n", x, y, z, 0xffffffff,
            [&](int l) { return face(l, what); });
  }
}
