#include "runtime/tune/time_source.hpp"

#include <fmt/format.h>

#include "jit/isa/error.hpp"
#include "runtime/backends.hpp"

namespace cdnajit::tune {

std::string_view time_kind_name(TimeKind k) {
  switch (k) {
    case TimeKind::gpu_measured: return "gpu-measured";
    case TimeKind::modelled: return "modelled";
    case TimeKind::replay: return "replay";
  }
  return "?";
}

TimeKind parse_time_kind(std::string_view s) {
  for (TimeKind k : {TimeKind::gpu_measured, TimeKind::modelled, TimeKind::replay})
    if (time_kind_name(k) == s) return k;
  throw Error(fmt::format("unknown time source kind '{}' (valid: gpu-measured, modelled, replay)", s));
}

LaunchResult LaunchSpec::run() const {
  if (!device || !kernel) throw Error("launch spec without a device or kernel");
  LaunchResult r = device->launch(*kernel, grid, block, dynamic_lds, args);
  for (const LaunchSpec& next : then) {
    LaunchResult n = next.run();
    r.gpu_ms = r.gpu_ms && n.gpu_ms ? std::optional<double>(*r.gpu_ms + *n.gpu_ms) : std::nullopt;
    r.host_ms += n.host_ms;
  }
  return r;
}

Launch LaunchSpec::as_launch() const {
  LaunchSpec copy = *this;
  return [copy] { return copy.run(); };
}

namespace {

void check_index(size_t i, size_t n, std::string_view what) {
  if (i >= n) throw Error(fmt::format("{}: candidate {} out of range (have {})", what, i, n));
}

// hipEvent times of a hip:N device: measured on a GPU; on cdnajit's drop-in runtime
// (runtime/hip_sim) modelled, and labelled and filed as such.
class GpuEventSource final : public TimeSource {
 public:
  GpuEventSource(Device& d, std::vector<Launch> l, std::string source)
      : device_(d), launches_(std::move(l)), source_(std::move(source)) {}
  TimeKind kind() const override { return source_.empty() ? TimeKind::gpu_measured : TimeKind::modelled; }
  std::string label() const override {
    return device_.name() + " hipEvents (" + (source_.empty() ? "gpu-measured" : source_ + ", cdnajit drop-in runtime") + ")";
  }
  size_t candidates() const override { return launches_.size(); }
  double run_once(size_t i) override {
    check_index(i, launches_.size(), "gpu time source");
    LaunchResult r = launches_[i]();
    if (!r.gpu_ms) throw Error(fmt::format("{}: launch of candidate {} returned no hipEvent time", device_.name(), i));
    return *r.gpu_ms;
  }

 private:
  Device& device_;
  std::vector<Launch> launches_;
  std::string source_;  // detail::hip_event_time_source: empty on a GPU
};

class ModelledSource final : public TimeSource {
 public:
  ModelledSource(std::unique_ptr<TimingModel> m, size_t n, LaunchProvider l)
      : model_(std::move(m)), launch_(std::move(l)), times_(n) {}
  TimeKind kind() const override { return TimeKind::modelled; }
  std::string label() const override { return "model " + model_->name() + " (modelled)"; }
  size_t candidates() const override { return times_.size(); }
  // A model is deterministic: a candidate's first modelled time is its time for every later run
  // (a warm-up and the samples would each re-run the simulation for the same number).
  double run_once(size_t i) override {
    check_index(i, times_.size(), "modelled time source");
    if (!times_[i]) times_[i] = model_->modelled_ms(launch_(i));
    return *times_[i];
  }

 private:
  std::unique_ptr<TimingModel> model_;
  LaunchProvider launch_;
  std::vector<std::optional<double>> times_;
};

class ReplaySource final : public TimeSource {
 public:
  ReplaySource(std::vector<double> t, const std::vector<NoiseModel>& noise, uint64_t seed) {
    if (noise.size() != t.size())
      throw Error(fmt::format("replay source: {} true times but {} noise models", t.size(), noise.size()));
    for (size_t i = 0; i < t.size(); ++i) {
      if (!(t[i] > 0)) throw Error(fmt::format("replay source: true time of candidate {} is {} ms (must be > 0)", i, t[i]));
      // Distinct, reproducible streams per candidate (splitmix64 of seed and index).
      uint64_t z = seed + 0x9E3779B97F4A7C15ull * (i + 1);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      kernels_.emplace_back(t[i], noise[i], z ^ (z >> 31));
    }
  }
  TimeKind kind() const override { return TimeKind::replay; }
  std::string label() const override { return "replay (noise model, not a kernel time)"; }
  size_t candidates() const override { return kernels_.size(); }
  double run_once(size_t i) override {
    check_index(i, kernels_.size(), "replay time source");
    return kernels_[i].next();
  }

 private:
  std::vector<NoisyKernel> kernels_;
};

class ScriptedSource final : public TimeSource {
 public:
  explicit ScriptedSource(std::vector<std::vector<double>> r) : runs_(std::move(r)), next_(runs_.size(), 0) {}
  TimeKind kind() const override { return TimeKind::replay; }
  std::string label() const override { return "scripted (fixed test values)"; }
  size_t candidates() const override { return runs_.size(); }
  double run_once(size_t i) override {
    check_index(i, runs_.size(), "scripted time source");
    if (next_[i] >= runs_[i].size())
      throw Error(fmt::format("scripted time source: candidate {} has only {} scripted runs", i, runs_[i].size()));
    return runs_[i][next_[i]++];
  }

 private:
  std::vector<std::vector<double>> runs_;
  std::vector<size_t> next_;
};

}  // namespace

std::unique_ptr<TimeSource> gpu_event_source(Device& device, std::vector<Launch> launches) {
  if (device.is_simulator())
    throw Error(fmt::format("{} has no GPU clock: hipEvent times need a HIP device (hip:N); "
                            "on the simulator use the timing model (--model NAME)",
                            device.name()));
  std::string source = detail::hip_event_time_source(device);
  if (!source.empty() && source.rfind("modelled", 0) != 0)
    throw Error(fmt::format("{}: its hipEvent times are {}, neither measured nor modelled; set CDNAJIT_HIP_MODEL "
                            "to a product for modelled times",
                            device.name(), source));
  return std::make_unique<GpuEventSource>(device, std::move(launches), std::move(source));
}

std::unique_ptr<TimeSource> gpu_event_source(Device& device, size_t candidates, LaunchProvider launch) {
  std::vector<Launch> calls;
  for (size_t i = 0; i < candidates; ++i) calls.push_back([launch, i] { return launch(i).run(); });
  return gpu_event_source(device, std::move(calls));
}

std::unique_ptr<TimeSource> modelled_source(std::unique_ptr<TimingModel> model, size_t candidates, LaunchProvider launch) {
  if (!model) throw Error("modelled time source: no timing model given");
  return std::make_unique<ModelledSource>(std::move(model), candidates, std::move(launch));
}

std::unique_ptr<TimeSource> modelled_source(std::unique_ptr<TimingModel> model, std::vector<LaunchSpec> launches) {
  auto held = std::make_shared<std::vector<LaunchSpec>>(std::move(launches));
  size_t n = held->size();
  return modelled_source(std::move(model), n, [held](size_t i) -> const LaunchSpec& { return (*held)[i]; });
}

std::unique_ptr<TimeSource> replay_source(std::vector<double> true_ms, const NoiseModel& noise, uint64_t seed) {
  std::vector<NoiseModel> per(true_ms.size(), noise);
  return std::make_unique<ReplaySource>(std::move(true_ms), per, seed);
}

std::unique_ptr<TimeSource> replay_source(std::vector<double> true_ms, std::vector<NoiseModel> noise, uint64_t seed) {
  return std::make_unique<ReplaySource>(std::move(true_ms), noise, seed);
}

std::unique_ptr<TimeSource> scripted_source(std::vector<std::vector<double>> runs) {
  return std::make_unique<ScriptedSource>(std::move(runs));
}

}  // namespace cdnajit::tune
