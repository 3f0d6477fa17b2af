// One configuration of a registered family on one problem, run and checked: generate, run the
// whole problem on a device, verify against the family's reference (its tolerance rule), print
// the kernel's stats and, with a model, the modelled time of the launch. `cdnajit job FAMILY`
// and `cdnajit run --family FAMILY` are this one path.
#pragma once
#include <string>
#include <string_view>

#include "tools/cli/family_options.hpp"

namespace cdnajit::cli {

struct FamilyJob {
  FamilyKernelOptions kernel;
  Arch arch = Arch::gfx950;
  BuildOptions build;
  std::string device;  // "" = sim:ARCH; else a device spec of --arch (hip:N runs on a GPU)
  std::string model;   // "" = the arch's default product; "none" = skip
  bool model_only = false;
  sim::Options sim;    // the simulator's options (run's --timeout, --mfma-numerics, ...)
};

// Checks what needs no work (family, problem, configuration, product, device); throws Error.
// `command` names the caller in messages ("job", "run --family").
void check_family_job(FamilyJob& j, std::string_view command);
// Runs it; 0 when the verification passed (or was skipped), 1 when it failed.
int run_family_job(const FamilyJob& j, std::string_view command);

}  // namespace cdnajit::cli
