// Wait-state tables shared by the MFMA rules (gfx942 / gfx950), keyed on the producing
// MFMA's pass count (2, 4, 8, 16), whether it is XDL, and the f64 (DGEMM) shapes.
// Source: LLVM GCNHazardRecognizer.cpp GFX940_* helpers (checkMAIHazards90A,
// checkMAIVALUHazards) incl. the gfx950 increments; rocRoller XDLWrite94x, XDLReadSrcC94x.
#pragma once
#include <string_view>

#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {

// gfx950 adds one wait state for XDL producers of more than 2 passes.
inline int gfx950_extra(const HazardContext& ctx, int passes) { return ctx.gfx950() && passes != 2 ? 1 : 0; }

// The MFMA destination (operand 0).
inline const std::optional<UnitRange>& mfma_dst(const HazardContext& ctx, size_t j) { return ctx.is(j).op0; }

// MFMA result read by a non-MFMA VALU (valu=true) or by VMEM/DS (valu=false).
inline int mfma_result_read_wait(const HazardContext& ctx, const InstFacts& producer, bool valu) {
  if (producer.dgemm_4x4) return valu ? 6 : 9;
  if (producer.dgemm) return valu ? (ctx.gfx950() ? 19 : 11) : 18;
  int p = producer.mfma_passes;
  return producer.xdl ? p + 3 + gfx950_extra(ctx, p) : p + 2;
}

constexpr int kMfmaLimit = 21;  // larger than any MFMA requirement (20 on gfx950)

}  // namespace cdnajit::passes::hazards
