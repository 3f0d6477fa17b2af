// | arch            | first instruction | second instruction                                | wait states |
// |-----------------|-------------------|---------------------------------------------------|-------------|
// | gfx942, gfx950  | VALU writes VGPR  | v_readlane_b32 / v_readfirstlane_b32 reads it (src0) | 1        |
// Source: LLVM GCNHazardRecognizer::checkVALUHazards, hasVDecCoExecHazard:
// VALUWriteVGPRReadlaneRead = 1; rocRoller VALUWriteReadlane94x.
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.opcode == isa::Opcode::v_readlane_b32 || f.opcode == isa::Opcode::v_readfirstlane_b32; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  std::string_view m = ctx.is(i).mnemonic;
  auto src = reg_operand(ctx, i, 1);
  if (!src || !is_vgpr_unit(src->first)) return;
  need_if(ctx, i, 1, valu_writes(ctx, *src, 1), [&] { return std::string("VALU writes " + range_name(*src) + ", which " + std::string(m) + " reads"); },
          out);
}

}  // namespace

const HazardRule kValuVgprReadlane{"valu-vgpr-readlane", &consumer, &check};

}  // namespace cdnajit::passes::hazards
