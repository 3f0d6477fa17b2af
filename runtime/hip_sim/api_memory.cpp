// Memory: device allocations in the simulator's memory; host and managed
// allocations are host memory the kernels can address (Memory::alloc_host_visible), and so is
// host memory the program registers (hipHostRegister, Memory::register_host).
// Copies and fills run when called; the async forms have completed on return.
#include <cstdio>
#include <cstring>

#include "jit/isa/error.hpp"
#include "runtime/hip_sim/runtime.hpp"

namespace cdnajit::hip_sim {
namespace {

// Pinned host memory (hipHostMalloc and its aliases) is resident when allocated, as on a GPU system
// (the driver pins its pages): its pages are touched now, so the host work that first reads it
// (timed between calls, Runtime::enter_call) pays no page faults a pinned buffer would not.
enum class Pinned : bool { no, yes };

hipError_t allocate(Runtime& rt, void** ptr, size_t size, bool host_visible, const char* api, Pinned pinned = Pinned::no) {
  if (!ptr) return rt.fail(hipErrorInvalidValue, api, "null pointer");
  *ptr = nullptr;
  if (size == 0) return hipSuccess;  // as ROCm: success and a null pointer
  try {
    sim::Memory& mem = rt.sim().memory();
    uint64_t base = host_visible ? mem.alloc_host_visible(size) : mem.alloc(size);
    rt.allocations[base] = host_visible;
    if (pinned == Pinned::yes) std::memset(reinterpret_cast<void*>(base), 0, size);
    *ptr = reinterpret_cast<void*>(base);
    return hipSuccess;
  } catch (const Error& e) {
    return rt.fail(hipErrorOutOfMemory, api, e.what());
  }
}

hipError_t release(Runtime& rt, void* ptr, const char* api) {
  if (!ptr) return hipSuccess;
  auto it = rt.allocations.find(reinterpret_cast<uint64_t>(ptr));
  if (it == rt.allocations.end())
    return rt.fail(hipErrorInvalidValue, api, "pointer is not the start of an allocation of this runtime");
  rt.sim().memory().free(it->first);
  rt.allocations.erase(it);
  return hipSuccess;
}

// Which side of a copy must be device memory.
bool dst_on_device(hipMemcpyKind k) { return k == hipMemcpyHostToDevice || k == hipMemcpyDeviceToDevice; }
bool src_on_device(hipMemcpyKind k) { return k == hipMemcpyDeviceToHost || k == hipMemcpyDeviceToDevice; }

hipError_t copy(Runtime& rt, void* dst, const void* src, size_t n, hipMemcpyKind kind, hipStream_t stream, const char* api) {
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault)
    return rt.fail(hipErrorInvalidMemcpyDirection, api, "kind " + std::to_string(int(kind)));
  if (rt.sticky_error != hipSuccess) return rt.sticky_error;
  if (n == 0) return hipSuccess;
  std::string why;
  uint8_t* d = rt.resolve(dst, n, !dst_on_device(kind), &why);
  if (!d) return rt.fail(hipErrorInvalidValue, api, "destination: " + why);
  const uint8_t* s = rt.resolve(src, n, !src_on_device(kind), &why);
  if (!s) return rt.fail(hipErrorInvalidValue, api, "source: " + why);
  std::memmove(d, s, n);
  return hipSuccess;
}

// Fills `count` elements of `width` bytes with the low bytes of `value`.
hipError_t fill(Runtime& rt, void* dst, uint32_t value, size_t count, size_t width, hipStream_t stream, const char* api) {
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  if (rt.sticky_error != hipSuccess) return rt.sticky_error;
  if (count == 0) return hipSuccess;
  std::string why;
  uint8_t* d = rt.resolve(dst, count * width, false, &why);
  if (!d) return rt.fail(hipErrorInvalidValue, api, why);
  if (width == 1) {
    std::memset(d, int(value & 0xff), count);
  } else {
    for (size_t i = 0; i < count; ++i) std::memcpy(d + i * width, &value, width);
  }
  return hipSuccess;
}

}  // namespace
}  // namespace cdnajit::hip_sim

using namespace cdnajit::hip_sim;

extern "C" {

hipError_t hipMalloc(void** ptr, size_t size) {
  HIP_SIM_ENTER();
  return allocate(rt, ptr, size, false, "hipMalloc");
}
hipError_t hipMallocManaged(void** ptr, size_t size, unsigned int) {
  HIP_SIM_ENTER();
  return allocate(rt, ptr, size, true, "hipMallocManaged");
}
// Stream-ordered allocation: every stream's work has completed when its call returns (launches and
// copies run when called), so allocating and freeing at once is the stream order.
hipError_t hipMallocAsync(void** ptr, size_t size, hipStream_t stream) {
  HIP_SIM_ENTER();
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, "hipMallocAsync", "unknown stream");
  return allocate(rt, ptr, size, false, "hipMallocAsync");
}
hipError_t hipFreeAsync(void* ptr, hipStream_t stream) {
  HIP_SIM_ENTER();
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, "hipFreeAsync", "unknown stream");
  return release(rt, ptr, "hipFreeAsync");
}
hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int) {
  HIP_SIM_ENTER();
  return allocate(rt, ptr, size, true, "hipHostMalloc", Pinned::yes);
}
hipError_t hipMallocHost(void** ptr, size_t size) {
  HIP_SIM_ENTER();
  return allocate(rt, ptr, size, true, "hipMallocHost", Pinned::yes);
}
hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int) {
  HIP_SIM_ENTER();
  return allocate(rt, ptr, size, true, "hipHostAlloc", Pinned::yes);
}
hipError_t hipFree(void* ptr) {
  HIP_SIM_ENTER();
  return release(rt, ptr, "hipFree");
}
hipError_t hipHostFree(void* ptr) {
  HIP_SIM_ENTER();
  return release(rt, ptr, "hipHostFree");
}
hipError_t hipFreeHost(void* ptr) {
  HIP_SIM_ENTER();
  return release(rt, ptr, "hipFreeHost");
}
hipError_t hipHostGetDevicePointer(void** dev, void* host, unsigned int) {
  HIP_SIM_ENTER();
  if (!dev) return rt.fail(hipErrorInvalidValue, "hipHostGetDevicePointer", "null pointer");
  const cdnajit::sim::Memory::Block* b = rt.sim().memory().find(reinterpret_cast<uint64_t>(host), 1);
  if (!b || !b->host_visible)
    return rt.fail(hipErrorInvalidValue, "hipHostGetDevicePointer",
                   "not inside a hipHostMalloc allocation or a hipHostRegister range");
  *dev = host;  // host-visible memory has one address for both sides
  return hipSuccess;
}

// Registered host memory: the caller's range becomes host-visible simulated memory at its own
// address (sim::Memory::register_host), so kernels and copies use the host pointer as it is.
hipError_t hipHostRegister(void* host, size_t size, unsigned int flags) {
  HIP_SIM_ENTER();
  const char* api = "hipHostRegister";
  if (!host || size == 0) return rt.fail(hipErrorInvalidValue, api, "a null pointer or 0 bytes");
  if (flags & ~unsigned(hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory))
    return rt.fail(hipErrorInvalidValue, api, "unknown flags " + std::to_string(flags));
  cdnajit::sim::Memory& mem = rt.sim().memory();
  const uint64_t a = reinterpret_cast<uint64_t>(host);
  // Overlapping a range registered before has its own error; any other overlap (memory this runtime
  // allocated) register_host refuses, naming the allocation.
  for (uint64_t base : rt.registered)
    if (const cdnajit::sim::Memory::Block* b = mem.find(base, 1); b && base < a + size && a < base + b->size)
      return rt.fail(hipErrorHostMemoryAlreadyRegistered, api, "the range overlaps '" + b->name + "', registered before");
  try {
    char name[48];
    std::snprintf(name, sizeof name, "hipHostRegister %#llx", static_cast<unsigned long long>(a));
    rt.registered.insert(mem.register_host(host, size, name));
  } catch (const cdnajit::Error& e) {
    return rt.fail(hipErrorInvalidValue, api, e.what());
  }
  return hipSuccess;
}
hipError_t hipHostUnregister(void* host) {
  HIP_SIM_ENTER();
  auto it = rt.registered.find(reinterpret_cast<uint64_t>(host));
  if (it == rt.registered.end())
    return rt.fail(hipErrorHostMemoryNotRegistered, "hipHostUnregister", "not the start of a hipHostRegister range");
  rt.sim().memory().free(*it);  // forgets the range; the bytes stay the caller's
  rt.registered.erase(it);
  return hipSuccess;
}

hipError_t hipMemcpy(void* dst, const void* src, size_t n, hipMemcpyKind kind) {
  HIP_SIM_ENTER();
  return copy(rt, dst, src, n, kind, nullptr, "hipMemcpy");
}
hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t n, hipMemcpyKind kind, hipStream_t stream) {
  HIP_SIM_ENTER();
  return copy(rt, dst, src, n, kind, stream, "hipMemcpyWithStream");
}
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t n, hipMemcpyKind kind, hipStream_t stream) {
  HIP_SIM_ENTER();
  return copy(rt, dst, src, n, kind, stream, "hipMemcpyAsync");
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t n) {
  HIP_SIM_ENTER();
  return copy(rt, dst, src, n, hipMemcpyHostToDevice, nullptr, "hipMemcpyHtoD");
}
hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t n) {
  HIP_SIM_ENTER();
  return copy(rt, dst, src, n, hipMemcpyDeviceToHost, nullptr, "hipMemcpyDtoH");
}
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t n) {
  HIP_SIM_ENTER();
  return copy(rt, dst, src, n, hipMemcpyDeviceToDevice, nullptr, "hipMemcpyDtoD");
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t n, hipStream_t stream) {
  HIP_SIM_ENTER();
  return copy(rt, dst, src, n, hipMemcpyHostToDevice, stream, "hipMemcpyHtoDAsync");
}
hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t n, hipStream_t stream) {
  HIP_SIM_ENTER();
  return copy(rt, dst, src, n, hipMemcpyDeviceToHost, stream, "hipMemcpyDtoHAsync");
}
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t n, hipStream_t stream) {
  HIP_SIM_ENTER();
  return copy(rt, dst, src, n, hipMemcpyDeviceToDevice, stream, "hipMemcpyDtoDAsync");
}

hipError_t hipMemset(void* dst, int value, size_t n) {
  HIP_SIM_ENTER();
  return fill(rt, dst, uint32_t(value), n, 1, nullptr, "hipMemset");
}
hipError_t hipMemsetAsync(void* dst, int value, size_t n, hipStream_t stream) {
  HIP_SIM_ENTER();
  return fill(rt, dst, uint32_t(value), n, 1, stream, "hipMemsetAsync");
}
hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) {
  HIP_SIM_ENTER();
  return fill(rt, dst, value, count, 1, nullptr, "hipMemsetD8");
}
hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream) {
  HIP_SIM_ENTER();
  return fill(rt, dst, value, count, 1, stream, "hipMemsetD8Async");
}
hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count) {
  HIP_SIM_ENTER();
  return fill(rt, dst, value, count, 2, nullptr, "hipMemsetD16");
}
hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream) {
  HIP_SIM_ENTER();
  return fill(rt, dst, value, count, 2, stream, "hipMemsetD16Async");
}
hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  HIP_SIM_ENTER();
  return fill(rt, dst, uint32_t(value), count, 4, nullptr, "hipMemsetD32");
}
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream) {
  HIP_SIM_ENTER();
  return fill(rt, dst, uint32_t(value), count, 4, stream, "hipMemsetD32Async");
}

// Hints about managed memory: managed memory is host memory every kernel addresses directly
// here, so there is nothing to move or to advise; the arguments are checked as ROCm checks them.
hipError_t hipMemPrefetchAsync(const void* p, size_t count, int device, hipStream_t stream) {
  HIP_SIM_ENTER();
  const char* api = "hipMemPrefetchAsync";
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  if (device != 0 && device != hipCpuDeviceId)
    return rt.fail(hipErrorInvalidDevice, api, "device " + std::to_string(device) + "; valid: 0 or hipCpuDeviceId");
  const cdnajit::sim::Memory::Block* b = rt.sim().memory().find(reinterpret_cast<uint64_t>(p), count);
  if (!b || !b->host_visible) return rt.fail(hipErrorInvalidValue, api, "not a range of one hipMallocManaged allocation");
  return hipSuccess;
}
hipError_t hipMemAdvise(const void* p, size_t count, hipMemoryAdvise advice, int device) {
  HIP_SIM_ENTER();
  const char* api = "hipMemAdvise";
  if (device != 0 && device != hipCpuDeviceId)
    return rt.fail(hipErrorInvalidDevice, api, "device " + std::to_string(device) + "; valid: 0 or hipCpuDeviceId");
  if (advice < hipMemAdviseSetReadMostly || (advice > hipMemAdviseUnsetAccessedBy && advice != hipMemAdviseSetCoarseGrain &&
                                             advice != hipMemAdviseUnsetCoarseGrain))
    return rt.fail(hipErrorInvalidValue, api, "advice " + std::to_string(int(advice)));
  const cdnajit::sim::Memory::Block* b = rt.sim().memory().find(reinterpret_cast<uint64_t>(p), count);
  if (!b || !b->host_visible) return rt.fail(hipErrorInvalidValue, api, "not a range of one hipMallocManaged allocation");
  return hipSuccess;
}

// What a pointer is: device memory (hipMalloc, a code object's variables), or host memory kernels
// address directly (hipHostMalloc and hipMallocManaged alike: one address for both sides,
// reported as host memory, isManaged 0).
hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr) {
  HIP_SIM_ENTER();
  const char* api = "hipPointerGetAttributes";
  if (!attributes || !ptr) return rt.fail(hipErrorInvalidValue, api, "null pointer");
  const cdnajit::sim::Memory::Block* b = rt.sim().memory().find(reinterpret_cast<uint64_t>(ptr), 1);
  if (!b) return rt.fail(hipErrorInvalidValue, api, "not memory of this runtime (plain host memory?)");
  std::memset(attributes, 0, sizeof *attributes);
  attributes->memoryType = b->host_visible ? hipMemoryTypeHost : hipMemoryTypeDevice;
  attributes->device = 0;
  attributes->devicePointer = const_cast<void*>(ptr);
  attributes->hostPointer = b->host_visible ? const_cast<void*>(ptr) : nullptr;
  return hipSuccess;
}

}  // extern "C"
