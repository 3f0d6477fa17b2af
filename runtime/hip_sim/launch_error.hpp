// Which HIP error a real device gives for a kernel the simulator stopped.
#pragma once
#include <hip/hip_runtime_api.h>

#include "runtime/sim/simulator.hpp"

namespace cdnajit::hip_sim {

// A memory access outside every allocation (or to an aperture the kernel may not use) is a GPU
// page fault: ROCm reports hipErrorIllegalAddress. The wall-clock limit is a watchdog timeout
// (hipErrorLaunchTimeOut). Every other finding of the simulator's checkers (a read before its
// s_waitcnt, a deadlock, an exhausted instruction budget, an unmodelled instruction) has no
// hardware counterpart that names it; it is reported as hipErrorLaunchFailure, the error ROCm
// gives a kernel that aborts. (A GPU that deadlocks hangs until the watchdog; the simulator
// proves the deadlock and stops at once.)
// A workgroup that does not fit on a CU (registers; runtime/sim/residency.cpp) is
// hipErrorLaunchOutOfResources, the error HIP names for "too many resources requested for
// launch" (hip_runtime_api.h; HIP on NVIDIA maps cudaErrorLaunchOutOfResources, which CUDA returns
// for a block too large for the kernel's register count, to it). ROCm itself accepts such a launch
// and its queue then fails with HSA_STATUS_ERROR_OUT_OF_REGISTERS / _INVALID_ISA (ROCR-Runtime
// amd_aql_queue.cpp), on which ROCm's HIP runtime aborts the process (ROCclr rocdevice.cpp,
// callbackQueue: "Abort on device exceptions"); the simulator's runtime, which never aborts,
// returns the error instead and, as nothing ran, leaves the device usable.
inline hipError_t launch_error_code(sim::LaunchError::Kind kind) {
  switch (kind) {
    case sim::LaunchError::Kind::OutOfBounds: return hipErrorIllegalAddress;
    case sim::LaunchError::Kind::TimeLimit: return hipErrorLaunchTimeOut;
    case sim::LaunchError::Kind::OutOfResources: return hipErrorLaunchOutOfResources;
    case sim::LaunchError::Kind::UnwaitedRead:
    case sim::LaunchError::Kind::Deadlock:
    case sim::LaunchError::Kind::Other: break;
  }
  return hipErrorLaunchFailure;
}

}  // namespace cdnajit::hip_sim
