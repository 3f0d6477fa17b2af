// | arch            | first instruction              | second instruction                                  | wait states |
// |-----------------|--------------------------------|-----------------------------------------------------|-------------|
// | gfx942, gfx950  | VALU writes EXEC (v_cmpx_*)    | v_readlane_b32 / v_readfirstlane_b32 / v_writelane_b32 | 4        |
// Source: LLVM GCNHazardRecognizer::checkVALUHazards, hasVDecCoExecHazard:
// VALUWriteEXECRWLane = 4; rocRoller VCMPXWrite94x.
#include "jit/passes/hazards/rules.hpp"

namespace cdnajit::passes::hazards {
namespace {

// The instructions this rule can find a hazard at (hazard_context.hpp, HazardRule::consumer).
bool consumer(const InstFacts& f) { return f.opcode == isa::Opcode::v_readlane_b32 || f.opcode == isa::Opcode::v_readfirstlane_b32 || f.opcode == isa::Opcode::v_writelane_b32; }

void check(const HazardContext& ctx, size_t i, std::vector<HazardNeed>& out) {
  if (!ctx.valu_written.overlaps(kExecUnits)) return;  // no VALU writes exec: no source
  std::string_view m = ctx.is(i).mnemonic;
  need_if(ctx, i, 4, valu_writes(ctx, kExecUnits, 4), [&] { return std::string("VALU writes exec, which " + std::string(m) + " depends on"); }, out);
}

}  // namespace

const HazardRule kValuExecLaneAccess{"valu-exec-lane-access", &consumer, &check};

}  // namespace cdnajit::passes::hazards
