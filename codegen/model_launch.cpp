#include "codegen/model_launch.hpp"

#include "jit/isa/error.hpp"
#include "jit/codeobject/code_object.hpp"

namespace cdnajit::codegen {

// One launch of `b` on the simulator device `dev`, running only the workgroups the model
// records, then the CU replay over the full grid.
model::ModelReport model_launch_of(Device& dev, const model::Hardware& hw, const BuildResult& b, Dim3 grid,
                                   uint32_t threads, const KernelArgs& args, double flops) {
  CodeObject co = read_code_object(b.code_object);
  const KernelInfo* k = co.find(b.name);
  if (!k) throw Error("model: no kernel '" + b.name + "' in its code object");
  const model::LaunchPlan plan = model::plan_launch(*k, co.arch, sim_launch_dims(grid, {threads}, 0), hw);
  sim::Recording rec = model::recording_for(plan, hw, model::kSampledTracedWorkgroups);
  sim::Options* opt = sim_options(dev);
  if (!opt) throw Error("model: needs a simulator device, got " + dev.name());
  const sim::Options saved = *opt;
  opt->recording = &rec;
  opt->only_recorded_workgroups = true;
  LaunchResult lr;
  try {
    Module m = dev.load(b.code_object);
    lr = dev.launch(m.kernel(b.name), grid, {threads}, 0, args);
  } catch (...) {
    *opt = saved;
    throw;
  }
  *opt = saved;
  model::ModelOptions mo;
  mo.flops = flops;
  model::ModelReport r = model::model_recording(rec, plan, hw, mo);
  r.sim_seconds = lr.sim_stats ? lr.sim_stats->seconds : 0;
  return r;
}

}  // namespace cdnajit::codegen
