// The per-thread-default-stream entry points (_spt) a program calls when compiled with
// -fgpu-default-stream=per-thread (HIP_API_PER_THREAD_DEFAULT_STREAM: ROCm's
// amd_hip_runtime_pt_api.h maps hipMemcpy to hipMemcpy_spt and so on, and clang's launch stubs call
// hipLaunchKernel_spt). Every stream of this runtime has finished its work when its call returns, so
// a thread's default stream behaves as the null stream does: each forwards to its plain twin (which
// takes the runtime's lock itself).
#include "runtime/hip_sim/runtime.hpp"

extern "C" {

hipError_t hipMemcpy_spt(void* dst, const void* src, size_t n, hipMemcpyKind kind) { return hipMemcpy(dst, src, n, kind); }
hipError_t hipMemcpyAsync_spt(void* dst, const void* src, size_t n, hipMemcpyKind kind, hipStream_t stream) {
  return hipMemcpyAsync(dst, src, n, kind, stream);
}
hipError_t hipMemcpyToSymbol_spt(const void* symbol, const void* src, size_t n, size_t offset, hipMemcpyKind kind) {
  return hipMemcpyToSymbol(symbol, src, n, offset, kind);
}
hipError_t hipMemcpyFromSymbol_spt(void* dst, const void* symbol, size_t n, size_t offset, hipMemcpyKind kind) {
  return hipMemcpyFromSymbol(dst, symbol, n, offset, kind);
}
hipError_t hipMemcpy2D_spt(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                           hipMemcpyKind kind) {
  return hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
hipError_t hipMemset_spt(void* dst, int value, size_t n) { return hipMemset(dst, value, n); }
hipError_t hipMemset2D_spt(void* dst, size_t pitch, int value, size_t width, size_t height) {
  return hipMemset2D(dst, pitch, value, width, height);
}
hipError_t hipStreamQuery_spt(hipStream_t stream) { return hipStreamQuery(stream); }
hipError_t hipStreamSynchronize_spt(hipStream_t stream) { return hipStreamSynchronize(stream); }
hipError_t hipStreamGetPriority_spt(hipStream_t stream, int* priority) { return hipStreamGetPriority(stream, priority); }
hipError_t hipStreamWaitEvent_spt(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  return hipStreamWaitEvent(stream, event, flags);
}
hipError_t hipStreamGetFlags_spt(hipStream_t stream, unsigned int* flags) { return hipStreamGetFlags(stream, flags); }
hipError_t hipEventRecord_spt(hipEvent_t event, hipStream_t stream) { return hipEventRecord(event, stream); }
hipError_t hipLaunchKernel_spt(const void* function, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream) {
  return hipLaunchKernel(function, grid, block, args, shared, stream);
}
hipError_t hipLaunchCooperativeKernel_spt(const void* function, dim3 grid, dim3 block, void** args, uint32_t shared,
                                          hipStream_t stream) {
  return hipLaunchCooperativeKernel(function, grid, block, args, shared, stream);
}

}  // extern "C"
