// Pitched (2-D) memory: hipMallocPitch and the row-by-row copies and fills. A pitched
// allocation is an ordinary device allocation of pitch x height bytes.
#include <cstring>

#include "jit/isa/error.hpp"
#include "runtime/hip_sim/runtime.hpp"

namespace cdnajit::hip_sim {
namespace {

// Row pitch of hipMallocPitch: the width rounded up to 256 bytes, so every row starts at an
// alignment any vector access of a row needs. (ROCm rounds to its device's image pitch
// alignment; programs must use the returned pitch either way.)
constexpr size_t kPitchAlignment = 256;

hipError_t malloc_pitch(Runtime& rt, void** ptr, size_t* pitch, size_t width, size_t height, const char* api) {
  if (!ptr || !pitch) return rt.fail(hipErrorInvalidValue, api, "null pointer");
  *ptr = nullptr;
  *pitch = (width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
  if (width == 0 || height == 0) return hipSuccess;
  if (height > SIZE_MAX / *pitch) return rt.fail(hipErrorOutOfMemory, api, "pitch x height overflows");
  try {
    const uint64_t base = rt.sim().memory().alloc(*pitch * height);
    rt.allocations[base] = false;
    *ptr = reinterpret_cast<void*>(base);
    return hipSuccess;
  } catch (const Error& e) {
    return rt.fail(hipErrorOutOfMemory, api, e.what());
  }
}

// The bytes of `height` rows of `width` bytes, `pitch` apart, from p: one allocation (or host
// memory when host_ok), checked as a whole.
uint8_t* rows(Runtime& rt, const void* p, size_t pitch, size_t width, size_t height, bool host_ok, const char* side,
              const char* api, hipError_t* e) {
  std::string why;
  uint8_t* q = rt.resolve(p, pitch * (height - 1) + width, host_ok, &why);
  if (!q) *e = rt.fail(hipErrorInvalidValue, api, std::string(side) + ": " + why);
  return q;
}

hipError_t copy_2d(Runtime& rt, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                   hipMemcpyKind kind, hipStream_t stream, const char* api) {
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault)
    return rt.fail(hipErrorInvalidMemcpyDirection, api, "kind " + std::to_string(int(kind)));
  if (width > dpitch || width > spitch)
    return rt.fail(hipErrorInvalidValue, api,
                   "width " + std::to_string(width) + " exceeds dpitch " + std::to_string(dpitch) + " or spitch " +
                       std::to_string(spitch));
  if (rt.sticky_error != hipSuccess) return rt.sticky_error;
  if (width == 0 || height == 0) return hipSuccess;
  if (height - 1 > (SIZE_MAX - width) / std::max(dpitch, spitch)) return rt.fail(hipErrorInvalidValue, api, "extent overflows");
  hipError_t e = hipSuccess;
  const bool dst_dev = kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice;
  const bool src_dev = kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice;
  uint8_t* d = rows(rt, dst, dpitch, width, height, !dst_dev, "destination", api, &e);
  if (!d) return e;
  const uint8_t* s = rows(rt, src, spitch, width, height, !src_dev, "source", api, &e);
  if (!s) return e;
  for (size_t r = 0; r < height; ++r) std::memmove(d + r * dpitch, s + r * spitch, width);
  return hipSuccess;
}

hipError_t fill_2d(Runtime& rt, void* dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream,
                   const char* api) {
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  if (width > pitch)
    return rt.fail(hipErrorInvalidValue, api, "width " + std::to_string(width) + " exceeds pitch " + std::to_string(pitch));
  if (rt.sticky_error != hipSuccess) return rt.sticky_error;
  if (width == 0 || height == 0) return hipSuccess;
  if (height - 1 > (SIZE_MAX - width) / pitch) return rt.fail(hipErrorInvalidValue, api, "extent overflows");
  hipError_t e = hipSuccess;
  uint8_t* d = rows(rt, dst, pitch, width, height, false, "destination", api, &e);
  if (!d) return e;
  for (size_t r = 0; r < height; ++r) std::memset(d + r * pitch, value & 0xff, width);
  return hipSuccess;
}

}  // namespace
}  // namespace cdnajit::hip_sim

using namespace cdnajit::hip_sim;

extern "C" {

hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  HIP_SIM_ENTER();
  return malloc_pitch(rt, ptr, pitch, width, height, "hipMallocPitch");
}
hipError_t hipMemAllocPitch(hipDeviceptr_t* dptr, size_t* pitch, size_t width, size_t height, unsigned int) {
  HIP_SIM_ENTER();
  return malloc_pitch(rt, dptr, pitch, width, height, "hipMemAllocPitch");
}
hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       hipMemcpyKind kind) {
  HIP_SIM_ENTER();
  return copy_2d(rt, dst, dpitch, src, spitch, width, height, kind, nullptr, "hipMemcpy2D");
}
hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream) {
  HIP_SIM_ENTER();
  return copy_2d(rt, dst, dpitch, src, spitch, width, height, kind, stream, "hipMemcpy2DAsync");
}
hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
  HIP_SIM_ENTER();
  return fill_2d(rt, dst, pitch, value, width, height, nullptr, "hipMemset2D");
}
hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream) {
  HIP_SIM_ENTER();
  return fill_2d(rt, dst, pitch, value, width, height, stream, "hipMemset2DAsync");
}

}  // extern "C"
