#include "jit/passes/classify.hpp"

#include <cctype>
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

bool is_label(const isa::MachineInst& mi) { return !mi.label_def.empty(); }

bool is_valu(const isa::MachineInst& mi) {
  if (is_label(mi)) return false;
  if (mi.info)
    return has_family(mi, {Family::VOP1, Family::VOP2, Family::VOP3, Family::VOPC, Family::VOP3P, Family::MFMA});
  return starts(mi.mnemonic, "v_");
}

bool is_mfma(const isa::MachineInst& mi) {
  std::string_view m = base_mnemonic(mi);
  return starts(m, "v_mfma") || starts(m, "v_smfmac");
}

bool is_dgemm(const isa::MachineInst& mi) { return starts(base_mnemonic(mi), "v_mfma_f64"); }

bool is_xdl(const isa::MachineInst& mi) {
  if (!is_mfma(mi) || is_dgemm(mi)) return false;
  // On gfx94x the f32-input MFMAs (v_mfma_f32_32x32x2f32, v_mfma_f32_16x16x4_f32, ...) run
  // on the non-XDL "SMFMA" path; every other non-f64 MFMA is XDL (LLVM: is_gfx940_xdl).
  std::string_view m = base_mnemonic(mi);
  if (starts(m, "v_mfma_f32_") && ends(m, "f32") && !ends(m, "xf32")) {
    char before = m[m.size() - 4];
    if (before == '_' || std::isdigit(static_cast<unsigned char>(before))) return false;
  }
  return true;
}

bool is_dot(const isa::MachineInst& mi) { return starts(base_mnemonic(mi), "v_dot"); }

bool is_trans(const isa::MachineInst& mi) {
  if (mi.info) return mi.info->is_trans;
  std::string_view m = base_mnemonic(mi);
  for (std::string_view p : {"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_"})
    if (starts(m, p)) return true;
  return false;
}

bool is_salu(const isa::MachineInst& mi) {
  if (is_label(mi)) return false;
  if (mi.info) return has_family(mi, {Family::SOP1, Family::SOP2, Family::SOPK, Family::SOPC});
  return false;
}

bool is_smem(const isa::MachineInst& mi) {
  if (mi.info) return mi.info->family == Family::SMEM;
  std::string_view m = mi.mnemonic;
  return starts(m, "s_load") || starts(m, "s_buffer_load") || starts(m, "s_store") || starts(m, "s_buffer_store");
}

bool is_ds(const isa::MachineInst& mi) {
  if (mi.info) return mi.info->family == Family::DS;
  return starts(mi.mnemonic, "ds_");
}

bool is_vmem(const isa::MachineInst& mi) {
  if (mi.info) return has_family(mi, {Family::FLAT, Family::GLOBAL, Family::MUBUF, Family::SCRATCH});
  std::string_view m = mi.mnemonic;
  return starts(m, "buffer_") || starts(m, "global_") || starts(m, "flat_") || starts(m, "scratch_");
}

bool is_flat(const isa::MachineInst& mi) { return is_vmem(mi) && starts(base_mnemonic(mi), "flat_"); }

bool is_lds_dma(const isa::MachineInst& mi) {
  if (!is_vmem(mi)) return false;
  std::string_view m = base_mnemonic(mi);
  return mi.mods.lds || starts(m, "global_load_lds") || starts(m, "buffer_load_lds");
}

bool ds_accesses_lds(const isa::MachineInst& mi) {
  if (!is_ds(mi)) return false;
  std::string_view m = base_mnemonic(mi);
  // Lane shuffles go through the LDS crossbar without touching LDS memory.
  return !(m == "ds_bpermute_b32" || m == "ds_permute_b32" || m == "ds_swizzle_b32" || m == "ds_nop");
}

bool is_vcmpx(const isa::MachineInst& mi) { return starts(base_mnemonic(mi), "v_cmpx_"); }

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

bool is_waitcnt(const isa::MachineInst& mi) { return !is_label(mi) && base_mnemonic(mi) == "s_waitcnt"; }
bool is_nop(const isa::MachineInst& mi) { return !is_label(mi) && base_mnemonic(mi) == "s_nop"; }

int mfma_passes(const isa::MachineInst& mi, Arch arch) {
  int p = mi.info ? isa::mfma_passes(*mi.info, arch) : 0;
  return p ? p : 16;
}

int wait_states_of(const isa::MachineInst& mi) {
  if (is_label(mi)) return 0;
  if (is_nop(mi)) {
    for (const auto& o : mi.operands)
      if (o.kind == isa::Operand::Kind::Imm) return static_cast<int>(o.imm & 0xf) + 1;
    return 1;
  }
  return 1;
}

BranchKind branch_kind(const isa::MachineInst& mi) {
  if (is_label(mi)) return BranchKind::None;
  std::string_view m = base_mnemonic(mi);
  if (m == "s_branch") return BranchKind::Uncond;
  if (starts(m, "s_cbranch_")) return BranchKind::Cond;
  if (starts(m, "s_endpgm") || m == "s_setpc_b64") return BranchKind::End;
  return BranchKind::None;
}

}  // namespace cdnajit::passes
