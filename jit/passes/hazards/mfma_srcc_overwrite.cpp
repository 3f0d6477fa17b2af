// MFMA SrcC overwritten (WAR) before the MFMA has read all of it. P = passes of the MFMA.
// | arch            | first instruction              | second instruction                    | wait states          |
// |-----------------|--------------------------------|---------------------------------------|----------------------|
// | gfx942, gfx950  | XDL MFMA reads SrcC (P passes) | VALU, VMEM/DS load overwrites SrcC regs | 2: 1, 4: 3, 8: 7, 16: 15 |
// Non-XDL and f64 MFMAs have no such window on gfx94x.
// Source: LLVM GCNHazardRecognizer::checkMAIVALUHazards (SMFMA*ReadVgprVALUWarWaitStates,
// GFX940_XDL4PassReadVgprVALUWarWaitStates); rocRoller XDLReadSrcC94x.
#include "jit/passes/hazards/mfma_common.hpp"

namespace cdnajit::passes::hazards {
namespace {

int war_wait(int passes) {
  switch (passes) {
    case 2: return 1;
    case 4: return 3;
    case 8: return 7;
    default: return 15;
  }
}

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const auto& mi = ctx.at(i);
  if (!((is_valu(mi) && !is_mfma(mi)) || is_vmem(mi) || is_ds(mi))) return;
  for (const auto& r : ctx.access[i].explicit_regs) {
    if (!r.is_def || !is_vgpr_unit(r.units.first)) continue;
    UnitRange u = r.units;
    auto match = [&ctx, u](size_t j) -> std::optional<int> {
      const auto& mj = ctx.at(j);
      if (!is_xdl(mj) || base_mnemonic(mj).substr(0, 8) == "v_smfmac") return std::nullopt;
      auto c = reg_operand(ctx, j, 3);
      return when(c && c->overlaps(u), war_wait(mfma_passes(mj, ctx.arch)));
    };
    need_if(ctx, i, 15, match, [&] { return std::string("this instruction overwrites " + range_name(u) + " while an MFMA still reads it as SrcC"); },
            out);
  }
}

}  // namespace

const HazardRule kMfmaSrcCOverwrite{"mfma-srcc-overwrite", &check};

}  // namespace cdnajit::passes::hazards
