// hipGetLastError, hipPeekAtLastError, hipGetErrorName, hipGetErrorString.
#include "runtime/hip_sim/runtime.hpp"

namespace {

struct ErrorText {
  hipError_t code;
  const char* name;
  const char* text;
};

// The names are the enumerators of hip_runtime_api.h; the texts are this library's.
#define E(n, t) {n, #n, t}
constexpr ErrorText kErrors[] = {
    E(hipSuccess, "no error"),
    E(hipErrorInvalidValue, "invalid argument"),
    E(hipErrorOutOfMemory, "out of memory"),
    E(hipErrorNotInitialized, "initialization error"),
    E(hipErrorInvalidConfiguration, "invalid launch configuration"),
    E(hipErrorInvalidSymbol, "invalid device symbol"),
    E(hipErrorInvalidDevicePointer, "invalid device pointer"),
    E(hipErrorInvalidMemcpyDirection, "invalid copy direction"),
    E(hipErrorMissingConfiguration, "no launch configuration pushed"),
    E(hipErrorInvalidDeviceFunction, "invalid device function"),
    E(hipErrorNoDevice, "no device (CDNAJIT_HIP_DEVICE / CDNAJIT_HIP_MODEL invalid)"),
    E(hipErrorInvalidDevice, "invalid device ordinal"),
    E(hipErrorInvalidImage, "device kernel image is invalid"),
    E(hipErrorNoBinaryForGpu, "no kernel image is available for execution on the device"),
    E(hipErrorInvalidKernelFile, "invalid kernel file"),
    E(hipErrorFileNotFound, "file not found"),
    E(hipErrorInvalidHandle, "invalid resource handle"),
    E(hipErrorNotFound, "named symbol not found"),
    E(hipErrorNotReady, "device not ready"),
    E(hipErrorIllegalAddress, "an illegal memory access was encountered"),
    E(hipErrorLaunchOutOfResources, "too many resources requested for launch"),
    E(hipErrorLaunchTimeOut, "the launch timed out and was terminated"),
    E(hipErrorLaunchFailure, "unspecified launch failure"),
    E(hipErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch"),
    E(hipErrorHostMemoryAlreadyRegistered, "part or all of the requested memory range is already mapped"),
    E(hipErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region"),
    E(hipErrorNotSupported, "operation not supported"),
    E(hipErrorUnknown, "unknown error"),
};
#undef E

const ErrorText* find(hipError_t e) {
  for (const auto& t : kErrors)
    if (t.code == e) return &t;
  return nullptr;
}

}  // namespace

extern "C" {

hipError_t hipGetLastError() {
  auto& rt = cdnajit::hip_sim::Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  hipError_t e = rt.last_error;
  rt.last_error = hipSuccess;
  return e;
}

hipError_t hipPeekAtLastError() {
  auto& rt = cdnajit::hip_sim::Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  return rt.last_error;
}

const char* hipGetErrorName(hipError_t e) {
  const ErrorText* t = find(e);
  return t ? t->name : "hipErrorUnknown";
}

const char* hipGetErrorString(hipError_t e) {
  const ErrorText* t = find(e);
  return t ? t->text : "unknown error";
}

}  // extern "C"
