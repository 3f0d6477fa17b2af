// | arch            | first instruction                                          | second instruction                    | wait states |
// |-----------------|------------------------------------------------------------|---------------------------------------|-------------|
// | gfx942, gfx950  | VALU writing part of a VGPR: SDWA dst_sel != DWORD, or VOP3 op_sel dst bit (high half) | VALU reading or writing that VGPR | 1 |
// | gfx942, gfx950  | VOP3P op with op_sel support and op_sel_hi[0] = 1 (v_pk_*; LLVM quirk)   | VALU reading or writing that VGPR | 1 |
// Source: LLVM GCNHazardRecognizer::checkVALUHazards, hasDstSelForwardingHazard (gfx940+):
// Shift16DefWaitstates = 1; rocRoller OPSEL94x. (gfx950's FP4/FP8 v_cvt_scale* forms of
// this hazard are not modelled here.)
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The VGPR a partial-write VALU forwards through the shifter, if any.
std::optional<UnitRange> forwarded_dst(const HazardContext& ctx, size_t j) {
  const InstFacts& f = ctx.is(j);
  if (!f.valu || f.mfma) return std::nullopt;
  const auto& mi = ctx.at(j);
  bool partial = false;
  if (f.sdwa) {
    const std::string& e = mi.mods.extra;
    size_t p = e.find("dst_sel:");
    partial = p != std::string::npos && e.compare(p + 8, 5, "DWORD") != 0;
  } else if (mi.info && mi.info->family == isa::Family::VOP3P && (mi.info->mods & isa::kModOpSel)) {
    // LLVM keeps src0's op_sel_hi in the same modifier bit as VOP3's DST_OP_SEL, so a
    // packed op with op_sel_hi[0] = 1 (the default) counts as a partial write. Matched
    // here to stay as safe as clang (it puts s_nop 0 between dependent v_pk_* ops).
    uint8_t hi = mi.mods.op_sel_hi_set ? mi.mods.op_sel_hi : 0xff;
    partial = hi & 1;
  } else if (mi.info && mi.info->family != isa::Family::VOP3P && mi.mods.op_sel) {
    // VOP3 (or a VOP1/VOP2 op promoted to VOP3 by its modifiers):
    int defs = 0;
    for (const auto& r : ctx.access[j].explicit_regs) defs += r.is_def;
    size_t srcs = mi.operands.size() - static_cast<size_t>(defs);
    partial = (mi.mods.op_sel >> srcs) & 1;  // op_sel's last bit selects the destination half
  }
  if (!partial) return std::nullopt;
  for (const auto& r : ctx.access[j].explicit_regs)
    if (r.is_def) return r.units;
  return std::nullopt;
}

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.valu; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const Access& a = ctx.access[i];
  auto match = [&](size_t j) -> std::optional<int> {
    auto d = forwarded_dst(ctx, j);
    if (!d) return std::nullopt;
    for (const auto& r : a.explicit_regs)
      if (r.units.overlaps(*d)) return 1;
    return std::nullopt;
  };
  need_if(ctx, i, 1, match, [&] { return std::string("a VALU writes part of a VGPR (dst_sel/op_sel) that this VALU accesses"); }, out);
}

}  // namespace

const HazardRule kDstSelForwarding{"dst-sel-forwarding", &consumer, &check};

}  // namespace cdnajit::passes::hazards
