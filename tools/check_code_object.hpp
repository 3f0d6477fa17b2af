// `cdnajit check`: static findings for any code object (clang's, hand-written,
// another JIT's) without running it: the wait-count and hazard verifiers of
// jit/passes (Verify mode) and the simulator's decode coverage (every
// instruction decodes to a handler).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cdnajit {

struct CheckFinding {
  std::string kernel;
  uint64_t pc = 0;       // byte offset from the kernel entry
  std::string inst;      // the instruction as disassembled
  std::string rule;      // "sim-coverage", "decode", "not-modelled", "waitcnt", "waitcnt-lds-dma", "end-of-code", "workitem-id", or a hazard rule name
  std::string message;
};

struct CheckResult {
  std::vector<std::string> kernels;  // the kernels checked
  size_t instructions = 0;           // instructions checked over all kernels
  std::vector<CheckFinding> findings;
};

// The instructions of kernel `kernel` that reach outside what the simulator models. `cdnajit run`
// maps the code object's image into simulated memory with its relocations applied (as the HSA
// loader and the drop-in HIP runtime do, runtime/sim/code_object_load.hpp), so PC-relative
// addresses (s_getpc_b64, then s_add_u32 / s_addc_u32 with the rel32 offsets the linker resolved)
// of __device__ / __constant__ variables and other data of the image are modelled. Not modelled:
// such an address outside the image, and a call or jump (s_swappc_b64, s_setpc_b64, s_call_b64) to
// anything but a known address inside the kernel (the simulator runs no other function). One
// finding (rule "not-modelled") per instruction, naming what it reaches. `check` reports them;
// `run` refuses such a kernel on the simulator before running it. Throws cdnajit::Error for an
// unreadable code object or an unknown kernel.
std::vector<CheckFinding> not_modelled_findings(const std::vector<uint8_t>& code_object, const std::string& kernel);

// Checks every kernel of the code object, or only `kernel` when it is not empty.
// `block` (work-items per workgroup x, y, z), when given, is the launch the kernels are meant for:
// a kernel that reads its work-item ids but is launched with more than one work-item in a
// dimension its descriptor does not enable is a "workitem-id" finding (those ids read as zero).
// Throws cdnajit::Error for an unreadable code object or an unknown kernel name.
CheckResult check_code_object(const std::vector<uint8_t>& code_object, const std::string& kernel = "",
                              const std::array<uint32_t, 3>* block = nullptr);

}  // namespace cdnajit
