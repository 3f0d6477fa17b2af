// SDWA forms of the handlers that read their lanes directly (ops_f64.cpp, ops_vcmp_ext.cpp,
// ops_valu_bytes.cpp, ops_valu_legacy.cpp; run through sdwa_direct_exec): source selects (with
// sext), the destination field with each dst_unused, and the compare/EXEC result, against bits
// computed by hand from the CDNA3 ISA guide's SDWA fields and the opcodes' pseudo-code.
// Before these handlers honoured SDWA every one of these instructions stopped with an Error.
#include <catch2/catch.hpp>

#include "tests/sim/ext_harness.hpp"

using namespace exttest;

namespace {
// Runs `body` with v2 = a, v4 = b on every lane; returns lane 0's {v8, VCC bit}.
std::pair<uint32_t, uint32_t> run1(Arch arch, const std::string& body, uint32_t a, uint32_t b) {
  Run r = run(arch, body + "  v_cndmask_b32_e64 v9, 0, 1, vcc\n", std::vector<uint64_t>(64, a), std::vector<uint64_t>(64, b),
              std::vector<uint64_t>(64));
  for (int l = 1; l < 64; ++l) REQUIRE(r.out[l] == r.out[0]);
  return {uint32_t(r.out[0]), uint32_t(r.out[0] >> 32)};
}
uint32_t v8(Arch arch, const std::string& body, uint32_t a, uint32_t b = 0) { return run1(arch, body, a, b).first; }
uint32_t vcc(Arch arch, const std::string& body, uint32_t a, uint32_t b) { return run1(arch, body, a, b).second; }
}  // namespace

TEST_CASE("SDWA on f16 rounding/frexp handlers: source select and destination field", "[sim][sdwa]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // frexp_mant(6.0h in word 1) = 0.75h = 0x3a00, into word 1, word 0 of v8 kept.
    CHECK(v8(arch, "  v_mov_b32 v8, 0x12345678\n"
                   "  v_frexp_mant_f16_sdwa v8, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1\n",
             0x4600abcdu) == 0x3a005678u);
    // The same into word 0 with the rest zeroed.
    CHECK(v8(arch, "  v_mov_b32 v8, 0x12345678\n"
                   "  v_frexp_mant_f16_sdwa v8, v2 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1\n",
             0x4600abcdu) == 0x00003a00u);
    // frexp_exp(0.25h) = -1 (0.25 = 0.5 * 2^-1): 0xffff in word 0, sign-extended by UNUSED_SEXT.
    CHECK(v8(arch, "  v_frexp_exp_i16_f16_sdwa v8, v2 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_1\n",
             0x34000000u) == 0xffffffffu);
    // frexp_exp(4.0h) = 3: positive, so UNUSED_SEXT leaves the upper word zero.
    CHECK(v8(arch, "  v_mov_b32 v8, -1\n"
                   "  v_frexp_exp_i16_f16_sdwa v8, v2 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_1\n",
             0x44000000u) == 0x00000003u);
    // floor(1.5h in word 0) = 1.0h = 0x3c00, into word 1, word 0 zeroed.
    CHECK(v8(arch, "  v_floor_f16_sdwa v8, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0\n", 0xffff3e00u) ==
          0x3c000000u);
    // ceil(1.5h) = 2.0h = 0x4000: its low byte (0x00) into byte 1, the other bytes kept.
    CHECK(v8(arch, "  v_mov_b32 v8, 0xaabbccdd\n"
                   "  v_ceil_f16_sdwa v8, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1\n",
             0x3e000000u) == 0xaabb00ddu);
    // clamp is not modelled by these handlers: still an Error, never ignored.
    CHECK_THROWS_WITH(v8(arch, "  v_ceil_f16_sdwa v8, v2 clamp dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1\n",
                         0x3e000000u),
                      Catch::Contains("clamp"));
  }
}

TEST_CASE("SDWA on integer/byte handlers: sext, byte selects, byte destination", "[sim][sdwa]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // v_sat_pk_u8_i16, D[15:0] = {sat_u8(S0[31:16]), sat_u8(S0[15:0])}.
    // sext(byte 0 of 0x12345680) = 0xffffff80: both halves negative -> 0.
    CHECK(v8(arch, "  v_sat_pk_u8_i16_sdwa v8, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0\n",
             0x12345680u) == 0u);
    // Without sext: 0x00000080 -> low half 128, high half 0.
    CHECK(v8(arch, "  v_sat_pk_u8_i16_sdwa v8, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0\n",
             0x12345680u) == 0x80u);
    // Word 1 of 0x00640000 = 100 -> 0x0064; its low byte into byte 1 of 0xaabbccdd.
    CHECK(v8(arch, "  v_mov_b32 v8, 0xaabbccdd\n"
                   "  v_sat_pk_u8_i16_sdwa v8, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1\n",
             0x00640000u) == 0xaabb64ddu);
    // v_cvt_off_f32_i4 of byte 1 of 0x00000f00: i4 0xf = -1 -> -1/16 = -0.0625 (0xbd800000).
    CHECK(v8(arch, "  v_cvt_off_f32_i4_sdwa v8, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1\n", 0x00000f00u) ==
          0xbd800000u);
    // v_exp_legacy_f32(1.0) = 2.0 (0x40000000): its low word (0) into word 1, word 0 kept.
    CHECK(v8(arch, "  v_mov_b32 v8, 0x12345678\n"
                   "  v_exp_legacy_f32_sdwa v8, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD\n",
             0x3f800000u) == 0x00005678u);
    // v_pk_fmac_f16: word 1 of 0x40000000 selects {lo 2.0h, hi 0}; b = {lo 3.0h, hi 1.0h}; D = {1.0h, 1.0h}:
    // lo 2 * 3 + 1 = 7.0h (0x4700), hi 0 * 1 + 1 = 1.0h (0x3c00).
    CHECK(v8(arch, "  v_mov_b32 v8, 0x3c003c00\n"
                   "  v_pk_fmac_f16_sdwa v8, v2, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD\n",
             0x40000000u, 0x3c004200u) == 0x3c004700u);
    // Which destination bits an accumulating op reads under a destination field is not documented: an Error.
    CHECK_THROWS_WITH(v8(arch, "  v_pk_fmac_f16_sdwa v8, v2, v4 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:DWORD\n",
                         0x40000000u, 0x3c004200u),
                      Catch::Contains("also reads its destination"));
  }
}

// gfx950 v_prng_b32 (D = {S0[30:0], 0} ^ (S0[31] ? 197 : 0)), the one direct handler with an SDWA form on gfx950 only.
TEST_CASE("SDWA on gfx950 v_prng_b32: sext source and UNUSED_SEXT destination", "[sim][sdwa]") {
  // sext(byte 0 of 0x80) = 0xffffff80: shifted 0xffffff00, top bit set: ^ 197 (0xc5) = 0xffffffc5.
  CHECK(v8(Arch::gfx950, "  v_prng_b32_sdwa v8, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0\n", 0x12345680u) ==
        0xffffffc5u);
  // Without sext: 0x80 -> 0x100.
  CHECK(v8(Arch::gfx950, "  v_prng_b32_sdwa v8, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0\n", 0x12345680u) == 0x100u);
  // Word 0 of 0x1234c000 = 0xc000 -> 0x18000; its low word 0x8000 into word 0, sign-extended: 0xffff8000.
  CHECK(v8(Arch::gfx950, "  v_prng_b32_sdwa v8, v2 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_0\n", 0x1234c000u) ==
        0xffff8000u);
}

TEST_CASE("SDWA on the extended compares: selected operands, VCC, SGPR pair and EXEC", "[sim][sdwa]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // class(1.0h in word 1) against mask 0x100 (+normal): true; word 0 is +0 (mask bit 6): false.
    CHECK(vcc(arch, "  v_cmp_class_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:DWORD\n", 0x3c000000u, 0x100u) == 1u);
    CHECK(vcc(arch, "  v_cmp_class_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:DWORD\n", 0x3c000000u, 0x100u) == 0u);
    // The mask from byte 1 of 0x4000 = 0x40 (bit 6, +0) on word 0 (+0): true (as a DWORD, 0x4000 is bit 14: false).
    CHECK(vcc(arch, "  v_cmp_class_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:BYTE_1\n", 0x3c000000u, 0x4000u) == 1u);
    // Into an SGPR pair.
    CHECK(vcc(arch, "  v_cmp_class_f16_sdwa s[10:11], v2, v4 src0_sel:WORD_1 src1_sel:DWORD\n"
                    "  s_mov_b64 vcc, s[10:11]\n",
              0x3c000000u, 0x100u) == 1u);
    // v_cmpx_eq_f16: word 1 of a (1.0h) == word 0 of b (1.0h): EXEC stays all lanes, VCC written.
    CHECK(vcc(arch, "  v_cmpx_eq_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0\n", 0x3c001234u, 0x56783c00u) == 1u);
    // word 0 of a (0x1234) != word 0 of b: EXEC becomes 0, so the v_cndmask after it does not run (v9 stays 0).
    CHECK(vcc(arch, "  v_cmpx_eq_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_0\n", 0x3c001234u, 0x56783c00u) == 0u);
    // v_cmpx_class_f16 of 1.0h (word 1, +normal = mask bit 8) against sext(byte 0 of 0x80) = 0xffffff80 (bits 7..31): true;
    // without sext the mask is 0x80 (+denormal only): false.
    CHECK(vcc(arch, "  v_cmpx_class_f16_sdwa vcc, v2, sext(v4) src0_sel:WORD_1 src1_sel:BYTE_0\n", 0x3c000000u, 0x80u) == 1u);
    CHECK(vcc(arch, "  v_cmpx_class_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_0\n", 0x3c000000u, 0x80u) == 0u);
  }
}

// Per-lane data and a partial EXEC: only active lanes get the merged field.
TEST_CASE("SDWA direct handlers: inactive lanes keep their destination", "[sim][sdwa]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    std::vector<uint64_t> a(64), b(64, 0), c(64, 0);
    for (int l = 0; l < 64; ++l) a[l] = uint64_t(0x4400u + uint32_t(l)) << 16;  // word 1: f16 in [4, 8)
    Run r = run(arch,
                "  v_mov_b32 v8, 0x11111111\n"
                "  s_mov_b32 exec_lo, 0x55555555\n  s_mov_b32 exec_hi, 0x55555555\n"
                "  v_floor_f16_sdwa v8, v2 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1\n",
                a, b, c);
    for (int l = 0; l < 64; ++l) {
      INFO("lane " << l);
      // 0x4400 + l for l < 64 is 4 + l/256: floor is 4.0h (0x4400).
      CHECK(uint32_t(r.out[l]) == ((l & 1) ? 0x11111111u : 0x11114400u));
    }
  }
}

// clang-22 compiles f16 math on the high half of a dword into these SDWA forms on both archs
// (v_floor_f16_sdwa / v_ceil_f16_sdwa with src0_sel:WORD_1, v_ceil into dst_sel:WORD_1, and
// v_cmp_class_f16_sdwa for isinf/isnan/isfinite). Expected bits per input, by hand.
TEST_CASE("clang-compiled f16 high-half kernel with SDWA forms of direct handlers", "[sim][sdwa][clang]") {
  const std::string src = R"(
extern "C" __global__ void k(const unsigned* in, unsigned* out, int* flags) {
  unsigned i = tid();
  unsigned u = in[i];
  _Float16 hi = __builtin_bit_cast(_Float16, (unsigned short)(u >> 16));
  _Float16 a = __builtin_floorf16(hi), b = __builtin_ceilf16(hi);
  out[i] = (unsigned)__builtin_bit_cast(unsigned short, a) | ((unsigned)__builtin_bit_cast(unsigned short, b) << 16);
  flags[i] = __builtin_isinf(hi) | (__builtin_isnan(hi) << 1) | (__builtin_isfinite(hi) << 2);
}
)";
  struct Case { uint16_t hi, floor, ceil; int flags; };
  const Case cases[] = {
      {0x3e00, 0x3c00, 0x4000, 4},  // 1.5: 1, 2
      {0xc100, 0xc200, 0xc000, 4},  // -2.5: -3, -2
      {0x3400, 0x0000, 0x3c00, 4},  // 0.25: 0, 1
      {0x0001, 0x0000, 0x3c00, 4},  // smallest denormal: 0, 1
      {0x8000, 0x8000, 0x8000, 4},  // -0
      {0x7c00, 0x7c00, 0x7c00, 1},  // +inf
      {0xfc00, 0xfc00, 0xfc00, 1},  // -inf
      {0x7e00, 0x7e00, 0x7e00, 2},  // quiet NaN
  };
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    auto co = cdnajit::read_code_object(simtest::compile_hip(src, arch));
    cdnajit::sim::Simulator sim(arch);
    auto& m = sim.memory();
    std::vector<uint32_t> in(64);
    for (int l = 0; l < 64; ++l) in[l] = uint32_t(cases[l % 8].hi) << 16 | uint32_t(0x5a5a + 97 * l);  // low half: noise
    uint64_t pi = m.alloc(256, "in"), po = m.alloc(256, "out"), pf = m.alloc(256, "flags");
    m.write(pi, in.data(), 256);
    uint64_t args[3] = {pi, po, pf};
    std::vector<uint8_t> ka(24);
    std::memcpy(ka.data(), args, 24);
    cdnajit::sim::LaunchDims d;
    d.block[0] = 64;
    sim.launch(co, "k", ka, d);
    std::vector<uint32_t> out(64);
    std::vector<int32_t> flags(64);
    m.read(po, out.data(), 256);
    m.read(pf, flags.data(), 256);
    for (int l = 0; l < 64; ++l) {
      const Case& c = cases[l % 8];
      INFO("lane " << l << " input " << std::hex << in[l]);
      CHECK(out[l] == (uint32_t(c.ceil) << 16 | c.floor));
      CHECK(flags[l] == c.flags);
    }
  }
}
