// The fast CDNA3 MFMA accumulation path (runtime/sim/mfma_numerics.cpp: operands decoded once,
// integer group sums) against the reference implementation of the same rules
// (runtime/sim/mfma_numerics_reference.cpp: double arithmetic per product), bit for bit, on random
// dot products of every element format the MFMAs read: xf32, f16, bf16, fp8/bf8 (FNUZ and OCP), fp6,
// bf6, fp4 with E8M0-style block scales, exponents drawn from narrow windows (alignment truncation,
// cancellation) and wide ones (products near the f32 overflow threshold), subnormal elements,
// zeros of both signs, infinities and NaNs, and accumulators C of every class. Random: seed from
// CDNAJIT_TEST_SEED, printed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "runtime/sim/mfma_numerics.hpp"

using cdnajit::sim::MfmaFormat;
using cdnajit::sim::MfmaKind;
using cdnajit::sim::MfmaOperand;
using cdnajit::sim::MfmaTerm;

namespace {

// An element format: mbits fraction bits, exponents of normals in [emin, emax]; inf_nan: the
// format has infinities/NaNs (f16, bf16, OCP fp8: all; FNUZ fp8: NaN only; fp6/fp4: none).
struct Fmt {
  const char* name;
  int mbits, emin, emax;
  bool inf_nan;
};

const Fmt kXf32{"xf32", 10, -126, 127, true};
const Fmt kF16{"f16", 10, -14, 15, true}, kBF16{"bf16", 7, -126, 127, true};
const Fmt kFp8Fnuz{"fp8 fnuz", 3, -7, 7, true}, kBf8Fnuz{"bf8 fnuz", 2, -15, 15, true};
const Fmt kFp8{"fp8 ocp", 3, -6, 8, true}, kBf8{"bf8 ocp", 2, -14, 15, true};
const Fmt kFp6{"fp6", 3, 0, 2, false}, kBf6{"bf6", 2, -2, 4, false}, kFp4{"fp4", 1, 0, 2, false};

// A random value of format f (times 2^scale), exponent in [lo, hi] (clamped to the format's range).
double random_value(std::mt19937& g, const Fmt& f, int lo, int hi, int scale, bool specials) {
  const uint32_t r = g() % 64;
  if (r == 0) return 0.0 * ((g() & 1) ? -1 : 1);
  if (r == 1 && f.inf_nan && specials) return (g() & 1) ? NAN : ((g() & 1) ? INFINITY : -INFINITY);
  const double sign = (g() & 1) ? -1.0 : 1.0;
  const uint32_t frac = g() & ((1u << f.mbits) - 1);
  if (r < 5) return sign * std::ldexp(double(frac), f.emin - f.mbits + scale);  // subnormal (or zero)
  lo = std::max(lo, f.emin);
  hi = std::min(hi, f.emax);
  const int e = lo + int(g() % uint32_t(hi - lo + 1));
  return sign * std::ldexp(double(frac | (1u << f.mbits)), e - f.mbits + scale);
}

float random_c(std::mt19937& g, int around) {
  switch (g() % 10) {
    case 0: return (g() & 1) ? -0.0f : 0.0f;
    case 1: return std::bit_cast<float>(uint32_t(g() & 0x807fffffu));  // f32 subnormal
    case 2: if (g() % 4) return 1.0f; return (g() % 3 == 0) ? NAN : (g() & 1) ? INFINITY : -INFINITY;
    case 3: return std::bit_cast<float>(uint32_t(g()) & 0xff7fffffu);  // any finite class (bit 23 cleared)
    default: {  // near the products' magnitude: C alignment and cancellation against the group
      int e = std::clamp(around + int(g() % 41) - 20, -149, 127);
      return std::ldexp(float(int32_t(g() % 0x1000000) - 0x800000), e - 23);
    }
  }
}

uint32_t seed_from_env() {
  const char* env = std::getenv("CDNAJIT_TEST_SEED");
  return env ? uint32_t(std::strtoul(env, nullptr, 0)) : 20261126u;
}

}  // namespace

TEST_CASE("fast CDNA3 MFMA accumulation is bit-identical to the reference implementation", "[sim][numerics][mfma]") {
  const uint32_t seed = seed_from_env();
  std::printf("test_mfma_fast_path: seed %u (CDNAJIT_TEST_SEED)\n", seed);
  INFO("seed " << seed << " (CDNAJIT_TEST_SEED)");
  std::mt19937 g(seed);
  struct Pair {
    MfmaKind kind;
    Fmt a, b;
    std::vector<int> ks;
    bool scaled;
  };
  const std::vector<Pair> pairs = {
      {MfmaKind::Xf32, kXf32, kXf32, {4, 8}, false},
      {MfmaKind::Fused, kF16, kF16, {4, 8, 16, 32}, false},      {MfmaKind::Fused, kBF16, kBF16, {4, 8, 16, 32}, false},
      {MfmaKind::Fp8, kFp8Fnuz, kFp8Fnuz, {16, 32}, false},      {MfmaKind::Fp8, kBf8Fnuz, kFp8Fnuz, {16, 32}, false},
      {MfmaKind::Fp8, kFp8, kBf8, {16, 32, 64, 128}, false},     {MfmaKind::Fp8, kFp6, kFp4, {32}, true},
      {MfmaKind::Fp8, kBf6, kFp8, {32}, true},                   {MfmaKind::Fp8, kFp4, kFp4, {32}, true},
      {MfmaKind::F32, Fmt{"f32", 23, -126, 127, true}, Fmt{"f32", 23, -126, 127, true}, {1, 2, 4}, false}};
  long cases = 0, decoded_cases = 0, differing = 0;
  // Both group-sum codes of the fast path: AVX2 (where the host has it) and the portable one.
  const bool have_vector = cdnajit::sim::mfma_vector_path(true);
  for (const bool vector : {true, false})
  for (const Pair& pr : pairs)
    for (int K : pr.ks)
      for (int it = 0; it < 1500 && (have_vector || !vector); ++it) {
        cdnajit::sim::mfma_vector_path(vector);
        // Exponent window: narrow (overlap, truncation) most of the time, the whole range sometimes.
        const bool wide = g() % 8 == 0;
        const int center_a = pr.a.emin + int(g() % uint32_t(pr.a.emax - pr.a.emin + 1));
        const int center_b = pr.b.emin + int(g() % uint32_t(pr.b.emax - pr.b.emin + 1));
        const int width = wide ? 400 : int(g() % 8);
        const int sa = pr.scaled ? int(g() % 255) - 127 : 0, sb = pr.scaled ? int(g() % 255) - 127 : 0;
        const bool specials = g() % 8 == 0;  // infinities and NaNs in some cases only
        std::vector<double> a(K), b(K);
        for (int k = 0; k < K; ++k) {
          a[k] = random_value(g, pr.a, center_a - width, center_a + width, sa, specials);
          b[k] = random_value(g, pr.b, center_b - width, center_b + width, sb, specials);
        }
        // Exact cancellation: sometimes repeat a product with the opposite sign.
        if (K >= 4 && g() % 4 == 0) {
          int i = int(g() % uint32_t(K)), j = int(g() % uint32_t(K));
          a[j] = -a[i];
          b[j] = b[i];
        }
        const MfmaFormat f{pr.kind, pr.a.emin + sa, pr.b.emin + sb};
        const float c = random_c(g, center_a + center_b + sa + sb);
        const float want = cdnajit::sim::mfma_dot_cdna3_reference(a.data(), b.data(), K, c, f);
        // Through the operand interface, as the simulator calls it.
        std::vector<MfmaTerm> ta(K), tb(K);
        const bool da = cdnajit::sim::mfma_decode(a.data(), K, f.min_exp_a, ta.data());
        const bool db = cdnajit::sim::mfma_decode(b.data(), K, f.min_exp_b, tb.data());
        const float got =
            cdnajit::sim::mfma_dot_cdna3(MfmaOperand{a.data(), ta.data(), da}, MfmaOperand{b.data(), tb.data(), db}, K, c, f);
        // And through the value interface.
        const float got_values = cdnajit::sim::mfma_dot_cdna3(a.data(), b.data(), K, c, f);
        ++cases;
        decoded_cases += da && db && std::isfinite(c);
        const uint32_t w = std::bit_cast<uint32_t>(want);
        if (std::bit_cast<uint32_t>(got) != w || std::bit_cast<uint32_t>(got_values) != w) {
          ++differing;
          if (differing <= 3) {
            std::string vals;
            for (int k = 0; k < K; ++k) {
              vals += ' ';
              vals += std::to_string(a[k]);
              vals += '*';
              vals += std::to_string(b[k]);
            }
            UNSCOPED_INFO(pr.a.name << " x " << pr.b.name << " K " << K << " c " << c << ": reference " << std::hexfloat
                                    << want << ", fast " << got << ", values " << got_values << std::defaultfloat
                                    << "; products" << vals);
          }
        }
      }
  INFO("cases " << cases << ", with both operands decoded and C finite (fast path) " << decoded_cases);
  cdnajit::sim::mfma_vector_path(true);
  std::printf("test_mfma_fast_path: %ld cases (%s)\n", cases, have_vector ? "AVX2 and portable group sums" : "portable group sums; no AVX2 on this host");
  CHECK(differing == 0);
  // The comparison means something only if most cases take the fast path.
  CHECK(decoded_cases > cases / 2);
}

// The row-vector form for f16/bf16 MFMAs (mfma_half_row8: eight outputs of a row at once, rows8x2 two
// rows of eight, rows16x2 two rows of sixteen (AVX-512 where the host has it), operands
// decoded from their bits by mfma_half_decode) against the reference implementation on each output,
// on random tiles: exponent fields from narrow and whole-range windows, subnormals, zeros of both
// signs, C of every class (infinities and NaNs take the reference path inside, as in the scalar code).
TEST_CASE("f16/bf16 MFMA row-vector path is bit-identical to the reference implementation", "[sim][numerics][mfma]") {
  const uint32_t seed = seed_from_env();
  INFO("seed " << seed << " (CDNAJIT_TEST_SEED)");
  std::mt19937 g(seed + 7);
  using cdnajit::sim::MfmaHalfOperands;
  constexpr int kCols = 16;
  long cases = 0, differing = 0, rejected = 0;
  const bool have_vector = cdnajit::sim::mfma_vector_path(true);
  for (const bool vector : {true, false})
    for (const bool bf16 : {true, false})
      for (const int K : {8, 16, 32})
        for (int it = 0; it < 150 && (have_vector || !vector); ++it) {
          cdnajit::sim::mfma_vector_path(vector);
          const int fbits = bf16 ? 7 : 10, top = bf16 ? 0xff : 0x1f;
          const bool wide = g() % 6 == 0;
          const int center = 1 + int(g() % uint32_t(top - 1)), width = wide ? top : int(g() % 6);
          auto element = [&]() -> uint16_t {
            const uint32_t r = g() % 32, sign = (g() & 1) << 15, frac = g() & ((1u << fbits) - 1);
            if (r == 0) return uint16_t(sign);                    // +-0
            if (r == 1) return uint16_t(sign | frac);             // subnormal (or zero)
            const int ef = std::clamp(center + int(g() % uint32_t(2 * width + 1)) - width, 1, top - 1);
            return uint16_t(sign | uint32_t(ef) << fbits | frac);
          };
          // Rows of A and columns of B by K: element (k, x) of a 2 x K x 16 tile, two per dword.
          std::vector<uint32_t> dw[2];
          std::vector<uint32_t> sig[2];
          std::vector<int32_t> ex[2];
          std::vector<uint16_t> raw[2];
          for (int x = 0; x < 2; ++x) {
            dw[x].resize(size_t(K) * kCols);
            sig[x].resize(dw[x].size());
            ex[x].resize(dw[x].size());
            raw[x].resize(dw[x].size());
            for (auto& d : dw[x]) d = element() | uint32_t(element()) << 16;
            for (int k = 0; k < K; ++k)
              REQUIRE(cdnajit::sim::mfma_half_decode(dw[x].data() + size_t(k) * kCols, kCols, k & 1, bf16, sig[x].data() + size_t(k) * kCols,
                                                     ex[x].data() + size_t(k) * kCols, raw[x].data() + size_t(k) * kCols));
            // The decoder's copy of the bits is the element itself (the reference values below come from it).
            for (size_t e = 0; e < dw[x].size(); ++e)
              REQUIRE(raw[x][e] == uint16_t(dw[x][e] >> (16 * ((e / kCols) & 1))));
          }
          const MfmaHalfOperands t{bf16, K, kCols, kCols, sig[0].data(), ex[0].data(), sig[1].data(), ex[1].data(), raw[0].data(), raw[1].data()};
          const int min_exp = bf16 ? -126 : -14;
          const MfmaFormat f{MfmaKind::Fused, min_exp, min_exp};
          auto value = [&](uint16_t h) {
            if (bf16) return double(std::bit_cast<float>(uint32_t(h) << 16));
            const int ef = (h >> 10) & 0x1f;
            const double m = ef ? double(0x400 | (h & 0x3ff)) : double(h & 0x3ff);
            return ((h & 0x8000) ? -1.0 : 1.0) * std::ldexp(m, (ef ? ef : 1) - 25);
          };
          for (int i = 0; i < kCols; i += 2) {
            // Rows i and i + 1, all sixteen columns: c2[16 y + col].
            float c2[32], want[32];
            for (int y = 0; y < 32; ++y) {
              const int row = i + y / 16, col = y % 16;
              c2[y] = random_c(g, 2 * (center - (bf16 ? 127 : 15)));
              std::vector<double> a(K), b(K);
              for (int k = 0; k < K; ++k) {
                a[k] = value(raw[0][size_t(k) * kCols + row]);
                b[k] = value(raw[1][size_t(k) * kCols + col]);
              }
              want[y] = cdnajit::sim::mfma_dot_cdna3_reference(a.data(), b.data(), K, c2[y], f);
            }
            // One row of eight at a time, two rows of eight at once, two rows of sixteen at once.
            float one[32], two[32], wide[32];
            for (int j0 = 0; j0 < kCols; j0 += 8) {
              float r8[16];
              for (int y = 0; y < 2; ++y) std::copy(c2 + 16 * y + j0, c2 + 16 * y + j0 + 8, r8 + 8 * y);
              cdnajit::sim::mfma_half_row8(t, i, j0, r8);
              cdnajit::sim::mfma_half_row8(t, i + 1, j0, r8 + 8);
              for (int y = 0; y < 2; ++y) std::copy(r8 + 8 * y, r8 + 8 * y + 8, one + 16 * y + j0);
              for (int y = 0; y < 2; ++y) std::copy(c2 + 16 * y + j0, c2 + 16 * y + j0 + 8, r8 + 8 * y);
              cdnajit::sim::mfma_half_rows8x2(t, i, j0, r8);
              for (int y = 0; y < 2; ++y) std::copy(r8 + 8 * y, r8 + 8 * y + 8, two + 16 * y + j0);
            }
            std::copy(c2, c2 + 32, wide);
            cdnajit::sim::mfma_half_rows16x2(t, i, 0, wide);
            for (int y = 0; y < 32; ++y) {
              ++cases;
              const uint32_t wb = std::bit_cast<uint32_t>(want[y]);
              if ((std::bit_cast<uint32_t>(one[y]) != wb || std::bit_cast<uint32_t>(two[y]) != wb ||
                   std::bit_cast<uint32_t>(wide[y]) != wb) &&
                  ++differing <= 3)
                UNSCOPED_INFO((bf16 ? "bf16" : "f16") << " K " << K << " row " << i + y / 16 << " column " << y % 16
                                                      << ": reference " << std::hexfloat << want[y] << ", row path " << one[y]
                                                      << ", two rows " << two[y] << ", sixteen columns " << wide[y]
                                                      << std::defaultfloat);
            }
          }
          // An infinity or NaN element is refused by the decoder (the per-output path takes it).
          uint32_t bad = uint32_t(top) << fbits | (g() & 1);
          uint32_t s1;
          int32_t e1;
          uint16_t r1;
          rejected += !cdnajit::sim::mfma_half_decode(&bad, 1, false, bf16, &s1, &e1, &r1);
        }
  cdnajit::sim::mfma_vector_path(true);
  std::printf("test_mfma_fast_path: %ld row-path outputs (%s)\n", cases, have_vector ? "vector (AVX2, AVX-512 where the host has it) and portable" : "portable only");
  CHECK(differing == 0);
  CHECK(rejected == (have_vector ? 2 : 1) * 2 * 3 * 150);
}
