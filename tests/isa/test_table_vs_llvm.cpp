// Every table entry, printed with isa::print from a sample built from its
// operand specs, must assemble with LLVM MC (in-process) on every arch the table
// says has it, and must be rejected on the others. A second sample sets every
// modifier the entry claims. One batch per arch; diagnostics map back by line.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "jit/asm/assemble.hpp"
#include "jit/isa/machine_inst.hpp"
#include "tests/isa/inst_compare.hpp"
#include "tests/isa/llvm_helpers.hpp"
#include "jit/isa/sample_inst.hpp"

using namespace cdnajit;
using namespace cdnajit::isa;

namespace {

struct Batch {
  std::string text;
  std::vector<std::string> what;  // per line (1-based line i -> what[i-1])
  void add(const std::string& line, const std::string& description) {
    text += line + "\n";
    what.push_back(description);
  }
};

// line -> first error message
std::map<int, std::string> errors_by_line(const AsmResult& r) {
  std::map<int, std::string> m;
  for (const auto& d : r.diagnostics)
    if (d.is_error && d.line > 0) m.emplace(d.line, d.message);
  return m;
}

}  // namespace

TEST_CASE("table entries assemble exactly on the archs they claim", "[isa][llvm]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO("arch " << arch_name(arch));
    Batch on, off;
    int entries_on = 0, entries_off = 0;
    for (const InstrInfo& e : table()) {
      std::string plain = print(test::sample_instruction(e, false));
      if (e.on(arch)) {
        ++entries_on;
        on.add(plain, std::string(e.mnemonic) + " (plain): " + plain);
        if (e.mods != kModNone) {
          std::string with_mods = print(test::sample_instruction(e, true));
          on.add(with_mods, std::string(e.mnemonic) + " (all modifiers): " + with_mods);
        }
      } else {
        ++entries_off;
        off.add(plain, std::string(e.mnemonic) + ": " + plain);
      }
    }
    on.add(std::string(test::kSampleLabel) + ":", "label");
    off.add(std::string(test::kSampleLabel) + ":", "label");

    AsmResult r = assemble(on.text, arch);
    auto errs = errors_by_line(r);
    for (const auto& [line, msg] : errs) {
      REQUIRE(line >= 1);
      REQUIRE(size_t(line) <= on.what.size());
      FAIL_CHECK("LLVM rejects " << on.what[size_t(line - 1)] << ": " << msg);
    }
    CHECK(errs.empty());
    CHECK(r.ok);
    CHECK(entries_on > 400);

    if (entries_off > 0) {
      AsmResult r2 = assemble(off.text, arch);
      auto errs2 = errors_by_line(r2);
      for (size_t i = 0; i + 1 < off.what.size(); ++i)  // every line but the label
        if (!errs2.count(int(i + 1))) FAIL_CHECK("LLVM accepts " << off.what[i] << " although the table says it is not on this arch");
      CHECK_FALSE(r2.ok);
    }
  }
}

TEST_CASE("printed samples parse back to the same instruction", "[isa][llvm]") {
  for (const InstrInfo& e : table()) {
    for (bool mods : {false, true}) {
      MachineInst mi = test::sample_instruction(e, mods);
      std::string text = print(mi);
      MachineInst back;
      std::string err;
      INFO(text);
      bool ok = parse(text, back, err);
      INFO(err);
      REQUIRE(ok);
      std::string diff = test::difference(mi, back);
      INFO(diff);
      REQUIRE(diff.empty());
      REQUIRE(print(back) == text);
    }
  }
}

// The family column says which encoding the plain form uses: LLVM must pick a
// 32-bit encoding for SOP*/VOP1/VOP2/VOPC samples and a 64-bit one for the rest
// (plus 4 bytes when the sample carries a literal).
TEST_CASE("table families match the encoding size LLVM chooses", "[isa][llvm]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    std::string text;
    std::vector<const InstrInfo*> entries;
    for (const InstrInfo& e : table()) {
      if (!e.on(arch)) continue;
      text += print(test::sample_instruction(e, false)) + "\n";
      entries.push_back(&e);
    }
    text += std::string(test::kSampleLabel) + ":\n";
    AsmResult r = assemble(text, arch);
    REQUIRE(r.ok);
    std::vector<uint8_t> code = test::elf_section(r.object, ".text");
    std::vector<test::DisasmLine> lines = test::disassemble(code, arch);
    REQUIRE(lines.size() == entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
      const InstrInfo& e = *entries[i];
      bool short_form = e.family == Family::SOP1 || e.family == Family::SOP2 || e.family == Family::SOPK ||
                        e.family == Family::SOPC || e.family == Family::SOPP || e.family == Family::VOP1 ||
                        e.family == Family::VOP2 || e.family == Family::VOPC;
      size_t literal = 0;
      for (const auto& op : e.operands) literal += op.kind == OpKind::Imm ? 4 : 0;
      size_t want = (short_form ? 4 : 8) + literal;
      if (e.mnemonic.substr(0, 12) == "v_mfma_scale") want = 16;  // VOP3PX: scale prefix + MFMA, 2 x 8 bytes
      INFO(arch_name(arch) << ": " << e.mnemonic << " (" << family_name(e.family) << ") assembled as [" << lines[i].text
                           << "]");
      CHECK(lines[i].bytes.size() == want);
    }
  }
}
