// | arch            | first instruction                               | second instruction                          | wait states |
// |-----------------|-------------------------------------------------|---------------------------------------------|-------------|
// | gfx942, gfx950  | transcendental VALU (v_exp/log/rcp/rsq/sqrt/sin/cos) | non-transcendental VALU reading its result | 1        |
// Source: LLVM GCNHazardRecognizer::checkVALUHazards, hasTransForwardingHazard (gfx940+):
// TransDefWaitstates = 1; rocRoller VALUTransWrite94x.
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.valu && !f.trans; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  if (!ctx.any_trans) return;
  const Access& a = ctx.access[i];
  auto match = [&](size_t j) -> std::optional<int> {
    if (!ctx.is(j).trans) return std::nullopt;
    for (const UnitRange& d : ctx.access[j].defs())
      if (a.explicitly_reads(d)) return 1;
    return std::nullopt;
  };
  need_if(ctx, i, 1, match, [&] { return std::string("a transcendental VALU writes a register this VALU reads"); }, out);
}

}  // namespace

const HazardRule kTransUse{"trans-use", &consumer, &check};

}  // namespace cdnajit::passes::hazards
