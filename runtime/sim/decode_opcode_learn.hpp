// Learning the opcode map (decode_opcode_map.hpp) from LLVM: each table row's sample instance
// (jit/isa/sample_inst.hpp) is assembled by the in-process LLVM MC assembler (jit/asm) and the
// opcode field of the bytes it produces is read (decode_format.hpp). VOP1 / VOP2 / VOPC rows are
// also assembled in their VOP3 (_e64) form, which has its own opcode number. Run at build time
// by gen_opcode_map, which writes the generated table the simulator reads; the tests run it
// again to check that table is current.
#pragma once
#include <memory>

#include "runtime/sim/decode_opcode_map.hpp"

namespace cdnajit::sim {

// Throws Error if LLVM cannot assemble the samples at all.
std::unique_ptr<OpcodeMap> learn_opcode_map(Arch arch);

}  // namespace cdnajit::sim
