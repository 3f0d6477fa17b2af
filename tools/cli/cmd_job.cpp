// job: one configuration of any registered family on one problem: generate, run on the
// simulator, verify against the family's reference (its tolerance rule), print the kernel's
// stats and the modelled time of the problem's launch.
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "runtime/model/hardware.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/family_options.hpp"
#include "tools/cli/values.hpp"
#include "tools/stats_format.hpp"
#include "tools/tune_families/registry.hpp"

namespace cdnajit::cli {

namespace {

struct JobOptions {
  FamilyKernelOptions kernel;
  Arch arch = Arch::gfx950;
  BuildOptions build;
  std::string model;  // "" = the arch's default product; "none" = skip
  bool model_only = false;
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int run_job(const JobOptions& o) {
  std::cout << fmt::format("job on {}: {}\n", arch_name(o.arch), o.kernel.str()) << std::flush;
  auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<tune::Candidate> c = o.kernel.build(o.arch, o.build);
  std::cout << fmt::format("generated {} in {:.1f} ms (host time)\n", c->kernel().name, ms_since(t0));
  std::cout << format_kernel_stats(c->kernel());
  std::unique_ptr<Device> dev = open_sim_device(o.arch);
  std::string why;
  if (o.model_only) {
    std::cout << "verification: skipped (--model-only)\n";
  } else {
    t0 = std::chrono::steady_clock::now();
    why = c->verify(*dev);
    std::cout << fmt::format("verification against the {} reference on {} ({:.2f} s host time on the simulator): {}\n",
                             o.kernel.family, dev->name(), ms_since(t0) / 1000, why.empty() ? "pass" : "FAIL: " + why)
              << std::flush;
  }
  if (const model::Hardware* hw = model_for_arch(o.model, o.arch, "the job")) {
    const tune::LaunchSpec launch = c->bind(*dev);
    const double ms = tune::open_timing_model(hw->name)->modelled_ms(launch);
    std::cout << fmt::format("time of the launch (grid {}x{}x{}, block {}{}): {:.4f} ms, modelled (model {})\n",
                             launch.grid.x, launch.grid.y, launch.grid.z, launch.block.x,
                             launch.then.empty() ? "" : fmt::format(", then {} more launch(es)", launch.then.size()), ms,
                             hw->name);
  }
  return why.empty() ? 0 : 1;
}

}  // namespace

void add_job_command(CommandLine& cl) {
  auto o = std::make_shared<JobOptions>();
  CLI::App* c = cl.add("job",
                       "one configuration of a kernel family on one problem: generate, run on the simulator, verify "
                       "against the family's reference, print stats and the modelled time ('cdnajit list' shows the "
                       "families, their problems and configurations)",
                       [o] { return run_job(*o); });
  c->add_option("family", o->kernel.family, "the kernel family (see 'cdnajit list')")->required();
  add_family_config_options(c, o->kernel);
  add_arch_option(c, o->arch);
  add_pass_mode_options(c, o->build);
  c->add_option("--model", o->model,
                "timing-model product for the modelled time (default: mi350x on gfx950, mi300x on gfx942; none = skip)");
  c->add_flag("--model-only", o->model_only,
              "generate and model only (no run on the whole problem, no verification): problems too large to simulate whole");
  c->callback([o] {  // while parsing: a bad family, problem, configuration or product is status 2 before any work
    o->kernel.resolve(o->arch);
    model_for_arch(o->model, o->arch, "the job");  // throws listing the products, or naming both archs
    if (o->model_only && o->model == "none") throw Error("--model-only needs the timing model (drop --model none)");
  });
}

}  // namespace cdnajit::cli
