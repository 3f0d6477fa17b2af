// Sparse MFMAs (v_smfmac_*, runtime/sim/ops_smfmac.cpp) through clang-22's __builtin_amdgcn_smfmac_*
// builtins on gfx942 and gfx950, bit-exact against a deliberately independent oracle written here
// from the matrix side: a 4:2-sparse A (two stored values per group of 4 K elements, positions
// chosen per group), dense B and C; the kernel's registers are packed from those matrices by the
// layouts of AMD's matrix instruction calculator (A's stored values in ascending K, the 2-bit index
// of each in the index set ABID selects, junk in the other sets). Expected: in the Exact numerics
// mode the exact sum of the stored products and C (MPFR) rounded once; in the CDNA3 mode the plain
// CDNA3-rule oracle (tests/sim/mfma_cdna3_oracle.hpp) over the stored products in ascending K (the
// simulator's documented hypothesis for the sparse forms); integer forms exact with int32 wrap.
// Seed: CDNAJIT_TEST_SEED (printed).
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "runtime/hip_source.hpp"
#include "tests/sim/mfma_cdna3_oracle.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace simtest;
using namespace mfma_oracle;
using cdnajit::Arch;

namespace {

const char* kSrc = R"(
typedef _Float16 v4h __attribute__((ext_vector_type(4)));
typedef _Float16 v8h __attribute__((ext_vector_type(8)));
typedef _Float16 v16h __attribute__((ext_vector_type(16)));
typedef short v4s __attribute__((ext_vector_type(4)));
typedef short v8s __attribute__((ext_vector_type(8)));
typedef int v2i __attribute__((ext_vector_type(2)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v8i __attribute__((ext_vector_type(8)));
typedef int v16i __attribute__((ext_vector_type(16)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
#define SM(name, TA, TB, TC, op, cbsz, abid) \
extern "C" __global__ void name(const TA* a, const TB* b, const int* idx, TC* d) { \
  unsigned l = tid(); d[l] = __builtin_amdgcn_smfmac_##op(a[l], b[l], d[l], idx[l], cbsz, abid); }
SM(s0, v4h, v8h, v4f, f32_16x16x32_f16, 0, 2)
SM(s1, v4s, v8s, v16f, f32_32x32x16_bf16, 1, 1)
SM(s2, v2i, v4i, v4i, i32_16x16x64_i8, 0, 1)
SM(s3, v2i, v4i, v4f, f32_16x16x64_fp8_bf8, 0, 1)
SM(s4, v2i, v4i, v16f, f32_32x32x32_bf8_fp8, 0, 0)
SM(s5, v4s, v8s, v4f, f32_16x16x32_bf16, 0, 3)
SM(s6, v4h, v8h, v16f, f32_32x32x16_f16, 0, 1)
SM(s7, v2i, v4i, v16i, i32_32x32x32_i8, 1, 0)
#if defined(__gfx950__)
typedef __bf16 v8y __attribute__((ext_vector_type(8)));
typedef __bf16 v16y __attribute__((ext_vector_type(16)));
SM(t0, v8h, v16h, v4f, f32_16x16x64_f16, 0, 1)
SM(t1, v8y, v16y, v16f, f32_32x32x32_bf16, 0, 0)
SM(t2, v4i, v8i, v4i, i32_16x16x128_i8, 0, 0)
SM(t3, v4i, v8i, v4f, f32_16x16x128_fp8_fp8, 0, 0)
SM(t4, v4i, v8i, v16f, f32_32x32x64_bf8_bf8, 0, 0)
SM(t5, v4i, v8i, v16i, i32_32x32x64_i8, 0, 0)
#endif
)";

enum class E { F16, BF16, I8, FP8, BF8 };

struct Case {
  const char* kernel;
  const char* mnemonic;
  bool gfx950_only;
  int M, K;
  E ea, eb;
  int cbsz, abid;
};
const Case kCases[] = {
    {"s0", "v_smfmac_f32_16x16x32_f16", false, 16, 32, E::F16, E::F16, 0, 2},
    {"s1", "v_smfmac_f32_32x32x16_bf16", false, 32, 16, E::BF16, E::BF16, 1, 1},
    {"s2", "v_smfmac_i32_16x16x64_i8", false, 16, 64, E::I8, E::I8, 0, 1},
    {"s3", "v_smfmac_f32_16x16x64_fp8_bf8", false, 16, 64, E::FP8, E::BF8, 0, 1},
    {"s4", "v_smfmac_f32_32x32x32_bf8_fp8", false, 32, 32, E::BF8, E::FP8, 0, 0},
    {"s5", "v_smfmac_f32_16x16x32_bf16", false, 16, 32, E::BF16, E::BF16, 0, 3},
    {"s6", "v_smfmac_f32_32x32x16_f16", false, 32, 16, E::F16, E::F16, 0, 1},
    {"s7", "v_smfmac_i32_32x32x32_i8", false, 32, 32, E::I8, E::I8, 1, 0},
    {"t0", "v_smfmac_f32_16x16x64_f16", true, 16, 64, E::F16, E::F16, 0, 1},
    {"t1", "v_smfmac_f32_32x32x32_bf16", true, 32, 32, E::BF16, E::BF16, 0, 0},
    {"t2", "v_smfmac_i32_16x16x128_i8", true, 16, 128, E::I8, E::I8, 0, 0},
    {"t3", "v_smfmac_f32_16x16x128_fp8_fp8", true, 16, 128, E::FP8, E::FP8, 0, 0},
    {"t4", "v_smfmac_f32_32x32x64_bf8_bf8", true, 32, 64, E::BF8, E::BF8, 0, 0},
    {"t5", "v_smfmac_i32_32x32x64_i8", true, 32, 64, E::I8, E::I8, 0, 0},
};

ElemFmt fmt_of(E e, bool fnuz) {
  switch (e) {
    case E::F16: return {2, 5, 10, 15};
    case E::BF16: return {2, 8, 7, 127};
    case E::FP8: return {1, 4, 3, fnuz ? 8 : 7};
    case E::BF8: return {1, 5, 2, fnuz ? 16 : 15};
    default: return {1, 0, 0, 0};  // i8: not a float format
  }
}

int row_of(int M, int l, int r) { return M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4; }

// One wave of sparse-MFMA kernel `kernel` with A, B and the index registers already on the device at
// da, db, di, and C (its registers lane by lane) uploaded here as `c_name`; returns D, read back from
// C's place (the kernel accumulates in place).
template <class T>
std::vector<T> run_smfmac(Device& dev, const cdnajit::CodeObject& co, const char* kernel, uint64_t da, uint64_t db,
                          uint64_t di, const std::vector<T>& c, const std::string& c_name = "",
                          const cdnajit::sim::Options& o = {}) {
  const uint64_t dd = dev.upload(c, c_name);
  dev.run(co, kernel, ArgPack().add(da).add(db).add(di).add(dd), dims1(1, 64), o);
  return dev.download<T>(dd, c.size());
}

}  // namespace

TEST_CASE("v_smfmac_*: clang kernels bit-exact against an independent sparse-matrix oracle", "[sim][mfma][smfmac]") {
  std::string why;  // clang++-22 builds the kernels; without it the test is skipped with the reason
  if (!load_hip_or_skip(kSrc, Arch::gfx942, why)) CDNAJIT_SKIP(why);
  const uint64_t seed = cdnajit::test::test_seed("test_smfmac", 20261126u);
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    const bool fnuz = arch == Arch::gfx942;
    auto co = load_hip(kSrc, arch);
    for (const Case& c : kCases) {
      if (c.gfx950_only && arch != Arch::gfx950) continue;
      INFO(cdnajit::arch_name(arch) << " " << c.mnemonic << " cbsz " << c.cbsz << " abid " << c.abid);
      Device dev(arch);
      const std::string dis = dev.sim.disassemble(co, c.kernel);
      REQUIRE(dis.find(c.mnemonic) != std::string::npos);
      REQUIRE(dis.find("<not implemented>") == std::string::npos);
      const bool integer = c.ea == E::I8;
      const ElemFmt fa = fmt_of(c.ea, fnuz), fb = fmt_of(c.eb, fnuz);
      const int M = c.M, N = c.M, K = c.K, kpl = K / (64 / M), cpl = kpl / 2, nreg = M * N / 64;
      const int eb = (c.ea == E::F16 || c.ea == E::BF16) ? 2 : 1;
      const int set_bits = 2 * cpl, set = c.cbsz ? 0 : c.abid;
      std::mt19937 g(uint32_t(seed) * 131u + uint32_t(K) * 7u + uint32_t(M) + uint32_t(arch));
      auto code = [&](E e, const ElemFmt& f) -> uint32_t {
        if (e == E::I8) return g() & 0xffu;
        const int emax_field = (1 << f.ebits) - 2;
        return random_code(g, f, std::max(1, emax_field / 2 - 6), std::min(emax_field, emax_field / 2 + 6));
      };
      // The sparse A as a matrix: per row and group of 4, two distinct positions p0 < p1 (all six
      // pairs occur) and their codes; B (K x N) and C (M x N) dense.
      std::vector<std::vector<int>> pos(M, std::vector<int>(K / 2));
      std::vector<std::vector<uint32_t>> acode(M, std::vector<uint32_t>(K / 2));
      static const int kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
      for (int i = 0; i < M; ++i)
        for (int q = 0; q < K / 4; ++q) {
          const int* p = kPairs[g() % 6];
          for (int s = 0; s < 2; ++s) {
            pos[i][2 * q + s] = 4 * q + p[s];
            acode[i][2 * q + s] = code(c.ea, fa);
          }
        }
      std::vector<uint32_t> B(size_t(K) * N);
      for (auto& x : B) x = code(c.eb, fb);
      std::vector<uint32_t> C(size_t(M) * N);
      for (auto& x : C) x = integer ? uint32_t(g()) : simtest::bits(std::ldexp(float(int(g() % 2001) - 1000), int(g() % 12) - 16));
      // Registers. A: lane l = row l % M, dense columns (l / M) * kpl .. + kpl - 1; its stored
      // value t is the t-th stored value of that range (element t of the lane's A vector); its
      // position within its group goes into bits [2t + 1 : 2t] of the selected index set.
      std::vector<uint8_t> ra(64 * size_t(cpl * eb)), rb(64 * size_t(kpl * eb));
      std::vector<uint32_t> ridx(64), rd(64 * size_t(nreg));
      for (int l = 0; l < 64; ++l) {
        const int i = l % M, first = (l / M) * cpl;
        uint64_t word = uint64_t(g()) & 0xffffffffu;  // junk in the sets not selected
        const uint64_t mask = ((uint64_t(1) << set_bits) - 1) << (set * set_bits);
        word &= ~mask;
        for (int t = 0; t < cpl; ++t) {
          std::memcpy(&ra[(size_t(l) * cpl + t) * eb], &acode[i][first + t], eb);
          word |= uint64_t(pos[i][first + t] % 4) << (set * set_bits + 2 * t);
        }
        ridx[l] = uint32_t(word);
        for (int j = 0; j < kpl; ++j) std::memcpy(&rb[(size_t(l) * kpl + j) * eb], &B[size_t((l / N) * kpl + j) * N + l % N], eb);
        for (int r = 0; r < nreg; ++r) rd[size_t(l) * nreg + r] = C[size_t(row_of(M, l, r)) * N + l % N];
      }
      // Expected values.
      std::vector<uint32_t> want(64 * size_t(nreg)), want_exact(64 * size_t(nreg));
      for (int l = 0; l < 64; ++l)
        for (int r = 0; r < nreg; ++r) {
          const int i = row_of(M, l, r), j = l % N;
          const uint32_t c0 = C[size_t(i) * N + j];
          std::vector<uint32_t> xa(K / 2), xb(K / 2);
          for (int t = 0; t < K / 2; ++t) { xa[t] = acode[i][t]; xb[t] = B[size_t(pos[i][t]) * N + j]; }
          const size_t at = size_t(l) * nreg + r;
          if (integer) {
            uint32_t s = c0;
            for (int t = 0; t < K / 2; ++t) s += uint32_t(int32_t(int8_t(xa[t])) * int32_t(int8_t(xb[t])));
            want[at] = want_exact[at] = s;
            continue;
          }
          const bool fp8 = eb == 1;
          want[at] = simtest::bits(oracle_dot(xa, xb, fa, fb, simtest::flt(c0), false, fp8, fp8 ? 16 : 8));
          mpfr_t acc, p;
          mpfr_inits2(2000, acc, p, (mpfr_ptr)0);
          mpfr_set_flt(acc, simtest::flt(c0), MPFR_RNDN);
          for (int t = 0; t < K / 2; ++t) {
            mpfr_set_d(p, value(decode(xa[t], fa), fa), MPFR_RNDN);
            mpfr_mul_d(p, p, value(decode(xb[t], fb), fb), MPFR_RNDN);
            mpfr_add(acc, acc, p, MPFR_RNDN);
          }
          want_exact[at] = simtest::bits(mpfr_get_flt(acc, MPFR_RNDN));
          mpfr_clears(acc, p, (mpfr_ptr)0);
        }
      uint64_t da = dev.upload(ra, "a"), db = dev.upload(rb, "b"), di = dev.upload(ridx, "idx");
      for (auto mode : {cdnajit::sim::Options::MfmaNumerics::Cdna3, cdnajit::sim::Options::MfmaNumerics::Exact}) {
        const bool is_exact = mode == cdnajit::sim::Options::MfmaNumerics::Exact;
        INFO("mode " << (is_exact ? "exact" : "cdna3"));
        cdnajit::sim::Options o;
        o.mfma_numerics = mode;
        auto got = run_smfmac(dev, co, c.kernel, da, db, di, rd, "d", o);
        const auto& w = is_exact ? want_exact : want;
        std::string first;
        const size_t bad = count_mismatches(got, w, nreg, first);
        INFO("mismatches: " << bad << first);
        CHECK(bad == 0);
      }
      if (!integer) {  // the two numerics models must differ somewhere, or the CDNA3 check proves little
        size_t differ = 0;
        for (size_t x = 0; x < want.size(); ++x) differ += want[x] != want_exact[x];
        INFO("outputs where the CDNA3 rules and the exact sum differ: " << differ);
        CHECK(differ > 0);
      }
    }
  }
}

TEST_CASE("v_smfmac_f32_16x16x32_f16: the index set ABID selects picks the B rows (hand-built probe)", "[sim][mfma][smfmac]") {
  std::string why;  // clang++-22 builds the kernels; without it the test is skipped with the reason
  if (!load_hip_or_skip(kSrc, Arch::gfx942, why)) CDNAJIT_SKIP(why);
  // Kernel s0 (abid:2 -> bits [23:16]). Every stored A value is 1.0, B[k][j] = k + 1, C[i][j] = i.
  // Index byte 0xD8 = positions (0, 2) in the lane's first group of 4 and (1, 3) in its second: lane
  // group g (K columns 8g .. 8g + 7) adds B rows 8g, 8g + 2, 8g + 5, 8g + 7, i.e. 32g + 18; over
  // g = 0..3 that is 264, so D[i][j] = i + 264 in both numerics modes (small integers, exact). The
  // other bytes hold 0xEE (positions (2, 3), (2, 3): 32g + 22 per group, 280 in all) and must be ignored.
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(cdnajit::arch_name(arch));
    auto co = load_hip(kSrc, arch);
    Device dev(arch);
    std::vector<uint16_t> a(64 * 4, 0x3c00), b(64 * 8);  // f16 1.0
    for (int l = 0; l < 64; ++l)
      for (int j = 0; j < 8; ++j) {
        _Float16 v = _Float16((l / 16) * 8 + j + 1);
        std::memcpy(&b[size_t(l) * 8 + j], &v, 2);
      }
    std::vector<uint32_t> idx(64, 0xEED8EEEEu);
    std::vector<float> d(64 * 4);
    for (int l = 0; l < 64; ++l)
      for (int r = 0; r < 4; ++r) d[size_t(l) * 4 + r] = float(4 * (l / 16) + r);
    uint64_t da = dev.upload(a), db = dev.upload(b), di = dev.upload(idx);
    auto got = run_smfmac(dev, co, "s0", da, db, di, d);
    for (int l = 0; l < 64; ++l)
      for (int r = 0; r < 4; ++r) {
        INFO("lane " << l << " reg " << r);
        CHECK(got[size_t(l) * 4 + r] == float(4 * (l / 16) + r + 264));
      }
  }
}
