// Internal: constructors of the two Device back ends (device.cpp dispatches).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "runtime/device.hpp"

namespace cdnajit::detail {

std::unique_ptr<Device> make_sim_device(Arch arch, const sim::Options& opt);
// Throws cdnajit::Error with the reason when HIP or device `index` is unusable.
std::unique_ptr<Device> make_hip_device(int index);
// Same, through an explicit list of libamdhip64 candidates (tests use a fake).
std::unique_ptr<Device> make_hip_device_from(const std::vector<std::string>& libraries, int index);

// hip_availability() for an explicit list of library names/paths (uncached;
// lets tests exercise the "libamdhip64 not found" path).
HipAvailability probe_hip_libraries(const std::vector<std::string>& libraries);

// How the HIP runtime behind a hip:N device makes its hipEvent times: empty for a GPU's
// runtime (measured); for cdnajit's drop-in runtime (runtime/hip_sim) its own statement,
// "modelled (model mi300x)" or "host wall time of the simulator (...)". Empty for a simulator device.
std::string hip_event_time_source(const Device& d);

// Shared checks for copies: n bytes must fit inside buffer b.
void check_copy(const Buffer& b, size_t n, const char* what);
// Shared check: the kernel's module was loaded by `device`.
void check_owner(const DeviceKernel& k, const Device* device, const std::string& device_name);

}  // namespace cdnajit::detail
