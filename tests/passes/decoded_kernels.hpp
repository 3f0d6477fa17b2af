// Test helper: compile a HIP file with clang for one arch, disassemble it with
// llvm-objdump and parse every instruction with isa::parse into one program per kernel
// (decoded form: `address` set, branch targets as Label operands holding addresses).
#pragma once
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"
#include "jit/isa/machine_inst.hpp"

namespace passes_test {

struct DecodedKernel {
  std::string name;
  std::vector<cdnajit::isa::MachineInst> program;
};

// Throws cdnajit::Error if compiling, disassembling or parsing fails.
std::vector<DecodedKernel> compile_and_decode(const std::string& hip_file, cdnajit::Arch arch);

// The same program in builder form: a label_def entry before every branch target and
// branches naming it, so instructions can be removed without breaking the targets.
std::vector<cdnajit::isa::MachineInst> to_label_form(const std::vector<cdnajit::isa::MachineInst>& decoded);

}  // namespace passes_test
