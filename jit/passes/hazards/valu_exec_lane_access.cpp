// | arch            | first instruction              | second instruction                                  | wait states |
// |-----------------|--------------------------------|-----------------------------------------------------|-------------|
// | gfx942, gfx950  | VALU writes EXEC (v_cmpx_*)    | v_readlane_b32 / v_readfirstlane_b32 / v_writelane_b32 | 4        |
// Source: LLVM GCNHazardRecognizer::checkVALUHazards, hasVDecCoExecHazard:
// VALUWriteEXECRWLane = 4; rocRoller VCMPXWrite94x.
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  const isa::Opcode op = ctx.is(i).opcode;
  if (op != isa::Opcode::v_readlane_b32 && op != isa::Opcode::v_readfirstlane_b32 && op != isa::Opcode::v_writelane_b32)
    return;
  if (!ctx.valu_written.overlaps(kExecUnits)) return;  // no VALU writes exec: no source
  std::string_view m = ctx.is(i).mnemonic;
  need_if(ctx, i, 4, valu_writes(ctx, kExecUnits, 4), [&] { return std::string("VALU writes exec, which " + std::string(m) + " depends on"); }, out);
}

}  // namespace

const HazardRule kValuExecLaneAccess{"valu-exec-lane-access", &check};

}  // namespace cdnajit::passes::hazards
