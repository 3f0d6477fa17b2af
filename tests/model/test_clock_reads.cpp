// In-kernel clocks under the timing model (runtime/model/clock_reads.hpp): an LDS pointer-chase
// microbenchmark timed with s_memtime reports the model's own LDS figures; per-wave clock values
// are monotonic, every clock-reading workgroup gets modelled values (not only the sampled ones) and
// the real-time counter runs at the product's rate; a kernel that spins on the clock reaches a fixed
// point in three runs (and a bound of two fails with a clear error); without the model the old
// instruction count stays.
#include <catch2/catch.hpp>

#include <cstring>

#include "jit/isa/error.hpp"
#include "jit/kernel.hpp"
#include "runtime/hip_source.hpp"
#include "runtime/model/launch_model.hpp"
#include "runtime/model/model_device.hpp"
#include "runtime/model/lds_banks.hpp"
#include "jit/codeobject/code_object.hpp"

using namespace cdnajit;

namespace {

struct Built {
  CodeObject co;
  std::string name;
  std::vector<uint8_t> bytes;  // the code object, for a device to load
};

Built build(Kernel& k) {
  BuildResult r = k.build();
  return {read_code_object(r.code_object), r.name, r.code_object};
}

// Moves the 64-bit SGPR pair `t` into v[2*i], v[2*i+1].
void to_vgprs(Kernel& k, Reg v, Reg t, int i) {
  k.v_mov_b32(v[2 * i], t[0]);
  k.v_mov_b32(v[2 * i + 1], t[1]);
}

// One wave: s_memtime, `chain` dependent conflict-free ds_read_b32 (each lane's dword holds its own
// address), s_memtime; stores both times at out[0..1] (uint64).
constexpr int kChain = 512;
Built lds_chase(Arch arch) {
  Kernel k("clock_lds_chase", arch);
  k.set_workgroup_size(64);
  const uint32_t base = k.lds_alloc("chain", 256);
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg p = k.vgpr("p");
  k.v_lshlrev_b32(p, 2, k.workitem_id(0));
  if (base) k.v_add_u32(p, int64_t(base), p);
  k.ds_write_b32(p, p);
  k.s_waitcnt(lgkmcnt(0));
  Reg t0 = k.sgpr("t0", 2), t1 = k.sgpr("t1", 2);
  k.s_memtime(t0);
  k.s_waitcnt(lgkmcnt(0));
  for (int i = 0; i < kChain; ++i) {
    k.ds_read_b32(p, p);
    k.s_waitcnt(lgkmcnt(0));
  }
  k.s_memtime(t1);
  k.s_waitcnt(lgkmcnt(0));
  Reg v = k.vgpr("v", 4), off = k.vgpr("off");
  to_vgprs(k, v, t0, 0);
  to_vgprs(k, v, t1, 1);
  k.v_mov_b32(off, 0);
  k.global_store_dwordx4(off, v, out);
  k.s_endpgm();
  return build(k);
}

// One wave: adds 1 to data[lane] (in place), then spins until s_memtime has advanced by `spin`
// cycles; stores t0, the last t and the iteration count at out[0..4] (dwords).
Built clock_spin(Arch arch, uint32_t spin) {
  Kernel k("clock_spin", arch);
  k.set_workgroup_size(64);
  Reg data = k.load_arg(k.arg<uint32_t*>("data"));
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg off = k.vgpr("off"), x = k.vgpr("x");
  k.v_lshlrev_b32(off, 2, k.workitem_id(0));
  k.s_waitcnt(lgkmcnt(0));
  k.global_load_dword(x, off, data);
  k.s_waitcnt(vmcnt(0));
  k.v_add_u32(x, 1, x);
  k.global_store_dword(off, x, data);
  Reg t0 = k.sgpr("t0", 2), t = k.sgpr("t", 2), d = k.sgpr("d"), n = k.sgpr("n");
  k.s_memtime(t0);
  k.s_waitcnt(lgkmcnt(0));
  k.s_mov_b32(n, 0);
  k.do_while_scc(
      [&] {
        k.s_memtime(t);
        k.s_waitcnt(lgkmcnt(0));
        k.s_add_u32(n, n, 1);
        k.s_sub_u32(d, t[0], t0[0]);
      },
      [&] { k.s_cmp_lt_u32(d, int64_t(spin)); });
  Reg v = k.vgpr("v", 4), w = k.vgpr("w"), z = k.vgpr("z");
  to_vgprs(k, v, t0, 0);
  to_vgprs(k, v, t, 1);
  k.v_mov_b32(w, n);
  k.v_mov_b32(z, 0);
  k.global_store_dwordx4(z, v, out);
  k.global_store_dword(z, w, out, Offset(16));
  k.s_endpgm();
  return build(k);
}

std::vector<uint8_t> kernarg(std::initializer_list<uint64_t> ptrs) {
  std::vector<uint8_t> k;
  for (uint64_t p : ptrs) {
    uint8_t b[8];
    std::memcpy(b, &p, 8);
    k.insert(k.end(), b, b + 8);
  }
  return k;
}

sim::LaunchDims dims(uint32_t grid, uint32_t block) {
  sim::LaunchDims d;
  d.grid[0] = grid;
  d.block[0] = block;
  return d;
}

template <class T>
std::vector<T> read(sim::Simulator& sim, uint64_t a, size_t n) {
  std::vector<T> v(n);
  sim.memory().read(a, v.data(), n * sizeof(T));
  return v;
}

// Cycles per access of the chase, as a microbenchmark prints it.
double chase_cycles_per_access(const Built& b, const model::Hardware* hw, model::ModelReport* rep = nullptr) {
  sim::Simulator sim(b.co.arch);
  uint64_t out = sim.memory().alloc(16, "out");
  if (hw) {
    model::ModelReport r = model::model_launch(sim, b.co, b.name, kernarg({out}), dims(1, 64), {}, *hw);
    if (rep) *rep = r;
  } else {
    sim.launch(b.co, b.name, kernarg({out}), dims(1, 64));
  }
  auto t = read<uint64_t>(sim, out, 2);
  REQUIRE(t[1] > t[0]);
  return double(t[1] - t[0]) / kChain;
}

// Service cycles of the chase's access in its LDS half (lanes at consecutive dwords).
int chase_service_cycles(const model::Hardware& hw) {
  std::vector<uint64_t> a(64);
  for (int l = 0; l < 64; ++l) a[size_t(l)] = uint64_t(l) * 4;
  return model::lds_cycles(a, 4, hw);
}

// Cycles between two dependent chase reads: the data returns lds_latency after the LDS half served
// the access, and the next read issues at its SIMD's next issue turn (every issue_period cycles).
// On gfx942 the service (4 cycles) fills the turn; on gfx950 (64 banks, 2 cycles) the turn rounds up.
int chase_step_cycles(const model::Hardware& hw) {
  const int ready = hw.lds_latency + chase_service_cycles(hw);
  return (ready + hw.issue_period - 1) / hw.issue_period * hw.issue_period;
}

}  // namespace

TEST_CASE("In-kernel clocks: an s_memtime-timed LDS pointer chase reports the model's LDS latency", "[model][clocks]") {
  for (const char* name : {"mi300x", "mi355x"}) {
    const model::Hardware& hw = model::product(name);
    const Built b = lds_chase(hw.arch);
    model::ModelReport r;
    const double per = chase_cycles_per_access(b, &hw, &r);
    INFO(name << ": " << per << " cycles per access");
    // A dependent conflict-free read returns lds_latency after its LDS half served it, and the next
    // one issues at the next issue turn (chase_step_cycles); the clock reads at both ends add under
    // a cycle per access over 512.
    CHECK(std::lround(per) == chase_step_cycles(hw));
    CHECK(r.clocks.reads_clock);
    CHECK(r.clocks.reads == 2);
    CHECK(r.clocks.runs == 1);  // recorded, then its clock-derived slice replayed: no control flow depends on the values
    CHECK(r.clocks.slice_replayed);
    // The printed figure follows the parameter: a product with a 48-cycle longer LDS latency reads 48 more.
    model::Hardware slow = hw;
    slow.lds_latency += 48;
    CHECK(std::lround(chase_cycles_per_access(b, &slow)) == chase_step_cycles(slow));
  }
}

TEST_CASE("In-kernel clocks: model_launch on a device runs to the fixed point through the device's launcher", "[model][clocks][device]") {
  const model::Hardware& hw = model::product("mi300x");
  const Built b = lds_chase(hw.arch);
  auto dev = open_sim_device(hw.arch);
  int launches = 0;  // a launcher of the caller's (e.g. `cdnajit run` placing a code object's data)
  set_sim_launcher(*dev, [&launches](sim::Simulator& s, const CodeObject& co, std::string_view kernel,
                                     std::span<const uint8_t> ka, const sim::LaunchDims& d, const sim::Options& o) {
    ++launches;
    return s.launch(co, kernel, ka, d, o);
  });
  DeviceKernel k = dev->load(b.bytes).kernel(b.name);
  Buffer out = dev->alloc(16, "out");
  const auto m = model::model_launch(*dev, k, {1}, {64}, 0, KernelArgs().ptr(out), hw);
  auto t = dev->download<uint64_t>(out);
  REQUIRE(t[1] > t[0]);
  // The model's values, as the simulator-level entry gives them (not the functional 8 per access).
  CHECK(std::lround(double(t[1] - t[0]) / kChain) == chase_step_cycles(hw));
  CHECK(std::lround(double(t[1] - t[0]) / kChain) == std::lround(chase_cycles_per_access(b, &hw)));
  CHECK(m.report.clocks.reads_clock);
  CHECK(m.report.clocks.reads == 2);
  CHECK(m.report.clocks.runs == 1);
  CHECK(m.report.clocks.slice_replayed);
  CHECK(launches == 2);  // every run went through the device's launcher: the probe, recorded (then the slice replayed)
  // The device's launcher is back and launches plainly: the functional count again.
  dev->launch(k, {1}, {64}, 0, KernelArgs().ptr(out));
  CHECK(launches == 3);
  t = dev->download<uint64_t>(out);
  CHECK(std::lround(double(t[1] - t[0]) / kChain) == 8);
}

TEST_CASE("In-kernel clocks: without the model s_memtime stays 4 x the instruction count", "[model][clocks]") {
  const Built b = lds_chase(Arch::gfx942);
  // Each access is a ds_read_b32 and an s_waitcnt: 2 wave-instructions, 8 fake cycles.
  CHECK(std::lround(chase_cycles_per_access(b, nullptr)) == 8);
}

TEST_CASE("In-kernel clocks: a kernel spinning on s_memtime reaches a fixed point; a bound of two runs fails clearly", "[model][clocks]") {
  const model::Hardware& hw = model::product("mi300x");
  constexpr uint32_t kSpin = 2000;
  const Built b = clock_spin(hw.arch, kSpin);
  auto launch = [&](const model::ModelOptions& mo, std::vector<uint32_t>* data_out) {
    sim::Simulator sim(hw.arch);
    std::vector<uint32_t> data(64);
    for (uint32_t i = 0; i < 64; ++i) data[i] = 1000 + i;
    uint64_t d = sim.memory().alloc(256, "data"), out = sim.memory().alloc(32, "out");
    sim.memory().write(d, data.data(), 256);
    model::ModelReport r = model::model_launch(sim, b.co, b.name, kernarg({d, out}), dims(1, 64), {}, hw, mo);
    if (data_out) *data_out = read<uint32_t>(sim, d, 64);
    auto o = read<uint32_t>(sim, out, 5);
    return std::make_pair(r, o);
  };
  std::vector<uint32_t> data;
  auto [r, o] = launch({}, &data);
  // The fake clock (24 per iteration) spins ~84 times, the modelled one (an s_memtime's scalar
  // latency per iteration) far fewer: the first fed run changes the control flow, the next repeats it.
  CHECK(r.clocks.runs == 3);
  const uint64_t t0 = o[0] | uint64_t(o[1]) << 32, t = o[2] | uint64_t(o[3]) << 32;
  const uint32_t iterations = o[4];
  INFO("t0 " << t0 << " t " << t << " iterations " << iterations);
  CHECK(t - t0 >= kSpin);
  CHECK(iterations >= 2);
  CHECK(iterations < kSpin / 24);  // fewer than the fake clock's count
  // The last iteration started below the threshold: one iteration (t - t0) / iterations back.
  CHECK(t - t0 - (t - t0) / iterations < kSpin);
  // Every run started from the launch's inputs: the in-place add happened once.
  for (uint32_t i = 0; i < 64; ++i) CHECK(data[i] == 1001 + i);
  model::ModelOptions two;
  two.clock_runs = 2;
  try {
    launch(two, nullptr);
    FAIL("expected the fixed-point error");
  } catch (const Error& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("did not reach a fixed point in 2 runs") &&
                                          Catch::Contains("workgroup 0 wave 0") && Catch::Contains("control flow"));
  }
}

// Each thread updates memory in place through the simulator's write paths (a whole-vector store, a
// store with half the lanes, 8-bit and 64-bit stores, a global atomic) and then spins on clock64(), so
// the model needs several runs (the spin's branch is clock-derived), each from the launch's initial
// memory: the pages the runs write are saved before their first write and given back
// (runtime/sim/write_journal.hpp).
const char* const kInPlaceSpinHip = R"(
extern "C" __global__ void in_place_spin(unsigned* x, unsigned char* c, unsigned long long* q, unsigned* count,
                                         unsigned long long* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] += 1;
  if (i & 1) x[4096 + i] *= 3;
  c[i] += 5;
  q[i] = q[i] * 7 + 1;
  atomicAdd(count, 1u);
  long long t0 = clock64(), t;
  do t = clock64(); while (t - t0 < 1500);
  if (threadIdx.x == 0) out[blockIdx.x] = t - t0;
})";

TEST_CASE("In-kernel clocks: every run starts from the launch's memory, whichever way the kernel wrote it", "[model][clocks]") {
  const model::Hardware& hw = model::product("mi300x");
  const CodeObject co = read_code_object(compile_hip_with(HipSourceBackend::Kind::clang, kInPlaceSpinHip, hw.arch, {}));
  constexpr uint32_t kGroups = 4, kBlock = 256, kThreads = kGroups * kBlock;
  sim::Simulator sim(hw.arch);
  // 8192 words of x (two 4 KiB pages per 1024 words), bytes, 64-bit words, a counter and the spin times.
  uint64_t x = sim.memory().alloc(8192 * 4, "x"), c = sim.memory().alloc(kThreads, "c"), q = sim.memory().alloc(kThreads * 8, "q"),
           count = sim.memory().alloc(4, "count"), out = sim.memory().alloc(kGroups * 8, "out");
  std::vector<uint32_t> x0(8192);
  std::vector<uint8_t> c0(kThreads);
  std::vector<uint64_t> q0(kThreads);
  for (uint32_t i = 0; i < 8192; ++i) x0[i] = 100 + 3 * i;
  for (uint32_t i = 0; i < kThreads; ++i) c0[i] = uint8_t(i * 7), q0[i] = (uint64_t(i) << 33) + 11;
  const uint32_t count0 = 1000;
  sim.memory().write(x, x0.data(), x0.size() * 4);
  sim.memory().write(c, c0.data(), c0.size());
  sim.memory().write(q, q0.data(), q0.size() * 8);
  sim.memory().write(count, &count0, 4);
  const model::ModelReport r = model::model_launch(sim, co, "in_place_spin", kernarg({x, c, q, count, out}), dims(kGroups, kBlock), {}, hw, {});
  CHECK(r.clocks.runs >= 2);
  CHECK_FALSE(r.clocks.taint.empty());  // the spin's branch: every run recorded and compared
  // Each update happened once, on the initial values.
  const auto xs = read<uint32_t>(sim, x, 8192);
  const auto cs = read<uint8_t>(sim, c, kThreads);
  const auto qs = read<uint64_t>(sim, q, kThreads);
  for (uint32_t i = 0; i < 8192; ++i) {
    const uint32_t want = i < kThreads ? x0[i] + 1 : i >= 4096 && i - 4096 < kThreads && ((i - 4096) & 1) ? x0[i] * 3 : x0[i];
    INFO("x[" << i << "]");
    CHECK(xs[i] == want);
  }
  for (uint32_t i = 0; i < kThreads; ++i) {
    CHECK(cs[i] == uint8_t(c0[i] + 5));
    CHECK(qs[i] == q0[i] * 7 + 1);
  }
  CHECK(read<uint32_t>(sim, count, 1)[0] == count0 + kThreads);
}

const char* const kClocksHip = R"(
extern "C" __global__ void clocks(unsigned long long* out, float* x, int iters) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, w = i / 64;
  float v = x[i];
  for (int k = 0; k < 8; ++k) {
    long long c = (k & 1) ? clock64() : (long long)__builtin_amdgcn_s_memtime();
    for (int j = 0; j < iters; ++j) v = v * 1.0001f + 0.5f;
    if ((threadIdx.x & 63) == 0) out[w * 10 + k] = c;
  }
  if ((threadIdx.x & 63) == 0) { out[w * 10 + 8] = clock64(); out[w * 10 + 9] = wall_clock64(); }
  x[i] = v;
})";

// mi300x with every CU's first workgroup on SIMD 0 (Hardware::first_simd_by_cu off): CUs whose shares
// are alike then replay alike, which the tests of the replay's sharing and of the prediction rely on;
// the per-CU first SIMD has a test of its own.
const model::Hardware& mi300x_simd0_everywhere() {
  static const model::Hardware hw = [] {
    model::Hardware h = model::product("mi300x");
    h.first_simd_by_cu = false;
    return h;
  }();
  return hw;
}

constexpr uint32_t kClockGroups = 8, kClockBlock = 256, kClockWaves = kClockGroups * kClockBlock / 64;
constexpr int kClockIters = 16;

// kClocksHip on 8 workgroups of 4 waves: each wave's 10 clock values (mo == nullptr: no model).
std::vector<uint64_t> launch_clocks(const model::Hardware& hw, const model::ModelOptions* mo, model::ModelReport* rep) {
  static const std::vector<uint8_t> bytes = compile_hip_with(HipSourceBackend::Kind::clang, kClocksHip, hw.arch, {});
  const CodeObject co = read_code_object(bytes);
  sim::Simulator sim(hw.arch);
  uint64_t out = sim.memory().alloc(kClockWaves * 10 * 8, "out"), x = sim.memory().alloc(kClockGroups * kClockBlock * 4, "x");
  std::vector<uint8_t> ka = kernarg({out, x});
  ka.resize(ka.size() + 4);
  const int32_t it = kClockIters;
  std::memcpy(ka.data() + 16, &it, 4);
  if (mo) *rep = model::model_launch(sim, co, "clocks", ka, dims(kClockGroups, kClockBlock), {}, hw, *mo);
  else sim.launch(co, "clocks", ka, dims(kClockGroups, kClockBlock));
  return read<uint64_t>(sim, out, kClockWaves * 10);
}

TEST_CASE("In-kernel clocks: clang-22's clock64/wall_clock64 in every workgroup get monotonic modelled values", "[model][clocks]") {
  const model::Hardware& hw = mi300x_simd0_everywhere();
  constexpr uint32_t kGroups = kClockGroups, kWaves = kClockWaves;
  constexpr int kIters = kClockIters;
  auto launch = [&](const model::ModelOptions* mo, model::ModelReport* rep) { return launch_clocks(hw, mo, rep); };
  model::ModelReport r;
  const model::ModelOptions mo;
  const auto c = launch(&mo, &r);
  const auto fake = launch(nullptr, nullptr);
  // 8 workgroups on 8 CUs (mi300x has 304): every CU modelled, not only the sampled CU 0. Their
  // streams differ only in where their lines lie, except that a workgroup's 320 bytes of `out` start
  // at one of two offsets within a 128-byte line, so its stores cover lines in one of two patterns:
  // two replays serve all eight.
  CHECK(r.clocks.workgroups_reading == kGroups);
  CHECK(r.clocks.cus_reading == int(kGroups));
  CHECK(r.clocks.cus_replayed == 2);
  // A clocked launch's kernel time sees the first round's line trace, as a launch without clock reads
  // does (its runs of the grid trace the lines), and its report says so.
  CHECK(r.memory_from_line_trace);
  CHECK(r.memory_workgroups == kGroups);
  CHECK_THAT(model::format_report(r), Catch::Contains("caches fed by 8 workgroups (the first round's line trace)"));
  model::ModelOptions each;
  each.clock_share_equal_cus = false;
  model::ModelReport r_each;
  CHECK(launch(&each, &r_each) == c);  // replaying each CU gives the same values
  CHECK(r_each.clocks.cus_replayed == int(kGroups));
  CHECK(r.clocks.reads == kWaves * 10);
  const double ticks_per_cycle = hw.realtime_counter_mhz * 1e-3 / hw.clock_ghz;
  for (uint32_t w = 0; w < kWaves; ++w) {
    INFO("wave " << w);
    for (int k = 0; k < 8; ++k) CHECK(c[w * 10 + k + 1] >= c[w * 10 + k] + 4 * kIters);  // kIters VALU ops at 4 cycles
    // s_memrealtime at the product's constant rate, read after the last s_memtime.
    CHECK(c[w * 10 + 9] >= uint64_t(double(c[w * 10 + 8]) * ticks_per_cycle));
    CHECK(c[w * 10 + 9] <= uint64_t(double(c[w * 10 + 8] + 1000) * ticks_per_cycle));
    CHECK(c[w * 10 + 8] != fake[w * 10 + 8]);  // modelled, not the instruction count
  }
  // Waves of one workgroup share a CU; workgroups on different CUs start together, so the first
  // reads of wave 0 of every workgroup agree.
  for (uint32_t g = 1; g < kGroups; ++g) CHECK(c[g * 4 * 10] == c[0]);
  model::ModelOptions small;
  small.clock_workgroups_limit = 4;
  CHECK_THROWS_WITH(launch(&small, &r), Catch::Contains("8 workgroups read in-kernel clocks") &&
                                           Catch::Contains("more than the limit of 4"));
}

TEST_CASE("In-kernel clocks: each CU's first workgroup starts at its own SIMD (Hardware::first_simd_by_cu)", "[model][clocks]") {
  const model::Hardware& hw = model::product("mi300x");
  REQUIRE(hw.first_simd_by_cu);
  model::ModelReport r;
  const model::ModelOptions mo;
  const auto c = launch_clocks(hw, &mo, &r);
  // Workgroup g alone on CU g: its wave 0 on SIMD g mod 4, whose issue turn comes g mod 4 cycles
  // after SIMD 0's, so its first read is that much later; CUs of one first SIMD read alike.
  for (uint32_t g = 0; g < kClockGroups; ++g) {
    INFO("workgroup " << g);
    CHECK(c[g * 4 * 10] == c[0] + g % 4);
  }
  // The replay shares a CU's cycles only with CUs of its first SIMD: 4 first SIMDs, each pair of
  // CUs of one SIMD alike (their line patterns alternate with the workgroup's parity, as the SIMD's).
  CHECK(r.clocks.cus_replayed == 4);
  // The prediction runs one CU of each first SIMD (CUs 0-3) alone and feeds the others their values.
  INFO(r.clocks.prediction);
  CHECK(r.clocks.predicted_from == 4);
  CHECK(r.clocks.prediction.empty());
  model::ModelOptions each;
  each.clock_share_equal_cus = false;
  model::ModelReport r_each;
  CHECK(launch_clocks(hw, &each, &r_each) == c);
  CHECK(r_each.clocks.cus_replayed == int(kClockGroups));
  // Every CU at SIMD 0: the first reads agree.
  const auto one = launch_clocks(mi300x_simd0_everywhere(), &mo, &r);
  for (uint32_t g = 1; g < kClockGroups; ++g) CHECK(one[g * 4 * 10] == one[0]);
}

TEST_CASE("In-kernel clocks: the replay's idle-cycle skipping keeps every clock read's issue cycle", "[model][clocks]") {
  const model::Hardware& hw = model::product("mi300x");
  const CodeObject co = read_code_object(compile_hip_with(HipSourceBackend::Kind::clang, kClocksHip, hw.arch, {}));
  sim::Simulator sim(hw.arch);
  constexpr uint32_t kGroups = 8, kBlock = 256;
  uint64_t out = sim.memory().alloc(kGroups * kBlock / 64 * 10 * 8, "out"), x = sim.memory().alloc(kGroups * kBlock * 4, "x");
  std::vector<uint8_t> ka = kernarg({out, x});
  ka.resize(ka.size() + 4);
  const int32_t it = 16;
  std::memcpy(ka.data() + 16, &it, 4);
  sim::Recording rec;
  for (uint64_t g = 0; g < kGroups; ++g) rec.workgroups.push_back(g);
  sim::Options so;
  so.recording = &rec;
  sim.launch(co, "clocks", ka, dims(kGroups, kBlock), so);
  const model::LaunchPlan plan = model::plan_launch(*co.find("clocks"), hw.arch, dims(kGroups, kBlock), hw);
  // All eight on one CU in two slots (waves queue for slots, SIMDs and memory), and three in eight
  // slots (a share smaller than the CU's slots, as most CUs' shares of a small grid are: five slots
  // never start a workgroup).
  for (const auto [workgroups, slots] : {std::pair{int(kGroups), 2}, std::pair{3, 8}}) {
    INFO(workgroups << " workgroups in " << slots << " slots");
    model::CuRunConfig cfg = model::cu_config(plan, hw);
    cfg.workgroups = workgroups;
    cfg.workgroup_slots = slots;
    cfg.clock_reads = true;
    const model::CuResult exact = model::run_cu(rec, hw, cfg);
    cfg.skip_idle_cycles = true;
    const model::CuResult skipped = model::run_cu(rec, hw, cfg);
    REQUIRE(exact.clock_reads.size() == size_t(workgroups) * kBlock / 64 * 10);
    REQUIRE(skipped.clock_reads.size() == exact.clock_reads.size());
    for (size_t i = 0; i < exact.clock_reads.size(); ++i) {
      CHECK(skipped.clock_reads[i].workgroup == exact.clock_reads[i].workgroup);
      CHECK(skipped.clock_reads[i].wave_in_wg == exact.clock_reads[i].wave_in_wg);
      CHECK(skipped.clock_reads[i].cycle == exact.clock_reads[i].cycle);
    }
    CHECK(skipped.workgroup_end == exact.workgroup_end);
    CHECK(skipped.cycles == exact.cycles);
    // The skipping visits fewer issue turns (it would not be worth its test otherwise).
    CHECK(skipped.simd_turns < exact.simd_turns);
  }
}

namespace {

// A streaming kernel timed with two clock64() whose first value also reaches the data it writes
// (tools/model_clock_overhead.sh's kernel): clock values reach memory, not a branch or an address.
const char* const kStreamTimedHip = R"(
extern "C" __global__ void stream_timed(const float* a, float* b, unsigned long long* t, int n) {
  long long t0 = clock64();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  float s = float(t0 & 1);
  for (int k = 0; k < n; ++k) s += a[i + k * stride] * 1.5f;
  b[i] = s;
  __asm__ volatile("" ::"v"(s));
  long long t1 = clock64();
  if (threadIdx.x == 0) { t[blockIdx.x * 2] = t0; t[blockIdx.x * 2 + 1] = t1; }
})";

struct StreamRun {
  model::ModelReport report;
  std::vector<float> b;
  std::vector<uint64_t> t;
  int recorded = 0, plain = 0;  // full-grid functional runs with / without recording
};

StreamRun stream_timed(const model::ModelOptions& mo) {
  const model::Hardware& hw = mi300x_simd0_everywhere();
  static const std::vector<uint8_t> bytes = compile_hip_with(HipSourceBackend::Kind::clang, kStreamTimedHip, hw.arch, {});
  const CodeObject co = read_code_object(bytes);
  constexpr uint32_t kGroups = 16, kBlock = 256, kN = 4;
  sim::Simulator sim(hw.arch);
  std::vector<float> a(kGroups * kBlock * kN);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 97);
  const uint64_t da = sim.memory().alloc(a.size() * 4, "a"), db = sim.memory().alloc(kGroups * kBlock * 4, "b"),
                 dt = sim.memory().alloc(kGroups * 16, "t");
  sim.memory().write(da, a.data(), a.size() * 4);
  std::vector<uint8_t> ka = kernarg({da, db, dt});
  ka.resize(ka.size() + 4);
  const int32_t n = kN;
  std::memcpy(ka.data() + 24, &n, 4);
  StreamRun out;
  const model::RunLaunch run = [&](const sim::Options& o) {
    if (!o.only_recorded_workgroups) ++(o.recording ? out.recorded : out.plain);
    return sim.launch(co, "stream_timed", ka, dims(kGroups, kBlock), o);
  };
  out.report = model::model_run(run, sim.memory(), *co.find("stream_timed"), co.arch, dims(kGroups, kBlock), {}, hw, mo,
                                model::SimulatedGrid::full);
  out.b = read<float>(sim, db, kGroups * kBlock);
  out.t = read<uint64_t>(sim, dt, kGroups * 2);
  return out;
}

}  // namespace

namespace {

// The model's options without the prediction (clock_reads.hpp), for the tests of run 1's own ways.
model::ModelOptions unpredicted() {
  model::ModelOptions mo;
  mo.clock_predict = false;
  return mo;
}

}  // namespace

TEST_CASE("In-kernel clocks: clock values that reach memory but no branch or address take one recorded run", "[model][clocks]") {
  const StreamRun r = stream_timed(unpredicted());
  // Run 1 recorded (and followed the clock-derived values); a clock value cannot change its streams,
  // so instead of a second run fed with the model's values, only the instructions that compute with
  // clock-derived values are re-executed (sim/clock_slice.hpp).
  CHECK(r.recorded == 1);
  CHECK(r.plain == 0);
  CHECK(r.report.clocks.runs == 1);
  CHECK(r.report.clocks.slice_replayed);
  CHECK(r.report.clocks.slice_steps > 0);
  // Without the slice, the fed run needs no recording.
  model::ModelOptions no_slice = unpredicted();
  no_slice.clock_slice = false;
  const StreamRun fed = stream_timed(no_slice);
  CHECK(fed.recorded == 1);
  CHECK(fed.plain == 1);
  CHECK(fed.report.clocks.runs == 2);
  CHECK_FALSE(fed.report.clocks.slice_replayed);
  CHECK(fed.t == r.t);
  for (size_t g = 0; g < r.t.size() / 2; ++g) CHECK(r.t[2 * g + 1] > r.t[2 * g]);
  // Modelled values: every workgroup starts at cycle 0 on its own CU, so t0 is the same small
  // cycle everywhere, and b's first term is t0 & 1.
  for (size_t g = 1; g < r.t.size() / 2; ++g) CHECK(r.t[2 * g] == r.t[0]);
}

TEST_CASE("In-kernel clocks: shares whose accesses cover the same lines replay once, with each CU's values", "[model][clocks]") {
  // 16 workgroups on 16 CUs. Each stores t0 and t1 at t[2 * blockIdx.x]: 16 bytes at one of eight
  // offsets in a 128-byte line, one line either way; their loads and stores of a and b cover lines
  // alike. The CU model's global timing reads only the lines an access covers, so one replay serves
  // all sixteen (counting offsets in a line as well, eight replays did).
  const StreamRun shared = stream_timed({});
  model::ModelOptions each;
  each.clock_share_equal_cus = false;
  const StreamRun apart = stream_timed(each);
  CHECK(shared.report.clocks.cus_reading == 16);
  CHECK(shared.report.clocks.cus_replayed == 1);
  CHECK(apart.report.clocks.cus_replayed == 16);
  CHECK(shared.t == apart.t);
  CHECK(std::memcmp(shared.b.data(), apart.b.data(), shared.b.size() * 4) == 0);
}

TEST_CASE("In-kernel clocks: the unrecorded fed run gives the values of the recorded and compared one", "[model][clocks]") {
  const StreamRun proven = stream_timed(unpredicted());
  model::ModelOptions off = unpredicted();
  off.clock_taint = false;
  const StreamRun compared = stream_timed(off);
  CHECK(proven.report.clocks.taint.empty());
  CHECK(proven.report.clocks.recorded_runs == 1);
  CHECK(compared.report.clocks.recorded_runs == 2);
  CHECK(compared.recorded == 2);
  CHECK(proven.t == compared.t);
  CHECK(std::memcmp(proven.b.data(), compared.b.data(), proven.b.size() * 4) == 0);
  CHECK(proven.report.ms == compared.report.ms);
}

namespace {

// One wave reads s_memtime and uses its low bits as `use` says; stores a word at out[0..].
// select_address: the clock reaches SCC, which s_cselect reads without naming it (the ISA table's
// READS_SCC), and the selected value is an address; vcc_branch: v_cmp writes the clock's test to VCC,
// which s_cbranch_vccz reads unnamed (READS_VCC); movrel_beside: an M0-relative scalar move of
// registers no clock reaches, while the clock's value is live in others (the check does not follow
// M0-relative moves, so it stops there although the move's own operands hold no such value).
enum class ClockUse { address, lds_round_trip, global_round_trip, select_address, vcc_branch, movrel_beside };
Built clock_use(Arch arch, ClockUse use) {
  Kernel k("clock_use", arch);
  k.set_workgroup_size(64);
  k.lds_alloc("buf", 256);
  Reg out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg t = k.sgpr("t", 2), m = k.sgpr("m");
  Reg off = k.vgpr("off"), x = k.vgpr("x"), y = k.vgpr("y");
  k.v_lshlrev_b32(off, 2, k.workitem_id(0));
  k.s_waitcnt(lgkmcnt(0));
  k.s_memtime(t);
  k.s_waitcnt(lgkmcnt(0));
  k.s_and_b32(m, t[0], 4);
  k.v_mov_b32(x, m);
  if (use == ClockUse::address) {
    k.v_add_u32(y, x, off);  // the store's address moves with the clock
    k.global_store_dword(y, off, out);
  } else if (use == ClockUse::lds_round_trip) {
    k.ds_write_b32(off, x);
    k.s_waitcnt(lgkmcnt(0));
    k.ds_read_b32(y, off);
    k.s_waitcnt(lgkmcnt(0));
    k.global_store_dword(off, y, out);
  } else if (use == ClockUse::select_address) {
    k.s_cmp_eq_u32(m, 0);
    k.s_cselect_b32(m, 4, 0);
    k.v_mov_b32(y, m);
    k.v_add_u32(y, y, off);
    k.global_store_dword(y, off, out);
  } else if (use == ClockUse::vcc_branch) {
    Label skip = k.new_label("skip");
    k.v_cmp_eq_u32(isa::SpecialReg::VCC, 0, x);
    k.s_cbranch_vccz(skip);
    k.global_store_dword(off, off, out);
    k.bind(skip);
  } else if (use == ClockUse::movrel_beside) {
    Reg a = k.sgpr("a"), c = k.sgpr("c");
    k.s_mov_b32(isa::SpecialReg::M0, 0);
    k.s_mov_b32(c, 7);
    k.s_movrels_b32(a, c);
    k.s_add_u32(m, m, t[1]);  // the clock's registers stay live past the move (not reused for a or c)
    k.v_add_u32(x, m, x);
    k.global_store_dword(off, x, out);
  } else {
    k.global_store_dword(off, x, out);
    k.s_waitcnt(vmcnt(0));
    k.global_load_dword(y, off, out);
    k.s_waitcnt(vmcnt(0));
    k.v_add_u32(y, 1, y);
    k.global_store_dword(off, y, out);
  }
  k.s_endpgm();
  return build(k);
}

model::ModelReport launch_clock_use(ClockUse use) {
  const model::Hardware& hw = model::product("mi300x");
  const Built b = clock_use(hw.arch, use);
  sim::Simulator sim(hw.arch);
  const uint64_t out = sim.memory().alloc(512, "out");
  return model::model_launch(sim, b.co, b.name, kernarg({out}), dims(1, 64), {}, hw);
}

}  // namespace

TEST_CASE("In-kernel clocks: a clock value reaching a branch, an address or reloaded memory is found; those runs are recorded",
          "[model][clocks]") {
  // The spinning kernel: s_cmp of the clock difference sets SCC, which the loop's branch reads.
  {
    const model::Hardware& hw = model::product("mi300x");
    const Built b = clock_spin(hw.arch, 2000);
    sim::Simulator sim(hw.arch);
    const uint64_t d = sim.memory().alloc(256, "data"), out = sim.memory().alloc(32, "out");
    const model::ModelReport r = model::model_launch(sim, b.co, b.name, kernarg({d, out}), dims(1, 64), {}, hw);
    INFO(r.clocks.taint);
    CHECK_THAT(r.clocks.taint, Catch::Contains("workgroup 0 wave 0") && Catch::Contains("s_cbranch_scc") &&
                                   Catch::Contains("branch condition (SCC)"));
    CHECK(r.clocks.recorded_runs == 3);
  }
  const model::ModelReport addr = launch_clock_use(ClockUse::address);
  INFO(addr.clocks.taint);
  CHECK_THAT(addr.clocks.taint, Catch::Contains("global_store_dword") && Catch::Contains("memory address"));
  CHECK(addr.clocks.recorded_runs == addr.clocks.runs);
  const model::ModelReport lds = launch_clock_use(ClockUse::lds_round_trip);
  INFO(lds.clocks.taint);
  CHECK_THAT(lds.clocks.taint, Catch::Contains("ds_read_b32") && Catch::Contains("loads LDS where a clock-derived value was stored"));
  CHECK(lds.clocks.recorded_runs == 2);
  const model::ModelReport global = launch_clock_use(ClockUse::global_round_trip);
  INFO(global.clocks.taint);
  CHECK_THAT(global.clocks.taint, Catch::Contains("global_load_dword") && Catch::Contains("loads global memory"));
  CHECK(global.clocks.recorded_runs == 2);
  // Through the registers an instruction reads without naming them.
  const model::ModelReport select = launch_clock_use(ClockUse::select_address);
  INFO(select.clocks.taint);
  CHECK_THAT(select.clocks.taint, Catch::Contains("global_store_dword") && Catch::Contains("memory address"));
  CHECK(select.clocks.recorded_runs == select.clocks.runs);
  const model::ModelReport vcc = launch_clock_use(ClockUse::vcc_branch);
  INFO(vcc.clocks.taint);
  CHECK_THAT(vcc.clocks.taint, Catch::Contains("s_cbranch_vccz") && Catch::Contains("branch condition (VCC)"));
  CHECK(vcc.clocks.recorded_runs == vcc.clocks.runs);
  // Not through its operands: the step reads and writes no clock-derived register.
  const model::ModelReport movrel = launch_clock_use(ClockUse::movrel_beside);
  INFO(movrel.clocks.taint);
  CHECK_THAT(movrel.clocks.taint, Catch::Contains("s_movrels_b32") && Catch::Contains("M0-relative"));
}

namespace {

// Kernels whose clock values reach the memory they store in other ways than tools/model_clock_overhead.sh's:
// per-lane arithmetic on the clock with a loaded value in EXEC-masked lanes (a lane-dependent loop, after
// which a register holds clock-derived values in some lanes only),
// stored by every lane as 64-bit words, with s_memtime or s_memrealtime; the same through a buffer
// store (re-executed by its handler, from the kept V# and offsets); and clock values stored and
// then overwritten by a later store of the same wave (each lane rewrites its neighbour's word).
const char* const kSliceHip = R"HIP(
template <bool Real>
__device__ void lanes(const unsigned* in, unsigned long long* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  unsigned long long t = Real ? wall_clock64() : clock64();
  unsigned x = unsigned(t) + i * 3u, y = v * 7u;
  for (unsigned k = 0; k < (i & 3); ++k) y = y * 5u + x;  // y derives from the clock in the lanes that loop
  if (i & 4) x ^= v << 3;
  out[i] = (unsigned long long)(x + y) << 32 | unsigned(t >> 3);
}
extern "C" __global__ void lanes_time(const unsigned* in, unsigned long long* out) { lanes<false>(in, out); }
extern "C" __global__ void lanes_real(const unsigned* in, unsigned long long* out) { lanes<true>(in, out); }
extern "C" __global__ void buffer_store(const unsigned* in, unsigned long long* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(out, 0, 0x7fffffff, 0x00027000);
  unsigned long long t = clock64();
  __builtin_amdgcn_raw_buffer_store_b32(unsigned(t) * 3u + in[i], r, i * 8, 0, 0);
  __builtin_amdgcn_raw_buffer_store_b32(unsigned(t >> 2) ^ i, r, i * 8 + 4, 0, 0);
}
extern "C" __global__ void overwrite(const unsigned* in, unsigned long long* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = clock64() + in[i];
  __asm__ volatile("s_waitcnt vmcnt(0)" ::: "memory");
  out[i ^ 1] = i;
}
// The last workgroup loops longer: its CU's share does not replay alike CU 0's.
extern "C" __global__ void uneven(const unsigned* in, unsigned long long* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, items = gridDim.x * blockDim.x;
  unsigned long long t0 = clock64();
  unsigned s = 0, n = blockIdx.x + 1 == gridDim.x ? 8 : 2;
  for (unsigned k = 0; k < n; ++k) s += in[(i + k * 64) % items];
  __asm__ volatile("" ::"v"(s));
  out[i] = (clock64() - t0) << 1 | (s & 1);
}
// Only the last workgroup reads a clock.
extern "C" __global__ void late_reader(const unsigned* in, unsigned long long* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = blockIdx.x + 1 == gridDim.x ? clock64() + in[i] : in[i];
}
)HIP";

struct SliceRun {
  model::ModelReport report;
  std::vector<uint8_t> out;
  int plain = 0;  // full-grid functional runs without recording
};

// slice: the model without the prediction, the slice replay allowed; fed: also with clock_slice off;
// predicted: the model's defaults (the prediction first); plain: no model (the instruction count's
// clock values).
enum class SliceWay { slice, fed, predicted, plain };
SliceRun run_slice_kernel(const char* kernel, SliceWay way) {
  const model::Hardware& hw = mi300x_simd0_everywhere();
  static const std::vector<uint8_t> bytes = compile_hip_with(HipSourceBackend::Kind::clang, kSliceHip, hw.arch, {});
  const CodeObject co = read_code_object(bytes);
  constexpr uint32_t kGroups = 6, kBlock = 128, kItems = kGroups * kBlock;
  sim::Simulator sim(hw.arch);
  std::vector<uint32_t> in(kItems);
  for (uint32_t i = 0; i < kItems; ++i) in[i] = i * 2654435761u;
  const uint64_t din = sim.memory().alloc(kItems * 4, "in"), dout = sim.memory().alloc(kItems * 8, "out");
  sim.memory().write(din, in.data(), in.size() * 4);
  const std::vector<uint8_t> ka = kernarg({din, dout});
  SliceRun out;
  const model::RunLaunch run = [&](const sim::Options& o) {
    if (!o.only_recorded_workgroups && !o.recording) ++out.plain;
    return sim.launch(co, kernel, ka, dims(kGroups, kBlock), o);
  };
  model::ModelOptions mo;
  if (way != SliceWay::predicted) {
    mo.clock_predict = false;
    mo.clock_slice = way == SliceWay::slice;
  }
  if (way == SliceWay::plain) run({});
  else out.report = model::model_run(run, sim.memory(), *co.find(kernel), co.arch, dims(kGroups, kBlock), {}, hw, mo,
                                model::SimulatedGrid::full);
  out.out = read<uint8_t>(sim, dout, kItems * 8);
  return out;
}

}  // namespace

TEST_CASE("In-kernel clocks: the replayed clock-derived slice leaves the memory of the fed run", "[model][clocks]") {
  // tools/model_clock_overhead.sh's kernel: the clock reaches every thread's sum through the loop.
  {
    const StreamRun slice = stream_timed(unpredicted());
    model::ModelOptions no_slice = unpredicted();
    no_slice.clock_slice = false;
    const StreamRun fed = stream_timed(no_slice);
    CHECK(slice.report.clocks.slice_replayed);
    CHECK(slice.t == fed.t);
    CHECK(std::memcmp(slice.b.data(), fed.b.data(), slice.b.size() * 4) == 0);
  }
  for (const char* kernel : {"lanes_time", "lanes_real", "buffer_store"}) {
    INFO(kernel);
    const SliceRun slice = run_slice_kernel(kernel, SliceWay::slice), fed = run_slice_kernel(kernel, SliceWay::fed);
    INFO(slice.report.clocks.slice);
    CHECK(slice.report.clocks.taint.empty());
    CHECK(slice.report.clocks.slice_replayed);
    CHECK(slice.report.clocks.runs == 1);
    CHECK(slice.plain == 0);
    CHECK(fed.report.clocks.runs == 2);
    CHECK(fed.plain == 1);
    REQUIRE(slice.out.size() == fed.out.size());
    CHECK(slice.out == fed.out);
    // The values are the model's, not the instruction count's.
    CHECK(run_slice_kernel(kernel, SliceWay::plain).out != slice.out);
  }
}

TEST_CASE("In-kernel clocks: clock data a later store overwrites is not replayed; the fed run gives the memory",
          "[model][clocks]") {
  const SliceRun slice = run_slice_kernel("overwrite", SliceWay::slice), fed = run_slice_kernel("overwrite", SliceWay::fed);
  INFO(slice.report.clocks.slice);
  INFO(slice.report.clocks.taint);
  CHECK(slice.report.clocks.taint.empty());
  CHECK_FALSE(slice.report.clocks.slice_replayed);
  CHECK_THAT(slice.report.clocks.slice, Catch::Contains("stores clock-derived data where another store of the run writes"));
  CHECK(slice.report.clocks.runs == 2);
  CHECK(slice.plain == 1);  // the fed run, unrecorded
  CHECK(slice.out == fed.out);
  // Each word holds its neighbour's index (the later store), not a clock value.
  uint64_t w6 = 0, w7 = 0;
  std::memcpy(&w6, slice.out.data() + 6 * 8, 8);
  std::memcpy(&w7, slice.out.data() + 7 * 8, 8);
  CHECK(w6 == 7);
  CHECK(w7 == 6);
}

TEST_CASE("In-kernel clocks: values predicted from the first CUs' shares leave the memory of the runs without them",
          "[model][clocks]") {
  // Six workgroups on 304 CUs: the first run holds CU 0's share (workgroup 0) alone; its replay's
  // cycles are fed to every CU, and the run is the fixed point when every clock-reading CU's share
  // replays alike (and workgroup 0 executed the first run's streams).
  for (const char* kernel : {"lanes_time", "lanes_real", "buffer_store", "overwrite", "uneven", "late_reader"}) {
    INFO(kernel);
    const SliceRun predicted = run_slice_kernel(kernel, SliceWay::predicted), fed = run_slice_kernel(kernel, SliceWay::fed);
    INFO(predicted.report.clocks.prediction);
    REQUIRE(predicted.out.size() == fed.out.size());
    CHECK(predicted.out == fed.out);
    const std::string k = kernel;
    if (k != "overwrite") CHECK(run_slice_kernel(kernel, SliceWay::plain).out != predicted.out);  // (its clock data is overwritten)
    if (k == "uneven") {  // the last workgroup's share differs: the launch starts over without the prediction
      CHECK(predicted.report.clocks.predicted_from == 1);
      CHECK_THAT(predicted.report.clocks.prediction, Catch::Contains("did not hold") && Catch::Contains("workgroup 5 (CU 5)"));
      CHECK(predicted.report.clocks.runs == fed.report.clocks.runs - 1);  // run 1 and the slice, not a fed run
    } else if (k == "late_reader") {  // workgroup 0 reads no clock: nothing to predict from
      CHECK(predicted.report.clocks.predicted_from == 0);
      CHECK_THAT(predicted.report.clocks.prediction, Catch::Contains("not made") && Catch::Contains("read no clock"));
    } else {
      CHECK(predicted.report.clocks.predicted_from == 1);
      CHECK(predicted.report.clocks.prediction.empty());
      CHECK(predicted.report.clocks.runs == 1);
      CHECK(predicted.report.clocks.recorded_runs == 1);
      CHECK(predicted.plain == 0);
    }
  }
  // The streaming kernel (16 workgroups): one recorded full-grid run, the values of the recorded and
  // compared runs.
  const StreamRun predicted = stream_timed({});
  model::ModelOptions compared_opt = unpredicted();
  compared_opt.clock_taint = false;
  const StreamRun compared = stream_timed(compared_opt);
  CHECK(predicted.report.clocks.prediction.empty());
  CHECK(predicted.recorded == 1);
  CHECK(predicted.plain == 0);
  CHECK(predicted.t == compared.t);
  CHECK(std::memcmp(predicted.b.data(), compared.b.data(), predicted.b.size() * 4) == 0);
}

// Every workgroup reads the same 8 KiB of x (lines shared by all of them, through the L2s and the
// Infinity Cache), with or without timing itself.
const char* const kSharedReadHip = R"(
template <bool Timed>
__device__ void shared_read(const float* x, float* y, unsigned long long* t) {
  long long t0 = Timed ? clock64() : 0;
  float s = 0;
  for (int k = 0; k < 8; ++k) s += x[threadIdx.x + k * blockDim.x];
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
  __asm__ volatile("" ::"v"(s));
  long long t1 = Timed ? clock64() : 0;
  if (threadIdx.x == 0) { t[2 * blockIdx.x] = t0; t[2 * blockIdx.x + 1] = t1; }
}
extern "C" __global__ void shared_timed(const float* x, float* y, unsigned long long* t) { shared_read<true>(x, y, t); }
extern "C" __global__ void shared_untimed(const float* x, float* y, unsigned long long* t) { shared_read<false>(x, y, t); }
)";

TEST_CASE("In-kernel clocks: a clocked launch's memory hierarchy sees the lines other workgroups share", "[model][clocks]") {
  const model::Hardware& hw = model::product("mi300x");
  const CodeObject co = read_code_object(compile_hip_with(HipSourceBackend::Kind::clang, kSharedReadHip, hw.arch, {}));
  constexpr uint32_t kGroups = 64, kBlock = 256;
  auto launch = [&](const char* kernel) {
    sim::Simulator sim(hw.arch);
    const uint64_t x = sim.memory().alloc(8 * kBlock * 4, "x"), y = sim.memory().alloc(kGroups * kBlock * 4, "y"),
                   t = sim.memory().alloc(kGroups * 16, "t");
    return model::model_launch(sim, co, kernel, kernarg({x, y, t}), dims(kGroups, kBlock), {}, hw);
  };
  const model::ModelReport timed = launch("shared_timed"), untimed = launch("shared_untimed");
  INFO(model::format_report(timed));
  CHECK(timed.clocks.reads_clock);
  CHECK(timed.memory_from_line_trace);
  // x comes from HBM once for the grid, not once per workgroup: the same bytes as without clock reads.
  CHECK(timed.traffic.hbm_read_bytes == untimed.traffic.hbm_read_bytes);
  CHECK(timed.traffic.hbm_read_bytes < 2.0 * 8 * kBlock * 4);
  CHECK(timed.traffic.hbm_bytes() == untimed.traffic.hbm_bytes());
}
