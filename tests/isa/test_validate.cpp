// isa::validate: table samples pass on their archs, bad instructions fail with
// a message naming the problem.
#include <catch2/catch.hpp>

#include "jit/isa/validate.hpp"
#include "jit/isa/sample_inst.hpp"

using namespace cdnajit;
using namespace cdnajit::isa;

namespace {
MachineInst parsed(std::string_view line) {
  MachineInst mi;
  std::string err;
  INFO(line);
  REQUIRE(parse(line, mi, err));
  return mi;
}
std::string invalid(std::string_view line, Arch arch = Arch::gfx950) {
  MachineInst mi = parsed(line);
  std::string err;
  INFO(line);
  REQUIRE_FALSE(validate(mi, arch, err));
  REQUIRE_FALSE(err.empty());
  return err;
}
void valid(std::string_view line, Arch arch = Arch::gfx950) {
  MachineInst mi = parsed(line);
  std::string err;
  INFO(line << " -> " << err);
  CHECK(validate(mi, arch, err));
}
}  // namespace

TEST_CASE("every table sample validates exactly on its archs", "[isa][validate]") {
  for (const InstrInfo& e : table()) {
    for (bool mods : {false, true}) {
      MachineInst mi = test::sample_instruction(e, mods);
      for (Arch a : {Arch::gfx942, Arch::gfx950}) {
        std::string err;
        bool ok = validate(mi, a, err);
        INFO(print(mi) << " on " << arch_name(a) << ": " << err);
        CHECK(ok == e.on(a));
        if (!ok) CHECK(err.find("does not exist") != std::string::npos);
      }
    }
  }
}

TEST_CASE("validate accepts the special forms LLVM prints", "[isa][validate]") {
  valid("global_load_dword v1, v2, s[0:1] offset:256");        // saddr: 32-bit VGPR offset
  valid("global_load_dword v1, v[4:5], off");
  valid("global_atomic_add v1, v1, v2, s[4:5] sc0 sc1");       // returning atomic
  valid("buffer_load_dword v1, s[4:7], 0 offen lds");          // LDS DMA: no vdata
  valid("v_mfma_f32_16x16x16_f16 v[16:19], v[18:19], v[22:23], 0");  // srcC inline constant
  valid("v_cmp_gt_u32_e32 vcc, 16, v0");
  valid("s_mov_b64 s[4:5], src_shared_base");
  valid("v_cndmask_b32_e64 v22, 0, 32, vcc");
  valid("v_readlane_b32 s1, v1, 5");
  valid("v_writelane_b32 v2, s10, m0");
  valid("v_fma_f32 v19, -v26, v28, 1.0");
  valid("s_waitcnt vmcnt(0) lgkmcnt(0)");
  valid("v_mfma_scale_f32_16x16x128_f8f6f4 v[18:21], v[24:31], v[32:39], v[18:21], v0, v0 op_sel_hi:[0,0,0]");
  // f8f6f4 A/B widths follow CBSZ/BLGP (fp4 4 dwords, fp6 6, fp8 8), as llvm-mc-22 requires
  valid("v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[0:3], v[4:7], a[0:3], v20, v21 op_sel_hi:[0,0,0] cbsz:4 blgp:4");
  valid("v_mfma_f32_32x32x64_f8f6f4 a[0:15], v[0:5], v[8:15], a[0:15] cbsz:2");
}

TEST_CASE("validate: f8f6f4 MFMA source widths follow their formats", "[isa][validate]") {
  CHECK(invalid("v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[0:7], v[8:15], a[0:3], v20, v21 op_sel_hi:[0,0,0] cbsz:4")
            .find("must be 4") != std::string::npos);
  CHECK(invalid("v_mfma_f32_16x16x128_f8f6f4 a[0:3], v[0:7], v[8:11], a[0:3] blgp:0").find("must be 8") !=
        std::string::npos);
}

TEST_CASE("validate rejects bad instructions with a useful message", "[isa][validate]") {
  CHECK(invalid("v_dot2_f32_bf16 v0, v1, v2, v3", Arch::gfx942).find("gfx950-only") != std::string::npos);
  CHECK(invalid("v_frobnicate v0").find("not in the instruction table") != std::string::npos);
  CHECK(invalid("v_add_f32 v0, v1").find("operands") != std::string::npos);
  CHECK(invalid("global_load_dwordx2 v[1:2], v[4:5], off").find("multiple of 2") != std::string::npos);
  CHECK(invalid("s_load_dwordx4 s[2:5], s[0:1], 0x0").find("multiple of 4") != std::string::npos);
  CHECK(invalid("global_store_dwordx4 v[0:1], v[2:4], off").find("expected a VGPR or AGPR tuple of 4") !=
        std::string::npos);
  CHECK(invalid("v_mfma_f32_16x16x32_bf16 a[0:3], v[0:1], v[4:7], a[0:3]").find("src0") != std::string::npos);
  CHECK(invalid("v_fma_f32 v0, v1, v2, 0x40400000").find("literal") != std::string::npos);
  CHECK(invalid("v_add_u32 5, v1, v2").find("written") != std::string::npos);
  CHECK(invalid("ds_read_b32 v0, v1 offset0:1").find("offset0") != std::string::npos);
  CHECK(invalid("v_add_u32 v0, -v1, v2").find("neg/abs") != std::string::npos);
  CHECK(invalid("v_mov_b32 v300, v1").find("out of range") != std::string::npos);
  CHECK(invalid("s_mov_b32 s102, 0").find("out of range") != std::string::npos);
  CHECK(invalid("s_nop 70000").find("16 bits") != std::string::npos);
  valid("s_branch 0x10");  // a decoded numeric target is a label operand
}
