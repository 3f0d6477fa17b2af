// The time-source interface: replay reproducibility, scripted runs, the GPU
// source through the Device API (against the fake libamdhip64 of
// tests/runtime, and refused on a simulator), and the modelled source.
#include <catch2/catch.hpp>

#include "tests/test_support.hpp"
#include <atomic>
#include <cstdio>

#include "jit/isa/error.hpp"
#include "runtime/backends.hpp"
#include "runtime/hip_source.hpp"
#include "runtime/tune/parallel_source.hpp"
#include "runtime/tune/search.hpp"
#include "runtime/tune/time_source.hpp"
#include "tests/tune/test_seed.hpp"

using namespace cdnajit;
using namespace cdnajit::tune;

TEST_CASE("replay source: reproducible per seed, independent per candidate", "[tune][source]") {
  NoiseModel m = seed_calibrated();
  auto a = replay_source({0.1, 0.2}, m, tune_test_seed());
  auto b = replay_source({0.1, 0.2}, m, tune_test_seed());
  auto c = replay_source({0.1, 0.2}, m, tune_test_seed() + 1);
  CHECK(a->kind() == TimeKind::replay);
  CHECK(a->candidates() == 2);
  bool differs = false;
  for (int i = 0; i < 20; ++i) {
    double x = a->run_once(i % 2), y = b->run_once(i % 2), z = c->run_once(i % 2);
    CHECK(x == y);
    differs |= x != z;
  }
  CHECK(differs);
  CHECK_THROWS_WITH(a->run_once(2), Catch::Contains("candidate 2 out of range (have 2)"));
  CHECK_THROWS_WITH(replay_source({0.1, 0.0}, m, 1), Catch::Contains("true time of candidate 1 is 0 ms"));
  CHECK_THROWS_WITH(replay_source({0.1}, std::vector<NoiseModel>{}, 1), Catch::Contains("1 true times but 0 noise"));
}

TEST_CASE("scripted source", "[tune][source]") {
  auto s = scripted_source({{1.0, 2.0}, {3.0}});
  CHECK(s->run_once(0) == 1.0);
  CHECK(s->run_once(1) == 3.0);
  CHECK(s->run_once(0) == 2.0);
  CHECK_THROWS_WITH(s->run_once(1), Catch::Contains("candidate 1 has only 1 scripted runs"));
}

TEST_CASE("time kinds", "[tune][source]") {
  for (TimeKind k : {TimeKind::gpu_measured, TimeKind::modelled, TimeKind::replay})
    CHECK(parse_time_kind(time_kind_name(k)) == k);
  CHECK_THROWS_WITH(parse_time_kind("guess"), Catch::Contains("valid: gpu-measured, modelled, replay"));
}

TEST_CASE("GPU source: hipEvents through the Device API", "[tune][source][fakehip]") {
  // The fake libamdhip64 reports 0.25 ms for every event pair; what is tested
  // is the plumbing: a launch per run, its hipEvent time returned as-is.
  auto dev = detail::make_hip_device_from({CDNAJIT_FAKE_HIP}, 0);
  auto co = compile_hip(R"(extern "C" __global__ void k(float* p) { p[threadIdx.x] = 1.0f; })", dev->arch());
  Module mod = dev->load(co);
  DeviceKernel k = mod.kernel("k");
  Buffer b = dev->alloc(256);
  int launches = 0;
  Launch l = [&] {
    ++launches;
    return dev->launch(k, {1}, {64}, 0, KernelArgs().ptr(b));
  };
  auto src = gpu_event_source(*dev, {l, l});
  CHECK(src->kind() == TimeKind::gpu_measured);
  CHECK(src->label() == "hip:0 (Fake Instinct, gfx942:sramecc+:xnack-) hipEvents (gpu-measured)");
  CHECK(src->run_once(1) == 0.25);
  CHECK(launches == 1);
  // A launch that yields no event time (the simulator's) is an error, not a number.
  auto sim = open_device("sim:gfx942");
  auto no_time = gpu_event_source(*dev, {[&] { return LaunchResult{}; }});
  CHECK_THROWS_WITH(no_time->run_once(0), Catch::Contains("returned no hipEvent time"));
  CHECK_THROWS_WITH(gpu_event_source(*sim, {}), Catch::Contains("sim:gfx942 has no GPU clock"));
}

TEST_CASE("GPU source on this machine's real HIP: unavailable, with the reason", "[tune][source][needs_no_gpu]") {
  HipAvailability h = hip_availability();
  if (h.device_count > 0) CDNAJIT_SKIP("a HIP device is present; this check is for machines without one");
  std::printf("hip:0 here: %s\n", h.reason.c_str());
  CHECK_THROWS_AS(open_device("hip:0"), Error);
}

TEST_CASE("modelled source: a model plugs in; the simulator's model times a real launch", "[tune][source]") {
  // A stand-in model for the interface test: it runs the launch and reports
  // a fixed number per call (labelled modelled, as every model time is).
  struct Counting final : TimingModel {
    std::string name() const override { return "test-model"; }
    double modelled_ms(const LaunchSpec& l) override { return l.run().host_ms >= 0 ? 1.5 : 0.0; }
  };
  // The spec carries the kernel, grid and arguments a model needs.
  auto sim = open_device("sim:gfx942");
  auto co = compile_hip(R"(extern "C" __global__ void k(float* p) { p[threadIdx.x] = 1.0f; })", sim->arch());
  Module mod = sim->load(co);
  Buffer b = sim->alloc(256);
  LaunchSpec l;
  l.device = sim.get();
  l.kernel = mod.kernel("k");
  l.grid = {1};
  l.block = {64};
  l.args = KernelArgs().ptr(b);
  auto src = modelled_source(std::make_unique<Counting>(), {l, l, l});
  CHECK(src->kind() == TimeKind::modelled);
  CHECK(src->label() == "model test-model (modelled)");
  CHECK(src->candidates() == 3);
  CHECK(src->run_once(2) == 1.5);
  CHECK(sim->download<float>(b)[63] == 1.0f);  // the model ran the launch
  CHECK_THROWS_WITH(LaunchSpec{}.run(), Catch::Contains("without a device or kernel"));
  CHECK_THROWS_WITH(src->run_once(3), Catch::Contains("out of range"));
  // The simulator's timing model: a modelled time of the product, the recorded workgroups run (and
  // compute; here the whole one-workgroup grid) on the simulator, other products / devices are refused by name.
  auto mi300x = open_timing_model("mi300x");
  CHECK(mi300x->name() == "mi300x");
  std::vector<float> zeros(64, 0.0f);
  sim->copy_to_device(b, zeros.data(), zeros.size() * sizeof(float));
  const double ms = mi300x->modelled_ms(l);
  CHECK(ms > 0);
  CHECK(ms < 1.0);  // one 64-lane store: microseconds, not a millisecond
  CHECK(mi300x->modelled_ms(l) == ms);  // deterministic
  CHECK(sim->download<float>(b)[63] == 1.0f);
  CHECK(sim_options(*sim)->recording == nullptr);  // recording was switched off again
  CHECK_THROWS_WITH(open_timing_model("mi355x")->modelled_ms(l), Catch::Contains("gfx950"));
  CHECK_THROWS_WITH(open_timing_model("h100"), Catch::Contains("valid: "));
  CHECK_THROWS_WITH(modelled_source(nullptr, {}), Catch::Contains("no timing model"));
}

TEST_CASE("modelled source: a candidate is modelled once, its later runs repeat that time", "[tune][source]") {
  struct CallCounting final : TimingModel {
    int* calls;
    explicit CallCounting(int* c) : calls(c) {}
    std::string name() const override { return "test-calls"; }
    double modelled_ms(const LaunchSpec&) override { return 0.5 + ++*calls; }
  };
  int calls = 0;
  auto src = modelled_source(std::make_unique<CallCounting>(&calls), {LaunchSpec{}, LaunchSpec{}});
  CHECK(src->run_once(1) == 1.5);
  CHECK(src->run_once(1) == 1.5);
  CHECK(src->run_once(0) == 2.5);
  CHECK(src->run_once(1) == 1.5);
  CHECK(calls == 2);
}

TEST_CASE("parallel deterministic source: workers ahead of the search, same decisions as serial", "[tune][source]") {
  // Candidate i takes 1 + (i % 5) / 10 ms; candidate 3 cannot be timed.
  auto time_of = [](size_t i, int) -> double {
    if (i == 3) throw Error("model failed for candidate 3");
    return 1.0 + double(i % 5) / 10;
  };
  std::vector<std::string> serial_lines, parallel_lines;
  SearchOptions o;
  o.full_samples = 2;
  o.log = [&](const std::string& l) { serial_lines.push_back(l); };
  auto serial = parallel_deterministic_source(TimeKind::modelled, "model test (modelled)", 12, 1, time_of);
  SearchResult a = search(*serial, o);
  o.log = [&](const std::string& l) { parallel_lines.push_back(l); };
  std::atomic<int> calls{0};
  auto par = parallel_deterministic_source(TimeKind::modelled, "model test (modelled)", 12, 3, [&](size_t i, int w) {
    ++calls;
    return time_of(i, w);
  });
  SearchResult b = search(*par, o);
  CHECK(serial_lines == parallel_lines);
  CHECK(b.failed == 1);
  CHECK(b.records[3].reason == "failed: model failed for candidate 3");
  CHECK(*b.best == 0);
  CHECK(calls == 12);  // each candidate computed once, though the search ran most of them 3 times
  CHECK(par->run_once(5) == 1.0);
  CHECK_THROWS_WITH(par->run_once(3), "model failed for candidate 3");
  CHECK_THROWS_WITH(par->run_once(12), Catch::Contains("candidate 12 out of range"));
  // A search that stops early leaves at most `workers` candidates computed ahead.
  std::atomic<int> calls2{0};
  auto ahead = parallel_deterministic_source(TimeKind::modelled, "m", 100, 2, [&](size_t i, int) {
    ++calls2;
    return 1.0 + double(i) / 100;  // each later candidate slower: patience stops the search
  });
  o.patience = 3;
  o.log = nullptr;
  SearchResult c = search(*ahead, o);
  CHECK(c.records.size() == 4);
  ahead.reset();  // joins the workers
  CHECK(calls2 <= 4 + 2);
  CHECK_THROWS_WITH(parallel_deterministic_source(TimeKind::modelled, "m", 1, 0, time_of), Catch::Contains("0 workers"));
}
