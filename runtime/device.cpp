#include "runtime/device.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>

#include "jit/isa/error.hpp"
#include "runtime/backends.hpp"

namespace cdnajit {

DeviceKernel Module::kernel(std::string_view name) const {
  const auto& ks = state_->code.kernels;
  for (size_t i = 0; i < ks.size(); ++i)
    if (ks[i].name == name) return DeviceKernel(state_, i);
  std::string avail;
  for (const auto& k : ks) avail += (avail.empty() ? "'" : ", '") + k.name + "'";
  throw Error(fmt::format("Module::kernel: no kernel named '{}' in the code object; available: {}", name,
                          avail.empty() ? "none" : avail));
}

std::vector<std::string> Module::kernel_names() const {
  std::vector<std::string> names;
  for (const auto& k : state_->code.kernels) names.push_back(k.name);
  return names;
}

namespace detail {

void check_copy(const Buffer& b, size_t n, const char* what) {
  if (!b) throw Error(fmt::format("{}: null buffer", what));
  if (n > b.bytes)
    throw Error(fmt::format("{}: {} bytes do not fit buffer '{}' of {} bytes", what, n, b.name, b.bytes));
}

void check_owner(const DeviceKernel& k, const Device* device, const std::string& device_name) {
  if (k.module().owner != device)
    throw Error(fmt::format("launch of kernel '{}' on {}: its module was loaded on a different device", k.name(),
                            device_name));
}

}  // namespace detail

std::unique_ptr<Device> open_sim_device(Arch arch, const sim::Options& opt) {
  return detail::make_sim_device(arch, opt);
}

std::unique_ptr<Device> open_device(std::string_view spec, const sim::Options& sim_options) {
  const char* valid = "valid: \"hip:N\", \"hip\" (= hip:0), \"sim:gfx942\", \"sim:gfx950\", \"sim\" (= sim:gfx950)";
  if (spec.empty()) {
    const char* env = std::getenv("CDNAJIT_DEVICE");
    if (env && *env) {
      try {
        return open_device(env, sim_options);
      } catch (const Error& e) {
        throw Error(fmt::format("CDNAJIT_DEVICE=\"{}\": {}", env, e.what()));
      }
    }
    // A GPU is "usable" when hip:0 opens and is a gfx942/gfx950; any other
    // machine (no library, no GPU, another architecture) gets the simulator.
    if (hip_availability().device_count > 0) {
      try {
        return detail::make_hip_device(0);
      } catch (const Error&) {
      }
    }
    return detail::make_sim_device(Arch::gfx950, sim_options);
  }
  if (spec == "sim") return detail::make_sim_device(Arch::gfx950, sim_options);
  if (spec.rfind("sim:", 0) == 0) {
    auto arch = parse_arch(spec.substr(4));
    if (!arch) throw Error(fmt::format("open_device(\"{}\"): unknown simulator arch; {}", spec, valid));
    return detail::make_sim_device(*arch, sim_options);
  }
  if (spec == "hip") return detail::make_hip_device(0);
  if (spec.rfind("hip:", 0) == 0) {
    auto num = spec.substr(4);
    int index = -1;
    auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), index);
    if (ec != std::errc() || p != num.data() + num.size() || index < 0)
      throw Error(fmt::format("open_device(\"{}\"): bad device index '{}'; {}", spec, num, valid));
    return detail::make_hip_device(index);
  }
  throw Error(fmt::format("open_device(\"{}\"): unknown device spec; {}", spec, valid));
}

}  // namespace cdnajit
