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

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return (f.valu && !f.mfma) || f.vmem || f.ds; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  if (!ctx.any_xdl) return;
  for (const auto& r : ctx.access[i].explicit_regs) {
    if (!r.is_def || !is_vgpr_unit(r.units.first) || !ctx.mfma_src_c.overlaps(r.units)) continue;  // no MFMA reads it as SrcC
    UnitRange u = r.units;
    auto match = [&ctx, u](size_t j) -> std::optional<int> {
      const InstFacts& mj = ctx.is(j);
      if (!mj.xdl || mj.smfmac) return std::nullopt;
      const auto& c = mj.op3;
      return when(c && c->overlaps(u), war_wait(mj.mfma_passes));
    };
    need_if(ctx, i, 15, match, [&] { return std::string("this instruction overwrites " + range_name(u) + " while an MFMA still reads it as SrcC"); },
            out, Sources::mfma);
  }
}

}  // namespace

const HazardRule kMfmaSrcCOverwrite{"mfma-srcc-overwrite", &consumer, &check};

}  // namespace cdnajit::passes::hazards
