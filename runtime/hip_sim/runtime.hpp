// The drop-in HIP runtime's process state: one simulated device of the chosen
// product, its memory, the loaded code objects, streams, events, the modelled
// timeline and the error state. Every exported HIP entry point (api_*.cpp)
// takes the lock, works on this state and returns a hipError_t.
//
// Everything runs in the calling thread when it is called: a launch returns
// when the simulator has run the grid, so streams are in order trivially and
// an "async" call has completed when it returns.
#pragma once
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/kernel_args.hpp"
#include "runtime/model/hardware.hpp"
#include "runtime/sim/simulator.hpp"

// The opaque handle types of hip_runtime_api.h, defined here.
struct ihipModule_t {
  cdnajit::CodeObject code;
};
struct ihipModuleSymbol_t {
  const ihipModule_t* module = nullptr;
  const cdnajit::KernelInfo* kernel = nullptr;
};
struct ihipStream_t {
  unsigned flags = 0;
};
struct ihipEvent_t {
  bool recorded = false;
  double modelled_ms = 0;  // the modelled timeline when recorded
  uint64_t unmodelled_launches = 0;
  std::chrono::steady_clock::time_point wall;
};

namespace cdnajit::hip_sim {

// Whether `handle` is one of `owned`: a module, function, stream or event handle the application
// passes is looked up among those this runtime created (and has not released) before it is used.
template <class T>
bool is_owned(const std::vector<std::unique_ptr<T>>& owned, const T* handle) {
  return std::any_of(owned.begin(), owned.end(), [&](const std::unique_ptr<T>& p) { return p.get() == handle; });
}

// One registered fat binary (__hipRegisterFatBinary): the code object for the
// device's processor, loaded on first use, or why there is none.
struct FatBinary {
  const void* bundle = nullptr;  // the offload bundle clang's wrapper points to (null: not a clang wrapper)
  std::unique_ptr<ihipModule_t> module;
  std::string error;  // non-empty: no usable code object
  bool loaded = false;
  std::map<std::string, ihipModuleSymbol_t> functions;  // by device name, filled on load
};

struct Config {
  Arch arch = Arch::gfx942;
  std::optional<model::Hardware> hw;  // the timing model's product; none with CDNAJIT_HIP_MODEL=off
  // The product the device shows (its name, CU count, clocks): the model's, else the arch's default.
  const model::Hardware& shown_product() const { return hw ? *hw : model::default_product(arch); }
  std::string error;                  // non-empty: no device (bad CDNAJIT_HIP_DEVICE / _MODEL)
  // CDNAJIT_HIP_MODEL_ONLY=1|round: each launch runs only the workgroups the model records and traces
  // (outputs of the others are not written), so a large grid is modelled without simulating all of it.
  bool model_only = false;
  uint64_t model_only_traced = 0;  // workgroups whose cache lines a model-only launch traces (=1: 16, =round: the first round)
  bool print_reports = false;  // CDNAJIT_HIP_MODEL_REPORT=1: each launch's modelled report on stderr
  // CDNAJIT_HIP_CHECK_WAITCNT=0: sim::Options::check_waitcnt off, for kernels that rely on timing
  // instead of an s_waitcnt (a register or LDS-DMA destination used before its wait runs on).
  bool check_waitcnt = true;
  // CDNAJIT_HIP_HOST_SYNC_US=X (default 0): a host synchronize (hipDeviceSynchronize,
  // hipStreamSynchronize, hipEventSynchronize) that waits for a kernel launched since the previous
  // one adds X us to the modelled timeline: on a GPU the host wakes after the kernel ends and only
  // then submits what follows, e.g. a timed region's end event. No public figure for any product's
  // host exists to set a default; the one published measurement (HipKittens' MI355X GEMM with and
  // without a synchronize inside its timed region, 10.5-16.1 us) is quoted in
  // tools/validation/hipkittens/README.md.
  double host_sync_us = 0;
  // CDNAJIT_HIP_HOST_WORK=1 (default with a model) | 0: the program's own host work between HIP calls
  // (the calling thread's CPU time from the end of one call to the start of the next, measured on this
  // machine) advances the host's point on the modelled timeline, so host work the GPU waits for inside
  // a timed region (e.g. a host loop between a synchronize and the end event) is in the event times,
  // and host work while a kernel runs overlaps it; the work that submits a launch is inside the launch
  // overhead, that after a charged synchronize inside host_sync_us. Several host threads calling HIP
  // each add their own work to the one host point (an upper bound when they work in parallel).
  // 0: host work counts 0 (deterministic event times).
  bool host_work = true;
};

struct LaunchConfig {
  dim3 grid, block;
  size_t shared = 0;
  hipStream_t stream = nullptr;
};

class Runtime {
 public:
  static Runtime& get();  // created on first use, never destroyed (atexit order of HIP programs)
  std::mutex mutex;

  // Device configuration, resolved on first use from the environment.
  const Config& config();
  hipError_t require_device();  // hipErrorNoDevice (and the reason, once) when config() failed
  sim::Simulator& sim();

  // Errors: `fail` records `e` as the last error, prints "cdnajit HIP: <api>: <why>" and returns e.
  hipError_t fail(hipError_t e, const std::string& api, const std::string& why);
  hipError_t last_error = hipSuccess;
  hipError_t sticky_error = hipSuccess;  // a failed kernel: returned by every later synchronising call

  // Memory.
  std::map<uint64_t, bool> allocations;  // base -> host visible
  std::set<uint64_t> registered;         // hipHostRegister ranges (the caller's host memory), by base
  // The device printf buffer (runtime/device_printf.hpp) of the kernels that print: allocated at the
  // first such launch, emptied before each, its text printed after each (0: none yet).
  uint64_t printf_buffer = 0;
  // Two u32 a cooperative launch's grid.sync() counts in (tools/hipcc/device_lib.hip,
  // __ockl_grid_sync), zeroed for each such launch; allocated at the first.
  uint64_t grid_sync_words = 0;
  // The host bytes behind [p, p+n): inside one simulated allocation, or (host_ok) plain host memory.
  // nullptr and *why set when p is device memory but [p, p+n) leaves its allocation, or host memory is not allowed.
  uint8_t* resolve(const void* p, size_t n, bool host_ok, std::string* why);

  // Code objects.
  std::vector<std::unique_ptr<FatBinary>> fat_binaries;
  std::map<const void*, std::pair<FatBinary*, std::string>> host_functions;  // stub handle -> (binary, name)
  std::vector<std::unique_ptr<ihipModule_t>> modules;
  std::vector<std::unique_ptr<ihipModuleSymbol_t>> module_functions;
  std::vector<LaunchConfig> call_configs;  // __hipPushCallConfiguration stack
  std::map<const void*, std::pair<FatBinary*, std::string>> host_variables;  // host shadow -> (binary, name)
  // __managed__ variables: host-visible memory allocated at registration; the code object's
  // pointer variable `name` is set to `address` when the binary is loaded.
  struct ManagedVariable {
    FatBinary* binary;
    std::string name;
    uint64_t address;
  };
  std::vector<ManagedVariable> managed_variables;
  // Reads the fat binary's code object for the device and maps it into device memory (first use).
  hipError_t load_fat_binary(FatBinary& fb, const char* api);
  // The kernel a host stub handle names, loading its fat binary on first use.
  hipError_t host_function(const void* handle, const ihipModuleSymbol_t** out, const char* api);
  // The device address and size of the __device__ / __constant__ variable whose host shadow is `symbol`.
  hipError_t host_variable(const void* symbol, uint64_t* address, size_t* size, const char* api);

  // Launch with the explicit arguments given as one byte image laid out by the metadata
  // offsets (HIP_LAUNCH_PARAM_BUFFER_POINTER) or as one pointer per argument (kernelParams).
  // A cooperative launch's checks and its grid-sync words in the kernel's hidden_multigrid_sync_arg.
  hipError_t prepare_cooperative(const KernelInfo& k, const Dim3& grid, const Dim3& block, uint32_t shared,
                                 std::vector<uint8_t>& kernarg, const std::string& where);
  // `cooperative` (hipLaunchCooperativeKernel): refused unless every workgroup can be resident at
  // once; the kernel gets the zeroed grid-sync words (grid_sync_words) for grid.sync().
  hipError_t launch(const ihipModuleSymbol_t& f, dim3 grid, dim3 block, size_t shared, void** params,
                    const uint8_t* image, size_t image_size, const char* api, bool cooperative = false);

  // Modelled timeline (ms): `modelled_ms` is where the device's queue is done (its kernels' modelled
  // times, each with the launch overhead, starting no earlier than the host submitted them);
  // `host_ms` is where the host is (its measured work between calls, Config::host_work, and its
  // waits for the device). A launch starts at max(host, device), the host work that submitted it
  // left out (its overhead covers that); an event marks max(host, device).
  double modelled_ms = 0;
  double host_ms = 0;
  // Host work since the last event record, host synchronize or launch: the next launch's fitted
  // overhead covers it (the host's work to submit a launch).
  double host_work_before_launch = 0;
  // What is left of the last charged host synchronize (Config::host_sync_us) for the host work after it.
  double host_work_in_sync = 0;
  std::string model_error;       // why the last launch has no modelled time ("" when it has)
  uint64_t unmodelled_launches = 0;  // launches without a modelled time so far
  bool said_event_timing = false;
  bool launched_since_host_sync = false;  // a modelled kernel ran since the last host synchronize
  // A host synchronize: the host waits for the device, plus Config::host_sync_us when it waited for a kernel.
  void host_synchronize();
  // Host work between calls (Config::host_work): entering a call adds the calling thread's CPU time
  // since it left its previous call to host_ms; leaving a call notes the time. HIP_SIM_ENTER does both.
  void enter_call();
  void leave_call();

  std::vector<std::unique_ptr<ihipStream_t>> streams;
  std::vector<std::unique_ptr<ihipEvent_t>> events;
  bool known_event(hipEvent_t e) const;
  void record(ihipEvent_t& e);  // the event marks this point of the (modelled and wall) timeline

 private:
  Runtime() = default;
  std::optional<Config> config_;
  std::unique_ptr<sim::Simulator> sim_;
  bool said_config_error_ = false;
  bool said_model_only_ = false;
};

// Stream handles the API accepts: null, hipStreamPerThread, or one from hipStreamCreate.
bool valid_stream(Runtime& rt, hipStream_t s);

}  // namespace cdnajit::hip_sim

namespace cdnajit::hip_sim {
// Marks a call's start and end for the host work between calls (Runtime::enter_call / leave_call).
struct ApiCall {
  Runtime& rt;
  explicit ApiCall(Runtime& r) : rt(r) { rt.enter_call(); }
  ~ApiCall() { rt.leave_call(); }
  ApiCall(const ApiCall&) = delete;
  ApiCall& operator=(const ApiCall&) = delete;
};
}  // namespace cdnajit::hip_sim

// Every entry point starts with this: the lock, the call's start (host work), and the device check.
#define HIP_SIM_ENTER()                                          \
  auto& rt = ::cdnajit::hip_sim::Runtime::get();                 \
  std::lock_guard<std::mutex> hip_sim_lock(rt.mutex);            \
  ::cdnajit::hip_sim::ApiCall hip_sim_call(rt);                  \
  if (hipError_t e_ = rt.require_device(); e_ != hipSuccess) return e_
