// | arch            | first instruction | second instruction           | wait states |
// |-----------------|-------------------|------------------------------|-------------|
// | gfx942, gfx950  | VALU writes VCC   | v_div_fmas_f32/f64 (reads VCC)| 4          |
// Source: LLVM GCNHazardRecognizer::checkDivFMasHazards (DivFMasWaitStates = 4).
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const isa::Opcode op = ctx.is(i).opcode;
  if (op != isa::Opcode::v_div_fmas_f32 && op != isa::Opcode::v_div_fmas_f64) return;
  need_if(ctx, i, 4, valu_writes(ctx, kVccUnits, 4), [&] { return std::string("VALU writes vcc, which v_div_fmas reads"); }, out);
}

}  // namespace

const HazardRule kValuVccDivFmas{"valu-vcc-div-fmas", &check};

}  // namespace cdnajit::passes::hazards
