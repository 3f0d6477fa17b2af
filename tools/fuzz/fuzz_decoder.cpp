// libFuzzer target: the simulator's decoder on arbitrary instruction bytes.
// Input: byte 0 picks the arch (even: gfx942, odd: gfx950), the rest is the
// kernel's code, decoded exactly as Simulator::disassemble does for a loaded
// code object (so a length that ends mid-instruction is exercised too).
#include <cstddef>
#include <cstdint>

#include "jit/isa/error.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  cdnajit::CodeObject co;
  co.arch = (data[0] & 1) ? cdnajit::Arch::gfx950 : cdnajit::Arch::gfx942;
  co.bytes.assign(data, data + size);  // the decode cache's key
  co.text.assign(data + 1, data + size);
  cdnajit::KernelInfo k;
  k.name = "fuzz";
  k.entry_offset = 0;
  k.code_size = co.text.size();
  co.kernels.push_back(k);
  try {
    cdnajit::sim::Simulator sim(co.arch);  // fresh per input: its decode cache would grow without bound
    (void)sim.disassemble(co, "fuzz");
  } catch (const cdnajit::Error&) {
  }
  return 0;
}
