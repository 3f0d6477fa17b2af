// | arch            | first instruction     | second instruction                                 | wait states |
// |-----------------|-----------------------|----------------------------------------------------|-------------|
// | gfx942, gfx950  | v_dot* writes VGPR    | the same v_dot* opcode reads it as SrcC (accumulate) | 0         |
// | gfx942, gfx950  | v_dot* writes VGPR    | the same v_dot* opcode reads it as SrcA/SrcB       | 3           |
// | gfx942, gfx950  | v_dot* writes VGPR    | any other VALU / VMEM / DS reads it                | 3           |
// | gfx942, gfx950  | v_dot* writes VGPR    | a different VALU overwrites it                     | 3           |
// Source: LLVM GCNHazardRecognizer::checkMAIVALUHazards (DotWriteSameDotReadSrcAB = 3,
// DotWriteDifferentVALURead = 3, DotWriteDifferentVALUWrite = 3).
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return (f.valu && !f.mfma) || f.vmem || f.ds; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const InstFacts& mi = ctx.is(i);
  if (!ctx.any_dot) return;
  std::string_view opcode = mi.mnemonic;
  for (const auto& r : ctx.access[i].explicit_regs) {
    if (!is_vgpr_unit(r.units.first)) continue;
    UnitRange u = r.units;
    bool def = r.is_def, src_c = r.op_index == 3;
    auto match = [&ctx, u, def, src_c, opcode](size_t j) -> std::optional<int> {
      const InstFacts& mj = ctx.is(j);
      if (!mj.dot) return std::nullopt;
      const auto& d = mj.op0;
      if (!d || !d->overlaps(u)) return std::nullopt;
      bool same = mj.mnemonic == opcode;
      if (def) return same ? 0 : 3;
      return same && src_c ? 0 : 3;
    };
    need_if(ctx, i, 3, match, [&] { return std::string("a v_dot writes " + range_name(u) + ", which this instruction " + (def ? "overwrites" : "reads")); }, out);
  }
}

}  // namespace

const HazardRule kDotResult{"dot-result", &consumer, &check};

}  // namespace cdnajit::passes::hazards
