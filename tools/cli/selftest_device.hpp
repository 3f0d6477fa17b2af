// The device `cdnajit selftest` runs each kernel set on: a Device that forwards to another one
// (the device under test, hip:N, or the reference simulator, sim:ARCH) and records every launch
// the drivers make: the kernel, its launch shape, the bytes of every live allocation after it,
// and either the hipEvent times of repeated launches (device under test) or the modelled time
// (the simulator, whose launches go through the timing model's entry). The drivers (codegen's run_* functions)
// run unchanged on it, so the two records of one kernel set line up launch by launch.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/device.hpp"

namespace cdnajit::cli {

struct SelftestBuffer {
  std::string name;
  std::vector<uint8_t> bytes;
};

struct SelftestLaunch {
  std::string label;   // what launched it ("gemm M160 N136 K64 NT bf16: JIT"); set by the kernel set
  std::string kernel;  // the kernel's symbol
  Dim3 grid, block;
  uint32_t dynamic_lds = 0;
  std::vector<SelftestBuffer> memory;  // every live allocation after the launch, in allocation order
  std::vector<std::string> written;    // the allocations the launch changed
  std::vector<double> times_ms;        // device under test: the hipEvent time of each timed launch
  std::optional<double> modelled_ms;   // simulator: the modelled time of the launch
  bool reads_clock = false;            // simulator: the kernel's code reads s_memtime / s_memrealtime
  uint64_t clock_reads = 0;            // simulator: clock reads the model gave values
};

class SelftestDevice final : public Device {
 public:
  struct Timing {
    int warmups = 3;   // untimed launches after the recorded one
    int timings = 20;  // timed launches (hipEvent each)
  };
  // What the simulator side fills in after each launch (modelled time, clock reads).
  using AfterLaunch = std::function<void(SelftestLaunch&)>;
  // How the recorded launch runs on `inner` (the simulator side: through the timing model's entry);
  // empty: inner.launch.
  using FirstLaunch = std::function<LaunchResult(Device& inner, const DeviceKernel&, Dim3 grid, Dim3 block,
                                                 uint32_t dynamic_lds, const KernelArgs&)>;
  // `timing`: time each kernel on `inner` (the device under test); nullopt for the simulator.
  // `corrupt_first_output`: the test-only hook (CDNAJIT_SELFTEST_CORRUPT_DEVICE_BYTE): after the
  // first launch, one bit of the first allocation it wrote is flipped in device memory.
  SelftestDevice(Device& inner, std::optional<Timing> timing, AfterLaunch after = {}, bool corrupt_first_output = false,
                 FirstLaunch first = {});

  void set_label(std::string label) { label_ = std::move(label); }
  const std::vector<SelftestLaunch>& launches() const { return launches_; }

  Arch arch() const override { return inner_.arch(); }
  std::string name() const override { return inner_.name(); }
  bool is_simulator() const override { return inner_.is_simulator(); }
  // Every allocation starts zeroed on both sides (a GPU's hipMalloc leaves old bytes, which the
  // comparison of whole allocations would otherwise see).
  Buffer alloc(size_t bytes, std::string name) override;
  void free(const Buffer& b) override;
  void copy_to_device(const Buffer& dst, const void* src, size_t n) override { inner_.copy_to_device(dst, src, n); }
  void copy_to_host(void* dst, const Buffer& src, size_t n) override { inner_.copy_to_host(dst, src, n); }
  Module load(std::span<const uint8_t> code_object) override { return inner_.load(code_object); }
  LaunchResult launch(const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                      const KernelArgs& args) override;
  void synchronize() override { inner_.synchronize(); }

 private:
  std::vector<SelftestBuffer> snapshot();
  void restore(const std::vector<SelftestBuffer>& memory);

  Device& inner_;
  std::optional<Timing> timing_;
  AfterLaunch after_;
  FirstLaunch first_;
  bool corrupt_ = false;
  std::string label_;
  std::vector<Buffer> live_;  // allocation order
  std::vector<SelftestLaunch> launches_;
};

}  // namespace cdnajit::cli
