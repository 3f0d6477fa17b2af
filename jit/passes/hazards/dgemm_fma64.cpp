// | arch            | first instruction        | second instruction            | wait states |
// |-----------------|--------------------------|-------------------------------|-------------|
// | gfx942, gfx950  | any v_mfma_f64_* (DGEMM) | v_fma_f64 / v_fmac_f64        | 2           |
// Source: LLVM GCNHazardRecognizer::checkMAIVALUHazards (DMFMAToFMA64WaitStates = 2).
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.opcode == isa::Opcode::v_fma_f64 || f.opcode == isa::Opcode::v_fmac_f64; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  auto match = [&ctx](size_t j) { return when(ctx.is(j).dgemm, 2); };
  need_if(ctx, i, 2, match, [&] { return std::string("a DGEMM MFMA issues just before a 64-bit FMA"); }, out);
}

}  // namespace

const HazardRule kDgemmFma64{"dgemm-fma64", &consumer, &check};

}  // namespace cdnajit::passes::hazards
