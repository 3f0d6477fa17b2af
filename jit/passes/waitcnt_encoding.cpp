#include "jit/passes/waitcnt_encoding.hpp"

#include <cctype>
#include <cstdlib>
#include <string_view>

#include "jit/isa/waitcnt.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/passes/classify.hpp"

namespace cdnajit::passes {
namespace {

// Value of `name(N)` in `text`, or -1.
int field_in_text(std::string_view text, std::string_view name) {
  size_t p = text.find(name);
  while (p != std::string_view::npos) {
    bool word_start = p == 0 || !(std::isalnum(static_cast<unsigned char>(text[p - 1])) || text[p - 1] == '_');
    size_t open = p + name.size();
    if (word_start && open < text.size() && text[open] == '(')
      return std::atoi(std::string(text.substr(open + 1)).c_str());
    p = text.find(name, p + 1);
  }
  return -1;
}

}  // namespace

uint16_t encode_waitcnt(const WaitFields& w) { return isa::encode_waitcnt(w.vm, w.exp, w.lgkm); }

WaitFields decode_waitcnt(uint16_t imm) {
  isa::WaitcntFields f = isa::decode_waitcnt(imm);
  WaitFields w;
  if (f.vmcnt != kVmcntMax) w.vm = f.vmcnt;
  if (f.expcnt != kExpcntMax) w.exp = f.expcnt;
  if (f.lgkmcnt != kLgkmcntMax) w.lgkm = f.lgkmcnt;
  return w;
}

std::string waitcnt_text(const WaitFields& w) { return isa::waitcnt_text(w.vm, w.exp, w.lgkm); }

std::optional<WaitFields> read_waitcnt(const isa::MachineInst& mi) {
  if (!is_waitcnt(mi)) return std::nullopt;
  for (const auto& o : mi.operands)
    if (o.kind == isa::Operand::Kind::Imm) return decode_waitcnt(static_cast<uint16_t>(o.imm));
  // Symbolic form kept as text by the parser (modifier text or the raw line).
  std::string text = mi.mods.extra + " " + mi.raw;
  WaitFields w;
  w.vm = field_in_text(text, "vmcnt");
  w.exp = field_in_text(text, "expcnt");
  w.lgkm = field_in_text(text, "lgkmcnt");
  if (!w.any()) return WaitFields{0, 0, 0};  // bare `s_waitcnt 0`-like form: waits for everything
  return w;
}

isa::MachineInst make_waitcnt(const WaitFields& w, std::string comment) {
  isa::MachineInst mi;
  mi.info = &isa::info(isa::Opcode::s_waitcnt);
  mi.mnemonic = std::string(mi.info->mnemonic);
  mi.operands.push_back(isa::Operand::immediate(encode_waitcnt(w)));
  mi.comment = std::move(comment);
  return mi;
}

}  // namespace cdnajit::passes
