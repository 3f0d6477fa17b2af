#include "jit/passes/classify.hpp"

#include <string>

namespace cdnajit::passes {
namespace {

using isa::Family;

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

bool has_family(const isa::MachineInst& mi, std::initializer_list<Family> fs) {
  if (!mi.info) return false;
  for (Family f : fs)
    if (mi.info->family == f) return true;
  return false;
}

}  // namespace

std::string_view base_mnemonic(const isa::MachineInst& mi) {
  if (mi.info) return mi.info->mnemonic;
  std::string_view m = mi.mnemonic;
  for (std::string_view suf : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (ends(m, suf)) return m.substr(0, m.size() - suf.size());
  return m;
}

bool is_one_of(const isa::MachineInst& mi, std::initializer_list<isa::Opcode> ops) {
  if (!mi.info) return false;
  for (isa::Opcode op : ops)
    if (isa::opcode_of(*mi.info) == op) return true;
  return false;
}

bool is_label(const isa::MachineInst& mi) { return !mi.label_def.empty(); }

bool is_comment_line(const isa::MachineInst& mi) {
  return !mi.info && mi.raw.empty() && mi.label_def.empty() && mi.mnemonic.empty();
}

bool is_valu(const isa::MachineInst& mi) {
  if (is_label(mi)) return false;
  if (mi.info)
    return has_family(mi, {Family::VOP1, Family::VOP2, Family::VOP3, Family::VOPC, Family::VOP3P, Family::MFMA});
  return starts(mi.mnemonic, "v_");
}

// Class tests read the row's class bits (isa::ClassBits, derived in jit/isa/table.cpp); an
// instruction the table does not know is in no class.
static bool has_class(const isa::MachineInst& mi, uint32_t bits) { return mi.info && isa::is(*mi.info, bits); }

bool is_mfma(const isa::MachineInst& mi) { return has_class(mi, isa::kClassMfma); }
bool is_dgemm(const isa::MachineInst& mi) { return has_class(mi, isa::kClassDgemm); }
bool is_xdl(const isa::MachineInst& mi) { return has_class(mi, isa::kClassXdl); }
bool is_dot(const isa::MachineInst& mi) { return has_class(mi, isa::kClassDot); }
bool is_trans(const isa::MachineInst& mi) { return has_class(mi, isa::kClassTrans); }

bool is_salu(const isa::MachineInst& mi) {
  if (is_label(mi)) return false;
  if (mi.info) return has_family(mi, {Family::SOP1, Family::SOP2, Family::SOPK, Family::SOPC});
  return false;
}

bool is_smem(const isa::MachineInst& mi) { return mi.info && mi.info->family == Family::SMEM; }
bool is_ds(const isa::MachineInst& mi) { return mi.info && mi.info->family == Family::DS; }
bool is_vmem(const isa::MachineInst& mi) {
  return has_family(mi, {Family::FLAT, Family::GLOBAL, Family::MUBUF, Family::SCRATCH});
}
bool is_flat(const isa::MachineInst& mi) { return mi.info && mi.info->family == Family::FLAT; }

bool is_lds_dma(const isa::MachineInst& mi) { return is_vmem(mi) && (mi.mods.lds || has_class(mi, isa::kClassLdsDma)); }

// Lane shuffles go through the LDS crossbar without touching LDS memory.
bool ds_accesses_lds(const isa::MachineInst& mi) { return is_ds(mi) && !has_class(mi, isa::kClassLaneShuffle); }

bool is_vcmpx(const isa::MachineInst& mi) { return has_class(mi, isa::kClassVcmpx); }

bool is_dpp(const isa::MachineInst& mi) {
  if (!is_valu(mi)) return false;
  if (ends(mi.mnemonic, "_dpp")) return true;
  const std::string& e = mi.mods.extra;
  return e.find("quad_perm") != std::string::npos || e.find("row_") != std::string::npos ||
         e.find("wave_") != std::string::npos;
}

bool is_sdwa(const isa::MachineInst& mi) {
  if (!is_valu(mi)) return false;
  if (ends(mi.mnemonic, "_sdwa")) return true;
  return mi.mods.extra.find("_sel:") != std::string::npos;
}

bool is_waitcnt(const isa::MachineInst& mi) { return !is_label(mi) && has_class(mi, isa::kClassWaitcnt); }
bool is_nop(const isa::MachineInst& mi) { return !is_label(mi) && has_class(mi, isa::kClassNop); }

int mfma_passes(const isa::MachineInst& mi, Arch arch) {
  int p = mi.info ? isa::mfma_passes(*mi.info, arch) : 0;
  return p ? p : 16;
}

int wait_states_of(const isa::MachineInst& mi) {
  // A label or a comment line (Kernel::comment) emits no instruction, so it gives no wait state
  // (LLVM's GCNHazardRecognizer counts only real instructions).
  if (is_label(mi) || is_comment_line(mi)) return 0;
  if (is_nop(mi)) {
    for (const auto& o : mi.operands)
      if (o.kind == isa::Operand::Kind::Imm) return static_cast<int>(o.imm & 0xf) + 1;
    return 1;
  }
  return 1;
}

BranchKind branch_kind(const isa::MachineInst& mi) {
  if (is_label(mi) || !mi.info) return BranchKind::None;
  const uint32_t classes = isa::classes_of(*mi.info);  // one table lookup for the three tests
  if (classes & isa::kClassCondBranch) return BranchKind::Cond;
  if (classes & isa::kClassBranch) return BranchKind::Uncond;
  if (classes & isa::kClassTerminator) return BranchKind::End;
  return BranchKind::None;
}

}  // namespace cdnajit::passes
