// Modelled time of one launch on a simulator Device, in one call: the launch
// runs as usual (results in the device's buffers, bit-exact) while the
// simulator records the workgroups the model needs, then the model replays them.
//
// snippet-context: std::vector<uint8_t> code_object_bytes; cdnajit::Buffer x; uint32_t n = 1024;
//   auto dev = cdnajit::open_device("sim:gfx942");
//   cdnajit::DeviceKernel k = dev->load(code_object_bytes).kernel("saxpy");
//   auto m = cdnajit::model::model_launch(*dev, k, {n / 256}, {256}, 0,
//                                         cdnajit::KernelArgs().ptr(x).f32(2.0f).i32(n),
//                                         cdnajit::model::product("mi300x"));
//   std::cout << cdnajit::model::format_report(m.report);   // "modelled (model mi300x): ..."
#pragma once
#include "runtime/device.hpp"
#include "runtime/model/launch_model.hpp"

namespace cdnajit::model {

struct ModelledLaunch {
  LaunchResult launch;  // what Device::launch returned (simulator statistics, kernarg, host time)
  ModelReport report;   // the modelled time on `hw`, labelled with its name
};

// The one entry to the timing model for a launch on a device: every caller that models a launch
// of a Device goes through here. The launch goes through the device (its launcher, if one is set,
// runs each functional run: e.g. `cdnajit run` placing a code object's data) to
// launch_model.hpp's model_run: plan, recording, and for a kernel that reads in-kernel clocks
// (SimulatedGrid::full) the runs to the fixed point of its modelled clock values, then the replay.
// SimulatedGrid (launch_model.hpp) says which workgroups run. Throws cdnajit::Error when `dev` is
// not a simulator device or `hw` is another arch's product. The device's simulator options and
// launcher are restored afterwards, also on error.
ModelledLaunch model_launch(Device& dev, const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                            const KernelArgs& args, const Hardware& hw, const ModelOptions& opt = {},
                            SimulatedGrid simulated = SimulatedGrid::full);

}  // namespace cdnajit::model
