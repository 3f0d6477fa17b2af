// check: static findings for a code object (tools/check_code_object.hpp).
#include <fmt/format.h>

#include "tools/check_code_object.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/files.hpp"

namespace cdnajit::cli {

namespace {

struct CheckOptions {
  std::string file, kernel;
};

int check(const CheckOptions& o) {
  std::vector<uint8_t> co = read_regular_file(o.file, "code object", kMaxCodeObjectBytes, true);
  CheckResult r = check_code_object(co, o.kernel);
  for (const CheckFinding& f : r.findings)
    fmt::print("{}: {} +0x{:x}: {}  [{}] {}\n", o.file, f.kernel, f.pc, f.inst, f.rule, f.message);
  fmt::print("{} kernel{}, {} instructions checked (wait counts, hazards, simulator coverage): {} finding{}\n",
             r.kernels.size(), r.kernels.size() == 1 ? "" : "s", r.instructions, r.findings.size(),
             r.findings.size() == 1 ? "" : "s");
  return r.findings.empty() ? 0 : 1;
}

}  // namespace

void add_check_command(CommandLine& cl) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* c = cl.add("check",
                       "statically check a code object: wait counts, hazards and simulator coverage of every "
                       "instruction, and what the simulator does not model (global variables, calls out of the "
                       "kernel) (exit 1 on findings)",
                       [o] { return check(*o); });
  c->add_option("file", o->file, "the code object (.co)")->required();
  c->add_option("--kernel", o->kernel, "check only this kernel (default: every kernel)");
}

}  // namespace cdnajit::cli
