#include "tools/jobs/model_launch.hpp"

namespace cdnajit::codegen {

// Loads `b` on `dev` and models one sampled launch of it through the model's one entry.
model::ModelReport model_launch_of(Device& dev, const model::Hardware& hw, const BuildResult& b, Dim3 grid,
                                   uint32_t threads, const KernelArgs& args, double flops) {
  Module m = dev.load(b.code_object);
  model::ModelOptions mo;
  mo.flops = flops;
  return model::model_launch(dev, m.kernel(b.name), grid, {threads}, 0, args, hw, mo, model::SimulatedGrid::sampled)
      .report;
}

}  // namespace cdnajit::codegen
