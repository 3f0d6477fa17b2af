// | arch            | first instruction               | second instruction | wait states |
// |-----------------|---------------------------------|--------------------|-------------|
// | gfx942, gfx950  | non-MFMA VALU writes EXEC       | MFMA               | 4           |
// Source: LLVM GCNHazardRecognizer::checkMAIHazards90A (VALUWritesExecWaitStates = 4).
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.mfma; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  if (!ctx.valu_written.overlaps(kExecUnits)) return;  // no VALU writes exec: no source
  auto match = [&ctx](size_t j) {
    return when(ctx.is(j).valu && !ctx.is(j).mfma && ctx.access[j].writes(kExecUnits), 4);
  };
  need_if(ctx, i, 4, match, [&] { return std::string("VALU writes exec before an MFMA"); }, out);
}

}  // namespace

const HazardRule kValuExecMfma{"valu-exec-mfma", &consumer, &check};

}  // namespace cdnajit::passes::hazards
