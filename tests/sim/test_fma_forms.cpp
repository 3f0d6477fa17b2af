// The f32 FMA forms whose sources are one value for every lane (inline constants, literals, SGPRs):
// the simulator passes those to the host FMA as broadcast values (fma64_bcast) instead of filling a
// 64-lane row. Checked bit for bit against the row form (fma64) for every mix of broadcast
// operands, in place and not, and through kernels against a per-lane CPU fma.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "runtime/sim/fp.hpp"
#include "tests/sim/ext_harness.hpp"

using namespace exttest;

TEST_CASE("fma64_bcast equals fma64 on broadcast rows for every operand mix", "[sim][numerics][fma]") {
  std::mt19937_64 g(seed());
  for (int trial = 0; trial < 64; ++trial) {
    const std::vector<uint64_t> va = values(g, 1, trial), vb = values(g, 1, trial + 3), vc = values(g, 1, trial + 5);
    alignas(32) uint32_t rows[3][64];
    for (int l = 0; l < 64; ++l) rows[0][l] = uint32_t(va[l]), rows[1][l] = uint32_t(vb[l]), rows[2][l] = uint32_t(vc[l]);
    for (unsigned mask = 0; mask < 8; ++mask) {
      INFO("trial " << trial << " broadcast mask " << mask);
      // The row form's inputs: operand i of a broadcast is its lane (trial % 64) value on every lane.
      alignas(32) uint32_t in[3][64], want[64];
      const uint32_t* p[3];
      for (int i = 0; i < 3; ++i) {
        for (int l = 0; l < 64; ++l) in[i][l] = (mask >> i) & 1 ? rows[i][trial % 64] : rows[i][l];
        p[i] = (mask >> i) & 1 ? &rows[i][trial % 64] : rows[i];
      }
      cdnajit::sim::fma64(in[0], in[1], in[2], want);
      for (int l = 0; l < 64; ++l) {
        const float ref = std::fma(cdnajit::sim::f32_of(in[0][l]), cdnajit::sim::f32_of(in[1][l]), cdnajit::sim::f32_of(in[2][l]));
        const bool row_ok = want[l] == cdnajit::sim::bits_of(ref) || (std::isnan(ref) && std::isnan(cdnajit::sim::f32_of(want[l])));
        REQUIRE(row_ok);
      }
      alignas(32) uint32_t got[64];
      cdnajit::sim::fma64_bcast(p[0], p[1], p[2], got, mask);
      for (int l = 0; l < 64; ++l) REQUIRE(got[l] == want[l]);
      // In place (v_fmac_f32, v_fma_f32 d = d * K + s): the result overwrites a row operand.
      for (int i = 0; i < 3; ++i) {
        if ((mask >> i) & 1) continue;
        alignas(32) uint32_t q[3][64];
        std::memcpy(q, rows, sizeof q);
        const uint32_t* pq[3];
        for (int j = 0; j < 3; ++j) pq[j] = (mask >> j) & 1 ? &q[j][trial % 64] : q[j];
        cdnajit::sim::fma64_bcast(pq[0], pq[1], pq[2], q[i], mask);
        for (int l = 0; l < 64; ++l) REQUIRE(q[i][l] == want[l]);
      }
    }
  }
}

// Operands at the bottom of the f32 range: fma64 computes blocks with a denormal or tiny (< 2^-63)
// operand in f64 (fma64.cpp: the host FMA would take a microcode assist there), which must give the
// host FMA's bits: checked against std::fma lane by lane, also with the results that cancel to a
// denormal or zero, signed zeros, infinities and NaNs in the same block, for every broadcast mix.
TEST_CASE("fma64 on denormal and tiny operands equals the host fma", "[sim][numerics][fma]") {
  std::mt19937_64 g(seed() + 71);
  auto pick = [&](int kind) -> uint32_t {
    const uint32_t sign = uint32_t(g() & 1) << 31, r = uint32_t(g());
    switch (kind) {
      case 0: return sign | (r & 0x007fffff);                                   // denormal (or zero)
      case 1: return sign | ((1u + r % 70u) << 23) | (r >> 9 & 0x7fffff);       // tiny normal, exponent -126..-57
      case 2: return sign | ((62u + r % 4u) << 23) | (r >> 9 & 0x7fffff);       // around 2^-63
      case 3: return sign | ((1u + r % 253u) << 23) | (r >> 9 & 0x7fffff);      // any normal
      case 4: return sign;                                                      // signed zero
      case 5: return (r & 1) ? sign | 0x7f800000u : sign | 0x7fc00000u | (r >> 10 & 0x3fffff);  // inf or NaN
      default: return sign | ((100u + r % 40u) << 23) | (r >> 9 & 0x7fffff);    // products near 1
    }
  };
  auto kind = [&] { const uint64_t k = g() % 100; return k < 30 ? 0 : k < 50 ? 1 : k < 60 ? 2 : k < 80 ? 3 : k < 88 ? 4 : k < 92 ? 5 : 6; };
  for (int trial = 0; trial < 400; ++trial) {
    alignas(32) uint32_t rows[3][64];
    for (int l = 0; l < 64; ++l) {
      for (int i = 0; i < 3; ++i) rows[i][l] = pick(kind());
      // Every fourth lane: c close to -(a*b), so the exact sum cancels to a small value or zero.
      if (l % 4 == 0) {
        const double p = double(cdnajit::sim::f32_of(rows[0][l])) * double(cdnajit::sim::f32_of(rows[1][l]));
        uint32_t c = cdnajit::sim::bits_of(float(-p));
        if (trial % 3) c += uint32_t(g() % 5) - 2u;
        rows[2][l] = c;
      }
    }
    for (unsigned mask = 0; mask < 8; ++mask) {
      INFO("trial " << trial << " broadcast mask " << mask);
      const int at = trial % 64;
      const uint32_t* p[3];
      for (int i = 0; i < 3; ++i) p[i] = (mask >> i) & 1 ? &rows[i][at] : rows[i];
      alignas(32) uint32_t got[64];
      if (mask == 0) cdnajit::sim::fma64(p[0], p[1], p[2], got);
      else cdnajit::sim::fma64_bcast(p[0], p[1], p[2], got, mask);
      for (int l = 0; l < 64; ++l) {
        auto in = [&](int i) { return cdnajit::sim::f32_of((mask >> i) & 1 ? rows[i][at] : rows[i][l]); };
        const float ref = std::fma(in(0), in(1), in(2));
        INFO("lane " << l << ": fma(" << std::hexfloat << in(0) << ", " << in(1) << ", " << in(2) << ") = " << ref << " got "
                     << cdnajit::sim::f32_of(got[l]));
        REQUIRE((got[l] == cdnajit::sim::bits_of(ref) || (std::isnan(ref) && std::isnan(cdnajit::sim::f32_of(got[l])))));
      }
    }
  }
}

namespace {
// The kernel's f32 denormal mode: kept (set by s_setreg; the simulator's broadcast path) or the
// harness's default, flushed in and out (its row path).
bool g_flush = false;
uint32_t flush(uint32_t u) { return g_flush && (u & 0x7f800000u) == 0 ? u & 0x80000000u : u; }
uint32_t fma_bits(uint32_t a, uint32_t b, uint32_t c) {
  return flush(fbits(std::fma(as_float(flush(a)), as_float(flush(b)), as_float(flush(c)))));
}
// The simulator's result against the CPU fma: equal bits, or both NaN (which NaN operand wins is not
// pinned here; test_nan_bits.cpp covers the created NaN).
bool same(uint32_t got, uint32_t want) { return got == want || (std::isnan(as_float(got)) && std::isnan(as_float(want))); }
}  // namespace

TEST_CASE("v_fma_f32 / v_fmac_f32 / v_fmamk / v_fmaak with constant and SGPR sources, modifiers, full and partial EXEC", "[sim][numerics][fma]") {
  std::mt19937_64 g(seed() + 33);
  // Constants: 0.5 = 0x3f000000, -4.0 = 0xc0800000 (inline), pi = 0x40490fdb (a literal).
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    for (int trial = 0; trial < 2; ++trial) {
      const std::vector<uint64_t> a = values(g, 1, trial), b = values(g, 1, trial + 2), c = values(g, 1, trial + 4);
      const uint32_t s = uint32_t(b[0]);  // s10 = lane 0 of v4
      struct Form {
        const char* body;
        uint32_t (*want)(uint32_t a, uint32_t b, uint32_t c, uint32_t s);
      };
      const Form forms[] = {
          {"v_fma_f32 v8, v2, 0.5, v6", [](uint32_t x, uint32_t, uint32_t z, uint32_t) { return fma_bits(x, 0x3f000000u, z); }},
          {"v_fma_f32 v8, v2, v4, s10", [](uint32_t x, uint32_t y, uint32_t, uint32_t k) { return fma_bits(x, y, k); }},
          {"v_fma_f32 v8, s10, v4, 0.5", [](uint32_t, uint32_t y, uint32_t, uint32_t k) { return fma_bits(k, y, 0x3f000000u); }},
          {"v_fma_f32 v8, 0.5, -4.0, v6", [](uint32_t, uint32_t, uint32_t z, uint32_t) { return fma_bits(0x3f000000u, 0xc0800000u, z); }},
          {"v_fma_f32 v8, 0.5, -4.0, s10", [](uint32_t, uint32_t, uint32_t, uint32_t k) { return fma_bits(0x3f000000u, 0xc0800000u, k); }},
          {"v_mov_b32 v8, v6\n  v_fmac_f32 v8, s10, v2", [](uint32_t x, uint32_t, uint32_t z, uint32_t k) { return fma_bits(k, x, z); }},
          {"v_mov_b32 v8, v6\n  v_fmac_f32 v8, 0.5, v2", [](uint32_t x, uint32_t, uint32_t z, uint32_t) { return fma_bits(0x3f000000u, x, z); }},
          {"v_fmamk_f32 v8, v2, 0x40490fdb, v6", [](uint32_t x, uint32_t, uint32_t z, uint32_t) { return fma_bits(x, 0x40490fdbu, z); }},
          {"v_fmaak_f32 v8, v2, v4, 0x40490fdb", [](uint32_t x, uint32_t y, uint32_t, uint32_t) { return fma_bits(x, y, 0x40490fdbu); }},
          {"v_mov_b32 v8, v2\n  v_fma_f32 v8, v8, -4.0, v6", [](uint32_t x, uint32_t, uint32_t z, uint32_t) { return fma_bits(x, 0xc0800000u, z); }},
          // Source modifiers on the one-value sources (neg flips bit 31, abs clears it).
          {"v_fma_f32 v8, -v2, |s10|, -0.5", [](uint32_t x, uint32_t, uint32_t, uint32_t k) { return fma_bits(x ^ 0x80000000u, k & 0x7fffffffu, 0xbf000000u); }},
          {"v_fma_f32 v8, |v2|, -s10, v6", [](uint32_t x, uint32_t, uint32_t z, uint32_t k) { return fma_bits(x & 0x7fffffffu, k ^ 0x80000000u, z); }},
          {"v_fma_f32 v8, -|s10|, -4.0, -|v6|", [](uint32_t, uint32_t, uint32_t z, uint32_t k) { return fma_bits(k | 0x80000000u, 0xc0800000u, z | 0x80000000u); }},
          {"v_mov_b32 v8, v6\n  v_fmac_f32_e64 v8, -s10, |v2|", [](uint32_t x, uint32_t, uint32_t z, uint32_t k) { return fma_bits(k ^ 0x80000000u, x & 0x7fffffffu, z); }},
      };
      for (const Form& f : forms)
        for (bool partial : {false, true})
        for (bool flushed : {false, true}) {
          INFO(f.body << (partial ? " (EXEC = 0x5555...)" : "") << (flushed ? " (f32 denormals flushed)" : ""));
          g_flush = flushed;
          // Partial EXEC: the odd lanes keep v8's 0 (ext_harness sets it before the body).
          const std::string body = std::string("  v_readfirstlane_b32 s10, v4\n") +
                                   (flushed ? "" : "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3\n") +
                                   (partial ? "  s_mov_b32 exec_lo, 0x55555555\n  s_mov_b32 exec_hi, 0x55555555\n" : "") + "  " + f.body + "\n";
          Run r = run(arch, body, a, b, c);
          for (int l = 0; l < 64; ++l) {
            const uint32_t got = uint32_t(r.out[l]);
            if (partial && (l & 1)) {
              REQUIRE(got == 0u);
              continue;
            }
            INFO("lane " << l << " a " << a[l] << " b " << b[l] << " c " << c[l] << " got " << got);
            REQUIRE(same(got, f.want(uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]), s)));
          }
        }
    }
  }
}
