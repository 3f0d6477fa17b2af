// isa::same_instruction / first_same_instruction (jit/isa/same_instruction.hpp): the build
// checks, looks up and prints only the first of equal instructions and copies the answer
// to the others, so "equal" must mean "the same text without the comment": never more
// (a repeat printed as the wrong instruction), and for instructions that print alike, not
// less (a wasted lookup, harmless but checked here too).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <unordered_map>

#include "jit/isa/opcode.hpp"
#include "jit/isa/print_to.hpp"
#include "jit/isa/same_instruction.hpp"
#include "jit/isa/sample_inst.hpp"

using namespace cdnajit;
using namespace cdnajit::isa;

namespace {

std::string text_without_comment(const MachineInst& mi) {
  std::string s;
  print_instruction_to(s, mi);
  return s;
}

}  // namespace

TEST_CASE("same_instruction: equal except the comment and the builder index", "[isa][same]") {
  MachineInst a = sample_instruction(info(Opcode::v_add_f32), false);
  MachineInst b = a;
  b.comment = "another comment";
  b.source = 7;
  CHECK(same_instruction(a, b));
  MachineInst c = a;
  c.operands[1].index += 2;  // another register
  CHECK_FALSE(same_instruction(a, c));
  MachineInst d = a;
  d.mnemonic += "_e32";  // the same row spelled with its suffix prints differently
  CHECK_FALSE(same_instruction(a, d));
  MachineInst e = sample_instruction(info(Opcode::ds_read_b128), false);
  MachineInst f = e;
  f.mods.offset += 16;
  CHECK_FALSE(same_instruction(e, f));
  MachineInst g = a;
  g.operands[2].neg = true;
  CHECK_FALSE(same_instruction(a, g));

  std::vector<MachineInst> prog = {a, e, b, c, f, e, d, g, b};
  std::vector<uint32_t> first;
  first_same_instruction(prog, first);
  CHECK(first == std::vector<uint32_t>{0, 1, 0, 3, 4, 1, 6, 7, 0});
}

TEST_CASE("first_same_instruction agrees with the printed text on every table row", "[isa][same]") {
  // Every row's sample with and without modifiers, each repeated with another comment, some
  // with a register moved or the offset changed; shuffled, so repeats come before and after.
  std::vector<MachineInst> prog;
  for (size_t o = 0; o < kOpcodeCount; ++o)
    for (bool mods : {false, true}) {
      MachineInst mi = sample_instruction(info(Opcode(o)), mods);
      prog.push_back(mi);
      mi.comment = "repeat";
      prog.push_back(mi);
      for (Operand& op : mi.operands)
        if (op.kind == Operand::Kind::Reg) {
          op.index = uint16_t(op.index + 4);
          break;
        }
      prog.push_back(mi);
      mi.mods.offset += 4;
      prog.push_back(mi);
    }
  std::mt19937 rng(31);
  std::shuffle(prog.begin(), prog.end(), rng);
  std::vector<uint32_t> first;
  first_same_instruction(prog, first);
  std::unordered_map<std::string, uint32_t> first_of_text;
  size_t repeats = 0;
  for (uint32_t i = 0; i < prog.size(); ++i) {
    const std::string t = text_without_comment(prog[i]);
    auto [it, fresh] = first_of_text.try_emplace(t, i);
    INFO(t);
    CHECK(first[i] == it->second);
    repeats += !fresh;
  }
  CHECK(repeats > prog.size() / 4);
}
