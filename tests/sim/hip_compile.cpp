// The simulator tests' kernels come from the project's own toolchain paths:
// HIP C++ through runtime/hip_source (clang++-22 with runtime/hip_device.h), and
// hand-written assembly through the in-process assembler and linker of jit/asm.
#include "tests/sim/hip_compile.hpp"

#include "jit/asm/assemble.hpp"
#include "jit/asm/link.hpp"
#include "jit/isa/error.hpp"
#include "runtime/hip_source.hpp"

namespace simtest {

// Short names the test kernels use for runtime/hip_device.h's HIP API (that header is the one
// device prelude; these only rename it).
const char* const kPrelude = R"(
static __device__ inline unsigned tid() { return threadIdx.x; }
static __device__ inline unsigned bid() { return blockIdx.x; }
static __device__ inline unsigned bdim() { return blockDim.x; }
static __device__ inline void sync() { __syncthreads(); }
)";

std::vector<uint8_t> compile_hip(const std::string& source, cdnajit::Arch arch, const std::vector<std::string>& flags) {
  return cdnajit::compile_hip_with(cdnajit::HipSourceBackend::Kind::clang, std::string(kPrelude) + source, arch, flags);
}

std::vector<uint8_t> assemble(const std::string& asm_text, cdnajit::Arch arch) {
  cdnajit::AsmResult r = cdnajit::assemble(asm_text, arch);
  if (!r.ok) throw cdnajit::Error("test kernel does not assemble:\n" + cdnajit::format_diagnostics(r.diagnostics));
  return cdnajit::link_code_object(r.object, arch);
}

}  // namespace simtest
