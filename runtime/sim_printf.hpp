// The device printf buffer of a launch on the simulator (the format: runtime/device_printf.hpp).
//
// A kernel compiled with buffered printf (cdnajit-hipcc) reads the buffer's address from its hidden
// argument hidden_printf_buffer. Every simulator launch path gives it one: the drop-in HIP runtime
// and the simulator device of runtime/device.hpp (cdnajit run, the C++ API). On a GPU the argument
// is left to ROCm's launch (not checked here: no GPU).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "jit/codeobject/code_object.hpp"

namespace cdnajit {

namespace sim {
class Memory;
}

// For the scope of one launch: when `kernel` has a hidden_printf_buffer argument, its slot in
// `kernarg` gets the buffer, emptied (allocated in `memory` at the first use: `buffer` holds its
// address, 0 before, and keeps it for the next launches). When the scope ends, also by an exception
// (a failed launch prints what it printed before it failed), the frames go to stdout (stderr for
// stderr frames); a buffer that cannot be read is reported on stderr. A kernel without the argument
// (or with a slot outside `kernarg`): nothing. Throws cdnajit::Error when the buffer cannot be allocated.
class SimPrintfScope {
 public:
  SimPrintfScope(sim::Memory& memory, uint64_t& buffer, const KernelInfo& kernel, std::span<uint8_t> kernarg,
                 const std::vector<std::string>& formats);
  ~SimPrintfScope();
  SimPrintfScope(const SimPrintfScope&) = delete;
  SimPrintfScope& operator=(const SimPrintfScope&) = delete;
  bool active() const { return active_; }  // the kernel prints

 private:
  sim::Memory& memory_;
  uint64_t buffer_ = 0;
  const std::vector<std::string>& formats_;
  bool active_ = false;
};

}  // namespace cdnajit
