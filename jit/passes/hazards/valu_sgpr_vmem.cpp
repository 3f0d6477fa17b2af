// | arch            | first instruction     | second instruction                         | wait states |
// |-----------------|-----------------------|--------------------------------------------|-------------|
// | gfx942, gfx950  | VALU writes SGPR/VCC/EXEC/M0 | VMEM (buffer/global/flat/scratch, LDS DMA) reads that SGPR | 5 |
// Source: LLVM GCNHazardRecognizer::checkVMEMHazards (VmemSgprWaitStates = 5; implicit
// EXEC/M0 reads included); CDNA3 ISA guide, "Manually Inserted Wait States".
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.vmem; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  ctx.access[i].for_each_use([&](const UnitRange& r) {
    if (!is_sgpr_unit(r.first) || !ctx.valu_written.overlaps(r)) return;  // no VALU writes it: no source
    need_if(ctx, i, 5, valu_writes(ctx, r, 5), [&] { return std::string("VALU writes " + range_name(r) + ", which the VMEM instruction reads"); }, out);
  });
}

}  // namespace

const HazardRule kValuSgprVmem{"valu-sgpr-vmem", &consumer, &check};

}  // namespace cdnajit::passes::hazards
