// The hazard rules, one per file in this folder. Each file starts with a table
// (arch, first instruction, second instruction, wait states) and names its source.
#pragma once
#include <optional>

#include "jit/passes/classify.hpp"
#include "jit/passes/hazard_context.hpp"

namespace cdnajit::passes::hazards {

extern const HazardRule kValuSgprVmem;
extern const HazardRule kValuVccDivFmas;
extern const HazardRule kValuSgprLaneSelect;
extern const HazardRule kValuSgprValu;
extern const HazardRule kValuVgprReadlane;
extern const HazardRule kValuExecLaneAccess;
extern const HazardRule kTransUse;
extern const HazardRule kDstSelForwarding;
extern const HazardRule kDpp;
extern const HazardRule kStoreDataOverwrite;
extern const HazardRule kSaluM0;
extern const HazardRule kPermlane;
extern const HazardRule kValuExecMfma;
extern const HazardRule kValuVgprMfma;
extern const HazardRule kMfmaMfma;
extern const HazardRule kMfmaRead;
extern const HazardRule kMfmaOverwrite;
extern const HazardRule kMfmaSrcCOverwrite;
extern const HazardRule kDotResult;
extern const HazardRule kDgemmFma64;
extern const HazardRule kSoftClause;

// Shared predicates.
inline std::optional<int> when(bool cond, int required) {
  return cond ? std::optional<int>(required) : std::nullopt;
}
// Source: a VALU (MFMA included) that writes any unit of `r`.
inline auto valu_writes(const HazardContext& ctx, UnitRange r, int required) {
  return [&ctx, r, required](size_t j) { return when(ctx.is(j).valu && ctx.access[j].writes(r), required); };
}
// Explicit register operand `k` of instruction i, if it is a register.
inline std::optional<UnitRange> reg_operand(const HazardContext& ctx, size_t i, size_t k) {
  for (const auto& r : ctx.access[i].explicit_regs)
    if (r.op_index == k) return r.units;
  return std::nullopt;
}

}  // namespace cdnajit::passes::hazards
