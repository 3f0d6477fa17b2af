// VOP3 neg/abs source modifiers act on the sign bit of the source's own type (isa::OperandSpec::fp),
// not the result's: bit 15 of v_cvt_f32_f16's f16 input, bit 31 of v_cvt_f64_f32's f32 input, and
// inline constants are encoded in the source's type. Single instructions against hand-computed bits,
// and clang-22 kernels whose half/float negations and fabs become these modifiers, against a CPU
// conversion written here (ext_harness.hpp h2f).
#include <catch2/catch.hpp>

#include <optional>

#include "tests/sim/ext_harness.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace exttest;

namespace {

// One instruction sequence over 64 lanes with every lane's A = a, B = b; returns lane 0's v[8:9].
uint64_t one(Arch arch, const std::string& body, uint64_t a, uint64_t b = 0) {
  return run(arch, body, std::vector<uint64_t>(64, a), std::vector<uint64_t>(64, b), std::vector<uint64_t>(64)).out[0];
}
}  // namespace

TEST_CASE("neg/abs on an f16 source of an f32-result instruction flip bit 15", "[sim][src-modifiers]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // 0x3c00 = 1.0h; the junk high half must not matter (the f16 input is the low half).
    CHECK(one(arch, "  v_cvt_f32_f16_e64 v8, -v2\n", 0xabcd3c00) == 0xbf800000u);       // -1.0f
    CHECK(one(arch, "  v_cvt_f32_f16_e64 v8, -|v2|\n", 0x0000bc00) == 0xbf800000u);     // -|-1.0| = -1.0f
    CHECK(one(arch, "  v_cvt_f32_f16_e64 v8, |v2|\n", 0x0000c000) == 0x40000000u);      // |-2.0| = 2.0f
    CHECK(one(arch, "  v_cvt_f32_f16_e64 v8, -v2\n", 0x00000000) == 0x80000000u);       // -(+0) = -0
    CHECK(one(arch, "  v_cvt_f32_f16_e64 v8, -v2\n", 0x00000001) == 0xb3800000u);       // -(2^-24)
    // v_pack_b32_f16: both sources are f16.
    CHECK(one(arch, "  v_pack_b32_f16 v8, -v2, |v4|\n", 0x3c00, 0xc000) == 0x4000bc00u);
    // v_cvt_pkrtz_f16_f32: f32 sources (bit 31).
    CHECK(one(arch, "  v_cvt_pkrtz_f16_f32 v8, -v2, |v4|\n", 0x3f800000, 0xc0000000) == 0x4000bc00u);
    // v_cvt_f16_f32: an f32 source although the result is f16.
    CHECK(one(arch, "  v_cvt_f16_f32_e64 v8, -v2\n", 0x3f800000) == 0xbc00u);
    // v_cmp_class_f32: -v2 is a float negation (+0 -> -0, class bit 5), not the integer 0 - v2 (+0).
    CHECK(one(arch, "  v_cmp_class_f32_e64 s[10:11], -v2, v4\n  v_cndmask_b32_e64 v8, 0, 1, s[10:11]\n", 0, 0x20) == 1u);
  }
}

TEST_CASE("neg/abs on an f32 source of an f64-result instruction flip bit 31", "[sim][src-modifiers]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    CHECK(one(arch, "  v_cvt_f64_f32_e64 v[8:9], -v2\n", 0x3f800000) == 0xbff0000000000000ull);
    CHECK(one(arch, "  v_cvt_f64_f32_e64 v[8:9], -|v2|\n", 0x3fc00000) == 0xbff8000000000000ull);
    CHECK(one(arch, "  v_cvt_f64_f32_e64 v[8:9], |v2|\n", 0xc0000000) == 0x4000000000000000ull);
    // The f64 source of v_cvt_f32_f64 keeps bit 63.
    CHECK(one(arch, "  v_cvt_f32_f64_e64 v8, -v[2:3]\n", 0x3ff0000000000000ull) == 0xbf800000u);
  }
}

TEST_CASE("gfx950 v_cvt_f32_bf16: neg/abs flip bit 15 of the bf16 input", "[sim][src-modifiers]") {
  CHECK(one(Arch::gfx950, "  v_cvt_f32_bf16_e64 v8, -v2\n", 0x3f80) == 0xbf800000u);
  CHECK(one(Arch::gfx950, "  v_cvt_f32_bf16_e64 v8, |v2|\n", 0xc040) == 0x40400000u);
}

TEST_CASE("inline constants take the source's type", "[sim][src-modifiers]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // 1.0 for an f16 source is 0x3c00; for v_cvt_f64_f32's f32 source it is 0x3f800000 (low dword).
    CHECK(one(arch, "  v_cvt_f32_f16_e32 v8, 1.0\n", 0) == 0x3f800000u);
    CHECK(one(arch, "  v_cvt_f32_f16_e32 v8, -2.0\n", 0) == 0xc0000000u);
    CHECK(one(arch, "  v_cvt_f64_f32_e32 v[8:9], 1.0\n", 0) == 0x3ff0000000000000ull);
    // A 32-bit literal of an f32 source is the f32 itself (not the high dword of an f64).
    CHECK(one(arch, "  v_cvt_f64_f32_e32 v[8:9], 0x3fc00000\n", 0) == 0x3ff8000000000000ull);
  }
}

TEST_CASE("clang: negated and fabs'd half and float conversions, every f16 code", "[sim][src-modifiers][clang]") {
  const char* src = R"(
extern "C" __global__ void k(const _Float16* h, float* o) {
  unsigned l = bid() * bdim() + tid();
  _Float16 x = h[l];
  o[3 * l + 0] = (float)(-x);
  o[3 * l + 1] = -(float)__builtin_fabsf16(x);
  o[3 * l + 2] = __builtin_fabsf((float)x);
}
extern "C" __global__ void kd(const float* f, double* o) {
  unsigned l = bid() * bdim() + tid();
  float x = f[l];
  o[2 * l + 0] = (double)(-x);
  o[2 * l + 1] = -(double)__builtin_fabsf(x);
}
)";
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    std::string why;
    std::optional<cdnajit::CodeObject> loaded = simtest::load_hip_or_skip(src, arch, why);
    if (!loaded) CDNAJIT_SKIP(why);
    const cdnajit::CodeObject& co = *loaded;
    simtest::Device dev(arch);
    // The modifiers this test is about must be in clang's code (else it would test nothing).
    const std::string dis = dev.sim.disassemble(co, "k") + dev.sim.disassemble(co, "kd");
    auto has = [&](const std::string& mnemonic, const std::string& modifier) {
      for (size_t p = dis.find(mnemonic); p != std::string::npos; p = dis.find(mnemonic, p + 1))
        if (dis.substr(p, dis.find('\n', p) - p).find(modifier) != std::string::npos) return true;
      return false;
    };
    REQUIRE(has("v_cvt_f32_f16_e64", ", -v"));
    REQUIRE(has("v_cvt_f32_f16_e64", ", |v"));
    REQUIRE(has("v_cvt_f64_f32_e64", ", -v"));
    REQUIRE(has("v_cvt_f64_f32_e64", ", -|v"));

    std::vector<uint16_t> h(65536);
    for (uint32_t i = 0; i < 65536; ++i) h[i] = uint16_t(i);
    uint64_t dh = dev.upload(h), dout = dev.upload(std::vector<uint32_t>(3 * 65536, 0xdeadbeefu));
    dev.run(co, "k", simtest::ArgPack().add(dh).add(dout), simtest::dims1(256, 256));
    auto got = dev.download<uint32_t>(dout, 3 * 65536);
    int bad = 0;
    for (uint32_t i = 0; i < 65536 && bad < 10; ++i) {
      const float x = h2f(uint16_t(i));
      const float want[3] = {-x, -std::fabs(x), std::fabs(x)};
      for (int j = 0; j < 3; ++j) {
        const uint32_t g = got[3 * i + j], w = fbits(want[j]);
        // NaN payload quieting is not what this test is about: NaN-ness and sign only.
        const bool ok = std::isnan(want[j]) ? std::isnan(as_float(g)) && (g >> 31) == (w >> 31) : g == w;
        if (!ok) { ++bad; UNSCOPED_INFO("f16 0x" << std::hex << i << " output " << j << ": got 0x" << g << " want 0x" << w); }
      }
    }
    CHECK(bad == 0);

    std::mt19937_64 g(seed() + 71);
    std::vector<uint64_t> fv = values(g, 1, 3);
    std::vector<uint32_t> f(256);
    for (int i = 0; i < 256; ++i) f[i] = i < 64 ? uint32_t(fv[i]) : uint32_t(g());
    uint64_t df = dev.upload(f), dd = dev.upload(std::vector<uint64_t>(512, 0));
    dev.run(co, "kd", simtest::ArgPack().add(df).add(dd), simtest::dims1(4, 64));
    auto gd = dev.download<uint64_t>(dd, 512);
    for (int i = 0; i < 256; ++i) {
      const float x = as_float(f[i]);
      const double want[2] = {-double(x), -std::fabs(double(x))};
      for (int j = 0; j < 2; ++j) {
        INFO("f32 0x" << std::hex << f[i] << " output " << j << ": got 0x" << gd[2 * i + j]);
        if (std::isnan(want[j])) CHECK((std::isnan(as_double(gd[2 * i + j])) && (gd[2 * i + j] >> 63) == (dbits(want[j]) >> 63)));
        else CHECK(gd[2 * i + j] == dbits(want[j]));
      }
    }
  }
}
