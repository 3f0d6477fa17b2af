// | arch            | first instruction                                                | second instruction                 | wait states |
// |-----------------|------------------------------------------------------------------|------------------------------------|-------------|
// | gfx942, gfx950  | buffer_store x3/x4 (data > 64 bits) with a constant soffset      | VALU overwrites the store data     | 2           |
// | gfx942, gfx950  | global/flat/scratch store x3/x4 (data > 64 bits)                 | VALU overwrites the store data     | 2           |
// The store reads its data VGPRs a little after issue when they exceed 64 bits.
// Source: LLVM GCNHazardRecognizer::createsVALUHazard / checkVALUHazardsHelper
// (has12DWordStoreHazard; VALUWaitStates = 2 on gfx940+); rocRoller BufferStoreDwordXXRead.
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The store-data VGPRs of `j` if it is a store of that kind.
std::optional<UnitRange> wide_store_data(const HazardContext& ctx, size_t j) {
  const auto& mi = ctx.at(j);
  if (!mi.info || !mi.info->is_store || !ctx.is(j).vmem || ctx.is(j).lds_dma) return std::nullopt;
  const auto& regs = ctx.access[j].explicit_regs;
  std::optional<UnitRange> data;
  if (mi.info->family == isa::Family::MUBUF) {
    // buffer_store vdata, vaddr|off, srsrc, soffset: no hazard when soffset is an SGPR.
    if (mi.operands.size() > 3 && units_of(mi.operands[3])) return std::nullopt;
    if (!regs.empty() && regs[0].op_index == 0) data = regs[0].units;
  } else {
    // global/flat store vaddr, vdata, ...: the data is the second VGPR operand read.
    int seen = 0;
    for (const auto& r : regs)
      if (!r.is_def && is_vgpr_unit(r.units.first) && ++seen == 2) {
        data = r.units;
        break;
      }
  }
  if (!data || data->count <= 2) return std::nullopt;
  return data;
}

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.valu; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  for (const auto& r : ctx.access[i].explicit_regs) {
    if (!r.is_def || !is_vgpr_unit(r.units.first) || !ctx.vmem_store_read.overlaps(r.units)) continue;  // no store reads it
    UnitRange d = r.units;
    auto match = [&ctx, d](size_t j) -> std::optional<int> {
      auto data = wide_store_data(ctx, j);
      return when(data && data->overlaps(d), 2);
    };
    need_if(ctx, i, 2, match, [&] { return std::string("VALU overwrites " + range_name(d) + ", data of a wide store still reading it"); }, out);
  }
}

}  // namespace

const HazardRule kStoreDataOverwrite{"store-data-overwrite", &consumer, &check};

}  // namespace cdnajit::passes::hazards
