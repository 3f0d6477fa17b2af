// MFMA result overwritten (WAW) by a non-MFMA instruction. P = passes of the MFMA.
// | arch    | first instruction         | second instruction                   | wait states          |
// |---------|---------------------------|--------------------------------------|----------------------|
// | gfx942  | XDL MFMA writes VGPR/AGPR | VALU, VMEM/DS load overwrites it     | P + 3 (5, 7, 11, 19) |
// | gfx950  | XDL MFMA                  | VALU, VMEM/DS load overwrites it     | P + 3, +1 if P > 2   |
// | both    | non-XDL MFMA              | VALU, VMEM/DS load overwrites it     | P + 2                |
// | both    | v_mfma_f64_4x4x4f64 / v_mfma_f64_16x16x4f64 | VALU overwrites it | 6 / 11          |
// Source: LLVM GCNHazardRecognizer::checkMAIVALUHazards (GFX940_*_N_PassWriteVgprVALUWawWaitStates,
// DMFMA*WriteVgprVALUWriteWaitStates); rocRoller XDLWrite94x ("v_* read/write").
#include "jit/passes/hazards/mfma_common.hpp"

namespace cdnajit::passes::hazards {
namespace {

int waw_wait(const HazardContext& ctx, const InstFacts& producer) {
  if (producer.dgemm_4x4) return 6;
  if (producer.dgemm) return 11;
  int p = producer.mfma_passes;
  return producer.xdl ? p + 3 + gfx950_extra(ctx, p) : p + 2;
}

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return (f.valu && !f.mfma) || f.vmem || f.ds; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  if (!ctx.any_mfma) return;
  for (const auto& r : ctx.access[i].explicit_regs) {
    if (!r.is_def || !is_vgpr_unit(r.units.first)) continue;
    UnitRange u = r.units;
    auto match = [&ctx, u](size_t j) -> std::optional<int> {
      if (!ctx.is(j).mfma) return std::nullopt;
      const auto& d = mfma_dst(ctx, j);
      return when(d && d->overlaps(u), waw_wait(ctx, ctx.is(j)));
    };
    need_if(ctx, i, kMfmaLimit, match, [&] { return std::string("MFMA writes " + range_name(u) + ", which this instruction overwrites"); }, out, Sources::mfma_writing, u);
  }
}

}  // namespace

const HazardRule kMfmaOverwrite{"mfma-overwrite", &consumer, &check};

}  // namespace cdnajit::passes::hazards
