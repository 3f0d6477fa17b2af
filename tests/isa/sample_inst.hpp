// Builds one valid sample instruction per table entry from its operand specs,
// so the table can be checked against LLVM MC.
#pragma once
#include "jit/isa/machine_inst.hpp"

namespace cdnajit::isa::test {

// Registers are aligned as gfx90a+ wants (even VGPR/AGPR tuples, even SGPR
// pairs, 4-aligned SGPR quads and wider). With `with_mods`, every modifier the
// entry claims (info.mods) is set to a non-default value.
MachineInst sample_instruction(const InstrInfo& info, bool with_mods);

// The label the samples branch to; define it after the samples.
inline constexpr const char* kSampleLabel = ".Lsample_target";

}  // namespace cdnajit::isa::test
