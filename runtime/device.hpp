// One device API over two back ends: a real GPU through the HIP runtime
// (libamdhip64, loaded at run time with dlopen so binaries start without it)
// and the project's CPU simulator of gfx942/gfx950.
//
//   auto dev = cdnajit::open_device();              // CDNAJIT_DEVICE, else hip:0, else sim:gfx950
//   auto mod = dev->load(code_object_bytes);
//   auto k   = mod.kernel("saxpy");
//   auto x   = dev->alloc(n * 4, "x");
//   dev->copy_to_device(x, host.data(), n * 4);
//   dev->launch(k, {n / 256}, {256}, 0, cdnajit::KernelArgs().ptr(x).f32(2.0f).i32(n));
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jit/isa/isa.hpp"
#include "runtime/kernel_args.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit {

// Back-end state of a loaded module (HIP module handle, ...). Internal.
struct ModuleBackend {
  virtual ~ModuleBackend() = default;
};

// Everything a loaded code object owns; shared by Module and its Kernels.
struct ModuleState {
  CodeObject code;
  std::unique_ptr<ModuleBackend> backend;
  const void* owner = nullptr;  // the Device that loaded it (launching elsewhere is an error)
  // Back-end function handle per kernel (hipFunction_t), same order as code.kernels.
  std::vector<void*> handles;
};

class DeviceKernel {
 public:
  DeviceKernel(std::shared_ptr<const ModuleState> m, size_t index) : module_(std::move(m)), index_(index) {}
  const std::string& name() const { return info().name; }
  const KernelInfo& info() const { return module_->code.kernels[index_]; }  // args, kernarg size, LDS, registers
  const ModuleState& module() const { return *module_; }
  void* handle() const { return index_ < module_->handles.size() ? module_->handles[index_] : nullptr; }

 private:
  std::shared_ptr<const ModuleState> module_;
  size_t index_;
};

// A code object loaded on a device. Cheap to copy (shared state).
class Module {
 public:
  explicit Module(std::shared_ptr<ModuleState> s) : state_(std::move(s)) {}
  // Throws cdnajit::Error listing the available kernels when `name` is absent.
  DeviceKernel kernel(std::string_view name) const;
  std::vector<std::string> kernel_names() const;
  const CodeObject& code_object() const { return state_->code; }

 private:
  std::shared_ptr<ModuleState> state_;
};

struct LaunchResult {
  std::vector<uint8_t> kernarg;          // the packed kernarg segment that was passed
  std::optional<double> gpu_ms;          // HIP back end: hipEvent elapsed time of the kernel
  std::optional<sim::Stats> sim_stats;   // simulator back end: instruction counts, wall time
  double host_ms = 0;                    // host wall time of launch(), packing to completion
};

class Device {
 public:
  virtual ~Device() = default;
  virtual Arch arch() const = 0;
  virtual std::string name() const = 0;  // "sim:gfx950", "hip:0 (AMD Instinct MI300X, gfx942)"
  virtual bool is_simulator() const = 0;

  virtual Buffer alloc(size_t bytes, std::string name = "") = 0;
  virtual void free(const Buffer& b) = 0;
  // Copy n bytes between host and device; n must fit the buffer (else Error).
  virtual void copy_to_device(const Buffer& dst, const void* src, size_t n) = 0;
  virtual void copy_to_host(void* dst, const Buffer& src, size_t n) = 0;

  virtual Module load(std::span<const uint8_t> code_object) = 0;
  // Packs `args` against the kernel's metadata (see pack_kernargs), then runs
  // the grid (`grid` counts workgroups). Returns when the kernel has finished:
  // the simulator runs it in place; HIP waits for the launch's end event and
  // reports its hipEvent time.
  virtual LaunchResult launch(const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                              const KernelArgs& args) = 0;
  virtual void synchronize() = 0;

  // Typed conveniences.
  template <class T>
  Buffer upload(std::span<const T> host, std::string name = "") {
    Buffer b = alloc(host.size_bytes(), std::move(name));
    copy_to_device(b, host.data(), host.size_bytes());
    return b;
  }
  template <class T>
  Buffer upload(const std::vector<T>& host, std::string name = "") {
    return upload(std::span<const T>(host), std::move(name));
  }
  template <class T>
  std::vector<T> download(const Buffer& b) {
    std::vector<T> v(b.bytes / sizeof(T));
    copy_to_host(v.data(), b, v.size() * sizeof(T));
    return v;
  }
};

// A device spec that names a device: "sim" (= sim:gfx950), "sim:gfx942", "sim:gfx950", "hip"
// (= hip:0) or "hip:N" (N: 1 to 9 decimal digits). The one grammar of device specs: open_device
// and the command line's --device check both use it. nullopt for anything else, with the reason
// in `*problem` when given.
struct DeviceSpec {
  bool simulator = true;
  Arch arch = Arch::gfx950;  // simulator only
  int hip_index = 0;         // hip only
};
std::optional<DeviceSpec> parse_device_spec(std::string_view spec, std::string* problem = nullptr);

// spec: "hip:N", "sim:gfx942", "sim:gfx950", "sim" (= sim:gfx950) or "" (env
// CDNAJIT_DEVICE if set, else hip:0 when a GPU is usable, else sim:gfx950).
// Throws cdnajit::Error when the requested device is absent or spec is invalid.
// `sim_options` (instruction budget, time limit, ...) apply when it is a simulator.
std::unique_ptr<Device> open_device(std::string_view spec = "", const sim::Options& sim_options = {});

// Simulator device with explicit options (dot2 mode, checks, threads).
std::unique_ptr<Device> open_sim_device(Arch arch, const sim::Options& opt = {});

// The simulator's launch dimensions for a launch of `grid` workgroups of `block` work-items.
sim::LaunchDims sim_launch_dims(Dim3 grid, Dim3 block, uint32_t dynamic_lds);

// The options of a simulator device, or nullptr for any other device. A caller
// may change them between launches (the tuner's timing model turns recording on
// for one launch and restores them).
sim::Options* sim_options(Device& d);

// Simulator devices: every later launch calls `launcher` instead of Simulator::launch (the timing
// model's driver, which may run a launch several times; runtime/model/clock_reads.hpp). An empty
// function restores the plain launch. Throws cdnajit::Error for any other device.
using SimLauncher = std::function<sim::Stats(sim::Simulator&, const CodeObject&, std::string_view kernel,
                                             std::span<const uint8_t> kernarg, const sim::LaunchDims&,
                                             const sim::Options&)>;
void set_sim_launcher(Device& d, SimLauncher launcher);
// The launcher set_sim_launcher gave (empty: the plain launch). Throws cdnajit::Error for any other device.
SimLauncher sim_launcher(Device& d);

// How many HIP devices are usable, or why there are none ("no HIP device:
// libamdhip64 not found (tried ...)" / "no HIP device: hipGetDeviceCount
// returned 100 (hipErrorNoDevice)").
struct HipAvailability {
  int device_count = 0;
  std::string reason;  // empty when device_count > 0
};
HipAvailability hip_availability();

// Multi-line human summary of simulator statistics (for the cdnajit CLI).
std::string format_sim_stats(const sim::Stats& s);

}  // namespace cdnajit
