#include "runtime/model/model_device.hpp"

#include "jit/isa/error.hpp"

namespace cdnajit::model {

namespace {

// The model's launcher on the device for one launch: gives the device's previous launcher back when
// it goes out of scope, whether the launch returned or threw.
class LauncherScope {
 public:
  LauncherScope(Device& dev, SimLauncher model) : dev_(dev), saved_(sim_launcher(dev)) { set_sim_launcher(dev, std::move(model)); }
  ~LauncherScope() { set_sim_launcher(dev_, saved_); }
  LauncherScope(const LauncherScope&) = delete;
  LauncherScope& operator=(const LauncherScope&) = delete;
  const SimLauncher& saved() const { return saved_; }

 private:
  Device& dev_;
  const SimLauncher saved_;
};

}  // namespace

ModelledLaunch model_launch(Device& dev, const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                            const KernelArgs& args, const Hardware& hw, const ModelOptions& opt,
                            SimulatedGrid simulated) {
  if (!sim_options(dev))
    throw Error("model_launch: the timing model replays what the simulator records; " + dev.name() +
                " is not a simulator device (open sim:" + std::string(arch_name(hw.arch)) + ")");
  if (hw.arch != dev.arch())
    throw Error("model_launch: model " + hw.name + " is " + std::string(arch_name(hw.arch)) + " but the device is " +
                dev.name());
  ModelledLaunch m;
  bool modelled = false;
  {
    // Device::launch packs the arguments and calls the launcher once; the model runs the launch
    // (once, or more for in-kernel clocks) through the device's own launcher when it has one.
    LauncherScope scope(dev, nullptr);
    const SimLauncher& inner = scope.saved();
    set_sim_launcher(dev, [&](sim::Simulator& s, const CodeObject& co, std::string_view kernel, std::span<const uint8_t> ka,
                              const sim::LaunchDims& dims, const sim::Options& o) {
      const RunLaunch run = [&](const sim::Options& ro) {
        return inner ? inner(s, co, kernel, ka, dims, ro) : s.launch(co, kernel, ka, dims, ro);
      };
      sim::Stats st;
      m.report = model_run(run, s.memory(), k.info(), dev.arch(), dims, o, hw, opt, simulated, &st);
      modelled = true;
      return st;
    });
    m.launch = dev.launch(k, grid, block, dynamic_lds, args);
  }
  if (!modelled) throw Error("model_launch: the device ran the launch without the model (internal error)");
  return m;
}

}  // namespace cdnajit::model
