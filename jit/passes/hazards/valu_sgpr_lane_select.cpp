// | arch            | first instruction | second instruction                               | wait states |
// |-----------------|-------------------|--------------------------------------------------|-------------|
// | gfx942, gfx950  | VALU writes SGPR  | v_readlane_b32 / v_writelane_b32 lane select (src1) | 4        |
// Source: LLVM GCNHazardRecognizer::checkRWLaneHazards (RWLaneWaitStates = 4).
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const isa::Opcode op = ctx.is(i).opcode;
  if (op != isa::Opcode::v_readlane_b32 && op != isa::Opcode::v_writelane_b32) return;
  std::string_view m = ctx.is(i).mnemonic;
  auto sel = reg_operand(ctx, i, 2);
  if (!sel || !is_sgpr_unit(sel->first)) return;
  need_if(ctx, i, 4, valu_writes(ctx, *sel, 4), [&] { return std::string("VALU writes " + range_name(*sel) + ", the lane select of " + std::string(m)); }, out);
}

}  // namespace

const HazardRule kValuSgprLaneSelect{"valu-sgpr-lane-select", &check};

}  // namespace cdnajit::passes::hazards
