// The device API: opening devices, the absent-GPU path of the HIP back end,
// simulator memory, module/kernel lookup, launches and stats formatting.
#include <catch2/catch.hpp>

#include "tests/test_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <numeric>

#include "jit/isa/error.hpp"
#include "runtime/backends.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"

using namespace cdnajit;

namespace {

const char* kScaleSource = R"(
extern "C" __global__ void scale(float* out, const float* in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * s;
}
extern "C" __global__ void fill(int* out, int v) { out[blockIdx.x * blockDim.x + threadIdx.x] = v; }
)";

std::string error_text(auto&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("without a usable GPU the HIP back end reports why, cleanly", "[runtime][device][hip][needs_no_gpu]") {
  HipAvailability av = hip_availability();
  if (av.device_count > 0)
    CDNAJIT_SKIP("a HIP device is present here (" + std::to_string(av.device_count) + " devices)");
  // Either libamdhip64 is absent, or it loads and hipGetDeviceCount fails
  // (libamdhip64 5.2 without a GPU returns hipErrorNoDevice).
  CHECK_THAT(av.reason, Catch::StartsWith("no HIP device: "));
  CHECK_THAT(av.reason, Catch::Contains("libamdhip64 not found") || Catch::Contains("hipGetDeviceCount"));
  CHECK_THROWS_WITH(open_device("hip:0"), Catch::Contains("open_device(\"hip:0\"): no HIP device"));
  CHECK_THROWS_WITH(open_device("hip"), Catch::Contains("no HIP device"));
}

TEST_CASE("a missing libamdhip64 is reported by name", "[runtime][device][hip]") {
  HipAvailability av = detail::probe_hip_libraries({"/nonexistent/libamdhip64.so.6"});
  CHECK(av.device_count == 0);
  CHECK_THAT(av.reason, Catch::Equals("no HIP device: libamdhip64 not found (tried /nonexistent/libamdhip64.so.6)"));
}

TEST_CASE("libamdhip64 5.2 without a GPU: hipGetDeviceCount's error is reported", "[runtime][device][hip][needs_libamdhip64_5]") {
  const char* lib = "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5";
  if (!std::filesystem::exists(lib)) CDNAJIT_SKIP(std::string(lib) + " is not installed here");
  HipAvailability av = detail::probe_hip_libraries({lib});
  if (av.device_count > 0) CDNAJIT_SKIP("a HIP device is present");
  CHECK_THAT(av.reason, Catch::StartsWith("no HIP device: hipGetDeviceCount returned 100 (hipErrorNoDevice"));
}

TEST_CASE("open_device parses specs and falls back to the simulator", "[runtime][device]") {
  auto d942 = open_device("sim:gfx942");
  CHECK(d942->arch() == Arch::gfx942);
  CHECK(d942->is_simulator());
  CHECK(d942->name() == "sim:gfx942");
  CHECK(open_device("sim")->arch() == Arch::gfx950);

  CHECK_THROWS_WITH(open_device("sim:gfx90a"), Catch::Contains("unknown simulator arch") && Catch::Contains("sim:gfx950"));
  CHECK_THROWS_WITH(open_device("hip:x"), Catch::Contains("bad device index 'x'"));
  CHECK_THROWS_WITH(open_device("cuda:0"), Catch::Contains("unknown device spec"));
  CHECK_THROWS_WITH(open_device("hip:-1"), Catch::Contains("bad device index '-1'"));
  CHECK_THROWS_WITH(open_device("hip:1234567890"), Catch::Contains("bad device index"));

  // The one device-spec grammar (also the command line's --device check).
  CHECK(parse_device_spec("hip:12")->hip_index == 12);
  CHECK_FALSE(parse_device_spec("hip:12")->simulator);
  CHECK(parse_device_spec("sim:gfx942")->arch == Arch::gfx942);
  std::string problem;
  CHECK_FALSE(parse_device_spec("sim:", &problem));
  CHECK(problem == "unknown simulator arch");

  const char* saved = std::getenv("CDNAJIT_DEVICE");
  std::string saved_value = saved ? saved : "";
  setenv("CDNAJIT_DEVICE", "sim:gfx942", 1);
  CHECK(open_device()->name() == "sim:gfx942");
  setenv("CDNAJIT_DEVICE", "bogus", 1);
  CHECK_THROWS_WITH(open_device(), Catch::Contains("CDNAJIT_DEVICE=\"bogus\""));
  unsetenv("CDNAJIT_DEVICE");
  if (hip_availability().device_count == 0) CHECK(open_device()->name() == "sim:gfx950");
  if (saved) setenv("CDNAJIT_DEVICE", saved_value.c_str(), 1);
}

TEST_CASE("simulator device memory round-trips and checks sizes", "[runtime][device]") {
  auto dev = open_device("sim:gfx950");
  std::vector<uint32_t> host(1000);
  std::iota(host.begin(), host.end(), 7u);
  Buffer b = dev->upload(std::span<const uint32_t>(host), "data");
  CHECK(b.bytes == 4000);
  CHECK(dev->download<uint32_t>(b) == host);
  std::vector<uint32_t> big(1001);
  CHECK_THROWS_WITH(dev->copy_to_device(b, big.data(), 4004), Catch::Contains("4004 bytes do not fit buffer 'data'"));
  CHECK_THROWS_WITH(dev->copy_to_host(big.data(), b, 4004), Catch::Contains("do not fit"));
  dev->free(b);
}

TEST_CASE("modules list their kernels; unknown names are reported with the alternatives", "[runtime][device]") {
  auto dev = open_device("sim:gfx942");
  Module m = dev->load(compile_hip(kScaleSource, Arch::gfx942));
  auto names = m.kernel_names();
  CHECK(std::find(names.begin(), names.end(), "scale") != names.end());
  CHECK(m.kernel("fill").name() == "fill");
  CHECK_THROWS_WITH(m.kernel("scal"),
                    Catch::Contains("no kernel named 'scal'") && Catch::Contains("'scale'") && Catch::Contains("'fill'"));
}

TEST_CASE("loading a code object for the other arch is refused", "[runtime][device]") {
  auto dev = open_device("sim:gfx950");
  auto co = compile_hip(kScaleSource, Arch::gfx942);
  CHECK_THROWS_WITH(dev->load(co), Catch::Contains("code object is for gfx942, not gfx950"));
}

TEST_CASE("launch packs arguments from metadata and returns simulator stats", "[runtime][device]") {
  auto dev = open_device("sim:gfx950");
  Module m = dev->load(compile_hip(kScaleSource, Arch::gfx950));
  DeviceKernel k = m.kernel("scale");
  const int n = 200;  // not a multiple of the block: exercises the bounds check
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float(i) * 0.25f - 3.0f;
  Buffer bin = dev->upload(std::span<const float>(in), "in");
  Buffer bout = dev->alloc(n * 4, "out");
  LaunchResult r = dev->launch(k, {4}, {64}, 0, KernelArgs().ptr(bout).ptr(bin).f32(1.5f).i32(n));
  auto out = dev->download<float>(bout);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == in[i] * 1.5f);
  REQUIRE(r.sim_stats.has_value());
  CHECK(r.sim_stats->workgroups == 4);
  CHECK(r.sim_stats->waves == 4);
  CHECK(r.sim_stats->wave_instructions > 0);
  CHECK(r.sim_stats->by_unit[int(isa::Unit::VMEM)] > 0);
  CHECK_FALSE(r.gpu_ms.has_value());
  CHECK(r.kernarg.size() == k.info().kernarg_size);

  std::string s = format_sim_stats(*r.sim_stats);
  CHECK_THAT(s, Catch::Contains("4 workgroup(s), 4 wave(s)") && Catch::Contains("wave instructions") &&
                    Catch::Contains("VMEM"));

  // Argument errors surface before anything runs.
  CHECK_THROWS_WITH(dev->launch(k, {4}, {64}, 0, KernelArgs().ptr(bout).ptr(bin).f64(1.5).i32(n)),
                    Catch::Contains("kernel 'scale'") && Catch::Contains("#2") &&
                        Catch::Contains("expects a 4-byte value, got f64 (8 bytes)"));
  CHECK_THROWS_WITH(dev->launch(k, {4}, {64}, 0, KernelArgs().ptr(bout).ptr(bin).f32(1.5f)),
                    Catch::Contains("#3") && Catch::Contains("was not given"));

  // A kernel that runs past its buffer is stopped by the simulator, with context.
  CHECK_THROWS_WITH(dev->launch(k, {8}, {64}, 0, KernelArgs().ptr(bout).ptr(bin).f32(1.5f).i32(2 * n)),
                    Catch::Contains("scale"));

  // A kernel from one device cannot be launched on another.
  auto other = open_device("sim:gfx950");
  CHECK_THROWS_WITH(other->launch(k, {1}, {64}, 0, KernelArgs()), Catch::Contains("different device"));
}
