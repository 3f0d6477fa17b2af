// map_code_object: a clang kernel's __constant__ / __device__ variables in simulated memory,
// reached through clang's PC-relative addresses (s_getpc_b64 + the link-time REL32_LO/HI), with
// the loader's dynamic relocation applied; and the kind of a launch's Error.
#include <catch2/catch.hpp>

#include <cstring>

#include "runtime/device.hpp"
#include "runtime/sim/code_object_load.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace simtest;
using cdnajit::Arch;

namespace {

const char* kGlobals = R"(
__constant__ float coef[4] = {1.5f, -2.f, 3.25f, 4.f};
__device__ unsigned counter;
__device__ unsigned* counter_ptr = &counter;
extern "C" __global__ void use_globals(float* out) {
  out[tid()] = coef[tid() & 3] * float(tid());
  atomicAdd(&counter, 1u);
  atomicAdd(counter_ptr, 2u);
}
)";

}  // namespace

TEST_CASE("map_code_object: globals before and after .text, a relocated pointer, values kept across launches",
          "[sim][code_object_load]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    Device dev(arch);
    std::string why;
    auto co = load_hip_or_skip(kGlobals, arch, why);
    if (!co) CDNAJIT_SKIP(why);
    const cdnajit::GlobalVariable *coef = co->find_global("coef"), *counter = co->find_global("counter"),
                                  *ptr = co->find_global("counter_ptr");
    REQUIRE(coef);
    REQUIRE(counter);
    REQUIRE(ptr);
    CHECK(coef->size == 16);
    CHECK(coef->vaddr < co->text_address);  // .rodata comes first: a negative PC-relative offset
    CHECK(counter->vaddr > co->text_address);
    const uint64_t base = cdnajit::sim::map_code_object(dev.sim.memory(), *co);
    CHECK(cdnajit::sim::map_code_object(dev.sim.memory(), *co) == base);  // once
    // The initialiser, and the pointer relocated to the mapped counter (R_AMDGPU_RELATIVE64).
    CHECK(dev.download<float>(base + coef->vaddr, 4) == std::vector<float>{1.5f, -2.f, 3.25f, 4.f});
    CHECK(dev.download<uint64_t>(base + ptr->vaddr, 1)[0] == base + counter->vaddr);
    uint64_t out = dev.upload(std::vector<float>(64), "out");
    for (int launch = 0; launch < 2; ++launch) dev.run(*co, "use_globals", ArgPack().add(out), dims1(1, 64));
    auto got = dev.download<float>(out, 64);
    const float c[4] = {1.5f, -2.f, 3.25f, 4.f};
    for (int i = 0; i < 64; ++i) CHECK(got[i] == c[i & 3] * float(i));
    CHECK(dev.download<uint32_t>(base + counter->vaddr, 1)[0] == 2u * 64u * 3u);
    cdnajit::sim::unmap_code_object(dev.sim.memory(), *co);
    CHECK(co->load_address == 0);
    // Unmapped, the kernel's address of `coef` is outside simulated memory: reported, never served.
    bool threw = false;
    try {
      dev.run(*co, "use_globals", ArgPack().add(out), dims1(1, 64));
    } catch (const cdnajit::sim::LaunchError& e) {
      threw = true;
      CHECK(e.kind == cdnajit::sim::LaunchError::Kind::OutOfBounds);
    }
    CHECK(threw);
  }
}

TEST_CASE("map_code_object refuses a relocation against a symbol the code object does not define",
          "[sim][code_object_load]") {
  Device dev(Arch::gfx942);
  std::string why;
  auto co = load_hip_or_skip(kGlobals, Arch::gfx942, why);
  if (!co) CDNAJIT_SKIP(why);
  REQUIRE(!co->relocations.empty());
  co->relocations[0].symbol = "elsewhere";
  co->relocations[0].symbol_defined = false;
  const size_t before = dev.sim.memory().allocations().size();
  try {
    cdnajit::sim::map_code_object(dev.sim.memory(), *co);
    FAIL("no error");
  } catch (const cdnajit::Error& e) {
    CHECK(std::string(e.what()).find("symbol 'elsewhere'") != std::string::npos);
    CHECK(std::string(e.what()).find("not defined in the code object") != std::string::npos);
  }
  CHECK(dev.sim.memory().allocations().size() == before);  // nothing left allocated
  CHECK(co->load_address == 0);
}

TEST_CASE("a simulator Device maps a code object's globals at load, as `cdnajit run` and the HIP runtime do",
          "[sim][code_object_load]") {
  try {
    compile_hip(kGlobals, Arch::gfx942);
  } catch (const std::exception& e) {
    if (std::string(e.what()).find("cannot run") == std::string::npos) throw;
    CDNAJIT_SKIP(std::string("clang++-22 is not available to compile the HIP kernels: ") + e.what());
  }
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    std::unique_ptr<cdnajit::Device> dev = cdnajit::open_sim_device(arch);
    {
      cdnajit::Module m = dev->load(compile_hip(kGlobals, arch));
      CHECK(m.code_object().load_address != 0);  // mapped at load, not at the first launch
      cdnajit::DeviceKernel k = m.kernel("use_globals");
      cdnajit::Buffer out = dev->alloc(64 * sizeof(float), "out");
      cdnajit::KernelArgs args;
      args.ptr(out);
      for (int launch = 0; launch < 2; ++launch) dev->launch(k, {1, 1, 1}, {64, 1, 1}, 0, args);
      std::vector<float> got(64);
      dev->copy_to_host(got.data(), out, got.size() * sizeof(float));
      const float c[4] = {1.5f, -2.f, 3.25f, 4.f};
      for (int i = 0; i < 64; ++i) CHECK(got[i] == c[i & 3] * float(i));
      dev->free(out);
    }
  }
}
