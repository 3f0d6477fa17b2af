// The HIP back end against a fake libamdhip64 (tests/runtime/fake_hip.cpp):
// the real back-end code runs — dlopen, entry points, gcnArchName search,
// hipModuleLoadData/GetFunction, kernargs through HIP_LAUNCH_PARAM_BUFFER_*,
// hipEvent timing — while the fake records what it was given.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#include "jit/isa/error.hpp"
#include "runtime/backends.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"

using namespace cdnajit;

namespace {

struct FakeHipLaunch {  // mirrors fake_hip.cpp
  char function[256];
  unsigned grid[3], block[3], shared_bytes;
  size_t kernarg_size;
  unsigned char kernarg[4096];
  int launches;
};

const FakeHipLaunch& last_launch() {
  void* lib = dlopen(CDNAJIT_FAKE_HIP, RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(lib != nullptr);
  auto* l = static_cast<const FakeHipLaunch*>(dlsym(lib, "fake_hip_last_launch"));
  REQUIRE(l != nullptr);
  return *l;
}

std::unique_ptr<Device> fake_device(int index = 0) { return detail::make_hip_device_from({CDNAJIT_FAKE_HIP}, index); }

const char* kSource = R"(
extern "C" __global__ void scale(float* out, const float* in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * s;
}
)";

}  // namespace

TEST_CASE("HIP back end: device discovery through the loaded library", "[runtime][hip][fakehip]") {
  auto dev = fake_device();
  CHECK_FALSE(dev->is_simulator());
  CHECK(dev->arch() == Arch::gfx942);
  CHECK(dev->name() == "hip:0 (Fake Instinct, gfx942:sramecc+:xnack-)");
  CHECK_THROWS_WITH(fake_device(1), Catch::Contains("only 1 HIP device(s) (valid: hip:0..hip:0)"));

  setenv("FAKE_HIP_ARCH", "gfx90a:sramecc+:xnack-", 1);
  CHECK_THROWS_WITH(fake_device(), Catch::Contains("device architecture 'gfx90a:sramecc+:xnack-' is not supported"));
  setenv("FAKE_HIP_ARCH", "gfx950", 1);
  CHECK(fake_device()->arch() == Arch::gfx950);
  unsetenv("FAKE_HIP_ARCH");
}

TEST_CASE("HIP back end: memory, module load and a launch's kernarg buffer", "[runtime][hip][fakehip]") {
  auto dev = fake_device();
  std::vector<float> in(100, 1.5f);
  Buffer bin = dev->upload(std::span<const float>(in), "in");
  Buffer bout = dev->alloc(400, "out");
  CHECK(dev->download<float>(bin) == in);

  Module m = dev->load(compile_hip(kSource, Arch::gfx942));
  DeviceKernel k = m.kernel("scale");
  int before = last_launch().launches;
  LaunchResult r = dev->launch(k, {2, 1, 1}, {64, 1, 1}, 256, KernelArgs().ptr(bout).ptr(bin).f32(3.0f).i32(100));
  dev->synchronize();

  const FakeHipLaunch& l = last_launch();
  CHECK(l.launches == before + 1);
  CHECK(std::string(l.function) == "scale");
  CHECK((l.grid[0] == 2 && l.grid[1] == 1 && l.grid[2] == 1));
  CHECK((l.block[0] == 64 && l.block[1] == 1 && l.block[2] == 1));
  CHECK(l.shared_bytes == 256);
  REQUIRE(l.kernarg_size == k.info().kernarg_size);
  CHECK(std::memcmp(l.kernarg, r.kernarg.data(), l.kernarg_size) == 0);
  uint64_t out_addr;
  std::memcpy(&out_addr, l.kernarg, 8);
  CHECK(out_addr == bout.addr);
  REQUIRE(r.gpu_ms.has_value());
  CHECK(*r.gpu_ms == 0.25);
  CHECK_FALSE(r.sim_stats.has_value());

  CHECK_THROWS_WITH(dev->load(compile_hip(kSource, Arch::gfx950)), Catch::Contains("code object is for gfx950, not gfx942"));
  CHECK_THROWS_WITH(dev->launch(k, {2}, {64}, 0, KernelArgs().ptr(bout)), Catch::Contains("was not given"));
  dev->free(bin);
  dev->free(bout);
}
