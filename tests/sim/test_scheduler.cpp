// Work-item ids as the descriptor enables them, barriers after some waves have ended, and the
// wave scheduler: waves and workgroups that wait for each other (spin-waits on LDS or global
// flags, with and without s_sleep) finish with any number of host threads, and a wait nothing can
// satisfy is a deadlock Error, the same for every thread count.
#include <catch2/catch.hpp>

#include <functional>

#include "runtime/model/cu_model.hpp"
#include "runtime/model/hardware.hpp"
#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;
using Catch::Matchers::Contains;

namespace {

const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};
const int kThreadCounts[] = {1, 2, 7};

std::string error_of(std::function<void()> f) {
  try {
    f();
  } catch (const cdnajit::Error& e) {
    return e.what();
  }
  return "<no error>";
}

// A budget far above what these kernels need when they are scheduled well (a few thousand
// wave-instructions), far below what a wave spinning without a turn for the others runs into.
cdnajit::sim::Options opts(int threads) {
  cdnajit::sim::Options o;
  o.threads = threads;
  o.instruction_budget = 1u << 22;
  return o;
}

}  // namespace

TEST_CASE("work-item ids the descriptor does not enable read as zero", "[sim][sched][workitem]") {
  // Uses only threadIdx.x: clang enables only the X id (.amdhsa_system_vgpr_workitem_id 0) and takes v0
  // unmasked as x. Launched 64x2, both rows see x = 0..63 and each out[x] gets 2.
  const char* src = R"(
extern "C" __global__ void count_x(int* out) { atomicAdd(&out[threadIdx.x], 1); })";
  for (Arch arch : kArchs) {
    INFO(arch_name(arch));
    Device dev(arch);
    auto co = load_hip(src, arch);
    REQUIRE(co.find("count_x")->workitem_id_vgprs == 0);
    uint64_t out = dev.upload(std::vector<int>(2048, 0), "out");
    cdnajit::sim::LaunchDims d = dims1(1, 64);
    d.block[1] = 2;
    dev.run(co, "count_x", ArgPack().add(out), d);
    std::vector<int> got = dev.download<int>(out, 2048);
    int bad = 0;
    for (int i = 0; i < 2048; ++i)
      if (got[i] != (i < 64 ? 2 : 0) && bad++ < 3) FAIL_CHECK("out[" << i << "] = " << got[i]);
    CHECK(bad == 0);
  }
  // With threadIdx.y used, Y is enabled and delivered.
  const char* src_xy = R"(
extern "C" __global__ void count_xy(int* out) { atomicAdd(&out[threadIdx.y * 64 + threadIdx.x], 1); })";
  Device dev(Arch::gfx950);
  auto co = load_hip(src_xy, Arch::gfx950);
  REQUIRE(co.find("count_xy")->workitem_id_vgprs == 1);
  uint64_t out = dev.upload(std::vector<int>(128, 0), "out");
  cdnajit::sim::LaunchDims d = dims1(1, 64);
  d.block[1] = 2;
  dev.run(co, "count_xy", ArgPack().add(out), d);
  CHECK(dev.download<int>(out, 128) == std::vector<int>(128, 1));
}

TEST_CASE("s_barrier waits only for the waves that have not ended", "[sim][sched][barrier]") {
  // Half the workgroup returns before __syncthreads(); the other half exchanges data through LDS.
  const char* src = R"(
extern "C" __global__ void half_sync(int* out) {
  __shared__ int lds[512];
  unsigned t = threadIdx.x;
  if (t >= 512) return;
  lds[t] = int(t) * 3;
  __syncthreads();
  out[t] = lds[511 - t];
})";
  for (Arch arch : kArchs) {
    INFO(arch_name(arch));
    Device dev(arch);
    auto co = load_hip(src, arch);
    uint64_t out = dev.upload(std::vector<int>(512, -1), "out");
    dev.run(co, "half_sync", ArgPack().add(out), dims1(1, 1024));
    std::vector<int> got = dev.download<int>(out, 512);
    for (int t = 0; t < 512; ++t) REQUIRE(got[t] == (511 - t) * 3);
  }
}

TEST_CASE("a wave spinning on an LDS flag another wave sets finishes, whichever wave runs first", "[sim][sched][spin]") {
  // Wave `setter` publishes a value and raises the flag; every other wave spins until it sees it.
  const char* src = R"(
extern "C" __global__ void lds_flag(int* out, int setter, int sleep) {
  __shared__ int flag, data;
  unsigned t = threadIdx.x, wave = t / 64;
  if (t == 0) flag = 0;
  __syncthreads();
  if (wave == unsigned(setter)) {
    if (t % 64 == 0) {
      data = 1234 + setter;
      __hip_atomic_store(&flag, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_WORKGROUP);
    }
  } else {
    while (__hip_atomic_load(&flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_WORKGROUP) == 0)
      if (sleep) __builtin_amdgcn_s_sleep(1);
  }
  out[t] = data;
})";
  for (Arch arch : kArchs)
    for (int setter : {0, 1})
      for (int sleep : {0, 1}) {
        INFO(arch_name(arch) << " setter wave " << setter << " s_sleep " << sleep);
        Device dev(arch);
        auto co = load_hip(src, arch);
        uint64_t out = dev.upload(std::vector<int>(128, 0), "out");
        dev.run(co, "lds_flag", ArgPack().add(out).add(setter).add(sleep), dims1(1, 128), opts(1));
        CHECK(dev.download<int>(out, 128) == std::vector<int>(128, 1234 + setter));
      }
}

TEST_CASE("a workgroup spinning on a global flag a later workgroup sets finishes with 1, 2 and 7 host threads",
          "[sim][sched][spin]") {
  // Workgroup 0 waits for the last workgroup's flag; the others only copy.
  const char* src = R"(
extern "C" __global__ void wait_last(int* flag, int* out, int sleep) {
  unsigned b = blockIdx.x, t = threadIdx.x;
  if (b == 0) {
    while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) == 0)
      if (sleep) __builtin_amdgcn_s_sleep(2);
    out[t] = out[64 * (gridDim.x - 1) + t] + 1;
  } else {
    out[64 * b + t] = int(b * 100 + t);
    __syncthreads();
    if (b == gridDim.x - 1 && t == 0) __hip_atomic_store(flag, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
  }
})";
  const int groups = 5;
  for (Arch arch : kArchs)
    for (int sleep : {0, 1})
      for (int threads : kThreadCounts) {
        INFO(arch_name(arch) << " s_sleep " << sleep << " threads " << threads);
        Device dev(arch);
        auto co = load_hip(src, arch);
        uint64_t flag = dev.upload(std::vector<int>(1, 0), "flag");
        uint64_t out = dev.upload(std::vector<int>(64 * groups, 0), "out");
        dev.run(co, "wait_last", ArgPack().add(flag).add(out).add(sleep), dims1(groups, 64), opts(threads));
        std::vector<int> got = dev.download<int>(out, 64 * groups);
        for (int t = 0; t < 64; ++t) REQUIRE(got[t] == (groups - 1) * 100 + t + 1);
        for (int b = 1; b < groups; ++b)
          for (int t = 0; t < 64; ++t) REQUIRE(got[64 * b + t] == b * 100 + t);
      }
}

TEST_CASE("recording a workgroup that was suspended and resumed: each wave's own steps, replayable", "[sim][sched][record]") {
  // wait_last's workgroup 0 spins until the last workgroup runs: with one host thread it is suspended
  // and resumed. Its recorded waves must still be complete, in order, and replay in the timing model;
  // a workgroup that never waits records the same steps for every thread count.
  const char* src = R"(
extern "C" __global__ void wait_last(int* flag, int* out) {
  unsigned b = blockIdx.x, t = threadIdx.x;
  if (b == 0) {
    while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) == 0) __builtin_amdgcn_s_sleep(1);
    out[t] = 1;
  } else {
    out[64 * b + t] = int(b);
    if (b == gridDim.x - 1 && t == 0) __hip_atomic_store(flag, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
  }
})";
  Arch arch = Arch::gfx950;
  Device dev(arch);
  auto co = load_hip(src, arch);
  const auto& model_hw = cdnajit::model::product("mi355x");
  std::vector<cdnajit::sim::RecordedStep> other;
  for (int threads : kThreadCounts) {
    INFO("threads " << threads);
    uint64_t flag = dev.upload(std::vector<int>(1, 0), "flag");
    uint64_t out = dev.upload(std::vector<int>(64 * 4, 0), "out");
    cdnajit::sim::Recording rec;
    rec.workgroups = {0, 2};
    cdnajit::sim::Options o = opts(threads);
    o.recording = &rec;
    dev.run(co, "wait_last", ArgPack().add(flag).add(out), dims1(4, 64), o);
    REQUIRE(rec.waves.size() == 2);
    for (const auto& rw : rec.waves) {
      REQUIRE(!rw.steps.empty());
      CHECK(rec.ops[rw.steps.back().op].text == "s_endpgm");
      CHECK(rec.ops[rw.steps.front().op].pc == 0);
    }
    cdnajit::model::CuRunConfig cfg;
    cfg.workgroups = 2;
    cfg.workgroup_slots = 2;
    CHECK(cdnajit::model::run_cu(rec, model_hw, cfg).cycles > 0);
    if (other.empty()) other = rec.waves[1].steps;
    REQUIRE(rec.waves[1].steps.size() == other.size());
    for (size_t i = 0; i < other.size(); ++i) REQUIRE(rec.waves[1].steps[i].op == other[i].op);
  }
}

TEST_CASE("three workgroups waiting on each other finish with 1, 2 and 7 host threads", "[sim][sched][spin]") {
  // Each workgroup arrives at a counter and waits until all have arrived (a grid barrier).
  const char* src = R"(
extern "C" __global__ void grid_sync(int* count, int* out, int n) {
  unsigned b = blockIdx.x, t = threadIdx.x;
  out[64 * b + t] = int(b);
  __syncthreads();
  if (t == 0) {
    __hip_atomic_fetch_add(count, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
    while (__hip_atomic_load(count, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) < n) {}
  }
  __syncthreads();
  // Read the next workgroup's value, written before it arrived.
  out[64 * (n + b) + t] = __hip_atomic_load(&out[64 * ((b + 1) % n) + t], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
})";
  const int n = 3;
  for (Arch arch : kArchs) {
    std::vector<int> first;
    for (int threads : kThreadCounts) {
      INFO(arch_name(arch) << " threads " << threads);
      Device dev(arch);
      auto co = load_hip(src, arch);
      uint64_t count = dev.upload(std::vector<int>(1, 0), "count");
      uint64_t out = dev.upload(std::vector<int>(64 * 2 * n, -1), "out");
      dev.run(co, "grid_sync", ArgPack().add(count).add(out).add(n), dims1(n, 64), opts(threads));
      std::vector<int> got = dev.download<int>(out, 64 * 2 * n);
      for (int b = 0; b < n; ++b)
        for (int t = 0; t < 64; ++t) {
          REQUIRE(got[64 * b + t] == b);
          REQUIRE(got[64 * (n + b) + t] == (b + 1) % n);
        }
      CHECK(dev.download<int>(count, 1)[0] == n);
      if (first.empty()) first = got;
      CHECK(got == first);
    }
  }
}

TEST_CASE("a wait nothing can satisfy is a deadlock Error, the same for 1, 2 and 7 host threads", "[sim][sched][deadlock]") {
  // Wave 1 spins on an LDS flag nobody sets while wave 0 waits at the barrier.
  const char* in_wg = R"(
extern "C" __global__ void stuck_barrier(int* out, int n) {
  __shared__ int flag;
  if (threadIdx.x == 0) flag = n;
  __syncthreads();
  if (threadIdx.x / 64 == 1)
    while (__hip_atomic_load(&flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_WORKGROUP) != n + 1) {}
  __syncthreads();
  out[threadIdx.x] = 1;
})";
  // Every workgroup waits for a count that one workgroup too many would reach.
  const char* across = R"(
extern "C" __global__ void stuck_grid(int* count, int n) {
  if (threadIdx.x == 0) {
    __hip_atomic_fetch_add(count, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
    while (__hip_atomic_load(count, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) < n) __builtin_amdgcn_s_sleep(1);
  }
})";
  const char* lock_src = R"(
extern "C" __global__ void stuck_lock(int* lock) {
  if (threadIdx.x == 0)
    for (int expected = 0; !__hip_atomic_compare_exchange_strong(lock, &expected, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED,
                                                                  __HIP_MEMORY_SCOPE_AGENT);
         expected = 0) {}
})";
  for (Arch arch : kArchs) {
    INFO(arch_name(arch));
    Device dev(arch);
    auto co1 = load_hip(in_wg, arch);
    auto co2 = load_hip(across, arch);
    auto co3 = load_hip(lock_src, arch);
    uint64_t out = dev.upload(std::vector<int>(128, 0), "out");
    std::string msg1, msg2, msg3;
    for (int threads : kThreadCounts) {
      INFO("threads " << threads);
      std::string m = error_of([&] { dev.run(co1, "stuck_barrier", ArgPack().add(out).add(5), dims1(2, 128), opts(threads)); });
      CHECK_THAT(m, Contains("workgroup (0,0,0): deadlock") && Contains("wave 0 waits at s_barrier") &&
                        Contains("wave 1 spins in the loop at pc"));
      if (msg1.empty()) msg1 = m;
      CHECK(m == msg1);
      uint64_t count = dev.upload(std::vector<int>(1, 0), "count");
      m = error_of([&] { dev.run(co2, "stuck_grid", ArgPack().add(count).add(4), dims1(3, 64), opts(threads)); });
      CHECK_THAT(m, Contains("workgroup (0,0,0): deadlock") && Contains("wave 0 sleeps in a loop (s_sleep at pc") &&
                        Contains("2 other workgroups wait the same way") && Contains("every workgroup of the grid has started"));
      if (msg2.empty()) msg2 = m;
      CHECK(m == msg2);
      // Four workgroups would satisfy it, but only three may be resident: the hardware hangs too.
      cdnajit::sim::Options o = opts(threads);
      o.resident_workgroups = 3;
      uint64_t count4 = dev.upload(std::vector<int>(1, 0), "count");
      m = error_of([&] { dev.run(co2, "stuck_grid", ArgPack().add(count4).add(4), dims1(4, 64), o); });
      CHECK_THAT(m, Contains("deadlock") && Contains("3 workgroups are resident, the limit sim::Options::resident_workgroups sets"));
      if (msg3.empty()) msg3 = m;
      CHECK(m == msg3);
      // A lock nobody releases, taken with an atomic compare-and-swap in the loop: waiting, but a
      // loop with an atomic cannot be proved a deadlock, so the budget stops it and says why.
      uint64_t lock = dev.upload(std::vector<int>(1, 1), "lock");
      cdnajit::sim::Options small = opts(threads);
      small.instruction_budget = 1u << 18;
      m = error_of([&] { dev.run(co3, "stuck_lock", ArgPack().add(lock), dims1(2, 64), small); });
      CHECK_THAT(m, Contains("instruction budget of 262144 wave-instructions exhausted") &&
                        Contains("the wave scheduler was cycling waiting workgroups") && Contains("scheduler's limit"));
      // With room for all four it finishes.
      o.resident_workgroups = 4;
      uint64_t count5 = dev.upload(std::vector<int>(1, 0), "count");
      CHECK_NOTHROW(dev.run(co2, "stuck_grid", ArgPack().add(count5).add(4), dims1(4, 64), o));
    }
  }
}
