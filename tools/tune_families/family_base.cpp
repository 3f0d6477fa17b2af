#include "tools/tune_families/family_base.hpp"

#include <fmt/format.h>

namespace cdnajit::tune {

std::string BuiltCandidate::summary() const { return fmt::format("{}; built in {:.1f} ms", describe(), build_ms_); }

BoundLaunch::~BoundLaunch() {
  for (const Buffer& b : buffers_) dev_.free(b);
}

DeviceKernel BoundLaunch::load(std::span<const uint8_t> code_object, std::string_view name) {
  modules_.push_back(dev_.load(code_object));
  return modules_.back().kernel(name);
}

LaunchSpec bound_launch(const std::shared_ptr<BoundLaunch>& bound, const DeviceKernel& kernel, Dim3 grid, Dim3 block,
                        KernelArgs args) {
  LaunchSpec spec;
  spec.device = &bound->device();
  spec.kernel = kernel;
  spec.grid = grid;
  spec.block = block;
  spec.args = std::move(args);
  spec.keep_alive = bound;
  return spec;
}

}  // namespace cdnajit::tune
