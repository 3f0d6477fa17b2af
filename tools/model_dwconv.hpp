// Modelled time of a depthwise conv3d kernel on the seed shape (shared by
// `cdnajit seed` and tools/report_model). The functional simulator runs the
// first `channels` channels (0: just enough for the workgroups the model
// records) with recording on; the model times the full seed grid.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/model/launch_model.hpp"

namespace cdnajit::model_dwconv {

struct SeedModel {
  model::ModelReport report;
  double sim_seconds = 0;        // functional run with recording (median over the cost runs)
  double sim_plain_seconds = 0;  // the same launch without recording (median; when asked for)
  uint32_t simulated_workgroups = 0;
  sim::Recording recording;      // kept so the same run can be re-modelled under other parameters
  model::LaunchPlan plan;
};

// cost_runs > 0 also times the model's host overhead: the launch runs cost_runs times
// without and cost_runs times with recording, alternating (so a load change on a shared
// machine hits both alike), and both seconds are medians.
SeedModel model_seed_kernel(const model::Hardware& hw, const std::vector<uint8_t>& code_object, const std::string& kernel,
                            int channels, const model::ModelOptions& opt, int cost_runs = 0);

}  // namespace cdnajit::model_dwconv
