// jit/isa/cross_lane: the DPP control and ds_swizzle spellings against LLVM 22's assembler and
// disassembler, and which rows take a DPP control against what llvm-mc accepts, on both archs.
#include <catch2/catch.hpp>

#include <string>

#include "jit/asm/assemble.hpp"
#include "jit/isa/cross_lane.hpp"
#include "tests/isa/llvm_helpers.hpp"
#include "jit/isa/sample_inst.hpp"

using namespace cdnajit;
using namespace cdnajit::isa;

namespace {

// LLVM's own text for one assembled instruction line (the .text bytes disassembled).
std::string llvm_text(const std::string& line, Arch arch, std::string& error) {
  AsmResult r = assemble("  " + line + "\n", arch);
  if (!r.ok) {
    error = format_diagnostics(r.diagnostics);
    return "";
  }
  auto text = test::elf_section(r.object, ".text");
  auto lines = test::disassemble(text, arch);
  REQUIRE(lines.size() == 1);
  std::string t = lines[0].text;
  while (!t.empty() && (t.front() == '\t' || t.front() == ' ')) t.erase(t.begin());
  return t;
}

}  // namespace

TEST_CASE("every DPP control prints as LLVM 22 prints it and assembles on both archs", "[isa][cross_lane]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    int defined = 0;
    for (uint16_t c = 0; c < 0x200; ++c) {
      auto t = dpp_ctrl_text(c);
      CHECK(t.has_value() == dpp_ctrl_on(c, arch));
      if (!t) continue;
      ++defined;
      const std::string mods = dpp_modifier_text(c, 0xa, 0x5, c % 2 == 0);
      std::string err;
      const std::string got = llvm_text("v_add_f32 v0, v1, v2 " + mods, arch, err);
      INFO(arch_name(arch) << " ctrl " << c << ": " << mods << " " << err);
      CHECK(got == "v_add_f32_dpp v0, v1, v2 " + mods);
    }
    // 256 quad_perm + 3 x 15 row shifts + 4 wave shifts + 2 mirrors + 2 row_bcast + 16 row_newbcast
    CHECK(defined == 256 + 45 + 4 + 2 + 2 + 16);
  }
}

TEST_CASE("accepts_dpp says which rows have a DPP form, as llvm-mc decides, on both archs", "[isa][cross_lane]") {
  int accepted = 0, rows = 0;
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    for (const InstrInfo& info : table()) {
      if (!info.on(arch) || info.operands.empty()) continue;
      if (info.family != Family::VOP1 && info.family != Family::VOP2 && info.family != Family::VOPC && info.family != Family::VOP3)
        continue;
      MachineInst mi = test::sample_instruction(info, false);
      // Every vector source a VGPR, every lane mask vcc: the 32-bit encoding's operands.
      int next = 100;
      for (size_t i = 0; i < mi.operands.size() && i < info.operands.size(); ++i) {
        const OperandSpec& s = info.operands[i];
        if (!s.is_def && (s.kind == OpKind::VSrc || s.kind == OpKind::VSrcNoLit || s.kind == OpKind::VReg)) {
          mi.operands[i] = Operand::reg(RegFile::VGPR, uint16_t(next), s.dwords);
          next += 4;
        }
        if (s.kind == OpKind::SReg && s.dwords == 2) mi.operands[i] = Operand::spec(SpecialReg::VCC);
      }
      const uint16_t ctrl = is_dp_alu_dpp(info) ? uint16_t(dpp::kRowNewBcast + 1) : uint16_t(0xb1);
      mi.mods.extra = dpp_modifier_text(ctrl, 0xf, 0xf, false);
      std::string why, err;
      const bool ours = accepts_dpp(info, why);
      llvm_text(print(mi), arch, err);
      const bool llvm = err.empty();
      INFO(arch_name(arch) << ": " << print(mi) << "\n ours: " << (ours ? "yes" : why) << "\n llvm: " << err);
      CHECK(ours == llvm);
      ++rows;
      accepted += ours;
      if (ours && ctrl == 0xb1) {
        CHECK(dpp_ctrl_allowed(info, arch, 0xb1, why));
      } else if (ours) {  // DP ALU DPP: quad_perm is refused by both
        CHECK_FALSE(dpp_ctrl_allowed(info, arch, 0xb1, why));
        mi.mods.extra = dpp_modifier_text(0xb1, 0xf, 0xf, false);
        llvm_text(print(mi), arch, err);
        CHECK_FALSE(err.empty());
      }
    }
  }
  CHECK(rows > 400);
  CHECK(accepted > 250);
}

TEST_CASE("ds_swizzle offsets print as LLVM 22 prints them where that text assembles back to the same bits",
          "[isa][cross_lane]") {
  auto code = [](const std::string& line, Arch arch) {
    AsmResult r = assemble("  " + line + "\n", arch);
    INFO(format_diagnostics(r.diagnostics));
    REQUIRE(r.ok);
    return test::elf_section(r.object, ".text");
  };
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    int symbolic = 0, tried = 0;
    // Every offset below 0x400 (all and/or masks), then a stride over the rest below the ROTATE/FFT codes.
    for (uint32_t v = 1; v < 0xc000; v += (v < 0x400 ? 1 : 37)) {
      ++tried;
      const std::string numeric = "ds_swizzle_b32 v0, v1 offset:" + std::to_string(v);
      MachineInst mi;
      std::string perr, err;
      REQUIRE(parse(numeric, mi, perr));
      const std::string ours = print(mi);
      const std::string llvm = llvm_text(numeric, arch, err);
      INFO(arch_name(arch) << " offset " << v << ": ours '" << ours << "', llvm '" << llvm << "'");
      if (swizzle_offset_text(uint16_t(v))) {
        ++symbolic;
        CHECK(ours == llvm);
      } else {
        CHECK(ours == numeric);
      }
      CHECK(code(ours, arch) == code(numeric, arch));  // what we print encodes the same 16 bits
    }
    CHECK(symbolic > 250);  // 272: the bitmask offsets whose LLVM text keeps every bit, and the quad ones
  }
}
