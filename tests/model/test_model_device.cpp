// model::model_launch on a Device: one call gives the results and the modelled time.
#include <catch2/catch.hpp>

#include <numeric>

#include "codegen/examples/examples.hpp"
#include "runtime/model/model_device.hpp"

using namespace cdnajit;
using Catch::Matchers::Contains;

namespace {
BuildResult vector_add(Arch arch) {
  Kernel k("vector_add", arch);
  examples::define_vector_add(k);
  return k.build();
}
}  // namespace

TEST_CASE("model_launch on a simulator device: bit-exact results and a labelled modelled time", "[model][device]") {
  auto dev = open_device("sim:gfx942");
  BuildResult b = vector_add(Arch::gfx942);
  DeviceKernel k = dev->load(b.code_object).kernel("vector_add");
  const uint32_t n = 4096;
  std::vector<float> a(n), c(n);
  std::iota(a.begin(), a.end(), 0.0f);
  std::iota(c.begin(), c.end(), 0.5f);
  Buffer ba = dev->upload(a, "a"), bc = dev->upload(c, "b"), out = dev->alloc(n * 4, "out");
  auto m = model::model_launch(*dev, k, {n / 256}, {256}, 0, KernelArgs().ptr(ba).ptr(bc).ptr(out).u32(n),
                               model::product("mi300x"));
  std::vector<float> got = dev->download<float>(out);
  for (uint32_t i = 0; i < n; ++i) REQUIRE(got[i] == a[i] + c[i]);
  CHECK(m.report.model == "mi300x");
  CHECK(m.report.ms > 0);
  CHECK(m.report.plan.workgroups == n / 256);
  CHECK(m.launch.sim_stats.has_value());
  CHECK_THAT(model::format_report(m.report), Contains("modelled (model mi300x)"));
  // Recording was for that launch only.
  REQUIRE(sim_options(*dev) != nullptr);
  CHECK(sim_options(*dev)->recording == nullptr);
}

TEST_CASE("model_launch refuses another arch's product and leaves the device as it was", "[model][device]") {
  auto dev = open_device("sim:gfx942");
  BuildResult b = vector_add(Arch::gfx942);
  DeviceKernel k = dev->load(b.code_object).kernel("vector_add");
  Buffer buf = dev->alloc(256 * 4, "x");
  REQUIRE_THROWS_WITH(model::model_launch(*dev, k, {1}, {256}, 0, KernelArgs().ptr(buf).ptr(buf).ptr(buf).u32(256),
                                          model::product("mi355x")),
                      Contains("mi355x") && Contains("gfx950") && Contains("sim:gfx942"));
  CHECK(sim_options(*dev)->recording == nullptr);
}
