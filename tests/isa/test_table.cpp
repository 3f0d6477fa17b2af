// The table's own invariants and the facts other layers rely on.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>
#include <string>
#include <string_view>

#include "jit/isa/isa.hpp"
#include "jit/isa/mfma_rate.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/isa/waitcnt.hpp"
#include "jit/isa/error.hpp"

using namespace cdnajit;
using namespace cdnajit::isa;

TEST_CASE("table is sorted, unique and found by find()", "[isa][table]") {
  auto t = table();
  REQUIRE(t.size() > 500);
  for (size_t i = 1; i < t.size(); ++i) REQUIRE(t[i - 1].mnemonic < t[i].mnemonic);
  for (const auto& e : t) {
    const InstrInfo* f = find(e.mnemonic);
    REQUIRE(f == &e);
  }
}

TEST_CASE("find() rejects unknown names, suffixed names and wrong case", "[isa][table]") {
  CHECK(find("v_add_f32") != nullptr);
  CHECK(find("v_add_f32_e32") == nullptr);   // the caller strips encoding suffixes
  CHECK(find("V_ADD_F32") == nullptr);
  CHECK(find("") == nullptr);
  CHECK(find("v_add_f33") == nullptr);
  CHECK(find("v_mfma_f32_16x16x8bf16") == nullptr);  // pre-gfx940 spelling, not on gfx942/gfx950
}

TEST_CASE("every entry is self-consistent", "[isa][table]") {
  for (const auto& e : table()) {
    INFO(e.mnemonic);
    REQUIRE(e.archs != 0);
    REQUIRE((e.archs & ~kAllArchs) == 0);
    // Defs come first, as in the asm syntax.
    bool seen_use = false;
    for (const auto& op : e.operands) {
      REQUIRE(op.dwords >= 1);
      REQUIRE(!op.name.empty());
      if (!op.is_def) seen_use = true;
      REQUIRE(!(op.is_def && seen_use));
      REQUIRE((!op.also_read || op.is_def));
    }
    switch (e.family) {
      case Family::SMEM: CHECK((e.counter == Counter::Lgkm)); CHECK(e.unit == Unit::SMEM); break;
      case Family::DS: CHECK((e.counter == Counter::Lgkm)); CHECK(e.unit == Unit::DS); break;
      case Family::GLOBAL:
      case Family::SCRATCH:
      case Family::MUBUF: CHECK((e.counter == Counter::Vm)); CHECK(e.unit == Unit::VMEM); break;
      case Family::FLAT: CHECK((e.counter == Counter::VmLgkm)); CHECK(e.unit == Unit::VMEM); break;
      case Family::MFMA: CHECK(e.unit == Unit::MFMA); break;
      default: CHECK((e.counter == Counter::None || e.mnemonic == "s_sendmsg" || e.mnemonic == "s_sendmsghalt"));  // messages count on lgkmcnt
    }
    for (Arch a : {Arch::gfx942, Arch::gfx950}) {
      int p = mfma_passes(e, a);
      if (e.family == Family::MFMA && e.on(a)) {
        CHECK((p == 2 || p == 4 || p == 8 || p == 16));
      } else {
        CHECK(p == 0);
      }
    }
    if (e.is_trans) CHECK(e.unit == Unit::VALU);
  }
}

TEST_CASE("facts the passes and the builder rely on", "[isa][table]") {
  const InstrInfo* dot2 = find("v_dot2_f32_bf16");
  REQUIRE(dot2);
  CHECK(dot2->on(Arch::gfx950));
  CHECK_FALSE(dot2->on(Arch::gfx942));
  CHECK(dot2->family == Family::VOP3P);

  const InstrInfo* m = find("v_mfma_f32_16x16x32_bf16");
  REQUIRE(m);
  CHECK(m->archs == kGfx950);
  REQUIRE(m->operands.size() == 4);
  CHECK(m->operands[0].is_def);
  CHECK(m->operands[0].dwords == 4);
  CHECK(m->operands[1].dwords == 4);  // 8 bf16
  CHECK(m->operands[2].dwords == 4);
  CHECK(m->operands[3].dwords == 4);
  CHECK(mfma_passes(*m, Arch::gfx950) == 4);

  const InstrInfo* m32 = find("v_mfma_f32_32x32x8_f16");
  REQUIRE(m32);
  CHECK(m32->operands[0].dwords == 16);
  CHECK(m32->operands[1].dwords == 2);
  CHECK(mfma_passes(*m32, Arch::gfx942) == 8);
  CHECK(mfma_passes(*find("v_mfma_f32_4x4x4_16b_f16"), Arch::gfx942) == 2);
  CHECK(mfma_passes(*find("v_mfma_f32_32x32x2_f32"), Arch::gfx942) == 16);
  CHECK(mfma_passes(*find("v_mfma_f64_16x16x4_f64"), Arch::gfx942) == 8);
  CHECK(mfma_passes(*find("v_mfma_f64_16x16x4_f64"), Arch::gfx950) == 16);

  // gfx950 f8f6f4: half the passes with no 8-bit operand (jit/isa/mfma_rate.hpp); cbsz/blgp 0 fp8 .. 4 fp4.
  const InstrInfo& mx = *find("v_mfma_f32_16x16x128_f8f6f4");
  CHECK(mfma_passes(mx, Arch::gfx950, 0, 0) == 8);
  CHECK(mfma_passes(mx, Arch::gfx950, 4, 4) == 4);
  CHECK(mfma_passes(mx, Arch::gfx950, 1, 4) == 8);
  CHECK(mfma_passes(mx, Arch::gfx950, 4, 4, /*format_rates=*/false) == 8);
  CHECK(mfma_passes(mx, Arch::gfx942, 4, 4) == 0);  // not on gfx942
  CHECK(mfma_passes(*find("v_mfma_scale_f32_32x32x64_f8f6f4"), Arch::gfx950, 2, 3) == 8);
  CHECK(mfma_passes(*find("v_mfma_f32_32x32x8_f16"), Arch::gfx942, 4, 4) == 8);  // not format-selected

  const InstrInfo* st = find("global_store_dwordx4");
  REQUIRE(st);
  CHECK(st->is_store);
  CHECK_FALSE(st->is_load);
  CHECK(st->operands[1].name == "data");
  CHECK(st->operands[1].dwords == 4);
  CHECK(find("buffer_store_dwordx3")->operands[0].dwords == 3);

  const InstrInfo* fmac = find("v_fmac_f32");
  REQUIRE(fmac);
  CHECK(fmac->operands[0].is_def);
  CHECK(fmac->operands[0].also_read);
  CHECK_FALSE(find("v_fma_f32")->operands[0].also_read);

  CHECK(find("flat_load_dword")->counter == Counter::VmLgkm);
  CHECK(find("global_load_lds_dword")->counter == Counter::Vm);
  CHECK(find("global_load_lds_dwordx4")->archs == kGfx950);
  CHECK(find("ds_read_b128")->counter == Counter::Lgkm);
  CHECK(find("s_load_dwordx16")->operands[0].dwords == 16);
  CHECK(find("v_exp_f32")->is_trans);
  CHECK_FALSE(find("v_add_f32")->is_trans);
  CHECK(find("s_waitcnt")->unit == Unit::Waitcnt);
  CHECK(find("s_nop")->unit == Unit::Nop);
  CHECK(find("s_barrier")->unit == Unit::Barrier);
  CHECK(find("s_cbranch_scc1")->operands[0].kind == OpKind::Label);
  CHECK(find("v_div_fmas_f32") != nullptr);
  CHECK(find("v_cvt_pk_bf16_f32")->archs == kGfx950);
}

TEST_CASE("names of families, units, counters and archs", "[isa][table]") {
  CHECK(family_name(Family::VOP3P) == "VOP3P");
  CHECK(family_name(Family::MUBUF) == "MUBUF");
  CHECK(unit_name(Unit::Waitcnt) == "Waitcnt");
  CHECK(counter_name(Counter::Lgkm) == "lgkmcnt");
  CHECK(arch_name(Arch::gfx942) == "gfx942");
  CHECK(arch_name(Arch::gfx950) == "gfx950");
  CHECK(parse_arch("gfx950") == Arch::gfx950);
  CHECK(parse_arch("gfx942") == Arch::gfx942);
  CHECK_FALSE(parse_arch("gfx90a").has_value());
  CHECK_FALSE(parse_arch("").has_value());
}

TEST_CASE("s_waitcnt encoding", "[isa][waitcnt]") {
  CHECK(encode_waitcnt(0, 0, 0) == 0);
  CHECK(encode_waitcnt(-1, -1, 0) == 0xc07f);   // lgkmcnt(0), LLVM encodes 0xc07f
  CHECK(encode_waitcnt(0, -1, -1) == 0x0f70);   // vmcnt(0)
  CHECK(encode_waitcnt(63, 7, 15) == 0xcf7f);
  CHECK(encode_waitcnt(17, -1, -1) == (0x4000 | 0xf70 | 1));
  auto f = decode_waitcnt(encode_waitcnt(45, 3, 9));
  CHECK(f.vmcnt == 45);
  CHECK(f.expcnt == 3);
  CHECK(f.lgkmcnt == 9);
  CHECK_THROWS_AS(encode_waitcnt(64, 0, 0), Error);
  CHECK_THROWS_AS(encode_waitcnt(0, 8, 0), Error);
  CHECK_THROWS_AS(encode_waitcnt(0, 0, 16), Error);
}

TEST_CASE("opcode enum: one enumerator per row, both directions", "[isa][table][opcode]") {
  REQUIRE(table().size() == kOpcodeCount);
  std::vector<int> seen(kOpcodeCount, 0);
  for (const InstrInfo& e : table()) {
    INFO(e.mnemonic);
    REQUIRE(size_t(opcode_of(e)) < kOpcodeCount);
    ++seen[size_t(opcode_of(e))];
    CHECK(&info(opcode_of(e)) == &e);
    CHECK(opcode_of(*find(e.mnemonic)) == opcode_of(e));
  }
  for (int n : seen) CHECK(n == 1);
  // The enumerator names are the mnemonics (generated from the same file).
  CHECK(info(Opcode::v_fma_f32).mnemonic == "v_fma_f32");
  CHECK(info(Opcode::s_endpgm).mnemonic == "s_endpgm");
  CHECK(info(Opcode::ds_read_b32).mnemonic == "ds_read_b32");
  CHECK_THROWS_AS(info(Opcode::Count), Error);
}

TEST_CASE("class bits agree with the rows' families, flags and operands", "[isa][table][classes]") {
  int mfma = 0, branch = 0, cond = 0, vcmpx = 0;
  for (const InstrInfo& e : table()) {
    INFO(e.mnemonic);
    if (is(e, kClassMfma)) { ++mfma; CHECK((e.family == Family::MFMA || e.mnemonic == "v_mfma_ld_scale_b32")); }  // the scale load is VOP3P
    if (is(e, kClassSmfmac | kClassDgemm | kClassXdl)) CHECK(is(e, kClassMfma));
    CHECK_FALSE((is(e, kClassDgemm) && is(e, kClassXdl)));
    CHECK(is(e, kClassTrans) == e.is_trans);
    if (is(e, kClassCondBranch)) { ++cond; CHECK(is(e, kClassBranch)); }
    if (is(e, kClassBranch)) {
      ++branch;
      CHECK(e.family == Family::SOPP);
      REQUIRE(!e.operands.empty());
      CHECK(e.operands[0].kind == OpKind::Label);
    }
    if (is(e, kClassVcmpx)) {
      ++vcmpx;
      CHECK((e.family == Family::VOPC));
    }
    if (is(e, kClassLdsDma)) CHECK((e.family == Family::GLOBAL || e.family == Family::SCRATCH));
    if (is(e, kClassLaneShuffle)) CHECK(e.family == Family::DS);
  }
  CHECK(mfma > 40);
  CHECK(branch == cond + 1);  // s_branch is the one unconditional branch
  CHECK(vcmpx > 90);
  CHECK(is(info(Opcode::v_mfma_f64_16x16x4_f64), kClassDgemm));
  CHECK(is(info(Opcode::v_mfma_f32_16x16x16_bf16), kClassXdl));
  CHECK_FALSE(is(info(Opcode::v_mfma_f32_16x16x4_f32), kClassXdl));  // f32-input MFMA: not XDL on gfx94x
  CHECK(is(info(Opcode::v_dot2_f32_bf16), kClassDot));
  CHECK(is(info(Opcode::s_endpgm), kClassTerminator));
  CHECK(is(info(Opcode::s_cbranch_execz), kClassCondBranch));
  CHECK(is(info(Opcode::ds_swizzle_b32), kClassLaneShuffle));
  CHECK_FALSE(is(info(Opcode::ds_read_b32), kClassLaneShuffle));
}

// The float type a source's neg/abs modifiers act on is the source's own type, not the result's.
TEST_CASE("source float types of the neg/abs modifiers", "[isa][table][float-type]") {
  auto src = [](std::string_view m, size_t i) {
    const InstrInfo* e = find(m);
    REQUIRE(e);
    size_t k = 0;
    for (const auto& o : e->operands)
      if (!o.is_def && k++ == i) return o.fp;
    FAIL("no source " << i << " in " << m);
    return FloatType::None;
  };
  CHECK(src("v_cvt_f32_f16", 0) == FloatType::F16);
  CHECK(src("v_cvt_f16_f32", 0) == FloatType::F32);
  CHECK(src("v_cvt_f64_f32", 0) == FloatType::F32);
  CHECK(src("v_cvt_f32_f64", 0) == FloatType::F64);
  CHECK(src("v_cvt_f32_bf16", 0) == FloatType::BF16);
  CHECK(src("v_cvt_pkrtz_f16_f32", 1) == FloatType::F32);
  CHECK(src("v_pack_b32_f16", 1) == FloatType::F16);
  CHECK(src("v_cndmask_b32", 0) == FloatType::F32);
  CHECK(src("v_add_f64", 1) == FloatType::F64);
  CHECK(src("v_ldexp_f32", 0) == FloatType::F32);
  CHECK(src("v_ldexp_f32", 1) == FloatType::None);
  CHECK(src("v_cmp_class_f16", 0) == FloatType::F16);
  CHECK(src("v_cmp_class_f16", 1) == FloatType::None);
  CHECK(src("v_trig_preop_f64", 1) == FloatType::None);
  CHECK(src("v_cvt_scalef32_pk_fp8_f16", 1) == FloatType::F32);  // the scale
  CHECK(src("v_cvt_scalef32_pk_f32_fp8", 0) == FloatType::None);
  CHECK(src("v_cvt_sr_f16_f32", 1) == FloatType::None);  // random bits
  CHECK(src("v_add_u32", 0) == FloatType::None);         // no neg/abs
  CHECK(src("v_fma_mix_f32", 0) == FloatType::None);     // f16 or f32 by op_sel_hi
}

namespace {
// The spelling rules the table applied to mnemonics before the rows declared their class bits
// (instructions.def): kept here so that a new row whose declared bits break them is noticed.
bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends(std::string_view s, std::string_view p) { return s.size() >= p.size() && s.substr(s.size() - p.size()) == p; }
uint32_t classes_by_spelling(const InstrInfo& e) {
  const std::string_view m = e.mnemonic;
  uint32_t c = 0;
  if (starts(m, "v_mfma") || starts(m, "v_smfmac")) {
    c |= kClassMfma;
    if (starts(m, "v_smfmac")) c |= kClassSmfmac;
    if (starts(m, "v_mfma_f64")) c |= kClassDgemm;
    // gfx94x f32-input MFMAs run on the non-XDL path; every other non-f64 MFMA is XDL (LLVM: is_gfx940_xdl).
    const bool f32_input = starts(m, "v_mfma_f32_") && ends(m, "f32") && !ends(m, "xf32") &&
                           (m[m.size() - 4] == '_' || (m[m.size() - 4] >= '0' && m[m.size() - 4] <= '9'));
    if (!(c & kClassDgemm) && !f32_input) c |= kClassXdl;
  }
  if (starts(m, "v_dot")) c |= kClassDot;
  if (starts(m, "v_cmpx_")) c |= kClassVcmpx;
  if (e.is_trans) c |= kClassTrans;
  const bool has_label = std::any_of(e.operands.begin(), e.operands.end(), [](const OperandSpec& o) { return o.kind == OpKind::Label; });
  if (e.family == Family::SOPP && has_label && (m == "s_branch" || starts(m, "s_cbranch_"))) {
    c |= kClassBranch;
    if (m != "s_branch") c |= kClassCondBranch;
  }
  if (starts(m, "s_endpgm") || m == "s_setpc_b64") c |= kClassTerminator;
  if (m == "s_waitcnt") c |= kClassWaitcnt;
  if (m == "s_nop") c |= kClassNop;
  if (starts(m, "global_load_lds") || starts(m, "buffer_load_lds") || starts(m, "scratch_load_lds")) c |= kClassLdsDma;
  if (m == "ds_bpermute_b32" || m == "ds_permute_b32" || m == "ds_swizzle_b32" || m == "ds_nop") c |= kClassLaneShuffle;
  return c;
}
}  // namespace

TEST_CASE("declared class bits follow the mnemonic spelling rules they replaced", "[isa][table][classes]") {
  int rows = 0;
  for (const InstrInfo& e : table()) {
    INFO(e.mnemonic);
    CHECK(classes_of(e) == classes_by_spelling(e));
    ++rows;
  }
  CHECK(size_t(rows) == kOpcodeCount);
}

TEST_CASE("declared memory access widths of the plain loads and stores", "[isa][table][access]") {
  int declared = 0;
  for (const InstrInfo& e : table()) {
    INFO(e.mnemonic);
    if (!e.access_bytes) {
      CHECK_FALSE((e.sign_extends || e.d16 || e.d16_hi));
      continue;
    }
    ++declared;
    CHECK((e.family == Family::DS || e.family == Family::GLOBAL || e.family == Family::FLAT ||
           e.family == Family::SCRATCH || e.family == Family::MUBUF));
    CHECK((e.is_load || e.is_store));
    CHECK_FALSE(e.is_atomic);
    CHECK_FALSE((e.d16 && e.d16_hi));
    if (e.sign_extends || e.d16 || e.d16_hi) CHECK(e.access_bytes <= 2);
    // A register destination or data operand holds the access (a D16 form half a dword, LDS DMA none).
    for (const OperandSpec& o : e.operands)
      if (o.name == "vdst" || o.name == "vdata" || o.name == "data" || o.name == "data0")
        CHECK(o.dwords * 4 >= e.access_bytes);
  }
  CHECK(declared > 120);
  CHECK(info(Opcode::global_load_dwordx4).access_bytes == 16);
  CHECK(info(Opcode::ds_read2_b64).access_bytes == 8);  // per address
  CHECK(info(Opcode::global_load_lds_ushort).access_bytes == 2);
  CHECK(info(Opcode::buffer_load_sbyte_d16_hi).sign_extends);
  CHECK(info(Opcode::buffer_load_sbyte_d16_hi).d16_hi);
  CHECK(info(Opcode::ds_read_u16_d16).d16);
  CHECK(info(Opcode::flat_store_short).access_bytes == 2);
  CHECK(info(Opcode::global_atomic_add).access_bytes == 0);
  CHECK(info(Opcode::buffer_load_format_xy).access_bytes == 0);
}
