// Control-flow graph over a MachineInst program: basic blocks split at label
// definitions, branch targets and after branches / s_endpgm.
#pragma once
#include <cstddef>
#include <vector>

#include "jit/isa/machine_inst.hpp"

namespace cdnajit::passes {

struct Block {
  size_t begin = 0, end = 0;  // instruction index range [begin, end)
  std::vector<int> succs, preds;
};

struct Cfg {
  std::vector<Block> blocks;
  std::vector<int> block_of;  // instruction index -> block
  std::vector<int> rpo;       // reverse post-order from the entry, then unreachable blocks
};

// Branch targets: a Label operand naming a `label_def` entry (builder), or, when the label
// name is empty, the absolute byte address in `imm` of an instruction (decoder).
// Throws cdnajit::Error for a target that names nothing in the program.
Cfg build_cfg(const std::vector<isa::MachineInst>& program);

}  // namespace cdnajit::passes
