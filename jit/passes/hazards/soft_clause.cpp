// | arch            | first instruction                          | second instruction                                  | wait states |
// |-----------------|--------------------------------------------|-----------------------------------------------------|-------------|
// | gfx942, gfx950  | back-to-back VMEM (or SMEM) instructions   | next one of the same kind whose registers overlap a | 1           |
// | (xnack on/any)  | forming a soft clause                      | def of the clause (or any store after a load)       |             |
// With XNACK enabled (the default target id has xnack "any") consecutive memory
// instructions form a soft clause that may be replayed after a page fault; a clause
// must not overwrite a register another member (or itself) reads, so it is broken by
// one non-memory instruction or s_nop (a comment line between two is no instruction).
// Like LLVM, only the last 5 instructions are looked at (19 when the program uses AGPRs:
// LLVM's MaxLookAhead), so long clauses are checked in that window only.
// Source: LLVM GCNHazardRecognizer::checkSoftClauseHazards (called from checkVMEMHazards
// and checkSMRDHazards when isXNACKEnabled).
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

bool same_kind(const InstFacts& a, bool smem) { return smem ? a.smem : a.vmem; }

void add_regs(const Access& a, std::vector<UnitRange>& defs, std::vector<UnitRange>& uses) {
  a.for_each_def([&](const UnitRange& d) {
    if (!is_memory_unit(d.first)) defs.push_back(d);  // LDS and stores are memory, not clause registers
  });
  a.for_each_use([&](const UnitRange& u) {
    if (!is_memory_unit(u.first)) uses.push_back(u);
  });
}

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.smem || f.vmem; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const auto& mi = ctx.at(i);
  bool smem = ctx.is(i).smem;
  if (ctx.extra[i] > 0) return;  // an s_nop before it already ends the clause
  std::vector<UnitRange> defs, uses;
  const Block& blk = ctx.cfg.blocks[ctx.cfg.block_of[i]];
  const size_t window = ctx.uses_agprs ? 19 : 5;
  size_t previous = i;  // the instruction just before i (comment lines emit nothing: skipped)
  for (size_t j = i, seen = 0; j > blk.begin && seen < window;) {
    --j;
    if (ctx.is(j).comment) continue;
    if (previous == i) previous = j;
    ++seen;
    if (!same_kind(ctx.is(j), smem)) break;
    add_regs(ctx.access[j], defs, uses);
    if (ctx.extra[j] > 0) break;  // the clause starts at j
  }
  if (defs.empty()) return;
  bool hazard = mi.info && mi.info->is_store && !mi.info->is_load;  // stores start a new clause
  if (!hazard) {
    add_regs(ctx.access[i], defs, uses);
    for (const UnitRange& d : defs)
      for (const UnitRange& u : uses) hazard = hazard || d.overlaps(u);
  }
  if (hazard)
    out.push_back({1, 1, previous,
                   std::string(smem ? "SMEM" : "VMEM") + " soft clause would overwrite a register one of its "
                                                           "instructions reads (or mix a store into loads)"});
}

}  // namespace

const HazardRule kSoftClause{"soft-clause", &consumer, &check};

}  // namespace cdnajit::passes::hazards
