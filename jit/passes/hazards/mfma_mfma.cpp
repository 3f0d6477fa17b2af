// MFMA result read by a later MFMA. P = passes of the producing MFMA.
// | arch    | first instruction            | second instruction                         | wait states          |
// |---------|------------------------------|--------------------------------------------|----------------------|
// | gfx942  | XDL MFMA writes VGPR/AGPR    | MFMA reads it as SrcC, exactly the same regs | 2-pass: 2, else 0  |
// | gfx942  | XDL MFMA                     | XDL MFMA reads SrcC, overlapping           | P + 1 (3, 5, 9, 17)  |
// | gfx950  | XDL MFMA                     | XDL MFMA reads SrcC, overlapping           | P + 2 (4, 6, 10, 18) |
// | gfx942  | XDL MFMA                     | non-XDL MFMA / DGEMM reads SrcC, overlapping | P + 1              |
// | gfx950  | XDL MFMA                     | non-XDL MFMA / DGEMM reads SrcC, overlapping | P + 1 (+1 if P > 2) |
// | both    | non-XDL MFMA (f32 inputs)    | non-XDL MFMA reads SrcC, overlapping       | P (2, 4, 8, 16)      |
// | both    | non-XDL MFMA                 | XDL MFMA reads SrcC                        | 0                    |
// | gfx942  | XDL MFMA                     | MFMA reads SrcA/SrcB                       | P + 3 (5, 7, 11, 19) |
// | gfx950  | XDL MFMA                     | MFMA reads SrcA/SrcB                       | P + 3 (+1 if P > 2)  |
// | both    | non-XDL MFMA                 | MFMA reads SrcA/SrcB                       | P + 2                |
// | both    | v_mfma_f64_4x4x4f64          | same op, SrcC same regs / overlapped       | 4 / 4 (non-XDL reader) |
// | gfx942  | v_mfma_f64_16x16x4f64        | non-XDL reads SrcC overlapped / SrcA,B     | 9 / 11               |
// | gfx950  | v_mfma_f64_16x16x4f64        | non-XDL reads SrcC overlapped / SrcA,B     | 17 / 19              |
// | both    | v_mfma_f64_4x4x4f64          | MFMA reads SrcA/SrcB                       | 6                    |
// Source: LLVM GCNHazardRecognizer::checkMAIHazards90A and its GFX940_* helpers
// (incl. the IsGFX950 terms); rocRoller XDLWrite94x.
#include "jit/passes/hazards/mfma_common.hpp"

namespace cdnajit::passes::hazards {
namespace {

int src_c_wait(const HazardContext& ctx, const InstFacts& reader, const InstFacts& producer, bool same_regs) {
  int p = producer.mfma_passes;
  if (same_regs) {
    if (reader.dgemm_4x4 && producer.dgemm_4x4) return 4;
    return p == 2 ? 2 : 0;
  }
  if (producer.dgemm_16x16) return reader.xdl ? 0 : (ctx.gfx950() ? 17 : 9);
  if (producer.dgemm_4x4) return reader.xdl ? 0 : 4;
  if (reader.xdl && !producer.xdl) return 0;
  if (!producer.xdl) return p;
  return reader.xdl ? p + 1 + (ctx.gfx950() ? 1 : 0) : p + 1 + gfx950_extra(ctx, p);
}

int src_ab_wait(const HazardContext& ctx, const InstFacts& producer) {
  if (producer.dgemm_16x16) return ctx.gfx950() ? 19 : 11;
  if (producer.dgemm_4x4) return 6;
  int p = producer.mfma_passes;
  return producer.xdl ? p + 3 + gfx950_extra(ctx, p) : p + 2;
}

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.mfma; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const InstFacts& reader = ctx.is(i);
  bool smfmac = reader.smfmac;
  for (const auto& r : ctx.access[i].explicit_regs) {
    if (!r.reads()) continue;
    UnitRange u = r.units;
    bool src_c = r.op_index == 3 && !smfmac;
    auto match = [&ctx, &reader, u, src_c](size_t j) -> std::optional<int> {
      const InstFacts& prod = ctx.is(j);
      if (!prod.mfma) return std::nullopt;
      const auto& d = prod.op0;
      if (!d || !d->overlaps(u)) return std::nullopt;
      bool same = d->first == u.first && d->count == u.count;
      return src_c ? src_c_wait(ctx, reader, prod, same) : src_ab_wait(ctx, prod);
    };
    need_if(ctx, i, kMfmaLimit, match, [&] { return std::string("MFMA writes " + range_name(u) + ", read as " + (src_c ? "SrcC" : "SrcA/SrcB") + " by this MFMA"); }, out, Sources::mfma_writing, u);
  }
}

}  // namespace

const HazardRule kMfmaMfma{"mfma-mfma", &consumer, &check};

}  // namespace cdnajit::passes::hazards
