// | arch            | first instruction | second instruction                               | wait states |
// |-----------------|-------------------|--------------------------------------------------|-------------|
// | gfx942, gfx950  | VALU writes SGPR  | v_readlane_b32 / v_writelane_b32 lane select (src1) | 4        |
// Source: LLVM GCNHazardRecognizer::checkRWLaneHazards (RWLaneWaitStates = 4).
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.opcode == isa::Opcode::v_readlane_b32 || f.opcode == isa::Opcode::v_writelane_b32; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  std::string_view m = ctx.is(i).mnemonic;
  auto sel = reg_operand(ctx, i, 2);
  if (!sel || !is_sgpr_unit(sel->first)) return;
  need_if(ctx, i, 4, valu_writes(ctx, *sel, 4), [&] { return std::string("VALU writes " + range_name(*sel) + ", the lane select of " + std::string(m)); }, out);
}

}  // namespace

const HazardRule kValuSgprLaneSelect{"valu-sgpr-lane-select", &consumer, &check};

}  // namespace cdnajit::passes::hazards
