// The timing model in the cdnajit command: `run ... --model NAME [--trace FILE.json]` and
// the seed job's modelled times. Kept here so tools/cdnajit.cpp only calls in.
#pragma once
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "codegen/dwconv3d_shape.hpp"
#include "runtime/device.hpp"
#include "runtime/model/launch_model.hpp"

namespace cdnajit::model_cli {

// State of one modelled `run`: the plan and the recording the simulator fills.
struct RunModel {
  const model::Hardware* hw = nullptr;
  Arch arch = Arch::gfx942;  // the code object's
  std::string trace_path;
  model::LaunchPlan plan;
  model::ModelOptions options;
  model::ModelReport report;  // filled by launch()
  bool launched = false;
};

// nullptr unless a product was named (`--model NAME`). Checks the product against the code
// object's arch and that `device` (if any) is the simulator. Throws cdnajit::Error naming the problem.
std::unique_ptr<RunModel> prepare_run(const std::string& product, const std::string& trace_path, const std::string& device,
                                      const std::vector<uint8_t>& code_object, const std::string& kernel, Dim3 grid,
                                      Dim3 block, uint32_t dynamic_lds);
// The launch on a simulator device through model::model_launch (model_device.hpp), which records,
// models and, for a kernel that reads in-kernel clocks, re-runs it until the clock values are the
// model's; fills m.report.
LaunchResult launch(Device& dev, RunModel& m, const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                    const KernelArgs& args);
// After the launch: prints the modelled report (and writes the trace when asked).
void print_run(std::ostream& out, RunModel& m, double flops = 0);

// The seed job's model lines: the JIT variant and the HIP V97 reference on the seed shape.
// `product` "" = the product the seed measured on for the arch; "none" = skip.
void print_seed(std::ostream& out, Arch arch, codegen::DwVariant v, codegen::DwMapping m, const std::string& product,
                const std::string& trace_path);

}  // namespace cdnajit::model_cli
