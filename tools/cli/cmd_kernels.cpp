// list / dump / build / stats of the built-in kernels.
#include <fmt/format.h>

#include <iostream>

#include "tools/builtin_kernels.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/files.hpp"
#include "tools/cli/values.hpp"
#include "tools/stats_format.hpp"

namespace cdnajit::cli {

namespace {

struct KernelOptions {
  std::string kernel;
  Arch arch = Arch::gfx950;
  BuildOptions build;
  std::string output;
};

void add_kernel_options(CLI::App* c, KernelOptions& o) {
  c->add_option("--kernel", o.kernel, "built-in kernel name (see 'cdnajit list')")
      ->required()
      ->check(check_builtin_kernel_name);  // at parse time, so a misspelt name is status 2
  add_arch_option(c, o.arch);
  add_pass_mode_options(c, o.build);
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
  cl.add("list", "print the built-in kernel names", [] {
    for (const std::string& n : builtin_kernel_names()) std::cout << n << "\n";
    return 0;
  });

  auto dump = std::make_shared<KernelOptions>();
  CLI::App* d = cl.add("dump", "print the exact .s of a built-in kernel", [dump] {
    const KernelOptions& o = *dump;
    BuildOptions b = o.build;
    b.link = false;
    BuildResult r = build_builtin_kernel(o.kernel, o.arch, b);
    if (!o.output.empty()) write_file(o.output, r.assembly.data(), r.assembly.size());
    else std::cout << r.assembly;
    return report_findings(r);
  });
  add_kernel_options(d, *dump);
  add_output_option(d, dump->output, "write the .s to FILE instead of stdout");

  auto build = std::make_shared<KernelOptions>();
  CLI::App* b = cl.add("build", "assemble and link a built-in kernel into a code object", [build] {
    const KernelOptions& o = *build;
    BuildResult r = build_builtin_kernel(o.kernel, o.arch, o.build);
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
  CLI::App* s = cl.add("stats", "registers, LDS, occupancy and instruction mix of a built-in kernel", [stats] {
    const KernelOptions& o = *stats;
    BuildResult r = build_builtin_kernel(o.kernel, o.arch, o.build);
    std::cout << format_kernel_stats(r);
    return report_findings(r);
  });
  add_kernel_options(s, *stats);
}

}  // namespace cdnajit::cli
