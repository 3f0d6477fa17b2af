// gfx950 f8f6f4 MFMAs with fp6/fp4 operands and E8M0 scales (v_mfma_scale_f32_16x16x128_f8f6f4,
// v_mfma_scale_f32_32x32x64_f8f6f4 and the unscaled opcode) through clang's builtins. The data
// movement, the packing of 4/6/8-bit elements and the scales are checked bit-exactly in the Exact
// numerics mode against a plain oracle written here: element values decoded from the OCP MX
// format definitions, the exact sum in a double (every product and partial sum is a multiple of
// 2^-20 below 2^30, so exact), rounded once to f32. The CDNA3-rule mode is only checked to be
// deterministic here (its arithmetic has its own tests).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <cstdlib>
#include <random>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;

namespace {

// ---- Oracle: OCP MX element formats (fp8 E4M3FN, bf8 E5M2, fp6 E2M3, bf6 E3M2, fp4 E2M1).
struct Fmt { int bits, ebits, mbits, bias; };
const Fmt kFmts[5] = {{8, 4, 3, 7}, {8, 5, 2, 15}, {6, 2, 3, 1}, {6, 3, 2, 3}, {4, 2, 1, 1}};

double value_of(unsigned code, const Fmt& f) {
  unsigned m = code & ((1u << f.mbits) - 1), e = (code >> f.mbits) & ((1u << f.ebits) - 1);
  double mag = e == 0 ? std::ldexp(double(m), 1 - f.bias - f.mbits) : std::ldexp(double(m) + double(1u << f.mbits), int(e) - f.bias - f.mbits);
  return (code >> (f.bits - 1)) & 1 ? -mag : mag;
}

// Random codes kept to magnitudes in [2^-4, 8) or zero (no NaN/inf for the 8-bit formats).
unsigned random_code(std::mt19937& g, const Fmt& f) {
  for (;;) {
    unsigned c = g() & ((1u << f.bits) - 1);
    double v = std::fabs(value_of(c, f));
    if (v == 0 || (v >= 0x1p-4 && v < 8)) return c;
  }
}

const char* kSrc = R"(
typedef int v8i __attribute__((ext_vector_type(8)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
#define K16(name, FA, FB, OA, OB) \
extern "C" __global__ void name(const v8i* a, const v8i* b, const int* sa, const int* sb, v4f* d) { \
  unsigned l = tid(); \
  d[l] = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a[l], b[l], v4f{0, 0, 0, 0}, FA, FB, OA, sa[l], OB, sb[l]); }
#define K32(name, FA, FB, OA, OB) \
extern "C" __global__ void name(const v8i* a, const v8i* b, const int* sa, const int* sb, v16f* d) { \
  unsigned l = tid(); \
  v16f z = {}; \
  d[l] = __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a[l], b[l], z, FA, FB, OA, sa[l], OB, sb[l]); }
K16(k0, 2, 4, 1, 2)
K16(k1, 3, 2, 0, 3)
K16(k2, 4, 4, 2, 1)
K16(k3, 0, 3, 3, 0)
K16(k4, 1, 0, 0, 0)
K32(k5, 4, 2, 1, 1)
K32(k6, 3, 0, 2, 3)
extern "C" __global__ void k7(const v8i* a, const v8i* b, const int* sa, const int* sb, v4f* d) {
  unsigned l = tid();  // constant zero scales: LLVM selects the unscaled v_mfma_f32_16x16x128_f8f6f4
  d[l] = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a[l], b[l], v4f{0, 0, 0, 0}, 2, 1, 0, 0, 0, 0);
}
)";

struct Launch { const char* name; int m, fa, fb, opsel_a, opsel_b; bool scaled; };
const Launch kLaunches[] = {{"k0", 16, 2, 4, 1, 2, true}, {"k1", 16, 3, 2, 0, 3, true}, {"k2", 16, 4, 4, 2, 1, true},
                            {"k3", 16, 0, 3, 3, 0, true}, {"k4", 16, 1, 0, 0, 0, true}, {"k5", 32, 4, 2, 1, 1, true},
                            {"k6", 32, 3, 0, 2, 3, true}, {"k7", 16, 2, 1, 0, 0, false}};

}  // namespace

TEST_CASE("gfx950 f8f6f4 MFMAs: fp6/fp4 operands and E8M0 scales against a plain oracle", "[sim][mfma][f8f6f4]") {
  const char* env = std::getenv("CDNAJIT_TEST_SEED");
  const uint32_t seed = env ? uint32_t(std::strtoul(env, nullptr, 0)) : 20261126u;
  std::printf("test_mfma_f8f6f4: CDNAJIT_TEST_SEED=%u\n", seed);
  std::mt19937 g(seed);
  Device dev(Arch::gfx950);
  auto co = load_hip(kSrc, Arch::gfx950);
  std::string dis = dev.sim.disassemble(co, "k0") + dev.sim.disassemble(co, "k7");
  REQUIRE(dis.find("v_mfma_scale_f32_16x16x128_f8f6f4") != std::string::npos);
  REQUIRE(dis.find("v_mfma_f32_16x16x128_f8f6f4") != std::string::npos);
  REQUIRE(dis.find("<not implemented>") == std::string::npos);
  REQUIRE(dis.find("<private parser>") == std::string::npos);
  for (const Launch& L : kLaunches) {
    INFO(L.name << ": " << L.m << "x" << L.m << " formats A " << L.fa << " B " << L.fb);
    const int M = L.m, K = M == 16 ? 128 : 64, kpl = 32, nreg = M * M / 64;
    const Fmt &fa = kFmts[L.fa], &fb = kFmts[L.fb];
    // codes[lane][j]: A and B elements of each lane; packed little-endian as one bit string.
    std::vector<uint32_t> a(64 * 8), b(64 * 8), sa(64), sb(64);
    std::vector<std::vector<unsigned>> ca(64, std::vector<unsigned>(kpl)), cb = ca;
    for (int l = 0; l < 64; ++l) {
      for (int j = 0; j < kpl; ++j) {
        ca[l][j] = random_code(g, fa);
        cb[l][j] = random_code(g, fb);
        for (int t = 0; t < fa.bits; ++t) a[size_t(l) * 8 + (j * fa.bits + t) / 32] |= ((ca[l][j] >> t) & 1u) << ((j * fa.bits + t) % 32);
        for (int t = 0; t < fb.bits; ++t) b[size_t(l) * 8 + (j * fb.bits + t) / 32] |= ((cb[l][j] >> t) & 1u) << ((j * fb.bits + t) % 32);
      }
      // Four E8M0 scale bytes per lane in 2^-3 .. 2^3; the op_sel pair picks one.
      for (int byte = 0; byte < 4; ++byte) {
        sa[l] |= uint32_t(124 + g() % 7) << (8 * byte);
        sb[l] |= uint32_t(124 + g() % 7) << (8 * byte);
      }
    }
    auto scale = [&](const std::vector<uint32_t>& s, int l, int sel) {
      return L.scaled ? int((s[size_t(l)] >> (8 * sel)) & 0xff) - 127 : 0;
    };
    uint64_t da = dev.upload(a), db = dev.upload(b), dsa = dev.upload(sa), dsb = dev.upload(sb),
             dd = dev.upload(std::vector<uint32_t>(64 * size_t(nreg)));
    cdnajit::sim::Options exact;
    exact.mfma_numerics = cdnajit::sim::Options::MfmaNumerics::Exact;
    dev.run(co, L.name, ArgPack().add(da).add(db).add(dsa).add(dsb).add(dd), dims1(1, 64), exact);
    auto got = dev.download<float>(dd, 64 * size_t(nreg));
    size_t bad = 0;
    std::string first;
    for (int l = 0; l < 64; ++l)
      for (int r = 0; r < nreg; ++r) {
        // D layout: lane l register r (16x16: row 4*(l/16)+r; 32x32: row 8*(r/4)+4*(l/32)+r%4), column l % M.
        int i = M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4, j = l % M;
        double sum = 0;
        for (int k = 0; k < K; ++k) {
          int la = i + M * (k / kpl), lb = j + M * (k / kpl);  // lanes holding A[i][k] and B[k][j]
          sum += std::ldexp(value_of(ca[la][k % kpl], fa), scale(sa, la, L.opsel_a)) *
                 std::ldexp(value_of(cb[lb][k % kpl], fb), scale(sb, lb, L.opsel_b));
        }
        float want = float(sum);
        float have = got[size_t(l) * size_t(nreg) + size_t(r)];  // d[l]: lane l's nreg accumulators
        if (std::memcmp(&want, &have, 4) != 0 && ++bad <= 8)
          first += "\n  lane " + std::to_string(l) + " reg " + std::to_string(r) + ": got " + std::to_string(have) +
                   " want " + std::to_string(want);
      }
    INFO("mismatches " << bad << first);
    CHECK(bad == 0);
    // The CDNA3-rule mode (the default) runs and is deterministic.
    dev.run(co, L.name, ArgPack().add(da).add(db).add(dsa).add(dsb).add(dd), dims1(1, 64));
    auto c1 = dev.download<uint32_t>(dd, 64 * size_t(nreg));
    dev.run(co, L.name, ArgPack().add(da).add(db).add(dsa).add(dsb).add(dd), dims1(1, 64));
    CHECK(c1 == dev.download<uint32_t>(dd, 64 * size_t(nreg)));
  }
}

TEST_CASE("E8M0 scale byte 0 of v_mfma_scale_*: 2^-127 (OCP, default) or 1.0 (Options::e8m0_zero)", "[sim][mfma][f8f6f4]") {
  // Kernel k4 reads A as bf8 E5M2 and B as fp8 E4M3; every byte is 0x38 (E5M2: 0.5, E4M3: 1.0),
  // C = 0, A's scale byte 0 or 127, B's 127 (2^0): each output is 128 * 0.5 * 2^sa = 64 * 2^sa.
  // OCP MX v1.0: E8M0 0x00 = 2^-127 -> 2^-121 (0x03000000); the "one" choice (LLVM 22 selects the
  // unscaled opcode for constant-0 scales) -> 64.0 (0x42800000). Byte 127 is 1.0 under both (64.0),
  // so the switch touches byte 0 only.
  auto co = load_hip(kSrc, Arch::gfx950);
  Device dev(Arch::gfx950);
  std::vector<uint32_t> ones(64 * 8, 0x38383838u);
  uint64_t da = dev.upload(ones), db = dev.upload(ones), dd = dev.upload(std::vector<uint32_t>(64 * 4));
  for (uint32_t byte_a : {0u, 127u})
    for (auto choice : {cdnajit::sim::Options::E8m0Zero::Ocp, cdnajit::sim::Options::E8m0Zero::One}) {
      const bool one = choice == cdnajit::sim::Options::E8m0Zero::One;
      INFO("A scale byte " << byte_a << ", e8m0_zero " << (one ? "one" : "ocp"));
      // k4: fp8 x fp8, op_sel picks byte 0 of each scale register.
      uint64_t dsa = dev.upload(std::vector<uint32_t>(64, byte_a)), dsb = dev.upload(std::vector<uint32_t>(64, 127u));
      for (auto numerics : {cdnajit::sim::Options::MfmaNumerics::Cdna3, cdnajit::sim::Options::MfmaNumerics::Exact}) {
        cdnajit::sim::Options o;
        o.e8m0_zero = choice;
        o.mfma_numerics = numerics;
        dev.run(co, "k4", ArgPack().add(da).add(db).add(dsa).add(dsb).add(dd), dims1(1, 64), o);
        const uint32_t want = byte_a == 0 && !one ? 0x03000000u : 0x42800000u;
        auto got = dev.download<uint32_t>(dd, 64 * 4);
        size_t bad = 0;
        for (uint32_t x : got) bad += x != want;
        CHECK(bad == 0);
      }
    }
}
