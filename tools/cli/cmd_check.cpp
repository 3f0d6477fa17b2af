// check: static findings for a code object (tools/check_code_object.hpp).
#include <fmt/format.h>

#include <array>
#include <optional>

#include "tools/check_code_object.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/files.hpp"
#include "tools/cli/values.hpp"

namespace cdnajit::cli {

namespace {

struct CheckOptions {
  std::string file, kernel;
  std::optional<Dim3> block;
};

int check(const CheckOptions& o) {
  std::vector<uint8_t> co = read_regular_file(o.file, "code object", kMaxCodeObjectBytes, true);
  std::array<uint32_t, 3> block{};
  if (o.block) block = {o.block->x, o.block->y, o.block->z};
  CheckResult r = check_code_object(co, o.kernel, o.block ? &block : nullptr);
  for (const CheckFinding& f : r.findings)
    fmt::print("{}: {} +0x{:x}: {}  [{}] {}\n", o.file, f.kernel, f.pc, f.inst, f.rule, f.message);
  fmt::print("{} kernel{}, {} instructions checked (wait counts, hazards, simulator coverage{}): {} finding{}\n",
             r.kernels.size(), r.kernels.size() == 1 ? "" : "s", r.instructions, o.block ? ", work-item ids" : "",
             r.findings.size(), r.findings.size() == 1 ? "" : "s");
  return r.findings.empty() ? 0 : 1;
}

}  // namespace

void add_check_command(CommandLine& cl) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* c = cl.add("check",
                       "statically check a code object: wait counts, hazards and simulator coverage of every "
                       "instruction, what the simulator does not model (calls out of the kernel, addresses outside the "
                       "code object's image; its global variables are modelled), "
                       "and with --block the work-item ids the launch needs (exit 1 on findings)",
                       [o] { return check(*o); });
  c->add_option("file", o->file, "the code object (.co)")->required();
  c->add_option("--kernel", o->kernel, "check only this kernel (default: every kernel)");
  add_typed_option(c, "--block", o->block,
                   [](std::string_view t, std::string_view w) {
                     const Dim3 b = parse_dim3(t, w, 1024);
                     if (uint64_t(b.x) * b.y * b.z > 1024)
                       throw Error(fmt::format("{}: {}x{}x{} = {} work-items per workgroup (valid: at most 1024)", w, b.x,
                                               b.y, b.z, uint64_t(b.x) * b.y * b.z));
                     return b;
                   },
                   "the launch's work-items per workgroup X[,Y,Z]: also check that the kernel enables the work-item "
                   "ids the block has");
}

}  // namespace cdnajit::cli
