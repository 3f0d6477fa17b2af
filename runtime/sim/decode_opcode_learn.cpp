// Learning each table row's opcode numbers from LLVM MC (decode_opcode_learn.hpp).
#include "runtime/sim/decode_opcode_learn.hpp"

#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "jit/asm/assemble.hpp"
#include "jit/isa/error.hpp"
#include "jit/isa/machine_inst.hpp"
#include "jit/isa/sample_inst.hpp"

namespace cdnajit::sim {
namespace {

// The bytes of section `name` of a relocatable ELF64 object (empty if absent or malformed).
std::vector<uint8_t> elf_section(const std::vector<uint8_t>& elf, std::string_view name) {
  auto get = [&](uint64_t at, auto v) {
    if (at + sizeof v > elf.size()) throw Error("simulator: the assembled opcode samples are not a valid ELF object");
    std::memcpy(&v, elf.data() + at, sizeof v);
    return v;
  };
  if (elf.size() < 64 || std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0) return {};
  const uint64_t shoff = get(0x28, uint64_t{});
  const uint16_t shentsize = get(0x3a, uint16_t{}), shnum = get(0x3c, uint16_t{}), shstrndx = get(0x3e, uint16_t{});
  auto sh = [&](size_t i) { return shoff + i * shentsize; };
  const uint64_t strtab = get(sh(shstrndx) + 0x18, uint64_t{});
  for (size_t i = 0; i < shnum; ++i) {
    const uint64_t name_at = strtab + get(sh(i), uint32_t{});
    if (name_at + name.size() + 1 > elf.size()) continue;
    if (std::memcmp(elf.data() + name_at, name.data(), name.size()) != 0 || elf[name_at + name.size()] != 0) continue;
    const uint64_t off = get(sh(i) + 0x18, uint64_t{}), size = get(sh(i) + 0x20, uint64_t{});
    if (off + size > elf.size()) return {};
    return {elf.begin() + long(off), elf.begin() + long(off + size)};
  }
  return {};
}

struct Sample {
  const isa::InstrInfo* row;
  bool promoted;
  std::string text;
  bool op_sel_probe = false;  // learns op_sel_dst_follows_sources instead of an opcode
};

// Every sample starts at a multiple of this (no GFX9 instruction is longer), so sample i's
// bytes are at i * kSlot whatever the sizes of the others.
constexpr size_t kSlot = 16;

}  // namespace

std::unique_ptr<OpcodeMap> learn_opcode_map(Arch arch) {
  const auto start = std::chrono::steady_clock::now();
  auto map = std::make_unique<OpcodeMap>();
  std::vector<Sample> samples;
  for (const isa::InstrInfo& row : isa::table()) {
    if (!row.on(arch)) continue;
    ++map->rows;
    isa::MachineInst mi = isa::sample_instruction(row, false);
    samples.push_back({&row, false, isa::print(mi)});
    const bool short_family = row.family == isa::Family::VOP1 || row.family == isa::Family::VOP2 || row.family == isa::Family::VOPC;
    if (short_family) {
      mi.mnemonic += "_e64";
      samples.push_back({&row, true, isa::print(mi)});
    }
    int sources = 0;
    for (const isa::OperandSpec& s : row.operands) sources += !s.is_def;
    if ((row.mods & isa::kModOpSel) && sources < 3 && (short_family || row.family == isa::Family::VOP3)) {
      mi.mods.op_sel = uint8_t(1u << sources);  // printed op_sel:[0,..,0,1], one entry more than the sources
      samples.push_back({&row, short_family, isa::print(mi), true});
    }
  }
  // LLVM refuses the _e64 form of the rows that have none (v_fmamk_f32 ...): those lines are
  // dropped and the rest assembled again.
  AsmResult r;
  for (int attempt = 0;; ++attempt) {
    std::string text;
    for (const Sample& s : samples) text += "\t" + s.text + "\n\t.p2align 4\n";
    text += std::string(isa::kSampleLabel) + ":\n";
    r = assemble(text, arch);
    if (r.ok) break;
    std::set<size_t> bad;
    for (const AsmDiagnostic& d : r.diagnostics)
      if (d.is_error && d.line >= 1 && size_t(d.line - 1) / 2 < samples.size()) bad.insert(size_t(d.line - 1) / 2);
    if (bad.empty() || attempt == 3)
      throw Error("simulator: LLVM cannot assemble the table's opcode samples for " + std::string(arch_name(arch)) + ":\n" +
                  format_diagnostics(r.diagnostics));
    std::vector<Sample> kept;
    for (size_t i = 0; i < samples.size(); ++i) {
      if (!bad.count(i)) kept.push_back(std::move(samples[i]));
      else ++map->forms_refused;
    }
    samples = std::move(kept);
  }
  const std::vector<uint8_t> code = elf_section(r.object, ".text");
  if (code.size() < samples.size() * kSlot - kSlot + 4)
    throw Error("simulator: the assembled opcode samples for " + std::string(arch_name(arch)) + " are shorter than expected");
  for (size_t i = 0; i < samples.size(); ++i) {
    uint32_t w;
    std::memcpy(&w, code.data() + i * kSlot, 4);
    const Format f = format_of(w);
    const uint32_t op = opcode_field(f, w);
    if (samples[i].op_sel_probe) {
      if (f == Format::VOP3 && field(w, 14, 14)) map->op_sel_dst_follows_sources.set(size_t(isa::opcode_of(*samples[i].row)));
      continue;
    }
    // A gfx950 scaled MFMA (VOP3PX) starts with the v_mfma_ld_scale_b32 word pair: its own opcode
    // is in the second pair.
    int sources = 0;
    for (const isa::OperandSpec& s : samples[i].row->operands) sources += !s.is_def;
    if (samples[i].row->family == isa::Family::MFMA && sources > 3) {
      uint32_t w2;
      std::memcpy(&w2, code.data() + i * kSlot + 8, 4);
      map->scaled_mfma[opcode_field(Format::VOP3P, w2)] = isa::opcode_of(*samples[i].row);
      ++map->forms_prefixed;
      continue;
    }
    const OpcodeEntry e{isa::opcode_of(*samples[i].row), samples[i].promoted};
    auto [it, inserted] = map->by_format[size_t(f)].emplace(op, e);
    if (!inserted && it->second.opcode != e.opcode)
      map->collisions += std::string(format_name(f)) + " opcode " + std::to_string(op) + ": " +
                         std::string(isa::info(it->second.opcode).mnemonic) + " and " +
                         std::string(samples[i].row->mnemonic) + "\n";
    if (samples[i].promoted) map->has_vop3_form.set(size_t(e.opcode));
    ++map->forms_learned;
  }
  map->build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return map;
}

}  // namespace cdnajit::sim
