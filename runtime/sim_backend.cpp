// The simulator back end: device memory and launches go to sim::Simulator.
#include <fmt/format.h>

#include <chrono>

#include "jit/isa/error.hpp"
#include "runtime/backends.hpp"
#include "runtime/sim/code_object_load.hpp"
#include "runtime/sim_printf.hpp"

namespace cdnajit {

namespace {

// A code object with data of its own (__device__ / __constant__ variables, pointers the loader
// relocates) runs from its image in simulated memory, placed as the HSA loader places it
// (sim::map_code_object), so that its kernels reach their variables as on a GPU; the image is
// freed with the module, unless the device went first (its memory with it).
struct SimImage final : ModuleBackend {
  sim::Memory* memory;
  CodeObject* code;  // the module's own (ModuleState destroys its backend before its code)
  std::weak_ptr<void> device_alive;
  ~SimImage() override {
    if (!device_alive.expired()) sim::unmap_code_object(*memory, *code);
  }
};

}  // namespace

class SimDevice final : public Device {
 public:
  SimDevice(Arch arch, const sim::Options& opt) : sim_(arch), opt_(opt) {}

  Arch arch() const override { return sim_.arch(); }
  std::string name() const override { return "sim:" + std::string(arch_name(sim_.arch())); }
  bool is_simulator() const override { return true; }

  Buffer alloc(size_t bytes, std::string name) override {
    if (bytes == 0) throw Error(fmt::format("{}: alloc of 0 bytes for '{}'", this->name(), name));
    uint64_t a = sim_.memory().alloc(bytes, name);
    return Buffer{a, bytes, std::move(name)};
  }
  void free(const Buffer& b) override { sim_.memory().free(b.addr); }
  void copy_to_device(const Buffer& dst, const void* src, size_t n) override {
    detail::check_copy(dst, n, "copy_to_device");
    sim_.memory().write(dst.addr, src, n);
  }
  void copy_to_host(void* dst, const Buffer& src, size_t n) override {
    detail::check_copy(src, n, "copy_to_host");
    sim_.memory().read(src.addr, dst, n);
  }

  Module load(std::span<const uint8_t> bytes) override {
    auto st = std::make_shared<ModuleState>();
    st->code = read_code_object(bytes);
    if (st->code.arch != sim_.arch())
      throw Error(fmt::format("{}: code object is for {}, not {}", name(), arch_name(st->code.arch),
                              arch_name(sim_.arch())));
    st->owner = this;
    if (!st->code.globals.empty() || !st->code.relocations.empty()) {  // else nothing but code: run in place
      sim::map_code_object(sim_.memory(), st->code);
      auto image = std::make_unique<SimImage>();
      image->memory = &sim_.memory();
      image->code = &st->code;
      image->device_alive = alive_;
      st->backend = std::move(image);
    }
    return Module(std::move(st));
  }

  LaunchResult launch(const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                      const KernelArgs& args) override {
    detail::check_owner(k, this, name());
    auto t0 = std::chrono::steady_clock::now();
    LaunchResult r;
    r.kernarg = pack_kernargs(k.info(), args, grid, block, dynamic_lds);
    // A kernel that prints (device printf) gets a buffer; what it printed goes to stdout at the end.
    const SimPrintfScope device_printf(sim_.memory(), printf_buffer_, k.info(), r.kernarg, k.module().code.printf_formats);
    const sim::LaunchDims dims = sim_launch_dims(grid, block, dynamic_lds);
    r.sim_stats = launcher_ ? launcher_(sim_, k.module().code, k.name(), r.kernarg, dims, opt_)
                            : sim_.launch(k.module().code, k.name(), r.kernarg, dims, opt_);
    r.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }
  void synchronize() override {}  // launches are synchronous
  sim::Options& options() { return opt_; }
  void set_launcher(SimLauncher l) { launcher_ = std::move(l); }
  const SimLauncher& launcher() const { return launcher_; }

 private:
  sim::Simulator sim_;
  sim::Options opt_;
  SimLauncher launcher_;
  uint64_t printf_buffer_ = 0;  // the device printf buffer (SimPrintfScope), allocated at the first printing launch
  std::shared_ptr<void> alive_ = std::make_shared<int>(0);  // expires with the device (SimImage)
};

sim::LaunchDims sim_launch_dims(Dim3 grid, Dim3 block, uint32_t dynamic_lds) {
  sim::LaunchDims d;
  d.grid[0] = grid.x, d.grid[1] = grid.y, d.grid[2] = grid.z;
  d.block[0] = block.x, d.block[1] = block.y, d.block[2] = block.z;
  d.dynamic_lds = dynamic_lds;
  return d;
}

sim::Options* sim_options(Device& d) {
  auto* s = dynamic_cast<SimDevice*>(&d);
  return s ? &s->options() : nullptr;
}

void set_sim_launcher(Device& d, SimLauncher launcher) {
  auto* s = dynamic_cast<SimDevice*>(&d);
  if (!s) throw Error(fmt::format("set_sim_launcher: {} is not a simulator device", d.name()));
  s->set_launcher(std::move(launcher));
}

SimLauncher sim_launcher(Device& d) {
  auto* s = dynamic_cast<SimDevice*>(&d);
  if (!s) throw Error(fmt::format("sim_launcher: {} is not a simulator device", d.name()));
  return s->launcher();
}

namespace detail {
std::unique_ptr<Device> make_sim_device(Arch arch, const sim::Options& opt) {
  return std::make_unique<SimDevice>(arch, opt);
}
}  // namespace detail

}  // namespace cdnajit
