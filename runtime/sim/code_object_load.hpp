// Placing a code object in simulated device memory, as the HSA code-object loader does: its
// PT_LOAD segments copied to one allocation (the rest zero: .bss), the dynamic relocations
// applied against that base, and the base recorded in CodeObject::load_address so that a
// kernel's s_getpc_b64 returns the base + .text's address + the instruction's offset. The
// PC-relative references clang emits for globals (s_getpc_b64 + s_add_u32/s_addc_u32 of the
// link-time resolved R_AMDGPU_REL32_LO/HI) then reach the variable's copy, as on a GPU.
#pragma once
#include <cstdint>

#include "runtime/sim/code_object.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit::sim {

// Maps the image (once: a mapped code object is left as it is) and returns its base. Throws
// cdnajit::Error for a relocation it cannot apply (its type, an undefined symbol, a patch
// outside the image), naming it; nothing stays allocated then.
uint64_t map_code_object(Memory& mem, CodeObject& co);
// Frees the image's allocation; the code object is unmapped again.
void unmap_code_object(Memory& mem, CodeObject& co);

}  // namespace cdnajit::sim
