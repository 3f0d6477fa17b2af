// list / dump / build / stats: of any registered family's kernel (--family F [--config k=v]
// [--problem P]) or of a built-in kernel by name (--kernel NAME).
#include <fmt/format.h>

#include <iostream>

#include "tools/builtin_kernels.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/family_options.hpp"
#include "tools/cli/files.hpp"
#include "tools/cli/values.hpp"
#include "tools/stats_format.hpp"
#include "tools/tune_families/registry.hpp"

namespace cdnajit::cli {

namespace {

struct KernelOptions {
  std::string kernel;          // --kernel: a built-in kernel
  FamilyKernelOptions family;  // --family: a family's kernel
  Arch arch = Arch::gfx950;
  BuildOptions build;
  std::string output;
};

void add_kernel_options(CLI::App* c, KernelOptions& o) {
  CLI::Option* k = c->add_option("--kernel", o.kernel, "built-in kernel name (see 'cdnajit list')")
                       ->check(check_builtin_kernel_name);  // at parse time, so a misspelt name is status 2
  add_arch_option(c, o.arch);
  add_pass_mode_options(c, o.build);
  CLI::Option* f = c->add_option("--family", o.family.family, "a kernel family (see 'cdnajit list'); with --config, --problem");
  k->excludes(f);
  add_family_config_options(c, o.family);
  c->callback([&o] {  // while parsing: the family's problem and configuration are checked before any work
    if (o.kernel.empty() && !o.family.given()) throw Error("give --kernel NAME or --family NAME (see 'cdnajit list')");
    if (o.family.given()) o.family.resolve(o.arch);
    else if (!o.family.config.empty() || !o.family.problem.empty())
      throw Error("--config and --problem choose a family's kernel: give --family NAME (see 'cdnajit list')");
  });
}

// The kernel the options name, built with `opts`.
BuildResult build_kernel(const KernelOptions& o, const BuildOptions& opts) {
  if (!o.kernel.empty()) return build_builtin_kernel(o.kernel, o.arch, opts);
  return o.family.build(o.arch, opts)->kernel();
}

// A pass in verify mode that found something fails the command (status 1),
// after printing every finding.
int report_findings(const BuildResult& r) {
  if (r.stats.pass_findings.empty()) return 0;
  std::cerr << "cdnajit: " << r.stats.pass_findings.size() << " finding(s) of passes in verify mode:\n";
  for (const std::string& f : r.stats.pass_findings) std::cerr << "  " << f << "\n";
  return 1;
}

}  // namespace

void add_kernel_commands(CommandLine& cl) {
  auto names_only = std::make_shared<bool>(false);
  CLI::App* l = cl.add("list", "print the kernel families with their problems and configurations, and the built-in kernels",
                       [names_only] {
                         if (!*names_only) {
                           std::cout << "kernel families ('cdnajit job FAMILY', 'dump/build/stats/tune --family FAMILY'; "
                                        "--config NAME=VALUE, --problem TEXT):\n";
                           for (const tune::Family* f : tune::all_families()) std::cout << tune::describe_family(*f);
                           std::cout << "\nbuilt-in kernels ('dump/build/stats --kernel NAME'):\n";
                         }
                         for (const std::string& n : builtin_kernel_names()) std::cout << n << "\n";
                         return 0;
                       });
  l->add_flag("--kernels", *names_only, "only the built-in kernel names, one per line (for scripts)");

  auto dump = std::make_shared<KernelOptions>();
  CLI::App* d = cl.add("dump", "print the exact .s of a family's kernel or a built-in kernel", [dump] {
    const KernelOptions& o = *dump;
    BuildOptions b = o.build;
    b.link = false;
    BuildResult r = build_kernel(o, b);
    if (!o.output.empty()) write_file(o.output, r.assembly.data(), r.assembly.size());
    else std::cout << r.assembly;
    return report_findings(r);
  });
  add_kernel_options(d, *dump);
  add_output_option(d, dump->output, "write the .s to FILE instead of stdout");

  auto build = std::make_shared<KernelOptions>();
  CLI::App* b = cl.add("build", "assemble and link a family's kernel or a built-in kernel into a code object", [build] {
    const KernelOptions& o = *build;
    BuildResult r = build_kernel(o, o.build);
    if (int bad = report_findings(r)) {
      std::cerr << "cdnajit: " << o.output << " not written\n";
      return bad;
    }
    write_file(o.output, r.code_object.data(), r.code_object.size());
    fmt::print("wrote {} ({} bytes)\n", o.output, r.code_object.size());
    return 0;
  });
  add_kernel_options(b, *build);
  add_output_option(b, build->output, "the code object file to write (.co)")->required();

  auto stats = std::make_shared<KernelOptions>();
  CLI::App* s = cl.add("stats", "registers, LDS, occupancy and instruction mix of a family's kernel or a built-in kernel", [stats] {
    const KernelOptions& o = *stats;
    BuildResult r = build_kernel(o, o.build);
    std::cout << format_kernel_stats(r);
    return report_findings(r);
  });
  add_kernel_options(s, *stats);
}

}  // namespace cdnajit::cli
