// SDWA forms of the handlers that read their lanes directly (ops_f64.cpp, ops_vcmp_ext.cpp,
// ops_valu_bytes.cpp, ops_valu_legacy.cpp; run through sdwa_direct_exec): source selects (with
// sext), the destination field with each dst_unused, and the compare/EXEC result, against bits
// computed by hand from the CDNA3 ISA guide's SDWA fields and the opcodes' pseudo-code.
// Before these handlers honoured SDWA every one of these instructions stopped with an Error.
#include <catch2/catch.hpp>

#include "tests/sim/ext_harness.hpp"

using namespace exttest;

namespace {
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

// clamp / omod on the direct handlers (runtime/sim/output_modifiers.hpp, lane_op.hpp OutMods): clamp
// limits an f16/f32 result to [0, 1] (NaN -> 0) before the SDWA merge, on the _sdwa and the VOP3
// forms alike. Before, every one of these stopped with an Error.
TEST_CASE("SDWA direct handlers: clamp on f16 and f32 results, before the destination merge", "[sim][sdwa][omod]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // ceil(1.5h in word 1) = 2.0h, clamped to 1.0h (0x3c00), into word 1; word 0 of v8 kept.
    CHECK(v8(arch, "  v_mov_b32 v8, 0x12345678\n"
                   "  v_ceil_f16_sdwa v8, v2 clamp dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1\n",
             0x3e000000u) == 0x3c005678u);
    // floor(-1.5h) = -2.0h, clamped to +0; the VOP3 form writes it zero-extended.
    CHECK(v8(arch, "  v_mov_b32 v8, -1\n  v_floor_f16_e64 v8, v2 clamp\n", 0x0000be00u) == 0u);
    // fract(NaN) = NaN, clamped to 0 (UNUSED_PAD zeroes the rest).
    CHECK(v8(arch, "  v_mov_b32 v8, -1\n"
                   "  v_fract_f16_sdwa v8, v2 clamp dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1\n",
             0x7e000000u) == 0u);
    // sin(0.25 revolutions) = 1.0h stays 1.0h under clamp.
    CHECK(v8(arch, "  v_sin_f16_sdwa v8, v2 clamp dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_0\n", 0x3400u) ==
          0x3c00u);
    // v_exp_legacy_f32(1.0) = 2.0, clamped to 1.0.
    CHECK(v8(arch, "  v_exp_legacy_f32_sdwa v8, v2 clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD\n",
             0x3f800000u) == 0x3f800000u);
    // v_log_legacy_f32(0.5) = -1.0, clamped to 0 (VOP3 form).
    CHECK(v8(arch, "  v_log_legacy_f32_e64 v8, v2 clamp\n", 0x3f000000u) == 0u);
    // v_cvt_off_f32_i4 of byte 1: 0xf = -1 -> -0.0625, clamped to 0; 0x7 -> 0.4375 (0x3ee00000) unchanged.
    CHECK(v8(arch, "  v_cvt_off_f32_i4_sdwa v8, v2 clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1\n",
             0x00000f00u) == 0u);
    CHECK(v8(arch, "  v_cvt_off_f32_i4_sdwa v8, v2 clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1\n",
             0x00000700u) == 0x3ee00000u);
  }
}

// Integer results that are always inside their type's range: clamp (the only modifier LLVM 22 accepts
// on these) changes nothing under either reading of the CLAMP bit the guides give.
TEST_CASE("SDWA direct handlers: clamp on always-in-range integer results is a no-op", "[sim][sdwa][omod]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // frexp_exp(0.25h) = -1 into word 0, sign-extended.
    CHECK(v8(arch, "  v_frexp_exp_i16_f16_sdwa v8, v2 clamp dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_1\n",
             0x34000000u) == 0xffffffffu);
    // v_sat_pk_u8_i16 of word 1 = 100 -> 0x0064 (as without clamp).
    CHECK(v8(arch, "  v_sat_pk_u8_i16_sdwa v8, v2 clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1\n",
             0x00640000u) == 0x64u);
    // v_cvt_norm_u16_f16(0.5h) = round(0.5 * 65535) = 32768 (0x8000); norm_i16(-1.0h) = -32767 (0x8001).
    CHECK(v8(arch, "  v_cvt_norm_u16_f16_sdwa v8, v2 clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1\n",
             0x38000000u) == 0x8000u);
    CHECK(v8(arch, "  v_cvt_norm_i16_f16_e64 v8, v2 clamp\n", 0xbc00u) == 0x8001u);
    // A packed f16 result (v_pk_fmac_f16): whether clamp acts on both halves is not documented: an Error.
    CHECK_THROWS_WITH(v8(arch, "  v_pk_fmac_f16_sdwa v8, v2, v4 clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD\n",
                         0x40000000u, 0x3c004200u),
                      Catch::Contains("clamp"));
  }
  // gfx950 v_prng_b32: a 32-bit pattern, clamp changes nothing: 0x80 -> 0x100.
  CHECK(v8(Arch::gfx950, "  v_prng_b32_sdwa v8, v2 clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0\n", 0x12345680u) ==
        0x100u);
}

namespace {
// MODE: round modes [3:0] 0, f32 denormals [5:4] = 0 (flush), f16/f64 [7:6] = 3 (keep), DX10_CLAMP (bit 8)
// set, IEEE (bit 9) clear: the one MODE in which OMOD acts on an f32 result (output_modifiers.hpp).
const char* kOmodF32Mode = "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 10), 0x1c0\n";
// The same with f16/f64 denormals flushed too ([7:6] = 0): OMOD acts on f16 results.
const char* kOmodF16Mode = "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 10), 0x100\n";
}  // namespace

// OMOD (mul:2 / mul:4 / div:2): ignored while MODE.IEEE is set or the result type's output denormals
// are kept; acts with IEEE clear and outputs
// flushed, -0 becoming +0 first (AMD, reviews.llvm.org/D30209). The test kernel's descriptor sets IEEE.
// Before: ignored on f16 results of the generic path, applied in every MODE on f32 results, an Error on
// the direct handlers.
TEST_CASE("Output modifier omod follows MODE (IEEE bit, output denormal flush)", "[sim][sdwa][omod]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Default MODE: omod ignored. exp_legacy(1.0) = 2.0 stays 2.0; 1.5h + 1.5h = 3.0h (0x4200) stays.
    CHECK(v8(arch, "  v_exp_legacy_f32_sdwa v8, v2 mul:2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD\n",
             0x3f800000u) == 0x40000000u);
    CHECK(v8(arch, "  v_add_f32_e64 v8, v2, v2 mul:4\n", 0x3f800000u) == 0x40000000u);
    CHECK(v8(arch, "  v_add_f16_e64 v8, v2, v4 mul:2\n", 0x3e00u, 0x3e00u) == 0x4200u);
    // IEEE clear, f32 outputs flushed: x2 / x4 / x0.5 act.
    CHECK(v8(arch, std::string(kOmodF32Mode) +
                       "  v_exp_legacy_f32_sdwa v8, v2 mul:2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD\n",
             0x3f800000u) == 0x40800000u);  // 4.0
    CHECK(v8(arch, std::string(kOmodF32Mode) + "  v_add_f32_e64 v8, v2, v2 mul:4\n", 0x3f800000u) == 0x41000000u);  // 8.0
    // 7/16 / 2 = 7/32 (0x3e600000).
    CHECK(v8(arch, std::string(kOmodF32Mode) +
                       "  v_cvt_off_f32_i4_sdwa v8, v2 div:2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1\n",
             0x00000700u) == 0x3e600000u);
    // -0 becomes +0 before the multiply: (-0) + (-0) = -0, times 2 -> +0.
    CHECK(v8(arch, std::string(kOmodF32Mode) + "  v_add_f32_e64 v8, v2, v2 mul:2\n", 0x80000000u) == 0u);
    // mul:2 then clamp: 0.75 * 2 = 1.5 -> 1.0.
    CHECK(v8(arch, std::string(kOmodF32Mode) + "  v_mul_f32_e64 v8, v2, 1.0 clamp mul:2\n", 0x3f400000u) == 0x3f800000u);
    // f32 outputs flushed but f16 outputs kept: omod still ignored on an f16 result.
    CHECK(v8(arch, std::string(kOmodF32Mode) + "  v_add_f16_e64 v8, v2, v4 mul:2\n", 0x3e00u, 0x3e00u) == 0x4200u);
    // f16 outputs flushed (a MODE the f16 MODE handler runs): 3.0h * 2 = 6.0h (0x4600), into word 1 by SDWA.
    CHECK(v8(arch, std::string(kOmodF16Mode) +
                       "  v_add_f16_sdwa v8, v2, v4 mul:2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:WORD_1\n",
             0x3e00u, 0x3e000000u) == 0x46000000u);
  }
}

// clamp on the generic path's f16 results (v_add_f16 ...): before, it was silently ignored
// (1.5h + 1.5h with clamp gave 3.0h).
TEST_CASE("Generic f16 results honour clamp on the VOP3 and SDWA forms", "[sim][sdwa][omod]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    CHECK(v8(arch, "  v_add_f16_e64 v8, v2, v4 clamp\n", 0x3e00u, 0x3e00u) == 0x3c00u);
    // word 1 of a (1.5h) + word 0 of b (1.5h), clamped to 1.0h, into word 1; word 0 kept.
    CHECK(v8(arch, "  v_mov_b32 v8, 0x12345678\n"
                   "  v_add_f16_sdwa v8, v2, v4 clamp dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0\n",
             0x3e000000u, 0x3e00u) == 0x3c005678u);
    // -2 * 3 = -6 -> +0; NaN * 1 -> 0; 0.25 unchanged (0x3400).
    CHECK(v8(arch, "  v_mul_f16_e64 v8, v2, v4 clamp\n", 0xc000u, 0x4200u) == 0u);
    CHECK(v8(arch, "  v_mul_f16_e64 v8, v2, v4 clamp\n", 0x7e00u, 0x3c00u) == 0u);
    CHECK(v8(arch, "  v_max_f16_e64 v8, v2, v4 clamp\n", 0x3400u, 0xbc00u) == 0x3400u);
  }
}

// SDWA forms of the MODE handlers (ops_rounding.cpp) under a non-default round mode: the selects are
// applied before, the destination field merged after (sdwa_run_selected). Before: an Error.
TEST_CASE("SDWA under a non-default MODE round mode", "[sim][sdwa][mode]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // f32 round toward +inf with f32 denormals kept (MODE[5:0] = 0x31): 1.0 + word 0 of 0x80000001
    // (0x0001 = +2^-149) -> 0x3f800001. Without the select the addend is -2^-149 and rounding up gives 1.0.
    const std::string up32 = "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 6), 0x31\n";
    CHECK(v8(arch, up32 + "  v_add_f32_sdwa v8, v2, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0\n",
             0x3f800000u, 0x80000001u) == 0x3f800001u);
    CHECK(v8(arch, up32 + "  v_add_f32_sdwa v8, v2, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n",
             0x3f800000u, 0x80000001u) == 0x3f800000u);
    // f16 round toward +inf: 1.0h (word 1) + 2^-24 (word 0 of b) = 0x3c01, into word 1, word 0 kept.
    const std::string up16 = "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), 1\n";
    CHECK(v8(arch, up16 + "  v_mov_b32 v8, 0x12345678\n"
                          "  v_add_f16_sdwa v8, v2, v4 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0\n",
             0x3c000000u, 0xffff0001u) == 0x3c015678u);
    // f16 round toward zero: f32 0x3f801fff (just below 1 + 2^-10) -> 0x3c00 (nearest even gives 0x3c01),
    // into word 1 with word 0 sign-extending nothing (UNUSED_SEXT fills above the field only).
    const std::string rtz16 = "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), 3\n";
    CHECK(v8(arch, rtz16 + "  v_mov_b32 v8, 0x12345678\n"
                           "  v_cvt_f16_f32_sdwa v8, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD\n",
             0x3f801fffu) == 0x3c005678u);
    // v_cvt_f32_f16 of word 1 under f16/f64 denormal flush (MODE[7:6] = 0): the denormal 0x0001 becomes +0.
    const std::string flush16 = "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 6, 2), 0\n";
    CHECK(v8(arch, flush16 + "  v_cvt_f32_f16_sdwa v8, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1\n",
             0x00013c00u) == 0u);
    CHECK(v8(arch, flush16 + "  v_cvt_f32_f16_sdwa v8, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0\n",
             0x00013c00u) == 0x3f800000u);
  }
}

// The fp8 -> f32 conversions have no destination select: LLVM 22's assembler rejects dst_sel on their
// _sdwa forms, and its disassembler does not decode these bytes with DST_SEL = WORD_1 (5) as the
// conversion, so the simulator refuses them as undecodable; DST_SEL = DWORD (6) decodes and converts.
// Bytes of v_cvt_f32_fp8_sdwa v8, v2 src0_sel:BYTE_1: f9 a8 10 7e 02 06 01 00 (llvm-mc-22 -show-encoding).
TEST_CASE("SDWA fp8 conversions: no destination select", "[sim][sdwa][fp8]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Byte 1 = 0x40: E4M3 2.0 (OCP, gfx950) / 1.0 (FNUZ, gfx942).
    const uint32_t want = arch == Arch::gfx942 ? 0x3f800000u : 0x40000000u;
    CHECK(v8(arch, "  .long 0x7e10a8f9, 0x00010602\n", 0x4000u) == want);
    CHECK_THROWS(v8(arch, "  .long 0x7e10a8f9, 0x00010502\n", 0x4000u));
  }
}

// v_fract of NaN is NaN, and the f16 fract stays below 1. Before: NaN gave the bound (std::fmin drops a
// NaN: 0x3c00 for f16, 0x3f7fffff for f32), and fract_f16(-2^-24) = 1 - 2^-24 rounded to 1.0h.
TEST_CASE("v_fract of NaN is NaN; f16 fract stays below 1", "[sim][sdwa]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    CHECK(v8(arch, "  v_fract_f16_e32 v8, v2\n", 0x7e00u) == 0x7e00u);
    CHECK(v8(arch, "  v_fract_f16_sdwa v8, v2 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1\n", 0x80010000u) == 0x3bffu);
    CHECK(v8(arch, "  v_fract_f32_e32 v8, v2\n", 0x7fc00000u) == 0x7fc00000u);
    Run r = run(arch, "  v_fract_f64_e32 v[8:9], v[2:3]\n", std::vector<uint64_t>(64, 0x7ff8000000000000ull),
                std::vector<uint64_t>(64), std::vector<uint64_t>(64));
    CHECK(r.out[0] == 0x7ff8000000000000ull);
  }
}

// clamp on packed f16, packed f32 and f64 results (clang-22 emits v_pk_mul_f16 ... clamp and
// v_add_f64 ... clamp for a [0, 1] clamp of half2 / double). Before, clamp was ignored on all three.
TEST_CASE("clamp on packed f16, packed f32 and f64 results", "[sim][omod]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // {lo 1.5h * 2.0h = 3.0h -> 1.0h, hi -1.0h * 1.0h -> 0}.
    CHECK(v8(arch, "  v_pk_mul_f16 v8, v2, v4 clamp\n", 0xbc003e00u, 0x3c004000u) == 0x00003c00u);
    // {lo 0.25h + 0.25h = 0.5h (0x3800) kept, hi NaN -> 0}.
    CHECK(v8(arch, "  v_pk_add_f16 v8, v2, v4 clamp\n", 0x7e003400u, 0x3c003400u) == 0x00003800u);
    // v_pk_add_f32 on v[2:3] + v[4:5]: lo 0.75 + 0.75 = 1.5 -> 1.0 (the harness puts the lane's 64-bit
    // inputs in v[2:3] and v[4:5]; only the low dwords are set here, the high ones are 0 -> 0 + 0 = 0).
    CHECK(v8(arch, "  v_pk_add_f32 v[8:9], v[2:3], v[4:5] clamp\n", 0x3f400000u, 0x3f400000u) == 0x3f800000u);
    // f64: 0.75 + 0.75 = 1.5 -> 1.0; -0.5 + 0.25 -> 0.
    Run r = run(arch, "  v_add_f64 v[8:9], v[2:3], v[4:5] clamp\n", std::vector<uint64_t>(64, 0x3fe8000000000000ull),
                std::vector<uint64_t>(64, 0x3fe8000000000000ull), std::vector<uint64_t>(64));
    CHECK(r.out[0] == 0x3ff0000000000000ull);
    r = run(arch, "  v_add_f64 v[8:9], v[2:3], v[4:5] clamp\n", std::vector<uint64_t>(64, 0xbfe0000000000000ull),
            std::vector<uint64_t>(64, 0x3fd0000000000000ull), std::vector<uint64_t>(64));
    CHECK(r.out[0] == 0u);
    // v_cvt_f32_f64 (an f32 result of an f64 instruction): 2.0 -> 1.0.
    r = run(arch, "  v_cvt_f32_f64_e64 v8, v[2:3] clamp\n", std::vector<uint64_t>(64, 0x4000000000000000ull),
            std::vector<uint64_t>(64), std::vector<uint64_t>(64));
    CHECK(uint32_t(r.out[0]) == 0x3f800000u);
  }
}

// Integer results of f32 instructions are not f32 values: the f32 output flush and the f32 clamp must not
// touch them. The test kernel's descriptor flushes f32 denormals (MODE 0x3c0), so before, v_cvt_i32_f32
// of 5.0 gave 0 (5 looks like an f32 denormal), and clamp turned -3 (0xfffffffd, a NaN pattern) into 0.
// Also: the f32 result of v_cvt_f32_ubyte0 and the f16 result of v_cvt_f16_f32 honour clamp (before: ignored).
TEST_CASE("Float-to-int conversions keep small integers under f32 flush; clamp by result type", "[sim][omod]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    CHECK(v8(arch, "  v_cvt_i32_f32_e32 v8, v2\n", 0x40a00000u) == 5u);      // 5.0
    CHECK(v8(arch, "  v_cvt_u32_f32_e32 v8, v2\n", 0x40a00000u) == 5u);
    CHECK(v8(arch, "  v_cvt_rpi_i32_f32_e32 v8, v2\n", 0x40b00000u) == 6u);  // 5.5 -> floor(6.0)
    CHECK(v8(arch, "  v_cvt_flr_i32_f32_e32 v8, v2\n", 0x40b00000u) == 5u);
    CHECK(v8(arch, "  v_cvt_i32_f32_e64 v8, v2 clamp\n", 0xc0400000u) == 0xfffffffdu);  // -3.0 -> -3, in range
    CHECK(v8(arch, "  v_cvt_f32_ubyte0_e64 v8, v2 clamp\n", 0xffu) == 0x3f800000u);    // 255.0 -> 1.0
    CHECK(v8(arch, "  v_cvt_f32_ubyte1_e32 v8, v2\n", 0x4000u) == 0x42800000u);        // byte 1 = 64 -> 64.0
    CHECK(v8(arch, "  v_cvt_f16_f32_e64 v8, v2 clamp\n", 0x40a00000u) == 0x3c00u);     // 5.0 -> 1.0h
    CHECK_THROWS_WITH(v8(arch, "  v_cvt_pkrtz_f16_f32_e64 v8, v2, v2 clamp\n", 0x40a00000u), Catch::Contains("clamp"));
  }
}

// MODE.DX10_CLAMP (bit 8) clear: clamp passes a NaN through instead of making it 0 (LLVM AMDGPUUsage,
// ENABLE_DX10_CLAMP). Before, a NaN always clamped to 0.
TEST_CASE("clamp of NaN with MODE.DX10_CLAMP clear passes the NaN through", "[sim][omod]") {
  const std::string dx10_off = "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 1), 0\n";
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    CHECK(v8(arch, dx10_off + "  v_add_f32_e64 v8, v2, v4 clamp\n", 0x7fc00000u, 0x3f800000u) == 0x7fc00000u);
    CHECK(v8(arch, "  v_add_f32_e64 v8, v2, v4 clamp\n", 0x7fc00000u, 0x3f800000u) == 0u);  // DX10_CLAMP set
    CHECK(v8(arch, dx10_off + "  v_add_f16_e64 v8, v2, v4 clamp\n", 0x7e00u, 0x3c00u) == 0x7e00u);
    CHECK(v8(arch, dx10_off + "  v_add_f32_e64 v8, v2, v4 clamp\n", 0x3fc00000u, 0x3f800000u) == 0x3f800000u);  // 2.5 -> 1.0
    Run r = run(arch, dx10_off + "  v_add_f64 v[8:9], v[2:3], v[4:5] clamp\n", std::vector<uint64_t>(64, 0x7ff8000000000000ull),
                std::vector<uint64_t>(64), std::vector<uint64_t>(64));
    CHECK(r.out[0] == 0x7ff8000000000000ull);
  }
}

// clamp on the handlers with their own result writes: v_fmac_f64, v_fma_mix_f32 / v_fma_mixlo_f16 (f32
// denormals kept: the mix instructions refuse a flushing f32 field), v_div_fmas and v_div_fixup (f32 and
// f64). Before, clamp was ignored on every one (e.g. v_div_fmas_f32 1.5 * 2 + 0.5 gave 3.5).
TEST_CASE("clamp on v_fmac_f64, v_fma_mix and the division helpers", "[sim][omod]") {
  const std::string keep32 = "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3\n";
  auto run64 = [](Arch arch, const std::string& body, uint64_t a, uint64_t b, uint64_t c) {
    return run(arch, body, std::vector<uint64_t>(64, a), std::vector<uint64_t>(64, b), std::vector<uint64_t>(64, c)).out[0];
  };
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // 1.5 * 2.0 + 0.5 = 3.5 -> 1.0 (f64 0x3ff0..., f32 0x3f800000, f16 0x3c00).
    CHECK(run64(arch, "  v_mov_b32 v8, 0\n  v_mov_b32 v9, 0x3fe00000\n  v_fmac_f64_e64 v[8:9], v[2:3], v[4:5] clamp\n",
                0x3ff8000000000000ull, 0x4000000000000000ull, 0) == 0x3ff0000000000000ull);
    CHECK(uint32_t(run64(arch, keep32 + "  v_fma_mix_f32 v8, v2, v4, v6 clamp\n", 0x3fc00000u, 0x40000000u, 0x3f000000u)) ==
          0x3f800000u);
    CHECK(uint32_t(run64(arch, keep32 + "  v_fma_mixlo_f16 v8, v2, v4, v6 clamp\n", 0x3fc00000u, 0x40000000u, 0x3f000000u)) ==
          0x3c00u);
    CHECK(uint32_t(run64(arch, "  s_mov_b64 vcc, 0\n  v_div_fmas_f32 v8, v2, v4, v6 clamp\n", 0x3fc00000u, 0x40000000u,
                         0x3f000000u)) == 0x3f800000u);
    CHECK(run64(arch, "  s_mov_b64 vcc, 0\n  v_div_fmas_f64 v[8:9], v[2:3], v[4:5], v[6:7] clamp\n", 0x3ff8000000000000ull,
                0x4000000000000000ull, 0x3fe0000000000000ull) == 0x3ff0000000000000ull);
    // div_fixup(quotient 2.0, denominator 1.0, numerator 2.0) = 2.0 -> 1.0; -2.0 (numerator -2) -> 0.
    CHECK(uint32_t(run64(arch, "  v_div_fixup_f32 v8, v2, v4, v6 clamp\n", 0x40000000u, 0x3f800000u, 0x40000000u)) ==
          0x3f800000u);
    CHECK(uint32_t(run64(arch, "  v_div_fixup_f32 v8, v2, v4, v6 clamp\n", 0xc0000000u, 0x3f800000u, 0xc0000000u)) == 0u);
    CHECK(run64(arch, "  v_div_fixup_f64 v[8:9], v[2:3], v[4:5], v[6:7] clamp\n", 0x4000000000000000ull,
                0x3ff0000000000000ull, 0x4000000000000000ull) == 0x3ff0000000000000ull);
  }
}

// clamp on the VOP3 forms of the per-lane f64 / f16 / f32 handlers (lane_op.hpp OutMods). Before: an Error.
TEST_CASE("clamp on the per-lane f64, f16 mad and cube handlers", "[sim][omod]") {
  auto run64 = [](Arch arch, const std::string& body, uint64_t a, uint64_t b, uint64_t c) {
    return run(arch, body, std::vector<uint64_t>(64, a), std::vector<uint64_t>(64, b), std::vector<uint64_t>(64, c)).out[0];
  };
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    CHECK(run64(arch, "  v_ceil_f64_e64 v[8:9], v[2:3] clamp\n", 0x4004000000000000ull, 0, 0) == 0x3ff0000000000000ull);  // ceil 2.5 = 3 -> 1
    CHECK(run64(arch, "  v_fract_f64_e64 v[8:9], v[2:3] clamp\n", 0xc004000000000000ull, 0, 0) == 0x3fe0000000000000ull);  // fract -2.5 = 0.5
    CHECK(run64(arch, "  v_frexp_exp_i32_f64_e64 v8, v[2:3] clamp\n", 0x3fd0000000000000ull, 0, 0) == 0xffffffffull);  // 0.25 -> -1
    // v_mad_f16 / v_fma_legacy_f16 / v_mac_f16: 1.5h * 2.0h + 0.5h = 3.5h -> 1.0h.
    CHECK(uint32_t(run64(arch, "  v_mad_f16 v8, v2, v4, v6 clamp\n", 0x3e00u, 0x4000u, 0x3800u)) == 0x3c00u);
    CHECK(uint32_t(run64(arch, "  v_fma_legacy_f16 v8, v2, v4, v6 clamp\n", 0x3e00u, 0x4000u, 0x3800u)) == 0x3c00u);
    CHECK(uint32_t(run64(arch, "  v_mov_b32 v8, 0x3800\n  v_mac_f16_e64 v8, v2, v4 clamp\n", 0x3e00u, 0x4000u, 0)) == 0x3c00u);
    // div_fixup_f16(quotient -2.0h, denominator 1.0h, numerator -2.0h) = -2.0h -> 0.
    CHECK(uint32_t(run64(arch, "  v_div_fixup_f16 v8, v2, v4, v6 clamp\n", 0xc000u, 0x3c00u, 0xc000u)) == 0u);
    // v_cubema_f32(x 0.25, y 0.5, z 3.0) = 2 * 3.0 = 6.0 -> 1.0.
    CHECK(uint32_t(run64(arch, "  v_cubema_f32 v8, v2, v4, v6 clamp\n", 0x3e800000u, 0x3f000000u, 0x40400000u)) == 0x3f800000u);
  }
}
