#include "tools/cli/selftest_device.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "jit/isa/error.hpp"

namespace cdnajit::cli {

SelftestDevice::SelftestDevice(Device& inner, std::optional<Timing> timing, AfterLaunch after, bool corrupt_first_output,
                               FirstLaunch first)
    : inner_(inner), timing_(timing), after_(std::move(after)), first_(std::move(first)), corrupt_(corrupt_first_output) {}

Buffer SelftestDevice::alloc(size_t bytes, std::string name) {
  Buffer b = inner_.alloc(bytes, std::move(name));
  std::vector<uint8_t> zero(bytes, 0);
  inner_.copy_to_device(b, zero.data(), bytes);
  live_.push_back(b);
  return b;
}

void SelftestDevice::free(const Buffer& b) {
  live_.erase(std::remove_if(live_.begin(), live_.end(), [&](const Buffer& l) { return l.addr == b.addr; }),
              live_.end());
  inner_.free(b);
}

std::vector<SelftestBuffer> SelftestDevice::snapshot() {
  inner_.synchronize();
  std::vector<SelftestBuffer> m;
  for (const Buffer& b : live_) {
    SelftestBuffer s{b.name, std::vector<uint8_t>(b.bytes)};
    inner_.copy_to_host(s.bytes.data(), b, b.bytes);
    m.push_back(std::move(s));
  }
  return m;
}

void SelftestDevice::restore(const std::vector<SelftestBuffer>& memory) {
  for (size_t i = 0; i < live_.size() && i < memory.size(); ++i)
    inner_.copy_to_device(live_[i], memory[i].bytes.data(), memory[i].bytes.size());
  inner_.synchronize();
}

LaunchResult SelftestDevice::launch(const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                                    const KernelArgs& args) {
  const std::vector<SelftestBuffer> before = snapshot();
  LaunchResult first = first_ ? first_(inner_, k, grid, block, dynamic_lds, args) : inner_.launch(k, grid, block, dynamic_lds, args);
  SelftestLaunch rec{label_, k.name(), grid, block, dynamic_lds, snapshot(), {}, {}, {}, false, 0};
  for (size_t i = 0; i < rec.memory.size() && i < before.size(); ++i)
    if (rec.memory[i].bytes != before[i].bytes) rec.written.push_back(rec.memory[i].name);
  if (corrupt_ && launches_.empty()) {
    // Test hook: a stand-in for a device that gets one bit wrong.
    for (size_t i = 0; i < rec.memory.size(); ++i) {
      if (i >= before.size() || rec.memory[i].bytes == before[i].bytes) continue;
      rec.memory[i].bytes[0] ^= 1;
      inner_.copy_to_device(live_[i], rec.memory[i].bytes.data(), 1);
      break;
    }
  }
  if (after_) after_(rec);
  if (timing_) {
    // Repeated launches may change what the kernel reads (in-place or accumulating kernels):
    // the memory after the recorded launch is put back for the driver's next step.
    for (int i = 0; i < timing_->warmups; ++i) inner_.launch(k, grid, block, dynamic_lds, args);
    for (int i = 0; i < timing_->timings; ++i) {
      LaunchResult r = inner_.launch(k, grid, block, dynamic_lds, args);
      if (!r.gpu_ms)
        throw Error(fmt::format("selftest: {} gave no hipEvent time for {} (a HIP device times every launch)",
                                inner_.name(), k.name()));
      rec.times_ms.push_back(*r.gpu_ms);
    }
    restore(rec.memory);
  }
  launches_.push_back(std::move(rec));
  return first;
}

}  // namespace cdnajit::cli
