// The table's implicit registers (jit/isa/implicit_regs.hpp) against LLVM 22's own: for every row
// whose instruction LLVM names alike (the pseudo opcode of the plain encoding), the SCC, EXEC, M0 and
// MODE writes and the SCC / VCC reads (and, for the scalar rows, the M0 reads) the row declares equal the MCInstrDesc's implicit defs / uses.
// Every scalar (SOP*) row must be found, so none of their SCC writes can go undeclared.
#include <catch2/catch.hpp>

#include <cctype>
#include <map>
#include <memory>
#include <string>

#include "jit/isa/implicit_regs.hpp"
#include "jit/isa/opcode.hpp"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

using namespace cdnajit;
using namespace cdnajit::isa;

namespace {

struct LlvmImplicit {
  bool found = false;
  std::string name;
  bool def_scc = false, use_scc = false, def_exec = false, def_m0 = false, def_mode = false, def_vcc = false,
       use_vcc = false, use_m0 = false;
};

class LlvmTable {
 public:
  LlvmTable() {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    llvm::Triple triple("amdgcn-amd-amdhsa");
    std::string error;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
    REQUIRE(target);
    info_.reset(target->createMCInstrInfo());
    regs_.reset(target->createMCRegInfo(triple));
    REQUIRE(info_);
    REQUIRE(regs_);
    for (unsigned op = 0; op < info_->getNumOpcodes(); ++op) by_name_[std::string(info_->getName(op))] = op;
  }
  // The pseudo opcode of the row's plain encoding: MNEMONIC, MNEMONIC_e32 (VOP1/VOP2/VOPC),
  // MNEMONIC_e64 (VOP3-only rows), MNEMONIC_IMM (SMEM with an immediate offset).
  LlvmImplicit of(const InstrInfo& row) const {
    std::string up;
    for (char c : row.mnemonic) up += char(std::toupper(static_cast<unsigned char>(c)));
    LlvmImplicit r;
    for (const char* suffix : {"", "_e32", "_e64", "_IMM"}) {
      auto it = by_name_.find(up + suffix);
      if (it == by_name_.end()) continue;
      const llvm::MCInstrDesc& d = info_->get(it->second);
      r.found = true;
      r.name = it->first;
      for (llvm::MCPhysReg reg : d.implicit_defs()) {
        const std::string n = regs_->getName(reg);
        r.def_scc |= n == "SCC";
        r.def_exec |= n == "EXEC";
        r.def_m0 |= n == "M0";
        r.def_mode |= n == "MODE";
        r.def_vcc |= n == "VCC";
      }
      for (llvm::MCPhysReg reg : d.implicit_uses()) {
        const std::string n = regs_->getName(reg);
        r.use_scc |= n == "SCC";
        r.use_vcc |= n == "VCC";
        r.use_m0 |= n == "M0";
      }
      break;
    }
    return r;
  }

 private:
  std::unique_ptr<llvm::MCInstrInfo> info_;
  std::unique_ptr<llvm::MCRegisterInfo> regs_;
  std::map<std::string, unsigned> by_name_;
};

bool scalar_family(Family f) {
  return f == Family::SOP1 || f == Family::SOP2 || f == Family::SOPC || f == Family::SOPK || f == Family::SOPP;
}
// VOP1/VOP2/VOPC rows name VCC as an operand where their e32 form reads or writes it implicitly.
bool names_vcc_in_e32(Family f) { return f == Family::VOP1 || f == Family::VOP2 || f == Family::VOPC; }

bool names_sgpr_pair_def(const InstrInfo& row) {
  for (const OperandSpec& o : row.operands)
    if (o.is_def && o.kind == OpKind::SReg && o.dwords == 2) return true;
  return false;
}

}  // namespace

TEST_CASE("implicit SCC, EXEC, M0, MODE and VCC accesses of every row equal LLVM's implicit defs and uses",
          "[isa][llvm]") {
  const LlvmTable llvm;
  int compared = 0, scalar_rows = 0, writes_scc = 0;
  for (const InstrInfo& row : table()) {
    const LlvmImplicit l = llvm.of(row);
    INFO(row.mnemonic << " (LLVM " << (l.found ? l.name : std::string("not found")) << ")");
    if (scalar_family(row.family)) {
      ++scalar_rows;
      CHECK(l.found);
      if (l.found) CHECK(implicit_regs(row).reads_m0 == l.use_m0);
    }
    if (!l.found) continue;
    ++compared;
    const ImplicitRegs t = implicit_regs(row);
    writes_scc += t.writes_scc;
    CHECK(t.writes_scc == l.def_scc);
    CHECK(t.reads_scc == l.use_scc);
    CHECK(t.writes_exec == l.def_exec);
    CHECK(t.writes_m0 == l.def_m0);
    CHECK(t.writes_mode == l.def_mode);
    if (names_vcc_in_e32(row.family)) {
      if (l.def_vcc) CHECK(names_sgpr_pair_def(row));  // the sdst the e32 form writes as VCC
    } else {
      CHECK(t.reads_vcc == l.use_vcc);
      CHECK_FALSE(l.def_vcc);  // no row writes VCC without naming it
    }
  }
  // Every scalar row was compared; the SALU rows that set SCC are most of them.
  CHECK(scalar_rows > 150);
  CHECK(compared > 800);
  CHECK(writes_scc > 80);
}

TEST_CASE("implicit registers of a few rows, spelt out", "[isa]") {
  CHECK(implicit_regs(info(Opcode::s_add_u32)).writes_scc);
  CHECK_FALSE(implicit_regs(info(Opcode::s_mov_b32)).writes_scc);
  CHECK(implicit_regs(info(Opcode::s_cselect_b32)).reads_scc);
  CHECK(implicit_regs(info(Opcode::s_cbranch_scc1)).reads_scc);
  CHECK(implicit_regs(info(Opcode::s_and_saveexec_b64)).writes_exec);
  CHECK(implicit_regs(info(Opcode::v_cmpx_eq_u32)).writes_exec);
  CHECK(implicit_regs(info(Opcode::s_cbranch_vccz)).reads_vcc);
  CHECK(implicit_regs(info(Opcode::s_set_gpr_idx_on)).writes_m0);
  CHECK(implicit_regs(info(Opcode::s_setreg_b32)).writes_mode);
  CHECK(implicit_regs(info(Opcode::s_movrels_b32)).reads_m0);
  CHECK_FALSE(implicit_regs(info(Opcode::s_memtime)).writes_scc);
}
