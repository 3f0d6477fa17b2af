// The simulator's timing model as the tuner's TimingModel: each launch runs on
// its simulator device with recording on for the workgroups one CU holds
// (runtime/model's launch plan), and the CU model replays them. The result is
// a modelled time of the product, never a measurement.
#include <fmt/format.h>

#include "runtime/model/launch_model.hpp"
#include "runtime/model/product_file.hpp"
#include "runtime/model/model_device.hpp"
#include "runtime/tune/time_source.hpp"

namespace cdnajit::tune {

namespace {

class SimTimingModel final : public TimingModel {
 public:
  explicit SimTimingModel(const model::Hardware& hw) : hw_(hw) {}
  std::string name() const override { return hw_.name; }

  // The chain's modelled times summed (split-K: the GEMM and its finalize).
  double modelled_ms(const LaunchSpec& l) override {
    double ms = modelled_one(l);
    for (const LaunchSpec& next : l.then) ms += modelled_ms(next);
    return ms;
  }

 private:
  // The simulator runs only the workgroups the model records (the outputs of a timing launch are
  // not used: candidates are checked for correctness separately), so a large grid costs a few
  // workgroups of simulation.
  double modelled_one(const LaunchSpec& l) {
    if (!l.device || !l.kernel) throw Error("model " + hw_.name + ": launch without a device or kernel");
    if (!sim_options(*l.device))
      throw Error(fmt::format("model {}: modelled times need a simulator device (sim:gfx942, sim:gfx950), not {}",
                              hw_.name, l.device->name()));
    return model::model_launch(*l.device, *l.kernel, l.grid, l.block, l.dynamic_lds, l.args, hw_, {},
                               model::SimulatedGrid::sampled)
        .report.ms;
  }

  const model::Hardware& hw_;
};

}  // namespace

std::unique_ptr<TimingModel> open_timing_model(std::string_view model_name) {
  return std::make_unique<SimTimingModel>(model::resolve_product(model_name));
}

}  // namespace cdnajit::tune
