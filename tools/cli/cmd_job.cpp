// job: one configuration of any registered family on one problem: generate, run on the
// simulator, verify against the family's reference (its tolerance rule), print the kernel's
// stats and the modelled time of the problem's launch.
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "runtime/model/hardware.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/family_job.hpp"
#include "tools/cli/values.hpp"
#include "tools/stats_format.hpp"
#include "tools/tune_families/registry.hpp"

namespace cdnajit::cli {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::unique_ptr<Device> open_job_device(const FamilyJob& j) {
  return j.device.empty() ? open_sim_device(j.arch, j.sim) : open_device(j.device, j.sim);
}

}  // namespace

void check_family_job(FamilyJob& j, std::string_view command) {
  j.kernel.resolve(j.arch);
  const std::string runner = fmt::format("the {}", command);
  model_for_arch(j.model, j.arch, runner);  // throws listing the products, or naming both archs
  if (j.model_only && j.model == "none") throw Error("--model-only needs the timing model (drop --model none)");
  if (j.device.empty()) return;
  const auto spec = parse_device_spec(j.device);  // checked while parsing
  if (spec && spec->simulator && spec->arch != j.arch)
    throw Error(fmt::format("--device {} runs {}, but --arch is {} (give --arch {} or --device sim:{})", j.device,
                            arch_name(spec->arch), arch_name(j.arch), arch_name(spec->arch), arch_name(j.arch)));
  if (spec && !spec->simulator && j.model != "none")
    throw Error(fmt::format("--model models the launch on the simulator; drop --model or --device {}", j.device));
}

int run_family_job(const FamilyJob& j, std::string_view command) {
  std::unique_ptr<Device> dev = open_job_device(j);
  if (dev->arch() != j.arch)
    throw Error(fmt::format("{} is a {} device, but --arch is {}", dev->name(), arch_name(dev->arch()), arch_name(j.arch)));
  std::cout << fmt::format("{} on {}: {}\n", command, j.device.empty() ? std::string(arch_name(j.arch)) : dev->name(),
                           j.kernel.str())
            << std::flush;
  auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<tune::Candidate> c = j.kernel.build(j.arch, j.build);
  std::cout << fmt::format("generated {} in {:.1f} ms (host time)\n", c->kernel().name, ms_since(t0));
  std::cout << format_kernel_stats(c->kernel());
  std::string why;
  if (j.model_only) {
    std::cout << "verification: skipped (--model-only)\n";
  } else {
    t0 = std::chrono::steady_clock::now();
    why = c->verify(*dev);
    std::cout << fmt::format("verification against the {} reference on {} ({:.2f} s host time{}): {}\n",
                             j.kernel.family, dev->name(), ms_since(t0) / 1000,
                             dev->is_simulator() ? " on the simulator" : "", why.empty() ? "pass" : "FAIL: " + why)
              << std::flush;
  }
  if (const model::Hardware* hw = model_for_arch(j.model, j.arch, fmt::format("the {}", command))) {
    const tune::LaunchSpec launch = c->bind(*dev);
    const double ms = tune::open_timing_model(hw->name)->modelled_ms(launch);
    std::cout << fmt::format("time of the launch (grid {}x{}x{}, block {}{}): {:.4f} ms, modelled (model {})\n",
                             launch.grid.x, launch.grid.y, launch.grid.z, launch.block.x,
                             launch.then.empty() ? "" : fmt::format(", then {} more launch(es)", launch.then.size()), ms,
                             hw->name);
  }
  return why.empty() ? 0 : 1;
}

void add_job_command(CommandLine& cl) {
  auto o = std::make_shared<FamilyJob>();
  CLI::App* c = cl.add("job",
                       "one configuration of a kernel family on one problem: generate, run on the simulator, verify "
                       "against the family's reference, print stats and the modelled time ('cdnajit list' shows the "
                       "families, their problems and configurations)",
                       [o] { return run_family_job(*o, "job"); });
  c->add_option("family", o->kernel.family, "the kernel family (see 'cdnajit list')")->required();
  add_family_config_options(c, o->kernel);
  add_arch_option(c, o->arch);
  add_pass_mode_options(c, o->build);
  c->add_option("--model", o->model,
                "timing-model product for the modelled time (default: mi350x on gfx950, mi300x on gfx942; none = skip)");
  c->add_flag("--model-only", o->model_only,
              "generate and model only (no run on the whole problem, no verification): problems too large to simulate whole");
  // While parsing: a bad family, problem, configuration or product is status 2 before any work.
  c->callback([o] { check_family_job(*o, "job"); });
}

}  // namespace cdnajit::cli
