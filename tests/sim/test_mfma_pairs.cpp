// Every dense MFMA builtin clang-22 exposes on gfx942 / gfx950 that test_mfma_numerics.cpp does not
// already check bit-exactly: the multi-block f32/f16/bf16_1k/i8 forms (_2b/_4b/_16b, whose data
// movement test_mfma_broadcast.cpp checks with small integers only), the other single-block shapes,
// the mixed fp8/bf8 pairs, the gfx950-only f16/bf16/i8 shapes, and the gfx950 f8f6f4 MFMAs (fp8,
// bf8, fp6, bf6, fp4: all 25 format pairs on both shapes, with E8M0 scales) under the default
// CDNA3-rule numerics. One kernel per builtin, one clang run per arch and kernel set, random
// operands (seed CDNAJIT_TEST_SEED, printed), every output compared with the plain CDNA3-rule oracle of tests/sim/mfma_cdna3_oracle.hpp (a deliberate
// independent re-implementation of the published rules, sharing no code with the simulator) and, in
// the Exact numerics mode, with the MPFR sum rounded once; integer MFMAs with int32 wrap-around.
// The operand and result layouts are written here from the ISA guide's tables (the same ones
// test_mfma_broadcast.cpp uses), independently of runtime/sim/ops_mfma.cpp.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <cmath>
#include <random>
#include <string>

#include "tests/sim/mfma_cdna3_oracle.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace simtest;
using namespace mfma_oracle;
using cdnajit::Arch;

namespace {

const char* kSrc = R"(
typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef _Float16 h8 __attribute__((ext_vector_type(8)));
typedef short s4 __attribute__((ext_vector_type(4)));
typedef int i4 __attribute__((ext_vector_type(4)));
typedef int i16 __attribute__((ext_vector_type(16)));
typedef int i32v __attribute__((ext_vector_type(32)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef float f16 __attribute__((ext_vector_type(16)));
typedef float f32v __attribute__((ext_vector_type(32)));
#define MF(name, TA, TC, op) \
extern "C" __global__ void name(const TA* a, const TA* b, const TC* c, TC* d) { \
  unsigned t = tid(); d[t] = __builtin_amdgcn_##op(a[t], b[t], c[t], 0, 0, 0); }
MF(p0, float, f32v, mfma_f32_32x32x1f32)
MF(p1, float, f16, mfma_f32_16x16x1f32)
MF(p2, float, f4, mfma_f32_4x4x1f32)
MF(p3, float, f16, mfma_f32_32x32x2f32)
MF(p4, h4, f32v, mfma_f32_32x32x4f16)
MF(p5, h4, f16, mfma_f32_16x16x4f16)
MF(p6, h4, f4, mfma_f32_4x4x4f16)
MF(p7, h4, f16, mfma_f32_32x32x8f16)
MF(p8, s4, f32v, mfma_f32_32x32x4bf16_1k)
MF(p9, s4, f16, mfma_f32_16x16x4bf16_1k)
MF(p10, s4, f4, mfma_f32_4x4x4bf16_1k)
MF(p11, s4, f4, mfma_f32_16x16x16bf16_1k)
MF(p12, int, i32v, mfma_i32_32x32x4i8)
MF(p13, int, i16, mfma_i32_16x16x4i8)
MF(p14, int, i4, mfma_i32_4x4x4i8)
MF(p15, long, i4, mfma_i32_16x16x32_i8)
MF(p16, long, i16, mfma_i32_32x32x16_i8)
MF(p17, long, f4, mfma_f32_16x16x32_fp8_bf8)
MF(p18, long, f4, mfma_f32_16x16x32_bf8_fp8)
MF(p19, long, f16, mfma_f32_32x32x16_fp8_fp8)
MF(p20, long, f16, mfma_f32_32x32x16_fp8_bf8)
MF(p21, long, f16, mfma_f32_32x32x16_bf8_fp8)
MF(p22, long, f16, mfma_f32_32x32x16_bf8_bf8)
#if defined(__gfx950__)
typedef __bf16 y8 __attribute__((ext_vector_type(8)));
MF(q0, h8, f16, mfma_f32_32x32x16_f16)
MF(q1, y8, f4, mfma_f32_16x16x32_bf16)
MF(q2, y8, f16, mfma_f32_32x32x16_bf16)
MF(q3, i4, i4, mfma_i32_16x16x64_i8)
MF(q4, i4, i16, mfma_i32_32x32x32_i8)
#endif
)";

enum class E { F32, F16, BF16, I8, FP8, BF8 };

struct Case {
  const char* kernel;
  const char* mnemonic;  // what the builtin must compile to (the gfx940+ spelling LLVM prints)
  bool gfx950_only;
  int M, K, blocks;
  E ea, eb;
};
const Case kCases[] = {
    {"p0", "v_mfma_f32_32x32x1_2b_f32", false, 32, 1, 2, E::F32, E::F32},
    {"p1", "v_mfma_f32_16x16x1_4b_f32", false, 16, 1, 4, E::F32, E::F32},
    {"p2", "v_mfma_f32_4x4x1_16b_f32", false, 4, 1, 16, E::F32, E::F32},
    {"p3", "v_mfma_f32_32x32x2_f32", false, 32, 2, 1, E::F32, E::F32},
    {"p4", "v_mfma_f32_32x32x4_2b_f16", false, 32, 4, 2, E::F16, E::F16},
    {"p5", "v_mfma_f32_16x16x4_4b_f16", false, 16, 4, 4, E::F16, E::F16},
    {"p6", "v_mfma_f32_4x4x4_16b_f16", false, 4, 4, 16, E::F16, E::F16},
    {"p7", "v_mfma_f32_32x32x8_f16", false, 32, 8, 1, E::F16, E::F16},
    {"p8", "v_mfma_f32_32x32x4_2b_bf16", false, 32, 4, 2, E::BF16, E::BF16},
    {"p9", "v_mfma_f32_16x16x4_4b_bf16", false, 16, 4, 4, E::BF16, E::BF16},
    {"p10", "v_mfma_f32_4x4x4_16b_bf16", false, 4, 4, 16, E::BF16, E::BF16},
    {"p11", "v_mfma_f32_16x16x16_bf16", false, 16, 16, 1, E::BF16, E::BF16},
    {"p12", "v_mfma_i32_32x32x4_2b_i8", false, 32, 4, 2, E::I8, E::I8},
    {"p13", "v_mfma_i32_16x16x4_4b_i8", false, 16, 4, 4, E::I8, E::I8},
    {"p14", "v_mfma_i32_4x4x4_16b_i8", false, 4, 4, 16, E::I8, E::I8},
    {"p15", "v_mfma_i32_16x16x32_i8", false, 16, 32, 1, E::I8, E::I8},
    {"p16", "v_mfma_i32_32x32x16_i8", false, 32, 16, 1, E::I8, E::I8},
    {"p17", "v_mfma_f32_16x16x32_fp8_bf8", false, 16, 32, 1, E::FP8, E::BF8},
    {"p18", "v_mfma_f32_16x16x32_bf8_fp8", false, 16, 32, 1, E::BF8, E::FP8},
    {"p19", "v_mfma_f32_32x32x16_fp8_fp8", false, 32, 16, 1, E::FP8, E::FP8},
    {"p20", "v_mfma_f32_32x32x16_fp8_bf8", false, 32, 16, 1, E::FP8, E::BF8},
    {"p21", "v_mfma_f32_32x32x16_bf8_fp8", false, 32, 16, 1, E::BF8, E::FP8},
    {"p22", "v_mfma_f32_32x32x16_bf8_bf8", false, 32, 16, 1, E::BF8, E::BF8},
    {"q0", "v_mfma_f32_32x32x16_f16", true, 32, 16, 1, E::F16, E::F16},
    {"q1", "v_mfma_f32_16x16x32_bf16", true, 16, 32, 1, E::BF16, E::BF16},
    {"q2", "v_mfma_f32_32x32x16_bf16", true, 32, 16, 1, E::BF16, E::BF16},
    {"q3", "v_mfma_i32_16x16x64_i8", true, 16, 64, 1, E::I8, E::I8},
    {"q4", "v_mfma_i32_32x32x32_i8", true, 32, 32, 1, E::I8, E::I8},
};

ElemFmt fmt_of(E e, bool fnuz) {
  switch (e) {
    case E::F32: return {4, 8, 23, 127};
    case E::F16: return {2, 5, 10, 15};
    case E::BF16: return {2, 8, 7, 127};
    case E::FP8: return {1, 4, 3, fnuz ? 8 : 7};
    case E::BF8: return {1, 5, 2, fnuz ? 16 : 15};
    default: return {1, 0, 0, 0};  // i8: not a float format
  }
}

// Where the ISA guide's tables put things, for M x M blocks (`blocks` of them), K per block.
// A/B: lane l holds, of block (l % (M * blocks)) / M, row (A) or column (B) l % M, the kpl
// consecutive K elements from (l / (M * blocks)) * kpl, kpl = K * M * blocks / 64.
// D: lane l, register r -> (block, row, column); column l % M.
void d_pos(int M, int reg, int lane, int& block, int& row) {
  if (M == 4) { block = lane / 4; row = reg; }
  else if (M == 16) { block = reg / 4; row = 4 * (lane / 16) + reg % 4; }
  else { block = reg / 16; row = 8 * ((reg % 16) / 4) + 4 * (lane / 32) + reg % 4; }
}

float random_f32(std::mt19937& g) {  // 24 random significand bits, exponents in a narrow window
  float v = std::ldexp(float((1u << 23) | (g() & 0x7fffffu)), int(g() % 9) - 4 - 23);
  return (g() & 1) ? -v : v;
}

}  // namespace

TEST_CASE("every other dense MFMA builtin: clang kernels bit-exact against the CDNA3-rule oracle and the exact sum",
          "[sim][numerics][mfma][kernels]") {
  std::string why;
  if (!load_hip_or_skip(kSrc, Arch::gfx942, why)) CDNAJIT_SKIP(why);
  const uint64_t seed = cdnajit::test::test_seed("test_mfma_pairs", 20261126u);
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    const bool fnuz = arch == Arch::gfx942;
    auto co = load_hip(kSrc, arch);
    Device dev(arch);
    for (const Case& c : kCases) {
      if (c.gfx950_only && arch != Arch::gfx950) continue;
      INFO(cdnajit::arch_name(arch) << " " << c.mnemonic);
      const std::string dis = dev.sim.disassemble(co, c.kernel);
      REQUIRE(dis.find(c.mnemonic) != std::string::npos);
      REQUIRE(dis.find("<not implemented>") == std::string::npos);
      const int M = c.M, K = c.K, nb = c.blocks, kpl = K * M * nb / 64, nreg = M * M * nb / 64;
      const ElemFmt fa = fmt_of(c.ea, fnuz), fb = fmt_of(c.eb, fnuz);
      const bool integer = c.ea == E::I8, f32 = c.ea == E::F32, fp8 = c.ea == E::FP8 || c.ea == E::BF8;
      const int eb = fa.bytes;
      std::mt19937 g(uint32_t(seed) * 977u + uint32_t(K) * 13u + uint32_t(M) * 7u + uint32_t(nb) + uint32_t(c.ea) * 101u +
                     uint32_t(c.eb) * 11u + uint32_t(arch));
      auto code = [&](E e, const ElemFmt& f) -> uint32_t {
        if (e == E::I8) return g() & 0xffu;
        if (e == E::F32) return simtest::bits(random_f32(g));
        const int emax_field = (1 << f.ebits) - 2;
        return random_code(g, f, std::max(1, emax_field / 2 - 6), std::min(emax_field, emax_field / 2 + 6));
      };
      // A[block][row][k], B[block][k][col], C[block][row][col] as codes / bits.
      auto ix = [&](int b, int x, int k) { return (size_t(b) * M + size_t(x)) * K + size_t(k); };
      std::vector<uint32_t> A(size_t(nb) * M * K), B(size_t(nb) * M * K), C(size_t(nb) * M * M);
      for (auto& x : A) x = code(c.ea, fa);
      for (auto& x : B) x = code(c.eb, fb);
      for (auto& x : C) x = integer ? uint32_t(g()) : simtest::bits(std::ldexp(float(int(g() % 2001) - 1000), int(g() % 12) - 16));
      // Registers.
      std::vector<uint8_t> ra(64 * size_t(kpl * eb)), rb(64 * size_t(kpl * eb));
      for (int l = 0; l < 64; ++l) {
        const int b = (l % (M * nb)) / M, x = l % M, k0 = (l / (M * nb)) * kpl;
        for (int j = 0; j < kpl; ++j) {
          std::memcpy(&ra[(size_t(l) * kpl + j) * eb], &A[ix(b, x, k0 + j)], eb);
          std::memcpy(&rb[(size_t(l) * kpl + j) * eb], &B[ix(b, x, k0 + j)], eb);
        }
      }
      std::vector<uint32_t> rc(64 * size_t(nreg)), want(rc.size()), want_exact(rc.size());
      for (int l = 0; l < 64; ++l)
        for (int r = 0; r < nreg; ++r) {
          int b, i;
          d_pos(M, r, l, b, i);
          const int j = l % M;
          const size_t at = size_t(l) * nreg + r;
          const uint32_t c0 = C[(size_t(b) * M + i) * M + j];
          rc[at] = c0;
          std::vector<uint32_t> xa(static_cast<size_t>(K)), xb(static_cast<size_t>(K));
          for (int k = 0; k < K; ++k) { xa[size_t(k)] = A[ix(b, i, k)]; xb[size_t(k)] = B[ix(b, j, k)]; }
          if (integer) {
            uint32_t s = c0;
            for (int k = 0; k < K; ++k) s += uint32_t(int32_t(int8_t(xa[size_t(k)])) * int32_t(int8_t(xb[size_t(k)])));
            want[at] = want_exact[at] = s;
            continue;
          }
          want[at] = simtest::bits(oracle_dot(xa, xb, fa, fb, simtest::flt(c0), f32, fp8, fp8 ? 16 : std::min(8, K)));
          mpfr_t acc, p;
          mpfr_inits2(2000, acc, p, (mpfr_ptr)0);
          mpfr_set_flt(acc, simtest::flt(c0), MPFR_RNDN);
          for (int k = 0; k < K; ++k) {
            mpfr_set_d(p, f32 ? double(simtest::flt(xa[size_t(k)])) : value(decode(xa[size_t(k)], fa), fa), MPFR_RNDN);
            mpfr_mul_d(p, p, f32 ? double(simtest::flt(xb[size_t(k)])) : value(decode(xb[size_t(k)], fb), fb), MPFR_RNDN);
            mpfr_add(acc, acc, p, MPFR_RNDN);
          }
          want_exact[at] = simtest::bits(mpfr_get_flt(acc, MPFR_RNDN));
          mpfr_clears(acc, p, (mpfr_ptr)0);
        }
      uint64_t da = dev.upload(ra, "a"), db = dev.upload(rb, "b"), dc = dev.upload(rc, "c"), dd = dev.upload(rc, "d");
      for (auto mode : {cdnajit::sim::Options::MfmaNumerics::Cdna3, cdnajit::sim::Options::MfmaNumerics::Exact}) {
        const bool is_exact = mode == cdnajit::sim::Options::MfmaNumerics::Exact;
        INFO("mode " << (is_exact ? "exact" : "cdna3"));
        cdnajit::sim::Options o;
        o.mfma_numerics = mode;
        dev.run(co, c.kernel, ArgPack().add(da).add(db).add(dc).add(dd), dims1(1, 64), o);
        std::string first;
        const size_t bad = count_mismatches(dev.download<uint32_t>(dd, rc.size()), is_exact ? want_exact : want, nreg, first);
        INFO("mismatches: " << bad << first);
        CHECK(bad == 0);
      }
      if (!integer && !f32) {  // the two models must differ somewhere, or the CDNA3 check proves little
        size_t differ = 0;
        for (size_t x = 0; x < want.size(); ++x) differ += want[x] != want_exact[x];
        INFO("outputs where the CDNA3 rules and the exact sum differ: " << differ);
        CHECK(differ > 0);
      }
    }
  }
}

namespace {

// gfx950 f8f6f4: the formats CBSZ (A) and BLGP (B) select, 0 fp8 E4M3, 1 bf8 E5M2, 2 fp6 E2M3,
// 3 bf6 E3M2, 4 fp4 E2M1 (CDNA4 ISA guide; OCP MX v1.0 for the formats: OCP fp8 biases 7 / 15, fp6 /
// fp4 biases 1, 3, 1 and no inf/NaN codes), and the element width in bits.
const ElemFmt kMx[5] = {{1, 4, 3, 7}, {1, 5, 2, 15}, {1, 2, 3, 1}, {1, 3, 2, 3}, {1, 2, 1, 1}};
const int kMxBits[5] = {8, 8, 6, 6, 4};

struct MxLaunch {
  std::string kernel;
  int M, fa, fb, opsel_a, opsel_b;
  bool scaled;
};

// Kernel name of launch i: x0, x1, ...
std::string launch_name(size_t i) {
  std::string name = "x";
  name += std::to_string(i);
  return name;
}

// Every A x B format pair on both shapes (op_sel bytes varying), and the unscaled opcode (constant
// zero scales) once per shape.
std::vector<MxLaunch> mx_launches() {
  std::vector<MxLaunch> v;
  for (int m : {16, 32})
    for (int fa = 0; fa < 5; ++fa)
      for (int fb = 0; fb < 5; ++fb)
        v.push_back({launch_name(v.size()), m, fa, fb, (fa + fb + m / 16) % 4, (fa + 2 * fb) % 4, true});
  v.push_back({launch_name(v.size()), 16, 2, 1, 0, 0, false});
  v.push_back({launch_name(v.size()), 32, 4, 0, 0, 0, false});
  return v;
}

std::string mx_source(const std::vector<MxLaunch>& launches) {
  std::string s = "typedef int v8i __attribute__((ext_vector_type(8)));\n"
                  "typedef float v4f __attribute__((ext_vector_type(4)));\n"
                  "typedef float v16f __attribute__((ext_vector_type(16)));\n";
  for (const MxLaunch& L : launches) {
    const std::string acc = L.M == 16 ? "v4f" : "v16f";
    const std::string op = L.M == 16 ? "16x16x128" : "32x32x64";
    const std::string sa = L.scaled ? "sa[l]" : "0", sb = L.scaled ? "sb[l]" : "0";
    s += "extern \"C\" __global__ void " + L.kernel + "(const v8i* a, const v8i* b, const int* sa, const int* sb, const " + acc +
         "* c, " + acc + "* d) {\n  unsigned l = tid();\n  d[l] = __builtin_amdgcn_mfma_scale_f32_" + op + "_f8f6f4(a[l], b[l], c[l], " +
         std::to_string(L.fa) + ", " + std::to_string(L.fb) + ", " + std::to_string(L.opsel_a) + ", " + sa + ", " +
         std::to_string(L.opsel_b) + ", " + sb + ");\n}\n";
  }
  return s;
}

}  // namespace

TEST_CASE("gfx950 f8f6f4 MFMAs, every format pair, with scales: bit-exact against the CDNA3-rule oracle and the exact sum",
          "[sim][numerics][mfma][kernels]") {
  // The simulator's CDNA3 mode for these is a documented hypothesis (runtime/sim/README.md): the
  // 8-bit-float rules (groups of 16, even and odd products apart) on every format, one 32-K block
  // at a time, each block's scale added to its element exponents. The oracle applies the same
  // rules independently: the scale moves the format's bias, the plain oracle runs per block.
  const auto launches = mx_launches();
  const std::string src = mx_source(launches);
  std::string why;
  auto loaded = load_hip_or_skip(src, Arch::gfx950, why);
  if (!loaded) CDNAJIT_SKIP(why);
  const cdnajit::CodeObject& co = *loaded;
  const uint64_t seed = cdnajit::test::test_seed("test_mfma_pairs f8f6f4", 20261126u);
  std::mt19937 g(uint32_t(seed) * 31u + 950u);
  Device dev(Arch::gfx950);
  for (const MxLaunch& L : launches) {
    INFO(L.kernel << ": " << L.M << "x" << L.M << (L.scaled ? " scaled" : " unscaled") << ", formats A " << L.fa << " B " << L.fb
                  << ", op_sel " << L.opsel_a << " " << L.opsel_b);
    const std::string dis = dev.sim.disassemble(co, L.kernel);
    REQUIRE(dis.find(L.scaled ? "v_mfma_scale_f32_" : "v_mfma_f32_") != std::string::npos);
    REQUIRE(dis.find("<not implemented>") == std::string::npos);
    const int M = L.M, K = M == 16 ? 128 : 64, kpl = 32, nreg = M * M / 64;
    const ElemFmt &fa = kMx[L.fa], &fb = kMx[L.fb];
    auto code = [&](int f) -> uint32_t {
      if (f >= 2) return g() & ((1u << kMxBits[f]) - 1);  // fp6 / fp4: every code is a number
      const int emax_field = (1 << kMx[f].ebits) - 2;
      return random_code(g, kMx[f], std::max(1, emax_field / 2 - 6), std::min(emax_field, emax_field / 2 + 6));
    };
    // Per lane: its 32 A and B codes packed as one little-endian bit string, and four E8M0 scale
    // bytes in 2^-3 .. 2^3 (op_sel picks one).
    std::vector<std::vector<uint32_t>> ca(64, std::vector<uint32_t>(kpl)), cb = ca;
    std::vector<uint32_t> ra(64 * 8, 0), rb(64 * 8, 0), sa(64, 0), sb(64, 0), rc(64 * size_t(nreg));
    for (int l = 0; l < 64; ++l) {
      for (int j = 0; j < kpl; ++j) {
        ca[l][j] = code(L.fa);
        cb[l][j] = code(L.fb);
        for (int t = 0; t < kMxBits[L.fa]; ++t) ra[size_t(l) * 8 + (j * kMxBits[L.fa] + t) / 32] |= ((ca[l][j] >> t) & 1u) << ((j * kMxBits[L.fa] + t) % 32);
        for (int t = 0; t < kMxBits[L.fb]; ++t) rb[size_t(l) * 8 + (j * kMxBits[L.fb] + t) / 32] |= ((cb[l][j] >> t) & 1u) << ((j * kMxBits[L.fb] + t) % 32);
      }
      for (int byte = 0; byte < 4; ++byte) {
        sa[size_t(l)] |= uint32_t(124 + g() % 7) << (8 * byte);
        sb[size_t(l)] |= uint32_t(124 + g() % 7) << (8 * byte);
      }
      // C with 24 significant bits: the narrow formats' products are too close in magnitude for the
      // alignment truncation to show, C's truncation at the group's exponent does.
      for (int r = 0; r < nreg; ++r) rc[size_t(l) * nreg + r] = simtest::bits(std::ldexp(random_f32(g), int(g() % 12) - 6));
    }
    auto scale = [&](const std::vector<uint32_t>& s, int lane, int sel) {
      return L.scaled ? int((s[size_t(lane)] >> (8 * sel)) & 0xff) - 127 : 0;
    };
    std::vector<uint32_t> want(rc.size()), want_exact(rc.size());
    for (int l = 0; l < 64; ++l)
      for (int r = 0; r < nreg; ++r) {
        int blk, i;
        d_pos(M, r, l, blk, i);
        const int j = l % M;
        const size_t at = size_t(l) * nreg + r;
        float acc = simtest::flt(rc[at]);
        mpfr_t e, p;
        mpfr_inits2(2000, e, p, (mpfr_ptr)0);
        mpfr_set_flt(e, acc, MPFR_RNDN);
        for (int q = 0; q < K / kpl; ++q) {  // 32-K block q: A from lane i + M q, B from lane j + M q
          const int la = i + M * q, lb = j + M * q;
          ElemFmt sfa = fa, sfb = fb;  // the scale 2^s as a bias lowered by s
          sfa.bias -= scale(sa, la, L.opsel_a);
          sfb.bias -= scale(sb, lb, L.opsel_b);
          acc = oracle_dot(ca[la], cb[lb], sfa, sfb, acc, false, true, 16);
          for (int k = 0; k < kpl; ++k) {
            mpfr_set_d(p, value(decode(ca[la][k], sfa), sfa), MPFR_RNDN);
            mpfr_mul_d(p, p, value(decode(cb[lb][k], sfb), sfb), MPFR_RNDN);
            mpfr_add(e, e, p, MPFR_RNDN);
          }
        }
        want[at] = simtest::bits(acc);
        want_exact[at] = simtest::bits(mpfr_get_flt(e, MPFR_RNDN));
        mpfr_clears(e, p, (mpfr_ptr)0);
      }
    uint64_t da = dev.upload(ra), db = dev.upload(rb), dsa = dev.upload(sa), dsb = dev.upload(sb), dc = dev.upload(rc),
             dd = dev.upload(rc);
    for (auto mode : {cdnajit::sim::Options::MfmaNumerics::Cdna3, cdnajit::sim::Options::MfmaNumerics::Exact}) {
      const bool is_exact = mode == cdnajit::sim::Options::MfmaNumerics::Exact;
      INFO("mode " << (is_exact ? "exact" : "cdna3"));
      cdnajit::sim::Options o;
      o.mfma_numerics = mode;
      dev.run(co, L.kernel, ArgPack().add(da).add(db).add(dsa).add(dsb).add(dc).add(dd), dims1(1, 64), o);
      std::string first;
      const size_t bad = count_mismatches(dev.download<uint32_t>(dd, rc.size()), is_exact ? want_exact : want, nreg, first);
      INFO("mismatches: " << bad << first);
      CHECK(bad == 0);
    }
    size_t differ = 0;
    for (size_t x = 0; x < want.size(); ++x) differ += want[x] != want_exact[x];
    INFO("outputs where the CDNA3 rules and the exact sum differ: " << differ);
    CHECK(differ > 0);
  }
}
