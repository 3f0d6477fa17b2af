// s_set_gpr_idx_idx / _mode / _off (runtime/sim/ops_gpr_idx.cpp: M0 writes) and s_sendmsg
// (runtime/sim/ops_sendmsg.cpp: the no-op messages, Errors for the others), in hand-written kernels;
// expected M0 values worked out here from the guides' field layout (M0[7:0] index, M0[15:12] mode bits).
#include <catch2/catch.hpp>

#include "tests/sim/ext_harness.hpp"

using namespace exttest;

TEST_CASE("s_set_gpr_idx_idx/_mode/_off write M0's index fields; s_sendmsg", "[sim][ext][gpr_idx]") {
  const std::vector<uint64_t> z(64);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // M0 = 0x12345600; idx from s2 = 0x1ab -> M0[7:0] = 0xab; mode SRC0|DST = 0b1001 -> M0[15:12] = 9.
    Run r = run(arch,
                "  s_mov_b32 m0, 0x12345600\n  s_mov_b32 s2, 0x1ab\n  s_set_gpr_idx_idx s2\n  v_mov_b32 v8, m0\n"
                "  s_set_gpr_idx_mode gpr_idx(SRC0,DST)\n  s_set_gpr_idx_off\n  v_mov_b32 v9, m0\n"
                "  s_sendmsg sendmsg(MSG_INTERRUPT)\n  s_sendmsg sendmsg(MSG_SAVEWAVE)\n  s_waitcnt lgkmcnt(0)\n",
                z, z, z);
    for (int l = 0; l < 64; ++l) {
      INFO("lane " << l);
      CHECK(r.out[l] == (0x123456abull | 0x123496abull << 32));
    }
    CHECK_THROWS_WITH(run(arch, "  s_sendmsg sendmsg(MSG_HALT_WAVES)\n", z, z, z), Catch::Contains("message id 6 is not modelled"));
  }
}

TEST_CASE("s_set_gpr_idx_on: v_mov_b32 with indexed source / destination", "[sim][ext][gpr_idx]") {
  std::mt19937_64 g(seed() + 51);
  auto a = values(g, 3, 1), b = values(g, 3, 2), c = values(g, 3, 3);
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Index 2: "v_mov_b32 v8, v2" with SRC0 reads v4 (B's low dword); "v_mov_b32 v7, v6" with DST writes
    // v9 (C's low dword); after s_set_gpr_idx_off a plain move is not offset; an SGPR source is never.
    Run r = run(arch,
                "  s_mov_b32 s2, 2\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n  v_mov_b32 v8, v2\n  s_set_gpr_idx_off\n"
                "  s_set_gpr_idx_on s2, gpr_idx(DST)\n  v_mov_b32 v7, v6\n  s_set_gpr_idx_off\n  v_mov_b32 v10, v8\n"
                "  s_set_gpr_idx_on s2, gpr_idx(SRC0,DST)\n  v_mov_b32_e64 v10, s2\n  s_set_gpr_idx_off\n"
                "  v_add_u32 v8, v8, v12\n",
                a, b, c);
    for (int l = 0; l < 64; ++l) {
      INFO("lane " << l);
      CHECK(r.out[l] == ((b[l] & 0xffffffffu) + 2u & 0xffffffffu | (c[l] & 0xffffffffu) << 32));
    }
    // Offsets past the allocated VGPRs are Errors.
    CHECK_THROWS_WITH(run(arch, "  s_mov_b32 s2, 20\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n  v_mov_b32 v8, v2\n", a, b, c),
                      Catch::Contains("beyond the 16 VGPRs"));
  }
}

// Every VALU instruction under the mode, through the one operand path (ops_gpr_idx.cpp): which
// operand an enable bit offsets follows the encoding's SRC0/SRC1/SRC2/DST slots. Expected values by hand.
TEST_CASE("s_set_gpr_idx_on: VOP2/VOP3/VOPC/DPP/SDWA/64-bit operands offset per enable bit", "[sim][ext][gpr_idx]") {
  auto fill = [](uint64_t v) { return std::vector<uint64_t>(64, v); };
  // v2 = A (lo) / v3 = A (hi), v4/v5 = B, v6/v7 = C.
  auto one = [&](Arch arch, const std::string& body, uint64_t a, uint64_t b, uint64_t c) {
    Run r = run(arch, body + "  s_set_gpr_idx_off\n", fill(a), fill(b), fill(c));
    for (int l = 1; l < 64; ++l) REQUIRE(r.out[l] == r.out[0]);
    return r.out[0];
  };
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // SRC0,SRC1 by 2: v_add_u32 v8, v2, v4 reads v4 + v6 = 30 + 400; DST not enabled: v8 written, v9 = 0.
    CHECK(one(arch, "  s_mov_b32 s2, 2\n  s_set_gpr_idx_on s2, gpr_idx(SRC0,SRC1)\n  v_add_u32 v8, v2, v4\n", 5, 30, 400) == 430u);
    // DST by 1: v_sub_u32 v7, v4, v2 writes v8 = 30 - 5; v9 = 0 untouched.
    CHECK(one(arch, "  s_mov_b32 s2, 1\n  s_set_gpr_idx_on s2, gpr_idx(DST)\n  v_sub_u32 v7, v4, v2\n", 5, 30, 400) == 25u);
    // SRC2 by 3 on a VOP3: v_mad_u32_u24 v8, v2, v4, v3 adds v6: 5 * 30 + 400.
    CHECK(one(arch, "  s_mov_b32 s2, 3\n  s_set_gpr_idx_on s2, gpr_idx(SRC2)\n  v_mad_u32_u24 v8, v2, v4, v3\n", 5, 30, 400) == 550u);
    // v_fmamk_f32 v8, v2, K, v3 (D = S0 * K + S1): SRC1 is v3 in asm position 3, offset by 1 to v4 = 0.25.
    // 1.5 * 2.0 + 0.25 = 3.25 (0x40500000). With SRC0 only, src0 = v3 = 0 (A's high dword): 0 * 2 + v3 = 0.
    CHECK(one(arch, "  s_mov_b32 s2, 1\n  s_set_gpr_idx_on s2, gpr_idx(SRC1)\n  v_fmamk_f32 v8, v2, 0x40000000, v3\n",
              0x3fc00000u, 0x3e800000u, 0) == 0x40500000u);
    // 64-bit operands offset as a whole: v_add_f64 v[8:9], v[2:3], v[2:3] with SRC0 by 2 adds B + A = 1.25 + 0.5.
    CHECK(one(arch, "  s_mov_b32 s2, 2\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n  v_add_f64 v[8:9], v[2:3], v[2:3]\n",
              0x3fe0000000000000ull, 0x3ff4000000000000ull, 0) == 0x3ffc000000000000ull);
    // VOPC: sources offset, the SGPR destination never: v_cmp_eq_u32 vcc, v2, v4 with SRC0 by 2 compares B with B.
    CHECK(one(arch, "  s_mov_b32 s2, 2\n  s_set_gpr_idx_on s2, gpr_idx(SRC0,DST)\n  v_cmp_eq_u32 vcc, v2, v4\n"
                    "  s_set_gpr_idx_off\n  v_cndmask_b32_e64 v8, 0, 1, vcc\n", 5, 30, 400) == 1u);
    // SDWA selects from the offset register: word 1 of v4 (B = 0x00070000) + byte 0 of v2 (5) = 12.
    CHECK(one(arch, "  s_mov_b32 s2, 2\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n"
                    "  v_add_u32_sdwa v8, v2, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_0\n",
              5, 0x00070000u, 0) == 12u);
    // SDWA through the direct-handler adapter: frexp_mant of word 1 of v4 (6.0h) = 0.75h (0x3a00).
    CHECK(one(arch, "  s_mov_b32 s2, 2\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n"
                    "  v_frexp_mant_f16_sdwa v8, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1\n",
              0x3c000000u, 0x46000000u, 0) == 0x3a00u);
    // The mode stays on across instructions until s_set_gpr_idx_off; s_set_gpr_idx_idx changes the index.
    CHECK(one(arch, "  s_mov_b32 s2, 2\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n  v_mov_b32 v8, v2\n  s_mov_b32 s3, 4\n"
                    "  s_set_gpr_idx_idx s3\n  v_add_u32 v8, v2, v8\n", 5, 30, 400) == 430u);
    // MFMA under the mode is an Error, not run unindexed.
    CHECK_THROWS_WITH(one(arch, "  s_mov_b32 s2, 0\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n"
                                "  v_mfma_f32_4x4x1_16b_f32 v[8:11], v2, v4, v[8:11]\n", 0, 0, 0),
                      Catch::Contains("vector ALU instructions only"));
  }
}

// The simulator's wait-count check (Options::check_waitcnt) sees the offset registers.
TEST_CASE("s_set_gpr_idx_on: wait-count check on the offset registers", "[sim][ext][gpr_idx]") {
  auto fill = [](uint64_t v) { return std::vector<uint64_t>(64, v); };
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // v12 is loaded without a wait; v_mov_b32 v8, v2 with index 10 reads it: an Error naming v12.
    CHECK_THROWS_WITH(run(arch, "  global_load_dword v12, v1, s[4:5]\n  s_mov_b32 s2, 10\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n"
                                "  v_mov_b32 v8, v2\n  s_set_gpr_idx_off\n  s_waitcnt vmcnt(0)\n", fill(1), fill(2), fill(3)),
                      Catch::Contains("v12"));
    // v2 itself is pending, but the indexed instruction reads v4: no Error, and the result is B.
    Run r = run(arch, "  global_load_dword v2, v1, s[4:5]\n  s_mov_b32 s2, 2\n  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n"
                      "  v_mov_b32 v8, v2\n  s_set_gpr_idx_off\n  s_waitcnt vmcnt(0)\n", fill(1), fill(2), fill(3));
    CHECK(r.out[0] == 2u);
  }
}

// clang-22 compiles a uniform dynamic index into a 32-float vector to s_set_gpr_idx_on gpr_idx(DST)
// around the insert and gpr_idx(SRC0) around the extract (both archs). Expected values: the same
// expression on the CPU.
TEST_CASE("s_set_gpr_idx_on from a clang-compiled dynamic vector index", "[sim][ext][gpr_idx][clang]") {
  const std::string src = R"(
typedef float float32v __attribute__((ext_vector_type(32)));
extern "C" __global__ void k(const float* in, float* out, const int* idx) {
  unsigned i = tid();
  float32v v;
  for (int j = 0; j < 32; ++j) v[j] = in[i * 32 + j];
  v[idx[0]] = 42.0f;
  out[i] = v[idx[1]] + v[0] * 2.0f + v[31];
}
)";
  std::vector<float> in(64 * 32);
  for (size_t j = 0; j < in.size(); ++j) in[j] = float(j % 1000) * 0.5f;
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    const std::vector<uint8_t> bytes = simtest::compile_hip(src, arch);
    auto co = cdnajit::read_code_object(bytes);
    for (auto [set, get] : {std::pair{5, 5}, {3, 17}, {0, 31}, {31, 0}, {12, 30}}) {
      INFO("idx " << set << " " << get);
      cdnajit::sim::Simulator sim(arch);
      auto& m = sim.memory();
      uint64_t pi = m.alloc(in.size() * 4, "in"), po = m.alloc(256, "out"), px = m.alloc(8, "idx");
      m.write(pi, in.data(), in.size() * 4);
      const int32_t ix[2] = {set, get};
      m.write(px, ix, 8);
      uint64_t args[3] = {pi, po, px};
      std::vector<uint8_t> ka(24);
      std::memcpy(ka.data(), args, 24);
      cdnajit::sim::LaunchDims d;
      d.block[0] = 64;
      sim.launch(co, "k", ka, d);
      std::vector<float> out(64);
      m.read(po, out.data(), 256);
      for (int l = 0; l < 64; ++l) {
        float v[32];
        for (int j = 0; j < 32; ++j) v[j] = in[size_t(l) * 32 + j];
        v[set] = 42.0f;
        const float want = v[get] + v[0] * 2.0f + v[31];
        INFO("lane " << l);
        CHECK(std::bit_cast<uint32_t>(out[l]) == std::bit_cast<uint32_t>(want));
      }
    }
  }
}
