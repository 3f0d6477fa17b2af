// A stand-in for libamdhip64 with one fake device, so the HIP back end's glue
// (dlopen, entry points, arch detection, module load, kernarg passing through
// HIP_LAUNCH_PARAM_*, events) runs in tests on machines without a GPU. Memory
// is host memory; launches are recorded, not executed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int kSuccess = 0, kInvalidValue = 1, kInvalidDevice = 101, kNotFound = 500;

struct FakeFunction {
  std::string name;
};
// As in HIP, a function handle belongs to its module and is freed when the module is unloaded.
struct FakeModule {
  std::vector<unsigned char> image;
  std::vector<std::unique_ptr<FakeFunction>> functions;
};

}  // namespace

extern "C" {

// What the last hipModuleLaunchKernel received (read by the tests).
struct FakeHipLaunch {
  char function[256];
  unsigned grid[3], block[3], shared_bytes;
  size_t kernarg_size;
  unsigned char kernarg[4096];
  int launches;
};
FakeHipLaunch fake_hip_last_launch;

int hipGetDeviceCount(int* n) {
  *n = 1;
  return kSuccess;
}
int hipSetDevice(int d) { return d == 0 ? kSuccess : kInvalidDevice; }
int hipDeviceGetName(char* name, int len, int d) {
  if (d != 0) return kInvalidDevice;
  std::strncpy(name, "Fake Instinct", size_t(len));
  return kSuccess;
}
// Real hipDeviceProp_t layouts differ between HIP versions; put the name first
// and gcnArchName at an offset no HIP version uses for it, so the runtime's
// layout-independent search is what finds it.
int hipGetDeviceProperties(void* prop, int d) {
  if (d != 0) return kInvalidDevice;
  const char* arch = std::getenv("FAKE_HIP_ARCH");
  char* p = static_cast<char*>(prop);
  std::memset(p, 0, 1600);
  std::strcpy(p, "Fake Instinct");
  std::strcpy(p + 1234, arch && *arch ? arch : "gfx942:sramecc+:xnack-");
  return kSuccess;
}
int hipMalloc(void** p, size_t n) {
  *p = std::calloc(1, n ? n : 1);
  return *p ? kSuccess : kInvalidValue;
}
int hipFree(void* p) {
  std::free(p);
  return kSuccess;
}
int hipMemcpy(void* dst, const void* src, size_t n, int kind) {
  if (kind != 1 && kind != 2) return kInvalidValue;
  std::memcpy(dst, src, n);
  return kSuccess;
}
int hipModuleLoadData(void** module, const void* image) {
  const unsigned char* b = static_cast<const unsigned char*>(image);
  if (std::memcmp(b, "\x7f" "ELF", 4) != 0) return kInvalidValue;
  auto* m = new FakeModule;
  m->image.assign(b, b + 64);
  *module = m;
  return kSuccess;
}
int hipModuleUnload(void* module) {
  delete static_cast<FakeModule*>(module);
  return kSuccess;
}
int hipModuleGetFunction(void** f, void* module, const char* name) {
  if (!module || !name || !*name) return kNotFound;
  auto& functions = static_cast<FakeModule*>(module)->functions;
  functions.push_back(std::make_unique<FakeFunction>(FakeFunction{name}));
  *f = functions.back().get();
  return kSuccess;
}
int hipModuleLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void* stream, void** params, void** extra) {
  // Only the HIP_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END form is accepted.
  if (!f || params || !extra || extra[0] != (void*)1 || extra[2] != (void*)2 || extra[4] != (void*)3)
    return kInvalidValue;
  size_t size = *static_cast<size_t*>(extra[3]);
  if (size > sizeof fake_hip_last_launch.kernarg) return kInvalidValue;
  FakeHipLaunch& l = fake_hip_last_launch;
  std::strncpy(l.function, static_cast<FakeFunction*>(f)->name.c_str(), sizeof l.function - 1);
  l.grid[0] = gx, l.grid[1] = gy, l.grid[2] = gz;
  l.block[0] = bx, l.block[1] = by, l.block[2] = bz;
  l.shared_bytes = shared;
  l.kernarg_size = size;
  std::memcpy(l.kernarg, extra[1], size);
  ++l.launches;
  return kSuccess;
}
int hipDeviceSynchronize() { return kSuccess; }
int hipEventCreate(void** e) {
  *e = new int(0);
  return kSuccess;
}
int hipEventRecord(void* e, void*) { return e ? kSuccess : kInvalidValue; }
int hipEventSynchronize(void* e) { return e ? kSuccess : kInvalidValue; }
int hipEventElapsedTime(float* ms, void* a, void* b) {
  *ms = 0.25f;
  return a && b ? kSuccess : kInvalidValue;
}
int hipEventDestroy(void* e) {
  delete static_cast<int*>(e);
  return kSuccess;
}
const char* hipGetErrorName(int e) {
  switch (e) {
    case kSuccess: return "hipSuccess";
    case kInvalidValue: return "hipErrorInvalidValue";
    case kInvalidDevice: return "hipErrorInvalidDevice";
    default: return "hipErrorUnknown";
  }
}
const char* hipGetErrorString(int e) { return e == kSuccess ? "no error" : "fake HIP error"; }

}  // extern "C"
