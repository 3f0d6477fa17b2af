#include "jit/asm/mcinst_encoder.hpp"

#include <array>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "jit/asm/mc_arch.hpp"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Triple.h"

namespace cdnajit {

using isa::MachineInst;
using isa::Operand;
using isa::RegFile;

namespace {

constexpr const char* kProbeLabel = "cdnajit_probe_label";

// ---------------------------------------------------------------- shapes

// Immediate classes: a value is replaced by a probe of its own class, so the
// parser sees the same kind of number (inline constant or literal, same width).
enum ImmClass : uint8_t {
  kInline,      // -16..64: inline integer constant
  kLit15,       // 65..0x7fff
  kLit16,       // 0x8000..0xffff
  kLit31,       // 0x10000..0x7fffffff
  kLit32,       // 0x80000000..0xffffffff
  kNeg16,       // -0x8000..-17
  kExact,       // anything else, and every immediate of SOPP/SOPK: the value is part of the shape
};

ImmClass imm_class(int64_t v) {
  if (v >= -16 && v <= 64) return kInline;
  if (v > 64 && v <= 0x7fff) return kLit15;
  if (v > 0x7fff && v <= 0xffff) return kLit16;
  if (v > 0xffff && v <= 0x7fffffff) return kLit31;
  if (v > 0x7fffffff && v <= 0xffffffffLL) return kLit32;
  if (v < -16 && v >= -0x8000) return kNeg16;
  return kExact;
}

// Distinct per operand position and probe set; never an f32 inline-constant pattern.
int64_t imm_probe(ImmClass c, size_t operand, int set) {
  const int64_t f = int64_t(operand), s = set;
  switch (c) {
    case kInline: return 20 + f * 4 + s;
    case kLit15: return 0x1000 + f * 0x100 + s * 0x11;
    case kLit16: return 0x9000 + f * 0x100 + s * 0x11;
    case kLit31: return 0x1230000 + f * 0x10000 + s * 0x1111;
    case kLit32: return 0x91230000LL + f * 0x10000 + s * 0x1111;
    case kNeg16: return -(0x1000 + f * 0x100 + s * 0x11);
    case kExact: break;
  }
  return 0;
}

// offset: classes (DS 0..65535, FLAT/GLOBAL -4096..4095, MUBUF 0..4095, SMEM 20 bits).
enum OffsetClass : uint8_t { kOffZero, kOffSmall, kOffLarge, kOffNegative, kOffExact };
OffsetClass offset_class(int32_t v) {
  if (v == 0) return kOffZero;
  if (v > 0 && v <= 4095) return kOffSmall;
  if (v > 4095 && v <= 65535) return kOffLarge;
  if (v < 0 && v >= -4096) return kOffNegative;
  return kOffExact;
}
int32_t offset_probe(OffsetClass c, int set) {
  switch (c) {
    case kOffSmall: return 1000 + set * 111;
    case kOffLarge: return 40000 + set * 1111;
    case kOffNegative: return -1000 - set * 111;
    default: return 0;
  }
}
// offset0:/offset1: are 8 bits.
int32_t offset01_probe(int which, int set) { return 100 + which * 50 + set * 10; }

bool exact_immediates(const MachineInst& mi) {
  return mi.info->family == isa::Family::SOPP || mi.info->family == isa::Family::SOPK;
}

// Appends bytes to a key through a pointer into storage sized beforehand: the key is built
// for every instruction of every build, and string appends of one character each were most
// of its cost.
struct KeyWriter {
  char* p;
  void byte(int v) { *p++ = char(v); }
  template <class T>
  void put(T v) {
    std::memcpy(p, &v, sizeof(T));
    p += sizeof(T);
  }
  void text(std::string_view s) {
    std::memcpy(p, s.data(), s.size());
    p += s.size();
  }
};

// The shape of mi as a byte string; false if mi cannot be encoded directly at all.
bool shape_key(const MachineInst& mi, std::string& key) {
  key.clear();
  if (!mi.info || !mi.label_def.empty()) return false;
  const std::string_view mnemonic = mi.mnemonic.empty() ? mi.info->mnemonic : std::string_view(mi.mnemonic);
  const isa::Modifiers& m = mi.mods;
  // At most: the mnemonic and its NUL, 2 + 8 bytes per operand, the offset class and value,
  // offset0/1 with their values, the flag byte, eight modifier bytes, the extra text.
  key.resize(mnemonic.size() + 1 + 10 * mi.operands.size() + 5 + 10 + 1 + 8 + m.extra.size());
  KeyWriter w{key.data()};
  w.text(mnemonic);
  w.byte(0);
  const bool exact = exact_immediates(mi);
  for (const Operand& o : mi.operands) {
    w.byte('A' + int(o.kind));
    w.byte(o.neg | (o.abs << 1));
    switch (o.kind) {
      case Operand::Kind::Reg: w.byte(int(o.file)); w.byte(o.dwords); break;
      case Operand::Kind::Special: w.byte(int(o.special)); break;
      case Operand::Kind::Imm: {
        ImmClass c = exact ? kExact : imm_class(o.imm);
        w.byte(c);
        if (c == kExact) w.put(o.imm);
        break;
      }
      case Operand::Kind::FImm: w.put(o.imm); break;
      case Operand::Kind::Label:
        if (o.label.empty()) {  // decoder form: address only
          key.clear();
          return false;
        }
        break;
      case Operand::Kind::Off: break;
    }
  }
  OffsetClass oc = offset_class(m.offset);
  w.byte(oc);
  if (oc == kOffExact) w.put(m.offset);
  for (int32_t v : {m.offset0, m.offset1}) {
    bool probe = v > 0 && v <= 255;
    w.byte(probe ? 1 : 2);
    if (!probe) w.put(v);
  }
  w.byte(m.sc0 | m.sc1 << 1 | m.nt << 2 | m.lds << 3 | m.offen << 4 | m.idxen << 5 | m.clamp << 6 | m.op_sel_hi_set << 7);
  for (uint8_t b : {m.omod, m.op_sel, m.op_sel_hi, m.neg_lo, m.neg_hi, m.cbsz, m.abid, m.blgp}) w.byte(b);
  w.text(m.extra);
  key.resize(size_t(w.p - key.data()));
  return true;
}

// Where a probe value of mi went in the MCInst.
enum class SlotKind : uint8_t { Reg, Imm, Offset, Offset0, Offset1, Label };
struct Slot {
  uint8_t mc_index;
  SlotKind kind;
  uint8_t operand;  // MachineInst operand index (Reg, Imm, Label)
};

}  // namespace

struct McInstEncoder::Shape {
  bool ok = false;
  llvm::MCInst inst;         // label operands hold Imm 0 until filled
  std::vector<Slot> slots;
  std::string why_not;
};

namespace {
using Template = McInstEncoder::Shape;

// Register i of a probe set: operands of one file get consecutive 4-aligned
// bases, far apart between the two sets, so every probe register is distinct.
MachineInst probe_inst(const MachineInst& mi, int set) {
  MachineInst p = mi;
  p.comment.clear();
  int next[3] = {set ? 48 : 8, set ? 128 : 16, set ? 128 : 16};  // SGPR, VGPR, AGPR
  const bool exact = exact_immediates(mi);
  for (size_t i = 0; i < p.operands.size(); ++i) {
    Operand& o = p.operands[i];
    if (o.kind == Operand::Kind::Reg) {
      int& n = next[int(o.file)];
      o.index = uint16_t(n);
      n += (o.dwords + 3) / 4 * 4;
    } else if (o.kind == Operand::Kind::Imm && !exact && imm_class(o.imm) != kExact) {
      o.imm = imm_probe(imm_class(o.imm), i, set);
    } else if (o.kind == Operand::Kind::Label) {
      o.label = kProbeLabel;
    }
  }
  OffsetClass oc = offset_class(mi.mods.offset);
  if (oc != kOffZero && oc != kOffExact) p.mods.offset = offset_probe(oc, set);
  if (mi.mods.offset0 > 0 && mi.mods.offset0 <= 255) p.mods.offset0 = offset01_probe(0, set);
  if (mi.mods.offset1 > 0 && mi.mods.offset1 <= 255) p.mods.offset1 = offset01_probe(1, set);
  return p;
}

// An MCStreamer that keeps the instructions the parser matched and nothing else.
class CaptureStreamer : public llvm::MCStreamer {
 public:
  explicit CaptureStreamer(llvm::MCContext& c) : MCStreamer(c) {}
  std::vector<llvm::MCInst> insts;
  void emitInstruction(const llvm::MCInst& inst, const llvm::MCSubtargetInfo&) override { insts.push_back(inst); }
  bool emitSymbolAttribute(llvm::MCSymbol*, llvm::MCSymbolAttr) override { return true; }
  void emitCommonSymbol(llvm::MCSymbol*, uint64_t, llvm::Align) override {}
  void emitZerofill(llvm::MCSection*, llvm::MCSymbol*, uint64_t, llvm::Align, llvm::SMLoc) override {}
};

}  // namespace

struct McInstEncoder::Impl {
  Arch arch;
  const ArchMC& mc;
  std::unordered_map<std::string, Template> templates;
  std::unordered_map<std::string, unsigned> reg_by_name;       // built on first use
  std::array<std::vector<unsigned>, 3 * 33> reg_cache;         // [file * 33 + dwords][index], 0 = not looked up
  std::string key_buffer;

  Impl(Arch a) : arch(a), mc(arch_mc(a)) {}

  // LLVM's register number for file/index/width ("VGPR4_VGPR5"), 0 if it has none.
  unsigned reg(RegFile file, unsigned index, unsigned dwords) {
    if (dwords == 0 || dwords > 32 || index >= 256) return 0;
    auto& cache = reg_cache[size_t(file) * 33 + dwords];
    if (cache.empty()) cache.assign(256, ~0u);
    unsigned& r = cache[index];
    if (r != ~0u) return r;
    if (reg_by_name.empty())
      for (unsigned i = 1; i < mc.register_info->getNumRegs(); ++i) reg_by_name.emplace(mc.register_info->getName(i), i);
    const char* prefix = file == RegFile::SGPR ? "SGPR" : file == RegFile::VGPR ? "VGPR" : "AGPR";
    std::string name;
    for (unsigned d = 0; d < dwords; ++d) {
      if (d) name += '_';
      name += prefix;
      name += std::to_string(index + d);
    }
    auto it = reg_by_name.find(name);
    r = it == reg_by_name.end() ? 0 : it->second;
    return r;
  }

  // Fills the slots of `t` with mi's values; false if a register has no LLVM number.
  bool fill(const Template& t, const MachineInst& mi, llvm::MCContext* context, llvm::MCInst& out) {
    out = t.inst;
    for (const Slot& s : t.slots) {
      llvm::MCOperand& op = out.getOperand(s.mc_index);
      switch (s.kind) {
        case SlotKind::Reg: {
          const Operand& o = mi.operands[s.operand];
          unsigned r = reg(o.file, o.index, o.dwords);
          if (!r) return false;
          op = llvm::MCOperand::createReg(r);
          break;
        }
        case SlotKind::Imm: op = llvm::MCOperand::createImm(mi.operands[s.operand].imm); break;
        case SlotKind::Offset: op = llvm::MCOperand::createImm(mi.mods.offset); break;
        case SlotKind::Offset0: op = llvm::MCOperand::createImm(mi.mods.offset0); break;
        case SlotKind::Offset1: op = llvm::MCOperand::createImm(mi.mods.offset1); break;
        case SlotKind::Label:
          if (!context) break;  // left as the template's placeholder (same_as_parsed compares names)
          op = llvm::MCOperand::createExpr(
              llvm::MCSymbolRefExpr::create(context->getOrCreateSymbol(mi.operands[s.operand].label), *context));
          break;
      }
    }
    return true;
  }

  // Finds where each probe value of `p0` went in `inst` (parsed from p0's text).
  Template derive(const MachineInst& p0, const llvm::MCInst& inst) {
    Template t;
    t.inst = inst;
    t.inst.setLoc(llvm::SMLoc());
    std::vector<bool> covered(p0.operands.size(), false);
    bool offset_covered = false, off0_covered = false, off1_covered = false;
    const bool probe_offset = offset_class(p0.mods.offset) != kOffZero && offset_class(p0.mods.offset) != kOffExact;
    const bool probe_off0 = p0.mods.offset0 > 0 && p0.mods.offset0 <= 255;
    const bool probe_off1 = p0.mods.offset1 > 0 && p0.mods.offset1 <= 255;
    const bool exact = exact_immediates(p0);
    for (unsigned j = 0; j < inst.getNumOperands(); ++j) {
      const llvm::MCOperand& op = inst.getOperand(j);
      if (op.isReg()) {
        for (size_t i = 0; i < p0.operands.size(); ++i) {
          const Operand& o = p0.operands[i];
          if (o.kind == Operand::Kind::Reg && op.getReg() == reg(o.file, o.index, o.dwords) && op.getReg() != 0) {
            t.slots.push_back({uint8_t(j), SlotKind::Reg, uint8_t(i)});
            covered[i] = true;
          }
        }
      } else if (op.isImm()) {
        int64_t v = op.getImm();
        bool found = false;
        for (size_t i = 0; i < p0.operands.size() && !found; ++i) {
          const Operand& o = p0.operands[i];
          if (o.kind == Operand::Kind::Imm && !exact && imm_class(o.imm) != kExact && o.imm == v) {
            t.slots.push_back({uint8_t(j), SlotKind::Imm, uint8_t(i)});
            covered[i] = found = true;
          }
        }
        if (!found && probe_offset && v == p0.mods.offset) {
          t.slots.push_back({uint8_t(j), SlotKind::Offset, 0});
          offset_covered = true;
        } else if (!found && probe_off0 && v == p0.mods.offset0) {
          t.slots.push_back({uint8_t(j), SlotKind::Offset0, 0});
          off0_covered = true;
        } else if (!found && probe_off1 && v == p0.mods.offset1) {
          t.slots.push_back({uint8_t(j), SlotKind::Offset1, 0});
          off1_covered = true;
        }
      } else if (op.isExpr()) {
        const auto* ref = llvm::dyn_cast<llvm::MCSymbolRefExpr>(op.getExpr());
        size_t label_operand = p0.operands.size();
        for (size_t i = 0; i < p0.operands.size(); ++i)
          if (p0.operands[i].kind == Operand::Kind::Label) label_operand = i;
        if (!ref || ref->getSpecifier() != 0 || ref->getSymbol().getName() != kProbeLabel ||
            label_operand == p0.operands.size()) {
          t.why_not = "operand " + std::to_string(j) + " is an expression other than a label";
          return t;
        }
        t.slots.push_back({uint8_t(j), SlotKind::Label, uint8_t(label_operand)});
        covered[label_operand] = true;
        t.inst.getOperand(j) = llvm::MCOperand::createImm(0);
      } else {
        t.why_not = "operand " + std::to_string(j) + " is neither register, immediate nor label";
        return t;
      }
    }
    for (size_t i = 0; i < p0.operands.size(); ++i) {
      const Operand& o = p0.operands[i];
      bool needs = o.kind == Operand::Kind::Reg || o.kind == Operand::Kind::Label ||
                   (o.kind == Operand::Kind::Imm && !exact && imm_class(o.imm) != kExact);
      if (needs && !covered[i]) {
        t.why_not = "operand " + std::to_string(i) + " does not appear in LLVM's MCInst";
        return t;
      }
    }
    if ((probe_offset && !offset_covered) || (probe_off0 && !off0_covered) || (probe_off1 && !off1_covered)) {
      t.why_not = "an offset does not appear in LLVM's MCInst";
      return t;
    }
    t.ok = true;
    return t;
  }

  // Template filled with p1's values must equal what LLVM parsed from p1's text.
  bool same_as_parsed(const Template& t, const MachineInst& p1, const llvm::MCInst& parsed, std::string& why) {
    llvm::MCInst filled;
    if (!fill(t, p1, nullptr, filled)) {
      why = "a probe register has no LLVM register number";
      return false;
    }
    if (filled.getOpcode() != parsed.getOpcode() || filled.getNumOperands() != parsed.getNumOperands() ||
        filled.getFlags() != parsed.getFlags()) {
      why = "the second probe gave a different opcode or operand count";
      return false;
    }
    for (unsigned j = 0; j < parsed.getNumOperands(); ++j) {
      const llvm::MCOperand &a = filled.getOperand(j), &b = parsed.getOperand(j);
      bool label_slot = false;
      for (const Slot& s : t.slots) label_slot |= s.kind == SlotKind::Label && s.mc_index == j;
      if (label_slot) {
        const auto* ref = b.isExpr() ? llvm::dyn_cast<llvm::MCSymbolRefExpr>(b.getExpr()) : nullptr;
        if (!ref || ref->getSymbol().getName() != kProbeLabel) {
          why = "the second probe's label operand differs";
          return false;
        }
        continue;
      }
      bool equal = (a.isReg() && b.isReg() && a.getReg() == b.getReg()) ||
                   (a.isImm() && b.isImm() && a.getImm() == b.getImm());
      if (!equal) {
        why = "operand " + std::to_string(j) + " of the second probe does not follow the probe values";
        return false;
      }
    }
    return true;
  }

  void learn_batch(const std::vector<std::pair<std::string, const MachineInst*>>& shapes) {
    if (shapes.empty()) return;
    std::vector<std::string> lines;
    std::vector<MachineInst> probes;
    for (const auto& [key, mi] : shapes) {
      probes.push_back(probe_inst(*mi, 0));
      probes.push_back(probe_inst(*mi, 1));
      lines.push_back(isa::print(probes[probes.size() - 2]));
      lines.push_back(isa::print(probes.back()));
    }
    parse_and_derive(lines, probes, shapes);
  }

  void parse_and_derive(const std::vector<std::string>& lines, const std::vector<MachineInst>& probes,
                        const std::vector<std::pair<std::string, const MachineInst*>>& shapes);
};

// Separate so the MCContext outlives the derivation (label operands are MCExprs in it).
void McInstEncoder::Impl::parse_and_derive(const std::vector<std::string>& lines,
                                           const std::vector<MachineInst>& probes,
                                           const std::vector<std::pair<std::string, const MachineInst*>>& shapes) {
  std::vector<std::optional<llvm::MCInst>> insts(lines.size());
  std::vector<std::string> errors(lines.size());
  if (!mc.setup_error.empty()) {
    for (const auto& [key, mi] : shapes) templates[key].why_not = mc.setup_error;
    return;
  }
  std::string text;
  std::vector<size_t> line_start;
  for (const std::string& l : lines) {
    line_start.push_back(text.size());
    text += l;
    text += '\n';
  }
  llvm::SourceMgr source;
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(text, "<cdnajit-probe>");
  const char* base = buffer->getBufferStart();
  source.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  struct Ctx {
    const char* base;
    const std::vector<size_t>* line_start;
    std::vector<std::string>* errors;
    size_t line_of(const char* p) const {
      size_t off = size_t(p - base);
      size_t l = size_t(std::upper_bound(line_start->begin(), line_start->end(), off) - line_start->begin());
      return l == 0 ? line_start->size() : l - 1;
    }
  } ctx{base, &line_start, &errors};
  source.setDiagHandler(
      [](const llvm::SMDiagnostic& d, void* p) {
        auto* c = static_cast<Ctx*>(p);
        if (d.getKind() != llvm::SourceMgr::DK_Error) return;
        size_t l = d.getLoc().isValid() ? c->line_of(d.getLoc().getPointer()) : c->line_start->size();
        if (l < c->errors->size() && (*c->errors)[l].empty()) (*c->errors)[l] = d.getMessage().str();
      },
      &ctx);
  llvm::MCContext context(*mc.triple, mc.asm_info.get(), mc.register_info.get(), mc.subtarget.get(), &source,
                          mc.options.get());
  std::unique_ptr<llvm::MCObjectFileInfo> file_info(mc.target->createMCObjectFileInfo(context, /*PIC=*/true));
  context.setObjectFileInfo(file_info.get());
  CaptureStreamer streamer(context);
  mc.target->createNullTargetStreamer(streamer);  // owned by the streamer
  std::unique_ptr<llvm::MCAsmParser> parser(llvm::createMCAsmParser(source, context, streamer, *mc.asm_info));
  std::unique_ptr<llvm::MCTargetAsmParser> target_parser(
      mc.target->createMCAsmParser(*mc.subtarget, *parser, *mc.instr_info, *mc.options));
  if (!target_parser) {
    for (const auto& [key, mi] : shapes) templates[key].why_not = "LLVM could not create the AMDGPU assembly parser";
    return;
  }
  parser->setTargetParser(*target_parser);
  parser->Run(/*NoInitialTextSection=*/false, /*NoFinalize=*/true);
  for (const llvm::MCInst& inst : streamer.insts) {
    if (!inst.getLoc().isValid()) continue;
    size_t l = ctx.line_of(inst.getLoc().getPointer());
    if (l < lines.size() && errors[l].empty() && !insts[l]) insts[l] = inst;
  }

  for (size_t s = 0; s < shapes.size(); ++s) {
    Template& t = templates[shapes[s].first];
    const size_t a = 2 * s, b = 2 * s + 1;
    if (!insts[a] || !insts[b]) {
      const std::string& e = !errors[a].empty() ? errors[a] : errors[b];
      t.why_not = "LLVM rejected the probe '" + lines[insts[a] ? b : a] + "'" + (e.empty() ? "" : ": " + e);
      continue;
    }
    Template derived = derive(probes[a], *insts[a]);
    if (derived.ok && !same_as_parsed(derived, probes[b], *insts[b], derived.why_not)) derived.ok = false;
    t = std::move(derived);
  }
}

McInstEncoder::McInstEncoder(Arch arch) : impl_(std::make_unique<Impl>(arch)) {}
McInstEncoder::~McInstEncoder() = default;

McInstEncoder& McInstEncoder::for_arch(Arch arch) {
  thread_local std::array<std::unique_ptr<McInstEncoder>, 2> per_arch;
  auto& slot = per_arch[static_cast<size_t>(arch)];
  if (!slot) slot.reset(new McInstEncoder(arch));
  return *slot;
}

void McInstEncoder::learn(const std::vector<isa::MachineInst>& prog) {
  std::vector<std::pair<std::string, const MachineInst*>> missing;
  std::string key;
  for (const MachineInst& mi : prog) {
    if (!shape_key(mi, key) || impl_->templates.count(key)) continue;
    bool queued = false;
    for (const auto& m : missing) queued |= m.first == key;
    if (!queued) missing.emplace_back(key, &mi);
  }
  impl_->learn_batch(missing);
}

const McInstEncoder::Shape* McInstEncoder::shape_of(const isa::MachineInst& mi) {
  std::string& key = impl_->key_buffer;
  if (!shape_key(mi, key)) return nullptr;
  auto it = impl_->templates.find(key);
  return it == impl_->templates.end() || !it->second.ok ? nullptr : &it->second;
}

std::vector<const McInstEncoder::Shape*> McInstEncoder::shapes_of(const std::vector<isa::MachineInst>& prog,
                                                                   const std::vector<uint32_t>* first_same) {
  std::vector<const Shape*> out(prog.size(), nullptr);
  std::vector<std::pair<std::string, const MachineInst*>> missing;
  std::vector<std::pair<size_t, size_t>> waiting;  // (instruction, index in `missing`)
  std::vector<std::pair<size_t, size_t>> repeats;  // (instruction, the earlier equal one)
  std::string& key = impl_->key_buffer;
  for (size_t i = 0; i < prog.size(); ++i) {
    if (first_same && (*first_same)[i] != i) {
      repeats.emplace_back(i, (*first_same)[i]);
      continue;
    }
    if (!shape_key(prog[i], key)) continue;
    if (auto it = impl_->templates.find(key); it != impl_->templates.end()) {
      out[i] = it->second.ok ? &it->second : nullptr;
      continue;
    }
    size_t m = 0;
    while (m < missing.size() && missing[m].first != key) ++m;
    if (m == missing.size()) missing.emplace_back(key, &prog[i]);
    waiting.emplace_back(i, m);
  }
  impl_->learn_batch(missing);
  for (auto [i, m] : waiting) {
    auto it = impl_->templates.find(missing[m].first);
    out[i] = it != impl_->templates.end() && it->second.ok ? &it->second : nullptr;
  }
  for (auto [i, f] : repeats) out[i] = out[f];
  return out;
}

bool McInstEncoder::build(const Shape& shape, const isa::MachineInst& mi, llvm::MCContext& context,
                          llvm::MCInst& out) {
  return impl_->fill(shape, mi, &context, out);
}

McInstEncoder::ShapeReport McInstEncoder::describe(const isa::MachineInst& mi) {
  ShapeReport r;
  std::string key;
  if (!shape_key(mi, key)) {
    r.why_not = "not a table instruction with named operands (raw text, label or decoded branch)";
    return r;
  }
  if (!impl_->templates.count(key)) learn({mi});
  const Template& t = impl_->templates[key];
  r.direct = t.ok;
  r.why_not = t.why_not;
  if (t.ok || t.inst.getOpcode() != 0) r.opcode = impl_->mc.instr_info->getName(t.inst.getOpcode()).str();
  return r;
}

size_t McInstEncoder::shapes_known() const { return impl_->templates.size(); }

}  // namespace cdnajit
