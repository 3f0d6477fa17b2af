// cdnajit's hip:N back end (runtime/hip_backend.cpp) driving the drop-in
// runtime instead of a GPU: the same kernels with the same inputs on hip:0 (the
// drop-in, simulating gfx942) and on sim:gfx942 give the same bits, the same
// kernarg segment, and the launch's hipEvent time is the modelled time of the
// launch (model mi300x), as model_launch computes it.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>

#include "runtime/backends.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"
#include "runtime/model/launch_model.hpp"
#include "runtime/sim/code_object_load.hpp"

using namespace cdnajit;

namespace {

const char* kSource = R"(
extern "C" __global__ void scale(float* out, const float* in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * s;
}
// Per-workgroup sums through LDS, a barrier per step.
extern "C" __global__ void block_sum(float* out, const float* in) {
  __shared__ float part[256];
  int t = threadIdx.x;
  part[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = part[0];
}
)";

std::unique_ptr<Device> drop_in() {
  setenv("CDNAJIT_HIP_DEVICE", "sim:gfx942", 1);
  setenv("CDNAJIT_HIP_MODEL", "mi300x", 1);
  setenv("CDNAJIT_HIP_HOST_WORK", "0", 1);  // event times compared with the model's exactly: no host work
  return detail::make_hip_device_from({CDNAJIT_DROP_IN_HIP}, 0);
}

}  // namespace

TEST_CASE("hip:0 through the drop-in runtime computes what sim:gfx942 computes", "[hip_sim][drop_in]") {
  auto hip = drop_in();
  auto sim = open_sim_device(Arch::gfx942);
  CHECK_FALSE(hip->is_simulator());
  CHECK(hip->arch() == Arch::gfx942);
  CHECK_THAT(hip->name(), Catch::Contains("AMD Instinct MI300X (cdnajit simulator)"));

  const std::vector<uint8_t> co = compile_hip(kSource, Arch::gfx942);
  const int n = 4096;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float(i % 97) * 0.37f - 11.f;

  auto run = [&](Device& dev, const char* kernel, std::vector<uint8_t>* kernarg, std::optional<double>* gpu_ms) {
    Module m = dev.load(co);
    Buffer bin = dev.upload(in, "in");
    Buffer bout = dev.alloc(n * sizeof(float), "out");
    LaunchResult r = std::string(kernel) == "scale"
                         ? dev.launch(m.kernel("scale"), {n / 256}, {256}, 0, KernelArgs().ptr(bout).ptr(bin).f32(1.5f).i32(n))
                         : dev.launch(m.kernel("block_sum"), {n / 256}, {256}, 0, KernelArgs().ptr(bout).ptr(bin));
    dev.synchronize();
    *kernarg = r.kernarg;
    *gpu_ms = r.gpu_ms;
    std::vector<float> out = dev.download<float>(bout);
    dev.free(bin);
    dev.free(bout);
    return out;
  };
  // Models each launch on a simulator of our own that repeats the drop-in's allocations (the code
  // object's image, mapped when the module is loaded, then the buffers), so the kernarg's
  // pointers name the same buffers.
  sim::Simulator model_sim(Arch::gfx942);
  CodeObject obj = read_code_object(co);
  for (const char* kernel : {"scale", "block_sum"}) {
    INFO(kernel);
    std::vector<uint8_t> ka_hip, ka_sim;
    std::optional<double> ms_hip, ms_sim;
    const auto out_hip = run(*hip, kernel, &ka_hip, &ms_hip);
    const auto out_sim = run(*sim, kernel, &ka_sim, &ms_sim);
    REQUIRE(out_hip.size() == out_sim.size());
    CHECK(std::memcmp(out_hip.data(), out_sim.data(), out_hip.size() * sizeof(float)) == 0);
    CHECK(ka_hip.size() == ka_sim.size());
    REQUIRE(ms_hip.has_value());
    CHECK_FALSE(ms_sim.has_value());

    // The event time is the modelled time of this launch on mi300x plus its launch overhead.
    sim::map_code_object(model_sim.memory(), obj);
    const uint64_t a = model_sim.memory().alloc(n * sizeof(float)), b = model_sim.memory().alloc(n * sizeof(float));
    model_sim.memory().write(a, in.data(), n * sizeof(float));
    const auto report = model::model_launch(model_sim, obj, kernel, ka_hip, sim_launch_dims({n / 256}, {256}, 0), {},
                                            model::product("mi300x"));
    model_sim.memory().free(a);
    model_sim.memory().free(b);
    sim::unmap_code_object(model_sim.memory(), obj);
    CHECK(report.ms > 0);
    // The drop-in's events also count the product's launch overhead (Hardware::launch_overhead_us).
    CHECK(*ms_hip == Approx(report.ms + model::product("mi300x").launch_overhead_us * 1e-3).epsilon(1e-6));
  }
}
