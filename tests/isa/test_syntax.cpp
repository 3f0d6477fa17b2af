// parse()/print() on hand-picked lines in the syntax LLVM prints.
#include <catch2/catch.hpp>

#include "jit/isa/machine_inst.hpp"
#include "jit/isa/waitcnt.hpp"
#include "tests/isa/inst_compare.hpp"

using namespace cdnajit;
using namespace cdnajit::isa;

namespace {
MachineInst parse_ok(std::string_view line, uint64_t address = 0) {
  MachineInst mi;
  mi.address = address;
  std::string err;
  INFO(line);
  bool ok = parse(line, mi, err);
  INFO(err);
  REQUIRE(ok);
  return mi;
}
std::string parse_err(std::string_view line) {
  MachineInst mi;
  std::string err;
  INFO(line);
  REQUIRE_FALSE(parse(line, mi, err));
  REQUIRE_FALSE(err.empty());
  return err;
}
}  // namespace

TEST_CASE("registers, suffixes and table lookup", "[isa][syntax]") {
  MachineInst mi = parse_ok("\tv_add_co_u32_e32 v4, vcc, s6, v[4:5]");
  CHECK(mi.mnemonic == "v_add_co_u32_e32");
  REQUIRE(mi.info == find("v_add_co_u32"));
  REQUIRE(mi.operands.size() == 4);
  CHECK(mi.operands[0].kind == Operand::Kind::Reg);
  CHECK(mi.operands[0].file == RegFile::VGPR);
  CHECK(mi.operands[0].index == 4);
  CHECK(mi.operands[1].kind == Operand::Kind::Special);
  CHECK(mi.operands[1].special == SpecialReg::VCC);
  CHECK(mi.operands[2].file == RegFile::SGPR);
  CHECK(mi.operands[3].dwords == 2);
  CHECK(print(mi) == "v_add_co_u32_e32 v4, vcc, s6, v[4:5]");

  MachineInst m2 = parse_ok("v_mfma_f32_32x32x8_f16 a[0:15], v[18:19], v[22:23], a[0:15] cbsz:1 abid:2 blgp:3");
  CHECK(m2.operands[0].file == RegFile::AGPR);
  CHECK(m2.operands[0].dwords == 16);
  CHECK(m2.mods.cbsz == 1);
  CHECK(m2.mods.abid == 2);
  CHECK(m2.mods.blgp == 3);

  MachineInst raw = parse_ok("v_mov_b32_dpp v3, v1 row_shr:1 row_mask:0xf bank_mask:0xf");
  CHECK(raw.info == find("v_mov_b32"));
  CHECK(raw.mods.extra == "row_shr:1 row_mask:0xf bank_mask:0xf");
  CHECK(print(raw) == "v_mov_b32_dpp v3, v1 row_shr:1 row_mask:0xf bank_mask:0xf");

  MachineInst unknown = parse_ok("v_frobnicate_b32 v1, v2");  // not in the table: still parsed
  CHECK(unknown.info == nullptr);
  CHECK(unknown.operands.size() == 2);
}

TEST_CASE("immediates and float inline constants", "[isa][syntax]") {
  MachineInst mi = parse_ok("v_max_f32_e32 v13, 0.15915494, v13");
  CHECK(mi.operands[1].kind == Operand::Kind::FImm);
  CHECK(uint32_t(mi.operands[1].imm) == 0x3e22f983u);
  CHECK(print(mi) == "v_max_f32_e32 v13, 0.15915494, v13");

  mi = parse_ok("v_add_f32_e32 v2, -0.5, v7");
  CHECK(mi.operands[1].kind == Operand::Kind::FImm);
  CHECK(uint32_t(mi.operands[1].imm) == 0xbf000000u);

  mi = parse_ok("s_mov_b32 s3, 0xc2ce8ed0");
  CHECK(mi.operands[1].kind == Operand::Kind::Imm);
  CHECK(mi.operands[1].imm == 0xc2ce8ed0);
  CHECK(print(mi) == "s_mov_b32 s3, 0xc2ce8ed0");

  mi = parse_ok("s_cselect_b32 m0, 0x800, -1");
  CHECK(mi.operands[0].special == SpecialReg::M0);
  CHECK(mi.operands[2].imm == -1);
  CHECK(print(mi) == "s_cselect_b32 m0, 0x800, -1");

  mi = parse_ok("s_mov_b32 s0, lit(0x1)");
  CHECK(mi.operands[1].imm == 1);

  mi = parse_ok("v_fma_f64 v[0:1], v[2:3], v[4:5], 0.15915494309189532");
  CHECK(uint32_t(mi.operands[3].imm) == 0x3e22f983u);
  CHECK(print(mi) == "v_fma_f64 v[0:1], v[2:3], v[4:5], 0.15915494309189532");
  CHECK(print(parse_ok("v_add_f16_e32 v0, 0.15915494, v1")) == "v_add_f16_e32 v0, 0.15915494, v1");

  Operand o = Operand::immediate(-100);
  CHECK(print_operand(o) == "-0x64");
  CHECK(print_operand(Operand::immediate(0xffffff9c)) == "0xffffff9c");
  CHECK(parse_ok("s_atomic_cmpswap_x2 s[84:87], s[100:101], -0x52015 glc").operands[2].imm == -0x52015);
}

TEST_CASE("source modifiers -x |x| neg() abs()", "[isa][syntax]") {
  MachineInst mi = parse_ok("v_fma_f32 v19, -v26, |v28|, -|s2|");
  CHECK(mi.operands[1].neg);
  CHECK_FALSE(mi.operands[1].abs);
  CHECK(mi.operands[2].abs);
  CHECK(mi.operands[3].neg);
  CHECK(mi.operands[3].abs);
  CHECK(mi.operands[3].file == RegFile::SGPR);
  CHECK(print(mi) == "v_fma_f32 v19, -v26, |v28|, -|s2|");
  MachineInst m2 = parse_ok("v_fma_f32 v19, neg(v26), abs(v28), neg(abs(s2))");
  CHECK(test::difference(mi, m2).empty());
  // A negated constant is not the negative constant.
  MachineInst c = parse_ok("v_maximum3_f32 v164, -|v145|, 46, neg(58) div:2");
  CHECK(c.operands[3].imm == 58);
  CHECK(c.operands[3].neg);
  CHECK(print(c) == "v_maximum3_f32 v164, -|v145|, 46, neg(58) div:2");
  CHECK(parse_ok("v_fma_f32 v0, v1, v2, neg(1.0)").operands[3].neg);
  CHECK_FALSE(parse_ok("v_fma_f32 v0, v1, v2, -1.0").operands[3].neg);
}

TEST_CASE("s_waitcnt syntax decodes into the gfx9 bit fields", "[isa][syntax]") {
  CHECK(parse_ok("s_waitcnt lgkmcnt(0)").operands[0].imm == 0xc07f);
  CHECK(parse_ok("s_waitcnt vmcnt(0)").operands[0].imm == 0x0f70);
  CHECK(parse_ok("s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)").operands[0].imm == 0);
  CHECK(parse_ok("s_waitcnt vmcnt(54)").operands[0].imm == encode_waitcnt(54, -1, -1));
  CHECK(parse_ok("s_waitcnt vmcnt(1) & lgkmcnt(2)").operands[0].imm == encode_waitcnt(1, -1, 2));
  CHECK(parse_ok("s_waitcnt 0").operands[0].imm == 0);
  MachineInst mi;
  mi.info = find("s_waitcnt");
  mi.mnemonic = "s_waitcnt";
  mi.operands.push_back(Operand::immediate(encode_waitcnt(3, -1, 0)));
  CHECK(print(mi) == "s_waitcnt vmcnt(3) lgkmcnt(0)");
  parse_err("s_waitcnt vmcnt(64)");
  CHECK(parse_ok("s_waitcnt vmcnt_sat(64)").operands[0].imm == encode_waitcnt(63, -1, -1));
  parse_err("s_waitcnt lgkm(0)");
  parse_err("s_waitcnt");
}

TEST_CASE("branch targets: decoder numbers become absolute addresses", "[isa][syntax]") {
  MachineInst mi = parse_ok("\ts_cbranch_execnz 65524", 0x100);
  REQUIRE(mi.operands.size() == 1);
  CHECK(mi.operands[0].kind == Operand::Kind::Label);
  CHECK(mi.operands[0].imm == 0x100 + 4 - 12 * 4);
  CHECK(mi.operands[0].label.empty());
  CHECK(print(mi) == "s_cbranch_execnz 65524");
  MachineInst fwd = parse_ok("s_branch 3", 0x40);
  CHECK(fwd.operands[0].imm == 0x40 + 4 + 12);
  MachineInst named = parse_ok("s_cbranch_scc1 .LBB0_2");
  CHECK(named.operands[0].label == ".LBB0_2");
  CHECK(print(named) == "s_cbranch_scc1 .LBB0_2");
  // llvm-objdump's trailing comment is ignored.
  MachineInst od = parse_ok("\ts_cbranch_execz 23                       // 00000000261C: BF880017 <vadd+0x7c>", 0x261c);
  CHECK(od.operands[0].imm == 0x261c + 4 + 23 * 4);
}

TEST_CASE("memory modifiers", "[isa][syntax]") {
  MachineInst mi = parse_ok("buffer_store_dword v0, v2, s[4:7], 0 offen offset:1024 sc0 sc1 nt");
  CHECK(mi.mods.offen);
  CHECK(mi.mods.offset == 1024);
  CHECK(mi.mods.sc0);
  CHECK(mi.mods.sc1);
  CHECK(mi.mods.nt);
  CHECK(mi.operands.size() == 4);
  CHECK(print(mi) == "buffer_store_dword v0, v2, s[4:7], 0 offen offset:1024 sc0 sc1 nt");

  mi = parse_ok("buffer_load_dword v0, s[0:3], 0 offen lds");
  CHECK(mi.mods.lds);
  CHECK(mi.operands.size() == 3);

  mi = parse_ok("global_load_dword v25, v[8:9], off offset:-4096");
  CHECK(mi.operands[2].kind == Operand::Kind::Off);
  CHECK(mi.mods.offset == -4096);
  CHECK(print(mi) == "global_load_dword v25, v[8:9], off offset:-4096");

  mi = parse_ok("ds_write2_b32 v1, v10, v11 offset0:52 offset1:117");
  CHECK(mi.mods.offset0 == 52);
  CHECK(mi.mods.offset1 == 117);

  mi = parse_ok("s_load_dword s1, s[2:3], 0x10 glc");
  CHECK(mi.mods.sc0);
  CHECK(print(mi) == "s_load_dword s1, s[2:3], 16 glc");

  mi = parse_ok("s_buffer_store_dword s56, s[20:23], s6 offset:-0x83ea");
  CHECK(mi.mods.offset == -0x83ea);
  CHECK(print(mi) == "s_buffer_store_dword s56, s[20:23], s6 offset:-0x83ea");

  mi = parse_ok("ds_swizzle_b32 v11, v1 offset:swizzle(SWAP,16)");
  CHECK(mi.mods.offset == 0x401f);
  CHECK(parse_ok("ds_swizzle_b32 v1, v2 offset:swizzle(QUAD_PERM,0,1,2,3)").mods.offset == 0x80e4);
  CHECK(parse_ok("ds_swizzle_b32 v1, v2 offset:swizzle(BROADCAST,8,1)").mods.offset == (0x18 | (1 << 5)));
  CHECK(parse_ok("ds_swizzle_b32 v1, v2 offset:swizzle(REVERSE,8)").mods.offset == (0x1f | (7 << 10)));
  CHECK(parse_ok("ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,\"01pip\")").mods.offset ==
        (0b00111 | (0b01000 << 5) | (0b00010 << 10)));
}

TEST_CASE("VOP3/VOP3P modifiers", "[isa][syntax]") {
  MachineInst mi = parse_ok("v_pk_add_f16 v10, v11, v12 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[1,0] neg_hi:[0,1] clamp");
  CHECK(mi.mods.op_sel == 1);
  CHECK(mi.mods.op_sel_hi == 2);
  CHECK(mi.mods.op_sel_hi_set);
  CHECK(mi.mods.neg_lo == 1);
  CHECK(mi.mods.neg_hi == 2);
  CHECK(mi.mods.clamp);
  CHECK(print(mi) == "v_pk_add_f16 v10, v11, v12 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[1,0] neg_hi:[0,1] clamp");

  mi = parse_ok("v_add_f32_e64 v0, v1, s2 clamp div:2");
  CHECK(mi.mods.omod == 3);
  CHECK(print(mi) == "v_add_f32_e64 v0, v1, s2 clamp div:2");

  mi = parse_ok("v_mfma_scale_f32_16x16x128_f8f6f4 v[18:21], v[24:31], v[32:39], v[18:21], v0, v0 op_sel_hi:[0,0,0]");
  CHECK(mi.mods.op_sel_hi_set);
  CHECK(mi.mods.op_sel_hi == 0);
  CHECK(print(mi) == "v_mfma_scale_f32_16x16x128_f8f6f4 v[18:21], v[24:31], v[32:39], v[18:21], v0, v0 op_sel_hi:[0,0,0]");

  mi = parse_ok("v_mfma_f64_4x4x4_4b_f64 a[0:1], v[0:1], a[2:3], a[2:3] neg:[1,0,0]");
  CHECK(mi.mods.neg_lo == 1);
  CHECK(print(mi) == "v_mfma_f64_4x4x4_4b_f64 a[0:1], v[0:1], a[2:3], a[2:3] neg:[1,0,0]");

  mi = parse_ok("v_bitop3_b32 v0, v1, s7, v10 bitop3:0xde");
  CHECK(mi.mods.extra == "bitop3:0xde");
}

TEST_CASE("hwreg, sendmsg, labels, comments", "[isa][syntax]") {
  MachineInst mi = parse_ok("s_getreg_b32 s0, hwreg(HW_REG_HW_ID)");
  CHECK(mi.operands[1].imm == (4 | (31 << 11)));
  CHECK(print(mi) == "s_getreg_b32 s0, hwreg(4, 0, 32)");
  CHECK(parse_ok("s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s1").operands[0].imm == (1 | (4 << 6) | (1 << 11)));
  CHECK(parse_ok("s_sendmsg sendmsg(MSG_INTERRUPT)").operands[0].imm == 1);
  CHECK(parse_ok("s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)").operands[0].imm == (2 | (2 << 4) | (1 << 8)));

  MachineInst lbl = parse_ok(".LBB0_2:");
  CHECK(lbl.label_def == ".LBB0_2");
  CHECK(print(lbl) == ".LBB0_2:");

  MachineInst c = parse_ok("v_mov_b32 v1, s2 ; acc[3] kernel.cpp:12");
  CHECK(c.comment == "acc[3] kernel.cpp:12");
  CHECK(print(c) == "v_mov_b32 v1, s2 ; acc[3] kernel.cpp:12");

  MachineInst e = parse_ok("s_endpgm");
  CHECK(e.operands.empty());
  MachineInst w = parse_ok("buffer_wbl2 sc0 sc1");
  CHECK(w.operands.empty());
  CHECK(w.mods.sc0);
}

TEST_CASE("printing raw escapes and builder-made instructions", "[isa][syntax]") {
  MachineInst raw;
  raw.raw = "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0";
  CHECK(print(raw) == raw.raw);
  MachineInst mi;
  mi.info = find("v_fmac_f32");  // mnemonic taken from the table when empty
  mi.operands = {Operand::reg(RegFile::VGPR, 1), Operand::reg(RegFile::VGPR, 2), Operand::reg(RegFile::VGPR, 3)};
  CHECK(print(mi) == "v_fmac_f32 v1, v2, v3");
  Operand f;
  f.kind = Operand::Kind::FImm;
  f.imm = 0x40400000;  // 3.0 is not an inline constant: printed as its literal bits
  CHECK(print_operand(f) == "0x40400000");
}

TEST_CASE("parse errors say what is wrong", "[isa][syntax]") {
  CHECK(parse_err("").find("empty") != std::string::npos);
  CHECK(parse_err("   ; only a comment").find("empty") != std::string::npos);
  CHECK(parse_err("V_ADD_F32 v0, v1, v2").find("mnemonic") != std::string::npos);
  CHECK(parse_err("v_add_f32 v0, v1, q7").find("q7") != std::string::npos);
  CHECK(parse_err("v_add_f32 v0, , v2").find("empty operand") != std::string::npos);
  CHECK(parse_err("v_add_f32 v0, v[3:1], v2").find("v[3:1]") != std::string::npos);
  CHECK(parse_err("v_add_f32 v0, v1 v2").find("v2") != std::string::npos);
  CHECK(parse_err("ds_read_b32 v0, v1 offset:abc").find("offset:abc") != std::string::npos);
  CHECK(parse_err("v_add_f32 v0, v1, v2 mul:3").find("mul:3") != std::string::npos);
  CHECK(parse_err("s_getreg_b32 s0, hwreg(HW_REG_NOPE)").find("HW_REG_NOPE") != std::string::npos);
  CHECK(parse_err("ds_swizzle_b32 v1, v2 offset:swizzle(SPIN,1)").find("SPIN") != std::string::npos);
  CHECK(parse_err("v_pk_add_f16 v0, v1, v2 op_sel:[2,0]").find("op_sel") != std::string::npos);
  CHECK(parse_err("v_ceil_f64_e32 v[235:236]/*Invalid register, operand has 'VReg_64_Align2' register class*/, v[22:23]")
            .find("invalid: Invalid register") != std::string::npos);
}
