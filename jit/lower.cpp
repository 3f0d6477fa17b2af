#include "jit/lower.hpp"
#include "jit/isa/opcode.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <unordered_map>

namespace cdnajit {

namespace {

using isa::Opcode;

bool is_op(const IrInst& in, Opcode op) { return in.info && isa::is(*in.info, op); }
bool is_branch(const IrInst& in) { return in.info && isa::is(*in.info, isa::kClassBranch); }
bool ends_block(const IrInst& in) { return is_branch(in) || is_op(in, Opcode::s_endpgm); }

// The register an operand names (plain, or under a neg/abs source modifier).
const Reg* reg_in(const Opnd& o) {
  if (auto* r = std::get_if<Reg>(&o.v)) return r;
  if (auto* n = std::get_if<Neg>(&o.v)) return &n->r;
  if (auto* a = std::get_if<Abs>(&o.v)) return &a->r;
  return nullptr;
}

regalloc::RegClass ra_class(RegClass c) {
  return c == RegClass::S ? regalloc::RegClass::S : c == RegClass::V ? regalloc::RegClass::V : regalloc::RegClass::A;
}

}  // namespace

void pin_abi_registers(Kernel::Impl& k) {
  // s[0:1] kernarg segment pointer (always enabled), then workgroup ids x (always), y, z if used.
  int next = 2;
  for (int d = 0; d < 3; ++d) {
    bool enabled = d == 0 || k.wg_id_vreg[d] >= 0;
    if (!enabled) continue;
    if (k.wg_id_vreg[d] >= 0) k.vregs.modify(size_t(k.wg_id_vreg[d]), [next](VRegDecl& v) { v.pinned = next; });
    ++next;
  }
}

regalloc::Function to_regalloc_function(const Kernel::Impl& k, std::vector<std::pair<uint32_t, uint32_t>>* exec_skips,
                                        bool messages) {
  regalloc::Function f;
  to_regalloc_function(k, exec_skips, messages, f);
  return f;
}

void to_regalloc_function(const Kernel::Impl& k, std::vector<std::pair<uint32_t, uint32_t>>* exec_skips, bool messages,
                          regalloc::Function& f) {
  f.vregs.resize(k.vregs.size());
  for (size_t v = 0; v < k.vregs.size(); ++v) {
    const VRegDecl& d = k.vregs[v];
    regalloc::VirtualReg& r = f.vregs[v];
    r.cls = ra_class(d.cls);
    r.dwords = d.dwords;
    r.align = d.align;
    r.pinned = d.pinned;
    r.live_in = d.live_in;
    if (messages) r.name = d.name, r.origin = where(d.origin);
    else r.name.clear(), r.origin.clear();
  }

  // Pass 1: block boundaries and the block each label starts.
  std::vector<int> label_block(k.label_names.size(), -1);
  std::vector<int> block_of(k.program.size());
  std::vector<char> ends(k.program.size());  // ends_block() of each entry, for pass 2 (two table lookups each)
  int cur = 0;
  bool cur_empty = true;
  for (size_t i = 0; i < k.program.size(); ++i) {
    const IrInst& in = k.program[i];
    if (in.is_label() && !cur_empty) {
      ++cur;
      cur_empty = true;
    }
    block_of[i] = cur;
    if (in.is_label()) label_block[in.label] = cur;
    else if (in.info || !in.raw_text.empty()) cur_empty = false;
    ends[i] = ends_block(in);
    if (ends[i]) {
      ++cur;
      cur_empty = true;
    }
  }
  // Blocks 0..cur; the last may be empty (program ends with a branch or s_endpgm).
  f.blocks.resize(size_t(cur + 1));
  for (regalloc::Block& b : f.blocks) b.succs.clear();
  // Instructions already written to each block; entries past it are old ones whose lists
  // are reused (emptied) before they are trimmed at the end.
  std::vector<size_t> filled(f.blocks.size(), 0);
  auto next_instr = [&](size_t block) -> regalloc::Instr& {
    std::vector<regalloc::Instr>& list = f.blocks[block].instrs;
    if (filled[block] == list.size()) list.emplace_back();
    regalloc::Instr& ri = list[filled[block]++];
    ri.uses.clear();
    ri.defs.clear();
    ri.partial_defs.clear();
    ri.origin.clear();
    return ri;
  };

  // Pass 2: instructions and edges. Call sites repeat (loops in the generators), so each
  // distinct one is formatted once.
  std::map<std::pair<const char*, uint_least32_t>, std::string> origin_text;
  for (size_t i = 0; i < k.program.size(); ++i) {
    const IrInst& in = k.program[i];
    regalloc::Block& b = f.blocks[size_t(block_of[i])];
    if (in.is_label() || (!in.info && in.raw_text.empty())) continue;
    regalloc::Instr& ri = next_instr(size_t(block_of[i]));
    if (messages) {
      auto [site, fresh] = origin_text.try_emplace({in.loc.file_name(), in.loc.line()});
      if (fresh) site->second = where(in.loc);
      ri.origin = site->second;
    }
    auto add = [&](const Reg& r, bool def) {
      bool whole = r.first == 0 && r.dwords == k.vregs[r.id].dwords;
      if (!def) ri.uses.push_back(r.id);
      else if (whole) ri.defs.push_back(r.id);
      else ri.partial_defs.push_back(r.id);
    };
    if (in.info) {
      ri.uses.reserve(in.ops.size());  // one allocation, not one per doubling
      for (size_t j = 0; j < in.ops.size(); ++j) {
        const Reg* r = reg_in(in.ops[j]);
        if (!r) continue;
        bool def = in.info->operands[j].is_def;
        add(*r, def);
        if (def && (in.info->operands[j].also_read || in.defs_also_read)) ri.uses.push_back(r->id);
      }
    } else {
      for (size_t j = 0; j < in.raw_regs.size(); ++j) {
        bool def = std::find(in.raw_defs.begin(), in.raw_defs.end(), int(j)) != in.raw_defs.end();
        add(in.raw_regs[j], def);
      }
    }
    if (ends[i]) {
      std::string_view m = in.info->mnemonic;
      if (!is_op(in, Opcode::s_endpgm)) {
        const Label& l = std::get<Label>(in.ops.at(0).v);
        if (label_block[l.id] < 0)
          throw Error(fmt::format("{}: {} targets label '{}' which is never bound", where(in.loc), m, k.label_names[l.id]));
        b.succs.push_back(uint32_t(label_block[l.id]));
        if (exec_skips && (is_op(in, Opcode::s_cbranch_execz) || is_op(in, Opcode::s_cbranch_execnz)))
          exec_skips->emplace_back(uint32_t(block_of[i]), uint32_t(label_block[l.id]));
      }
      if (isa::is(*in.info, isa::kClassCondBranch) && size_t(block_of[i] + 1) < f.blocks.size())
        b.succs.push_back(uint32_t(block_of[i] + 1));
    }
  }
  // Fall-through edges. Each block's last instruction (not a label or comment), found in one
  // pass: searching the program backwards from its end for every block cost blocks x entries.
  std::vector<long> last_of_block(f.blocks.size(), -1);
  for (size_t i = 0; i < k.program.size(); ++i) {
    const IrInst& in = k.program[i];
    if (!in.is_label() && (in.info || !in.raw_text.empty())) last_of_block[size_t(block_of[i])] = long(i);
  }
  for (size_t bi = 0; bi + 1 < f.blocks.size(); ++bi) {
    // A block falls through unless its last instruction is an unconditional branch or s_endpgm.
    bool falls = true;
    if (const long i = last_of_block[bi]; i >= 0) {
      const IrInst& in = k.program[size_t(i)];
      if (is_op(in, Opcode::s_branch) || is_op(in, Opcode::s_endpgm)) falls = false;
    }
    if (falls) {
      auto& s = f.blocks[bi].succs;
      if (std::find(s.begin(), s.end(), uint32_t(bi + 1)) == s.end()) s.push_back(uint32_t(bi + 1));
    }
  }
  for (size_t bi = 0; bi < f.blocks.size(); ++bi) f.blocks[bi].instrs.resize(filled[bi]);
}

namespace {

isa::RegFile file_of(RegClass c) {
  return c == RegClass::S ? isa::RegFile::SGPR : c == RegClass::V ? isa::RegFile::VGPR : isa::RegFile::AGPR;
}

isa::Operand phys(const Kernel::Impl& k, const regalloc::Allocation& a, const Reg& r) {
  int base = a.phys.at(r.id);
  if (base < 0) base = 0;  // never live: any register is fine (value is dead)
  return isa::Operand::reg(file_of(r.cls), uint16_t(base + r.first), uint8_t(r.dwords));
}

std::string label_text(const Kernel::Impl& k, uint32_t id) { return ".L" + k.label_names[id]; }

}  // namespace

void to_machine(const Kernel::Impl& k, const regalloc::Allocation& a, std::vector<isa::MachineInst>& out) {
  // Room for the waits and nops the passes insert (they grow the program in place): without
  // it the hazard pass moved the whole program to a new, larger block on every build, whose
  // fresh pages glibc's default heap policy has the next build fault in again.
  out.reserve(k.program.size() + k.program.size() / 8 + 16);
  out.resize(k.program.size());
  for (size_t index = 0; index < k.program.size(); ++index) {
    const IrInst& in = k.program[index];
    // Emptied in place: the strings and the operand list keep their memory.
    isa::MachineInst& mi = out[index];
    mi.info = nullptr;
    mi.mnemonic.clear();
    mi.operands.clear();
    mi.mods = in.mods;
    mi.comment.clear();
    mi.raw.clear();
    mi.label_def.clear();
    mi.address = 0;
    mi.size_bytes = 0;
    mi.source = -1;
    if (in.is_label()) {
      mi.mods = {};
      mi.label_def = label_text(k, in.label);
      continue;
    }
    if (!in.info && in.raw_text.empty()) {  // comment line
      mi.mods = {};
      mi.comment = in.comment;
      continue;
    }
    if (in.info) {
      mi.info = in.info;
      mi.mnemonic = in.info->mnemonic;
      mi.operands.reserve(in.ops.size());  // one allocation, not one per doubling
      for (const Opnd& o : in.ops) {
        isa::Operand po;
        if (const Reg* r = reg_in(o)) {
          po = phys(k, a, *r);
          po.neg = std::holds_alternative<Neg>(o.v);
          po.abs = std::holds_alternative<Abs>(o.v);
        } else if (auto* i = std::get_if<int64_t>(&o.v)) {
          po = isa::Operand::immediate(*i);
        } else if (auto* fl = std::get_if<float>(&o.v)) {
          po.kind = isa::Operand::Kind::FImm;
          po.imm = std::bit_cast<uint32_t>(*fl);
        } else if (auto* s = std::get_if<isa::SpecialReg>(&o.v)) {
          po = isa::Operand::spec(*s);
        } else if (auto* l = std::get_if<Label>(&o.v)) {
          po = isa::Operand::target(label_text(k, l->id));
        } else if (std::holds_alternative<Off>(o.v)) {
          po = isa::Operand::off();
        }
        mi.operands.push_back(std::move(po));
      }
    } else {
      // Raw escape: substitute {i} with the allocated register text.
      std::string text;
      const std::string& t = in.raw_text;
      for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '{') {
          size_t close = t.find('}', i);
          int idx = close == std::string::npos ? -1 : std::atoi(t.substr(i + 1, close - i - 1).c_str());
          if (idx < 0 || size_t(idx) >= in.raw_regs.size())
            throw Error(fmt::format("{}: raw(\"{}\"): placeholder at column {} does not name one of the {} registers",
                                    where(in.loc), t, i, in.raw_regs.size()));
          text += isa::print_operand(phys(k, a, in.raw_regs[size_t(idx)]));
          i = close;
        } else {
          text += t[i];
        }
      }
      std::string err;
      if (!isa::parse(text, mi, err)) mi = isa::MachineInst{};  // unknown to our parser: passes treat it as opaque
      mi.info = nullptr;
      mi.raw = text;
    }
    mi.source = int32_t(index);
  }
}

void add_comments(const Kernel::Impl& k, std::vector<isa::MachineInst>& prog) {
  // where() of each builder call site, formatted once per thread: a kernel's instructions come
  // from a few hundred call sites (loops emit from the same line). Keyed by the file name's
  // pointer and line; the name is kept and compared, so code unloaded and another file loaded
  // at the same address cannot reuse a stale entry.
  struct Where {
    std::string file, text;
  };
  thread_local std::unordered_map<const char*, std::unordered_map<uint32_t, Where>> where_of;
  for (isa::MachineInst& mi : prog) {
    if (mi.source < 0 || !mi.comment.empty()) continue;  // inserted by a pass, or done already
    const IrInst& in = k.program[size_t(mi.source)];
    // "<author comment>  <register names>  @file:line", written into the entry's own string
    // (its capacity survives from the thread's previous build).
    std::string& c = mi.comment;
    if (!in.comment.empty()) c.append(in.comment).append("  ");
    const size_t names_at = c.size();
    auto name = [&](const Reg& r) {
      if (c.size() > names_at) c += ' ';
      k.append_reg_label(c, r);
    };
    if (in.info) {
      for (const Opnd& o : in.ops)
        if (const Reg* r = reg_in(o)) name(*r);
    } else {
      for (const Reg& r : in.raw_regs) name(r);
    }
    if (c.size() > names_at) c += "  @";
    Where& w = where_of[in.loc.file_name()][in.loc.line()];
    if (w.text.empty() || w.file != in.loc.file_name()) w = {in.loc.file_name(), where(in.loc)};
    c += w.text;
  }
}

}  // namespace cdnajit
