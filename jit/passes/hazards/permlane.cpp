// | arch    | first instruction              | second instruction                         | wait states |
// |---------|--------------------------------|--------------------------------------------|-------------|
// | gfx950  | VALU writes VGPR               | v_permlane16_swap / v_permlane32_swap reads it | 2       |
// | gfx950  | v_cmpx_* (writes EXEC)         | v_permlane*                                | 4           |
// Source: LLVM GCNHazardRecognizer::checkPermlaneHazards (hasGFX950Insts:
// VALUWritesVDstWaitStates = 2, VCmpXWritesExecWaitStates = 4); rocRoller VCMPXWrite94x.
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.opcode == isa::Opcode::v_permlane16_swap_b32 || f.opcode == isa::Opcode::v_permlane32_swap_b32; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  if (!ctx.gfx950()) return;
  for (const auto& r : ctx.access[i].explicit_regs) {
    if (!is_vgpr_unit(r.units.first)) continue;  // both operands of the swap are read
    need_if(ctx, i, 2, valu_writes(ctx, r.units, 2), [&] { return std::string("VALU writes " + range_name(r.units) + ", which v_permlane reads"); },
            out);
  }
  auto vcmpx = [&ctx](size_t j) { return when(ctx.is(j).vcmpx, 4); };
  need_if(ctx, i, 4, vcmpx, [&] { return std::string("a v_cmpx writes exec before v_permlane"); }, out);
}

}  // namespace

const HazardRule kPermlane{"permlane", &consumer, &check};

}  // namespace cdnajit::passes::hazards
