// gfx950 v_ashr_pk_i8_i32 / v_ashr_pk_u8_i32 (runtime/sim/ops_valu_bytes.cpp) against a CPU computation
// written here: in a hand-written kernel (random sources, shift amounts with junk above bit 4, a
// destination pre-filled with ones to see the high half cleared) and in a clang-22 kernel whose
// clamp-and-pack LLVM selects as v_ashr_pk_u8_i32 (stored as a whole dword).
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/sim/ext_harness.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace exttest;

namespace {
uint32_t oracle(bool u, uint64_t a, uint64_t b, uint64_t c) {
  const int sh = int(c & 31);
  auto sat = [&](int32_t x) { return uint32_t(std::clamp(x, u ? 0 : -128, u ? 255 : 127)) & 0xffu; };
  return sat(int32_t(uint32_t(a)) >> sh) | sat(int32_t(uint32_t(b)) >> sh) << 8;
}
}  // namespace

TEST_CASE("gfx950 v_ashr_pk_i8_i32 / v_ashr_pk_u8_i32", "[sim][ext][ashr_pk]") {
  std::mt19937_64 g(seed() + 41);
  auto a = values(g, 3, 1), b = values(g, 3, 2), c = values(g, 3, 3);
  for (int l = 0; l < 64; l += 7) { a[l] = 0x80000000u + uint64_t(l); b[l] = 0x7fffffffu - uint64_t(l); }  // extremes
  Run r = run(Arch::gfx950,
              "  v_mov_b32 v8, -1\n  v_mov_b32 v9, -1\n"
              "  v_ashr_pk_i8_i32 v8, v2, v4, v6\n  v_ashr_pk_u8_i32 v9, v2, v4, v6\n",
              a, b, c);
  for (int l = 0; l < 64; ++l) {
    INFO("lane " << l << std::hex << " a=0x" << a[l] << " b=0x" << b[l] << " c=0x" << c[l]);
    CHECK(r.out[l] == (uint64_t(oracle(false, a[l], b[l], c[l])) | uint64_t(oracle(true, a[l], b[l], c[l])) << 32));
  }
}

TEST_CASE("clang's clamp-and-pack of shifted ints (v_ashr_pk_u8_i32) on gfx950", "[sim][ext][ashr_pk]") {
  const char* src = R"(
static __device__ inline int clampi(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }
extern "C" __global__ void k(const int* a, const int* b, const int* s, unsigned* o) {
  unsigned l = bid() * bdim() + tid();
  int sh = s[l] & 31;
  int u = clampi(a[l] >> sh, 0, 255), v = clampi(b[l] >> sh, 0, 255);
  o[l] = (unsigned)(unsigned short)((u & 0xff) | (v << 8));
}
)";
  std::string why;
  auto loaded = simtest::load_hip_or_skip(src, Arch::gfx950, why);
  if (!loaded) CDNAJIT_SKIP(why);
  const cdnajit::CodeObject& co = *loaded;
  simtest::Device dev(Arch::gfx950);
  REQUIRE(dev.sim.disassemble(co, "k").find("v_ashr_pk_u8_i32") != std::string::npos);
  std::mt19937 g(uint32_t(seed()) + 43);
  std::vector<int32_t> a(256), b(256), s(256);
  for (int i = 0; i < 256; ++i) {
    a[i] = int32_t(g()) >> (g() % 32);
    b[i] = int32_t(g()) >> (g() % 32);
    s[i] = int32_t(g());
  }
  uint64_t da = dev.upload(a), db = dev.upload(b), ds = dev.upload(s), dout = dev.upload(std::vector<uint32_t>(256, 0xdeadbeefu));
  dev.run(co, "k", simtest::ArgPack().add(da).add(db).add(ds).add(dout), simtest::dims1(4, 64));
  auto got = dev.download<uint32_t>(dout, 256);
  for (int i = 0; i < 256; ++i) {
    INFO("element " << i);
    CHECK(got[i] == oracle(true, uint32_t(a[i]), uint32_t(b[i]), uint32_t(s[i])));
  }
}
