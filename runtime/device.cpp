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

std::optional<DeviceSpec> parse_device_spec(std::string_view spec, std::string* problem) {
  auto fail = [&](std::string why) -> std::optional<DeviceSpec> {
    if (problem) *problem = std::move(why);
    return std::nullopt;
  };
  if (spec == "sim") return DeviceSpec{};
  if (spec == "hip") return DeviceSpec{.simulator = false};
  if (spec.rfind("sim:", 0) == 0) {
    auto arch = parse_arch(spec.substr(4));
    if (!arch) return fail("unknown simulator arch");
    return DeviceSpec{.arch = *arch};
  }
  if (spec.rfind("hip:", 0) == 0) {
    const std::string_view num = spec.substr(4);
    int index = -1;
    // Digits only (no sign), at most 9 of them, so the index always fits an int.
    const bool digits = !num.empty() && num.size() <= 9 && num.find_first_not_of("0123456789") == std::string_view::npos;
    if (!digits) return fail(fmt::format("bad device index '{}'", num));
    std::from_chars(num.data(), num.data() + num.size(), index);
    return DeviceSpec{.simulator = false, .hip_index = index};
  }
  return fail("unknown device spec");
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
  std::string problem;
  const auto parsed = parse_device_spec(spec, &problem);
  if (!parsed) throw Error(fmt::format("open_device(\"{}\"): {}; {}", spec, problem, valid));
  if (parsed->simulator) return detail::make_sim_device(parsed->arch, sim_options);
  return detail::make_hip_device(parsed->hip_index);
}

}  // namespace cdnajit
