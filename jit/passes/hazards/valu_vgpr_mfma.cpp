// | arch            | first instruction                         | second instruction                 | wait states |
// |-----------------|-------------------------------------------|------------------------------------|-------------|
// | gfx942, gfx950  | VALU (not MFMA, not v_dot*) writes VGPR   | MFMA reads it (SrcA, SrcB or SrcC) | 2           |
// Source: LLVM GCNHazardRecognizer::checkMAIHazards90A (LegacyVALUNotDotWritesVGPRWaitStates = 2);
// rocRoller MFMA/VALUWrite.
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.mfma; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  for (const auto& r : ctx.access[i].explicit_regs) {
    if (!r.reads() || !ctx.valu_written.overlaps(r.units)) continue;  // no VALU writes it: no source
    UnitRange u = r.units;
    auto match = [&ctx, u](size_t j) {
      const InstFacts& mj = ctx.is(j);
      return when(mj.valu && !mj.mfma && !mj.dot && ctx.access[j].writes(u), 2);
    };
    need_if(ctx, i, 2, match, [&] { return std::string("VALU writes " + range_name(u) + ", which the MFMA reads"); }, out);
  }
}

}  // namespace

const HazardRule kValuVgprMfma{"valu-vgpr-mfma", &consumer, &check};

}  // namespace cdnajit::passes::hazards
