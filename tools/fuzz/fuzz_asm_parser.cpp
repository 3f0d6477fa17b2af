// libFuzzer target: isa::parse (one line of AMDGPU assembly) and, when it
// parses, isa::print of the result. Both must return normally on any input.
#include <cstddef>
#include <cstdint>
#include <string>

#include "jit/isa/error.hpp"
#include "jit/isa/machine_inst.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string line(reinterpret_cast<const char*>(data), size);
  cdnajit::isa::MachineInst mi;
  std::string error;
  try {
    if (cdnajit::isa::parse(line, mi, error)) (void)cdnajit::isa::print(mi);
  } catch (const cdnajit::Error&) {
  }
  return 0;
}
