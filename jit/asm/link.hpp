// In-process link of a relocatable AMDGPU object into a loadable code object
// (what clang runs for amdgcn: `ld.lld -shared`), using lld as a library.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit {

// Links `relocatable_object` (from assemble()) into code object bytes that
// hipModuleLoadData and the simulator's loader accept. Throws cdnajit::Error
// carrying lld's own messages if the input is not a valid AMDGPU object or the
// link fails. lld is not re-entrant: calls are serialised on a global mutex and
// each runs in a private temporary directory that is removed afterwards. If
// lld ever reports that it cannot run again in this process, later calls use
// the ld.lld executable instead (see subprocess_toolchain.hpp).
std::vector<uint8_t> link_code_object(std::span<const uint8_t> relocatable_object, Arch arch);

// False once lld has reported that it cannot run again in this process (after
// it recovered from a fatal error); links then go through the ld.lld executable.
bool in_process_linker_available();

}  // namespace cdnajit
