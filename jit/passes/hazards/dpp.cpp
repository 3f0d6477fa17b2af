// | arch            | first instruction            | second instruction              | wait states |
// |-----------------|------------------------------|---------------------------------|-------------|
// | gfx942, gfx950  | any instruction writes VGPR  | DPP VALU reads that VGPR        | 2           |
// | gfx942, gfx950  | VALU writes EXEC             | DPP VALU                        | 5           |
// Source: LLVM GCNHazardRecognizer::checkDPPHazards (DppVgprWaitStates = 2,
// DppExecWaitStates = 5).
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.dpp; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  for (const auto& r : ctx.access[i].explicit_regs) {
    if (!r.reads() || !is_vgpr_unit(r.units.first)) continue;
    UnitRange u = r.units;
    auto any_writer = [&ctx, u](size_t j) { return when(!ctx.is(j).label && ctx.access[j].writes(u), 2); };
    need_if(ctx, i, 2, any_writer, [&] { return std::string(range_name(u) + " is written shortly before a DPP read of it"); }, out);
  }
  need_if(ctx, i, 5, valu_writes(ctx, kExecUnits, 5), [&] { return std::string("VALU writes exec before a DPP instruction"); }, out);
}

}  // namespace

const HazardRule kDpp{"dpp", &consumer, &check};

}  // namespace cdnajit::passes::hazards
