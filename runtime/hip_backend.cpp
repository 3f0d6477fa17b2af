// The HIP back end. libamdhip64 is opened with dlopen at run time, so binaries
// have no link-time dependency on it and run on the simulator where it (or a
// GPU) is absent. Only C entry points with stable signatures are used; handles
// are opaque pointers and hipError_t is an int.
#include <dlfcn.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "jit/isa/error.hpp"
#include "runtime/backends.hpp"

namespace cdnajit {
namespace {

using hipError = int;
constexpr hipError kHipSuccess = 0;
constexpr int kHipMemcpyHostToDevice = 1, kHipMemcpyDeviceToHost = 2;

// The runtime's entry points, resolved once per process.
struct HipApi {
  void* lib = nullptr;
  std::string lib_name;
  std::string load_error;  // why lib is null

  hipError (*GetDeviceCount)(int*) = nullptr;
  hipError (*SetDevice)(int) = nullptr;
  hipError (*DeviceGetName)(char*, int, int) = nullptr;
  hipError (*GetDeviceProperties)(void*, int) = nullptr;
  hipError (*Malloc)(void**, size_t) = nullptr;
  hipError (*Free)(void*) = nullptr;
  hipError (*Memcpy)(void*, const void*, size_t, int) = nullptr;
  hipError (*ModuleLoadData)(void**, const void*) = nullptr;
  hipError (*ModuleUnload)(void*) = nullptr;
  hipError (*ModuleGetFunction)(void**, void*, const char*) = nullptr;
  hipError (*ModuleLaunchKernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*,
                                 void**, void**) = nullptr;
  hipError (*DeviceSynchronize)() = nullptr;
  hipError (*EventCreate)(void**) = nullptr;
  hipError (*EventRecord)(void*, void*) = nullptr;
  hipError (*EventSynchronize)(void*) = nullptr;
  hipError (*EventElapsedTime)(float*, void*, void*) = nullptr;
  hipError (*EventDestroy)(void*) = nullptr;
  const char* (*GetErrorName)(hipError) = nullptr;
  const char* (*GetErrorString)(hipError) = nullptr;
  // Only in cdnajit's drop-in runtime (runtime/hip_sim): how its event times are made.
  const char* (*CdnajitEventTimeSource)() = nullptr;

  // "100 (hipErrorNoDevice: no ROCm-capable device is detected)"; the
  // description is left out when the runtime just repeats the name.
  std::string error_text(hipError e) const {
    std::string name = GetErrorName ? GetErrorName(e) : "";
    std::string text = GetErrorString ? GetErrorString(e) : "";
    std::string s = std::to_string(e);
    if (name.empty() && text.empty()) return s;
    s += " (" + (name.empty() ? text : name);
    if (!name.empty() && !text.empty() && text != name) s += ": " + text;
    return s + ")";
  }
};

template <class F>
bool resolve(HipApi& api, F& fn, const char* symbol, std::string& missing) {
  fn = reinterpret_cast<F>(dlsym(api.lib, symbol));
  if (!fn) missing += std::string(missing.empty() ? "" : ", ") + symbol;
  return fn != nullptr;
}

// Opens the first of `names` that loads and resolves every entry point. The
// library stays loaded for the life of the process (the HIP runtime does not
// support being unloaded).
HipApi load_hip_api(const std::vector<std::string>& names) {
  HipApi api;
  std::string tried;
  for (const auto& n : names) {
    api.lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (api.lib) {
      api.lib_name = n;
      break;
    }
    tried += (tried.empty() ? "" : ", ") + n;
  }
  if (!api.lib) {
    api.load_error = "libamdhip64 not found (tried " + tried + ")";
    return api;
  }
  std::string missing;
  resolve(api, api.GetDeviceCount, "hipGetDeviceCount", missing);
  resolve(api, api.SetDevice, "hipSetDevice", missing);
  resolve(api, api.DeviceGetName, "hipDeviceGetName", missing);
  // ROCm >= 6 headers map hipGetDeviceProperties to ...R0600; older runtimes
  // only have the plain name. Either layout carries gcnArchName.
  api.GetDeviceProperties =
      reinterpret_cast<decltype(api.GetDeviceProperties)>(dlsym(api.lib, "hipGetDevicePropertiesR0600"));
  if (!api.GetDeviceProperties) resolve(api, api.GetDeviceProperties, "hipGetDeviceProperties", missing);
  resolve(api, api.Malloc, "hipMalloc", missing);
  resolve(api, api.Free, "hipFree", missing);
  resolve(api, api.Memcpy, "hipMemcpy", missing);
  resolve(api, api.ModuleLoadData, "hipModuleLoadData", missing);
  resolve(api, api.ModuleUnload, "hipModuleUnload", missing);
  resolve(api, api.ModuleGetFunction, "hipModuleGetFunction", missing);
  resolve(api, api.ModuleLaunchKernel, "hipModuleLaunchKernel", missing);
  resolve(api, api.DeviceSynchronize, "hipDeviceSynchronize", missing);
  resolve(api, api.EventCreate, "hipEventCreate", missing);
  resolve(api, api.EventRecord, "hipEventRecord", missing);
  resolve(api, api.EventSynchronize, "hipEventSynchronize", missing);
  resolve(api, api.EventElapsedTime, "hipEventElapsedTime", missing);
  resolve(api, api.EventDestroy, "hipEventDestroy", missing);
  resolve(api, api.GetErrorName, "hipGetErrorName", missing);
  resolve(api, api.GetErrorString, "hipGetErrorString", missing);
  api.CdnajitEventTimeSource = reinterpret_cast<decltype(api.CdnajitEventTimeSource)>(
      dlsym(api.lib, "hipCdnajitEventTimeSource"));
  if (!missing.empty()) {
    api.load_error = api.lib_name + " lacks " + missing;
    api.lib = nullptr;
  }
  return api;
}

// Env CDNAJIT_HIP_LIBRARY names the one library to use; otherwise the usual
// sonames of ROCm 5, 6 and 7 and /opt/rocm are tried.
std::vector<std::string> default_hip_libraries() {
  if (const char* env = std::getenv("CDNAJIT_HIP_LIBRARY"); env && *env) return {env};
  return {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5",
          "/opt/rocm/lib/libamdhip64.so"};
}

const HipApi& hip_api() {
  static const HipApi api = load_hip_api(default_hip_libraries());
  return api;
}

HipAvailability availability(const HipApi& api) {
  if (!api.lib) return {0, "no HIP device: " + api.load_error};
  int count = 0;
  hipError e = api.GetDeviceCount(&count);
  if (e != kHipSuccess) return {0, "no HIP device: hipGetDeviceCount returned " + api.error_text(e)};
  if (count <= 0) return {0, "no HIP device: hipGetDeviceCount reported 0 devices"};
  return {count, ""};
}

void check(const HipApi& api, hipError e, const std::string& what) {
  if (e != kHipSuccess) throw Error(what + " failed: " + api.error_text(e));
}

// gcnArchName ("gfx942:sramecc+:xnack-") sits at a different offset in each
// HIP version's hipDeviceProp_t, so instead of hard-coding a layout we let
// hipGetDeviceProperties fill a buffer far larger than any version's struct
// and take the first NUL-terminated string that starts with "gfx".
std::string device_gcn_arch(const HipApi& api, int index) {
  std::vector<char> props(64 * 1024, 0);
  check(api, api.GetDeviceProperties(props.data(), index), fmt::format("hipGetDeviceProperties({})", index));
  for (size_t i = 0; i + 4 < props.size(); ++i) {
    bool starts = (i == 0 || props[i - 1] == 0) && std::memcmp(&props[i], "gfx", 3) == 0;
    if (!starts) continue;
    size_t n = strnlen(&props[i], props.size() - i);
    return std::string(&props[i], n);
  }
  return {};
}

struct HipModule final : ModuleBackend {
  const HipApi* api = nullptr;
  void* handle = nullptr;
  ~HipModule() override {
    if (handle) api->ModuleUnload(handle);
  }
};

}  // namespace

HipAvailability hip_availability() { return availability(hip_api()); }

namespace detail {
HipAvailability probe_hip_libraries(const std::vector<std::string>& libraries) {
  return availability(load_hip_api(libraries));
}
}  // namespace detail

class HipDevice final : public Device {
 public:
  HipDevice(const HipApi& api, int index, Arch arch, std::string label)
      : api_(api), index_(index), arch_(arch), label_(std::move(label)) {}

  Arch arch() const override { return arch_; }
  std::string name() const override { return label_; }
  bool is_simulator() const override { return false; }

  Buffer alloc(size_t bytes, std::string name) override {
    if (bytes == 0) throw Error(fmt::format("{}: alloc of 0 bytes for '{}'", label_, name));
    select();
    void* p = nullptr;
    check(api_, api_.Malloc(&p, bytes), fmt::format("{}: hipMalloc({} bytes for '{}')", label_, bytes, name));
    return Buffer{reinterpret_cast<uint64_t>(p), bytes, std::move(name)};
  }
  void free(const Buffer& b) override {
    select();
    check(api_, api_.Free(reinterpret_cast<void*>(b.addr)), fmt::format("{}: hipFree('{}')", label_, b.name));
  }
  void copy_to_device(const Buffer& dst, const void* src, size_t n) override {
    detail::check_copy(dst, n, "copy_to_device");
    select();
    check(api_, api_.Memcpy(reinterpret_cast<void*>(dst.addr), src, n, kHipMemcpyHostToDevice),
          fmt::format("{}: hipMemcpy to '{}' ({} bytes)", label_, dst.name, n));
  }
  void copy_to_host(void* dst, const Buffer& src, size_t n) override {
    detail::check_copy(src, n, "copy_to_host");
    select();
    check(api_, api_.Memcpy(dst, reinterpret_cast<const void*>(src.addr), n, kHipMemcpyDeviceToHost),
          fmt::format("{}: hipMemcpy from '{}' ({} bytes)", label_, src.name, n));
  }

  Module load(std::span<const uint8_t> bytes) override {
    auto st = std::make_shared<ModuleState>();
    st->code = read_code_object(bytes);  // metadata for argument packing
    if (st->code.arch != arch_)
      throw Error(fmt::format("{}: code object is for {}, not {}", label_, arch_name(st->code.arch), arch_name(arch_)));
    select();
    auto mod = std::make_unique<HipModule>();
    mod->api = &api_;
    check(api_, api_.ModuleLoadData(&mod->handle, st->code.bytes.data()), label_ + ": hipModuleLoadData");
    for (const auto& k : st->code.kernels) {
      void* fn = nullptr;
      check(api_, api_.ModuleGetFunction(&fn, mod->handle, k.name.c_str()),
            fmt::format("{}: hipModuleGetFunction('{}')", label_, k.name));
      st->handles.push_back(fn);
    }
    st->backend = std::move(mod);
    st->owner = this;
    return Module(std::move(st));
  }

  LaunchResult launch(const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                      const KernelArgs& args) override {
    detail::check_owner(k, this, label_);
    auto t0 = std::chrono::steady_clock::now();
    LaunchResult r;
    r.kernarg = pack_kernargs(k.info(), args, grid, block, dynamic_lds);
    select();
    size_t size = r.kernarg.size();
    // HIP_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END.
    void* extra[] = {reinterpret_cast<void*>(1), r.kernarg.data(), reinterpret_cast<void*>(2), &size,
                     reinterpret_cast<void*>(3)};
    void *start = nullptr, *stop = nullptr;
    check(api_, api_.EventCreate(&start), label_ + ": hipEventCreate");
    check(api_, api_.EventCreate(&stop), label_ + ": hipEventCreate");
    std::string what = fmt::format("{}: hipModuleLaunchKernel('{}', grid {}x{}x{}, block {}x{}x{}, lds {})", label_,
                                   k.name(), grid.x, grid.y, grid.z, block.x, block.y, block.z, dynamic_lds);
    hipError e = api_.EventRecord(start, nullptr);
    if (e == kHipSuccess)
      e = api_.ModuleLaunchKernel(k.handle(), grid.x, grid.y, grid.z, block.x, block.y, block.z, dynamic_lds,
                                  nullptr, nullptr, extra);
    if (e == kHipSuccess) e = api_.EventRecord(stop, nullptr);
    if (e == kHipSuccess) e = api_.EventSynchronize(stop);
    float ms = 0;
    if (e == kHipSuccess) e = api_.EventElapsedTime(&ms, start, stop);
    api_.EventDestroy(start);
    api_.EventDestroy(stop);
    check(api_, e, what);
    r.gpu_ms = ms;
    r.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

  void synchronize() override {
    select();
    check(api_, api_.DeviceSynchronize(), label_ + ": hipDeviceSynchronize");
  }

  std::string event_time_source() const {
    return api_.CdnajitEventTimeSource ? api_.CdnajitEventTimeSource() : "";
  }

 private:
  void select() { check(api_, api_.SetDevice(index_), fmt::format("hipSetDevice({})", index_)); }
  const HipApi& api_;
  int index_;
  Arch arch_;
  std::string label_;
};

namespace detail {

std::string hip_event_time_source(const Device& d) {
  const auto* h = dynamic_cast<const HipDevice*>(&d);
  return h ? h->event_time_source() : "";
}

namespace {

std::unique_ptr<Device> open_hip(const HipApi& api, int index) {
  HipAvailability av = availability(api);
  if (av.device_count == 0) throw Error(fmt::format("open_device(\"hip:{}\"): {}", index, av.reason));
  if (index >= av.device_count)
    throw Error(fmt::format("open_device(\"hip:{}\"): only {} HIP device(s) (valid: hip:0..hip:{})", index,
                            av.device_count, av.device_count - 1));
  check(api, api.SetDevice(index), fmt::format("hipSetDevice({})", index));
  std::string gcn = device_gcn_arch(api, index);
  auto arch = parse_arch(gcn.substr(0, gcn.find(':')));
  if (!arch)
    throw Error(fmt::format("open_device(\"hip:{}\"): device architecture '{}' is not supported "
                            "(cdnajit targets gfx942 and gfx950)",
                            index, gcn.empty() ? "unknown" : gcn));
  char name[256] = {};
  if (api.DeviceGetName(name, sizeof name - 1, index) != kHipSuccess) std::strcpy(name, "unknown");
  return std::make_unique<HipDevice>(api, index, *arch, fmt::format("hip:{} ({}, {})", index, name, gcn));
}

}  // namespace

std::unique_ptr<Device> make_hip_device(int index) { return open_hip(hip_api(), index); }

std::unique_ptr<Device> make_hip_device_from(const std::vector<std::string>& libraries, int index) {
  // Each distinct library list is loaded once and kept for the process.
  static std::mutex mutex;
  static std::map<std::vector<std::string>, std::unique_ptr<HipApi>> apis;
  std::lock_guard lock(mutex);
  auto& api = apis[libraries];
  if (!api) api = std::make_unique<HipApi>(load_hip_api(libraries));
  return open_hip(*api, index);
}

}  // namespace detail
}  // namespace cdnajit
