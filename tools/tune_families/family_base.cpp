#include "tools/tune_families/family_base.hpp"

#include <fmt/format.h>

#include "jit/codeobject/code_object.hpp"
#include "jit/codeobject/kernel_occupancy.hpp"
#include "runtime/tune/problem_text.hpp"

namespace cdnajit::tune {

std::string BuiltCandidate::summary() const { return fmt::format("{}; built in {:.1f} ms", describe(), build_ms_); }

BoundLaunch::~BoundLaunch() {
  for (const Buffer& b : buffers_) dev_.free(b);
}

DeviceKernel BoundLaunch::load(std::span<const uint8_t> code_object, std::string_view name) {
  modules_.push_back(dev_.load(code_object));
  return modules_.back().kernel(name);
}

std::pair<int, int> config_pair(const Config& c, std::string_view name) {
  const std::string& v = config_value(c, name);
  auto f = parse_problem_fields(v, "{A:4096}x{B:4096}", "configuration");
  if (!f) throw Error(fmt::format("{} '{}' is not AxB", name, v));
  return {int((*f)[0]), int((*f)[1])};
}

std::string kernel_stats_line(const BuildResult& b, Arch arch, int threads) {
  CodeObject co = read_code_object(b.code_object);
  const KernelInfo* k = co.find(b.name);
  if (!k) return "no kernel info";
  return fmt::format("VGPR {} AGPR {} SGPR {} LDS {} B, {} waves/SIMD", architectural_vgprs(*k), k->agpr_count,
                     k->sgpr_count, k->group_segment_size,
                     code_object_occupancy(*k, arch, uint32_t(threads)).waves_per_simd);
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
