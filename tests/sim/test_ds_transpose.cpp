// gfx950 ds_read_b64_tr_b16 / ds_read_b64_tr_b8 (runtime/sim/ops_ds_transpose.cpp) against the mapping
// published by the code that uses them (Modular's MAX kernels, see the handler file), written here from
// the tile side: a 16-lane group reads an E x 16 row-major tile whose row k is made of the 8-byte chunks
// the lanes 16/E * k .. address, and lane i of the group receives column i. Hand-written kernels (every
// lane stores its 8 input bytes to LDS, then a transposing read, with and without an offset), a partly
// active group (an Error), and clang's __builtin_amdgcn_ds_read_tr16_b64_v4i16 on a tile whose elements
// encode their own coordinates.
#include <catch2/catch.hpp>

#include "tests/sim/ext_harness.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace exttest;

namespace {
// Tile-side oracle: lane `lane` of a transposing read of `bits`-bit elements, chunk[l] = the 8 bytes lane l addressed.
uint64_t transposed(const std::vector<uint64_t>& chunk, int lane, int bits) {
  const int E = 64 / bits, per_row = 16 / E, g = lane / 16, i = lane % 16;
  auto tile = [&](int row, int col) {  // row-major E x 16 tile of the group
    const uint64_t c = chunk[size_t(16 * g + per_row * row + col / E)];
    return (c >> (bits * (col % E))) & ((uint64_t(1) << bits) - 1);
  };
  uint64_t out = 0;
  for (int k = 0; k < E; ++k) out |= tile(k, i) << (bits * k);
  return out;
}
}  // namespace

TEST_CASE("gfx950 ds_read_b64_tr_b16 / _b8: the lane exchange of a 16-lane group", "[sim][ext][ds_tr]") {
  std::mt19937_64 g(seed() + 61);
  auto a = values(g, 3, 1), z = std::vector<uint64_t>(64);
  for (int bits : {16, 8}) {
    const std::string mn = bits == 16 ? "ds_read_b64_tr_b16" : "ds_read_b64_tr_b8";
    INFO(mn);
    // Lane l stores A at LDS 8 * l; plain read: lane l addresses 8 * l. Offset form: lane l addresses
    // 8 * ((l + 5) % 64) through vaddr - 40 + offset:40.
    Run r = run(Arch::gfx950,
                "  v_lshlrev_b32 v12, 3, v0\n  ds_write_b64 v12, v[2:3]\n  s_waitcnt lgkmcnt(0)\n  " + mn + " v[8:9], v12\n"
                "  s_waitcnt lgkmcnt(0)\n",
                a, z, z);
    for (int l = 0; l < 64; ++l) {
      INFO("lane " << l);
      CHECK(r.out[l] == transposed(a, l, bits));
    }
    Run r2 = run(Arch::gfx950,
                 "  v_lshlrev_b32 v12, 3, v0\n  ds_write_b64 v12, v[2:3]\n  s_waitcnt lgkmcnt(0)\n"
                 "  v_add_u32 v13, 5, v0\n  v_and_b32 v13, 63, v13\n  v_lshlrev_b32 v13, 3, v13\n  v_subrev_u32 v13, 40, v13\n"
                 "  " + mn + " v[8:9], v13 offset:40\n  s_waitcnt lgkmcnt(0)\n",
                 a, z, z);
    std::vector<uint64_t> rotated(64);
    for (int l = 0; l < 64; ++l) rotated[size_t(l)] = a[size_t((l + 5) % 64)];
    for (int l = 0; l < 64; ++l) {
      INFO("offset form, lane " << l);
      CHECK(r2.out[l] == transposed(rotated, l, bits));
    }
    CHECK_THROWS_WITH(run(Arch::gfx950, "  s_mov_b64 exec, 0xff\n  v_lshlrev_b32 v12, 3, v0\n  " + mn + " v[8:9], v12\n  s_waitcnt lgkmcnt(0)\n", a, z, z),
                      Catch::Contains("partly inactive"));
  }
}

TEST_CASE("clang's __builtin_amdgcn_ds_read_tr16_b64_v4i16: lane i of a 16-lane row gets column i of a 4x16 tile", "[sim][ext][ds_tr]") {
  // Each 16-lane row r reads its own 4 x 16 tile of shorts (tile r at LDS element 64 r), element
  // (row, col) = 1000 r + 16 row + col; lane t addresses row t / 4, columns 4 (t % 4) .. (the addressing of
  // Modular's ds_read_tr16_b64_row). Expected: lane 16 r + i holds 1000 r + 16 k + i in element k.
  const char* src = R"(
typedef short v4s __attribute__((ext_vector_type(4)));
extern "C" __global__ void k(v4s* out) {
  __shared__ short tile[256];
  unsigned l = tid();
  for (unsigned j = 0; j < 4; ++j) { unsigned e = 4 * l + j; tile[e] = (short)(1000 * (e / 64) + e % 64); }
  sync();
  unsigned r = l / 16, t = l % 16;
  __attribute__((address_space(3))) v4s* p = (__attribute__((address_space(3))) v4s*)(tile + 64 * r + 16 * (t / 4) + 4 * (t % 4));
  out[l] = __builtin_amdgcn_ds_read_tr16_b64_v4i16(p);
}
)";
  std::string why;
  auto loaded = simtest::load_hip_or_skip(src, Arch::gfx950, why);
  if (!loaded) CDNAJIT_SKIP(why);
  const cdnajit::CodeObject& co = *loaded;
  simtest::Device dev(Arch::gfx950);
  REQUIRE(dev.sim.disassemble(co, "k").find("ds_read_b64_tr_b16") != std::string::npos);
  uint64_t dout = dev.upload(std::vector<int16_t>(256, -1));
  dev.run(co, "k", simtest::ArgPack().add(dout), simtest::dims1(1, 64));
  auto got = dev.download<int16_t>(dout, 256);
  for (int l = 0; l < 64; ++l)
    for (int k = 0; k < 4; ++k) {
      INFO("lane " << l << " element " << k);
      CHECK(got[size_t(4 * l + k)] == int16_t(1000 * (l / 16) + 16 * k + l % 16));
    }
}
