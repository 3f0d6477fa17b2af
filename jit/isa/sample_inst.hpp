// Builds one valid sample instruction per table entry from its operand specs: the
// tests check the table against LLVM MC with them, and the simulator's binary decoder
// learns each row's opcode numbers by assembling them (runtime/sim/decode_opcode_map.cpp).
#pragma once
#include "jit/isa/machine_inst.hpp"

namespace cdnajit::isa {

// Registers are aligned as gfx90a+ wants (even VGPR/AGPR tuples, even SGPR
// pairs, 4-aligned SGPR quads and wider). With `with_mods`, every modifier the
// entry claims (info.mods) is set to a non-default value.
MachineInst sample_instruction(const InstrInfo& info, bool with_mods);

// The label the samples branch to; define it after the samples.
inline constexpr const char* kSampleLabel = ".Lsample_target";

}  // namespace cdnajit::isa

// The tests' spelling (tests/isa).
namespace cdnajit::isa::test {
using isa::kSampleLabel;
using isa::sample_instruction;
}  // namespace cdnajit::isa::test
