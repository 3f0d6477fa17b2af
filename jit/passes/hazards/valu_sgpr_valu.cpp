// | arch            | first instruction      | second instruction                     | wait states |
// |-----------------|------------------------|----------------------------------------|-------------|
// | gfx942, gfx950  | VALU writes SGPR       | VALU reads that SGPR (explicit source) | 2           |
// | gfx942, gfx950  | VALU writes VCC        | VALU reads VCC (v_cndmask, v_addc ...) | 2           |
// Source: LLVM GCNHazardRecognizer::checkVALUHazards, hasVDecCoExecHazard (gfx940+):
// VALUWriteSGPRVALUReadWaitstates = 2; rocRoller VALUWriteSGPRVCC94x.
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.valu; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const Access& a = ctx.access[i];
  for (const auto& r : a.explicit_regs) {
    if (!r.reads() || !is_sgpr_unit(r.units.first) || !ctx.valu_written.overlaps(r.units)) continue;
    need_if(ctx, i, 2, valu_writes(ctx, r.units, 2), [&] { return std::string("VALU writes " + range_name(r.units) + ", which this VALU reads"); }, out);
  }
  if (a.reads(kVccUnits) && ctx.valu_written.overlaps(kVccUnits))
    need_if(ctx, i, 2, valu_writes(ctx, kVccUnits, 2), [&] { return std::string("VALU writes vcc, which this VALU reads"); }, out);
}

}  // namespace

const HazardRule kValuSgprValu{"valu-sgpr-valu", &consumer, &check};

}  // namespace cdnajit::passes::hazards
