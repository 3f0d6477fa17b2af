#include "runtime/model/model_device.hpp"

#include "jit/isa/error.hpp"

namespace cdnajit::model {

namespace {

// Recording on for one launch: sets the device's recording options and gives the caller's options
// back when it goes out of scope, whether the launch returned or threw.
class RecordingScope {
 public:
  RecordingScope(sim::Options& options, sim::Recording& rec, bool only_recorded)
      : options_(options), saved_(options) {
    options_.recording = &rec;
    options_.only_recorded_workgroups = only_recorded;
  }
  ~RecordingScope() { options_ = saved_; }
  RecordingScope(const RecordingScope&) = delete;
  RecordingScope& operator=(const RecordingScope&) = delete;

 private:
  sim::Options& options_;
  const sim::Options saved_;
};

}  // namespace

ModelledLaunch model_launch(Device& dev, const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                            const KernelArgs& args, const Hardware& hw, const ModelOptions& opt,
                            SimulatedGrid simulated) {
  sim::Options* options = sim_options(dev);
  if (!options)
    throw Error("model_launch: the timing model replays what the simulator records; " + dev.name() +
                " is not a simulator device (open sim:" + std::string(arch_name(hw.arch)) + ")");
  if (hw.arch != dev.arch())
    throw Error("model_launch: model " + hw.name + " is " + std::string(arch_name(hw.arch)) + " but the device is " +
                dev.name());
  ModelledLaunch m;
  m.report.plan = plan_launch(k.info(), dev.arch(), sim_launch_dims(grid, block, dynamic_lds), hw);
  const bool sampled = simulated == SimulatedGrid::sampled;
  sim::Recording rec = recording_for(m.report.plan, hw, sampled ? kSampledTracedWorkgroups : kMaxTracedWorkgroups);
  {
    RecordingScope scope(*options, rec, sampled);
    m.launch = dev.launch(k, grid, block, dynamic_lds, args);
  }
  m.report = model_recording(rec, m.report.plan, hw, opt);
  if (m.launch.sim_stats) m.report.sim_seconds = m.launch.sim_stats->seconds;
  return m;
}

}  // namespace cdnajit::model
