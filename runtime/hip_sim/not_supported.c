/* Weak stubs for the HIP entry points this library does not implement: each
 * says which one was called and fails with hipErrorNotSupported, never
 * succeeding silently. A stub takes no parameters: under the x86-64 System V
 * calling convention a callee may ignore the arguments it is passed, and the
 * int result lands where a hipError_t result is expected. The implemented
 * entry points (strong definitions in the api_*.cpp files) replace their stubs
 * when the library is linked. */
#include <stddef.h>

int cdnajit_hip_sim_not_supported(const char* name); /* runtime.cpp: message + last error */

#define HIP_SIM_NOT_SUPPORTED(name) \
  __attribute__((weak)) int name(void) { return cdnajit_hip_sim_not_supported(#name); }
#define HIP_SIM_NOT_SUPPORTED_PTR(name) \
  __attribute__((weak)) const char* name(void) {  \
    cdnajit_hip_sim_not_supported(#name);         \
    return NULL;                                  \
  }
#include "not_supported_names.inc"
