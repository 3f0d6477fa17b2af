// The module API: code objects loaded from memory or a file (an ELF code object
// or an offload bundle holding one for the device), kernels looked up by name
// and launched with either kernarg convention.
#include <cstring>
#include <fstream>
#include <iterator>

#include "jit/isa/error.hpp"
#include "runtime/hip_sim/offload_bundle.hpp"
#include "runtime/hip_sim/runtime.hpp"
#include "runtime/sim/code_object_load.hpp"

namespace cdnajit::hip_sim {
namespace {

// Bytes of an ELF64 image known only by its start: the end of its section header
// table or of its program header table, whichever is later (linked code objects
// put the section headers last).
size_t elf_image_size(const uint8_t* p) {
  uint64_t phoff, shoff;
  uint16_t phentsize, phnum, shentsize, shnum;
  std::memcpy(&phoff, p + 0x20, 8);
  std::memcpy(&shoff, p + 0x28, 8);
  std::memcpy(&phentsize, p + 0x36, 2);
  std::memcpy(&phnum, p + 0x38, 2);
  std::memcpy(&shentsize, p + 0x3a, 2);
  std::memcpy(&shnum, p + 0x3c, 2);
  return std::max<uint64_t>(shoff + uint64_t(shentsize) * shnum, phoff + uint64_t(phentsize) * phnum);
}

hipError_t load(Runtime& rt, hipModule_t* out, const uint8_t* image, size_t size, const char* api) {
  if (!out || !image) return rt.fail(hipErrorInvalidValue, api, "null pointer");
  try {
    auto m = std::make_unique<ihipModule_t>();
    if (size >= 4 && std::memcmp(image, "\x7f" "ELF", 4) == 0) {
      if (size == SIZE_MAX) size = elf_image_size(image);
      m->code = read_code_object(std::span<const uint8_t>(image, size));
    } else {
      const std::string want = std::string(arch_name(rt.config().arch));
      bool found = false;
      for (const auto& e : read_offload_bundle(image, size))
        if (bundle_entry_processor(e.id) == want && !found) {
          m->code = read_code_object(e.bytes);
          found = true;
        }
      if (!found) return rt.fail(hipErrorNoBinaryForGpu, api, "the bundle has no code object for " + want);
    }
    if (m->code.arch != rt.config().arch)
      return rt.fail(hipErrorNoBinaryForGpu, api,
                     std::string("code object is for ") + std::string(arch_name(m->code.arch)) + ", the device is sim:" +
                         std::string(arch_name(rt.config().arch)));
    // Its global variables in device memory, initialised (hipModuleGetGlobal; the kernels reach them).
    cdnajit::sim::map_code_object(rt.sim().memory(), m->code);
    rt.modules.push_back(std::move(m));
    *out = rt.modules.back().get();
    return hipSuccess;
  } catch (const Error& e) {
    return rt.fail(hipErrorInvalidImage, api, e.what());
  }
}

// HIP_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END pairs of `extra`.
hipError_t read_extra(Runtime& rt, void** extra, const uint8_t** image, size_t* size, const char* api) {
  *image = nullptr;
  *size = 0;
  for (size_t i = 0; extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) *image = static_cast<const uint8_t*>(extra[i + 1]);
    else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) *size = *static_cast<const size_t*>(extra[i + 1]);
    else return rt.fail(hipErrorInvalidValue, api, "unknown entry in extra[" + std::to_string(i) + "]");
  }
  if (!*image) return rt.fail(hipErrorInvalidValue, api, "extra has no HIP_LAUNCH_PARAM_BUFFER_POINTER");
  return hipSuccess;
}

}  // namespace
}  // namespace cdnajit::hip_sim

using namespace cdnajit::hip_sim;

extern "C" {

hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  HIP_SIM_ENTER();
  return load(rt, module, static_cast<const uint8_t*>(image), SIZE_MAX, "hipModuleLoadData");
}

hipError_t hipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned int, hipJitOption*, void**) {
  HIP_SIM_ENTER();
  return load(rt, module, static_cast<const uint8_t*>(image), SIZE_MAX, "hipModuleLoadDataEx");
}

hipError_t hipModuleLoad(hipModule_t* module, const char* fname) {
  HIP_SIM_ENTER();
  if (!fname) return rt.fail(hipErrorInvalidValue, "hipModuleLoad", "null file name");
  std::ifstream in(fname, std::ios::binary);
  if (!in) return rt.fail(hipErrorFileNotFound, "hipModuleLoad", std::string("cannot open '") + fname + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return load(rt, module, bytes.data(), bytes.size(), "hipModuleLoad");
}

hipError_t hipModuleUnload(hipModule_t module) {
  HIP_SIM_ENTER();
  if (!is_owned(rt.modules, module)) return rt.fail(hipErrorInvalidHandle, "hipModuleUnload", "unknown module");
  std::erase_if(rt.module_functions, [&](const auto& f) { return f->module == module; });
  cdnajit::sim::unmap_code_object(rt.sim().memory(), module->code);
  std::erase_if(rt.modules, [&](const auto& m) { return m.get() == module; });
  return hipSuccess;
}

hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module, const char* name) {
  HIP_SIM_ENTER();
  if (!function || !name) return rt.fail(hipErrorInvalidValue, "hipModuleGetFunction", "null pointer");
  if (!is_owned(rt.modules, module)) return rt.fail(hipErrorInvalidHandle, "hipModuleGetFunction", "unknown module");
  const cdnajit::KernelInfo* k = module->code.find(name);
  if (!k) {
    std::string names;
    for (const auto& kk : module->code.kernels) names += (names.empty() ? "" : ", ") + kk.name;
    return rt.fail(hipErrorNotFound, "hipModuleGetFunction",
                   std::string("no kernel '") + name + "' in the module; it has: " + names);
  }
  rt.module_functions.push_back(std::make_unique<ihipModuleSymbol_t>(ihipModuleSymbol_t{module, k}));
  *function = rt.module_functions.back().get();
  return hipSuccess;
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                 unsigned int by, unsigned int bz, unsigned int shared, hipStream_t stream,
                                 void** params, void** extra) {
  HIP_SIM_ENTER();
  const char* api = "hipModuleLaunchKernel";
  if (!is_owned(rt.module_functions, f)) return rt.fail(hipErrorInvalidHandle, api, "unknown function");
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  if (params && extra) return rt.fail(hipErrorInvalidValue, api, "both kernelParams and extra are given");
  const uint8_t* image = nullptr;
  size_t size = 0;
  if (extra)
    if (hipError_t e = read_extra(rt, extra, &image, &size, api); e != hipSuccess) return e;
  return rt.launch(*f, dim3(gx, gy, gz), dim3(bx, by, bz), shared, params, image, size, api);
}

}  // extern "C"

// hip_ext.h's module launch, sized in work-items, between two event records. Declared there with
// C++ linkage (ROCm exports the mangled names; exports.map lists them).
namespace {
hipError_t ext_module_launch(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly,
                             uint32_t lz, size_t shared, hipStream_t stream, void** params, void** extra,
                             hipEvent_t start, hipEvent_t stop, const char* api) {
  HIP_SIM_ENTER();
  if (!is_owned(rt.module_functions, f)) return rt.fail(hipErrorInvalidHandle, api, "unknown function");
  if (!valid_stream(rt, stream)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  if ((start && !rt.known_event(start)) || (stop && !rt.known_event(stop)))
    return rt.fail(hipErrorInvalidHandle, api, "unknown event");
  if (params && extra) return rt.fail(hipErrorInvalidValue, api, "both kernelParams and extra are given");
  const uint32_t global[3] = {gx, gy, gz}, local[3] = {lx, ly, lz};
  for (int i = 0; i < 3; ++i)
    if (local[i] == 0 || global[i] % local[i] != 0)
      return rt.fail(hipErrorInvalidValue, api,
                     "global work size " + std::to_string(global[i]) + " in " + std::string(1, char('x' + i)) +
                         " is not a multiple of the local size " + std::to_string(local[i]) +
                         " (partial workgroups are not modelled)");
  const uint8_t* image = nullptr;
  size_t size = 0;
  if (extra)
    if (hipError_t e = read_extra(rt, extra, &image, &size, api); e != hipSuccess) return e;
  if (start) rt.record(*start);
  if (hipError_t e = rt.launch(*f, dim3(gx / lx, gy / ly, gz / lz), dim3(lx, ly, lz), shared, params, image, size, api);
      e != hipSuccess)
    return e;
  if (stop) rt.record(*stop);
  return hipSuccess;
}
}  // namespace

hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly,
                                    uint32_t lz, size_t shared, hipStream_t stream, void** params, void** extra,
                                    hipEvent_t start, hipEvent_t stop, uint32_t) {
  return ext_module_launch(f, gx, gy, gz, lx, ly, lz, shared, stream, params, extra, start, stop, "hipExtModuleLaunchKernel");
}
hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly,
                                    uint32_t lz, size_t shared, hipStream_t stream, void** params, void** extra,
                                    hipEvent_t start, hipEvent_t stop) {
  return ext_module_launch(f, gx, gy, gz, lx, ly, lz, shared, stream, params, extra, start, stop, "hipHccModuleLaunchKernel");
}
