// Shared by the HIP test programs: stop with a message on any HIP error.
#pragma once
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                 \
  do {                                                                                              \
    hipError_t e_ = (call);                                                                         \
    if (e_ != hipSuccess) {                                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call, hipGetErrorString(e_), \
                   hipGetErrorName(e_));                                                            \
      std::exit(1);                                                                                 \
    }                                                                                               \
  } while (0)
