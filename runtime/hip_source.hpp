// HIP C++ source -> gfx942/gfx950 code object, in process where possible.
//
// Two compilers:
//  - hiprtc from a ROCm >= 6 install (dlopen libhiprtc.so); HIP's own headers
//    are implicit there and cdnajit's extras are prepended.
//  - clang++ 22 as a subprocess (posix_spawn): -x hip --offload-arch=<arch>
//    --cuda-device-only --no-gpu-bundle-output -nogpulib -nogpuinc -O3 with
//    runtime/hip_device.h force-included (it defines the HIP device API).
// hiprtc older than 6 (Debian's 5.2) cannot target gfx942/gfx950 and is never
// called. Env CDNAJIT_HIP_COMPILER=clang|hiprtc forces a choice; env
// CDNAJIT_CLANG overrides the clang++ path (default: the CMake-configured one).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit {

struct HipSourceBackend {
  enum class Kind { hiprtc, clang } kind = Kind::clang;
  std::string compiler;  // "hiprtc 6.2 (libhiprtc.so)" or the clang++ path
  std::string note;      // why hiprtc is not used, when it is not
};
HipSourceBackend hip_source_backend();

// Compiles `source` for `arch`; kernels should be extern "C" to keep their
// names unmangled. Results are cached in memory by (source, arch, flags).
// Throws cdnajit::Error carrying the compiler's diagnostics on failure.
std::vector<uint8_t> compile_hip(std::string_view source, Arch arch,
                                 const std::vector<std::string>& extra_flags = {});

// Same, through a specific compiler (the tests use this to run both paths).
std::vector<uint8_t> compile_hip_with(HipSourceBackend::Kind kind, std::string_view source, Arch arch,
                                      const std::vector<std::string>& extra_flags = {});

// Whether hiprtc >= 6 is usable here; `why_not` gets the reason if not.
bool hiprtc_available(std::string* why_not = nullptr);

// The text of runtime/hip_device.h, as compiled into the library.
std::string_view hip_device_header();

// Number of entries in the in-memory compile cache, and how many times a
// compiler actually ran in this process (for tests and stats).
size_t hip_compile_cache_size();
size_t hip_compiler_runs();

namespace detail {
// The hiprtc path through one explicit library (uncached; for tests with a
// stand-in hiprtc). `why_not` receives the refusal reason, if any, before the
// compile is attempted (a refused library makes the compile throw).
std::vector<uint8_t> compile_hip_with_hiprtc_library(const std::string& library, std::string_view source, Arch arch,
                                                     const std::vector<std::string>& extra_flags = {},
                                                     std::string* why_not = nullptr);
}  // namespace detail

}  // namespace cdnajit
