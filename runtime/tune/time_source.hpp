// Where the search gets its times from. One interface, three kinds:
//   gpu_measured  HIP events around a launch on a real GPU (hip:N);
//   modelled      a timing model of the simulated device (labelled with the
//                 model's name wherever it appears);
//   replay        samples drawn from a NoiseModel around known true times, for
//                 testing and evaluating the search itself.
// A source times "candidates" by index; the search decides which runs are
// warm-ups. Every call is one launch: a source never averages on its own.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/device.hpp"
#include "runtime/tune/noise_model.hpp"

namespace cdnajit::tune {

enum class TimeKind : uint8_t { gpu_measured, modelled, replay };
std::string_view time_kind_name(TimeKind k);  // "gpu-measured", "modelled", "replay"
TimeKind parse_time_kind(std::string_view s);  // throws Error listing the valid names

class TimeSource {
 public:
  virtual ~TimeSource() = default;
  virtual TimeKind kind() const = 0;
  // Human label printed next to every time: "hip:0 events (gpu-measured)",
  // "model mi355x (modelled)", "replay: ...".
  virtual std::string label() const = 0;
  virtual size_t candidates() const = 0;
  // Runs candidate `i` once and returns its time in milliseconds.
  // Throws cdnajit::Error when the candidate cannot be timed.
  virtual double run_once(size_t i) = 0;
};

// --- GPU: HIP events through the runtime's Device API ---------------------
// One launch per candidate, already bound to its buffers and arguments.
using Launch = std::function<LaunchResult()>;

// A launch described as data, for sources that need more than a callable (a
// timing model replays the kernel's code object with its arguments and grid).
struct LaunchSpec {
  Device* device = nullptr;
  std::optional<DeviceKernel> kernel;
  Dim3 grid, block;
  uint32_t dynamic_lds = 0;
  KernelArgs args;
  std::shared_ptr<void> keep_alive;  // buffers and module the arguments point into
  // Further launches that complete the same operation (split-K's finalize), run after this one
  // and timed with it: a source's time is the sum over the chain.
  std::vector<LaunchSpec> then;
  // device->launch(...) of this launch and then each of `then`; Error if incomplete. gpu_ms is
  // the sum over the chain when every launch has one; sim_stats are this launch's.
  LaunchResult run() const;
  Launch as_launch() const;          // a callable that runs it (shares keep_alive)
};
// The launch of candidate i, produced when the candidate is first timed: a tuner
// checks and binds a configuration only when the search reaches it, and the
// provider throws Error (build failed, wrong result, bind failed) for one that
// cannot be timed. The reference stays valid for the source's lifetime.
using LaunchProvider = std::function<const LaunchSpec&(size_t i)>;

// `device` must be a HIP device (hip:N): a simulator has no GPU clock, and a
// wall-clock time of the simulator is not a kernel time. Throws Error otherwise.
std::unique_ptr<TimeSource> gpu_event_source(Device& device, std::vector<Launch> launches);
std::unique_ptr<TimeSource> gpu_event_source(Device& device, size_t candidates, LaunchProvider launch);

// --- Modelled: the simulator's timing model -------------------------------
// The interface a timing model implements to plug in: the modelled time of
// one launch. The spec carries what a model needs to replay it (code object
// via spec.kernel->module(), arguments, grid, block, LDS, the simulator device).
// Deterministic, so the tuner takes two samples per survivor, not ten.
struct TimingModel {
  virtual ~TimingModel() = default;
  virtual std::string name() const = 0;  // "mi355x"
  virtual double modelled_ms(const LaunchSpec& launch) = 0;
};
std::unique_ptr<TimeSource> modelled_source(std::unique_ptr<TimingModel> model, std::vector<LaunchSpec> launches);
std::unique_ptr<TimeSource> modelled_source(std::unique_ptr<TimingModel> model, size_t candidates, LaunchProvider launch);
// The simulator's timing model (runtime/model) for product `model_name`
// ("mi300x", "mi325x", "mi350x", "mi355x" or a product file, model::resolve_product; Error naming the valid ones
// otherwise), in runtime/tune/sim_timing_model.cpp. Launches must be on a
// simulator device of the product's arch.
std::unique_ptr<TimingModel> open_timing_model(std::string_view model_name);

// --- Replay: known true times plus a noise model --------------------------
// Candidate i has true time true_ms[i]; its runs come from NoisyKernel with a
// seed derived from (seed, i), so a search is reproducible from `seed`.
std::unique_ptr<TimeSource> replay_source(std::vector<double> true_ms, const NoiseModel& noise, uint64_t seed);
// Per-candidate noise models (a scenario may mix short and long kernels).
std::unique_ptr<TimeSource> replay_source(std::vector<double> true_ms, std::vector<NoiseModel> noise, uint64_t seed);

// --- Scripted: fixed sequences per candidate (tests of the decision rules) --
// Candidate i returns runs[i][0], runs[i][1], ...; running past the end is an Error.
std::unique_ptr<TimeSource> scripted_source(std::vector<std::vector<double>> runs);

}  // namespace cdnajit::tune
