// Which HIP error a real device gives for a kernel the simulator stopped.
#pragma once
#include <hip/hip_runtime_api.h>

#include <string_view>

namespace cdnajit::hip_sim {

// A memory access outside every allocation (or to an aperture the kernel may
// not use) is a GPU page fault: ROCm reports hipErrorIllegalAddress. The wall
// clock limit is a watchdog timeout (hipErrorLaunchTimeOut). Every other
// finding of the simulator's checkers (a read before its s_waitcnt, a barrier
// deadlock, an exhausted instruction budget, an unmodelled instruction) has no
// hardware counterpart that names it; it is reported as hipErrorLaunchFailure,
// the error ROCm gives a kernel that aborts. The simulator's exception carries
// no kind, so its message decides; the phrases are the simulator's
// (runtime/sim/simulator.cpp).
inline hipError_t launch_error_code(std::string_view message) {
  for (std::string_view phrase : {"out-of-bounds", "aperture at "})
    if (message.find(phrase) != std::string_view::npos) return hipErrorIllegalAddress;
  if (message.find("time limit") != std::string_view::npos) return hipErrorLaunchTimeOut;
  return hipErrorLaunchFailure;
}

}  // namespace cdnajit::hip_sim
