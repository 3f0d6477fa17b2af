// MFMA result read by a non-MFMA instruction. P = passes of the MFMA.
// | arch    | first instruction         | second instruction                      | wait states             |
// |---------|---------------------------|-----------------------------------------|-------------------------|
// | gfx942  | XDL MFMA writes VGPR/AGPR | VALU, VMEM, DS reads it                 | P + 3 (5, 7, 11, 19)    |
// | gfx950  | XDL MFMA                  | VALU, VMEM, DS reads it                 | P + 3, +1 if P > 2 (5, 8, 12, 20) |
// | both    | non-XDL MFMA (f32 inputs) | VALU, VMEM, DS reads it                 | P + 2 (4, 6, 10, 18)    |
// | both    | v_mfma_f64_4x4x4f64       | VALU / VMEM, DS reads it                | 6 / 9                   |
// | gfx942  | v_mfma_f64_16x16x4f64     | VALU / VMEM, DS reads it                | 11 / 18                 |
// | gfx950  | v_mfma_f64_16x16x4f64     | VALU / VMEM, DS reads it                | 19 / 18                 |
// Source: LLVM GCNHazardRecognizer::checkMAIVALUHazards (GFX940_XDL_N_PassWriteVgprVALUMemExpReadWaitStates,
// GFX940_SMFMA_N_PassWriteVgprVALUMemExpReadWaitStates, DMFMA*); rocRoller XDLWrite94x.
#include "jit/passes/hazards/mfma_common.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return (f.valu && !f.mfma) || f.vmem || f.ds; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const InstFacts& mi = ctx.is(i);
  bool valu = mi.valu && !mi.mfma;
  if (!ctx.any_mfma) return;
  for (const auto& r : ctx.access[i].explicit_regs) {
    if (!r.reads() || !is_vgpr_unit(r.units.first)) continue;
    UnitRange u = r.units;
    auto match = [&ctx, u, valu](size_t j) -> std::optional<int> {
      if (!ctx.is(j).mfma) return std::nullopt;
      const auto& d = mfma_dst(ctx, j);
      return when(d && d->overlaps(u), mfma_result_read_wait(ctx, ctx.is(j), valu));
    };
    need_if(ctx, i, kMfmaLimit, match, [&] { return std::string("MFMA writes " + range_name(u) + ", which this instruction reads"); }, out, Sources::mfma_writing, u);
  }
}

}  // namespace

const HazardRule kMfmaRead{"mfma-read", &consumer, &check};

}  // namespace cdnajit::passes::hazards
