// | arch            | first instruction | second instruction                                              | wait states |
// |-----------------|-------------------|-----------------------------------------------------------------|-------------|
// | gfx942, gfx950  | SALU writes M0    | LDS DMA (buffer_load ... lds, global_load_lds_*), s_sendmsg*,    | 1           |
// |                 |                   | s_ttracedata, s_movrel*, ds_*_addtid_*, GDS                      |             |
// Source: LLVM GCNHazardRecognizer::checkReadM0Hazards (ReadM0WaitStates = 1;
// hasReadM0LdsDmaHazard / hasReadM0SendMsgHazard / hasReadM0MovRelInterpHazard on gfx9).
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return !f.salu && f.reads_m0; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  auto salu_writes_m0 = [&ctx](size_t j) { return when(ctx.is(j).salu && ctx.access[j].writes(kM0Unit), 1); };
  need_if(ctx, i, 1, salu_writes_m0, [&] { return std::string("SALU writes m0, which this instruction reads"); }, out);
}

}  // namespace

const HazardRule kSaluM0{"salu-m0", &consumer, &check};

}  // namespace cdnajit::passes::hazards
