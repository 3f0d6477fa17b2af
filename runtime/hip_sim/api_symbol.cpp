// Device variables (__device__ / __constant__ globals, and __managed__ ones): the registration
// clang's host code emits (__hipRegisterVar: the host shadow variable and the device name), their addresses and
// sizes, and copies to and from them. The variables live in the code object's image, which the
// runtime maps into device memory when it loads the code object (sim::map_code_object), so a
// kernel and these calls see the same bytes.
#include <cstring>

#include "jit/isa/error.hpp"
#include "runtime/hip_sim/runtime.hpp"

namespace cdnajit::hip_sim {
namespace {

// [address + offset, +count) of the variable, or the error.
hipError_t symbol_range(Runtime& rt, const void* symbol, size_t count, size_t offset, uint8_t** out, const char* api) {
  uint64_t address = 0;
  size_t size = 0;
  if (hipError_t e = rt.host_variable(symbol, &address, &size, api); e != hipSuccess) return e;
  if (offset > size || size - offset < count)
    return rt.fail(hipErrorInvalidValue, api,
                   std::to_string(count) + " bytes at offset " + std::to_string(offset) + " leave the variable of " +
                       std::to_string(size) + " bytes");
  std::string why;
  *out = rt.resolve(reinterpret_cast<const void*>(address + offset), count, false, &why);
  if (!*out) return rt.fail(hipErrorInvalidSymbol, api, why);
  return hipSuccess;
}

// One side of a symbol copy: host memory, or device memory for hipMemcpyDeviceToDevice / Default.
hipError_t other_side(Runtime& rt, const void* p, size_t n, hipMemcpyKind kind, hipMemcpyKind host_kind, uint8_t** out,
                      const char* api) {
  if (kind != host_kind && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return rt.fail(hipErrorInvalidMemcpyDirection, api, "kind " + std::to_string(int(kind)));
  std::string why;
  *out = rt.resolve(p, n, kind != hipMemcpyDeviceToDevice, &why);
  if (!*out) return rt.fail(hipErrorInvalidValue, api, why);
  return hipSuccess;
}

enum class Direction { kToSymbol, kFromSymbol };

// Both directions of a symbol copy share the checks (stream, the variable's range, the other
// side's kind) and differ only in which way the bytes move.
hipError_t copy_symbol(Runtime& rt, Direction direction, const void* symbol, const void* other, size_t count,
                       size_t offset, hipMemcpyKind kind, hipStream_t stream, const char* api) {
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  if (rt.sticky_error != hipSuccess) return rt.sticky_error;
  const bool to_symbol = direction == Direction::kToSymbol;
  uint8_t *variable = nullptr, *side = nullptr;
  if (hipError_t e = symbol_range(rt, symbol, count, offset, &variable, api); e != hipSuccess) return e;
  if (count == 0) return hipSuccess;
  const hipMemcpyKind host_kind = to_symbol ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost;
  if (hipError_t e = other_side(rt, other, count, kind, host_kind, &side, api); e != hipSuccess) return e;
  if (to_symbol)
    std::memmove(variable, side, count);
  else
    std::memmove(side, variable, count);
  return hipSuccess;
}

}  // namespace
}  // namespace cdnajit::hip_sim

using namespace cdnajit::hip_sim;

extern "C" {

// Called by the module constructor clang emits, once per variable, before main.
void __hipRegisterVar(void** handle, void* host_var, char*, const char* device_name, int, size_t, int, int) {
  auto& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  rt.host_variables[host_var] = {reinterpret_cast<FatBinary*>(handle), device_name};
}

// A __managed__ variable (clang: the host's `pointer` variable, the device's pointer variable
// `name`, and the initial value): its memory is host memory kernels address directly, allocated
// now because host code may use it before any HIP call.
void __hipRegisterManagedVar(void* handle, void** pointer, void* init_value, const char* name, size_t size,
                             unsigned align) {
  auto& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  if (rt.require_device() != hipSuccess) return;
  try {
    if (align > 16) throw cdnajit::Error("alignment " + std::to_string(align) + " above 16 bytes is not provided");
    const uint64_t a = rt.sim().memory().alloc_host_visible(size, std::string("__managed__ ") + name);
    std::memcpy(reinterpret_cast<void*>(a), init_value, size);
    *pointer = reinterpret_cast<void*>(a);
    rt.managed_variables.push_back({static_cast<FatBinary*>(handle), name, a});
  } catch (const cdnajit::Error& e) {
    rt.fail(hipErrorOutOfMemory, "__hipRegisterManagedVar", std::string("variable '") + name + "': " + e.what());
  }
}

hipError_t hipGetSymbolAddress(void** dev_ptr, const void* symbol) {
  HIP_SIM_ENTER();
  if (!dev_ptr) return rt.fail(hipErrorInvalidValue, "hipGetSymbolAddress", "null pointer");
  uint64_t address = 0;
  size_t size = 0;
  if (hipError_t e = rt.host_variable(symbol, &address, &size, "hipGetSymbolAddress"); e != hipSuccess) return e;
  *dev_ptr = reinterpret_cast<void*>(address);
  return hipSuccess;
}

hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
  HIP_SIM_ENTER();
  if (!size) return rt.fail(hipErrorInvalidValue, "hipGetSymbolSize", "null pointer");
  uint64_t address = 0;
  return rt.host_variable(symbol, &address, size, "hipGetSymbolSize");
}

hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, hipMemcpyKind kind) {
  HIP_SIM_ENTER();
  return copy_symbol(rt, Direction::kToSymbol, symbol, src, count, offset, kind, nullptr, "hipMemcpyToSymbol");
}
hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset, hipMemcpyKind kind,
                                  hipStream_t stream) {
  HIP_SIM_ENTER();
  return copy_symbol(rt, Direction::kToSymbol, symbol, src, count, offset, kind, stream, "hipMemcpyToSymbolAsync");
}
hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, hipMemcpyKind kind) {
  HIP_SIM_ENTER();
  return copy_symbol(rt, Direction::kFromSymbol, symbol, dst, count, offset, kind, nullptr, "hipMemcpyFromSymbol");
}
hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset, hipMemcpyKind kind,
                                    hipStream_t stream) {
  HIP_SIM_ENTER();
  return copy_symbol(rt, Direction::kFromSymbol, symbol, dst, count, offset, kind, stream, "hipMemcpyFromSymbolAsync");
}

// A module's global by its name in the code object (mangled for C++ names).
hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t module, const char* name) {
  HIP_SIM_ENTER();
  const char* api = "hipModuleGetGlobal";
  if (!name) return rt.fail(hipErrorInvalidValue, api, "null name");
  bool known = false;
  for (const auto& m : rt.modules) known |= m.get() == module;
  if (!known) return rt.fail(hipErrorInvalidHandle, api, "unknown module");
  const cdnajit::GlobalVariable* g = module->code.find_global(name);
  if (!g) {
    std::string names;
    for (const auto& v : module->code.globals) names += (names.empty() ? "" : ", ") + v.name;
    return rt.fail(hipErrorNotFound, api,
                   std::string("no global variable '") + name + "' in the module; it has: " + (names.empty() ? "none" : names));
  }
  if (dptr) *dptr = reinterpret_cast<hipDeviceptr_t>(module->code.load_address + g->vaddr);
  if (bytes) *bytes = g->size;
  return hipSuccess;
}

}  // extern "C"
