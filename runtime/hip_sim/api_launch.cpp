// What clang's host code for a HIP program calls: the fat-binary registration
// its module constructor emits, and the <<<>>> launch sequence
// (__hipPushCallConfiguration, then the kernel's host stub calls
// __hipPopCallConfiguration and hipLaunchKernel with one pointer per argument).
#include "runtime/hip_sim/runtime.hpp"
#include "runtime/sim/code_object_load.hpp"

using namespace cdnajit::hip_sim;

namespace {
// What clang's host code hands __hipRegisterFatBinary (clang/lib/CodeGen/CGCUDANV.cpp: magic
// "HIPF", version 1, the offload bundle).
struct FatBinaryWrapper {
  uint32_t magic, version;
  const void* binary;
  const void* unused;
};
constexpr uint32_t kHipFatMagic = 0x48495046;

// A launch of the kernel whose host stub is `function`, with one pointer per argument (hipLaunchKernel,
// hipLaunchCooperativeKernel).
hipError_t launch_host_function(Runtime& rt, const void* function, dim3 grid, dim3 block, void** args, size_t shared,
                                hipStream_t stream, const char* api, bool cooperative) {
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  const ihipModuleSymbol_t* f = nullptr;
  if (hipError_t e = rt.host_function(function, &f, api); e != hipSuccess) return e;
  if (!args && !f->kernel->args.empty()) {
    for (const auto& a : f->kernel->args)
      if (!cdnajit::is_hidden_arg(a)) return rt.fail(hipErrorInvalidValue, api, "null argument array");
  }
  return rt.launch(*f, grid, block, shared, args, nullptr, 0, api, cooperative);
}
}  // namespace

extern "C" {

// The bundle is read when a kernel of it is first launched.
void** __hipRegisterFatBinary(const void* data) {
  auto& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  auto fb = std::make_unique<FatBinary>();
  const auto* w = static_cast<const FatBinaryWrapper*>(data);
  if (!w || w->magic != kHipFatMagic)
    fb->error = "the fat binary wrapper lacks the magic \"HIPF\" (not a clang HIP program?)";
  else
    fb->bundle = w->binary;
  rt.fat_binaries.push_back(std::move(fb));
  return reinterpret_cast<void**>(rt.fat_binaries.back().get());
}

void __hipUnregisterFatBinary(void** handle) {
  auto& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  auto* fb = reinterpret_cast<FatBinary*>(handle);
  for (auto it = rt.host_functions.begin(); it != rt.host_functions.end();)
    it = it->second.first == fb ? rt.host_functions.erase(it) : std::next(it);
  for (auto it = rt.host_variables.begin(); it != rt.host_variables.end();)
    it = it->second.first == fb ? rt.host_variables.erase(it) : std::next(it);
  std::erase_if(rt.managed_variables, [&](const auto& v) { return v.binary == fb; });  // their memory stays (host code may hold it)
  if (fb->module) cdnajit::sim::unmap_code_object(rt.sim().memory(), fb->module->code);
  std::erase_if(rt.fat_binaries, [&](const auto& p) { return p.get() == fb; });
}

void __hipRegisterFunction(void** handle, const void* host_function, char*, const char* device_name, unsigned int,
                           void*, void*, void*, void*, int*) {
  auto& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  rt.host_functions[host_function] = {reinterpret_cast<FatBinary*>(handle), device_name};
}

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared, hipStream_t stream) {
  HIP_SIM_ENTER();
  rt.call_configs.push_back(LaunchConfig{grid, block, shared, stream});
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, hipStream_t* stream) {
  HIP_SIM_ENTER();
  if (rt.call_configs.empty())
    return rt.fail(hipErrorMissingConfiguration, "__hipPopCallConfiguration", "no configuration was pushed");
  const LaunchConfig c = rt.call_configs.back();
  rt.call_configs.pop_back();
  *grid = c.grid;
  *block = c.block;
  *shared = c.shared;
  *stream = c.stream;
  return hipSuccess;
}

hipError_t hipLaunchKernel(const void* function, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream) {
  HIP_SIM_ENTER();
  return launch_host_function(rt, function, grid, block, args, shared, stream, "hipLaunchKernel", false);
}

// A cooperative launch: refused (hipErrorCooperativeLaunchTooLarge) unless every workgroup can be
// resident at once; grid.sync() works in it (Runtime::prepare_cooperative, device_lib.hip).
hipError_t hipLaunchCooperativeKernel(const void* function, dim3 grid, dim3 block, void** args, unsigned int shared,
                                      hipStream_t stream) {
  HIP_SIM_ENTER();
  return launch_host_function(rt, function, grid, block, args, shared, stream, "hipLaunchCooperativeKernel", true);
}

// hip_ext.h: a <<<>>> launch between two event records.
hipError_t hipExtLaunchKernel(const void* function, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream,
                              hipEvent_t start, hipEvent_t stop, int) {
  HIP_SIM_ENTER();
  const char* api = "hipExtLaunchKernel";
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  if ((start && !rt.known_event(start)) || (stop && !rt.known_event(stop)))
    return rt.fail(hipErrorInvalidHandle, api, "unknown event");
  const ihipModuleSymbol_t* f = nullptr;
  if (hipError_t e = rt.host_function(function, &f, api); e != hipSuccess) return e;
  if (start) rt.record(*start);
  if (hipError_t e = rt.launch(*f, grid, block, shared, args, nullptr, 0, api); e != hipSuccess) return e;
  if (stop) rt.record(*stop);
  return hipSuccess;
}

}  // extern "C"
