// | arch            | first instruction | second instruction                                | wait states |
// |-----------------|-------------------|---------------------------------------------------|-------------|
// | gfx942, gfx950  | VALU writes VGPR  | v_readlane_b32 / v_readfirstlane_b32 reads it (src0) | 1        |
// Source: LLVM GCNHazardRecognizer::checkVALUHazards, hasVDecCoExecHazard:
// VALUWriteVGPRReadlaneRead = 1; rocRoller VALUWriteReadlane94x.
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const isa::Opcode op = ctx.is(i).opcode;
  if (op != isa::Opcode::v_readlane_b32 && op != isa::Opcode::v_readfirstlane_b32) return;
  std::string_view m = ctx.is(i).mnemonic;
  auto src = reg_operand(ctx, i, 1);
  if (!src || !is_vgpr_unit(src->first)) return;
  need_if(ctx, i, 1, valu_writes(ctx, *src, 1), [&] { return std::string("VALU writes " + range_name(*src) + ", which " + std::string(m) + " reads"); },
          out);
}

}  // namespace

const HazardRule kValuVgprReadlane{"valu-vgpr-readlane", &check};

}  // namespace cdnajit::passes::hazards
