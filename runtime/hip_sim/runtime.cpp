#include "runtime/hip_sim/runtime.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "jit/isa/error.hpp"
#include "runtime/device.hpp"
#include "runtime/sim_printf.hpp"
#include "runtime/hip_sim/launch_error.hpp"
#include "runtime/hip_sim/offload_bundle.hpp"
#include "runtime/model/launch_model.hpp"
#include "runtime/model/product_file.hpp"
#include "runtime/sim/code_object_load.hpp"
#include "runtime/sim/residency.hpp"

namespace cdnajit::hip_sim {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// The processors the registered programs carry code for ("gfx942 gfx950").
bool any_bundle_has(const std::vector<std::unique_ptr<FatBinary>>& bins, const std::string& proc) {
  for (const auto& b : bins) try {
      if (!b->bundle) continue;
      for (const auto& e : read_offload_bundle(static_cast<const uint8_t*>(b->bundle), SIZE_MAX))
        if (bundle_entry_processor(e.id) == proc) return true;
    } catch (const Error&) {
    }
  return false;
}

}  // namespace

Runtime& Runtime::get() {
  static Runtime* rt = new Runtime();
  return *rt;
}

const Config& Runtime::config() {
  if (config_) return *config_;
  Config c;
  const std::string device = env("CDNAJIT_HIP_DEVICE"), model_name = env("CDNAJIT_HIP_MODEL");
  if (device.empty()) {
    // Unset: the program's own architecture when it carries code for gfx950 only, else gfx942.
    c.arch = !any_bundle_has(fat_binaries, "gfx942") && any_bundle_has(fat_binaries, "gfx950") ? Arch::gfx950 : Arch::gfx942;
  } else {
    std::string problem;
    auto spec = parse_device_spec(device, &problem);
    if (!spec) c.error = "CDNAJIT_HIP_DEVICE='" + device + "': " + problem + "; valid: sim:gfx942, sim:gfx950";
    else if (!spec->simulator)
      c.error = "CDNAJIT_HIP_DEVICE='" + device + "': this library runs kernels on the simulator only; valid: sim:gfx942, sim:gfx950";
    else c.arch = spec->arch;
  }
  if (c.error.empty() && model_name != "off") {
    try {
      c.hw = model_name.empty() ? model::default_product(c.arch) : model::resolve_product(model_name);
      if (c.hw->arch != c.arch)
        c.error = "CDNAJIT_HIP_MODEL='" + model_name + "' is a " + std::string(arch_name(c.hw->arch)) + " product but the device is sim:" +
                  std::string(arch_name(c.arch)) + "; pick a " + std::string(arch_name(c.arch)) + " product or off";
    } catch (const Error& e) {
      c.error = "CDNAJIT_HIP_MODEL='" + model_name + "': " + e.what() + ", or off";
    }
  }
  const std::string only = env("CDNAJIT_HIP_MODEL_ONLY");
  if (c.error.empty() && !only.empty() && only != "0") {
    if (only != "1" && only != "round")
      c.error = "CDNAJIT_HIP_MODEL_ONLY='" + only + "': valid are 1 (run only the workgroups the model replays and a "
                "sample of the first round), round (those and the whole first round) or 0";
    else if (!c.hw) c.error = "CDNAJIT_HIP_MODEL_ONLY=" + only + " needs a timing model (CDNAJIT_HIP_MODEL is off)";
    else c.model_only = true, c.model_only_traced = only == "round" ? model::kMaxTracedWorkgroups : model::kSampledTracedWorkgroups;
  }
  c.print_reports = c.hw && env("CDNAJIT_HIP_MODEL_REPORT") == "1";
  const std::string waits = env("CDNAJIT_HIP_CHECK_WAITCNT");
  if (c.error.empty() && !waits.empty() && waits != "1") {
    if (waits != "0") c.error = "CDNAJIT_HIP_CHECK_WAITCNT='" + waits + "': valid are 1 (default) or 0";
    else c.check_waitcnt = false;
  }
  const std::string sync = env("CDNAJIT_HIP_HOST_SYNC_US");
  if (c.error.empty() && !sync.empty()) {
    char* end = nullptr;
    const double us = std::strtod(sync.c_str(), &end);
    if (*end != '\0' || !(us >= 0 && us <= 1e6))
      c.error = "CDNAJIT_HIP_HOST_SYNC_US='" + sync + "': valid is a number of microseconds from 0 to 1e6 (default 0)";
    else if (!c.hw && us > 0) c.error = "CDNAJIT_HIP_HOST_SYNC_US=" + sync + " needs a timing model (CDNAJIT_HIP_MODEL is off)";
    else c.host_sync_us = us;
  }
  const std::string work = env("CDNAJIT_HIP_HOST_WORK");
  if (c.error.empty() && !work.empty() && work != "1") {
    if (work != "0") c.error = "CDNAJIT_HIP_HOST_WORK='" + work + "': valid are 1 (default: host work between calls is timed) or 0";
    else c.host_work = false;
  }
  config_ = std::move(c);
  return *config_;
}

void Runtime::host_synchronize() {
  host_ms = std::max(host_ms, modelled_ms);  // the host waits for the device's queue
  host_work_before_launch = 0;
  host_work_in_sync = 0;
  if (!launched_since_host_sync) return;  // nothing in flight: the host does not wait
  launched_since_host_sync = false;
  if (config().hw) {
    // The synchronize's cost was measured end to end (a timed region with and without it), so it
    // includes the host's usual work after it: host work up to its length runs inside it.
    host_ms += config().host_sync_us * 1e-3;
    host_work_in_sync = config().host_sync_us * 1e-3;
  }
}

namespace {
// The calling thread's CPU time (ns): host work, without the time the thread waited for a core.
int64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}
// When this thread left its last HIP call (-1: none yet). Per thread: a thread's host work is the
// time between its own calls.
thread_local int64_t left_call_ns = -1;
// What one reading of the thread's CPU time costs (a system call, 0.3-0.5 us in a VM): a gap between
// two calls contains about one reading's cost that is not the program's work, so it is taken off.
// The fastest of 64 consecutive readings' spacing (once per process).
int64_t clock_read_ns() {
  static const int64_t cost = [] {
    int64_t best = INT64_MAX, prev = thread_cpu_ns();
    for (int i = 0; i < 64; ++i) {
      const int64_t now = thread_cpu_ns();
      best = std::min(best, now - prev);
      prev = now;
    }
    return best;
  }();
  return cost;
}
}  // namespace

void Runtime::enter_call() {
  const int64_t now = thread_cpu_ns();
  // Only once the configuration is known: the first call resolves it (and ends no host work).
  if (left_call_ns >= 0 && config_ && config_->error.empty() && config_->hw && config_->host_work) {
    const double work = double(std::max<int64_t>(0, now - left_call_ns - clock_read_ns())) * 1e-6;
    const double ms = std::max(0.0, work - host_work_in_sync);  // beyond what a charged synchronize covers
    host_work_in_sync = std::max(0.0, host_work_in_sync - work);
    host_ms += ms;
    host_work_before_launch += ms;
  }
}

void Runtime::leave_call() { left_call_ns = thread_cpu_ns(); }

hipError_t Runtime::require_device() {
  const Config& c = config();
  if (c.error.empty()) return hipSuccess;
  if (!said_config_error_) std::fprintf(stderr, "cdnajit HIP: no device: %s\n", c.error.c_str());
  said_config_error_ = true;
  return last_error = hipErrorNoDevice;
}

sim::Simulator& Runtime::sim() {
  if (!sim_) sim_ = std::make_unique<sim::Simulator>(config().arch);
  return *sim_;
}

hipError_t Runtime::fail(hipError_t e, const std::string& api, const std::string& why) {
  std::fprintf(stderr, "cdnajit HIP: %s: %s (%s)\n", api.c_str(), why.c_str(), hipGetErrorName(e));
  last_error = e;
  return e;
}

uint8_t* Runtime::resolve(const void* p, size_t n, bool host_ok, std::string* why) {
  const uint64_t a = reinterpret_cast<uint64_t>(p);
  char at[32];
  std::snprintf(at, sizeof at, "%#llx", static_cast<unsigned long long>(a));
  sim::Memory& mem = sim().memory();
  if (sim::Memory::Block* b = mem.find(a, n)) return b->data.get() + (a - b->base);
  if (mem.find(a, 0)) {
    *why = std::to_string(n) + " bytes at " + at + " leave the allocation; " + mem.describe_nearest(a);
    return nullptr;
  }
  if (host_ok && p) return static_cast<uint8_t*>(const_cast<void*>(p));
  *why = p ? std::string("pointer ") + at + " is not device memory from hipMalloc; " + mem.describe_nearest(a)
           : "null pointer";
  return nullptr;
}

hipError_t Runtime::load_fat_binary(FatBinary& fb, const char* api) {
  if (!fb.loaded && fb.error.empty()) {
    fb.loaded = true;
    try {
      const std::string want = std::string(arch_name(config().arch));
      std::string have;
      for (const auto& e : read_offload_bundle(static_cast<const uint8_t*>(fb.bundle), SIZE_MAX)) {
        const std::string proc = bundle_entry_processor(e.id);
        if (proc.empty()) continue;
        have += (have.empty() ? "" : ", ") + proc;
        if (proc != want || fb.module) continue;
        fb.module = std::make_unique<ihipModule_t>();
        fb.module->code = read_code_object(e.bytes);
      }
      if (!fb.module)
        throw Error("the program has no code object for " + want + " (it has: " + (have.empty() ? "none" : have) +
                    "); build it with --offload-arch=" + want + " or set CDNAJIT_HIP_DEVICE to the architecture it has");
      // Its global variables in device memory, initialised, as the HIP runtime loads a code object.
      sim::map_code_object(sim().memory(), fb.module->code);
      for (const auto& v : managed_variables) {
        if (v.binary != &fb) continue;
        const GlobalVariable* g = fb.module->code.find_global(v.name);
        if (!g || g->size != 8)
          throw Error("__managed__ variable '" + v.name + "': the code object has no 8-byte pointer variable of that name");
        sim().memory().write(fb.module->code.load_address + g->vaddr, &v.address, 8);
      }
      for (const auto& k : fb.module->code.kernels) fb.functions[k.name] = ihipModuleSymbol_t{fb.module.get(), &k};
    } catch (const Error& e) {
      fb.error = e.what();
    }
  }
  if (!fb.error.empty()) return fail(hipErrorNoBinaryForGpu, api, fb.error);
  return hipSuccess;
}

hipError_t Runtime::host_function(const void* handle, const ihipModuleSymbol_t** out, const char* api) {
  auto it = host_functions.find(handle);
  if (it == host_functions.end())
    return fail(hipErrorInvalidDeviceFunction, api, "no kernel is registered for this function pointer");
  FatBinary& fb = *it->second.first;
  if (hipError_t e = load_fat_binary(fb, api); e != hipSuccess) return e;
  auto f = fb.functions.find(it->second.second);
  if (f == fb.functions.end())
    return fail(hipErrorInvalidDeviceFunction, api, "kernel '" + it->second.second + "' is not in the code object");
  *out = &f->second;
  return hipSuccess;
}

hipError_t Runtime::host_variable(const void* symbol, uint64_t* address, size_t* size, const char* api) {
  auto it = host_variables.find(symbol);
  if (it == host_variables.end())
    return fail(hipErrorInvalidSymbol, api,
                "no __device__ or __constant__ variable is registered at this host address (pass the variable "
                "itself, HIP_SYMBOL(name), not its name or a device pointer)");
  FatBinary& fb = *it->second.first;
  if (hipError_t e = load_fat_binary(fb, api); e != hipSuccess) return e;
  const CodeObject& code = fb.module->code;
  const GlobalVariable* g = code.find_global(it->second.second);
  if (!g) return fail(hipErrorInvalidSymbol, api, "variable '" + it->second.second + "' is not in the code object");
  *address = code.load_address + g->vaddr;
  *size = g->size;
  return hipSuccess;
}

hipError_t Runtime::prepare_cooperative(const KernelInfo& k, const Dim3& grid, const Dim3& block, uint32_t shared,
                                        std::vector<uint8_t>& kernarg, const std::string& where) {
  // Every workgroup resident at once, or a workgroup waiting at grid.sync() could hold the CU a
  // missing one needs: the device's CUs times what one CU holds of this kernel (the simulator's
  // residency arithmetic, which the simulator applies to every launch).
  const uint64_t groups = uint64_t(grid.x) * grid.y * grid.z;
  const uint64_t threads = uint64_t(block.x) * block.y * block.z;
  sim::CuResidency cu;
  try {
    cu = sim::cu_residency(config().arch, k, threads, uint64_t(k.group_segment_size) + shared);
  } catch (const Error& e) {
    return fail(hipErrorCooperativeLaunchTooLarge, where, e.what());
  }
  const int cus = config().shown_product().cus;
  if (groups > uint64_t(cus) * cu.workgroups_per_cu)
    return fail(hipErrorCooperativeLaunchTooLarge, where,
                std::to_string(groups) + " workgroups cannot all be resident: at most " +
                    std::to_string(uint64_t(cus) * cu.workgroups_per_cu) + " (" + std::to_string(cus) + " CUs x " + cu.why +
                    ")");
  const KernelArgInfo* arg = k.find_arg_kind("hidden_multigrid_sync_arg");
  if (!arg || arg->size != 8 || uint64_t(arg->offset) + 8 > kernarg.size()) return hipSuccess;  // no grid.sync()
  try {
    if (!grid_sync_words) grid_sync_words = sim().memory().alloc(16, "grid.sync() words");
  } catch (const Error& e) {
    return fail(hipErrorOutOfMemory, where, std::string("no memory for the grid.sync() words: ") + e.what());
  }
  const uint8_t zero[16] = {};
  sim().memory().write(grid_sync_words, zero, sizeof zero);
  std::memcpy(kernarg.data() + arg->offset, &grid_sync_words, 8);
  return hipSuccess;
}

hipError_t Runtime::launch(const ihipModuleSymbol_t& f, dim3 grid, dim3 block, size_t shared, void** params,
                           const uint8_t* image, size_t image_size, const char* api, bool cooperative) {
  const KernelInfo& k = *f.kernel;
  const std::string where = std::string(api) + " of '" + k.name + "'";
  if (sticky_error != hipSuccess)
    return fail(sticky_error, where, "an earlier kernel failed; the device stays unusable until hipDeviceReset");
  if (shared > UINT32_MAX) return fail(hipErrorInvalidValue, where, "dynamic LDS of " + std::to_string(shared) + " bytes");
  KernelArgs args;
  size_t i = 0;
  for (const auto& a : k.args) {
    if (is_hidden_arg(a)) continue;
    const uint8_t* src = nullptr;
    if (params) {
      src = static_cast<const uint8_t*>(params[i]);
    } else if (image && uint64_t(a.offset) + a.size <= image_size) {
      src = image + a.offset;
    } else {
      return fail(hipErrorInvalidValue, where,
                  "argument '" + a.name + "' lies at [" + std::to_string(a.offset) + ", +" + std::to_string(a.size) +
                      ") but the argument buffer has " + std::to_string(image_size) + " bytes");
    }
    if (!src) return fail(hipErrorInvalidValue, where, "kernelParams[" + std::to_string(i) + "] is null");
    if (a.value_kind == "global_buffer" && a.size == 8) {
      uint64_t v;
      std::memcpy(&v, src, 8);
      args.address(v);
    } else {
      args.bytes("", src, a.size);
    }
    ++i;
  }
  const Dim3 g{grid.x, grid.y, grid.z}, b{block.x, block.y, block.z};
  std::vector<uint8_t> kernarg;
  try {
    kernarg = pack_kernargs(k, args, g, b, uint32_t(shared));
  } catch (const Error& e) {
    return fail(hipErrorInvalidConfiguration, where, e.what());
  }
  // A kernel that prints gets the printf buffer in its hidden argument, emptied; what it printed
  // goes to stdout (stderr) when the launch has ended, also when it failed.
  std::optional<SimPrintfScope> device_printf;
  try {
    device_printf.emplace(sim().memory(), printf_buffer, k, kernarg, f.module->code.printf_formats);
  } catch (const Error& e) {
    return fail(hipErrorOutOfMemory, where, e.what());
  }
  const sim::LaunchDims dims = sim_launch_dims(g, b, uint32_t(shared));
  const Config& c = config();
  if (cooperative)
    if (hipError_t e = prepare_cooperative(k, g, b, uint32_t(shared), kernarg, where); e != hipSuccess) return e;
  std::optional<model::LaunchPlan> plan;
  model_error.clear();
  if (c.hw) try {
      plan = model::plan_launch(k, c.arch, dims, *c.hw);
    } catch (const Error& e) {
      model_error = e.what();
    }
  // A modelled launch goes through the model's entry (model::model_launch): the sampled workgroups
  // and the cache lines of the first round recorded, and a kernel that reads s_memtime /
  // s_memrealtime run to the fixed point of its modelled clock values, so clock64() differences
  // are modelled cycles.
  sim::Options opt;
  opt.check_waitcnt = c.check_waitcnt;
  // A cooperative grid runs whole: its workgroups wait for each other at grid.sync().
  const bool model_only = c.model_only && !cooperative;
  if (plan && model_only && !said_model_only_) {
    std::fprintf(stderr, "cdnajit HIP: CDNAJIT_HIP_MODEL_ONLY: each launch runs only the workgroups the timing model "
                         "replays and traces (%s); the other workgroups' outputs are not computed\n",
                 c.model_only_traced == model::kMaxTracedWorkgroups ? "the first round" : "a sample of the first round");
    said_model_only_ = true;
  }
  std::optional<model::ModelReport> report;
  try {
    if (plan) {
      // A model-only launch runs (and traces) the sample the codegen families' model_launch_of uses
      // (=1: two workgroups per XCD, too few to see other workgroups reuse a line in L2) or the whole
      // first round (=round: the lines a full launch traces, so the modelled time equals a full launch's).
      const model::SimulatedGrid grid = !model_only ? model::SimulatedGrid::full
                                        : c.model_only_traced == model::kMaxTracedWorkgroups
                                            ? model::SimulatedGrid::sampled_first_round
                                            : model::SimulatedGrid::sampled;
      report = model::model_launch(sim(), f.module->code, k.name, kernarg, dims, opt, *c.hw, {}, nullptr, grid);
    } else {
      sim().launch(f.module->code, k.name, kernarg, dims, opt);
    }
  } catch (const sim::LaunchError& e) {
    if (e.kind == sim::LaunchError::Kind::OutOfResources)  // refused before it ran: not sticky
      return fail(launch_error_code(e.kind), where, e.what());
    sticky_error = launch_error_code(e.kind);
    return fail(sticky_error, where, e.what());
  } catch (const Error& e) {  // refused before it ran (LDS, scratch, an undecodable kernel, ...)
    sticky_error = hipErrorLaunchFailure;
    return fail(sticky_error, where, e.what());
  }
  if (report) {
    // A launch timed between hipEvents also pays the product's fixed launch overhead; it starts when
    // the device's queue is done and the host has submitted it. The overhead was fitted on a timed
    // region of an event, the host's work to submit a launch (setting an attribute, the launch stub)
    // and the launch, so the host work since the last event, synchronize or launch is inside it and
    // leaves the host's point (a spike of this machine's load there, tens of microseconds in a VM,
    // would otherwise move a short kernel's time).
    host_ms -= host_work_before_launch;
    modelled_ms = std::max(modelled_ms, host_ms) + report->ms + c.hw->launch_overhead_us * 1e-3;
    host_work_before_launch = 0;
    host_work_in_sync = 0;
    launched_since_host_sync = true;
    if (c.print_reports) std::fprintf(stderr, "%s", model::format_report(*report).c_str());
  }
  if (!model_error.empty()) {
    ++unmodelled_launches;
    std::fprintf(stderr, "cdnajit HIP: %s: no modelled time: %s\n", where.c_str(), model_error.c_str());
  }
  return hipSuccess;
}

bool Runtime::known_event(hipEvent_t e) const { return is_owned(events, e); }

void Runtime::record(ihipEvent_t& e) {
  e.recorded = true;
  modelled_ms = std::max(modelled_ms, host_ms);  // the device reaches the event when the host has recorded it
  host_work_before_launch = 0;
  host_work_in_sync = 0;  // the event is after the synchronize's whole cost
  e.modelled_ms = modelled_ms;
  e.unmodelled_launches = unmodelled_launches;
  e.wall = std::chrono::steady_clock::now();
}

bool valid_stream(Runtime& rt, hipStream_t s) {
  return s == nullptr || s == hipStreamPerThread || is_owned(rt.streams, s);
}

}  // namespace cdnajit::hip_sim

// The weak stubs of not_supported.c call this: one line naming the entry point, and the error.
extern "C" int cdnajit_hip_sim_not_supported(const char* name) {
  auto& rt = cdnajit::hip_sim::Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  return rt.fail(hipErrorNotSupported, name, "not implemented by the cdnajit simulator runtime");
}
