#include "runtime/model/model_device.hpp"

#include "jit/isa/error.hpp"

namespace cdnajit::model {

ModelledLaunch model_launch(Device& dev, const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                            const KernelArgs& args, const Hardware& hw, const ModelOptions& opt) {
  sim::Options* options = sim_options(dev);
  if (!options)
    throw Error("model_launch: the timing model replays what the simulator records; " + dev.name() +
                " is not a simulator device (open sim:" + std::string(arch_name(hw.arch)) + ")");
  if (hw.arch != dev.arch())
    throw Error("model_launch: model " + hw.name + " is " + std::string(arch_name(hw.arch)) + " but the device is " +
                dev.name());
  ModelledLaunch m;
  m.report.plan = plan_launch(k.info(), dev.arch(), sim_launch_dims(grid, block, dynamic_lds), hw);
  sim::Recording rec = recording_for(m.report.plan, hw);
  // Recording on for this launch only; the caller's options come back whatever happens.
  struct Restore {
    sim::Options& o;
    sim::Options saved;
    ~Restore() { o = saved; }
  } restore{*options, *options};
  options->recording = &rec;
  m.launch = dev.launch(k, grid, block, dynamic_lds, args);
  m.report = model_recording(rec, m.report.plan, hw, opt);
  if (m.launch.sim_stats) m.report.sim_seconds = m.launch.sim_stats->seconds;
  return m;
}

}  // namespace cdnajit::model
