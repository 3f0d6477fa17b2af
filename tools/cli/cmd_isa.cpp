// isa: the instruction reference from the table (jit/isa/reference.hpp).
#include <fmt/format.h>

#include "jit/isa/error.hpp"
#include "jit/isa/reference.hpp"
#include "jit/isa/suggest.hpp"
#include "tools/cli/commands.hpp"

namespace cdnajit::cli {

namespace {

struct IsaOptions {
  std::string arch, pattern;
};

int isa_reference(const IsaOptions& o) {
  std::optional<Arch> arch;
  if (!o.arch.empty()) arch = parse_arch(o.arch);  // checked while parsing
  size_t n = 0;
  std::string text = isa::reference_markdown(arch, o.pattern, &n);
  if (n == 0) {
    const bool plain_name = o.pattern.find_first_of("*?[") == std::string::npos;
    if (const isa::InstrInfo* info = plain_name ? isa::find(o.pattern) : nullptr)
      throw Error(o.pattern + " does not exist on " + o.arch + " (it is " +
                  std::string(info->on(Arch::gfx942) ? "gfx942" : "gfx950") + "-only)");
    // A name that matches nothing: say what it most likely was.
    throw Error("no instruction matches '" + o.pattern + "'" + (plain_name ? isa::did_you_mean(o.pattern) : std::string()));
  }
  fmt::print("{}", text);
  return 0;
}

}  // namespace

void add_isa_command(CommandLine& cl) {
  auto o = std::make_shared<IsaOptions>();
  CLI::App* c = cl.add("isa",
                       "print the instruction reference from the table: builder call, operands (kinds, widths), "
                       "modifiers, archs, unit, wait counter, MFMA passes (Markdown)",
                       [o] { return isa_reference(*o); });
  c->add_option("pattern", o->pattern, "mnemonic or glob (v_mfma_*bf16*); default: every instruction");
  c->add_option("--arch", o->arch, "only instructions gfx942 or gfx950 has")->check(CLI::IsMember({"gfx942", "gfx950"}));
}

}  // namespace cdnajit::cli
