// | arch            | first instruction | second instruction           | wait states |
// |-----------------|-------------------|------------------------------|-------------|
// | gfx942, gfx950  | VALU writes VCC   | v_div_fmas_f32/f64 (reads VCC)| 4          |
// Source: LLVM GCNHazardRecognizer::checkDivFMasHazards (DivFMasWaitStates = 4).
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.opcode == isa::Opcode::v_div_fmas_f32 || f.opcode == isa::Opcode::v_div_fmas_f64; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  need_if(ctx, i, 4, valu_writes(ctx, kVccUnits, 4), [&] { return std::string("VALU writes vcc, which v_div_fmas reads"); }, out);
}

}  // namespace

const HazardRule kValuVccDivFmas{"valu-vcc-div-fmas", &consumer, &check};

}  // namespace cdnajit::passes::hazards
